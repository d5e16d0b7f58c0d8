//===- VOP3.cpp - three-source / VOP3-only vector ALU ----------------------===//
//
// 64-bit shifts and multiply-adds (v_mad_u64_u32: d[1] = carry-out mask),
// bit-field and 3-input integer ops, f32/f64 fma/add/mul/min/max with
// modifiers (the division helpers are in Division.cpp), lane access (readlane/writelane, mbcnt, permlane16/x16).
//
//===----------------------------------------------------------------------===//
#include "Half.h"
#include "Ops.h"

namespace isaemu::detail {

#define I3(NAME, EXPR)                                                                             \
  void NAME(Wave &w, const Inst &I) { vint32(w, I, [](uint32_t a, uint32_t b, uint32_t c) { (void)c; return uint32_t(EXPR); }); }
I3(v_mul_lo_u32, a * b)
I3(v_mul_hi_u32, (uint64_t(a) * b) >> 32)
I3(v_mul_hi_i32, (int64_t(int32_t(a)) * int32_t(b)) >> 32)
I3(v_bfe_u32, (c & 31) == 0 ? 0 : (a >> (b & 31)) & ((c & 31) == 32 ? ~0u : ((1u << (c & 31)) - 1)))
I3(v_bfe_i32, (c & 31) == 0 ? 0 : uint32_t(int32_t(a << (32 - std::min(32u, (c & 31) + (b & 31)))) >> (32 - (c & 31))))
I3(v_bfi_b32, (a & b) | (~a & c))
I3(v_bfm_b32, ((1u << (a & 31)) - 1) << (b & 31))
I3(v_lshl_add_u32, (a << (b & 31)) + c)
I3(v_add_lshl_u32, (a + b) << (c & 31))
I3(v_lshl_or_b32, (a << (b & 31)) | c)
I3(v_and_or_b32, (a & b) | c)
I3(v_or3_b32, a | b | c)
I3(v_xor3_b32, a ^ b ^ c)
I3(v_add3_u32, a + b + c)
I3(v_xad_u32, (a ^ b) + c)
I3(v_alignbit_b32, uint32_t(((uint64_t(a) << 32) | b) >> (c & 31)))
I3(v_alignbyte_b32, uint32_t(((uint64_t(a) << 32) | b) >> (8 * (c & 3))))
I3(v_min3_i32, std::min({int32_t(a), int32_t(b), int32_t(c)}))
I3(v_max3_i32, std::max({int32_t(a), int32_t(b), int32_t(c)}))
I3(v_min3_u32, std::min({a, b, c}))
I3(v_max3_u32, std::max({a, b, c}))
I3(v_med3_i32, std::max(std::min(int32_t(a), int32_t(b)), std::min(std::max(int32_t(a), int32_t(b)), int32_t(c))))
I3(v_med3_u32, std::max(std::min(a, b), std::min(std::max(a, b), c)))
I3(v_bcnt_u32_b32, __builtin_popcount(a) + b)
I3(v_mad_u32_u24, (a & 0xffffff) * (b & 0xffffff) + c)
I3(v_mad_i32_i24, uint32_t(int32_t(a << 8) >> 8) * uint32_t(int32_t(b << 8) >> 8) + c)
I3(v_sad_u32, (a > b ? a - b : b - a) + c)

static uint32_t permByte(uint64_t v, unsigned s) {
  if (s < 8) return (v >> (8 * s)) & 0xff;
  if (s < 12) {
    static const unsigned Bit[4] = {15, 31, 47, 63};
    return ((v >> Bit[s - 8]) & 1) ? 0xff : 0;
  }
  return s == 12 ? 0 : 0xff;
}
void v_perm_b32(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    uint64_t v = uint64_t(vread32(w, I.s[0], l)) << 32 | vread32(w, I.s[1], l);
    uint32_t sel = vread32(w, I.s[2], l), r = 0;
    for (unsigned k = 0; k < 4; ++k) r |= permByte(v, (sel >> (8 * k)) & 0xff) << (8 * k);
    vwrite32(w, I.d[0], l, r);
  });
}

void v_lshlrev_b64(Wave &w, const Inst &I) { lanes(w, [&](unsigned l) { vwrite64(w, I.d[0], l, vread64(w, I.s[1], l) << (vread32(w, I.s[0], l) & 63)); }); }
void v_lshrrev_b64(Wave &w, const Inst &I) { lanes(w, [&](unsigned l) { vwrite64(w, I.d[0], l, vread64(w, I.s[1], l) >> (vread32(w, I.s[0], l) & 63)); }); }
void v_ashrrev_i64(Wave &w, const Inst &I) { lanes(w, [&](unsigned l) { vwrite64(w, I.d[0], l, uint64_t(int64_t(vread64(w, I.s[1], l)) >> (vread32(w, I.s[0], l) & 63))); }); }

// gfx940+: d = (s0 << s1[2:0]) + s2, 64-bit.
void v_lshl_add_u64(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    vwrite64(w, I.d[0], l, (vread64(w, I.s[0], l) << (vread32(w, I.s[1], l) & 7)) + vread64(w, I.s[2], l));
  });
}
void v_mad_u64_u32(Wave &w, const Inst &I) {
  uint64_t Out = 0;
  lanes(w, [&](unsigned l) {
    unsigned __int128 r = (unsigned __int128)(uint64_t(vread32(w, I.s[0], l)) * vread32(w, I.s[1], l)) + vread64(w, I.s[2], l);
    vwrite64(w, I.d[0], l, uint64_t(r));
    Out |= uint64_t(uint64_t(r >> 64) & 1) << l;
  });
  if (I.nd > 1) writeMask(w, I.d[1], Out);
}
void v_mad_i64_i32(Wave &w, const Inst &I) {
  uint64_t Out = 0;
  lanes(w, [&](unsigned l) {
    __int128 r = (__int128)(int64_t(int32_t(vread32(w, I.s[0], l))) * int32_t(vread32(w, I.s[1], l))) +
                 (__int128)int64_t(vread64(w, I.s[2], l));
    vwrite64(w, I.d[0], l, uint64_t(r));
    Out |= uint64_t((r >> 64) != 0 && (r >> 64) != -1) << l;
  });
  if (I.nd > 1) writeMask(w, I.d[1], Out);
}

// ---- floating point ------------------------------------------------------------
void v_fma_f32(Wave &w, const Inst &I) {
  RoundScope R(round32(w));
  lanes(w, [&](unsigned l) {
    vwrite32(w, I.d[0], l, fres32(w, I, std::fma(fsrc32(w, I.s[0], l), fsrc32(w, I.s[1], l), fsrc32(w, I.s[2], l))));
  });
}
void v_fma_f64(Wave &w, const Inst &I) {
  RoundScope R(round64(w));
  lanes(w, [&](unsigned l) {
    vwrite64(w, I.d[0], l, fres64(w, I, std::fma(fsrc64(w, I.s[0], l), fsrc64(w, I.s[1], l), fsrc64(w, I.s[2], l))));
  });
}
#define D2(NAME, EXPR)                                                                             \
  void NAME(Wave &w, const Inst &I) {                                                              \
    RoundScope R(round64(w));                                                                      \
    lanes(w, [&](unsigned l) {                                                                     \
      double a = fsrc64(w, I.s[0], l), b = fsrc64(w, I.s[1], l);                                   \
      vwrite64(w, I.d[0], l, fres64(w, I, (EXPR)));                                                \
    });                                                                                            \
  }
D2(v_add_f64, a + b)
D2(v_mul_f64, a * b)
D2(v_min_f64, minmax64<false>(w, a, b))
D2(v_max_f64, minmax64<true>(w, a, b))
void v_ldexp_f64(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    vwrite64(w, I.d[0], l, fres64(w, I, std::ldexp(fsrc64(w, I.s[0], l), int32_t(vread32(w, I.s[1], l)))));
  });
}
#define F3(NAME, EXPR)                                                                             \
  void NAME(Wave &w, const Inst &I) {                                                              \
    lanes(w, [&](unsigned l) {                                                                     \
      float a = fsrc32(w, I.s[0], l), b = fsrc32(w, I.s[1], l), c = fsrc32(w, I.s[2], l);          \
      vwrite32(w, I.d[0], l, fres32(w, I, (EXPR)));                                                \
    });                                                                                            \
  }
F3(v_min3_f32, minmax32<false>(w, minmax32<false>(w, a, b), c))
F3(v_max3_f32, minmax32<true>(w, minmax32<true>(w, a, b), c))
F3(v_med3_f32, (std::isnan(a) || std::isnan(b) || std::isnan(c))
                   ? minmax32<false>(w, minmax32<false>(w, a, b), c)
                   : std::fmax(std::fmin(a, b), std::fmin(std::fmax(a, b), c)))
// gfx11 v_minmax_f32 / v_maxmin_f32: min then max, max then min (each as v_min/v_max_f32).
F3(v_minmax_f32, minmax32<true>(w, minmax32<false>(w, a, b), c))
F3(v_maxmin_f32, minmax32<false>(w, minmax32<true>(w, a, b), c))

void v_fma_f16(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    auto h = [&](int k) {
      uint32_t b = mods16(vread32(w, I.s[k], l), I.s[k].mods);
      return halfValue(flushIn64(w) ? ftz16(b) : b);
    };
    uint32_t r = hmods(I, roundHalf(fmaToOdd(h(0), h(1), h(2)), round64(w)), true, round64(w));
    writeHalf(w, I, l, flushOut64(w) ? ftz16(r) : r);
  });
}

// ---- lanes -----------------------------------------------------------------------
void v_readlane_b32(Wave &w, const Inst &I) {
  unsigned L = sread32(w, I.s[1]) & (w.W - 1);
  swrite32(w, I.d[0], vread32(w, I.s[0], L));
}
void v_writelane_b32(Wave &w, const Inst &I) {
  unsigned L = sread32(w, I.s[1]) & (w.W - 1);
  vwrite32(w, I.d[0], L, sread32(w, I.s[0]));
}
void v_mbcnt_lo_u32_b32(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    uint32_t m = l >= 32 ? ~0u : (1u << l) - 1;
    vwrite32(w, I.d[0], l, __builtin_popcount(vread32(w, I.s[0], l) & m) + vread32(w, I.s[1], l));
  });
}
void v_mbcnt_hi_u32_b32(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    uint32_t m = l < 32 ? 0u : l >= 64 ? ~0u : (1u << (l - 32)) - 1;
    vwrite32(w, I.d[0], l, __builtin_popcount(vread32(w, I.s[0], l) & m) + vread32(w, I.s[1], l));
  });
}
// v_permlane16_b32 / v_permlanex16_b32 (gfx10+): lane selects from s1 (lanes 0-7) and s2 (8-15).
template <bool X> static void permlane(Wave &w, const Inst &I) {
  uint64_t Sel = uint64_t(sread32(w, I.s[2])) << 32 | sread32(w, I.s[1]);
  uint32_t Src[64];
  for (unsigned l = 0; l < w.W; ++l) Src[l] = vread32(w, I.s[0], l);
  lanes(w, [&](unsigned l) {
    unsigned Row = l / 16, Pos = l % 16;
    unsigned SrcRow = X ? (Row ^ 1) : Row;
    unsigned From = SrcRow * 16 + unsigned((Sel >> (4 * Pos)) & 15);
    if (From < w.W) vwrite32(w, I.d[0], l, Src[From]);
  });
}
void v_permlane16_b32(Wave &w, const Inst &I) { permlane<false>(w, I); }
void v_permlanex16_b32(Wave &w, const Inst &I) { permlane<true>(w, I); }

} // namespace isaemu::detail

namespace isaemu::detail {
static uint32_t s16(const Wave &w, const Opnd &o, unsigned l) { return vread32(w, o, l) & 0xffff; }
void v_med3_i16(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    int16_t a = int16_t(s16(w, I.s[0], l)), b = int16_t(s16(w, I.s[1], l)), c = int16_t(s16(w, I.s[2], l));
    writeHalf(w, I, l, uint16_t(std::max(std::min(a, b), std::min(std::max(a, b), c))));
  });
}
// v_add_nc_i16 / v_sub_nc_i16 (gfx9: v_add_i16 / v_sub_i16): clamp saturates to int16.
template <bool Sub> static void addSubI16(Wave &w, const Inst &I) {
  bool Clamp = I.nc >= 1 && I.c[0];
  lanes(w, [&](unsigned l) {
    int32_t a = int16_t(s16(w, I.s[0], l)), b = int16_t(s16(w, I.s[1], l));
    int32_t r = Sub ? a - b : a + b;
    if (Clamp) r = std::clamp(r, -32768, 32767);
    writeHalf(w, I, l, uint32_t(r) & 0xffff);
  });
}
void v_add_nc_i16(Wave &w, const Inst &I) { addSubI16<false>(w, I); }
void v_sub_nc_i16(Wave &w, const Inst &I) { addSubI16<true>(w, I); }
void v_mad_u16(Wave &w, const Inst &I) {
  bool Clamp = I.nc >= 1 && I.c[0];
  lanes(w, [&](unsigned l) {
    uint32_t r = s16(w, I.s[0], l) * s16(w, I.s[1], l) + s16(w, I.s[2], l);
    writeHalf(w, I, l, Clamp ? std::min<uint32_t>(r, 0xffff) : r & 0xffff);
  });
}
// gfx11 v_minmax_i32 / v_maxmin_i32 (and u32): min then max, max then min.
I3(v_minmax_i32, std::max(std::min(int32_t(a), int32_t(b)), int32_t(c)))
I3(v_maxmin_i32, std::min(std::max(int32_t(a), int32_t(b)), int32_t(c)))
I3(v_minmax_u32, std::max(std::min(a, b), c))
I3(v_maxmin_u32, std::min(std::max(a, b), c))
// Dot products of four bytes.
void v_dot4_u32_u8(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    uint32_t a = vread32(w, I.s[0], l), b = vread32(w, I.s[1], l);
    uint64_t r = vread32(w, I.s[2], l);
    for (unsigned k = 0; k < 4; ++k) r += ((a >> (8 * k)) & 0xff) * ((b >> (8 * k)) & 0xff);
    bool Clamp = I.nc >= 1 && I.c[I.nc - 1 >= 0 ? 0 : 0];
    vwrite32(w, I.d[0], l, Clamp && r > 0xffffffffull ? 0xffffffffu : uint32_t(r));
  });
}
// gfx11 v_dot4_i32_iu8: NEG_LO bit of src0/src1 modifiers selects signed bytes.
void v_dot4_i32_iu8(Wave &w, const Inst &I) {
  bool S0 = I.s[0].mods & ModNeg, S1 = I.s[1].mods & ModNeg;
  lanes(w, [&](unsigned l) {
    uint32_t a = vread32(w, I.s[0], l), b = vread32(w, I.s[1], l);
    int64_t r = int32_t(vread32(w, I.s[2], l));
    for (unsigned k = 0; k < 4; ++k) {
      int32_t x = S0 ? int8_t(a >> (8 * k)) : int32_t((a >> (8 * k)) & 0xff);
      int32_t y = S1 ? int8_t(b >> (8 * k)) : int32_t((b >> (8 * k)) & 0xff);
      r += int64_t(x) * y;
    }
    vwrite32(w, I.d[0], l, uint32_t(r));
  });
}
// gfx90a v_dot4c_i32_i8: d += dot(signed bytes).
void v_dot4c_i32_i8(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    uint32_t a = vread32(w, I.s[0], l), b = vread32(w, I.s[1], l);
    int32_t r = int32_t(vread32(w, I.d[0], l));
    for (unsigned k = 0; k < 4; ++k) r += int32_t(int8_t(a >> (8 * k))) * int8_t(b >> (8 * k));
    vwrite32(w, I.d[0], l, uint32_t(r));
  });
}
// v_pack_b32_f16 d, s0, s1: low halves (op_sel picks high ones), with neg modifiers.
void v_pack_b32_f16(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    uint32_t a = vread32(w, I.s[0], l), b = vread32(w, I.s[1], l);
    uint32_t lo = ((I.s[0].mods & ModOpSel0) ? a >> 16 : a) & 0xffff;
    uint32_t hi = ((I.s[1].mods & ModOpSel0) ? b >> 16 : b) & 0xffff;
    lo = mods16(lo, I.s[0].mods);
    hi = mods16(hi, I.s[1].mods);
    vwrite32(w, I.d[0], l, lo | hi << 16);
  });
}
} // namespace isaemu::detail

//===- VOP2.cpp - two-source vector ALU (and their VOP3 e64 encodings) ----===//
//
// Integer add/sub with carry (carry-out in d[1], carry-in in s[2]: VCC for
// the e32 forms, an SGPR for e64), logic, shifts (the *rev forms shift s1 by
// s0), 24-bit multiplies, f32/f16 arithmetic with modifiers, v_cndmask,
// v_fmac (accumulates into its destination), v_fmamk/v_fmaak.
//
//===----------------------------------------------------------------------===//
#include "Half.h"
#include "Ops.h"

namespace isaemu::detail {

#define I2(NAME, EXPR)                                                                             \
  void NAME(Wave &w, const Inst &I) { vint32(w, I, [](uint32_t a, uint32_t b, uint32_t) { return uint32_t(EXPR); }); }
I2(v_add_nc_u32, a + b)
I2(v_sub_nc_u32, a - b)
I2(v_subrev_nc_u32, b - a)
I2(v_and_b32, a & b)
I2(v_or_b32, a | b)
I2(v_xor_b32, a ^ b)
I2(v_xnor_b32, ~(a ^ b))
I2(v_lshlrev_b32, b << (a & 31))
I2(v_lshrrev_b32, b >> (a & 31))
I2(v_ashrrev_i32, int32_t(b) >> (a & 31))
I2(v_min_i32, int32_t(a) < int32_t(b) ? a : b)
I2(v_max_i32, int32_t(a) > int32_t(b) ? a : b)
I2(v_min_u32, a < b ? a : b)
I2(v_max_u32, a > b ? a : b)
I2(v_mul_u32_u24, (a & 0xffffff) * (b & 0xffffff))
I2(v_mul_hi_u32_u24, (uint64_t(a & 0xffffff) * (b & 0xffffff)) >> 32)
I2(v_mul_i32_i24, int64_t(int32_t(a << 8) >> 8) * int64_t(int32_t(b << 8) >> 8))
I2(v_mul_hi_i32_i24, (int64_t(int32_t(a << 8) >> 8) * int64_t(int32_t(b << 8) >> 8)) >> 32)
I2(v_cvt_pk_u16_u32, (a & 0xffff) | (b << 16))

// Carry forms: d[1] = carry/borrow mask; s[2] = carry-in mask where present.
// The clamp bit (c[0] of the VOP3 / SDWA encodings) saturates the unsigned
// result: ~0 on a carry out of an add, 0 on a borrow of a subtract.
template <bool Sub, typename F> static void carryOp(Wave &w, const Inst &I, bool CarryIn, F f) {
  uint64_t In = CarryIn ? readMask(w, I.s[2]) : 0, Out = 0;
  bool Clamp = I.nc >= 1 && I.c[0];
  const LaneSrc A = laneSrc(w, I.s[0]), B = laneSrc(w, I.s[1]);
  uint32_t *D = laneDst(w, I.d[0]);
  lanes(w, [&](unsigned l) {
    bool c = false;
    uint32_t r = f(A[l], B[l], (In >> l) & 1, c);
    if (Clamp && c) r = Sub ? 0u : ~0u;
    if (D) D[l] = r;
    Out |= uint64_t(c) << l;
  });
  if (I.nd > 1) writeMask(w, I.d[1], Out);
}
void v_add_co_u32(Wave &w, const Inst &I) {
  carryOp<false>(w, I, false, [](uint32_t a, uint32_t b, bool, bool &c) { uint64_t r = uint64_t(a) + b; c = r >> 32; return uint32_t(r); });
}
void v_sub_co_u32(Wave &w, const Inst &I) {
  carryOp<true>(w, I, false, [](uint32_t a, uint32_t b, bool, bool &c) { c = b > a; return a - b; });
}
void v_subrev_co_u32(Wave &w, const Inst &I) {
  carryOp<true>(w, I, false, [](uint32_t a, uint32_t b, bool, bool &c) { c = a > b; return b - a; });
}
void v_addc_co_u32(Wave &w, const Inst &I) {
  carryOp<false>(w, I, true, [](uint32_t a, uint32_t b, bool ci, bool &c) { uint64_t r = uint64_t(a) + b + ci; c = r >> 32; return uint32_t(r); });
}
void v_subb_co_u32(Wave &w, const Inst &I) {
  carryOp<true>(w, I, true, [](uint32_t a, uint32_t b, bool ci, bool &c) { c = uint64_t(b) + ci > a; return a - b - ci; });
}
void v_subbrev_co_u32(Wave &w, const Inst &I) {
  carryOp<true>(w, I, true, [](uint32_t a, uint32_t b, bool ci, bool &c) { c = uint64_t(a) + ci > b; return b - a - ci; });
}

void v_cndmask_b32(Wave &w, const Inst &I) {
  uint64_t M = readMask(w, I.s[2]);
  uint32_t *D = laneDst(w, I.d[0]);
  if (!D) return;
  const LaneSrc A = laneSrc(w, I.s[0]), B = laneSrc(w, I.s[1]);
  const uint8_t MA = I.s[0].mods, MB = I.s[1].mods;
  lanes(w, [&](unsigned l) { D[l] = ((M >> l) & 1) ? mods32(B[l], MB) : mods32(A[l], MA); });
}

#define F2(NAME, EXPR)                                                                             \
  void NAME(Wave &w, const Inst &I) {                                                              \
    RoundScope R(round32(w));                                                                      \
    lanes(w, [&](unsigned l) {                                                                     \
      float a = fsrc32(w, I.s[0], l), b = fsrc32(w, I.s[1], l);                                    \
      vwrite32(w, I.d[0], l, fres32(w, I, (EXPR)));                                                \
    });                                                                                            \
  }
F2(v_add_f32, a + b)
F2(v_sub_f32, a - b)
F2(v_subrev_f32, b - a)
F2(v_mul_f32, a * b)
F2(v_min_f32, minmax32<false>(w, a, b))
F2(v_max_f32, minmax32<true>(w, a, b))
F2(v_mul_legacy_f32, (a == 0.0f || b == 0.0f) ? 0.0f : a * b)
void v_ldexp_f32(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    vwrite32(w, I.d[0], l, fres32(w, I, std::ldexp(fsrc32(w, I.s[0], l), int32_t(vread32(w, I.s[1], l)))));
  });
}
// v_fmac_f32: d = s0 * s1 + d.
void v_fmac_f32(Wave &w, const Inst &I) {
  RoundScope R(round32(w));
  lanes(w, [&](unsigned l) {
    float c = f32(flushIn32(w) ? ftz32(vread32(w, I.d[0], l)) : vread32(w, I.d[0], l));
    vwrite32(w, I.d[0], l, fres32(w, I, std::fma(fsrc32(w, I.s[0], l), fsrc32(w, I.s[1], l), c)));
  });
}
// v_fmamk_f32 d, s0, K, s1: s0 * K + s1;  v_fmaak_f32 d, s0, s1, K: s0 * s1 + K.
void v_fmamk_f32(Wave &w, const Inst &I) {
  RoundScope R(round32(w));
  lanes(w, [&](unsigned l) {
    vwrite32(w, I.d[0], l, fres32(w, I, std::fma(fsrc32(w, I.s[0], l), fsrc32(w, I.s[1], l), fsrc32(w, I.s[2], l))));
  });
}
void v_fmaak_f32(Wave &w, const Inst &I) { v_fmamk_f32(w, I); }

// f16 (true16 on gfx11: .l/.h halves; gfx9: low half, high half zeroed).
// Results are exact in double (add/sub/mul/min/max) or rounded to odd
// (fma), then rounded once to f16 under MODE's f16/f64 round mode.
/// f16 source value (modifiers, then MODE's input denormal flushing).
static double hsrc(const Wave &w, const Opnd &o, unsigned l) {
  uint32_t h = mods16(vread32(w, o, l), o.mods);
  return halfValue(flushIn64(w) ? ftz16(h) : h);
}
static uint32_t hres(const Wave &w, const Inst &I, double r) {
  uint32_t h = hmods(I, roundHalf(r, round64(w)), true, round64(w));
  return flushOut64(w) ? ftz16(h) : h;
}
#define H2(NAME, EXPR)                                                                             \
  void NAME(Wave &w, const Inst &I) {                                                              \
    lanes(w, [&](unsigned l) {                                                                     \
      double a = hsrc(w, I.s[0], l), b = hsrc(w, I.s[1], l);                                       \
      writeHalf(w, I, l, hres(w, I, (EXPR)));                                                      \
    });                                                                                            \
  }
H2(v_add_f16, a + b)
H2(v_sub_f16, a - b)
H2(v_subrev_f16, b - a)
H2(v_mul_f16, a * b)
H2(v_max_f16, minmax64<true>(w, a, b))
H2(v_min_f16, minmax64<false>(w, a, b))
void v_fmac_f16(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    uint32_t ch = vread32(w, I.d[0], l) & 0xffff; // vread32 already selects the .h half
    double c = halfValue(flushIn64(w) ? ftz16(ch) : ch);
    writeHalf(w, I, l, hres(w, I, fmaToOdd(hsrc(w, I.s[0], l), hsrc(w, I.s[1], l), c)));
  });
}
// v_fmamk_f16 d, s0, K, s1: s0 * K + s1;  v_fmaak_f16 d, s0, s1, K: s0 * s1 + K (MC order).
void v_fmamk_f16(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    writeHalf(w, I, l, hres(w, I, fmaToOdd(hsrc(w, I.s[0], l), hsrc(w, I.s[1], l), hsrc(w, I.s[2], l))));
  });
}
void v_cvt_pkrtz_f16_f32(Wave &w, const Inst &I) { // round toward zero whatever MODE says
  lanes(w, [&](unsigned l) {
    uint32_t lo = hmods(I, roundHalf(fsrc32(w, I.s[0], l), 3), false, 3);
    uint32_t hi = hmods(I, roundHalf(fsrc32(w, I.s[1], l), 3), false, 3);
    vwrite32(w, I.d[0], l, lo | hi << 16);
  });
}

} // namespace isaemu::detail

namespace isaemu::detail {
// ---- 16-bit integer ops (true16 halves on gfx11; gfx9 zeroes the high half)
static uint32_t src16(const Wave &w, const Opnd &o, unsigned l) { return vread32(w, o, l) & 0xffff; }
// c[0] is the clamp bit of every VOP3 encoding (VOP3-only opcodes carry no _e64 suffix).
static bool clampBit(const Inst &I) { return I.nc >= 1 && I.c[0]; }
#define I16(NAME, EXPR)                                                                            \
  void NAME(Wave &w, const Inst &I) {                                                              \
    bool Clamp = clampBit(I);                                                                      \
    (void)Clamp;                                                                                   \
    lanes(w, [&](unsigned l) {                                                                     \
      uint32_t a = src16(w, I.s[0], l), b = I.ns > 1 ? src16(w, I.s[1], l) : 0;                    \
      (void)b;                                                                                     \
      writeHalf(w, I, l, uint32_t(EXPR) & 0xffff);                                                      \
    });                                                                                            \
  }
I16(v_add_nc_u16, Clamp ? std::min<uint32_t>(a + b, 0xffff) : a + b)
I16(v_sub_nc_u16, Clamp ? (a > b ? a - b : 0) : a - b)
I16(v_and_b16, a & b)
I16(v_or_b16, a | b)
I16(v_xor_b16, a ^ b)
I16(v_lshlrev_b16, b << (a & 15))
I16(v_lshrrev_b16, b >> (a & 15))
I16(v_ashrrev_i16, int16_t(b) >> (a & 15))
I16(v_min_u16, std::min(a, b))
I16(v_max_u16, std::max(a, b))
I16(v_min_i16, std::min(int16_t(a), int16_t(b)))
I16(v_max_i16, std::max(int16_t(a), int16_t(b)))
I16(v_mul_lo_u16, a * b)
void v_cndmask_b16(Wave &w, const Inst &I) {
  uint64_t M = readMask(w, I.s[2]);
  lanes(w, [&](unsigned l) {
    const Opnd &S = ((M >> l) & 1) ? I.s[1] : I.s[0];
    writeHalf(w, I, l, mods16(vread32(w, S, l), S.mods));
  });
}
// 32-bit adds with clamp (saturation): v_add_nc_i32 / v_sub_nc_i32 (gfx9: v_add_i32 / v_sub_i32).
void v_add_nc_i32(Wave &w, const Inst &I) {
  bool Clamp = clampBit(I);
  lanes(w, [&](unsigned l) {
    int64_t r = int64_t(int32_t(vread32(w, I.s[0], l))) + int32_t(vread32(w, I.s[1], l));
    if (Clamp) r = std::clamp<int64_t>(r, INT32_MIN, INT32_MAX);
    vwrite32(w, I.d[0], l, uint32_t(r));
  });
}
void v_sub_nc_i32(Wave &w, const Inst &I) {
  bool Clamp = clampBit(I);
  lanes(w, [&](unsigned l) {
    int64_t r = int64_t(int32_t(vread32(w, I.s[0], l))) - int32_t(vread32(w, I.s[1], l));
    if (Clamp) r = std::clamp<int64_t>(r, INT32_MIN, INT32_MAX);
    vwrite32(w, I.d[0], l, uint32_t(r));
  });
}
// Unsigned saturating forms of the 32-bit adds (clamp bit of the e64 encoding).
void v_add_nc_u32_clamp(Wave &w, const Inst &I) {
  if (!clampBit(I)) return vint32(w, I, [](uint32_t a, uint32_t b, uint32_t) { return a + b; });
  vint32(w, I, [](uint32_t a, uint32_t b, uint32_t) { return a + b < a ? 0xffffffffu : a + b; });
}
void v_sub_nc_u32_clamp(Wave &w, const Inst &I) {
  if (!clampBit(I)) return vint32(w, I, [](uint32_t a, uint32_t b, uint32_t) { return a - b; });
  vint32(w, I, [](uint32_t a, uint32_t b, uint32_t) { return b > a ? 0u : a - b; });
}
void v_subrev_nc_u32_clamp(Wave &w, const Inst &I) {
  bool Clamp = clampBit(I);
  lanes(w, [&](unsigned l) {
    uint32_t a = vread32(w, I.s[0], l), b = vread32(w, I.s[1], l);
    vwrite32(w, I.d[0], l, Clamp && a > b ? 0u : b - a);
  });
}
// gfx9 v_madmk_f32 / v_mad_f32 / v_mac_f32: multiply, round, add, round;
// denormals flushed whatever MODE says (LLVM selects them only then).
static float madLegacy(float a, float b, float c) {
  a = f32(ftz32(b32(a)));
  b = f32(ftz32(b32(b)));
  c = f32(ftz32(b32(c)));
  return f32(ftz32(b32(a * b))) + c;
}
void v_mad_f32(Wave &w, const Inst &I) {
  RoundScope R(round32(w));
  lanes(w, [&](unsigned l) {
    float r = madLegacy(fsrc32(w, I.s[0], l), fsrc32(w, I.s[1], l), fsrc32(w, I.s[2], l));
    vwrite32(w, I.d[0], l, ftz32(fres32(w, I, r)));
  });
}
// v_mac_f32 d, s0, s1: d = s0 * s1 + d (the accumulator is the tied destination).
void v_mac_f32(Wave &w, const Inst &I) {
  RoundScope R(round32(w));
  lanes(w, [&](unsigned l) {
    float r = madLegacy(fsrc32(w, I.s[0], l), fsrc32(w, I.s[1], l), f32(vread32(w, I.d[0], l)));
    vwrite32(w, I.d[0], l, ftz32(fres32(w, I, r)));
  });
}
void v_fmac_f64(Wave &w, const Inst &I) {
  RoundScope R(round64(w));
  lanes(w, [&](unsigned l) {
    double c = f64(flushIn64(w) ? ftz64(vread64(w, I.d[0], l)) : vread64(w, I.d[0], l));
    vwrite64(w, I.d[0], l, fres64(w, I, std::fma(fsrc64(w, I.s[0], l), fsrc64(w, I.s[1], l), c)));
  });
}
} // namespace isaemu::detail
namespace isaemu::detail {
// gfx9 v_madmk_f32 d, s0, K, s1 / v_madak_f32 d, s0, s1, K (operands already in MC order).
void v_fmamk_f32_legacy(Wave &w, const Inst &I) { v_mad_f32(w, I); }
} // namespace isaemu::detail

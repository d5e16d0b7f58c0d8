//===- VOP1.cpp - one-source vector ALU (moves, conversions, transcendentals) ===//
//
// Conversions saturate and map NaN to 0 as the ISA guides specify for
// v_cvt_{i32,u32}_f{32,64}; int->float conversions and f64->f32 honour
// MODE's round bits. Transcendental units (rcp/rsq/sqrt/exp/log/sin/cos) are
// computed with the host's correctly rounded functions, which lies within
// the hardware's documented 1 ULP. f16 uses the host's _Float16.
//
//===----------------------------------------------------------------------===//
#include "Half.h"
#include "Ops.h"

namespace isaemu::detail {

void v_mov_b32(Wave &w, const Inst &I) { vint32(w, I, [](uint32_t a, uint32_t, uint32_t) { return a; }); }
void v_mov_b64(Wave &w, const Inst &I) { lanes(w, [&](unsigned l) { vwrite64(w, I.d[0], l, vread64(w, I.s[0], l)); }); } // gfx940
void v_mov_b16(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) { vwrite16(w, I.d[0], l, mods16(vread32(w, I.s[0], l), I.s[0].mods)); });
}
void v_nop(Wave &, const Inst &) {}
void v_not_b32(Wave &w, const Inst &I) { vint32(w, I, [](uint32_t a, uint32_t, uint32_t) { return ~a; }); }
void v_bfrev_b32(Wave &w, const Inst &I) { vint32(w, I, [](uint32_t a, uint32_t, uint32_t) { return llvm::reverseBits<uint32_t>(a); }); }
void v_ffbh_u32(Wave &w, const Inst &I) { vint32(w, I, [](uint32_t a, uint32_t, uint32_t) { return a ? uint32_t(__builtin_clz(a)) : ~0u; }); }
void v_ffbl_b32(Wave &w, const Inst &I) { vint32(w, I, [](uint32_t a, uint32_t, uint32_t) { return a ? uint32_t(__builtin_ctz(a)) : ~0u; }); }
void v_ffbh_i32(Wave &w, const Inst &I) {
  vint32(w, I, [](uint32_t a, uint32_t, uint32_t) {
    if (a == 0 || a == ~0u) return ~0u;
    uint32_t u = int32_t(a) < 0 ? ~a : a;
    return uint32_t(__builtin_clz(u));
  });
}
void v_readfirstlane_b32(Wave &w, const Inst &I) {
  uint64_t e = w.exec();
  unsigned l = e ? unsigned(__builtin_ctzll(e)) : 0;
  swrite32(w, I.d[0], vread32(w, I.s[0], l));
}
void v_cvt_f32_ubyte0(Wave &w, const Inst &I) { lanes(w, [&](unsigned l) { vwrite32(w, I.d[0], l, fres32(w, I, float(vread32(w, I.s[0], l) & 0xff))); }); }
void v_cvt_f32_ubyte1(Wave &w, const Inst &I) { lanes(w, [&](unsigned l) { vwrite32(w, I.d[0], l, fres32(w, I, float((vread32(w, I.s[0], l) >> 8) & 0xff))); }); }
void v_cvt_f32_ubyte2(Wave &w, const Inst &I) { lanes(w, [&](unsigned l) { vwrite32(w, I.d[0], l, fres32(w, I, float((vread32(w, I.s[0], l) >> 16) & 0xff))); }); }
void v_cvt_f32_ubyte3(Wave &w, const Inst &I) { lanes(w, [&](unsigned l) { vwrite32(w, I.d[0], l, fres32(w, I, float(vread32(w, I.s[0], l) >> 24))); }); }

template <typename T> static uint32_t cvtToInt(double v) {
  if (std::isnan(v)) return 0;
  v = std::trunc(v);
  if (v <= double(std::numeric_limits<T>::min())) return uint32_t(std::numeric_limits<T>::min());
  if (v >= double(std::numeric_limits<T>::max())) return uint32_t(std::numeric_limits<T>::max());
  return uint32_t(T(v));
}
void v_cvt_u32_f32(Wave &w, const Inst &I) { lanes(w, [&](unsigned l) { vwrite32(w, I.d[0], l, cvtToInt<uint32_t>(fsrc32(w, I.s[0], l))); }); }
void v_cvt_i32_f32(Wave &w, const Inst &I) { lanes(w, [&](unsigned l) { vwrite32(w, I.d[0], l, cvtToInt<int32_t>(fsrc32(w, I.s[0], l))); }); }
void v_cvt_u32_f64(Wave &w, const Inst &I) { lanes(w, [&](unsigned l) { vwrite32(w, I.d[0], l, cvtToInt<uint32_t>(fsrc64(w, I.s[0], l))); }); }
void v_cvt_i32_f64(Wave &w, const Inst &I) { lanes(w, [&](unsigned l) { vwrite32(w, I.d[0], l, cvtToInt<int32_t>(fsrc64(w, I.s[0], l))); }); }
void v_cvt_f32_u32(Wave &w, const Inst &I) {
  RoundScope R(round32(w));
  lanes(w, [&](unsigned l) { vwrite32(w, I.d[0], l, fres32(w, I, float(vread32(w, I.s[0], l)))); });
}
void v_cvt_f32_i32(Wave &w, const Inst &I) {
  RoundScope R(round32(w));
  lanes(w, [&](unsigned l) { vwrite32(w, I.d[0], l, fres32(w, I, float(int32_t(vread32(w, I.s[0], l))))); });
}
void v_cvt_f64_u32(Wave &w, const Inst &I) { lanes(w, [&](unsigned l) { vwrite64(w, I.d[0], l, fres64(w, I, double(vread32(w, I.s[0], l)))); }); }
void v_cvt_f64_i32(Wave &w, const Inst &I) { lanes(w, [&](unsigned l) { vwrite64(w, I.d[0], l, fres64(w, I, double(int32_t(vread32(w, I.s[0], l))))); }); }
void v_cvt_f64_f32(Wave &w, const Inst &I) { lanes(w, [&](unsigned l) { vwrite64(w, I.d[0], l, fres64(w, I, double(fsrc32(w, I.s[0], l)))); }); }
void v_cvt_f32_f64(Wave &w, const Inst &I) {
  RoundScope R(round64(w));
  lanes(w, [&](unsigned l) { vwrite32(w, I.d[0], l, fres32(w, I, float(fsrc64(w, I.s[0], l)))); });
}
static uint32_t f16bits(_Float16 h) { return std::bit_cast<uint16_t>(h); }
static float f16val(uint32_t b) { return float(std::bit_cast<_Float16>(uint16_t(b))); }
void v_cvt_f16_f32(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    uint32_t h = hmods(I, roundHalf(fsrc32(w, I.s[0], l), round64(w)), true, round64(w));
    writeHalf(w, I, l, flushOut64(w) ? ftz16(h) : h);
  });
}
void v_cvt_f32_f16(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) { vwrite32(w, I.d[0], l, fres32(w, I, f16val(mods16(vread32(w, I.s[0], l), I.s[0].mods)))); });
}

#define F32U(NAME, EXPR)                                                                           \
  void NAME(Wave &w, const Inst &I) {                                                              \
    RoundScope R(round32(w));                                                                      \
    lanes(w, [&](unsigned l) {                                                                     \
      float x = fsrc32(w, I.s[0], l);                                                              \
      vwrite32(w, I.d[0], l, fres32(w, I, (EXPR)));                                                \
    });                                                                                            \
  }
#define F64U(NAME, EXPR)                                                                           \
  void NAME(Wave &w, const Inst &I) {                                                              \
    RoundScope R(round64(w));                                                                      \
    lanes(w, [&](unsigned l) {                                                                     \
      double x = fsrc64(w, I.s[0], l);                                                             \
      vwrite64(w, I.d[0], l, fres64(w, I, (EXPR)));                                                \
    });                                                                                            \
  }
F32U(v_rcp_f32, 1.0f / x)
F32U(v_rsq_f32, 1.0f / std::sqrt(x))
F32U(v_sqrt_f32, std::sqrt(x))
F32U(v_exp_f32, std::exp2(x))
F32U(v_log_f32, std::log2(x))
F32U(v_sin_f32, float(std::sin(double(x) * 6.283185307179586)))
F32U(v_cos_f32, float(std::cos(double(x) * 6.283185307179586)))
// Rounding to an integral value returns a signalling NaN quieted (IEEE roundToIntegral; measured
// for v_rndne_f32 on RDNA3.5); the host's trunc/floor/ceil may hand the sNaN back unchanged.
static float quietNaN(float x) { return std::isnan(x) ? f32(b32(x) | 0x400000u) : x; }
static double quietNaN(double x) { return std::isnan(x) ? f64(b64(x) | 0x8000000000000ull) : x; }
F32U(v_trunc_f32, quietNaN(std::trunc(x)))
F32U(v_ceil_f32, quietNaN(std::ceil(x)))
F32U(v_floor_f32, quietNaN(std::floor(x)))
F32U(v_rndne_f32, quietNaN(std::nearbyint(x)))
F32U(v_fract_f32, std::isinf(x) ? std::numeric_limits<float>::quiet_NaN() : std::fmin(x - std::floor(x), 0x1.fffffep-1f))
static float frexpMant(float x) { int e; return (std::isinf(x) || std::isnan(x)) ? x : std::frexp(x, &e); }
F32U(v_frexp_mant_f32, frexpMant(x))
F64U(v_rcp_f64, 1.0 / x)
F64U(v_rsq_f64, 1.0 / std::sqrt(x))
F64U(v_sqrt_f64, std::sqrt(x))
F64U(v_trunc_f64, quietNaN(std::trunc(x)))
F64U(v_ceil_f64, quietNaN(std::ceil(x)))
F64U(v_floor_f64, quietNaN(std::floor(x)))
F64U(v_rndne_f64, quietNaN(std::nearbyint(x)))
F64U(v_fract_f64, std::isinf(x) ? std::numeric_limits<double>::quiet_NaN() : std::fmin(x - std::floor(x), 0x1.fffffffffffffp-1))
void v_frexp_exp_i32_f32(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    float x = fsrc32(w, I.s[0], l);
    int e = 0;
    if (!std::isinf(x) && !std::isnan(x)) std::frexp(x, &e);
    vwrite32(w, I.d[0], l, uint32_t(e));
  });
}
void v_frexp_exp_i32_f64(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    double x = fsrc64(w, I.s[0], l);
    int e = 0;
    if (!std::isinf(x) && !std::isnan(x)) std::frexp(x, &e);
    vwrite32(w, I.d[0], l, uint32_t(e));
  });
}
void v_frexp_mant_f64(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    double x = fsrc64(w, I.s[0], l);
    int e;
    vwrite64(w, I.d[0], l, fres64(w, I, (std::isinf(x) || std::isnan(x)) ? x : std::frexp(x, &e)));
  });
}

} // namespace isaemu::detail

namespace isaemu::detail {
#define H1(NAME, EXPR)                                                                             \
  void NAME(Wave &w, const Inst &I) {                                                              \
    lanes(w, [&](unsigned l) {                                                                     \
      float x = f16val(mods16(vread32(w, I.s[0], l), I.s[0].mods));                                \
      writeHalf(w, I, l, hmods(I, f16bits(_Float16(EXPR)), true, round64(w)));                     \
    });                                                                                            \
  }
H1(v_trunc_f16, std::trunc(x))
H1(v_ceil_f16, std::ceil(x))
H1(v_floor_f16, std::floor(x))
H1(v_rndne_f16, std::nearbyint(x))
void v_cvt_f16_u16(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    writeHalf(w, I, l, hmods(I, roundHalf(double(vread32(w, I.s[0], l) & 0xffff), round64(w)), true, round64(w)));
  });
}
void v_cvt_f16_i16(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    writeHalf(w, I, l, hmods(I, roundHalf(double(int16_t(vread32(w, I.s[0], l))), round64(w)), true, round64(w)));
  });
}
} // namespace isaemu::detail

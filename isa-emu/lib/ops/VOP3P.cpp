//===- VOP3P.cpp - packed math (v_pk_*_f32 on gfx90a, v_pk_*_f16, v_fma_mix) ===//
//
// Source modifiers carry the packed selects: OP_SEL_0 picks the half/dword
// feeding the low lane of the result, OP_SEL_1 (op_sel_hi) the high one;
// NEG / NEG_HI negate them.
//
//===----------------------------------------------------------------------===//
#include "Half.h"
#include "Ops.h"

namespace isaemu::detail {

// 64-bit packed f32: element k of source s (k = 0 low result, 1 high result).
static float pk32(const Wave &w, const Opnd &o, unsigned l, unsigned k) {
  bool Sel = k == 0 ? (o.mods & ModOpSel0) : (o.mods & ModOpSel1);
  bool Neg = k == 0 ? (o.mods & ModNeg) : (o.mods & ModAbs /*NEG_HI*/);
  uint32_t b;
  if (o.kind == OK::Imm) b = uint32_t(o.imm); // a scalar literal feeds both halves
  else b = vreadN(w, o, l, Sel ? 1 : 0);
  if (Neg) b ^= 0x80000000u;
  if (flushIn32(w)) b = ftz32(b);
  return f32(b);
}
template <typename F> static void pkf32(Wave &w, const Inst &I, F f) {
  RoundScope R(round32(w));
  lanes(w, [&](unsigned l) {
    uint32_t R[2]; // both halves read their sources before either is written
    for (unsigned k = 0; k < 2; ++k) {
      float r = f(pk32(w, I.s[0], l, k), I.ns > 1 ? pk32(w, I.s[1], l, k) : 0.0f, I.ns > 2 ? pk32(w, I.s[2], l, k) : 0.0f);
      if (clampBitOf(I)) r = float(clamp01(r)); // c[0]: each element
      R[k] = flushOut32(w) ? ftz32(b32(r)) : b32(r);
    }
    vwriteN(w, I.d[0], l, 0, R[0]);
    vwriteN(w, I.d[0], l, 1, R[1]);
  });
}
void v_pk_fma_f32(Wave &w, const Inst &I) { pkf32(w, I, [](float a, float b, float c) { return std::fma(a, b, c); }); }
void v_pk_mul_f32(Wave &w, const Inst &I) { pkf32(w, I, [](float a, float b, float) { return a * b; }); }
void v_pk_add_f32(Wave &w, const Inst &I) { pkf32(w, I, [](float a, float b, float) { return a + b; }); }
void v_pk_mov_b32(Wave &w, const Inst &I) {
  // v_pk_mov_b32 d, s0, s1 op_sel:[a,b]: d.lo = s0[a], d.hi = s1[b].
  lanes(w, [&](unsigned l) {
    uint32_t lo = vreadN(w, I.s[0], l, (I.s[0].mods & ModOpSel0) ? 1 : 0);
    uint32_t hi = vreadN(w, I.s[1], l, (I.s[1].mods & ModOpSel0) ? 1 : 0);
    vwriteN(w, I.d[0], l, 0, lo);
    vwriteN(w, I.d[0], l, 1, hi);
  });
}

// Packed 16-bit.
static uint32_t pk16(const Wave &w, const Opnd &o, unsigned l, unsigned k) {
  bool Sel = k == 0 ? (o.mods & ModOpSel0) : (o.mods & ModOpSel1);
  bool Neg = k == 0 ? (o.mods & ModNeg) : (o.mods & ModAbs);
  uint32_t v = o.kind == OK::Imm ? uint32_t(o.imm) : vread32(w, o, l);
  uint32_t h = Sel ? v >> 16 : v & 0xffff;
  if (o.kind == OK::Imm && Sel && (uint32_t(o.imm) >> 16) == 0) h = uint32_t(o.imm) & 0xffff;
  return Neg ? h ^ 0x8000 : h;
}
static double h2d(uint32_t h) { return double(std::bit_cast<_Float16>(uint16_t(h))); }
static uint32_t d2h(double d) { return std::bit_cast<uint16_t>(_Float16(d)); }
template <typename F> static void pk16op(Wave &w, const Inst &I, F f) {
  lanes(w, [&](unsigned l) {
    uint32_t r = 0;
    for (unsigned k = 0; k < 2; ++k)
      r |= (f(pk16(w, I.s[0], l, k), I.ns > 1 ? pk16(w, I.s[1], l, k) : 0u, I.ns > 2 ? pk16(w, I.s[2], l, k) : 0u) & 0xffff) << (16 * k);
    vwrite32(w, I.d[0], l, r);
  });
}
// The f16 forms: the clamp bit (c[0]; VOP3P has no omod) clamps each half.
template <typename F> static void pkf16op(Wave &w, const Inst &I, F f) {
  pk16op(w, I, [&](uint32_t a, uint32_t b, uint32_t c) { return hmods(I, f(a, b, c) & 0xffff, false, 0); });
}
void v_pk_fma_f16(Wave &w, const Inst &I) { pkf16op(w, I, [](uint32_t a, uint32_t b, uint32_t c) { return d2h(std::fma(h2d(a), h2d(b), h2d(c))); }); }
void v_pk_add_f16(Wave &w, const Inst &I) { pkf16op(w, I, [](uint32_t a, uint32_t b, uint32_t) { return d2h(h2d(a) + h2d(b)); }); }
void v_pk_mul_f16(Wave &w, const Inst &I) { pkf16op(w, I, [](uint32_t a, uint32_t b, uint32_t) { return d2h(h2d(a) * h2d(b)); }); }
// The clamp bit (c[0]) of the unsigned adds saturates each half.
void v_pk_add_u16(Wave &w, const Inst &I) {
  bool Clamp = clampBitOf(I);
  pk16op(w, I, [Clamp](uint32_t a, uint32_t b, uint32_t) { return Clamp ? std::min<uint32_t>(a + b, 0xffff) : a + b; });
}
void v_pk_sub_u16(Wave &w, const Inst &I) {
  bool Clamp = clampBitOf(I);
  pk16op(w, I, [Clamp](uint32_t a, uint32_t b, uint32_t) { return Clamp ? (a > b ? a - b : 0u) : a - b; });
}
void v_pk_mul_lo_u16(Wave &w, const Inst &I) { pk16op(w, I, [](uint32_t a, uint32_t b, uint32_t) { return a * b; }); }
void v_pk_lshlrev_b16(Wave &w, const Inst &I) { pk16op(w, I, [](uint32_t a, uint32_t b, uint32_t) { return b << (a & 15); }); }
void v_pk_lshrrev_b16(Wave &w, const Inst &I) { pk16op(w, I, [](uint32_t a, uint32_t b, uint32_t) { return b >> (a & 15); }); }

// v_fma_mix_*: each source is f32, or f16 (low/high half by OP_SEL_0) when
// its OP_SEL_1 bit is set; NEG_HI acts as abs. One fused rounding: to f32
// (mix_f32, MODE's f32 round mode) or to f16 (mixlo writes bits 15:0, mixhi
// bits 31:16, the other half kept; f16 round mode). c[0] = clamp to [0, 1].
static double mixSrc(const Wave &w, const Opnd &o, unsigned l) {
  uint32_t v = o.kind == OK::Imm ? uint32_t(o.imm) : vread32(w, o, l);
  double x;
  if (o.mods & ModOpSel1) {
    uint32_t h = ((o.mods & ModOpSel0) ? v >> 16 : v) & 0xffff;
    if (flushIn64(w) && (h & 0x7c00) == 0) h &= 0x8000;
    x = halfValue(h);
  } else x = f32(flushIn32(w) ? ftz32(v) : v);
  if (o.mods & ModAbs) x = std::fabs(x);
  if (o.mods & ModNeg) x = -x;
  return x;
}
static double mixClamp(const Inst &I, double r) { return clampBitOf(I) ? clamp01(r) : r; }
void v_fma_mix_f32(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    double s = fmaToOdd(mixSrc(w, I.s[0], l), mixSrc(w, I.s[1], l), mixSrc(w, I.s[2], l));
    float r;
    {
      RoundScope R(round32(w));
      r = float(s); // one rounding of the round-to-odd sum
    }
    uint32_t b = b32(float(mixClamp(I, r)));
    vwrite32(w, I.d[0], l, flushOut32(w) ? ftz32(b) : b);
  });
}
template <bool Hi> static void fmaMix16(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    double s = fmaToOdd(mixSrc(w, I.s[0], l), mixSrc(w, I.s[1], l), mixSrc(w, I.s[2], l));
    uint32_t h = roundHalf(s, round64(w));
    if (I.nc >= 1 && I.c[0]) h = roundHalf(mixClamp(I, halfValue(h)), 0);
    if (flushOut64(w) && (h & 0x7c00) == 0) h &= 0x8000;
    uint32_t d = vread32(w, I.d[0], l);
    vwrite32(w, I.d[0], l, Hi ? (d & 0xffffu) | (h << 16) : (d & 0xffff0000u) | h);
  });
}
void v_fma_mixlo_f16(Wave &w, const Inst &I) { fmaMix16<false>(w, I); }
void v_fma_mixhi_f16(Wave &w, const Inst &I) { fmaMix16<true>(w, I); }

} // namespace isaemu::detail

namespace isaemu::detail {
void v_pk_min_u16(Wave &w, const Inst &I) { pk16op(w, I, [](uint32_t a, uint32_t b, uint32_t) { return std::min(a, b); }); }
void v_pk_max_u16(Wave &w, const Inst &I) { pk16op(w, I, [](uint32_t a, uint32_t b, uint32_t) { return std::max(a, b); }); }
void v_pk_min_i16(Wave &w, const Inst &I) { pk16op(w, I, [](uint32_t a, uint32_t b, uint32_t) { return uint32_t(uint16_t(std::min(int16_t(a), int16_t(b)))); }); }
void v_pk_max_i16(Wave &w, const Inst &I) { pk16op(w, I, [](uint32_t a, uint32_t b, uint32_t) { return uint32_t(uint16_t(std::max(int16_t(a), int16_t(b)))); }); }
void v_pk_min_f16(Wave &w, const Inst &I) {
  pkf16op(w, I, [&](uint32_t a, uint32_t b, uint32_t) { return d2h(minmax64<false>(w, h2d(a), h2d(b))); });
}
void v_pk_max_f16(Wave &w, const Inst &I) {
  pkf16op(w, I, [&](uint32_t a, uint32_t b, uint32_t) { return d2h(minmax64<true>(w, h2d(a), h2d(b))); });
}
} // namespace isaemu::detail

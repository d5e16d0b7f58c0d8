//===- VOPC.cpp - vector compares (v_cmp_*, v_cmpx_*, v_cmp_class_*) -------===//
//
// Result bit per active lane (inactive lanes read 0) to d[0] (VCC, an SGPR
// mask or, for gfx11 v_cmpx, EXEC); v_cmpx additionally writes EXEC. FP
// compares follow IEEE ordered/unordered semantics with source modifiers.
//
//===----------------------------------------------------------------------===//
#include "Ops.h"

namespace isaemu::detail {
namespace {

template <bool X, typename F> void cmp(Wave &w, const Inst &I, F f) {
  uint64_t R = 0;
  lanes(w, [&](unsigned l) { R |= uint64_t(f(l)) << l; });
  writeMask(w, I.d[0], R);
  if (X) w.setExec(R);
}

enum Cond { F, LT, EQ, LE, GT, LG, GE, O, U, NGE, NLG, NGT, NLE, NEQ, NLT, TRU, NE };
template <typename T> bool fcond(Cond C, T a, T b) {
  bool un = std::isnan(a) || std::isnan(b);
  switch (C) {
  case F: return false;
  case LT: return a < b;
  case EQ: return a == b;
  case LE: return a <= b;
  case GT: return a > b;
  case LG: return !un && a != b;
  case GE: return a >= b;
  case O: return !un;
  case U: return un;
  case NGE: return !(a >= b);
  case NLG: return un || a == b;
  case NGT: return !(a > b);
  case NLE: return !(a <= b);
  case NEQ: return !(a == b);
  case NLT: return !(a < b);
  case TRU: return true;
  default: return false;
  }
}
template <typename T> bool icond(Cond C, T a, T b) {
  switch (C) {
  case F: return false;
  case LT: return a < b;
  case EQ: return a == b;
  case LE: return a <= b;
  case GT: return a > b;
  case NE: return a != b;
  case GE: return a >= b;
  case TRU: return true;
  default: return false;
  }
}
float h16(uint32_t b) { return float(std::bit_cast<_Float16>(uint16_t(b))); }

template <bool X, Cond C> void cmpF32(Wave &w, const Inst &I) {
  cmp<X>(w, I, [&](unsigned l) { return fcond(C, fsrc32(w, I.s[0], l), fsrc32(w, I.s[1], l)); });
}
template <bool X, Cond C> void cmpF64(Wave &w, const Inst &I) {
  cmp<X>(w, I, [&](unsigned l) { return fcond(C, fsrc64(w, I.s[0], l), fsrc64(w, I.s[1], l)); });
}
template <bool X, Cond C> void cmpF16(Wave &w, const Inst &I) {
  cmp<X>(w, I, [&](unsigned l) {
    return fcond(C, h16(mods16(vread32(w, I.s[0], l), I.s[0].mods)), h16(mods16(vread32(w, I.s[1], l), I.s[1].mods)));
  });
}
template <bool X, Cond C, typename T> void cmpI32(Wave &w, const Inst &I) {
  cmp<X>(w, I, [&](unsigned l) { return icond(C, T(vread32(w, I.s[0], l)), T(vread32(w, I.s[1], l))); });
}
template <bool X, Cond C, typename T> void cmpI64(Wave &w, const Inst &I) {
  cmp<X>(w, I, [&](unsigned l) { return icond(C, T(vread64(w, I.s[0], l)), T(vread64(w, I.s[1], l))); });
}
template <bool X, Cond C, typename T> void cmpI16(Wave &w, const Inst &I) {
  cmp<X>(w, I, [&](unsigned l) { return icond(C, T(vread32(w, I.s[0], l)), T(vread32(w, I.s[1], l))); });
}

// Class mask bits: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0,
// 6 +0, 7 +denormal, 8 +normal, 9 +inf.
unsigned classOf(uint64_t bits, unsigned ebits, unsigned mbits) {
  uint64_t e = (bits >> mbits) & ((1ull << ebits) - 1), m = bits & ((1ull << mbits) - 1);
  bool neg = (bits >> (ebits + mbits)) & 1;
  if (e == (1ull << ebits) - 1) {
    if (m == 0) return neg ? 2 : 9;
    return ((m >> (mbits - 1)) & 1) ? 1 : 0;
  }
  if (e == 0) return m == 0 ? (neg ? 5 : 6) : (neg ? 4 : 7);
  return neg ? 3 : 8;
}
template <bool X> void cmpClass32(Wave &w, const Inst &I) {
  cmp<X>(w, I, [&](unsigned l) {
    return (vread32(w, I.s[1], l) >> classOf(mods32(vread32(w, I.s[0], l), I.s[0].mods), 8, 23)) & 1;
  });
}
template <bool X> void cmpClass64(Wave &w, const Inst &I) {
  cmp<X>(w, I, [&](unsigned l) {
    return (vread32(w, I.s[1], l) >> classOf(mods64(vread64(w, I.s[0], l), I.s[0].mods), 11, 52)) & 1;
  });
}
template <bool X> void cmpClass16(Wave &w, const Inst &I) {
  cmp<X>(w, I, [&](unsigned l) {
    return (vread32(w, I.s[1], l) >> classOf(mods16(vread32(w, I.s[0], l), I.s[0].mods), 5, 10)) & 1;
  });
}

} // namespace

#define FCMP(NAME, C)                                                                              \
  void v_cmp_##NAME##_f32(Wave &w, const Inst &I) { cmpF32<false, C>(w, I); }                      \
  void v_cmpx_##NAME##_f32(Wave &w, const Inst &I) { cmpF32<true, C>(w, I); }                      \
  void v_cmp_##NAME##_f64(Wave &w, const Inst &I) { cmpF64<false, C>(w, I); }                      \
  void v_cmpx_##NAME##_f64(Wave &w, const Inst &I) { cmpF64<true, C>(w, I); }                      \
  void v_cmp_##NAME##_f16(Wave &w, const Inst &I) { cmpF16<false, C>(w, I); }                      \
  void v_cmpx_##NAME##_f16(Wave &w, const Inst &I) { cmpF16<true, C>(w, I); }
FCMP(f, F) FCMP(lt, LT) FCMP(eq, EQ) FCMP(le, LE) FCMP(gt, GT) FCMP(lg, LG) FCMP(ge, GE) FCMP(o, O)
FCMP(u, U) FCMP(nge, NGE) FCMP(nlg, NLG) FCMP(ngt, NGT) FCMP(nle, NLE) FCMP(neq, NEQ) FCMP(nlt, NLT)
FCMP(tru, TRU)
#define ICMP(NAME, C)                                                                              \
  void v_cmp_##NAME##_i32(Wave &w, const Inst &I) { cmpI32<false, C, int32_t>(w, I); }             \
  void v_cmpx_##NAME##_i32(Wave &w, const Inst &I) { cmpI32<true, C, int32_t>(w, I); }             \
  void v_cmp_##NAME##_u32(Wave &w, const Inst &I) { cmpI32<false, C, uint32_t>(w, I); }            \
  void v_cmpx_##NAME##_u32(Wave &w, const Inst &I) { cmpI32<true, C, uint32_t>(w, I); }            \
  void v_cmp_##NAME##_i64(Wave &w, const Inst &I) { cmpI64<false, C, int64_t>(w, I); }             \
  void v_cmpx_##NAME##_i64(Wave &w, const Inst &I) { cmpI64<true, C, int64_t>(w, I); }             \
  void v_cmp_##NAME##_u64(Wave &w, const Inst &I) { cmpI64<false, C, uint64_t>(w, I); }            \
  void v_cmpx_##NAME##_u64(Wave &w, const Inst &I) { cmpI64<true, C, uint64_t>(w, I); }            \
  void v_cmp_##NAME##_i16(Wave &w, const Inst &I) { cmpI16<false, C, int16_t>(w, I); }             \
  void v_cmpx_##NAME##_i16(Wave &w, const Inst &I) { cmpI16<true, C, int16_t>(w, I); }             \
  void v_cmp_##NAME##_u16(Wave &w, const Inst &I) { cmpI16<false, C, uint16_t>(w, I); }            \
  void v_cmpx_##NAME##_u16(Wave &w, const Inst &I) { cmpI16<true, C, uint16_t>(w, I); }
ICMP(f, F) ICMP(lt, LT) ICMP(eq, EQ) ICMP(le, LE) ICMP(gt, GT) ICMP(ne, NE) ICMP(ge, GE) ICMP(t, TRU)
void v_cmp_class_f32(Wave &w, const Inst &I) { cmpClass32<false>(w, I); }
void v_cmpx_class_f32(Wave &w, const Inst &I) { cmpClass32<true>(w, I); }
void v_cmp_class_f64(Wave &w, const Inst &I) { cmpClass64<false>(w, I); }
void v_cmpx_class_f64(Wave &w, const Inst &I) { cmpClass64<true>(w, I); }
void v_cmp_class_f16(Wave &w, const Inst &I) { cmpClass16<false>(w, I); }
void v_cmpx_class_f16(Wave &w, const Inst &I) { cmpClass16<true>(w, I); }

} // namespace isaemu::detail

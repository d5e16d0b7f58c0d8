//===- Division.cpp - v_div_scale / v_div_fmas / v_div_fixup (f32, f64) ---===//
//
// The three helpers of the IEEE division macro LLVM emits for fdiv
// (div_scale of numerator and denominator, v_rcp, Newton steps, div_fmas,
// div_fixup). Semantics: the ISA guides' pseudo-code (RDNA3 / CDNA3 /
// CDNA4 "VOP3A & VOP3B": V_DIV_SCALE_F32 480, V_DIV_FIXUP_F32 478, ...),
// where it is defined; where it is not, or contradicts itself, the
// published measurements of RDNA hardware:
//  * div_scale_f32: the predicate (VCC) is `e2 - e1 >= 96 || e2 - e1 <= -96`
//    on the raw biased exponent fields (e1 of the denominator S1, e2 of the
//    numerator S2), zero operands give 0xffc00000, and a denominator whose
//    reciprocal is an f32 denormal (e1 >= 254; the guide's test
//    `1.0 / 64'F(S1) == DENORM.f64` can never hold) scales S0 by 2^-64
//    unless the predicate is set and S0 is the numerator (the guide's
//    ldexp(S0, 64) there would overflow the denominator); `e2 - e1 <= -96`
//    scales the numerator by 2^64 (a sweep of every operand pair on gfx1151,
//    RDNA3.5). div_scale_f64 follows the same structure with the f64
//    constants of its pseudo-code (768, 2^128, exponent 53; reciprocal
//    denormal: |S1| > 2^1022, e1 >= 2046).
//  * div_fmas: the guide writes `2.0F ** 32 * fma(...)` (f64: 2^64), which
//    cannot undo div_scale's 2^64 (2^128); the post-scale is 2^64 when the
//    scaled quotient S2 is >= 2 (exponent(S2) > 127, the denominator was
//    scaled up) and 2^-64 otherwise (f64: 2^+-128, exponent > 1023), as
//    emulators checked against RDNA3 hardware do. The product, sum and scale
//    round once (ExactFma.h); input denormals are not flushed (guide note).
//  * div_fixup: the guide's special-case chain (quiet NaN of S2, else S1;
//    0xffc00000 / 0xfff8000000000000 for 0/0 and inf/inf; signed inf and
//    zero), UNDERFLOW_F32/F64 (undefined in the guide) is the quotient below
//    half the smallest denormal rounded under MODE -- the signed zero in
//    round-to-nearest, as measured on gfx1151 -- and a NaN quotient reaching
//    the last branch gives the signed infinity (measured, gfx1151).
//
//===----------------------------------------------------------------------===//
#include "ExactFma.h"
#include "Ops.h"

namespace isaemu::detail {
namespace {

// Traits of the two formats: bit patterns, exponent field, the pseudo-code's constants.
template <typename T> struct Div;
template <> struct Div<float> {
  using U = uint32_t;
  static constexpr int ExpBits = 8, FracBits = 23, Bias = 127;
  static constexpr int Huge = 96, Scale = 64, TinyNumExp = 23, RecipDenormExp = 254, Underflow = -150;
  static constexpr U Sign = 0x80000000u, Inf = 0x7f800000u, Quiet = 0x00400000u, NegNaN = 0xffc00000u;
  static constexpr const FloatFormat &Fmt = Binary32;
};
template <> struct Div<double> {
  using U = uint64_t;
  static constexpr int ExpBits = 11, FracBits = 52, Bias = 1023;
  static constexpr int Huge = 768, Scale = 128, TinyNumExp = 53, RecipDenormExp = 2046, Underflow = -1075;
  static constexpr U Sign = 1ull << 63, Inf = 0x7ffull << 52, Quiet = 1ull << 51, NegNaN = 0xfff8000000000000ull;
  static constexpr const FloatFormat &Fmt = Binary64;
};

template <typename T> int expField(typename Div<T>::U B) { return int((B >> Div<T>::FracBits) & ((1u << Div<T>::ExpBits) - 1)); }
template <typename T> bool isZero(typename Div<T>::U B) { return (B & ~Div<T>::Sign) == 0; }
template <typename T> bool isNaN(typename Div<T>::U B) { return (B & ~Div<T>::Sign) > Div<T>::Inf; }
template <typename T> bool isInf(typename Div<T>::U B) { return (B & ~Div<T>::Sign) == Div<T>::Inf; }
template <typename T> typename Div<T>::U bitsOf(T X) { return std::bit_cast<typename Div<T>::U>(X); }
template <typename T> T valueOf(typename Div<T>::U B) { return std::bit_cast<T>(B); }

// ldexp that leaves NaN and infinity (and zero) alone; finite results are IEEE (overflow: inf).
template <typename T> typename Div<T>::U scaleBits(typename Div<T>::U B, int K) {
  if (expField<T>(B) == (1 << Div<T>::ExpBits) - 1) return B;
  return bitsOf<T>(std::ldexp(valueOf<T>(B), K));
}

// V_DIV_SCALE: S0 = the value to scale (a copy of S1 or S2), S1 = denominator, S2 = numerator.
template <typename T>
typename Div<T>::U divScale(typename Div<T>::U S0, typename Div<T>::U S1, typename Div<T>::U S2, bool &Vcc) {
  using D = Div<T>;
  int E1 = expField<T>(S1), E2 = expField<T>(S2), Diff = E2 - E1;
  Vcc = Diff >= D::Huge || Diff <= -D::Huge;
  if (isZero<T>(S1) || isZero<T>(S2)) return D::NegNaN;
  if (Diff >= D::Huge) return S0 == S1 ? scaleBits<T>(S0, D::Scale) : S0; // N/D near the largest value
  if (E1 == 0) return scaleBits<T>(S0, D::Scale);                         // denormal denominator
  if (E1 >= D::RecipDenormExp) return Vcc && S0 != S1 ? S0 : scaleBits<T>(S0, -D::Scale); // 1/D denormal
  if (Diff <= -D::Huge) return S0 == S1 ? S0 : scaleBits<T>(S0, D::Scale); // N/D tiny: scale the numerator
  if (E2 <= D::TinyNumExp) return scaleBits<T>(S0, D::Scale);              // numerator tiny
  return S0;
}

// V_DIV_FIXUP: S0 = quotient, S1 = denominator, S2 = numerator; Rm = MODE's round mode of the type.
template <typename T>
typename Div<T>::U divFixup(typename Div<T>::U S0, typename Div<T>::U S1, typename Div<T>::U S2, unsigned Rm) {
  using D = Div<T>;
  typename D::U Sign = (S1 ^ S2) & D::Sign;
  if (isNaN<T>(S2)) return S2 | D::Quiet;
  if (isNaN<T>(S1)) return S1 | D::Quiet;
  if (isZero<T>(S1) && isZero<T>(S2)) return D::NegNaN;
  if (isInf<T>(S1) && isInf<T>(S2)) return D::NegNaN;
  if (isZero<T>(S1) || isInf<T>(S2)) return Sign | D::Inf;
  if (isInf<T>(S1) || isZero<T>(S2)) return Sign;
  if (expField<T>(S2) - expField<T>(S1) < D::Underflow) { // |N/D| < half the smallest denormal
    bool Neg = Sign != 0;
    bool AwayFromZero = ((Rm & 3) == 1 && !Neg) || ((Rm & 3) == 2 && Neg);
    return Sign | (AwayFromZero ? 1 : 0);
  }
  if (isNaN<T>(S0)) return Sign | D::Inf;
  return Sign | (S0 & ~D::Sign);
}

// V_DIV_FMAS: 2^k * fma(S0, S1, S2) when the lane's VCC bit is set, one rounding.
template <typename T>
typename Div<T>::U divFmas(typename Div<T>::U S0, typename Div<T>::U S1, typename Div<T>::U S2, bool Scale, unsigned Rm) {
  using D = Div<T>;
  int K = !Scale ? 0 : expField<T>(S2) > D::Bias ? D::Scale : -D::Scale;
  uint64_t Out;
  if (scaledFma(S0, S1, S2, K, D::Fmt, Rm, Out)) return typename D::U(Out);
  return bitsOf<T>(std::fma(valueOf<T>(S0), valueOf<T>(S1), valueOf<T>(S2))); // inf / NaN operands
}

// Source with modifiers, without MODE's input flushing (div_fmas: "input denormals are not flushed").
uint32_t rawSrc32(const Wave &w, const Opnd &o, unsigned l) { return mods32(vread32(w, o, l), o.mods); }
uint64_t rawSrc64(const Wave &w, const Opnd &o, unsigned l) { return mods64(vread64(w, o, l), o.mods); }

} // namespace

void v_div_scale_f32(Wave &w, const Inst &I) {
  uint64_t Vcc = 0;
  lanes(w, [&](unsigned l) {
    bool V = false;
    uint32_t D = divScale<float>(b32(fsrc32(w, I.s[0], l)), b32(fsrc32(w, I.s[1], l)), b32(fsrc32(w, I.s[2], l)), V);
    vwrite32(w, I.d[0], l, fres32(w, I, f32(D)));
    Vcc |= uint64_t(V) << l;
  });
  if (I.nd > 1) writeMask(w, I.d[1], Vcc);
}
void v_div_scale_f64(Wave &w, const Inst &I) {
  uint64_t Vcc = 0;
  lanes(w, [&](unsigned l) {
    bool V = false;
    uint64_t D = divScale<double>(b64(fsrc64(w, I.s[0], l)), b64(fsrc64(w, I.s[1], l)), b64(fsrc64(w, I.s[2], l)), V);
    vwrite64(w, I.d[0], l, fres64(w, I, f64(D)));
    Vcc |= uint64_t(V) << l;
  });
  if (I.nd > 1) writeMask(w, I.d[1], Vcc);
}
void v_div_fmas_f32(Wave &w, const Inst &I) {
  uint64_t Vcc = w.vcc();
  lanes(w, [&](unsigned l) {
    uint32_t R = divFmas<float>(rawSrc32(w, I.s[0], l), rawSrc32(w, I.s[1], l), rawSrc32(w, I.s[2], l), (Vcc >> l) & 1,
                                round32(w));
    vwrite32(w, I.d[0], l, fres32(w, I, f32(R)));
  });
}
void v_div_fmas_f64(Wave &w, const Inst &I) {
  uint64_t Vcc = w.vcc();
  lanes(w, [&](unsigned l) {
    uint64_t R = divFmas<double>(rawSrc64(w, I.s[0], l), rawSrc64(w, I.s[1], l), rawSrc64(w, I.s[2], l), (Vcc >> l) & 1,
                                 round64(w));
    vwrite64(w, I.d[0], l, fres64(w, I, f64(R)));
  });
}
void v_div_fixup_f32(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    uint32_t R = divFixup<float>(b32(fsrc32(w, I.s[0], l)), b32(fsrc32(w, I.s[1], l)), b32(fsrc32(w, I.s[2], l)), round32(w));
    vwrite32(w, I.d[0], l, fres32(w, I, f32(R)));
  });
}
void v_div_fixup_f64(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    uint64_t R = divFixup<double>(b64(fsrc64(w, I.s[0], l)), b64(fsrc64(w, I.s[1], l)), b64(fsrc64(w, I.s[2], l)), round64(w));
    vwrite64(w, I.d[0], l, fres64(w, I, f64(R)));
  });
}

} // namespace isaemu::detail

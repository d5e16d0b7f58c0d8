//===- ExactFma.h - a*b+c, scaled by 2^k, rounded once to f32/f64 -*- C++ -*-===//
//
// v_div_fmas computes 2^k * fma(a, b, c) with a single rounding (the ISA's
// pseudo-code is exact arithmetic): when the post-scale moves the result into
// the denormal range, rounding the fma first and scaling afterwards would
// round twice (div.rn.f32 of a denormal numerator was one ulp off that way).
// The host's fma cannot do this, and host rounding modes are not reliable
// across compiler transformations, so the value is formed exactly in integer
// arithmetic: the 106-bit product and the addend aligned in a 128-bit frame
// whose lowest bit is sticky (round to odd, correct for a later rounding to
// at most 120 bits), then rounded to the target format under one of MODE's
// four round modes (0 nearest-even, 1 +inf, 2 -inf, 3 toward zero).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace isaemu::detail {

/// A binary format: P significand bits (hidden bit included), minimum normal exponent, bias.
struct FloatFormat {
  int p, emin, emax;
  unsigned bits;
};
inline constexpr FloatFormat Binary32{24, -126, 127, 32};
inline constexpr FloatFormat Binary64{53, -1022, 1023, 64};

namespace exactfma {

struct Unpacked {
  bool neg = false, zero = true;
  uint64_t mant = 0; ///< with the hidden bit
  int exp = 0;       ///< value = mant * 2^exp
};

inline Unpacked unpack(uint64_t Bits, const FloatFormat &F) {
  Unpacked U;
  int Frac = F.p - 1, EBits = int(F.bits) - F.p;
  U.neg = (Bits >> (F.bits - 1)) & 1;
  uint64_t M = Bits & ((1ull << Frac) - 1);
  int E = int((Bits >> Frac) & ((1u << EBits) - 1));
  if (E == 0 && M == 0) return U;
  U.zero = false;
  U.mant = E ? (M | (1ull << Frac)) : M;
  U.exp = (E ? E : 1) - F.emax - Frac;
  return U;
}

inline int lead(unsigned __int128 X) {
  uint64_t Hi = uint64_t(X >> 64);
  return Hi ? 127 - std::countl_zero(Hi) : 63 - std::countl_zero(uint64_t(X));
}

// Shifts right keeping the dropped bits as a sticky lowest bit.
inline unsigned __int128 shrSticky(unsigned __int128 X, int S) {
  if (S <= 0) return X;
  if (S >= 127) return X != 0;
  unsigned __int128 Out = X >> S;
  if (X & ((unsigned __int128)1 << S) - 1) Out |= 1;
  return Out;
}

/// Rounds neg * M * 2^E (M's lowest bit may be sticky) to format F under mode Rm.
inline uint64_t roundTo(bool Neg, unsigned __int128 M, int E, const FloatFormat &F, unsigned Rm) {
  uint64_t Sign = uint64_t(Neg) << (F.bits - 1);
  int Frac = F.p - 1;
  uint64_t InfBits = ((1ull << (F.bits - F.p)) - 1) << Frac;
  if (M == 0) return Sign;
  int L = lead(M);
  int ResExp = std::max(L + E, F.emin); // exponent of the result's leading bit position
  int Q = ResExp - Frac;                // exponent of the result's last bit
  int Drop = Q - E;                     // bits of M below the result's last bit
  unsigned __int128 Kept = 0;
  bool Half = false, Below = false;
  if (Drop <= 0) {
    Kept = M << -Drop; // exact (the value has fewer bits than the result)
  } else if (Drop <= 127) {
    unsigned __int128 HalfBit = (unsigned __int128)1 << (Drop - 1);
    Kept = M >> Drop;
    Half = M & HalfBit;
    Below = (M & (HalfBit - 1)) != 0;
  } else if (Drop == 128) {
    Half = M >> 127;
    Below = (M << 1) != 0;
  } else {
    Below = true; // M != 0, far below the last bit
  }
  bool Up = false;
  switch (Rm & 3) {
  case 0: Up = Half && (Below || (Kept & 1)); break;
  case 1: Up = !Neg && (Half || Below); break;
  case 2: Up = Neg && (Half || Below); break;
  default: break;
  }
  if (Up) ++Kept;
  if (Kept >> F.p) { // carried into a new leading bit
    Kept >>= 1;
    ++Q;
  }
  int BiasedExp = (Kept >> Frac) ? Q + Frac + F.emax : 0; // denormal when the hidden bit is clear
  if (BiasedExp >= int((1u << (F.bits - F.p)) - 1)) {   // overflow
    bool ToInf = (Rm & 3) == 0 || ((Rm & 3) == 1 && !Neg) || ((Rm & 3) == 2 && Neg);
    return Sign | (ToInf ? InfBits : InfBits - 1);
  }
  uint64_t Fraction = uint64_t(Kept) & ((1ull << Frac) - 1);
  return Sign | (uint64_t(BiasedExp) << Frac) | Fraction;
}

} // namespace exactfma

/// Bits of round_F(2^K * (a*b + c)) under round mode Rm, for a, b, c (bit patterns) of format F.
/// Returns false when an operand is not finite: the result is then an infinity or a NaN, which the
/// scale does not change, and the caller takes the host's fma.
inline bool scaledFma(uint64_t A, uint64_t B, uint64_t C, int K, const FloatFormat &F, unsigned Rm, uint64_t &Out) {
  using namespace exactfma;
  uint64_t ExpMask = ((1ull << (F.bits - F.p)) - 1) << (F.p - 1);
  if ((A & ExpMask) == ExpMask || (B & ExpMask) == ExpMask || (C & ExpMask) == ExpMask) return false;
  Unpacked Ua = unpack(A, F), Ub = unpack(B, F), Uc = unpack(C, F);
  bool PNeg = Ua.neg != Ub.neg, PZero = Ua.zero || Ub.zero;
  unsigned __int128 PM = PZero ? 0 : (unsigned __int128)Ua.mant * Ub.mant;
  int PE = Ua.exp + Ub.exp;
  if (PZero && Uc.zero) { // exact zero: the sign is -0 only if both are -0 (or toward -inf)
    bool Neg = (PNeg && Uc.neg) || ((PNeg != Uc.neg) && (Rm & 3) == 2);
    Out = uint64_t(Neg) << (F.bits - 1);
    return true;
  }
  unsigned __int128 CM = Uc.zero ? 0 : Uc.mant;
  int CE = Uc.exp;
  // Common frame: the larger operand's leading bit at bit 125 (two bits of headroom for the sum).
  int PLead = PM ? lead(PM) + PE : INT32_MIN / 2, CLead = CM ? lead(CM) + CE : INT32_MIN / 2;
  int Top = std::max(PLead, CLead);
  int FrameE = Top - 125; // value of the frame's bit 0
  auto place = [&](unsigned __int128 M, int E) -> unsigned __int128 {
    if (!M) return 0;
    int S = FrameE - E;
    return S >= 0 ? shrSticky(M, S) : M << -S;
  };
  unsigned __int128 X = place(PM, PE), Y = place(CM, CE);
  bool Neg;
  unsigned __int128 Sum;
  if (PNeg == Uc.neg || !PM || !CM) {
    Neg = PM ? PNeg : Uc.neg;
    Sum = X + Y;
  } else if (X >= Y) {
    Neg = PNeg;
    Sum = X - Y;
  } else {
    Neg = Uc.neg;
    Sum = Y - X;
  }
  if (Sum == 0) { // exact cancellation: +0, or -0 when rounding toward -inf
    Out = uint64_t((Rm & 3) == 2) << (F.bits - 1);
    return true;
  }
  Out = roundTo(Neg, Sum, FrameE + K, F, Rm);
  return true;
}

} // namespace isaemu::detail

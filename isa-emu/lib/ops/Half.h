//===- Half.h - binary16 rounding under MODE, single-rounding fused ops ---*- C++ -*-===//
//
// The host's _Float16 conversions round to nearest-even whatever the host
// rounding mode (GCC 12 / x86-64), and computing an f16 (or f32) fma in
// double and then narrowing rounds twice. These helpers give the hardware's
// single rounding: roundHalf() narrows an exact double to binary16 under one
// of MODE's four round modes; fmaToOdd() returns a*b+c rounded to odd in
// double (53 bits), which a later rounding to any format of at most 51 bits
// (binary16 or binary32) turns into the correctly rounded fused result.
// hmods() applies a VOP3 encoding's output modifiers to a binary16 result;
// writeHalf() stores a 16-bit result the way each generation does.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "../Image.h"
#include "OpUtil.h"

#include <bit>
#include <cmath>
#include <cstdint>

namespace isaemu::detail {

inline double halfValue(uint32_t Bits) { return double(std::bit_cast<_Float16>(uint16_t(Bits))); }

/// Flushes a binary16 denormal to a signed zero.
inline uint32_t ftz16(uint32_t H) { return (H & 0x7c00u) == 0 ? (H & 0x8000u) : (H & 0xffffu); }

/// x rounded to binary16 under AMD round mode \p Rm (0 nearest-even,
/// 1 +inf, 2 -inf, 3 toward zero); NaNs are quieted as the host narrows them.
inline uint32_t roundHalf(double X, unsigned Rm) {
  if (std::isnan(X)) return std::bit_cast<uint16_t>(_Float16(X));
  bool Neg = std::signbit(X);
  uint32_t Sign = Neg ? 0x8000u : 0u;
  double A = std::fabs(X);
  if (std::isinf(A)) return Sign | 0x7c00u;
  if (A == 0.0) return Sign;
  int E = std::ilogb(A);
  double Q = std::ldexp(1.0, (E < -14 ? -14 : E) - 10); // quantum: 2^-24 for subnormals
  double M = A / Q, Fl = std::floor(M), Fr = M - Fl;    // both exact
  bool Up = false;
  switch (Rm & 3) {
  case 0: Up = Fr > 0.5 || (Fr == 0.5 && std::fmod(Fl, 2.0) != 0.0); break;
  case 1: Up = Fr > 0.0 && !Neg; break;
  case 2: Up = Fr > 0.0 && Neg; break;
  default: break;
  }
  double R = (Fl + (Up ? 1.0 : 0.0)) * Q;
  if (R >= 65536.0 || (R > 65504.0)) { // overflow: infinity or the largest finite value
    bool ToInf = (Rm & 3) == 0 || ((Rm & 3) == 1 && !Neg) || ((Rm & 3) == 2 && Neg);
    return Sign | (ToInf ? 0x7c00u : 0x7bffu);
  }
  return Sign | std::bit_cast<uint16_t>(_Float16(R)); // R is representable: exact
}

/// a*b+c with one rounding to odd at double precision (host round mode must
/// be nearest). The product must be exact in double: a, b binary32 values.
inline double fmaToOdd(double A, double B, double C) {
  double P = A * B;
  double S = P + C;
  if (!std::isfinite(S) || !std::isfinite(P) || !std::isfinite(C)) return S;
  double Bv = S - P;
  double Err = (P - (S - Bv)) + (C - Bv); // TwoSum: S + Err == P + C exactly
  if (Err != 0.0 && (std::bit_cast<uint64_t>(S) & 1) == 0)
    S = std::nextafter(S, Err > 0 ? INFINITY : -INFINITY);
  return S;
}

/// The output modifiers of a VOP3 binary16 result H (bits): omod (c[1]:
/// *2, *4, /2) when the encoding has one (\p Omod), then the clamp bit
/// (c[0], clamp01: [+0, 1], NaN -> +0), rounded again under \p Rm (exact
/// but for omod's overflow / denormal halving). H itself without them.
inline uint32_t hmods(const Inst &I, uint32_t H, bool Omod, unsigned Rm) {
  bool Clamp = clampBitOf(I);
  int64_t Om = Omod && I.nc >= 2 ? I.c[1] : 0;
  if (!Clamp && !Om) return H;
  double X = halfValue(H);
  if (std::isnan(X)) return Clamp ? 0u : H;
  if (Om) X = Om == 1 ? X * 2.0 : Om == 2 ? X * 4.0 : X * 0.5;
  if (Clamp) X = clamp01(X);
  return roundHalf(X, Rm);
}

/// Writes a 16-bit VALU result: gfx11 (true16) replaces the selected half of
/// the destination, gfx9 writes the low half and zeroes the high one.
inline void writeHalf(Wave &w, const Inst &I, unsigned l, uint32_t h) {
  if (w.prog->gfx9) vwrite32(w, I.d[0], l, h & 0xffff);
  else vwrite16(w, I.d[0], l, h);
}

} // namespace isaemu::detail

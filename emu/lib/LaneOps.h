//===- LaneOps.h - per-lane value helpers shared by the op files -*- C++ -*-===//
//
// Conversions between the 64-bit slot representation and C++ scalar types,
// and the enumerations of element-wise ("lane") and wave-state operations the
// translator selects handlers for (generated from Intrinsics.def). Integer
// slots hold their value zero-extended from the type's width; floating-point
// slots hold the IEEE bit pattern.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Internal.h"

#include <bit>
#include <cmath>

namespace emu::detail {

inline float h2f(uint64_t v) {
  uint16_t b = uint16_t(v);
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return float(h);
}
inline uint64_t f2h(float f) {
  _Float16 h = _Float16(f);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
inline uint64_t d2h(double d) {
  _Float16 h = _Float16(d);
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
inline float bf2f(uint64_t v) { return std::bit_cast<float>(uint32_t(uint16_t(v)) << 16); }
inline uint64_t f2bf(float f) {
  uint32_t u = std::bit_cast<uint32_t>(f);
  if ((u & 0x7fffffff) > 0x7f800000) return (u >> 16) | 0x40; // quiet NaN
  u += 0x7fff + ((u >> 16) & 1);
  return u >> 16;
}
inline uint64_t d2bf(double d) {
  // Round to odd into float, then RNE to bf16 (avoids double rounding).
  float f = float(d);
  if (std::isfinite(d) && std::isfinite(f) && double(f) != d) {
    if (std::fabs(double(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);
    f = std::bit_cast<float>(std::bit_cast<uint32_t>(f) | 1u);
  }
  return f2bf(f);
}
inline float asF32(uint64_t v) { return std::bit_cast<float>(uint32_t(v)); }
inline double asF64(uint64_t v) { return std::bit_cast<double>(v); }
inline uint64_t fromF32(float f) { return std::bit_cast<uint32_t>(f); }
inline uint64_t fromF64(double d) { return std::bit_cast<uint64_t>(d); }

inline uint64_t widthMask(unsigned Bits) {
  return Bits >= 64 ? ~0ull : ((1ull << Bits) - 1);
}
inline int64_t sextFrom(uint64_t v, unsigned Bits) {
  if (Bits >= 64) return int64_t(v);
  unsigned s = 64 - Bits;
  return int64_t(v << s) >> s;
}

/// Element-wise operations selected by the translator for intrinsics (the
/// EMU_LANE_OP rows of Intrinsics.def).
enum class LOp : uint16_t {
#define EMU_LANE_OP(Op) Op,
#include "Intrinsics.def"
};

/// Operations that need wave, workgroup or launch state (the EMU_STATE_OP
/// rows of Intrinsics.def; executed in Exec.cpp).
enum class SOp : uint16_t {
#define EMU_STATE_OP(Op, Handler) Op,
#include "Intrinsics.def"
};

namespace ops {
/// Handler of a wave/launch-state operation.
Handler special(SOp Op, VK K = VK::I32);
/// Handler for an element-wise op over kind K (K2: second kind, e.g. the
/// integer type of fptosi.sat results). nullptr if not implemented.
Handler laneOp(LOp Op, VK K, VK K2 = VK::I32);
/// Constrained FP operation handlers (ConstrainedOps.cpp); I.kind holds the
/// rounding mode (0 rne, 1 rtz, 2 up, 3 down).
Handler constrainedBin(unsigned Opcode, VK K);
Handler constrainedFma(VK K);
Handler constrainedUnary(LOp Op, VK K);
Handler constrainedCast(unsigned Opcode, VK From, VK To);
} // namespace ops

} // namespace emu::detail

//===- OpUtil.h - helpers shared by the family handlers ---------*- C++ -*-===//
//
// Floating-point operand access with source modifiers (abs, neg) and the
// MODE register's denormal flushing, output modifiers (omod, clamp), host
// rounding for MODE's round bits, and lane loops.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "../Image.h"

#include "llvm/Support/MathExtras.h"

#include <bit>
#include <cfenv>
#include <cmath>

namespace isaemu::detail {

inline float f32(uint32_t b) { return std::bit_cast<float>(b); }
inline uint32_t b32(float f) { return std::bit_cast<uint32_t>(f); }
inline double f64(uint64_t b) { return std::bit_cast<double>(b); }
inline uint64_t b64(double d) { return std::bit_cast<uint64_t>(d); }

// MODE: [1:0] round f32, [3:2] round f16/f64, [5:4] denorm f32, [7:6] denorm f16/f64, [9] IEEE.
inline bool flushIn32(const Wave &w) { return !((w.mode >> 4) & 1); }
inline bool flushOut32(const Wave &w) { return !((w.mode >> 5) & 1); }
inline bool flushIn64(const Wave &w) { return !((w.mode >> 6) & 1); }
inline bool flushOut64(const Wave &w) { return !((w.mode >> 7) & 1); }
inline bool ieeeMode(const Wave &w) { return (w.mode >> 9) & 1; }

inline uint32_t ftz32(uint32_t b) { return (b & 0x7f800000u) == 0 ? (b & 0x80000000u) : b; }
inline uint64_t ftz64(uint64_t b) {
  return (b & 0x7ff0000000000000ull) == 0 ? (b & 0x8000000000000000ull) : b;
}

inline uint32_t mods32(uint32_t b, uint8_t m) {
  if (m & ModAbs) b &= 0x7fffffffu;
  if (m & ModNeg) b ^= 0x80000000u;
  return b;
}
inline uint64_t mods64(uint64_t b, uint8_t m) {
  if (m & ModAbs) b &= ~(1ull << 63);
  if (m & ModNeg) b ^= 1ull << 63;
  return b;
}
inline uint32_t mods16(uint32_t b, uint8_t m) {
  b &= 0xffff;
  if (m & ModAbs) b &= 0x7fffu;
  if (m & ModNeg) b ^= 0x8000u;
  return b;
}

/// f32 source value of lane l (modifiers, then input denormal flushing).
inline float fsrc32(const Wave &w, const Opnd &o, unsigned l) {
  uint32_t b = mods32(vread32(w, o, l), o.mods);
  if (flushIn32(w)) b = ftz32(b);
  return f32(b);
}
inline double fsrc64(const Wave &w, const Opnd &o, unsigned l) {
  uint64_t b = mods64(vread64(w, o, l), o.mods);
  if (flushIn64(w)) b = ftz64(b);
  return f64(b);
}

/// The clamp bit of a float result (VOP3, VOP3P, SDWA; f16, f32 and f64
/// alike): the value clamped to [+0, 1.0]. A NaN gives +0 (DX10 clamp, which
/// the compute kernels' descriptors enable) and so does -0 (the lower bound
/// is +0, which IEEE min/max order above -0).
inline double clamp01(double r) { return !(r > 0.0) ? 0.0 : std::min(r, 1.0); }
inline bool clampBitOf(const Inst &I) { return I.nc >= 1 && I.c[0]; }

/// Output modifiers of a VOP3 result (c[0] = clamp, c[1] = omod) and
/// output denormal flushing.
inline uint32_t fres32(const Wave &w, const Inst &I, float r) {
  if (I.nc >= 2 && I.c[1]) r = I.c[1] == 1 ? r * 2.0f : I.c[1] == 2 ? r * 4.0f : r * 0.5f;
  if (clampBitOf(I)) r = float(clamp01(r));
  uint32_t b = b32(r);
  return flushOut32(w) ? ftz32(b) : b;
}
inline uint64_t fres64(const Wave &w, const Inst &I, double r) {
  if (I.nc >= 2 && I.c[1]) r = I.c[1] == 1 ? r * 2.0 : I.c[1] == 2 ? r * 4.0 : r * 0.5;
  if (clampBitOf(I)) r = clamp01(r);
  uint64_t b = b64(r);
  return flushOut64(w) ? ftz64(b) : b;
}

/// Host rounding mode for MODE's round field (RNE needs no switch).
struct RoundScope {
  int old = -1;
  explicit RoundScope(unsigned rm) {
    static constexpr int M[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
    if (rm & 3) {
      old = fegetround();
      fesetround(M[rm & 3]);
    }
  }
  ~RoundScope() {
    if (old >= 0) fesetround(old);
  }
};
inline unsigned round32(const Wave &w) { return w.mode & 3; }
inline unsigned round64(const Wave &w) { return (w.mode >> 2) & 3; }

inline bool isSNaN32(uint32_t b) { return (b & 0x7f800000u) == 0x7f800000u && (b & 0x7fffff) && !(b & 0x400000); }
inline bool isSNaN64(uint64_t b) {
  return (b & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (b & 0xfffffffffffffull) &&
         !(b & 0x8000000000000ull);
}

/// IEEE-mode min/max (AMD: an sNaN input gives a quiet NaN, a qNaN input
/// gives the other operand; +0 > -0).
template <bool Max> float minmax32(const Wave &w, float a, float b) {
  if (std::isnan(a) || std::isnan(b)) {
    if (ieeeMode(w) && (isSNaN32(b32(a)) || isSNaN32(b32(b))))
      return f32((isSNaN32(b32(a)) ? b32(a) : b32(b)) | 0x400000u);
    return std::isnan(a) ? b : a;
  }
  if (a == b && a == 0.0f) return Max ? (std::signbit(a) ? b : a) : (std::signbit(a) ? a : b);
  return Max ? (a > b ? a : b) : (a < b ? a : b);
}
template <bool Max> double minmax64(const Wave &w, double a, double b) {
  if (std::isnan(a) || std::isnan(b)) {
    if (ieeeMode(w) && (isSNaN64(b64(a)) || isSNaN64(b64(b))))
      return f64((isSNaN64(b64(a)) ? b64(a) : b64(b)) | 0x8000000000000ull);
    return std::isnan(a) ? b : a;
  }
  if (a == b && a == 0.0) return Max ? (std::signbit(a) ? b : a) : (std::signbit(a) ? a : b);
  return Max ? (a > b ? a : b) : (a < b ? a : b);
}

// Lane loops: F(lane) for each active lane.
template <typename F> inline void lanes(Wave &w, F f) {
  for (uint64_t m = w.exec(); m; m &= m - 1) f(unsigned(__builtin_ctzll(m)));
}

/// A 32-bit VALU source resolved once per instruction: a VGPR/AGPR row
/// (per lane; a true16 .h source shifted down) or a uniform value (SGPR,
/// immediate, SCC...). s[l] is what vread32(w, o, l) returns.
struct LaneSrc {
  const uint32_t *row = nullptr;
  unsigned shift = 0;
  uint32_t value = 0;
  uint32_t operator[](unsigned l) const { return row ? row[l] >> shift : value; }
};
inline LaneSrc laneSrc(const Wave &w, const Opnd &o) {
  if (o.kind == OK::V) return {&w.V[size_t(o.reg) * w.W], o.hi ? 16u : 0u, 0};
  if (o.kind == OK::A) return {&w.A[size_t(o.reg) * w.W], 0, 0};
  return {nullptr, 0, sread32(w, o)};
}
/// The row a 32-bit VALU result is written to (what vwrite32 writes), or
/// nullptr when the destination is not a vector register.
inline uint32_t *laneDst(Wave &w, const Opnd &o) {
  if (o.kind == OK::V) return &w.V[size_t(o.reg) * w.W];
  if (o.kind == OK::A) return &w.A[size_t(o.reg) * w.W];
  return nullptr;
}

/// 32-bit integer VALU op: d0 = f(s0, s1, s2).
template <typename F> inline void vint32(Wave &w, const Inst &I, F f) {
  uint32_t *d = laneDst(w, I.d[0]);
  if (!d) return;
  const LaneSrc a = laneSrc(w, I.s[0]), b = I.ns > 1 ? laneSrc(w, I.s[1]) : LaneSrc{},
                c = I.ns > 2 ? laneSrc(w, I.s[2]) : LaneSrc{};
  uint64_t m = w.exec();
  if (m == w.laneMask()) { // every lane: a plain loop (the body is small enough to unroll)
    for (unsigned l = 0, n = w.W; l < n; ++l) d[l] = f(a[l], b[l], c[l]);
    return;
  }
  for (; m; m &= m - 1) {
    unsigned l = unsigned(__builtin_ctzll(m));
    d[l] = f(a[l], b[l], c[l]);
  }
}

} // namespace isaemu::detail

//===- MemUtil.h - per-lane memory access shared by FLAT, MUBUF and DS ------===//
#pragma once

#include "../Core.h"
#include "Half.h"

#include <bit>
#include <cmath>
#include <type_traits>

namespace isaemu::detail {

enum class Space : uint8_t { Flat, Global, Private, Lds };

/// Copies \p n bytes between lane memory at \p a (in \p sp) and \p buf;
/// private memory is split per dword (it is swizzled). False on a fault,
/// which is raised here.
inline bool laneAccess(Wave &w, const Inst &I, unsigned l, Space sp, uint64_t a, void *buf, unsigned n, bool store) {
  uint8_t *b = static_cast<uint8_t *>(buf);
  if (sp == Space::Flat) {
    uint32_t hi = uint32_t(a >> 32);
    if (hi == uint32_t(PrivateApertureBase >> 32)) { sp = Space::Private; a = uint32_t(a); }
    else if (hi == uint32_t(SharedApertureBase >> 32)) { sp = Space::Lds; a = uint32_t(a); }
    else sp = Space::Global;
  }
  if (sp == Space::Private) {
    for (unsigned k = 0; k < n;) {
      unsigned c = std::min<unsigned>(n - k, 4 - unsigned((a + k) & 3));
      uint8_t *p = privatePtr(w, l, a + k, c);
      if (!p) {
        raiseFault(w, I, ::support::FaultKind::MemoryFault, "private (scratch) memory fault", int(l), a + k, true);
        return false;
      }
      if (store) memcpy(p, b + k, c);
      else memcpy(b + k, p, c);
      k += c;
    }
    return true;
  }
  uint8_t *p = sp == Space::Lds ? ldsPtr(w, a, n) : globalPtr(*w.ls, a, n);
  if (!p) {
    raiseFault(w, I, ::support::FaultKind::MemoryFault, sp == Space::Lds ? "LDS access out of range" : "global memory fault", int(l), a, true);
    return false;
  }
  if (store) memcpy(p, b, n);
  else memcpy(b, p, n);
  return true;
}

/// D16 load result: the loaded byte (zero- or sign-extended to 16 bits) or
/// short \p V replaces the low (or, \p Hi, the high) half of \p Old.
inline uint32_t mergeD16(uint32_t Old, uint32_t V, unsigned Bytes, bool Hi, bool Signed) {
  if (Bytes == 1) V = Signed ? uint32_t(int32_t(int8_t(V))) & 0xffff : V & 0xff;
  V &= 0xffff;
  return Hi ? (Old & 0xffff) | (V << 16) : (Old & 0xffff0000u) | V;
}

/// Host pointer for an atomic (global or LDS; private atomics are faults).
inline uint8_t *atomicPtr(Wave &w, const Inst &I, unsigned l, Space sp, uint64_t a, unsigned n) {
  if (sp == Space::Flat) {
    uint32_t hi = uint32_t(a >> 32);
    if (hi == uint32_t(SharedApertureBase >> 32)) { sp = Space::Lds; a = uint32_t(a); }
    else if (hi == uint32_t(PrivateApertureBase >> 32)) {
      // Private memory is per lane: a plain read-modify-write is atomic.
      sp = Space::Private;
      a = uint32_t(a);
      if (n == 4) {
        uint8_t *p = privatePtr(w, l, a, 4);
        if (!p) raiseFault(w, I, ::support::FaultKind::MemoryFault, "private (scratch) memory fault", int(l), a, true);
        return p;
      }
      raiseUnsupported(w, I, "64-bit atomic on private memory", "64-bit atomic on private memory (not modelled)", int(l), a, true);
      return nullptr;
    } else sp = Space::Global;
  }
  if (a % n) {
    raiseFault(w, I, ::support::FaultKind::Misaligned, "misaligned atomic", int(l), a, true);
    return nullptr;
  }
  uint8_t *p = sp == Space::Lds ? ldsPtr(w, a, n) : globalPtr(*w.ls, a, n);
  if (!p) raiseFault(w, I, ::support::FaultKind::MemoryFault, sp == Space::Lds ? "LDS atomic out of range" : "global memory fault (atomic)", int(l), a, true);
  return p;
}

enum class AtomicOp : uint8_t {
  Swap, CmpSwap, Add, Sub, SMin, UMin, SMax, UMax, And, Or, Xor, Inc, Dec, FAdd, FMin, FMax,
  PkAddF16, PkAddBF16 ///< two 16-bit halves, each rounded to nearest-even
};

/// bf16 sum of two bf16 values: the f32 sum (exact enough: 24 >= 2*8+2
/// bits, so rounding it again to bf16 is innocuous) rounded to nearest-even.
inline uint32_t bf16Add(uint32_t A, uint32_t B) {
  uint32_t U = std::bit_cast<uint32_t>(std::bit_cast<float>(A << 16) + std::bit_cast<float>(B << 16));
  if ((U & 0x7fffffffu) > 0x7f800000u) return (U >> 16) | 0x40;
  return (U + 0x7fffu + ((U >> 16) & 1)) >> 16;
}

/// Performs the atomic on host memory; returns the old value.
template <typename T> T atomicRMW(T *p, AtomicOp op, T v, T cmp) {
  T old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (true) {
    T nv = v;
    using S = std::make_signed_t<T>;
    switch (op) {
    case AtomicOp::Swap: nv = v; break;
    case AtomicOp::CmpSwap: nv = old == cmp ? v : old; break;
    case AtomicOp::Add: nv = old + v; break;
    case AtomicOp::Sub: nv = old - v; break;
    case AtomicOp::SMin: nv = S(old) < S(v) ? old : v; break;
    case AtomicOp::UMin: nv = old < v ? old : v; break;
    case AtomicOp::SMax: nv = S(old) > S(v) ? old : v; break;
    case AtomicOp::UMax: nv = old > v ? old : v; break;
    case AtomicOp::And: nv = old & v; break;
    case AtomicOp::Or: nv = old | v; break;
    case AtomicOp::Xor: nv = old ^ v; break;
    case AtomicOp::Inc: nv = old >= v ? 0 : old + 1; break;
    case AtomicOp::Dec: nv = (old == 0 || old > v) ? v : old - 1; break;
    case AtomicOp::FAdd:
      if constexpr (sizeof(T) == 4) nv = std::bit_cast<T>(std::bit_cast<float>(old) + std::bit_cast<float>(v));
      else nv = std::bit_cast<T>(std::bit_cast<double>(old) + std::bit_cast<double>(v));
      break;
    case AtomicOp::PkAddF16:
    case AtomicOp::PkAddBF16:
      if constexpr (sizeof(T) == 4) {
        nv = 0;
        for (unsigned k = 0; k < 32; k += 16) {
          uint32_t a = (old >> k) & 0xffff, b = (v >> k) & 0xffff;
          uint32_t r = op == AtomicOp::PkAddF16 ? roundHalf(halfValue(a) + halfValue(b), 0) : bf16Add(a, b);
          nv |= T(r & 0xffff) << k;
        }
      }
      break;
    case AtomicOp::FMin:
    case AtomicOp::FMax: {
      if constexpr (sizeof(T) == 4) {
        float a = std::bit_cast<float>(old), b = std::bit_cast<float>(v);
        nv = std::bit_cast<T>(op == AtomicOp::FMin ? std::fmin(a, b) : std::fmax(a, b));
      } else {
        double a = std::bit_cast<double>(old), b = std::bit_cast<double>(v);
        nv = std::bit_cast<T>(op == AtomicOp::FMin ? std::fmin(a, b) : std::fmax(a, b));
      }
      break;
    }
    }
    if (__atomic_compare_exchange_n(p, &old, nv, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) return old;
  }
}

} // namespace isaemu::detail

//===- ConstrainedOps.cpp - FP operations with explicit rounding modes ------===//
//
// Handlers for llvm.experimental.constrained.* operations whose rounding
// mode is not round-to-nearest-even. The host's floating-point environment
// is switched around the lane loop (this file is compiled with
// -frounding-math so the compiler neither folds nor moves the operations
// across the switch), which gives exactly rounded results in the requested
// direction for f32 and f64. f16 results are computed in double with
// round-to-odd and then rounded in the requested direction.
//
//===----------------------------------------------------------------------===//
#include "LaneOps.h"

#include "llvm/IR/Instruction.h"

#include <cfenv>

using namespace llvm;

namespace emu::detail {
namespace {

int hostMode(unsigned M) {
  switch (M) {
  case 1: return FE_TOWARDZERO;
  case 2: return FE_UPWARD;
  case 3: return FE_DOWNWARD;
  default: return FE_TONEAREST;
  }
}

struct RoundGuard {
  int Old;
  explicit RoundGuard(unsigned M) : Old(std::fegetround()) { std::fesetround(hostMode(M)); }
  ~RoundGuard() { std::fesetround(Old); }
};

/// Rounds a double to half in the current host rounding mode.
uint64_t dToHalfMode(double d) {
  _Float16 h = _Float16(d); // GCC honours the dynamic rounding mode with -frounding-math via libgcc
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}

template <class F> St run2(Ctx &c, const Inst &I, F f) {
  RoundGuard G(I.kind);
  uint64_t *D = slotPtr(c, I.dst);
  const uint64_t *A = srcPtr(c, I.a), *B = srcPtr(c, I.b);
  forLanes(c, [&](unsigned l) { D[l] = f(A[l], B[l]); });
  return St::Next;
}
template <class F> St run3(Ctx &c, const Inst &I, F f) {
  RoundGuard G(I.kind);
  uint64_t *D = slotPtr(c, I.dst);
  const uint64_t *A = srcPtr(c, I.a), *B = srcPtr(c, I.b), *C = srcPtr(c, I.c);
  forLanes(c, [&](unsigned l) { D[l] = f(A[l], B[l], C[l]); });
  return St::Next;
}
template <class F> St run1(Ctx &c, const Inst &I, F f) {
  RoundGuard G(I.kind);
  uint64_t *D = slotPtr(c, I.dst);
  const uint64_t *A = srcPtr(c, I.a);
  forLanes(c, [&](unsigned l) { D[l] = f(A[l]); });
  return St::Next;
}
#define R2(...) +[](Ctx &c, const Inst &I) -> St { return run2(c, I, [](uint64_t x, uint64_t y) -> uint64_t { __VA_ARGS__ }); }
#define R3(...) +[](Ctx &c, const Inst &I) -> St { return run3(c, I, [](uint64_t x, uint64_t y, uint64_t z) -> uint64_t { __VA_ARGS__ }); }
#define R1(...) +[](Ctx &c, const Inst &I) -> St { return run1(c, I, [](uint64_t x) -> uint64_t { __VA_ARGS__ }); }

} // namespace

namespace ops {

Handler constrainedBin(unsigned Opc, VK K) {
  if (K == VK::F32) {
    switch (Opc) {
    case Instruction::FAdd: return R2(volatile float r = asF32(x) + asF32(y); return fromF32(r););
    case Instruction::FSub: return R2(volatile float r = asF32(x) - asF32(y); return fromF32(r););
    case Instruction::FMul: return R2(volatile float r = asF32(x) * asF32(y); return fromF32(r););
    case Instruction::FDiv: return R2(volatile float r = asF32(x) / asF32(y); return fromF32(r););
    case Instruction::FRem: return R2(return fromF32(std::fmod(asF32(x), asF32(y))););
    }
  } else if (K == VK::F64) {
    switch (Opc) {
    case Instruction::FAdd: return R2(volatile double r = asF64(x) + asF64(y); return fromF64(r););
    case Instruction::FSub: return R2(volatile double r = asF64(x) - asF64(y); return fromF64(r););
    case Instruction::FMul: return R2(volatile double r = asF64(x) * asF64(y); return fromF64(r););
    case Instruction::FDiv: return R2(volatile double r = asF64(x) / asF64(y); return fromF64(r););
    case Instruction::FRem: return R2(return fromF64(std::fmod(asF64(x), asF64(y))););
    }
  } else if (K == VK::F16) {
    // exact in double for add/sub/mul; div rounded to odd is not needed for
    // the 11-bit result because double carries > 2*11+2 bits.
    switch (Opc) {
    case Instruction::FAdd: return R2(volatile double r = double(h2f(x)) + double(h2f(y)); return dToHalfMode(r););
    case Instruction::FSub: return R2(volatile double r = double(h2f(x)) - double(h2f(y)); return dToHalfMode(r););
    case Instruction::FMul: return R2(volatile double r = double(h2f(x)) * double(h2f(y)); return dToHalfMode(r););
    case Instruction::FDiv: {
      return +[](Ctx &c, const Inst &I) -> St {
        uint64_t *D = slotPtr(c, I.dst);
        const uint64_t *A = srcPtr(c, I.a), *B = srcPtr(c, I.b);
        forLanes(c, [&](unsigned l) {
          double q = double(h2f(A[l])) / double(h2f(B[l])); // RNE in double
          RoundGuard G(I.kind);
          volatile double qq = q;
          D[l] = dToHalfMode(qq);
        });
        return St::Next;
      };
    }
    }
  }
  return nullptr;
}

Handler constrainedFma(VK K) {
  if (K == VK::F32) return R3(return fromF32(std::fma(asF32(x), asF32(y), asF32(z))););
  if (K == VK::F64) return R3(return fromF64(std::fma(asF64(x), asF64(y), asF64(z))););
  return nullptr;
}

Handler constrainedUnary(LOp Op, VK K) {
  if (Op == LOp::Sqrt) {
    if (K == VK::F32) return R1(return fromF32(std::sqrt(asF32(x))););
    if (K == VK::F64) return R1(return fromF64(std::sqrt(asF64(x))););
  }
  if (Op == LOp::Rint) {
    if (K == VK::F32) return R1(return fromF32(std::nearbyint(asF32(x))););
    if (K == VK::F64) return R1(return fromF64(std::nearbyint(asF64(x))););
    if (K == VK::F16) return R1(return f2h(std::nearbyint(h2f(x))););
  }
  return nullptr;
}

Handler constrainedCast(unsigned Opc, VK From, VK To) {
  if (Opc == Instruction::FPTrunc) {
    if (From == VK::F64 && To == VK::F32) return R1(volatile float r = float(asF64(x)); return fromF32(r););
    if (From == VK::F64 && To == VK::F16) return R1(return dToHalfMode(asF64(x)););
    if (From == VK::F32 && To == VK::F16) return R1(return dToHalfMode(double(asF32(x))););
    return nullptr;
  }
  bool S = Opc == Instruction::SIToFP;
  unsigned FB = vkBits(From);
  if (FB < 32) {
    // narrow sources: exact in both float and double, so rounding is moot
    if (To == VK::F32)
      return S ? (FB == 16 ? R1(return fromF32(float(int16_t(x)));) : FB == 8 ? R1(return fromF32(float(int8_t(x)));)
                                                                   : R1(return fromF32((x & 1) ? -1.0f : 0.0f);))
               : R1(return fromF32(float(x)););
    if (To == VK::F64)
      return S ? (FB == 16 ? R1(return fromF64(double(int16_t(x)));) : FB == 8 ? R1(return fromF64(double(int8_t(x)));)
                                                                   : R1(return fromF64((x & 1) ? -1.0 : 0.0);))
               : R1(return fromF64(double(x)););
    return nullptr;
  }
  if (To == VK::F32) {
    if (S) return FB == 64 ? R1(volatile float r = float(int64_t(x)); return fromF32(r);)
                           : R1(volatile float r = float(int32_t(uint32_t(x))); return fromF32(r););
    return FB == 64 ? R1(volatile float r = float(x); return fromF32(r);)
                    : R1(volatile float r = float(uint32_t(x)); return fromF32(r););
  }
  if (To == VK::F64) {
    if (S) return FB == 64 ? R1(volatile double r = double(int64_t(x)); return fromF64(r);)
                           : R1(return fromF64(double(int32_t(uint32_t(x)))););
    return FB == 64 ? R1(volatile double r = double(x); return fromF64(r);) : R1(return fromF64(double(uint32_t(x))););
  }
  return nullptr;
}

} // namespace ops
} // namespace emu::detail

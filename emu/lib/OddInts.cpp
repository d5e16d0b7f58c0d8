//===- OddInts.cpp - amdgpu-emu integers of widths other than 1/8/16/32/64 ===//
//
// LLVM's optimiser produces integer types of any width: `bitcast <4 x i1> to
// i4` (+ `icmp ne i4 %m, 0`) for an any-of over four compares (f64 complex
// arithmetic's inf/NaN checks), i24/i48 from merged narrow loads and shifts,
// <3 x i7> from shuffled masks. The emulator keeps such an iN (2 <= N < 64,
// N not a power of two byte width) in its container slot kind (the next of
// i8/i16/i32/i64) in canonical form: zero-extended, bits N..63 clear. The
// operations here take N from Inst::aux and keep that invariant: results are
// masked to N bits, signed operations and signed compares sign-extend their
// operands from bit N-1 first. Everything that only moves slots (phi,
// select, freeze, extract/insertelement, shufflevector) needs nothing, and
// bitcasts go through the bit-exact repack op with the true element widths.
// The translator (Translate.cpp) routes odd-width binary ops, compares,
// integer casts and loads/stores of odd scalars here and rejects the rest
// (vector loads/stores of odd elements, intrinsics other than ctpop/umin/
// umax) at load time.
//
//===----------------------------------------------------------------------===//
#include "Internal.h"
#include "LaneOps.h"

#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instruction.h"

using namespace llvm;

namespace emu::detail {
namespace {

template <class F> St odd2(Ctx &c, const Inst &I, F f) {
  uint64_t *D = slotPtr(c, I.dst);
  const uint64_t *A = srcPtr(c, I.a), *B = srcPtr(c, I.b);
  unsigned N = I.aux;
  forLanes(c, [&](unsigned l) { D[l] = f(A[l], B[l], N); });
  return St::Next;
}
template <class F> St odd1(Ctx &c, const Inst &I, F f) {
  uint64_t *D = slotPtr(c, I.dst);
  const uint64_t *A = srcPtr(c, I.a);
  forLanes(c, [&](unsigned l) { D[l] = f(A[l], I.aux, I.aux2); });
  return St::Next;
}

#define OB(...) +[](Ctx &c, const Inst &I) -> St { \
  return odd2(c, I, [](uint64_t x, uint64_t y, unsigned N) -> uint64_t { __VA_ARGS__ }); }
#define OC(...) +[](Ctx &c, const Inst &I) -> St { \
  return odd2(c, I, [](uint64_t x, uint64_t y, unsigned N) -> uint64_t { return (__VA_ARGS__) ? 1 : 0; }); }
#define OU(...) +[](Ctx &c, const Inst &I) -> St { \
  return odd1(c, I, [](uint64_t x, unsigned F, unsigned T) -> uint64_t { (void)F; (void)T; __VA_ARGS__ }); }

inline uint64_t m(uint64_t v, unsigned N) { return v & widthMask(N); }
inline int64_t s(uint64_t v, unsigned N) { return sextFrom(v, N); }
// Shift amounts >= N give poison in LLVM IR; the result is then 0 (or the sign fill).
inline unsigned amt(uint64_t y, unsigned N) { return y < N ? unsigned(y) : 63u; }

} // namespace

namespace ops {

Handler binOdd(unsigned Opc) {
  switch (Opc) {
  case Instruction::Add: return OB(return m(x + y, N););
  case Instruction::Sub: return OB(return m(x - y, N););
  case Instruction::Mul: return OB(return m(x * y, N););
  case Instruction::And: return OB(return x & y;);
  case Instruction::Or: return OB(return x | y;);
  case Instruction::Xor: return OB(return x ^ y;);
  case Instruction::Shl: return OB(return y < N ? m(x << y, N) : 0;);
  case Instruction::LShr: return OB(return y < N ? x >> y : 0;);
  case Instruction::AShr: return OB(return m(uint64_t(s(x, N) >> amt(y, N)), N););
  // Division by zero is undefined behaviour; all ones / the dividend, as the 64-bit ops do.
  case Instruction::UDiv: return OB(return y == 0 ? widthMask(N) : x / y;);
  case Instruction::URem: return OB(return y == 0 ? x : x % y;);
  case Instruction::SDiv:
    return OB(int64_t a = s(x, N), b = s(y, N); if (b == 0) return widthMask(N);
              if (b == -1) return m(uint64_t(0) - uint64_t(a), N); return m(uint64_t(a / b), N););
  case Instruction::SRem:
    return OB(int64_t a = s(x, N), b = s(y, N); if (b == 0) return x; if (b == -1) return 0;
              return m(uint64_t(a % b), N););
  }
  return nullptr;
}

Handler icmpOdd(unsigned P) {
  switch (P) {
  case CmpInst::ICMP_EQ: return OC(x == y);
  case CmpInst::ICMP_NE: return OC(x != y);
  case CmpInst::ICMP_UGT: return OC(x > y);
  case CmpInst::ICMP_UGE: return OC(x >= y);
  case CmpInst::ICMP_ULT: return OC(x < y);
  case CmpInst::ICMP_ULE: return OC(x <= y);
  case CmpInst::ICMP_SGT: return OC(s(x, N) > s(y, N));
  case CmpInst::ICMP_SGE: return OC(s(x, N) >= s(y, N));
  case CmpInst::ICMP_SLT: return OC(s(x, N) < s(y, N));
  case CmpInst::ICMP_SLE: return OC(s(x, N) <= s(y, N));
  }
  return nullptr;
}

// aux = source bits F, aux2 = destination bits T (1..64).
Handler zextOrTruncOdd() { return OU(return x & widthMask(T < F ? T : F);); }
Handler sextOdd() { return OU(return uint64_t(sextFrom(x, F)) & widthMask(T);); }

} // namespace ops
} // namespace emu::detail

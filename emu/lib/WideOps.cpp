//===- WideOps.cpp - amdgpu-emu 128-bit integer operations ----------------===//
//
// LLVM's optimiser widens 64-bit high-half multiplies (PTX mul.hi/mad.hi of
// 64-bit operands) into `mul i128` followed by lshr/trunc, so the emulator
// needs i128 arithmetic. An i128 value occupies two consecutive register
// slots (low 64 bits, then high 64 bits), which is also its little-endian
// memory layout, so loads, stores, phis, selects and bitcasts to <2 x i64> /
// <4 x i32> reuse the per-leaf machinery. This file holds the operations
// that need both halves at once: binary arithmetic/logic/shift/division and
// comparisons, computed with the host's unsigned __int128. The translator
// places both halves of each operand in consecutive slots (constants are
// materialised) and rejects every other i128 operation at load time.
//
//===----------------------------------------------------------------------===//
#include "Internal.h"

#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instruction.h"

using namespace llvm;

namespace emu::detail {
namespace {
using U128 = unsigned __int128;
using S128 = __int128;

inline U128 get(const Ctx &c, int32_t Slot, unsigned Lane) {
  return U128(srcPtr(c, Slot)[Lane]) | (U128(srcPtr(c, Slot + 1)[Lane]) << 64);
}

template <class F> St wideBin(Ctx &c, const Inst &I, F f) {
  uint64_t *Lo = slotPtr(c, I.dst), *Hi = slotPtr(c, I.dst + 1);
  forLanes(c, [&](unsigned l) {
    U128 R = f(get(c, I.a, l), get(c, I.b, l));
    Lo[l] = uint64_t(R);
    Hi[l] = uint64_t(R >> 64);
  });
  return St::Next;
}
template <class F> St wideCmp(Ctx &c, const Inst &I, F f) {
  uint64_t *D = slotPtr(c, I.dst);
  forLanes(c, [&](unsigned l) { D[l] = f(get(c, I.a, l), get(c, I.b, l)) ? 1 : 0; });
  return St::Next;
}

#define WB(...) +[](Ctx &c, const Inst &I) -> St { return wideBin(c, I, [](U128 x, U128 y) -> U128 { __VA_ARGS__ }); }
#define WC(...) +[](Ctx &c, const Inst &I) -> St { return wideCmp(c, I, [](U128 x, U128 y) -> bool { __VA_ARGS__ }); }

// Division by zero is undefined behaviour in LLVM IR; the results below
// match the 64-bit ops of Ops.cpp (all ones / dividend) instead of trapping.
inline U128 sdiv(U128 x, U128 y) {
  S128 a = S128(x), b = S128(y);
  if (b == 0) return ~U128(0);
  if (b == -1) return U128(0) - x;
  return U128(a / b);
}
inline U128 srem(U128 x, U128 y) {
  S128 a = S128(x), b = S128(y);
  if (b == 0) return x;
  if (b == -1) return 0;
  return U128(a % b);
}
} // namespace

namespace ops {
Handler binWide(unsigned Opc) {
  switch (Opc) {
  case Instruction::Add: return WB(return x + y;);
  case Instruction::Sub: return WB(return x - y;);
  case Instruction::Mul: return WB(return x * y;);
  case Instruction::And: return WB(return x & y;);
  case Instruction::Or: return WB(return x | y;);
  case Instruction::Xor: return WB(return x ^ y;);
  // shift amounts >= 128 give poison in LLVM IR; the amount is taken mod 128
  case Instruction::Shl: return WB(return x << unsigned(y & 127););
  case Instruction::LShr: return WB(return x >> unsigned(y & 127););
  case Instruction::AShr: return WB(return U128(S128(x) >> unsigned(y & 127)););
  case Instruction::UDiv: return WB(return y == 0 ? ~U128(0) : x / y;);
  case Instruction::URem: return WB(return y == 0 ? x : x % y;);
  case Instruction::SDiv: return WB(return sdiv(x, y););
  case Instruction::SRem: return WB(return srem(x, y););
  }
  return nullptr;
}

Handler icmpWide(unsigned P) {
  switch (P) {
  case CmpInst::ICMP_EQ: return WC(return x == y;);
  case CmpInst::ICMP_NE: return WC(return x != y;);
  case CmpInst::ICMP_UGT: return WC(return x > y;);
  case CmpInst::ICMP_UGE: return WC(return x >= y;);
  case CmpInst::ICMP_ULT: return WC(return x < y;);
  case CmpInst::ICMP_ULE: return WC(return x <= y;);
  case CmpInst::ICMP_SGT: return WC(return S128(x) > S128(y););
  case CmpInst::ICMP_SGE: return WC(return S128(x) >= S128(y););
  case CmpInst::ICMP_SLT: return WC(return S128(x) < S128(y););
  case CmpInst::ICMP_SLE: return WC(return S128(x) <= S128(y););
  }
  return nullptr;
}
} // namespace ops
} // namespace emu::detail

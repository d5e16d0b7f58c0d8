//===- DirectedRounding.cpp - .rz/.rm/.rp through the MODE register -------===//
//
// ptx-to-llvm expresses PTX's directed rounding of the single-rounding
// operations (f32/f64 add, sub, mul, fma; cvt f64 -> f32 and 32-bit integer
// -> f32) as constrained FP intrinsics with a static rounding mode, which the
// optimiser keeps and emu executes exactly. The AMDGPU backend treats that
// rounding argument as an assumption about the dynamic mode, not a request,
// so right before instruction selection each one becomes an inline-asm
// island:
//
//   s_round_mode <m>                       (gfx10+; gfx9: s_setreg_imm32_b32
//   v_<op> $0, $1, ...                      hwreg(HW_REG_MODE, 0, 4), <m>)
//   s_round_mode 0
//
// MODE[1:0] rounds f32, MODE[3:2] f64/f16 (0 nearest-even, 1 +inf, 2 -inf,
// 3 toward zero); both fields get the direction, so the island does not
// depend on which field an instruction reads. Kernels start with both
// fields 0 (kernel descriptor FLOAT_ROUND_MODE_*), and nothing else changes
// them, so restoring 0 restores the caller's mode. The island is one
// machine instruction to the scheduler: no other FP operation can move into
// the switched region. Operands are VGPRs ("v"), which every encoding of
// these instructions accepts. Denormal bits (MODE[7:4]) are not touched.
// gfx9 needs two wait states between two s_setreg of MODE (LLVM's hazard
// recognizer puts `s_nop 0` after the one VALU in its own llvm.set.rounding
// lowering, and it does not look inside inline asm), so the gfx9 island is
//   s_nop 1; s_setreg m; v_op; s_nop 0; s_setreg 0; s_nop 1
// which is safe next to any other setreg of MODE, ours or the backend's.
// In a kernel where the islands are the only MODE accesses (no calls, no
// other inline asm, no fdiv/frem -- whose gfx9 lowering may switch the
// denormal bits with s_setreg -- and no rounding or s_setreg/s_getreg
// intrinsics) the padding is needed only between two islands, so
// (mode-exclusive islands):
//  * no island starts with `s_nop 1`: the kernel starts with no MODE write
//    before it, and every island before it in any execution ends with its
//    own `s_nop 1` or is proven far enough away (next point);
//  * an island X ends without `s_nop 1` when every island that can execute
//    after it is at least two instructions later by data dependence: X's
//    block is in no cycle (so X and each later island run at most once per
//    wave), no island is in a block reachable from X's block, and every
//    later island of X's block depends on X's result through a phi-free chain
//    in that block weighing at least 4 f32/f64 arithmetic operations (fadd,
//    fsub, fmul, fma, fmuladd, exp2/log2/sqrt, another island): at worst two
//    fuse into one VALU instruction (fmul + fadd -> fma), so at least two
//    instructions, two wait states, issue between the two s_setreg. A
//    kernel's last island (nvcc's expf range reduction in exp_log: two per
//    kernel) thus loses both nops.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"
#include "support/Contract.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"

#include <optional>
#include <string>

using namespace llvm;

namespace amdgpulower {
namespace {

// The instruction template of a constrained operation, or nullopt.
std::optional<std::string> islandOp(const ConstrainedFPIntrinsic &c) {
  Type *t = c.getType();
  bool f32 = t->isFloatTy(), f64 = t->isDoubleTy();
  Type *src = c.getArgOperand(0)->getType();
  switch (c.getIntrinsicID()) {
  case Intrinsic::experimental_constrained_fadd:
    if (f32) return "v_add_f32 $0, $1, $2";
    if (f64) return "v_add_f64 $0, $1, $2";
    break;
  case Intrinsic::experimental_constrained_fsub:
    if (f32) return "v_sub_f32 $0, $1, $2";
    if (f64) return "v_add_f64 $0, $1, -$2";
    break;
  case Intrinsic::experimental_constrained_fmul:
    if (f32) return "v_mul_f32 $0, $1, $2";
    if (f64) return "v_mul_f64 $0, $1, $2";
    break;
  case Intrinsic::experimental_constrained_fma:
    if (f32) return "v_fma_f32 $0, $1, $2, $3";
    if (f64) return "v_fma_f64 $0, $1, $2, $3";
    break;
  case Intrinsic::experimental_constrained_fptrunc:
    if (f32 && src->isDoubleTy()) return "v_cvt_f32_f64 $0, $1";
    break;
  case Intrinsic::experimental_constrained_sitofp:
    if (f32 && src->isIntegerTy(32)) return "v_cvt_f32_i32 $0, $1";
    break;
  case Intrinsic::experimental_constrained_uitofp:
    if (f32 && src->isIntegerTy(32)) return "v_cvt_f32_u32 $0, $1";
    break;
  default: break;
  }
  return std::nullopt;
}

// MODE round-field value of a directed rounding, or 0.
unsigned modeField(RoundingMode rm) {
  switch (rm) {
  case RoundingMode::TowardPositive: return 1;
  case RoundingMode::TowardNegative: return 2;
  case RoundingMode::TowardZero: return 3;
  default: return 0;
  }
}

std::string setRound(bool gfx10Plus, unsigned field) {
  unsigned v = field | field << 2;
  return gfx10Plus ? "s_round_mode " + std::to_string(v)
                   : "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), " + std::to_string(v);
}

// True when nothing in F but the islands can read or write MODE (see the
// header): F is a kernel without calls of non-intrinsic functions, without
// inline asm, fdiv/frem, and without rounding-mode or hardware-register
// intrinsics.
bool modeExclusive(const Function &f) {
  if (f.getCallingConv() != CallingConv::AMDGPU_KERNEL) return false;
  for (const Instruction &i : instructions(f)) {
    if (i.getOpcode() == Instruction::FDiv || i.getOpcode() == Instruction::FRem) return false;
    const auto *call = dyn_cast<CallBase>(&i);
    if (!call) continue;
    if (call->isInlineAsm()) return false;
    const Function *callee = call->getCalledFunction();
    if (!callee || !callee->isIntrinsic()) return false;
    switch (callee->getIntrinsicID()) {
    case Intrinsic::set_rounding:
    case Intrinsic::get_rounding:
    case Intrinsic::amdgcn_s_setreg:
    case Intrinsic::amdgcn_s_getreg:
      return false;
    default:
      break;
    }
  }
  return true;
}

// The weight of one instruction on a dependence chain between two islands:
// f32/f64 arithmetic that becomes at least half a VALU instruction (two of
// them fuse at most into one), another island, or 0.
unsigned chainWeight(const Instruction &i, const SmallPtrSetImpl<const Instruction *> &islands) {
  if (islands.count(&i)) return 2;
  Type *t = i.getType()->getScalarType();
  if (!t->isFloatTy() && !t->isDoubleTy()) return 0;
  switch (i.getOpcode()) {
  case Instruction::FAdd:
  case Instruction::FSub:
  case Instruction::FMul:
    return 1;
  default:
    break;
  }
  if (const auto *c = dyn_cast<IntrinsicInst>(&i)) switch (c->getIntrinsicID()) {
    case Intrinsic::fma:
    case Intrinsic::fmuladd:
    case Intrinsic::exp2:
    case Intrinsic::log2:
    case Intrinsic::sqrt:
      return 1;
    default:
      break;
    }
  return 0;
}

// Whether island X of a mode-exclusive function can end without `s_nop 1`.
bool tailPaddingProvablyUnneeded(const Instruction *x, const SmallPtrSetImpl<const Instruction *> &islands) {
  const BasicBlock *bb = x->getParent();
  SmallPtrSet<const BasicBlock *, 32> seen;
  SmallVector<const BasicBlock *, 32> todo(succ_begin(bb), succ_end(bb));
  while (!todo.empty()) {
    const BasicBlock *b = todo.pop_back_val();
    if (!seen.insert(b).second) continue;
    if (b == bb) return false; // X's block is in a cycle
    for (const Instruction &i : *b)
      if (islands.count(&i)) return false;
    todo.append(succ_begin(b), succ_end(b));
  }
  // One forward pass over the rest of X's block (no phi can follow X): the
  // heaviest def-use chain from X to each value that depends on X; every
  // later island needs one of weight >= 4 to its operands.
  DenseMap<const Instruction *, int> best;
  best[x] = 0;
  for (auto it = std::next(x->getIterator()); it != bb->end(); ++it) {
    int b = -1;
    for (const Value *op : it->operands())
      if (const auto *d = dyn_cast<Instruction>(op))
        if (auto f = best.find(d); f != best.end()) b = std::max(b, f->second);
    if (islands.count(&*it) && b < 4) return false;
    if (b >= 0) best[&*it] = b + int(chainWeight(*it, islands));
  }
  return true;
}

} // namespace

Error lowerDirectedRounding(Module &m, StringRef cpu) {
  // gfx10, gfx11, gfx12 and their generic targets have s_round_mode; gfx9
  // and older write the MODE bits with s_setreg.
  bool gfx10Plus = ::support::gfxMajorOf(cpu) >= 10;
  SmallVector<ConstrainedFPIntrinsic *, 16> work;
  for (Function &f : m)
    for (Instruction &i : instructions(f))
      if (auto *c = dyn_cast<ConstrainedFPIntrinsic>(&i)) {
        std::optional<RoundingMode> rm = c->getRoundingMode();
        if (rm && *rm != RoundingMode::NearestTiesToEven && *rm != RoundingMode::Dynamic) work.push_back(c);
      }
  // Which functions' islands are the only MODE accesses (gfx9 padding).
  DenseMap<const Function *, bool> exclusive;
  if (!gfx10Plus)
    for (ConstrainedFPIntrinsic *c : work) exclusive.try_emplace(c->getFunction(), modeExclusive(*c->getFunction()));
  // The islands of each function, as the constrained calls they replace (the
  // chains are measured on those: an island has the same operands and users).
  SmallPtrSet<const Instruction *, 16> islands(work.begin(), work.end());
  SmallPtrSet<const Instruction *, 16> bareTail;
  for (ConstrainedFPIntrinsic *c : work)
    if (!gfx10Plus && exclusive.lookup(c->getFunction()) && tailPaddingProvablyUnneeded(c, islands)) bareTail.insert(c);
  for (ConstrainedFPIntrinsic *c : work) {
    RoundingMode rm = *c->getRoundingMode();
    std::optional<std::string> op = islandOp(*c);
    unsigned field = modeField(rm);
    if (!op || !field)
      return ::support::internalError(::support::noLocf(
          "no MODE-register lowering for %s with rounding %s on %s (in function '%s')",
          Intrinsic::getBaseName(c->getIntrinsicID()).str().c_str(),
          convertRoundingModeToStr(rm).value_or("?").str().c_str(), cpu.str().c_str(),
          c->getFunction()->getName().str().c_str()));
    unsigned n = c->getNonMetadataArgCount();
    SmallVector<Value *, 3> args;
    SmallVector<Type *, 3> types;
    std::string constraints = "=v";
    for (unsigned k = 0; k < n; ++k) {
      args.push_back(c->getArgOperand(k));
      types.push_back(c->getArgOperand(k)->getType());
      constraints += ",v";
    }
    std::string text;
    if (gfx10Plus) {
      text = setRound(true, field) + "\n\t" + *op + "\n\t" + setRound(true, 0);
    } else {
      bool lead = !exclusive.lookup(c->getFunction()), tail = !bareTail.count(c);
      text = std::string(lead ? "s_nop 1\n\t" : "") + setRound(false, field) + "\n\t" + *op + "\n\ts_nop 0\n\t" +
             setRound(false, 0) + (tail ? "\n\ts_nop 1" : "");
    }
    auto *ia = InlineAsm::get(FunctionType::get(c->getType(), types, false), text, constraints,
                              /*hasSideEffects=*/false);
    CallInst *island = CallInst::Create(ia, args, "", c->getIterator());
    island->takeName(c);
    c->replaceAllUsesWith(island);
    c->eraseFromParent();
  }
  return Error::success();
}

} // namespace amdgpulower

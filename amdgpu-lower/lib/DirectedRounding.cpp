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
//
//===----------------------------------------------------------------------===//
#include "Passes.h"
#include "support/Contract.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

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
    std::string text = gfx10Plus ? setRound(true, field) + "\n\t" + *op + "\n\t" + setRound(true, 0)
                                 : "s_nop 1\n\t" + setRound(false, field) + "\n\t" + *op + "\n\ts_nop 0\n\t" +
                                       setRound(false, 0) + "\n\ts_nop 1";
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

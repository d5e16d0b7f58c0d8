//===- FoldNaNFreeChecks.cpp - NaN tests of values that cannot be NaN -------===//
//
// The canonical-NaN select ptx-to-llvm puts after an f32 operation whose
// result bits can escape (select(fcmp uno r, r), 0x7fffffff, r), kept by
// RelaxNaNCanonicalization.cpp) is dead when r can never be NaN. LLVM's
// InstSimplify folds the `fcmp uno` itself when ValueTracking proves that,
// but it knows nothing about the constrained FP intrinsics that carry PTX's
// directed rounding (`fma.rm` in nvcc's expf: fma.rm(sat(x), 252, 0x1.8p23)),
// so their canonical-NaN selects survive the optimiser although the operands
// are finite constants and a value clamped to [0, 1].
//
// Right before instruction selection (before DirectedRounding.cpp turns the
// constrained calls into inline asm, whose results are opaque), this step
// replaces `fcmp uno a, b` by false and `fcmp ord a, b` by true when neither
// operand can be NaN: by ValueTracking (computeKnownFPClass), or because it is
// a constrained fadd/fsub/fmul/fma (any rounding) whose operands are all
// neither NaN nor infinite -- IEEE 754 gives NaN only for a NaN operand,
// inf - inf, 0 * inf and the fma's inf + -inf, and rounding direction does not
// change that. The selects the compares guard then fold in the backend. The
// result is the same for every input, so every -O level may run it.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/Analysis/SimplifyQuery.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/KnownFPClass.h"

using namespace llvm;

namespace amdgpulower {
namespace {

bool finite(const Value *v, const SimplifyQuery &q) {
  KnownFPClass k = computeKnownFPClass(v, fcAllFlags, q);
  return k.isKnownNeverNaN() && k.isKnownNeverInfinity();
}

bool neverNaN(const Value *v, const SimplifyQuery &q) {
  if (const auto *c = dyn_cast<ConstrainedFPIntrinsic>(v)) {
    switch (c->getIntrinsicID()) {
    case Intrinsic::experimental_constrained_fadd:
    case Intrinsic::experimental_constrained_fsub:
    case Intrinsic::experimental_constrained_fmul:
    case Intrinsic::experimental_constrained_fma:
      for (unsigned i = 0, n = c->getNonMetadataArgCount(); i < n; ++i)
        if (!finite(c->getArgOperand(i), q)) return false;
      return true;
    default:
      return false;
    }
  }
  return computeKnownFPClass(v, fcNan, q).isKnownNeverNaN();
}

} // namespace

bool foldNaNFreeChecks(Function &f) {
  const DataLayout &dl = f.getDataLayout();
  SmallVector<FCmpInst *, 16> folds;
  for (Instruction &i : instructions(f)) {
    auto *c = dyn_cast<FCmpInst>(&i);
    if (!c || (c->getPredicate() != FCmpInst::FCMP_UNO && c->getPredicate() != FCmpInst::FCMP_ORD)) continue;
    SimplifyQuery q(dl, c);
    if (neverNaN(c->getOperand(0), q) && neverNaN(c->getOperand(1), q)) folds.push_back(c);
  }
  for (FCmpInst *c : folds) {
    // getBool splats for a vector compare.
    Constant *k = ConstantInt::getBool(c->getType(), c->getPredicate() == FCmpInst::FCMP_ORD);
    c->replaceAllUsesWith(k);
    c->eraseFromParent();
  }
  return !folds.empty();
}

void foldNaNFreeChecks(Module &m) {
  for (Function &f : m)
    if (!f.isDeclaration()) foldNaNFreeChecks(f);
}

PreservedAnalyses FoldNaNFreeChecksPass::run(Function &f, FunctionAnalysisManager &) {
  return foldNaNFreeChecks(f) ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace amdgpulower

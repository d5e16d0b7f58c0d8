//===- SelectMinMax.cpp - Compare-selects against a constant -> minnum/maxnum ===//
//
// ptx-to-llvm writes PTX's saturation (cvt.sat.f32.f32, .sat on arithmetic)
// as two compare-selects, the lower clamp select(x > 0, x, 0) -- which maps NaN
// to +0 as PTX requires -- and then the upper clamp select(lo > 1, 1, lo). The
// backend turns the first into v_max_f32 but keeps the second as v_cmp +
// v_cndmask, because for a possibly-NaN operand the select is not a min. Right
// before instruction selection (Codegen.cpp, after FoldNaNFreeChecks.cpp and
// before the directed-rounding islands hide their operands) this step rewrites
//   select(fcmp ogt|ugt|oge|uge a, K), K, a)  and  select(fcmp olt|ult|ole|ule a, K), a, K)
// to minnum(a, K), and the mirrored forms to maxnum(a, K), when
//   * a can never be NaN (ValueTracking: computeKnownFPClass), so ordered and
//     unordered predicates agree and no NaN/sNaN reaches the min;
//   * K is a constant that is neither NaN nor zero: then the two values are
//     equal only when they have the same bits (only +0/-0 are equal with
//     different bits), so whichever arm the select takes on a tie, min/max
//     give the same bits, and otherwise both give the smaller (larger) value;
//   * the function keeps f32 denormals of its inputs (denormal mode "ieee"):
//     a select only moves bits, while v_min/v_max flush denormal inputs when
//     the mode flushes them;
//   * the type is f32. For f16 the backend folds the resulting min into the
//     clamp bit of the producing VOP3 (v_trunc_f16 ... clamp), which isa-emu
//     does not apply (golden half/*.sat and cvt*.sat.f16 forms fail there, the
//     f32 forms pass); until that is settled on hardware f16/f64 stay selects.
// The result is bit-identical to the select for every input, so every -O
// level may run it; emu never sees it (it runs the --emit=llvm module).
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/Analysis/SimplifyQuery.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/KnownFPClass.h"

using namespace llvm;

namespace amdgpulower {
namespace {

// K: a scalar FP constant that is neither NaN nor +-0.
bool usableBound(const Value *v) {
  auto *c = dyn_cast<ConstantFP>(v);
  return c && !c->isNaN() && !c->isZero();
}

// The min/max the select computes, or not_intrinsic.
Intrinsic::ID minMaxOf(SelectInst &s, Value *&a, Value *&k) {
  auto *cmp = dyn_cast<FCmpInst>(s.getCondition());
  if (!cmp || !cmp->getType()->isIntegerTy(1)) return Intrinsic::not_intrinsic;
  Value *x = cmp->getOperand(0), *y = cmp->getOperand(1);
  CmpInst::Predicate p = cmp->getPredicate();
  // Normalise to "x P K" with the constant on the right.
  if (usableBound(x) && !usableBound(y)) {
    std::swap(x, y);
    p = CmpInst::getSwappedPredicate(p);
  }
  if (!usableBound(y)) return Intrinsic::not_intrinsic;
  bool greater, lessOrGreater = true;
  switch (p) {
  case FCmpInst::FCMP_OGT: case FCmpInst::FCMP_UGT: case FCmpInst::FCMP_OGE: case FCmpInst::FCMP_UGE:
    greater = true; break;
  case FCmpInst::FCMP_OLT: case FCmpInst::FCMP_ULT: case FCmpInst::FCMP_OLE: case FCmpInst::FCMP_ULE:
    greater = false; break;
  default: lessOrGreater = false; greater = false; break;
  }
  if (!lessOrGreater) return Intrinsic::not_intrinsic;
  Value *t = s.getTrueValue(), *f = s.getFalseValue();
  // x > K ? K : x  = min;   x > K ? x : K  = max;  (mirrored for <)
  if (t == y && f == x) { a = x; k = y; return greater ? Intrinsic::minnum : Intrinsic::maxnum; }
  if (t == x && f == y) { a = x; k = y; return greater ? Intrinsic::maxnum : Intrinsic::minnum; }
  return Intrinsic::not_intrinsic;
}

bool keepsDenormals(const Function &f, Type *ty) {
  DenormalMode m = f.getDenormalMode(ty->getFltSemantics());
  return m.Input == DenormalMode::IEEE && m.Output == DenormalMode::IEEE;
}

} // namespace

bool selectMinMax(Function &f) {
  const DataLayout &dl = f.getDataLayout();
  SmallVector<SelectInst *, 8> rewrites;
  for (Instruction &i : instructions(f)) {
    auto *s = dyn_cast<SelectInst>(&i);
    if (!s || !s->getType()->isFloatTy()) continue;
    Value *a = nullptr, *k = nullptr;
    Intrinsic::ID id = minMaxOf(*s, a, k);
    if (id == Intrinsic::not_intrinsic || !keepsDenormals(f, s->getType())) continue;
    if (!computeKnownFPClass(a, fcNan, SimplifyQuery(dl, s)).isKnownNeverNaN()) continue;
    rewrites.push_back(s);
  }
  // Matched again at rewrite time: an earlier rewrite may have replaced this
  // select's operand `a` (a clamp of a clamp) -- in the compare and the arm alike.
  for (SelectInst *s : rewrites) {
    Value *a = nullptr, *k = nullptr;
    Intrinsic::ID id = minMaxOf(*s, a, k);
    if (id == Intrinsic::not_intrinsic) continue;
    IRBuilder<> b(s);
    Value *mm = b.CreateBinaryIntrinsic(id, a, k, nullptr, s->getName());
    auto *cmp = cast<Instruction>(s->getCondition());
    s->replaceAllUsesWith(mm);
    s->eraseFromParent();
    if (cmp->use_empty()) cmp->eraseFromParent();
  }
  return !rewrites.empty();
}

void selectMinMax(Module &m) {
  for (Function &f : m)
    if (!f.isDeclaration()) selectMinMax(f);
}

PreservedAnalyses SelectMinMaxPass::run(Function &f, FunctionAnalysisManager &) {
  return selectMinMax(f) ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace amdgpulower

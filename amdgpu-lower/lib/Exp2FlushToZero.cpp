//===- Exp2FlushToZero.cpp - ex2.approx.ftz.f32 as one v_exp_f32 ------------===//
//
// ptx-to-llvm translates `ex2.approx.ftz.f32 d, a` as
//
//   d = ftz(llvm.exp2.f32 afn (ftz(a)))     ftz(v) = |v| < 2^-126 ? copysign(0, v) : v
//
// which emu runs as written. The AMDGPU backend lowers an f32 exp2 in a
// function with IEEE denormals to v_exp_f32 plus a range scaling (compare
// against -126, add 64, v_exp_f32, v_ldexp by -64: five instructions) whose
// only purpose is a subnormal result -- which the ftz on the result then
// flushes anyway. Right before instruction selection this step rewrites each
// such exp2, whose every use is a flush of its result, to
//
//   r = llvm.amdgcn.exp2(a)                 (v_exp_f32 itself)
//   d = r < 2^-126 ? +0 : r
//
// * the input flush goes when its only use is this exp2: 2^x for |x| <
//   2^-126 is 1.0 either way (within the approximation's bound; ±0, ±inf and
//   NaN inputs are not touched by it);
// * a subnormal v_exp_f32 result (or a flushed one) becomes +0 by the
//   remaining compare, as the PTX ftz requires; the result of exp2 is never
//   negative (exp2(-inf) = +0), so copysign(0, r) is +0 and |r| is r; a NaN
//   compares false and passes unchanged, as before.
// exp2 without a flush on every use (ex2.approx.f32 keeps subnormal results)
// is left to the backend's scaled lowering.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace amdgpulower {
namespace {

bool isSmallestNormal(const Value *v) {
  const auto *c = dyn_cast<ConstantFP>(v);
  return c && c->getType()->isFloatTy() && c->getValueAPF().isSmallestNormalized() && !c->isNegative();
}

// y when `v` is ptx-to-llvm's flush of y: select(|y| < 2^-126, copysign(0, y) or +-0, y).
Value *flushedSource(Value *v) {
  Value *c, *z, *y, *a;
  if (!match(v, m_Select(m_Value(c), m_Value(z), m_Value(y)))) return nullptr;
  CmpPredicate p;
  Value *k;
  if (!match(c, m_FCmp(p, m_Value(a), m_Value(k))) || p != FCmpInst::FCMP_OLT || !isSmallestNormal(k) ||
      !match(a, m_FAbs(m_Specific(y))))
    return nullptr;
  if (!match(z, m_AnyZeroFP()) && !match(z, m_CopySign(m_AnyZeroFP(), m_Specific(y)))) return nullptr;
  return y;
}

// True when every use of r belongs to a flush of r: the flush selects
// themselves, and the fabs/compare/copysign values only they read.
bool onlyFlushed(Value *r, SmallVectorImpl<SelectInst *> &flushes) {
  SmallPtrSet<Value *, 8> parts;
  for (User *u : r->users()) {
    if (auto *s = dyn_cast<SelectInst>(u); s && flushedSource(s) == r) {
      flushes.push_back(s);
      parts.insert(s->getCondition());
      parts.insert(cast<Instruction>(s->getCondition())->getOperand(0));
      parts.insert(s->getTrueValue());
    }
  }
  if (flushes.empty()) return false;
  for (User *u : r->users()) {
    if (is_contained(flushes, u)) continue;
    if (!parts.contains(u)) return false;
    // A fabs or copysign of r: all of its users must be flush parts too.
    for (User *uu : u->users())
      if (!parts.contains(uu) && !is_contained(flushes, uu)) return false;
  }
  for (Value *p : parts)
    if (auto *ci = dyn_cast<FCmpInst>(p))
      for (User *uu : ci->users())
        if (!is_contained(flushes, uu)) return false;
  return true;
}

} // namespace

bool lowerFlushedExp2(Function &f) {
  SmallVector<IntrinsicInst *, 8> calls;
  for (Instruction &i : instructions(f))
    if (auto *ii = dyn_cast<IntrinsicInst>(&i))
      if (ii->getIntrinsicID() == Intrinsic::exp2 && ii->getType()->isFloatTy() && ii->hasApproxFunc())
        calls.push_back(ii);
  bool changed = false;
  for (IntrinsicInst *e : calls) {
    SmallVector<SelectInst *, 2> flushes;
    if (!onlyFlushed(e, flushes)) continue;
    IRBuilder<> b(e);
    Value *x = e->getArgOperand(0);
    if (Value *y = flushedSource(x); y && x->hasOneUse()) x = y;
    Value *r = b.CreateIntrinsic(Intrinsic::amdgcn_exp2, {b.getFloatTy()}, {x});
    Constant *tiny = ConstantFP::get(b.getFloatTy(), APFloat::getSmallestNormalized(APFloat::IEEEsingle()));
    for (SelectInst *s : flushes) {
      b.SetInsertPoint(s);
      s->replaceAllUsesWith(b.CreateSelect(b.CreateFCmpOLT(r, tiny), ConstantFP::get(b.getFloatTy(), 0.0), r));
    }
    SmallVector<WeakTrackingVH, 4> dead(flushes.begin(), flushes.end());
    dead.push_back(e);
    RecursivelyDeleteTriviallyDeadInstructionsPermissive(dead);
    changed = true;
  }
  return changed;
}

void lowerFlushedExp2(Module &m) {
  for (Function &f : m)
    if (!f.isDeclaration()) lowerFlushedExp2(f);
}

PreservedAnalyses Exp2FlushToZeroPass::run(Function &f, FunctionAnalysisManager &) {
  return lowerFlushedExp2(f) ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace amdgpulower

//===- RelaxNaNCanonicalization.cpp - Canonical NaN only where bits show ---===//
//
// NVIDIA's f32/f16/bf16 arithmetic returns one canonical NaN (0x7fffffff /
// 0x7fff); AMD arithmetic returns a quiet NaN too, but with the payload of an
// input or 0x7fc00000. ptx-to-llvm (FnCtx::canonicalNaN) therefore ends every
// such result with `select (fcmp uno r, r), NaN, r`, tagged !ptx2amd.canon
// (docs/pipeline.md). PTX registers are allocas in the translator's output,
// so this runs at the start of the optimisation pipeline, right after an
// SROA and before any InstCombine (Optimize.cpp). Most of those
// results only feed more arithmetic or comparisons, where the payload cannot
// be seen: NaN-ness itself is the same on both sides, only the bits differ.
// This pass removes a tagged select when its result is "payload-dead":
// every use, followed through the operations that pass a NaN on (FP
// arithmetic and FP intrinsics, fneg/fabs, fpext/fptrunc, select values,
// phis, and the bit-preserving bitcast / vector element moves), ends in
//   * an fcmp (depends on NaN-ness only),
//   * another tagged canonicalising select (which fixes the bits again), or
//   * fptosi/fptoui (.sat or not: the result for NaN does not depend on it).
// Anything else is a point where bits escape and keeps the select: stores,
// atomics, integer operations on the bits (after a mov.b32 bitcast), calls
// (devlib shuffles, .func arguments), returns, inline asm, ... Cycles through phis
// are resolved optimistically (greatest fixed point), which is sound because
// every path must still end at one of the sinks above. The tags are dropped
// afterwards. Golden tables (tests/golden, bit-exact vs the H200) keep
// passing because every stored or moved value is still canonical. A tagged
// select is only trusted when it still has the canonicalising shape
// (optimisations may have rewritten it); stripNaNCanonicalTags() removes the
// tags after the pipeline at every -O level.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/PatternMatch.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"

using namespace llvm;

namespace amdgpulower {

static constexpr const char *kCanonTag = "ptx2amd.canon";

namespace {

// The canonical NaN of a scalar f16/bf16/f32 type: all exponent and mantissa bits.
bool isCanonicalNaN(const Value *v) {
  auto *c = dyn_cast<ConstantFP>(v);
  if (!c || !c->isNaN()) return false;
  APInt bits = c->getValueAPF().bitcastToAPInt();
  return bits == APInt::getAllOnes(bits.getBitWidth()).lshr(1);
}

// X when `i` is a tagged select(fcmp uno X, X|0), NaN, X (or the ord form
// with the arms swapped), else null.
Value *canonicalizedValue(const Instruction &i) {
  using namespace PatternMatch;
  auto *sel = dyn_cast<SelectInst>(&i);
  if (!sel || !sel->getMetadata(kCanonTag)) return nullptr;
  auto *cmp = dyn_cast<FCmpInst>(sel->getCondition());
  if (!cmp) return nullptr;
  Value *x = cmp->getOperand(0), *y = cmp->getOperand(1);
  if (y != x && !match(y, m_AnyZeroFP())) return nullptr;
  if (cmp->getPredicate() == FCmpInst::FCMP_UNO && isCanonicalNaN(sel->getTrueValue()) &&
      sel->getFalseValue() == x)
    return x;
  if (cmp->getPredicate() == FCmpInst::FCMP_ORD && isCanonicalNaN(sel->getFalseValue()) &&
      sel->getTrueValue() == x)
    return x;
  return nullptr;
}

// Intrinsics whose floating-point result carries (at most) a NaN input on.
bool isPassThroughIntrinsic(Intrinsic::ID id) {
  switch (id) {
  case Intrinsic::fma: case Intrinsic::fmuladd: case Intrinsic::sqrt: case Intrinsic::fabs:
  case Intrinsic::copysign: case Intrinsic::minnum: case Intrinsic::maxnum:
  case Intrinsic::minimum: case Intrinsic::maximum: case Intrinsic::minimumnum:
  case Intrinsic::maximumnum: case Intrinsic::floor: case Intrinsic::ceil: case Intrinsic::trunc:
  case Intrinsic::rint: case Intrinsic::nearbyint: case Intrinsic::round:
  case Intrinsic::roundeven: case Intrinsic::exp: case Intrinsic::exp2: case Intrinsic::log:
  case Intrinsic::log2: case Intrinsic::log10: case Intrinsic::sin: case Intrinsic::cos:
  case Intrinsic::ldexp: case Intrinsic::canonicalize:
  case Intrinsic::amdgcn_rcp: case Intrinsic::amdgcn_rsq: case Intrinsic::amdgcn_sqrt:
  case Intrinsic::amdgcn_exp2: case Intrinsic::amdgcn_log: case Intrinsic::amdgcn_fmed3:
  case Intrinsic::amdgcn_fract: case Intrinsic::amdgcn_sin: case Intrinsic::amdgcn_cos:
  case Intrinsic::amdgcn_rcp_legacy: case Intrinsic::amdgcn_rsq_clamp:
  case Intrinsic::amdgcn_frexp_mant:
  case Intrinsic::experimental_constrained_fadd: case Intrinsic::experimental_constrained_fsub:
  case Intrinsic::experimental_constrained_fmul: case Intrinsic::experimental_constrained_fdiv:
  case Intrinsic::experimental_constrained_fma: case Intrinsic::experimental_constrained_sqrt:
  case Intrinsic::experimental_constrained_fptrunc: case Intrinsic::experimental_constrained_fpext:
    return true;
  default: return false;
  }
}

bool isKillingIntrinsic(Intrinsic::ID id) {
  switch (id) {
  case Intrinsic::fptosi_sat: case Intrinsic::fptoui_sat:
  case Intrinsic::experimental_constrained_fptosi: case Intrinsic::experimental_constrained_fptoui:
    return true;
  default: return false;
  }
}

enum class UseKind { Kill, PassThrough, Escape };

// How the use `u` treats the NaN bits of the value it reads.
UseKind classify(const Use &u) {
  auto *i = dyn_cast<Instruction>(u.getUser());
  if (!i) return UseKind::Escape;
  if (isa<FCmpInst>(i)) return UseKind::Kill;
  if (auto *sel = dyn_cast<SelectInst>(i)) {
    if (u.getOperandNo() == 0) return UseKind::Escape;
    if (canonicalizedValue(*sel) == u.get()) return UseKind::Kill;
    return UseKind::PassThrough;
  }
  if (isa<PHINode>(i)) return UseKind::PassThrough;
  if (isa<FPToSIInst>(i) || isa<FPToUIInst>(i)) return UseKind::Kill;
  // Bit-preserving moves (f16x2 registers are i32 in the translator's IR):
  // the bits escape only if the moved value's bits do.
  if (isa<BitCastInst>(i) || isa<ShuffleVectorInst>(i) ||
      (isa<ExtractElementInst>(i) && u.getOperandNo() == 0) ||
      (isa<InsertElementInst>(i) && u.getOperandNo() < 2))
    return UseKind::PassThrough;
  bool fpResult = i->getType()->getScalarType()->isFloatingPointTy();
  if (fpResult &&
      (isa<BinaryOperator>(i) || isa<UnaryOperator>(i) || isa<FPExtInst>(i) || isa<FPTruncInst>(i)))
    return UseKind::PassThrough;
  if (auto *call = dyn_cast<IntrinsicInst>(i)) {
    Intrinsic::ID id = call->getIntrinsicID();
    if (isKillingIntrinsic(id)) return UseKind::Kill;
    if (isPassThroughIntrinsic(id) && fpResult) return UseKind::PassThrough;
  }
  return UseKind::Escape;
}

// Values whose NaN bits can reach an escape: those with an escaping use, and
// (transitively) the operands passed through to such values. Everything else
// is payload-dead (the greatest fixed point, so phi cycles that only reach
// sinks are dead).
DenseSet<const Value *> payloadLive(Function &f) {
  DenseSet<const Value *> live;
  SmallVector<const Value *, 64> work;
  auto mark = [&](const Value *v) {
    if (live.insert(v).second) work.push_back(v);
  };
  for (BasicBlock &bb : f)
    for (Instruction &i : bb)
      for (const Use &u : i.operands())
        if (isa<Instruction>(u.get()) || isa<Argument>(u.get()))
          if (classify(u) == UseKind::Escape) mark(u.get());
  while (!work.empty()) {
    const Value *v = work.pop_back_val();
    auto *i = dyn_cast<Instruction>(v);
    if (!i) continue;
    for (const Use &u : i->operands())
      if ((isa<Instruction>(u.get()) || isa<Argument>(u.get())) && classify(u) == UseKind::PassThrough)
        mark(u.get());
  }
  return live;
}

} // namespace

bool relaxNaNCanonicalization(Function &f) {
  SmallVector<SelectInst *, 32> tagged;
  for (BasicBlock &bb : f)
    for (Instruction &i : bb)
      if (canonicalizedValue(i)) tagged.push_back(cast<SelectInst>(&i));
  if (tagged.empty()) return false;
  // Decide first (against the unmodified function), then rewrite: a select
  // judged removable has a payload-dead result, so the values flowing into
  // it may take its place without any new escape (see the file header).
  DenseSet<const Value *> live = payloadLive(f);
  SmallVector<SelectInst *, 32> removable;
  for (SelectInst *s : tagged)
    if (!live.contains(s)) removable.push_back(s);
  for (SelectInst *s : removable) {
    auto *cmp = cast<FCmpInst>(s->getCondition());
    s->replaceAllUsesWith(canonicalizedValue(*s));
    s->eraseFromParent();
    if (cmp->use_empty()) cmp->eraseFromParent();
  }
  return !removable.empty();
}

PreservedAnalyses RelaxNaNCanonicalizationPass::run(Function &f, FunctionAnalysisManager &) {
  return relaxNaNCanonicalization(f) ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

void stripNaNCanonicalTags(Module &m) {
  unsigned kind = m.getContext().getMDKindID(kCanonTag);
  for (Function &f : m)
    for (BasicBlock &bb : f)
      for (Instruction &i : bb) i.setMetadata(kind, nullptr);
}

} // namespace amdgpulower

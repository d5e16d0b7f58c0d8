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
// Bits guarded by a NaN test. nvcc's logf/log2f/log10f (and frexp-style
// code) read the bits of their argument g with integer operations
// (`mov.b32 r, g; add/and/sub ...`, exponent and mantissa split) and use
// the result only on the path where a test of the same g said "not NaN":
//
//   r = bitcast g to i32; ...integer and FP work on r... -> z
//   br (icmp ult r, 0x7f800000), %use_z, %nan_path     ; phi [z, %use_z], ...
//
// A bitcast b = bitcast g to iN is *guarded* when every value computed from
// b (its forward slice Z: side-effect-free scalar/vector computations only,
// no phis, no memory, calls, terminators) is used only
//   * by an icmp of b itself with a constant whose answer is the same for
//     every NaN bit pattern of g's type (both signs), or
//   * as a phi's incoming value on an edge that is taken only right after a
//     branch on a condition c implying "g is not NaN" (the edge leaves the
//     branch's block, or an unconditional block whose single predecessor
//     ends in that branch), or as the arm of a select on such a c;
// c is an ordered fcmp of g (true edge), an unordered one (false edge), or
// an icmp of bitcast g with a constant whose region holds no NaN pattern.
// The use of g by a guarded b is then a Kill. Soundness: removing
// canonicalising selects changes a value only in its NaN payload (the
// invariant of the analysis above), so a g that is not NaN is unchanged, c
// (a function of g's NaN-ness and non-NaN value) is unchanged, and every
// value of Z that reaches a guarded edge or arm was computed from that same
// dynamic g (Z has no phis, so no value of an earlier iteration arrives)
// and from operands that the ordinary analysis keeps intact (integer uses
// stay escapes for their operands; only b's link to g is cut).
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/PatternMatch.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"

#include <optional>

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

// A call of the device library's shfl.sync (i64 result: the value read from
// the source lane in bits 0-31, the predicate in bit 32).
bool isShuffleCall(const Value *v) {
  auto *c = dyn_cast<CallInst>(v);
  const Function *f = c ? c->getCalledFunction() : nullptr;
  if (!f || !c->getType()->isIntegerTy(64) || c->arg_size() != 4) return false;
  StringRef n = f->getName();
  return n == "__ptx_shfl_sync_up" || n == "__ptx_shfl_sync_down" || n == "__ptx_shfl_sync_bfly" ||
         n == "__ptx_shfl_sync_idx";
}

// The bit patterns of positive and of negative NaNs of the scalar FP type t.
std::pair<ConstantRange, ConstantRange> nanPatterns(Type *t) {
  const fltSemantics &sem = t->getFltSemantics();
  APInt inf = APFloat::getInf(sem).bitcastToAPInt();
  unsigned w = inf.getBitWidth();
  APInt sign = APInt::getSignMask(w);
  // Positive NaNs: (inf, sign); negative ones: (sign | inf, 0) (wrapping).
  return {ConstantRange(inf + 1, sign), ConstantRange(sign | (inf + 1), APInt::getZero(w))};
}

// The patterns `bits pred k` accepts, or none when `c` is not an icmp of
// bitcast(g) against a constant.
std::optional<ConstantRange> icmpRegionOfBits(const ICmpInst *c, const Value *g, bool onTrue) {
  CmpInst::Predicate p = onTrue ? c->getPredicate() : c->getInversePredicate();
  const Value *a = c->getOperand(0), *k = c->getOperand(1);
  if (isa<ConstantInt>(a)) {
    std::swap(a, k);
    p = CmpInst::getSwappedPredicate(p);
  }
  auto *bc = dyn_cast<BitCastInst>(a);
  auto *kc = dyn_cast<ConstantInt>(k);
  if (!bc || !kc || bc->getOperand(0) != g) return std::nullopt;
  return ConstantRange::makeExactICmpRegion(p, kc->getValue());
}

// True when `c` evaluating to `onTrue` implies that g is not NaN.
bool impliesNotNaN(const Value *c, bool onTrue, const Value *g) {
  if (auto *fc = dyn_cast<FCmpInst>(c)) {
    if (fc->getOperand(0) != g && fc->getOperand(1) != g) return false;
    return CmpInst::isOrdered(onTrue ? fc->getPredicate() : fc->getInversePredicate());
  }
  if (auto *ic = dyn_cast<ICmpInst>(c)) {
    auto region = icmpRegionOfBits(ic, g, onTrue);
    if (!region) return false;
    auto [pos, neg] = nanPatterns(g->getType());
    return region->intersectWith(pos).isEmptySet() && region->intersectWith(neg).isEmptySet();
  }
  return false;
}

// True when the icmp `c` of bitcast(g) gives one answer for every NaN pattern
// of g (either sign), so that it depends on g's NaN-ness only.
bool nanUniformBitTest(const ICmpInst *c, const Value *g) {
  auto region = icmpRegionOfBits(c, g, true);
  if (!region) return false;
  auto [pos, neg] = nanPatterns(g->getType());
  bool none = region->intersectWith(pos).isEmptySet() && region->intersectWith(neg).isEmptySet();
  bool all = region->contains(pos) && region->contains(neg);
  return none || all;
}

// True when the phi's incoming edge from `from` is taken only right after a
// branch whose condition implies that g is not NaN.
bool edgeImpliesNotNaN(const PHINode *phi, const BasicBlock *from, const Value *g) {
  const BasicBlock *to = phi->getParent();
  auto test = [&](const BasicBlock *pred, const BasicBlock *succ) {
    auto *br = dyn_cast<BranchInst>(pred->getTerminator());
    if (!br || !br->isConditional() || br->getSuccessor(0) == br->getSuccessor(1)) return false;
    if (br->getSuccessor(0) != succ && br->getSuccessor(1) != succ) return false;
    return impliesNotNaN(br->getCondition(), br->getSuccessor(0) == succ, g);
  };
  if (test(from, to)) return true;
  auto *br = dyn_cast<BranchInst>(from->getTerminator());
  const BasicBlock *pred = from->getSinglePredecessor();
  return br && br->isUnconditional() && pred && pred != from && test(pred, from);
}

// Instructions a guarded slice may contain: pure computations on values.
bool isPureValueOp(const Instruction *i) {
  if (i->getType()->isPtrOrPtrVectorTy()) return false;
  if (isa<BinaryOperator>(i) || isa<UnaryOperator>(i) || isa<CmpInst>(i) || isa<SelectInst>(i) ||
      isa<ExtractElementInst>(i) || isa<InsertElementInst>(i) || isa<ShuffleVectorInst>(i) ||
      isa<FreezeInst>(i))
    return true;
  if (auto *c = dyn_cast<CastInst>(i))
    return !isa<PtrToIntInst>(c) && !isa<IntToPtrInst>(c) && !isa<AddrSpaceCastInst>(c);
  if (auto *ii = dyn_cast<IntrinsicInst>(i))
    return !ii->mayHaveSideEffects() && !ii->mayReadOrWriteMemory() && !ii->isConvergent();
  return false;
}

// True when the bitcast b of a scalar FP value to an integer is guarded (see
// the file header): every value computed from it reaches only NaN-uniform
// bit tests of b and phi edges / select arms taken only when b's source is
// not NaN.
bool isGuardedBitcast(const BitCastInst *b) {
  const Value *g = b->getOperand(0);
  if (!g->getType()->isFloatingPointTy() || !b->getType()->isIntegerTy()) return false;
  constexpr unsigned kLimit = 512;
  SmallPtrSet<const Instruction *, 32> slice;
  SmallVector<const Instruction *, 32> work{b};
  slice.insert(b);
  while (!work.empty()) {
    const Instruction *v = work.pop_back_val();
    for (const Use &u : v->uses()) {
      auto *i = dyn_cast<Instruction>(u.getUser());
      if (!i) return false;
      if (v == b)
        if (auto *ic = dyn_cast<ICmpInst>(i); ic && nanUniformBitTest(ic, g)) continue;
      if (auto *phi = dyn_cast<PHINode>(i)) {
        if (edgeImpliesNotNaN(phi, phi->getIncomingBlock(u), g)) continue;
        return false;
      }
      if (auto *sel = dyn_cast<SelectInst>(i); sel && u.getOperandNo() != 0 &&
                                               sel->getTrueValue() != sel->getFalseValue() &&
                                               impliesNotNaN(sel->getCondition(), u.getOperandNo() == 1, g))
        continue;
      if (slice.contains(i)) continue;
      if (!isPureValueOp(i) || slice.size() >= kLimit) return false;
      slice.insert(i);
      work.push_back(i);
    }
  }
  return true;
}

// False when the bitcast `bc` makes floats of its bits whose element type
// differs from that of the floats the bits were copied from: walking back
// from its operand through the bit copies (integer bitcasts, phis, select
// arms, freeze, vector element moves, shfl.sync), every floating-point value
// reached must have bc's element type. A walk that gets too long is false.
// (Bits computed by anything else are not copies: uses that compute on bits
// are escapes, so such values are unchanged by the removal.)
bool keepsFloatWidth(const BitCastInst *bc) {
  Type *dst = bc->getType()->getScalarType();
  if (!dst->isFloatingPointTy()) return true;
  SmallPtrSet<const Value *, 16> seen;
  SmallVector<const Value *, 16> work{bc->getOperand(0)};
  while (!work.empty()) {
    const Value *v = work.pop_back_val();
    if (!seen.insert(v).second) continue;
    if (seen.size() > 64) return false;
    if (v->getType()->getScalarType()->isFloatingPointTy()) {
      if (v->getType()->getScalarType() != dst) return false; // f16 bits as bf16 reinterpret too
      continue;
    }
    auto *i = dyn_cast<Instruction>(v);
    if (!i) continue;
    if (isa<BitCastInst>(i) || isa<FreezeInst>(i)) work.push_back(i->getOperand(0));
    else if (auto *phi = dyn_cast<PHINode>(i)) work.append(phi->value_op_begin(), phi->value_op_end());
    else if (auto *sel = dyn_cast<SelectInst>(i)) work.append({sel->getTrueValue(), sel->getFalseValue()});
    else if (isa<ExtractElementInst>(i)) work.push_back(i->getOperand(0));
    else if (isa<InsertElementInst>(i) || isa<ShuffleVectorInst>(i)) work.append({i->getOperand(0), i->getOperand(1)});
    else if (isa<TruncInst>(i) && isShuffleCall(i->getOperand(0))) work.push_back(cast<CallInst>(i->getOperand(0))->getArgOperand(1));
    else if (isShuffleCall(i)) work.push_back(cast<CallInst>(i)->getArgOperand(1));
  }
  return true;
}

// How the use `u` treats the NaN bits of the value it reads (`guarded`: the
// guarded bitcasts of the function).
UseKind classify(const Use &u, const DenseSet<const Value *> &guarded) {
  auto *i = dyn_cast<Instruction>(u.getUser());
  if (!i) return UseKind::Escape;
  if (isa<FCmpInst>(i)) return UseKind::Kill;
  if (guarded.contains(i)) return UseKind::Kill;
  // A test of the bits with one answer for every NaN (e.g. bits <u 0x7f800000).
  if (auto *ic = dyn_cast<ICmpInst>(i)) {
    const Value *other = ic->getOperand(u.getOperandNo() == 0 ? 1 : 0);
    if (auto *bc = dyn_cast<BitCastInst>(u.get()); bc && isa<ConstantInt>(other) &&
                                                   bc->getOperand(0)->getType()->isFloatingPointTy() &&
                                                   nanUniformBitTest(ic, bc->getOperand(0)))
      return UseKind::Kill;
  }
  if (auto *sel = dyn_cast<SelectInst>(i)) {
    if (u.getOperandNo() == 0) return UseKind::Escape;
    if (canonicalizedValue(*sel) == u.get()) return UseKind::Kill;
    return UseKind::PassThrough;
  }
  if (isa<PHINode>(i)) return UseKind::PassThrough;
  if (isa<FPToSIInst>(i) || isa<FPToUIInst>(i)) return UseKind::Kill;
  // Bit-preserving moves (f16x2 registers are i32 in the translator's IR):
  // the bits escape only if the moved value's bits do -- unless the move
  // reinterprets them as floats of another width (f32 bits as two f16 lanes:
  // a NaN f32 with another payload has non-NaN f16 lanes of other values).
  if (auto *bc = dyn_cast<BitCastInst>(i))
    return keepsFloatWidth(bc) ? UseKind::PassThrough : UseKind::Escape;
  if (isa<ShuffleVectorInst>(i) ||
      (isa<ExtractElementInst>(i) && u.getOperandNo() == 0) ||
      (isa<InsertElementInst>(i) && u.getOperandNo() < 2))
    return UseKind::PassThrough;
  // shfl.sync: the devlib's __ptx_shfl_sync_* return one lane's `a` in the
  // low 32 bits and the lane-valid predicate at bit 32 (devlib/warp.c).
  if (isShuffleCall(i) && u.getOperandNo() == 1) return UseKind::PassThrough;
  if (isShuffleCall(u.get())) {
    if (isa<TruncInst>(i) && i->getType()->isIntegerTy(32)) return UseKind::PassThrough;
    const APInt *k;
    if (PatternMatch::match(i, PatternMatch::m_LShr(PatternMatch::m_Specific(u.get()), PatternMatch::m_APInt(k))) &&
        k->uge(32))
      return UseKind::Kill;
  }
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
  DenseSet<const Value *> guarded;
  for (BasicBlock &bb : f)
    for (Instruction &i : bb)
      if (auto *b = dyn_cast<BitCastInst>(&i); b && isGuardedBitcast(b)) guarded.insert(b);
  DenseSet<const Value *> live;
  SmallVector<const Value *, 64> work;
  auto mark = [&](const Value *v) {
    if (live.insert(v).second) work.push_back(v);
  };
  for (BasicBlock &bb : f)
    for (Instruction &i : bb)
      for (const Use &u : i.operands())
        if (isa<Instruction>(u.get()) || isa<Argument>(u.get()))
          if (classify(u, guarded) == UseKind::Escape) mark(u.get());
  while (!work.empty()) {
    const Value *v = work.pop_back_val();
    auto *i = dyn_cast<Instruction>(v);
    if (!i) continue;
    for (const Use &u : i->operands())
      if ((isa<Instruction>(u.get()) || isa<Argument>(u.get())) && classify(u, guarded) == UseKind::PassThrough)
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

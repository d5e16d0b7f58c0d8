//===- TrapCallsOfData.cpp - calls whose target is a data object trap -----===//
//
// A PTX indirect `call` goes through a register. When that register holds the
// address of a `.global`/`.const` variable (a wrong program, or an
// uninitialised register the optimiser resolves to one, as the translation
// fuzzer found), constant folding leaves a call whose callee is, through
// casts, a global *variable*. LLVM 22's AMDGPU call lowering assumes a
// constant callee that is a GlobalValue is a function and reads its
// attributes: it crashes (a stack-smashing abort in llc, a SIGSEGV in
// process). On an NVIDIA GPU such a call jumps into data and faults. This
// step, right before instruction selection, replaces each such call by
// `llvm.trap` (the launch fails with a device fault, never a wrong answer)
// and its result by poison. Calls of functions, of integer addresses and of
// offsets into a variable are left alone (the backend selects those).
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"

using namespace llvm;

namespace amdgpulower {
namespace {

// The global a constant callee names through casts and aliases, if any.
const GlobalValue *namedGlobal(const Value *v) {
  for (unsigned depth = 0; depth < 16; ++depth) {
    if (const auto *a = dyn_cast<GlobalAlias>(v)) {
      v = a->getAliasee();
      continue;
    }
    if (const auto *g = dyn_cast<GlobalValue>(v)) return g;
    const auto *ce = dyn_cast<ConstantExpr>(v);
    if (!ce || !ce->isCast()) return nullptr;
    v = ce->getOperand(0);
  }
  return nullptr;
}

} // namespace

unsigned trapCallsOfData(Module &m) {
  SmallVector<CallBase *, 4> calls;
  for (Function &f : m)
    for (Instruction &i : instructions(f))
      if (auto *cb = dyn_cast<CallBase>(&i))
        if (const GlobalValue *g = namedGlobal(cb->getCalledOperand()); g && !isa<Function>(g))
          calls.push_back(cb);
  for (CallBase *cb : calls) {
    IRBuilder<> b(cb);
    b.CreateIntrinsic(Intrinsic::trap, {});
    if (!cb->getType()->isVoidTy()) cb->replaceAllUsesWith(PoisonValue::get(cb->getType()));
    if (auto *inv = dyn_cast<InvokeInst>(cb)) b.CreateBr(inv->getNormalDest());
    cb->eraseFromParent();
  }
  return unsigned(calls.size());
}

} // namespace amdgpulower

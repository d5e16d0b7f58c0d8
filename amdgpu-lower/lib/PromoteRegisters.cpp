//===- PromoteRegisters.cpp - PTX registers to SSA values, before the split -===//
//
// ptx-to-llvm gives every PTX register (and the carry flag, the exit flag,
// the parameters' copies) an entry-block alloca and turns each use into a
// load and each definition into a store: the translation stays one
// instruction at a time, and LLVM's mem2reg builds the SSA form. Left to the
// optimiser's first SROA, that form passed through the whole lowering, the
// per-kernel split (cloning, bitcode write and read) and the verifier first:
// on the CUB corpus module 24 k allocas and 46 k loads, 3.8x the instructions
// of the optimised module. At -O1..-O3 this pass promotes every promotable
// entry-block alloca of every defined function (PromoteMemToReg, the core of
// SROA without its aggregate splitting) right after the translator's
// positions are dropped, so every later step sees the SSA form. Promotion only
// replaces loads by the values stored and inserts phis: the instruction
// shapes the NaN-canonicalisation relaxation recognises (it runs after the
// optimiser's SROA, before any InstCombine) are unchanged. Allocas that are
// not promotable (address taken, arrays of .local memory) stay for SROA. -O0
// keeps the load/store form, as before.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

namespace amdgpulower {

unsigned promoteRegisters(llvm::Module &m) {
  unsigned promoted = 0;
  llvm::SmallVector<llvm::AllocaInst *, 64> allocas;
  for (llvm::Function &f : m) {
    if (f.isDeclaration()) continue;
    allocas.clear();
    for (llvm::Instruction &i : f.getEntryBlock())
      if (auto *a = llvm::dyn_cast<llvm::AllocaInst>(&i))
        if (llvm::isAllocaPromotable(a)) allocas.push_back(a);
    if (allocas.empty()) continue;
    llvm::DominatorTree dt(f);
    promoted += allocas.size();
    llvm::PromoteMemToReg(allocas, dt);
  }
  return promoted;
}

} // namespace amdgpulower

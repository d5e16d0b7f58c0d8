//===- Pipeline.cpp - the one pipeline driver (ptxjit/Pipeline.h) -----------===//
//
// PTX -> translated module (several -rdc units: linked, Link.h) -> host-visible globals pinned -> lowered module
// (for the emulator) and/or code object (for hardware), plus the per-kernel
// image extraction the runtime uses for modules whose total static LDS is
// too large for one work-group. This is the only place outside the stages
// themselves that edits IR. A failure is the stages' typed errors as they
// made them (support/Error.h), never re-rendered into text here.
//
//===----------------------------------------------------------------------===//
#include "ptxjit/Pipeline.h"
#include "ptxjit/Lowering.h"
#include "support/Contract.h"
#include "support/Error.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/Support/AMDGPUAddrSpace.h"
#include "llvm/Transforms/Utils/Cloning.h"

namespace ptxjit {

namespace {

void pinGlobals(llvm::Module &M, llvm::ArrayRef<std::string> Names) {
  for (const std::string &N : Names) {
    llvm::GlobalVariable *G = M.getGlobalVariable(N, /*AllowInternal=*/true);
    if (!G || G->isDeclaration()) continue; // host access then fails with "not found"
    G->setLinkage(llvm::GlobalValue::ExternalLinkage);
    // Protected: exported (the loader finds it by name) but not preemptible, so
    // the code object's pc-relative references to it link (lld refuses
    // R_AMDGPU_REL32_* against a default-visibility symbol of a shared object).
    G->setVisibility(llvm::GlobalValue::ProtectedVisibility);
    G->setDSOLocal(true);
    G->setConstant(false);
  }
}

} // namespace

llvm::Expected<PipelineResult> compilePTX(std::string_view ptx, std::string_view sourceName,
                                          const PipelineOptions &opts) {
  PTXUnit U{ptx, sourceName};
  return compilePTXUnits(U, opts);
}

llvm::Expected<PipelineResult> compilePTXUnits(llvm::ArrayRef<PTXUnit> units, const PipelineOptions &opts) {
  PipelineResult R;
  R.context = std::make_unique<llvm::LLVMContext>();
  auto Mod = translateUnits(units, InputKind::PTX, *R.context, R.diags);
  // A linked translation reports its errors as diagnostics plus a summary error ("PTX link
  // errors"): the error returned carries them, as a one-unit translation's error does.
  if (!Mod) return units.size() > 1 ? llvm::joinErrors(support::errorOf(R.diags), Mod.takeError()) : Mod.takeError();
  pinGlobals(**Mod, opts.pinGlobals);
  amdgpulower::LowerOptions LO;
  LO.arch = opts.arch;
  LO.optLevel = opts.optLevel;
  LO.defaultPolicy = opts.defaultPolicy;
  LO.threads = opts.threads;
  LO.codeObjectVersion = opts.codeObjectVersion;
  LO.verifyInput = units.size() != 1; // one unit: ptx2llvm's translate() verified it
  for (auto &[K, Pol] : opts.kernelPolicy)
    if (llvm::Function *F = (*Mod)->getFunction(K); F && !F->isDeclaration()) LO.kernelPolicy[K] = Pol;
  for (llvm::Function &F : **Mod)
    if (F.getCallingConv() == llvm::CallingConv::PTX_Kernel || F.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL)
      if (!F.isDeclaration()) R.kernels.push_back(F.getName().str());
  if (opts.emitCodeObject) {
    std::unique_ptr<llvm::Module> Copy = opts.emitLowered ? llvm::CloneModule(**Mod) : std::move(*Mod);
    // Without a lowered module to return, the translation's context goes with
    // the module (freed after the split, Lower.h); R keeps a fresh one.
    std::unique_ptr<llvm::LLVMContext> Ctx;
    if (!opts.emitLowered) {
      Ctx = std::move(R.context);
      R.context = std::make_unique<llvm::LLVMContext>();
    }
    auto Obj = amdgpulower::compileModule(std::move(Copy), LO, amdgpulower::OutputKind::CodeObject, R.diags,
                                          nullptr, std::move(Ctx));
    if (!Obj) return Obj.takeError();
    R.codeObject.assign(Obj->begin(), Obj->end());
  }
  if (opts.emitLowered) {
    if (llvm::Error E = amdgpulower::lowerModule(**Mod, LO, R.diags)) return E;
    R.kernels.clear();
    for (llvm::Function &F : **Mod)
      if (F.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL && !F.isDeclaration())
        R.kernels.push_back(F.getName().str());
    R.lowered = std::move(*Mod);
  }
  return R;
}

uint64_t staticLdsBytes(const llvm::Module &M) {
  uint64_t N = 0;
  for (const llvm::GlobalVariable &G : M.globals())
    if (G.getAddressSpace() == llvm::AMDGPUAS::LOCAL_ADDRESS && G.getValueType()->isSized())
      N += M.getDataLayout().getTypeAllocSize(G.getValueType());
  return N;
}

bool canSplitPerKernel(const llvm::Module &M, llvm::ArrayRef<std::string> hostMutable, std::string &why) {
  for (const std::string &N : hostMutable) {
    why = "the host accesses its variable '" + N + "'";
    return false;
  }
  for (const llvm::GlobalVariable &G : M.globals()) {
    if (G.getAddressSpace() != llvm::AMDGPUAS::GLOBAL_ADDRESS || G.isConstant() ||
        G.getName().starts_with(support::global::kInternalPrefix)) continue;
    if (G.getValueType()->isSized() && M.getDataLayout().getTypeAllocSize(G.getValueType()) <= 1) continue;
    why = "it has the device variable '" + G.getName().str() + "'";
    return false;
  }
  return true;
}

namespace {
// The global values kernel K of M references, transitively (instructions,
// constant expressions, variable initialisers, aliases).
llvm::SmallPtrSet<const llvm::GlobalValue *, 32> referencedBy(const llvm::Module &M, llvm::StringRef K) {
  llvm::SmallPtrSet<const llvm::GlobalValue *, 32> Keep;
  llvm::SmallPtrSet<const llvm::Constant *, 32> SeenConst;
  llvm::SmallVector<const llvm::GlobalValue *, 64> Work;
  auto Visit = [&](const llvm::Value *V, auto &Self) -> void {
    if (auto *GV = llvm::dyn_cast<llvm::GlobalValue>(V)) {
      if (Keep.insert(GV).second) Work.push_back(GV);
      return;
    }
    auto *C = llvm::dyn_cast<llvm::Constant>(V);
    if (!C || !SeenConst.insert(C).second) return;
    for (const llvm::Use &U : C->operands()) Self(U.get(), Self);
  };
  if (const llvm::Function *F = M.getFunction(K)) Visit(F, Visit);
  while (!Work.empty()) {
    const llvm::GlobalValue *GV = Work.pop_back_val();
    if (auto *F = llvm::dyn_cast<llvm::Function>(GV)) {
      for (const llvm::BasicBlock &BB : *F)
        for (const llvm::Instruction &I : BB)
          for (const llvm::Use &U : I.operands()) Visit(U.get(), Visit);
    } else if (auto *G = llvm::dyn_cast<llvm::GlobalVariable>(GV)) {
      if (G->hasInitializer()) Visit(G->getInitializer(), Visit);
    } else if (auto *A = llvm::dyn_cast<llvm::GlobalAlias>(GV)) {
      Visit(A->getAliasee(), Visit);
    }
  }
  return Keep;
}
} // namespace

uint64_t kernelStaticLdsBytes(const llvm::Module &M, llvm::StringRef K) {
  uint64_t N = 0;
  for (const llvm::GlobalValue *GV : referencedBy(M, K))
    if (auto *G = llvm::dyn_cast<llvm::GlobalVariable>(GV))
      if (G->getAddressSpace() == llvm::AMDGPUAS::LOCAL_ADDRESS && G->getValueType()->isSized())
        N += M.getDataLayout().getTypeAllocSize(G->getValueType());
  return N;
}

bool kernelNeedsDynamicStack(const llvm::Module &M, llvm::StringRef K) {
  // Depth-first over direct calls; a back edge is recursion.
  std::map<const llvm::Function *, int> Color; // 1 on the path, 2 done
  auto Visit = [&](const llvm::Function *F, auto &Self) -> bool {
    Color[F] = 1;
    for (const llvm::BasicBlock &BB : *F)
      for (const llvm::Instruction &I : BB) {
        auto *CB = llvm::dyn_cast<llvm::CallBase>(&I);
        if (!CB || CB->isInlineAsm()) continue;
        const llvm::Function *Callee = CB->getCalledFunction();
        if (!Callee) return true; // indirect call
        if (Callee->isDeclaration()) continue;
        int C = Color[Callee];
        if (C == 1) return true;
        if (C == 0 && Self(Callee, Self)) return true;
      }
    Color[F] = 2;
    return false;
  };
  const llvm::Function *F = M.getFunction(K);
  return F && !F->isDeclaration() && Visit(F, Visit);
}

// Only the definitions K references are cloned (cloning the whole module per
// kernel made the first launch of each kernel of a large Thrust/CUB module
// cost a full copy).
std::unique_ptr<llvm::Module> extractKernel(const llvm::Module &M, llvm::StringRef K) {
  llvm::SmallPtrSet<const llvm::GlobalValue *, 32> Keep = referencedBy(M, K);
  llvm::ValueToValueMapTy VMap;
  std::unique_ptr<llvm::Module> C =
      llvm::CloneModule(M, VMap, [&](const llvm::GlobalValue *GV) { return Keep.contains(GV); });
  std::vector<llvm::Function *> Dead;
  for (llvm::Function &F : *C)
    if (F.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL && F.getName() != K) Dead.push_back(&F);
  for (llvm::Function *F : Dead) {
    F->replaceAllUsesWith(llvm::PoisonValue::get(F->getType()));
    F->eraseFromParent();
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (llvm::Function &F : llvm::make_early_inc_range(*C)) {
      F.removeDeadConstantUsers();
      if (F.use_empty() && (F.hasLocalLinkage() || F.isDeclaration()) &&
          F.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL) {
        F.eraseFromParent();
        Changed = true;
      }
    }
    for (llvm::GlobalVariable &G : llvm::make_early_inc_range(C->globals())) {
      G.removeDeadConstantUsers();
      if (G.use_empty() &&
          (G.hasLocalLinkage() || G.isDeclaration() || G.getAddressSpace() == llvm::AMDGPUAS::LOCAL_ADDRESS)) {
        G.eraseFromParent();
        Changed = true;
      }
    }
  }
  return C;
}

} // namespace ptxjit

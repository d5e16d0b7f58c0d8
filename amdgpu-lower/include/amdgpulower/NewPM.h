//===- amdgpulower/NewPM.h - amdgpu-lower's passes for the new PM --*- C++ -*-===//
//
// Each amdgpu-lower pass (Passes.def) as a named llvm::PassInfoMixin module
// pass, for ptx2amd-opt and per-pass tests. The wrappers call the same
// functions lowerModuleNoOpt() runs, with a shared PassState holding the
// options, the target and the diagnostics (a pass that fails appends its
// typed error's diagnostics there and marks the state failed). The warp
// policies of a module are recomputed from the options before the kernel
// ABI pass, and read back from the `ptx2amd.warp-policy` kernel attributes
// after it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "amdgpulower/Lower.h"

#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"

namespace amdgpulower {

struct PassState {
  LowerOptions opts;
  std::vector<Diagnostic> diags;
  bool failed = false;
  void fail(llvm::Error e);
};

#define AMDGPULOWER_MODULE_PASS(NAME, CLASS)                                                           \
  struct CLASS : llvm::PassInfoMixin<CLASS> {                                                          \
    explicit CLASS(PassState &s) : state(s) {}                                                         \
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);                       \
    static llvm::StringRef name() { return NAME; }                                                     \
    PassState &state;                                                                                  \
  };
#include "amdgpulower/Passes.def"

// Lets `pb.parsePassPipeline` accept the names of Passes.def.
void registerPasses(llvm::PassBuilder &pb, PassState &state);

} // namespace amdgpulower

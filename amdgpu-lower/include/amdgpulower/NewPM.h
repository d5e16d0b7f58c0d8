//===- amdgpulower/NewPM.h - amdgpu-lower's passes for the new PM --*- C++ -*-===//
//
// Each amdgpu-lower pass (Passes.def, the stage's one ordered list) as a
// named llvm::PassInfoMixin pass. lowerModuleNoOpt() builds its pipeline
// from the list (addLoweringPipeline); ptx2amd-opt and the per-pass lit
// tests run any of them by name (registerPasses). The module passes share a
// PassState: the options, the warnings the passes report, the typed error of
// the first pass that failed (the later ones then do nothing) and the warp
// policies resolved once and updated by the kernel-ABI pass.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "amdgpulower/Lower.h"

#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"

#include <memory>

namespace amdgpulower {

class PassState {
public:
  explicit PassState(LowerOptions o = {});
  ~PassState();
  PassState(const PassState &) = delete;
  PassState &operator=(const PassState &) = delete;

  LowerOptions opts;
  std::vector<Diagnostic> diags; // warnings and notes of the passes

  bool failed() const { return failed_; }
  // Records a pass's error (typed, support/Error.h); success is ignored.
  void fail(llvm::Error e);
  // The recorded error (success when no pass failed); the state stays failed.
  llvm::Error takeError();

  // The kernels' policies while the pipeline runs (Passes.h's PolicyMap).
  struct Policies;
  std::unique_ptr<Policies> policies;

private:
  bool failed_ = false;
  llvm::Error error_ = llvm::Error::success();
};

#define AMDGPULOWER_MODULE_PASS(NAME, CLASS)                                                           \
  struct CLASS : llvm::PassInfoMixin<CLASS> {                                                          \
    explicit CLASS(PassState &s) : state(s) {}                                                         \
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);                       \
    static llvm::StringRef name() { return NAME; }                                                     \
    PassState &state;                                                                                  \
  };
#define AMDGPULOWER_FUNCTION_PASS(NAME, CLASS)                                                         \
  struct CLASS : llvm::PassInfoMixin<CLASS> {                                                          \
    llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);                   \
    static llvm::StringRef name() { return NAME; }                                                     \
  };
#include "amdgpulower/Passes.def"

// The AMDGPULOWER_PIPELINE_PASS rows of Passes.def, in order.
void addLoweringPipeline(llvm::ModulePassManager &mpm, PassState &state);

// Lets `pb.parsePassPipeline` accept the names of Passes.def.
void registerPasses(llvm::PassBuilder &pb, PassState &state);

} // namespace amdgpulower

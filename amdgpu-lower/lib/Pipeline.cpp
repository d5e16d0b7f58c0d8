//===- Pipeline.cpp - amdgpu-lower: the passes in order ----------------------===//
//
// lowerModuleNoOpt(): the AMDGPULOWER_PIPELINE_PASS rows of
// amdgpulower/Passes.def, in their order, through LLVM's new pass manager
// (check the input contract, -Wwarp-size, drop source positions, kernel ABI,
// device library, gfx11 cycle counter, re-verify). lowerModule() adds the
// optimisation pipeline: its result is what the emulator executes and what
// `ptx2amd --emit=llvm` prints.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/IR/PassManager.h"

#include <chrono>

namespace amdgpulower {

llvm::Error lowerModuleNoOpt(llvm::Module &m, const LowerOptions &opts,
                             std::vector<Diagnostic> &diags) {
  PassState state(opts);
  llvm::ModulePassManager mpm;
  addLoweringPipeline(mpm, state);
  llvm::ModuleAnalysisManager mam;
  mam.registerPass([] { return llvm::PassInstrumentationAnalysis(); });
  mpm.run(m, mam);
  diags.insert(diags.end(), state.diags.begin(), state.diags.end());
  return state.takeError();
}

llvm::Error lowerModule(llvm::Module &m, const LowerOptions &opts, std::vector<Diagnostic> &diags,
                        std::vector<StageTime> *times) {
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  if (auto e = lowerModuleNoOpt(m, opts, diags)) return e;
  auto t1 = Clock::now();
  if (auto e = optimizeModule(m, opts)) return e;
  if (times) {
    times->push_back({"lower (policy, ABI, devlib)", std::chrono::duration<double>(t1 - t0).count()});
    times->push_back({"optimize", std::chrono::duration<double>(Clock::now() - t1).count()});
  }
  return llvm::Error::success();
}

} // namespace amdgpulower

//===- Optimize.cpp - The LLVM optimisation pipeline (-O0..-O3) -------------===//
//
// Runs the new pass manager's default module pipeline for -O1/-O2 and, at
// -O3, the shorter list for nvcc PTX of PostNvccPipeline.cpp, with the AMDGPU
// TargetMachine attached (so the target's own passes and cost model run, as
// in clang). -O0 still runs the always-inliner so
// device-library wrappers disappear and the module stays small. At -O1..3
// the canonical-NaN selects whose bits never show are dropped first, right
// after SROA (RelaxNaNCanonicalization.cpp). The result
// is the contract's "emu input" (docs/pipeline.md).
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/Scalar/SROA.h"

namespace amdgpulower {

llvm::Error optimizeModule(llvm::Module &m, const LowerOptions &opts) {
  auto tm = createTargetMachine(opts.arch, opts.optLevel);
  if (!tm) return tm.takeError();
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PipelineTuningOptions pto;
  pto.LoopUnrolling = opts.optLevel >= 2;
  pto.LoopVectorization = opts.optLevel >= 2;
  pto.SLPVectorization = opts.optLevel >= 2;
  llvm::PassBuilder pb(tm->get(), pto);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  // Right after the PTX registers become SSA values (SROA) and before any
  // InstCombine, which folds later operations into the canonicalising
  // selects (op(select(c, NaN, x)) -> select(c, NaN, op(x))) so that their
  // shape, and what they protect, is no longer recognisable.
  auto addPipelineStart = [](llvm::ModulePassManager &mpm) {
    llvm::FunctionPassManager fpm;
    fpm.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
    fpm.addPass(RelaxNaNCanonicalizationPass());
    mpm.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(fpm)));
  };
  pb.registerPipelineStartEPCallback([&](llvm::ModulePassManager &mpm, llvm::OptimizationLevel level) {
    if (level != llvm::OptimizationLevel::O0) addPipelineStart(mpm);
  });
  llvm::ModulePassManager mpm;
  switch (opts.optLevel) {
  case 0: mpm = pb.buildO0DefaultPipeline(llvm::OptimizationLevel::O0); break;
  case 1: mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O1); break;
  case 2: mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2); break;
  default:
    addPipelineStart(mpm);
    if (auto e = pb.parsePassPipeline(mpm, postNvccPipelineO3()))
      return support::internalError(support::noLocf("internal error: the -O3 pipeline does not parse: %s",
                                                    llvm::toString(std::move(e)).c_str()));
    break;
  }
  mpm.run(m, mam);
  stripNaNCanonicalTags(m);
  std::string err;
  llvm::raw_string_ostream os(err);
  if (llvm::verifyModule(m, &os))
    return support::internalError(support::noLocf("internal error: module invalid after optimisation: %s", err.c_str()));
  return llvm::Error::success();
}

} // namespace amdgpulower

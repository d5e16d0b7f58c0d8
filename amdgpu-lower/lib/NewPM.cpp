//===- NewPM.cpp - new-PM wrappers of amdgpu-lower's passes -------------------===//
//
// Thin adapters (amdgpulower/NewPM.h): each run() resolves the target and the
// policies and calls the pass function of its file unchanged.
//
//===----------------------------------------------------------------------===//
#include "amdgpulower/NewPM.h"

#include "Passes.h"

namespace amdgpulower {

void PassState::fail(llvm::Error e) {
  if (!e) return;
  failed = true;
  support::appendDiagnostics(std::move(e), diags);
}

namespace {
const TargetInfo *target(PassState &s) {
  const TargetInfo *t = findTarget(s.opts.arch);
  if (!t) s.fail(support::invalidInput(support::noLocf("unsupported offload arch '%s'", s.opts.arch.c_str())));
  return t;
}

// Policies: from the kernels' ptx2amd.warp-policy attributes once the ABI
// pass has run, else from the options.
llvm::Expected<PolicyMap> policies(llvm::Module &m, const TargetInfo &t, const LowerOptions &opts) {
  PolicyMap map;
  for (llvm::Function &f : m) {
    if (f.isDeclaration() || f.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL) continue;
    llvm::Attribute a = f.getFnAttribute(kAttrWarpPolicy);
    if (!a.isStringAttribute()) return resolveWarpPolicies(m, t, opts);
    llvm::StringRef v = a.getValueAsString();
    map[&f] = v == "pad" ? WarpPolicy::Pad : v == "pack" ? WarpPolicy::Pack : WarpPolicy::Native;
  }
  return map;
}

template <class F> llvm::PreservedAnalyses withPolicies(llvm::Module &m, PassState &s, F &&f) {
  if (s.failed) return llvm::PreservedAnalyses::all();
  const TargetInfo *t = target(s);
  if (!t) return llvm::PreservedAnalyses::all();
  auto p = policies(m, *t, s.opts);
  if (!p) {
    s.fail(p.takeError());
    return llvm::PreservedAnalyses::all();
  }
  f(*t, *p);
  return llvm::PreservedAnalyses::none();
}
} // namespace

llvm::PreservedAnalyses WarpSizeCheckPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  withPolicies(m, state, [&](const TargetInfo &, PolicyMap &p) { checkWarpSizeHazards(m, p, state.diags); });
  return llvm::PreservedAnalyses::all();
}

llvm::PreservedAnalyses DropSourcePositionsPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  dropSourcePositions(m);
  return llvm::PreservedAnalyses::none();
}

llvm::PreservedAnalyses KernelABIPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  return withPolicies(m, state, [&](const TargetInfo &t, PolicyMap &p) {
    state.fail(applyKernelABI(m, p, t, state.opts, state.diags));
  });
}

llvm::PreservedAnalyses LinkDevlibPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  return withPolicies(m, state,
                      [&](const TargetInfo &t, PolicyMap &p) { state.fail(linkDeviceLibrary(m, p, t)); });
}

llvm::PreservedAnalyses LowerPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  if (!state.failed) state.fail(lowerModuleNoOpt(m, state.opts, state.diags));
  return llvm::PreservedAnalyses::none();
}

void registerPasses(llvm::PassBuilder &pb, PassState &state) {
  pb.registerPipelineParsingCallback(
      [&state](llvm::StringRef name, llvm::ModulePassManager &mpm, llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
#define AMDGPULOWER_MODULE_PASS(NAME, CLASS)                                                           \
  if (name == NAME) {                                                                                  \
    mpm.addPass(CLASS(state));                                                                         \
    return true;                                                                                       \
  }
#include "amdgpulower/Passes.def"
        return false;
      });
}

} // namespace amdgpulower

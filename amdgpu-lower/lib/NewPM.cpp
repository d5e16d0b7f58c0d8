//===- NewPM.cpp - amdgpu-lower's passes as new-PM passes ---------------------===//
//
// The pass classes of amdgpulower/Passes.def (declared in NewPM.h): each
// run() calls the pass function of its file unchanged, with the target and
// the warp policies of the shared PassState. addLoweringPipeline() adds the
// pipeline rows in their order; registerPasses() makes every row a name for
// `-passes=`.
//
//===----------------------------------------------------------------------===//
#include "amdgpulower/NewPM.h"

#include "Passes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Target/TargetMachine.h"

namespace amdgpulower {

struct PassState::Policies {
  PolicyMap map;
};

PassState::PassState(LowerOptions o) : opts(std::move(o)) {}
PassState::~PassState() { llvm::consumeError(std::move(error_)); }

void PassState::fail(llvm::Error e) {
  if (!e) return;
  failed_ = true;
  error_ = llvm::joinErrors(std::move(error_), std::move(e));
}

llvm::Error PassState::takeError() { return std::move(error_); }

namespace {
const TargetInfo *target(PassState &s) {
  const TargetInfo *t = findTarget(s.opts.arch);
  if (!t) s.fail(support::invalidInput(support::noLocf("unsupported offload arch '%s'", s.opts.arch.c_str())));
  return t;
}

// Whether every kernel of `map` is still a function of m (a pass of LLVM's
// run in between may have deleted one).
bool stillValid(const PolicyMap &map, llvm::Module &m) {
  llvm::SmallPtrSet<const llvm::Function *, 16> fs;
  for (llvm::Function &f : m) fs.insert(&f);
  for (const auto &[f, p] : map)
    if (!fs.contains(f)) return false;
  return true;
}

// The policies: those of the running pipeline; else, for a pass run alone,
// from the kernels' ptx2amd.warp-policy attributes once the ABI pass has
// run, else resolved from the options.
PolicyMap *policies(llvm::Module &m, const TargetInfo &t, PassState &s) {
  if (s.policies && stillValid(s.policies->map, m)) return &s.policies->map;
  PolicyMap map;
  bool fromAttributes = true;
  for (llvm::Function &f : m) {
    if (f.isDeclaration() || f.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL) continue;
    llvm::Attribute a = f.getFnAttribute(kAttrWarpPolicy);
    std::optional<WarpPolicy> p =
        a.isStringAttribute() ? support::parseWarpPolicyName(a.getValueAsString().str()) : std::nullopt;
    if (!p) {
      fromAttributes = false;
      break;
    }
    map[&f] = *p;
  }
  if (!fromAttributes) {
    auto r = resolveWarpPolicies(m, t, s.opts);
    if (!r) {
      s.fail(r.takeError());
      return nullptr;
    }
    map = std::move(*r);
  }
  s.policies = std::make_unique<PassState::Policies>();
  s.policies->map = std::move(map);
  return &s.policies->map;
}

// Runs f(target, policies) unless an earlier pass failed.
template <class F> llvm::PreservedAnalyses withPolicies(llvm::Module &m, PassState &s, F &&f) {
  if (s.failed()) return llvm::PreservedAnalyses::all();
  const TargetInfo *t = target(s);
  if (!t) return llvm::PreservedAnalyses::all();
  PolicyMap *p = policies(m, *t, s);
  if (!p) return llvm::PreservedAnalyses::all();
  return f(*t, *p);
}

std::string verifierMessage(llvm::Module &m, bool &broken) {
  std::string err;
  llvm::raw_string_ostream os(err);
  broken = llvm::verifyModule(m, &os);
  return err;
}
} // namespace

llvm::PreservedAnalyses CheckInputPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  if (state.failed()) return llvm::PreservedAnalyses::all();
  const LowerOptions &opts = state.opts;
  if (!target(state)) return llvm::PreservedAnalyses::all();
  if (opts.optLevel > 3) {
    state.fail(support::invalidInput(support::noLocf("optimisation level must be 0..3")));
    return llvm::PreservedAnalyses::all();
  }
  if (m.getTargetTriple().str() != "amdgcn-amd-amdhsa") {
    state.fail(support::contractViolation(support::noLocf(
        "amdgpu-lower expects an amdgcn-amd-amdhsa module, got '%s'", m.getTargetTriple().str().c_str())));
    return llvm::PreservedAnalyses::all();
  }
  if (opts.verifyInput) {
    bool broken;
    std::string err = verifierMessage(m, broken);
    if (broken) {
      state.fail(support::contractViolation(support::noLocf("internal error: invalid input module: %s", err.c_str())));
      return llvm::PreservedAnalyses::all();
    }
  }
  auto tm = createTargetMachine(opts.arch, opts.optLevel);
  if (!tm) {
    state.fail(tm.takeError());
    return llvm::PreservedAnalyses::all();
  }
  m.setDataLayout((*tm)->createDataLayout());
  return llvm::PreservedAnalyses::none();
}

llvm::PreservedAnalyses WarpSizeCheckPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  if (!state.opts.warnWarpSize) return llvm::PreservedAnalyses::all();
  return withPolicies(m, state, [&](const TargetInfo &, PolicyMap &p) {
    checkWarpSizeHazards(m, p, state.diags);
    return llvm::PreservedAnalyses::all();
  });
}

llvm::PreservedAnalyses DropSourcePositionsPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  if (state.failed()) return llvm::PreservedAnalyses::all();
  dropSourcePositions(m);
  return llvm::PreservedAnalyses::none();
}

llvm::PreservedAnalyses PromoteRegistersPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  if (state.failed() || state.opts.optLevel == 0) return llvm::PreservedAnalyses::all();
  return promoteRegisters(m) ? llvm::PreservedAnalyses::none() : llvm::PreservedAnalyses::all();
}

llvm::PreservedAnalyses KernelABIPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  return withPolicies(m, state, [&](const TargetInfo &t, PolicyMap &p) {
    state.fail(applyKernelABI(m, p, t, state.opts, state.diags));
    return llvm::PreservedAnalyses::none();
  });
}

llvm::PreservedAnalyses LinkDevlibPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  return withPolicies(m, state, [&](const TargetInfo &t, PolicyMap &p) {
    state.fail(linkDeviceLibrary(m, p, t));
    return llvm::PreservedAnalyses::none();
  });
}

llvm::PreservedAnalyses MonotonicCycleCounterPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  if (state.failed()) return llvm::PreservedAnalyses::all();
  const TargetInfo *t = target(state);
  if (!t) return llvm::PreservedAnalyses::all();
  useMonotonicCycleCounter(m, t->name);
  return llvm::PreservedAnalyses::none();
}

llvm::PreservedAnalyses VerifyLoweredPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  if (state.failed()) return llvm::PreservedAnalyses::all();
  bool broken;
  std::string err = verifierMessage(m, broken);
  if (broken)
    state.fail(
        support::internalError(support::noLocf("internal error: module invalid after lowering: %s", err.c_str())));
  return llvm::PreservedAnalyses::all();
}

llvm::PreservedAnalyses LowerPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  if (!state.failed()) state.fail(lowerModuleNoOpt(m, state.opts, state.diags));
  return llvm::PreservedAnalyses::none();
}

llvm::PreservedAnalyses DirectedRoundingPass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  if (state.failed()) return llvm::PreservedAnalyses::all();
  const TargetInfo *t = target(state);
  if (!t) return llvm::PreservedAnalyses::all();
  state.fail(lowerDirectedRounding(m, t->name));
  return llvm::PreservedAnalyses::none();
}

llvm::PreservedAnalyses OptimizePass::run(llvm::Module &m, llvm::ModuleAnalysisManager &) {
  if (!state.failed()) state.fail(optimizeModule(m, state.opts));
  return llvm::PreservedAnalyses::none();
}

void addLoweringPipeline(llvm::ModulePassManager &mpm, PassState &state) {
#define AMDGPULOWER_PIPELINE_PASS(NAME, CLASS) mpm.addPass(CLASS(state));
#include "amdgpulower/Passes.def"
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
  pb.registerPipelineParsingCallback(
      [](llvm::StringRef name, llvm::FunctionPassManager &fpm, llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
#define AMDGPULOWER_FUNCTION_PASS(NAME, CLASS)                                                         \
  if (name == NAME) {                                                                                  \
    fpm.addPass(CLASS());                                                                              \
    return true;                                                                                       \
  }
#include "amdgpulower/Passes.def"
        return false;
      });
}

} // namespace amdgpulower

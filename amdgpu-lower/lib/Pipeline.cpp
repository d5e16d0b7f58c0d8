//===- Pipeline.cpp - amdgpu-lower: the passes in order ----------------------===//
//
// lowerModuleNoOpt(): check the input contract (amdgcn-amd-amdhsa, valid IR),
// resolve warp policies, run -Wwarp-size, apply the kernel ABI, link the
// device library and re-verify. lowerModule() adds the optimisation
// pipeline: its result is what the emulator executes and what
// `ptx2amd --emit=llvm` prints.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/IR/Verifier.h"
#include "llvm/Target/TargetMachine.h"

#include <chrono>

namespace amdgpulower {

llvm::Error lowerModuleNoOpt(llvm::Module &m, const LowerOptions &opts,
                             std::vector<Diagnostic> &diags) {
  const TargetInfo *t = findTarget(opts.arch);
  if (!t) return support::invalidInput(support::noLocf("unsupported offload arch '%s'", opts.arch.c_str()));
  if (opts.optLevel > 3) return support::invalidInput(support::noLocf("optimisation level must be 0..3"));
  if (m.getTargetTriple().str() != "amdgcn-amd-amdhsa")
    return support::contractViolation(support::noLocf("amdgpu-lower expects an amdgcn-amd-amdhsa module, got '%s'",
                                   m.getTargetTriple().str().c_str()));
  {
    std::string err;
    llvm::raw_string_ostream os(err);
    if (llvm::verifyModule(m, &os))
      return support::contractViolation(support::noLocf("internal error: invalid input module: %s", err.c_str()));
  }
  auto tm = createTargetMachine(opts.arch, opts.optLevel);
  if (!tm) return tm.takeError();
  m.setDataLayout((*tm)->createDataLayout());

  auto policies = resolveWarpPolicies(m, *t, opts);
  if (!policies) return policies.takeError();
  if (opts.warnWarpSize) checkWarpSizeHazards(m, *policies, diags);
  dropSourcePositions(m);
  if (auto e = applyKernelABI(m, *policies, *t, opts, diags)) return e;
  if (auto e = linkDeviceLibrary(m, *policies, *t)) return e;
  useMonotonicCycleCounter(m, t->name);

  std::string err;
  llvm::raw_string_ostream os(err);
  if (llvm::verifyModule(m, &os))
    return support::internalError(support::noLocf("internal error: module invalid after lowering: %s", err.c_str()));
  return llvm::Error::success();
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

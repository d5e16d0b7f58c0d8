//===- Passes.h - amdgpu-lower internal pass entry points --------*- C++ -*-===//
//
// One function per pass/file; Pipeline.cpp runs them in order:
//   WarpPolicy.cpp    resolve each kernel's policy (native/pack/pad)
//   WarpSizeCheck.cpp -Wwarp-size: spin-wait loops in pack kernels
//   KernelABI.cpp     pad wrappers, barrier-state init, attributes, COV flag
//   Devlib.cpp        link the device-library variant(s), cloning for mixed policies
//   Optimize.cpp      the LLVM optimisation pipeline (+ RelaxNaNCanonicalization.cpp)
//   Codegen.cpp       TargetMachine, instruction selection, per-kernel split
//   LinkCodeObject.cpp / OffloadBundle.cpp
//
//===----------------------------------------------------------------------===//
#pragma once

#include "amdgpulower/Lower.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

#include <map>

namespace amdgpulower {

// Kernel (amdgpu_kernel function) -> policy.
using PolicyMap = std::map<const llvm::Function *, WarpPolicy>;

llvm::Expected<PolicyMap> resolveWarpPolicies(llvm::Module &m, const TargetInfo &t,
                                              const LowerOptions &opts);

void checkWarpSizeHazards(llvm::Module &m, const PolicyMap &policies,
                          std::vector<Diagnostic> &diags);
// Drops the translator's `!ptx.loc` source positions (used only by the
// diagnostics above) so the optimizer and codegen do not carry them.
void dropSourcePositions(llvm::Module &m);

// Pad wrappers replace kernels: the map is updated to the new functions.
llvm::Error applyKernelABI(llvm::Module &m, PolicyMap &policies, const TargetInfo &t,
                           const LowerOptions &opts, std::vector<Diagnostic> &diags);

llvm::Error linkDeviceLibrary(llvm::Module &m, const PolicyMap &policies, const TargetInfo &t);

// Drops ptx-to-llvm's canonical-NaN selects (tagged !ptx2amd.canon) whose
// result's NaN bits never escape (RelaxNaNCanonicalization.cpp); runs in the
// optimisation pipeline. stripNaNCanonicalTags removes the tags afterwards.
bool relaxNaNCanonicalization(llvm::Function &f);
struct RelaxNaNCanonicalizationPass : llvm::PassInfoMixin<RelaxNaNCanonicalizationPass> {
  llvm::PreservedAnalyses run(llvm::Function &f, llvm::FunctionAnalysisManager &);
};
void stripNaNCanonicalTags(llvm::Module &m);

// Merges the per-part NT_AMDGPU_METADATA notes of a linked code object into one.
llvm::Error mergeMetadataNotes(std::vector<char> &elf);

// Attribute names shared by the passes.
inline constexpr const char *kAttrWaveSize = "ptx2amd.wave-size";
inline constexpr const char *kAttrWarpPolicy = "ptx2amd.warp-policy";
// Set by ptx-to-llvm from the PTX performance directives ("x,y,z" / "n").
inline constexpr const char *kAttrMaxntid = "ptx.maxntid";
inline constexpr const char *kAttrReqntid = "ptx.reqntid";
inline constexpr const char *kAttrMinnctapersm = "ptx.minnctapersm";

// True for the device-library interface (`__ptx_*`) and its internals (`__ptx2amd_*`).
bool isDevlibName(llvm::StringRef name);

} // namespace amdgpulower

namespace amdgpulower {
// Defined functions reachable from `root` through direct calls (and, for any
// indirect call, every address-taken function), including root.
llvm::SmallPtrSet<llvm::Function *, 16> reachableFunctions(llvm::Function *root);
} // namespace amdgpulower

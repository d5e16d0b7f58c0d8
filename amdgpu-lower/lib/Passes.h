//===- Passes.h - amdgpu-lower internal pass entry points --------*- C++ -*-===//
//
// One function per pass/file; the new-PM wrappers of NewPM.cpp run them in
// the order of amdgpulower/Passes.def:
//   WarpPolicy.cpp    resolve each kernel's policy (native/pack/pad)
//   WarpSizeCheck.cpp -Wwarp-size: spin-wait loops in pack kernels
//   PromoteRegisters.cpp  -O1..-O3: the registers' allocas -> SSA values
//   KernelABI.cpp     pad wrappers, barrier-state init, attributes, COV flag
//   Devlib.cpp        link the device-library variant(s), cloning for mixed policies
//   Optimize.cpp      the LLVM optimisation pipeline (+ RelaxNaNCanonicalization.cpp)
//   Codegen.cpp       TargetMachine, instruction selection, per-kernel split
//   DirectedRounding.cpp  constrained FP ops with a static directed rounding
//                     -> MODE-register islands, right before selection
//   Exp2FlushToZero.cpp   ex2.approx.ftz's exp2 -> v_exp_f32, right before selection
//   FoldNaNFreeChecks.cpp NaN tests of values that cannot be NaN, right before selection
//   SelectMinMax.cpp      compare-selects of a never-NaN value and a constant -> minnum/maxnum
//   LinkCodeObject.cpp / OffloadBundle.cpp
//
//===----------------------------------------------------------------------===//
#pragma once

#include "amdgpulower/Lower.h"
#include "amdgpulower/NewPM.h"
#include "support/Error.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/AMDGPUAddrSpace.h"
#include "llvm/IR/PassManager.h"


namespace amdgpulower {

// Kernel (amdgpu_kernel function) -> policy, iterated in module order. The
// order matters: passes create functions (pad wrappers, pad clones) while
// iterating, and an order keyed by Function* addresses would make the
// module's function order -- and so the code object's bytes -- depend on the
// heap (the same input gave different bytes after earlier translations).
using PolicyMap = llvm::MapVector<const llvm::Function *, WarpPolicy>;

llvm::Expected<PolicyMap> resolveWarpPolicies(llvm::Module &m, const TargetInfo &t,
                                              const LowerOptions &opts);

void checkWarpSizeHazards(llvm::Module &m, const PolicyMap &policies,
                          std::vector<Diagnostic> &diags);
// Drops the translator's `!ptx.loc` source positions (used only by the
// diagnostics above) so the optimizer and codegen do not carry them.
void dropSourcePositions(llvm::Module &m);

// Promotes every promotable entry-block alloca of every defined function to
// SSA values (PromoteRegisters.cpp); returns how many.
unsigned promoteRegisters(llvm::Module &m);

// Pad wrappers replace kernels: the map is updated to the new functions.
llvm::Error applyKernelABI(llvm::Module &m, PolicyMap &policies, const TargetInfo &t,
                           const LowerOptions &opts, std::vector<Diagnostic> &diags);

llvm::Error linkDeviceLibrary(llvm::Module &m, const PolicyMap &policies, const TargetInfo &t);
// gfx11: %clock64 from the 64-bit REALTIME counter instead of the 20-bit SHADER_CYCLES (CycleCounter.cpp).
void useMonotonicCycleCounter(llvm::Module &m, std::string_view arch);

// Drops ptx-to-llvm's canonical-NaN selects (tagged !ptx2amd.canon) whose
// result's NaN bits never escape (RelaxNaNCanonicalization.cpp); runs in the
// optimisation pipeline. stripNaNCanonicalTags removes the tags afterwards.
// (RelaxNaNCanonicalizationPass, the new-PM form, is a row of Passes.def.)
bool relaxNaNCanonicalization(llvm::Function &f);
void stripNaNCanonicalTags(llvm::Module &m);

// The -O3 middle-end pipeline text (new-PM syntax) for nvcc PTX: default<O3>
// without the passes that gain nothing after nvcc (PostNvccPipeline.cpp).
llvm::StringRef postNvccPipelineO3();

// fcmp uno/ord of operands that cannot be NaN (ValueTracking, and constrained
// add/sub/mul/fma of finite operands) -> false/true (FoldNaNFreeChecks.cpp;
// before instruction selection, ahead of lowerDirectedRounding).
bool foldNaNFreeChecks(llvm::Function &f);
void foldNaNFreeChecks(llvm::Module &m);
// select(a > K, K, a) and its mirrors -> minnum/maxnum(a, K) when a is never NaN
// and K a non-zero, non-NaN constant (SelectMinMax.cpp; before selection, after
// foldNaNFreeChecks, ahead of lowerDirectedRounding).
bool selectMinMax(llvm::Function &f);
void selectMinMax(llvm::Module &m);

// Replaces every constrained FP intrinsic whose static rounding is .rz/.rm/.rp
// by one inline-asm island that sets the MODE register's rounding fields,
// runs the single instruction and restores round-to-nearest-even
// (DirectedRounding.cpp). Runs after the optimisation pipeline (emu executes
// the constrained form), immediately before instruction selection for `cpu`.
// A directed constrained operation without a single-instruction lowering is
// an error naming it.
llvm::Error lowerDirectedRounding(llvm::Module &m, llvm::StringRef cpu);
// exp2 afn whose every use flushes its subnormal results (ex2.approx.ftz.f32)
// -> llvm.amdgcn.exp2 + one compare (Exp2FlushToZero.cpp; before instruction selection).
bool lowerFlushedExp2(llvm::Function &f);
void lowerFlushedExp2(llvm::Module &m);
// 64-bit udiv/sdiv/urem/srem by a non-constant divisor -> calls of one
// noinline subroutine per opcode (OutlineDivision64.cpp; before instruction selection).
void outlineDivision64(llvm::Module &m);
// Calls whose constant target is a global variable (not a function) ->
// llvm.trap (TrapCallsOfData.cpp; before instruction selection, which
// crashes on them). Returns how many were replaced.
unsigned trapCallsOfData(llvm::Module &m);

// Merges the per-part NT_AMDGPU_METADATA notes of a linked code object into one.
llvm::Error mergeMetadataNotes(std::vector<char> &elf);

// Attribute names shared by the passes (support/Contract.h).
inline constexpr const char *kAttrWaveSize = support::attr::kWaveSize;
inline constexpr const char *kAttrWarpPolicy = support::attr::kWarpPolicy;
inline constexpr const char *kAttrMaxntid = support::attr::kMaxntid;
inline constexpr const char *kAttrReqntid = support::attr::kReqntid;
inline constexpr const char *kAttrMinnctapersm = support::attr::kMinnctapersm;

// True for the device-library interface (`__ptx_*`) and its internals (`__ptx2amd_*`).
bool isDevlibName(llvm::StringRef name);

} // namespace amdgpulower

namespace amdgpulower {
// Defined functions reachable from `root` through direct calls (and, for any
// indirect call, every address-taken function), including root, in discovery
// order (deterministic: callers clone functions in this order).
using FunctionSet = llvm::SmallSetVector<llvm::Function *, 16>;
FunctionSet reachableFunctions(llvm::Function *root);
} // namespace amdgpulower

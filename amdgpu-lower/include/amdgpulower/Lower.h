//===- amdgpulower/Lower.h - PTX-derived LLVM IR -> AMDGPU code objects -*- C++ -*-===//
//
// Public interface of the amdgpu-lower stage. Input: the module ptx-to-llvm
// produced (docs/pipeline.md, "Contract: ptx-to-llvm output"). lowerModule()
// chooses each kernel's warp policy, links the matching device-library
// variant, applies the kernel ABI (attributes, pad wrapper, code object
// version) and runs the optimisation pipeline; the result is the module the
// emulator executes. compileCodeObject() then splits it per kernel, runs
// instruction selection in parallel threads and links the objects with the
// in-process lld into one ET_DYN code object; writeOffloadBundle() packs
// several of them into a __CLANG_OFFLOAD_BUNDLE__.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Contract.h"
#include "support/Diagnostic.h"
#include "support/StageTimer.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace amdgpulower {

// ---- Vocabulary (support/) ------------------------------------------------------
// Targets, warp policies, diagnostics and stage times are the project-wide
// types of support/Contract.h, support/Diagnostic.h and support/StageTimer.h.
using support::TargetInfo;
using support::supportedTargets;
using support::findTarget;
using support::WarpPolicy;
using support::warpPolicyName;
using support::Severity;
using support::Diagnostic;
using support::StageTime;
// "file:line:col: warning: msg" (support::render without the newline / excerpt).
inline std::string renderDiagnostic(const Diagnostic &d) {
  std::string s = support::render(d);
  s.pop_back();
  return s;
}

// ---- Options ------------------------------------------------------------------
enum class OutputKind : uint8_t { LLVMIR, Assembly, Object, CodeObject };

struct LowerOptions {
  std::string arch{support::kDefaultTarget};
  unsigned optLevel = 3;                       // 0..3
  WarpPolicy defaultPolicy = WarpPolicy::Pack; // for wave64 targets (Pack or Pad)
  std::map<std::string, WarpPolicy> kernelPolicy; // per kernel (mangled name)
  unsigned codeObjectVersion = 5;              // 4, 5 or 6 (generic targets force 6)
  bool warnWarpSize = false;                   // -Wwarp-size
  unsigned threads = 0;                        // codegen threads; 0 = hardware concurrency
  // Whether ptx2amd-check-input runs llvm::verifyModule on the input. A
  // producer that has just verified the module clears it, so it is not
  // verified twice (ptxjit, for one PTX unit: ptx2llvm::translate verifies and
  // places a failure at the PTX instruction that produced it; on the CUB
  // corpus module each verification of the unoptimised IR cost ~2 % of the
  // whole compilation). The lowered module is verified regardless.
  bool verifyInput = true;
};

// Lowering up to (and including) the optimisation pipeline; on return `m` is
// what instruction selection (and the emulator) receives. Diagnostics
// (warnings of -Wwarp-size, ABI errors) are appended to `diags`.
llvm::Error lowerModule(llvm::Module &m, const LowerOptions &opts,
                        std::vector<Diagnostic> &diags,
                        std::vector<StageTime> *times = nullptr);

// Same as lowerModule() without the optimisation pipeline (used when the
// optimisation runs per kernel in compileCodeObject()).
llvm::Error lowerModuleNoOpt(llvm::Module &m, const LowerOptions &opts,
                             std::vector<Diagnostic> &diags);
llvm::Error optimizeModule(llvm::Module &m, const LowerOptions &opts);

// A TargetMachine for `arch` (amdgcn-amd-amdhsa, the opt level's codegen level).
llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createTargetMachine(std::string_view arch,
                                                                         unsigned optLevel);

// Instruction selection of an already lowered module: ELF relocatable object
// or assembly text.
llvm::Expected<std::vector<char>> emitMachineCode(llvm::Module &m, llvm::TargetMachine &tm,
                                                  bool assembly);

// Links relocatable objects into one loadable code object (ET_DYN) with the
// in-process lld (`ld.lld -shared`).
llvm::Expected<std::vector<char>> linkCodeObject(llvm::ArrayRef<std::vector<char>> objects);

// The whole back half for one target: lowerModuleNoOpt, split per kernel
// (into a number of parts fixed by the module, whatever opts.threads, so the
// bytes never depend on the thread count), optimisation + codegen of the
// parts in parallel threads, lld. `m` is consumed. kind: Object and
// Assembly are one unsplit part (a relocatable, a coherent .s file).
// `context`, when the caller hands it over, is m's own context: it is
// destroyed together with m right after the split, so its uniqued constants,
// types and metadata (36 MB for the 1.4 MB CUB bench module) are not resident
// while the parts are compiled, each in a context of its own.
llvm::Expected<std::vector<char>> compileModule(std::unique_ptr<llvm::Module> m,
                                                const LowerOptions &opts, OutputKind kind,
                                                std::vector<Diagnostic> &diags,
                                                std::vector<StageTime> *times = nullptr,
                                                std::unique_ptr<llvm::LLVMContext> context = nullptr);

// ---- Offload bundles -----------------------------------------------------------
struct BundleEntry {
  std::string id;            // "hipv4-amdgcn-amd-amdhsa--gfx90a"
  std::vector<char> payload; // code object (may be empty for the host entry)
};
// Bundle id of a code object for `arch`: hipv4-amdgcn-amd-amdhsa--<arch>.
std::string bundleEntryId(std::string_view arch);
// Writes the uncompressed bundle format (entries 4096-aligned, a leading
// empty `host-x86_64-unknown-linux-gnu` entry as clang emits).
std::vector<char> writeOffloadBundle(llvm::ArrayRef<BundleEntry> entries);
// Same, with `hostPayload` as the host entry's contents (ptx2amd-fatbin puts
// its manifest there, runtime/BundleLookup.h; loaders ignore host entries).
std::vector<char> writeOffloadBundle(llvm::ArrayRef<BundleEntry> entries, std::vector<char> hostPayload);

} // namespace amdgpulower

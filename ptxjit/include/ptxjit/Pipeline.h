//===- ptxjit/Pipeline.h - the one pipeline driver: PTX -> loadable products -*- C++ -*-===//
//
// parse -> translate -> (link -rdc units) -> (pin host-visible globals) -> lower -> emulator
// module and/or code object, for one target and warp-policy set. Every client
// (the runtime core for cudart-shim and the driver API, the CLI, the benches)
// calls this; no client edits IR itself. Per-kernel images (a module whose
// kernels together declare more static LDS than a work-group may hold) are
// made by extractKernel() from the lowered module.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "amdgpulower/Lower.h"
#include "ptxjit/Link.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ptxjit {

struct PipelineOptions {
  std::string arch{support::kDefaultTarget};
  amdgpulower::WarpPolicy defaultPolicy = amdgpulower::WarpPolicy::Pack;
  // Per-kernel policies; names the module does not define are ignored.
  std::map<std::string, amdgpulower::WarpPolicy> kernelPolicy;
  unsigned optLevel = 3;
  unsigned threads = 0; // codegen threads (0 = all)
  // Module-scope variables the host accesses by name (CUDA's registered
  // variables; internal in non-rdc PTX): given external linkage and made
  // non-constant before optimisation, so they survive under their names and
  // loads are never folded into their initialisers.
  std::vector<std::string> pinGlobals;
  bool emitLowered = true;     // the module the emulator runs
  bool emitCodeObject = false; // an ET_DYN code object (for hardware / isa emulation)
  unsigned codeObjectVersion = 5; // AMDGPU code object version (4, 5 or 6)
};

struct PipelineResult {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> lowered; // when emitLowered
  std::vector<uint8_t> codeObject;       // when emitCodeObject
  std::vector<amdgpulower::Diagnostic> diags;
  std::vector<std::string> kernels;      // defined kernels, in module order
};

// Fails with the stages' typed errors (support/Error.h: one payload per
// problem, each with its ErrorKind and position), so callers decide by kind
// (support::errorKind / hasKind) and render with support::renderLines.
llvm::Expected<PipelineResult> compilePTX(std::string_view ptx, std::string_view sourceName,
                                          const PipelineOptions &opts);
// Several separately compiled (-rdc) modules, linked after translation
// (Link.h), then pinned and lowered as one; one unit = compilePTX.
llvm::Expected<PipelineResult> compilePTXUnits(llvm::ArrayRef<PTXUnit> units, const PipelineOptions &opts);

// Bytes of static LDS of all addrspace(3) globals of M.
uint64_t staticLdsBytes(const llvm::Module &M);
// Whether one image per kernel would duplicate no mutable kernel-visible
// state (every addrspace(1) variable constant or an empty object, and no
// host-mutable variable listed); otherwise `why` says what forbids it.
bool canSplitPerKernel(const llvm::Module &M, llvm::ArrayRef<std::string> hostMutable, std::string &why);
// Static LDS of the addrspace(3) globals kernel `kernel` references (transitively).
uint64_t kernelStaticLdsBytes(const llvm::Module &M, llvm::StringRef kernel);
// Whether the kernel's call graph has recursion or indirect calls (its stack
// size is not known statically: it gets the per-thread stack limit).
bool kernelNeedsDynamicStack(const llvm::Module &M, llvm::StringRef kernel);
// A copy of M holding only kernel `kernel` and what it references
// (transitively), in a fresh module of the same context.
std::unique_ptr<llvm::Module> extractKernel(const llvm::Module &M, llvm::StringRef kernel);

} // namespace ptxjit

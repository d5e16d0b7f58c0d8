//===- ptxjit/Link.h - separately compiled PTX modules -> one module -*- C++ -*-===//
//
// nvcc -rdc=true / -dc emits one relocatable PTX module per translation unit;
// they call each other's `.visible .func`s through `.extern .func`
// prototypes and share `.visible`/`.extern`/`.weak`/`.common` variables.
// CUDA's device linker (nvlink, or the driver's JIT linker for PTX) resolves
// them; here every unit is parsed and translated on its own and the LLVM
// modules are linked (llvm::Linker) before lowering, so the one pipeline
// (Pipeline.h) sees a single module. Resolution follows the PTX ISA
// ("Linking Directives"): one strong definition per name (a second is an
// error naming both locations), `.weak` definitions yield to a strong one
// (else the first is kept), `.common` variables merge to the largest, and a
// `.extern` name that no unit defines is an error at its declaration if
// still referenced after linking. After linking, definitions other than
// kernels are internal (the image is final; host-visible variables are
// re-exported by the pipeline's pinning) and uncalled functions are dropped
// (libcudadevrt's module, in every -rdc program, calls driver services).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ptxjit/Lowering.h"

#include "llvm/ADT/ArrayRef.h"

#include <string_view>

namespace ptxjit {

struct PTXUnit {
  std::string_view text;
  std::string_view name; // file name used in diagnostics
};

// One unit: translate(). Several: each translated, then linked as above.
// Diagnostics carry the file name of the unit they concern.
llvm::Expected<std::unique_ptr<llvm::Module>>
translateUnits(llvm::ArrayRef<PTXUnit> units, InputKind kind, llvm::LLVMContext &ctx,
               std::vector<amdgpulower::Diagnostic> &diags, std::vector<amdgpulower::StageTime> *times = nullptr);

} // namespace ptxjit

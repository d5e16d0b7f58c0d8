//===- ptx2llvm/Translate.h - PTX IR -> LLVM IR (amdgcn-amd-amdhsa) -*- C++ -*-===//
//
// Public entry point of the ptx-to-llvm stage. Translates a typed PTX module
// (ptx/IR.h) into an LLVM module for the amdgcn-amd-amdhsa triple that is
// independent of the wave size: everything that depends on the wave size or
// warp policy is a call to a `__ptx_*` device-library function declared in
// amdgpu-lower/devlib/ptx_devlib.h (only declared here; amdgpu-lower links the
// definitions). See docs/pipeline.md, "Contract: ptx-to-llvm output".
//
// Errors: every problem of the whole module is reported (not just the first)
// in one llvm::Error, an llvm::ErrorList of typed errors (support/Error.h):
// support::UnsupportedError (stage "ptx-to-llvm", the construct, e.g. the
// instruction spelling) or support::InvalidInputError, each carrying its
// diagnostic `file:line:col: error: unsupported instruction 'X' (in function 'f')`.
// Consumers read them with support::takeDiagnostics / errorKind.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ptx/IR.h"
#include "support/Diagnostic.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace ptx2llvm {

struct Options {
  // File name used in diagnostics and as the LLVM module's source file name.
  // Empty: use ptx::Module::sourceName.
  std::string sourceName;
  // Run llvm::verifyModule on the result and fail with its report if broken.
  bool verify = true;
  // Partial translation: when set, a function whose body has unsupported
  // constructs becomes an external declaration, its errors are appended here,
  // and translate() succeeds with the rest of the module (errors outside
  // function bodies still fail). When null, any error fails the whole module.
  std::vector<support::Diagnostic> *partialErrors = nullptr;
  // With partialErrors: the names of the functions that became declarations.
  std::vector<std::string> *failedFunctions = nullptr;
};

llvm::Expected<std::unique_ptr<llvm::Module>>
translate(const ptx::Module &module, llvm::LLVMContext &ctx, const Options &opts);

// Data layout string of amdgcn-amd-amdhsa used for the output modules.
const char *amdgpuDataLayout();

} // namespace ptx2llvm

//===- BackendDiagnostics.h - LLVM backend diagnostics with PTX positions -===//
//
// Without a handler, LLVMContext prints backend errors as
// "error: <unknown>:0:0: ..." and calls exit(1) - which would end the user's
// program inside cudart-shim. BackendDiagnostics installs a callback on one
// codegen context that keeps every error and warning instead, positioned at
// the PTX directive of the function it concerns (the translator's
// `"ptx.loc"="line:col"` function attribute) and rendered as
// "file:line:col: error: message" like every other diagnostic.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "amdgpulower/Lower.h"

#include "llvm/IR/LLVMContext.h"

#include <string>
#include <vector>

namespace amdgpulower {

class BackendDiagnostics {
public:
  /// File names the module's source (the PTX file) for functions without a
  /// position and for module-level errors.
  BackendDiagnostics(llvm::LLVMContext &ctx, std::string file);
  bool hasErrors() const { return errors_ != 0; }
  /// The errors as typed llvm::Errors (internal errors of the backend, each
  /// carrying its positioned diagnostic); success when there are none.
  llvm::Error takeErrors() const;
  const std::vector<Diagnostic> &all() const { return diags_; }

private:
  static void callback(const llvm::DiagnosticInfo *di, void *self);
  std::string file_;
  std::vector<Diagnostic> diags_;
  unsigned errors_ = 0;
};

/// Calls to functions that stay undefined after the device library is linked
/// (an `.extern .func` without a definition: -rdc linking is not done) would
/// only fail in lld as "undefined symbol" with no position; this reports them
/// at their PTX declaration instead. Returns success when there are none.
llvm::Error checkUndefinedFunctions(const llvm::Module &m);

} // namespace amdgpulower

//===- BackendDiagnostics.cpp - keep and position LLVM backend diagnostics -===//
//
// The diagnostic's function (resource limits and stack size, unsupported
// operations, instruction-level errors such as "unsupported atomic store")
// comes from DiagnosticInfoResourceLimit / Unsupported / Generic / InlineAsm;
// its PTX position from the function's "ptx.loc" attribute. MC-layer errors
// (DiagnosticInfoSrcMgr, e.g. "invalid number of bytes") have no function and
// are reported against the file. Remarks are dropped.
//
//===----------------------------------------------------------------------===//
#include "BackendDiagnostics.h"

#include "support/Contract.h"
#include "support/Error.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

namespace amdgpulower {

BackendDiagnostics::BackendDiagnostics(llvm::LLVMContext &ctx, std::string file) : file_(std::move(file)) {
  ctx.setDiagnosticHandlerCallBack(&BackendDiagnostics::callback, this, /*RespectFilters=*/true);
}

void BackendDiagnostics::callback(const llvm::DiagnosticInfo *dip, void *p) {
  const llvm::DiagnosticInfo &di = *dip;
  auto *self = static_cast<BackendDiagnostics *>(p);
  if (di.getSeverity() != llvm::DS_Error && di.getSeverity() != llvm::DS_Warning) return;
  Diagnostic d;
  d.severity = di.getSeverity() == llvm::DS_Error ? Severity::Error : Severity::Warning;
  d.file = self->file_;
  std::string msg;
  llvm::raw_string_ostream os(msg);
  llvm::DiagnosticPrinterRawOStream dp(os);
  const llvm::Function *fn = nullptr;
  // Their print() starts with "<unknown>:0:0: " when there is no debug
  // location; we print the message only and put the position ourselves.
  if (auto *rl = llvm::dyn_cast<llvm::DiagnosticInfoResourceLimit>(&di)) {
    d.kind = support::ErrorKind::ResourceLimit; // the program asks for more than the target has
    fn = &rl->getFunction();
    os << rl->getResourceName() << " (" << rl->getResourceSize() << ") exceeds limit (" << rl->getResourceLimit()
       << ") in function '" << fn->getName() << "'";
  } else if (auto *un = llvm::dyn_cast<llvm::DiagnosticInfoUnsupported>(&di)) {
    fn = &un->getFunction();
    os << un->getMessage() << " (in function '" << fn->getName() << "')";
  } else if (auto *g = llvm::dyn_cast<llvm::DiagnosticInfoGeneric>(&di)) {
    const llvm::Instruction *in = g->getInstruction();
    fn = in ? in->getFunction() : nullptr;
    os << g->getMsgStr();
    if (fn) os << " (in function '" << fn->getName() << "')";
  } else if (auto *ia = llvm::dyn_cast<llvm::DiagnosticInfoInlineAsm>(&di)) {
    const llvm::Instruction *in = ia->getInstruction();
    fn = in ? in->getFunction() : nullptr;
    os << ia->getMsgStr();
    if (fn) os << " (in function '" << fn->getName() << "')";
  } else {
    di.print(dp);
  }
  if (fn) {
    llvm::StringRef pos = fn->getFnAttribute(support::attr::kLoc).getValueAsString();
    auto [l, c] = pos.split(':');
    l.getAsInteger(10, d.line);
    c.getAsInteger(10, d.col);
  }
  d.message = std::move(msg);
  self->errors_ += d.severity == Severity::Error;
  self->diags_.push_back(std::move(d));
}

llvm::Error BackendDiagnostics::takeErrors() const {
  std::vector<llvm::Error> errs;
  for (const Diagnostic &d : diags_)
    if (d.severity == Severity::Error)
      errs.push_back(d.kind == support::ErrorKind::ResourceLimit ? support::resourceLimit(d) : support::internalError(d));
  return support::joinAll(std::move(errs));
}

llvm::Error checkUndefinedFunctions(const llvm::Module &m) {
  std::vector<llvm::Error> errs;
  for (const llvm::Function &f : m) {
    if (!f.isDeclaration() || f.isIntrinsic() || f.use_empty()) continue;
    Diagnostic d;
    d.file = m.getSourceFileName();
    auto [l, c] = f.getFnAttribute(support::attr::kLoc).getValueAsString().split(':');
    l.getAsInteger(10, d.line);
    c.getAsInteger(10, d.col);
    d.message = "function '" + f.getName().str() +
                "' is declared but not defined in this module (and no module linked with it defines it: "
                "separately compiled PTX links when all its modules are given together)";
    // Separately compiled PTX links (ptx2amd with several inputs, the runtimes' linked
    // registrations), so a function no given module defines is an error of the input.
    errs.push_back(support::invalidInput(std::move(d)));
  }
  return support::joinAll(std::move(errs));
}

} // namespace amdgpulower

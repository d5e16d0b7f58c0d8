//===- FrontHalf.cpp - PTX text -> translated/lowered llvm::Module ----------===//
//
// ptx::parse (parseUnit) -> ptx2llvm::translate (translateParsed) (or LLVM IR text, for the lowering's own
// tests) and the lowered-module C++ entry used by the emulator. Every stage
// reports support::Diagnostic (the translator's typed errors are flattened
// with support::appendDiagnostics), so one structured list flows to the C
// API; the returned Error is typed too (its kind decides ptxjit's status).
//
//===----------------------------------------------------------------------===//
#include "ptxjit/Lowering.h"
#include "FrontHalf.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/Support/SourceMgr.h"

#include "ptx/Parser.h"
#include "ptx2llvm/Translate.h"
#include "support/Error.h"

namespace ptxjit {

using amdgpulower::Diagnostic;
using amdgpulower::Severity;

llvm::Expected<std::unique_ptr<llvm::Module>>
translate(std::string_view text, std::string_view sourceName, InputKind kind, llvm::LLVMContext &ctx,
          std::vector<Diagnostic> &diags, std::vector<amdgpulower::StageTime> *times) {
  if (kind == InputKind::LLVMIR) {
    llvm::SMDiagnostic err;
    auto buf = llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(text.data(), text.size()),
                                                llvm::StringRef(sourceName.data(), sourceName.size()), false);
    auto m = llvm::parseAssembly(buf->getMemBufferRef(), err, ctx);
    if (!m) {
      diags.push_back({Severity::Error, std::string(sourceName), unsigned(std::max(0, err.getLineNo())),
                       unsigned(std::max(0, err.getColumnNo() + 1)), err.getMessage().str(),
                       support::ErrorKind::InvalidInput});
      return support::invalidInput(support::noLoc("invalid LLVM IR input"));
    }
    return m;
  }
  auto pr = parseUnit(text, sourceName, diags, times);
  if (!pr) return pr.takeError();
  return translateParsed(*pr->module, sourceName, ctx, diags, times);
}

llvm::Expected<ptx::ParseResult> parseUnit(std::string_view text, std::string_view sourceName,
                                           std::vector<Diagnostic> &diags, std::vector<amdgpulower::StageTime> *times) {
  support::StageTimer parseTime(times, "parse");
  ptx::ParseResult pr = ptx::parse(text, sourceName);
  for (Diagnostic d : pr.diags.all()) {
    d.file = std::string(sourceName);
    diags.push_back(std::move(d));
  }
  parseTime.stop();
  if (!pr.ok() || !pr.module) return support::invalidInput(support::noLoc("PTX parse errors"));
  return pr;
}

llvm::Expected<std::unique_ptr<llvm::Module>> translateParsed(const ptx::Module &pm, std::string_view sourceName,
                                                              llvm::LLVMContext &ctx, std::vector<Diagnostic> &diags,
                                                              std::vector<amdgpulower::StageTime> *times) {
  support::StageTimer translateTime(times, "translate");
  ptx2llvm::Options to;
  to.sourceName = std::string(sourceName);
  auto m = ptx2llvm::translate(pm, ctx, to);
  translateTime.stop();
  if (!m) {
    llvm::Error e = m.takeError();
    support::ErrorKind k = support::errorKind(e);
    support::appendDiagnostics(std::move(e), diags, sourceName);
    support::Diagnostic summary = support::noLoc("PTX translation errors");
    summary.kind = k;
    return llvm::make_error<support::DiagError>(std::move(summary));
  }
  return m;
}

llvm::Expected<std::unique_ptr<llvm::Module>>
lowerPTX(std::string_view text, std::string_view sourceName, llvm::LLVMContext &ctx,
         const amdgpulower::LowerOptions &opts, std::vector<Diagnostic> &diags, InputKind kind) {
  auto m = translate(text, sourceName, kind, ctx, diags);
  if (!m) return m.takeError();
  if (auto e = amdgpulower::lowerModule(**m, opts, diags)) return e;
  return m;
}

} // namespace ptxjit

//===- FrontHalf.cpp - PTX text -> translated/lowered llvm::Module ----------===//
//
// ptx::parse (parseUnit) -> ptx2llvm::translate (translateParsed) (or LLVM IR text, for the lowering's own
// tests) and the lowered-module C++ entry used by the emulator. Every stage
// reports support::Diagnostic; a failure returns every error typed as well
// (the parser's diagnostics as DiagErrors of their kinds, the translator's
// own UnsupportedError / InvalidInputError list unchanged), so a consumer
// either prints the diagnostics or decides on the Error's kinds, and the
// pipeline driver passes the Error on as it is.
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
      support::Diagnostic d = support::at(std::string(sourceName), unsigned(std::max(0, err.getLineNo())),
                                          unsigned(std::max(0, err.getColumnNo() + 1)), err.getMessage().str());
      d.kind = support::ErrorKind::InvalidInput;
      diags.push_back(d);
      return support::invalidInput(std::move(d), "LLVM IR");
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
  const size_t first = diags.size();
  for (Diagnostic d : pr.diags.all()) {
    d.file = std::string(sourceName);
    diags.push_back(std::move(d));
  }
  parseTime.stop();
  if (!pr.ok() || !pr.module) {
    llvm::Error e = support::errorOf(std::span<const Diagnostic>(diags).subspan(first));
    if (!e) e = support::internalError(support::at(std::string(sourceName), 0, 0, "the PTX parser failed without an error"));
    return std::move(e);
  }
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
    support::copyDiagnostics(e, diags, sourceName);
    return std::move(e);
  }
  return m;
}

llvm::Expected<std::unique_ptr<llvm::Module>>
lowerPTX(std::string_view text, std::string_view sourceName, llvm::LLVMContext &ctx,
         const amdgpulower::LowerOptions &opts, std::vector<Diagnostic> &diags, InputKind kind) {
  auto m = translate(text, sourceName, kind, ctx, diags);
  if (!m) return m.takeError();
  if (llvm::Error e = amdgpulower::lowerModule(**m, opts, diags)) {
    support::copyDiagnostics(e, diags, sourceName);
    return std::move(e);
  }
  return m;
}

} // namespace ptxjit

//===- FrontHalf.cpp - PTX text -> translated/lowered llvm::Module ----------===//
//
// ptx::parse -> ptx2llvm::translate (or LLVM IR text, for the lowering's own
// tests) and the lowered-module C++ entry used by the emulator. Front-end
// diagnostics are converted to amdgpulower::Diagnostic so one structured
// list flows to the C API. Built without the PTX front end (the parser or
// translator library missing), PTX input is an explicit error.
//
//===----------------------------------------------------------------------===//
#include "ptxjit/Lowering.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>

#if PTXJIT_HAVE_TRANSLATOR
#include "ptx/Parser.h"
#include "ptx2llvm/Translate.h"
#endif

namespace ptxjit {

using amdgpulower::Diagnostic;
using amdgpulower::Severity;

void appendErrorDiagnostics(const std::string &text, std::vector<Diagnostic> &diags) {
  llvm::SmallVector<llvm::StringRef, 8> lines;
  llvm::StringRef(text).split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines) {
    Diagnostic d;
    d.severity = Severity::Error;
    // file:line:col: severity: message  (file may contain ':' only before line)
    static constexpr std::pair<const char *, Severity> kinds[] = {
        {": error: ", Severity::Error}, {": warning: ", Severity::Warning}, {": note: ", Severity::Note}};
    bool parsed = false;
    for (auto [tag, sev] : kinds) {
      size_t at = line.find(tag);
      if (at == llvm::StringRef::npos) continue;
      llvm::StringRef loc = line.take_front(at), msg = line.drop_front(at + strlen(tag));
      auto [rest, col] = loc.rsplit(':');
      auto [file, ln] = rest.rsplit(':');
      unsigned l = 0, c = 0;
      if (!ln.getAsInteger(10, l) && !col.getAsInteger(10, c)) {
        d.file = file.str(), d.line = l, d.col = c;
      } else {
        d.file = loc.str();
      }
      d.severity = sev;
      d.message = msg.str();
      parsed = true;
      break;
    }
    if (!parsed) {
      // Source excerpts / carets of rendered diagnostics belong to the previous one.
      if (!diags.empty() && (line.starts_with(" ") || line.trim() == "^")) continue;
      d.message = line.str();
    }
    diags.push_back(std::move(d));
  }
}

llvm::Expected<std::unique_ptr<llvm::Module>>
translate(std::string_view text, std::string_view sourceName, InputKind kind, llvm::LLVMContext &ctx,
          std::vector<Diagnostic> &diags, std::vector<amdgpulower::StageTime> *times) {
  using Clock = std::chrono::steady_clock;
  if (kind == InputKind::LLVMIR) {
    llvm::SMDiagnostic err;
    auto buf = llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(text.data(), text.size()),
                                                llvm::StringRef(sourceName.data(), sourceName.size()), false);
    auto m = llvm::parseAssembly(buf->getMemBufferRef(), err, ctx);
    if (!m) {
      diags.push_back({Severity::Error, std::string(sourceName), unsigned(std::max(0, err.getLineNo())),
                       unsigned(std::max(0, err.getColumnNo() + 1)), err.getMessage().str()});
      return llvm::createStringError("invalid LLVM IR input");
    }
    return m;
  }
#if PTXJIT_HAVE_TRANSLATOR
  auto t0 = Clock::now();
  ptx::ParseResult pr = ptx::parse(text, sourceName);
  for (const ptx::Diagnostic &pd : pr.diags.all())
    diags.push_back({pd.severity == ptx::Severity::Error     ? Severity::Error
                     : pd.severity == ptx::Severity::Warning ? Severity::Warning
                                                             : Severity::Note,
                     std::string(sourceName), pd.loc.line, pd.loc.col, pd.message});
  if (times) times->push_back({"parse", std::chrono::duration<double>(Clock::now() - t0).count()});
  if (!pr.ok() || !pr.module) return llvm::createStringError("PTX parse errors");
  auto t1 = Clock::now();
  ptx2llvm::Options to;
  to.sourceName = std::string(sourceName);
  auto m = ptx2llvm::translate(*pr.module, ctx, to);
  if (times) times->push_back({"translate", std::chrono::duration<double>(Clock::now() - t1).count()});
  if (!m) {
    appendErrorDiagnostics(llvm::toString(m.takeError()), diags);
    return llvm::createStringError("PTX translation errors");
  }
  return m;
#else
  (void)times;
  diags.push_back({Severity::Error, std::string(sourceName), 0, 0,
                   "this libptxjit was built without the PTX front end (ptxparser/ptxtollvm)"});
  return llvm::createStringError("no PTX front end");
#endif
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

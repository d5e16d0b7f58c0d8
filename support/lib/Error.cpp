//===- Error.cpp - typed errors: IDs, constructors, kind queries ---------------===//
//
// The ErrorInfo IDs, the make helpers and the non-consuming kind queries
// (they walk an llvm::ErrorList through its payload without taking it, so a
// consumer can branch on the kind and still pass the Error on).
//
//===----------------------------------------------------------------------===//
#include "support/Error.h"

#include "llvm/Support/raw_ostream.h"

namespace support {

char DiagError::ID;
char UnsupportedError::ID;
char ContractError::ID;
char InvalidInputError::ID;
char ResourceLimitError::ID;
char DeviceFaultError::ID;
char IOError::ID;
char InternalError::ID;

void DiagError::log(llvm::raw_ostream &os) const {
  // Without a position the message alone (what createStringError printed).
  if (diag_.file.empty() && !diag_.line) {
    os << diag_.message;
    return;
  }
  std::string s = render(diag_);
  if (!s.empty() && s.back() == '\n') s.pop_back();
  os << s;
}

std::string_view faultKindName(FaultKind k) {
  switch (k) {
  case FaultKind::MemoryFault: return "memory-fault";
  case FaultKind::Misaligned: return "misaligned";
  case FaultKind::Trap: return "trap";
  case FaultKind::Assert: return "assert";
  case FaultKind::Timeout: return "timeout";
  case FaultKind::Deadlock: return "deadlock";
  case FaultKind::IllegalInstruction: return "illegal-instruction";
  }
  return "fault";
}

std::string_view resourceName(Resource r) {
  switch (r) {
  case Resource::Unspecified: return "resource";
  case Resource::BlockThreads: return "block-threads";
  case Resource::SharedMemory: return "shared-memory";
  case Resource::Registers: return "registers";
  case Resource::PrivateMemory: return "private-memory";
  case Resource::CooperativeGrid: return "cooperative-grid";
  case Resource::DeviceMemory: return "device-memory";
  }
  return "resource";
}

llvm::Error unsupported(std::string stage, std::string construct, Diagnostic d) {
  return llvm::make_error<UnsupportedError>(std::move(d), std::move(stage), std::move(construct));
}
llvm::Error contractViolation(Diagnostic d) { return llvm::make_error<ContractError>(std::move(d)); }
llvm::Error invalidInput(Diagnostic d, std::string field, uint64_t offset) {
  return llvm::make_error<InvalidInputError>(std::move(d), std::move(field), offset);
}
llvm::Error resourceLimit(Diagnostic d) { return llvm::make_error<ResourceLimitError>(std::move(d)); }
llvm::Error resourceLimit(Resource r, Diagnostic d) { return llvm::make_error<ResourceLimitError>(std::move(d), r); }
llvm::Error deviceFault(FaultKind f, Diagnostic d) {
  return llvm::make_error<DeviceFaultError>(std::move(d), f);
}
llvm::Error internalError(Diagnostic d) { return llvm::make_error<InternalError>(std::move(d)); }
llvm::Error ioError(std::string path, std::error_code ec, std::string what) {
  std::string msg = (what.empty() ? std::string("cannot access") : what) + " '" + path + "': " + ec.message();
  return llvm::make_error<IOError>(at(std::move(path), 0, 0, std::move(msg)), ec);
}

ErrorKind errorKind(const llvm::Error &e) {
  ErrorKind k = ErrorKind::Generic;
  bool first = true;
  llvm::visitErrors(e, [&](const llvm::ErrorInfoBase &p) {
    if (first && p.isA<DiagError>()) k = static_cast<const DiagError &>(p).kind();
    first = false;
  });
  return k;
}

bool hasKind(const llvm::Error &e, ErrorKind k) {
  bool found = false;
  llvm::visitErrors(e, [&](const llvm::ErrorInfoBase &p) {
    found |= p.isA<DiagError>() && static_cast<const DiagError &>(p).kind() == k;
  });
  return found;
}

void appendDiagnostics(llvm::Error e, std::vector<Diagnostic> &out, std::string_view defaultFile) {
  llvm::handleAllErrors(
      std::move(e),
      [&](const DiagError &d) {
        out.push_back(d.diagnostic());
        if (out.back().file.empty()) out.back().file = std::string(defaultFile);
      },
      [&](const llvm::ErrorInfoBase &p) {
        Diagnostic d = noLoc(p.message());
        d.file = std::string(defaultFile);
        out.push_back(std::move(d));
      });
}

std::vector<Diagnostic> takeDiagnostics(llvm::Error e, std::string_view defaultFile) {
  std::vector<Diagnostic> out;
  appendDiagnostics(std::move(e), out, defaultFile);
  return out;
}

llvm::Error joinAll(std::vector<llvm::Error> errors) {
  llvm::Error all = llvm::Error::success();
  for (llvm::Error &e : errors) all = llvm::joinErrors(std::move(all), std::move(e));
  return all;
}

llvm::Error errorOf(std::span<const Diagnostic> diags) {
  llvm::Error all = llvm::Error::success();
  for (const Diagnostic &d : diags)
    if (d.severity == Severity::Error)
      all = llvm::joinErrors(std::move(all), d.kind == ErrorKind::Unsupported
                                                 ? llvm::make_error<UnsupportedError>(d, d.stage, d.construct)
                                                 : llvm::make_error<DiagError>(d));
  return all;
}

namespace {
Diagnostic diagnosticOf(const llvm::ErrorInfoBase &p, std::string_view defaultFile) {
  Diagnostic d = p.isA<DiagError>() ? static_cast<const DiagError &>(p).diagnostic() : noLoc(p.message());
  if (d.file.empty()) d.file = std::string(defaultFile);
  return d;
}
} // namespace

void copyDiagnostics(const llvm::Error &e, std::vector<Diagnostic> &out, std::string_view defaultFile) {
  llvm::visitErrors(e, [&](const llvm::ErrorInfoBase &p) { out.push_back(diagnosticOf(p, defaultFile)); });
}

std::string renderLines(const llvm::Error &e, unsigned max, std::string_view indent) {
  std::string s;
  unsigned total = 0;
  llvm::visitErrors(e, [&](const llvm::ErrorInfoBase &p) {
    if (total++ >= max) return;
    std::string line = render(diagnosticOf(p, {}));
    if (!line.empty() && line.back() == '\n') line.pop_back();
    s += (s.empty() ? "" : "\n") + std::string(indent) + line;
  });
  if (total > max) s += "\n" + std::string(indent) + "... " + std::to_string(total - max) + " more errors";
  return s;
}

} // namespace support

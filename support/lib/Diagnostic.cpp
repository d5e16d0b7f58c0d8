//===- Diagnostic.cpp - the clang-style renderer -----------------------------===//
//
// The one renderer of diagnostics (support/Diagnostic.h). The caret line
// copies every tab that precedes the column and puts a space for every other
// byte, so the caret sits under the column whatever the terminal's tab stops.
//
//===----------------------------------------------------------------------===//
#include "support/Diagnostic.h"

namespace support {

std::string_view severityName(Severity s) {
  switch (s) {
  case Severity::Error: return "error";
  case Severity::Warning: return "warning";
  case Severity::Note: return "note";
  }
  return "error";
}

std::string_view errorKindName(ErrorKind k) {
  switch (k) {
  case ErrorKind::Generic: return "generic";
  case ErrorKind::Unsupported: return "unsupported";
  case ErrorKind::ContractViolation: return "contract-violation";
  case ErrorKind::InvalidInput: return "invalid-input";
  case ErrorKind::ResourceLimit: return "resource-limit";
  case ErrorKind::DeviceFault: return "device-fault";
  case ErrorKind::IO: return "io";
  case ErrorKind::Internal: return "internal";
  }
  return "generic";
}

// Line `line` (1-based) of text, without its newline (and a trailing '\r');
// false when the text has fewer lines. The empty line after a final newline
// exists (errors at end of file point there).
static bool sourceLine(std::string_view text, unsigned line, std::string_view &out) {
  size_t at = 0;
  for (unsigned l = 1; l < line; ++l) {
    at = text.find('\n', at);
    if (at == std::string_view::npos) return false;
    ++at;
  }
  size_t end = text.find('\n', at);
  out = text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
  if (!out.empty() && out.back() == '\r') out.remove_suffix(1);
  return true;
}

std::string render(const Diagnostic &d, std::string_view sourceText) {
  std::string s;
  if (!d.file.empty()) {
    s += d.file;
    if (d.line) s += ':' + std::to_string(d.line) + ':' + std::to_string(d.col);
    s += ": ";
  }
  s += severityName(d.severity);
  s += ": ";
  s += d.message;
  s += '\n';
  std::string_view line;
  if (d.line && !sourceText.empty() && sourceLine(sourceText, d.line, line)) {
    s += line;
    s += '\n';
    for (size_t i = 0; i + 1 < d.col && i < line.size(); ++i) s += line[i] == '\t' ? '\t' : ' ';
    s += "^\n";
  }
  return s;
}

std::string renderAll(std::span<const Diagnostic> diags, std::string_view sourceText) {
  std::string s;
  for (const Diagnostic &d : diags) s += render(d, sourceText);
  return s;
}

} // namespace support

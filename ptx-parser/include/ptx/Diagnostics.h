//===- ptx/Diagnostics.h - clang-style diagnostics -------------*- C++ -*-===//
#pragma once

#include "ptx/IR.h"

#include <string>
#include <string_view>
#include <vector>

namespace ptx {

enum class Severity : uint8_t { Note, Warning, Error };

struct Diagnostic {
  Severity severity = Severity::Error;
  SourceLoc loc;
  std::string message;
};

class DiagnosticList {
public:
  void report(Severity s, SourceLoc loc, std::string msg) {
    if (s == Severity::Error) ++errors_;
    diags_.push_back({s, loc, std::move(msg)});
  }
  void error(SourceLoc loc, std::string msg) { report(Severity::Error, loc, std::move(msg)); }
  void warning(SourceLoc loc, std::string msg) { report(Severity::Warning, loc, std::move(msg)); }
  bool hasErrors() const { return errors_ != 0; }
  unsigned errorCount() const { return errors_; }
  const std::vector<Diagnostic> &all() const { return diags_; }
  void append(const DiagnosticList &o) {
    for (const auto &d : o.diags_) report(d.severity, d.loc, d.message);
  }

  // "file:line:col: error: msg\n<source line>\n    ^\n" for each diagnostic.
  std::string render(std::string_view sourceName, std::string_view sourceText) const;

private:
  std::vector<Diagnostic> diags_;
  unsigned errors_ = 0;
};

} // namespace ptx

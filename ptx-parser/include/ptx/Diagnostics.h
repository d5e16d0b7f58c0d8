//===- ptx/Diagnostics.h - the front end's diagnostic list ------*- C++ -*-===//
//
// The parser collects support::Diagnostic (the project's one diagnostic
// type) without a file name; render() names them after the source and uses
// the one renderer, support::render. Front-end errors are of kind
// InvalidInput (malformed or ill-typed PTX).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ptx/IR.h"
#include "support/Diagnostic.h"

#include <string>
#include <string_view>
#include <vector>

namespace ptx {

using support::Diagnostic;
using support::Severity;

class DiagnosticList {
public:
  void report(Severity s, SourceLoc loc, std::string msg) {
    if (s == Severity::Error) ++errors_;
    diags_.push_back({s, {}, loc.line, loc.col, std::move(msg),
                      s == Severity::Error ? support::ErrorKind::InvalidInput : support::ErrorKind::Generic});
  }
  void add(Diagnostic d) {
    if (d.severity == Severity::Error) ++errors_;
    diags_.push_back(std::move(d));
  }
  void error(SourceLoc loc, std::string msg) { report(Severity::Error, loc, std::move(msg)); }
  // An error about a PTX construct the front end does not implement (kind Unsupported).
  void unsupported(SourceLoc loc, std::string msg) {
    report(Severity::Error, loc, std::move(msg));
    diags_.back().kind = support::ErrorKind::Unsupported;
  }
  void warning(SourceLoc loc, std::string msg) { report(Severity::Warning, loc, std::move(msg)); }
  bool hasErrors() const { return errors_ != 0; }
  unsigned errorCount() const { return errors_; }
  const std::vector<Diagnostic> &all() const { return diags_; }
  void append(const DiagnosticList &o) {
    for (const auto &d : o.diags_) add(d);
  }

  // "file:line:col: error: msg\n<source line>\n    ^\n" for each diagnostic (support::render).
  std::string render(std::string_view sourceName, std::string_view sourceText) const;

private:
  std::vector<Diagnostic> diags_;
  unsigned errors_ = 0;
};

} // namespace ptx

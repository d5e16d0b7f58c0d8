//===- Diagnostics.cpp - clang-style rendering of diagnostics -------------===//
//
// Renders each diagnostic as `file:line:col: error: message`, followed by the
// offending source line and a caret under the column, the format users know
// from clang. Tabs before the caret are kept so the caret lines up in a
// terminal. Diagnostics without a location print without line/caret.
//
//===----------------------------------------------------------------------===//
#include "ptx/Diagnostics.h"

#include <vector>

namespace ptx {

std::string DiagnosticList::render(std::string_view sourceName, std::string_view text) const {
  // Line start offsets, computed once.
  std::vector<size_t> starts;
  if (!diags_.empty()) {
    starts.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') starts.push_back(i + 1);
  }
  std::string out;
  for (const auto &d : diags_) {
    out += sourceName;
    if (d.loc.line) {
      out += ':' + std::to_string(d.loc.line) + ':' + std::to_string(d.loc.col);
    }
    switch (d.severity) {
    case Severity::Error: out += ": error: "; break;
    case Severity::Warning: out += ": warning: "; break;
    case Severity::Note: out += ": note: "; break;
    }
    out += d.message;
    out += '\n';
    if (d.loc.line && d.loc.line <= starts.size()) {
      size_t b = starts[d.loc.line - 1];
      size_t e = text.find('\n', b);
      if (e == std::string_view::npos) e = text.size();
      std::string_view line = text.substr(b, e - b);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      out += line;
      out += '\n';
      std::string caret;
      for (size_t i = 0; i + 1 < d.loc.col && i < line.size(); ++i)
        caret += line[i] == '\t' ? '\t' : ' ';
      caret += '^';
      out += caret;
      out += '\n';
    }
  }
  return out;
}

} // namespace ptx

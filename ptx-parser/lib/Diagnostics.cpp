//===- Diagnostics.cpp - rendering the front end's diagnostics ------------===//
//
// Names each diagnostic after the source and renders it with the project's
// one renderer (support::render: `file:line:col: error: message`, the source
// line and a caret that keeps the line's tabs).
//
//===----------------------------------------------------------------------===//
#include "ptx/Diagnostics.h"

namespace ptx {

std::string DiagnosticList::render(std::string_view sourceName, std::string_view text) const {
  std::string out;
  for (Diagnostic d : diags_) {
    d.file = std::string(sourceName);
    out += support::render(d, text);
  }
  return out;
}

} // namespace ptx

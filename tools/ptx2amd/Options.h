//===- Options.h - ptx2amd command-line options ----------------*- C++ -*-===//
//
// All command-line options of ptx2amd in one struct, filled by the tools'
// shared table-driven parser (support/CommandLine.h; the options every tool
// has live in CommonOptions). To add an option, add a field here and one row
// in Options.cpp; main.cpp only reads the struct.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/CommandLine.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace ptx2amd {

enum class EmitKind { None, Ptx, Llvm, Asm, Obj, Hsaco };

struct Options : support::cl::CommonOptions {
  std::vector<std::string> inputs; // "-" = stdin
  bool syntaxOnly = false;         // -fsyntax-only
  EmitKind emit = EmitKind::None;  // --emit=
  bool roundtripCheck = false;     // --roundtrip-check
  bool noSema = false;             // --no-sema
  unsigned maxErrors = 100;        // --max-errors=N
  unsigned codeObjectVersion = 5;  // --code-object-version=4|5|6
  bool timePasses = false;         // --time-passes
  bool warnWarpSize = false;       // -Wwarp-size
};

// Parses argv (errors are support::InvalidInputError).
llvm::Error parseOptions(int argc, char **argv, Options &opts);
// The --help text, generated from the option table.
std::string helpText(const char *argv0);

} // namespace ptx2amd

//===- Options.h - ptx2amd command-line options ----------------*- C++ -*-===//
//
// All command-line options of ptx2amd in one struct, filled by one
// table-driven parser (Options.cpp). To add an option, add a field here and
// one row to the table in Options.cpp; main.cpp only reads the struct.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace ptx2amd {

enum class EmitKind { None, Ptx, Llvm, Asm, Obj, Hsaco };

struct Options {
  std::vector<std::string> inputs; // "-" = stdin
  std::string output;              // -o; empty = stdout
  bool syntaxOnly = false;         // -fsyntax-only
  EmitKind emit = EmitKind::None;  // --emit=
  bool roundtripCheck = false;     // --roundtrip-check
  bool noSema = false;             // --no-sema
  unsigned maxErrors = 100;        // --max-errors=N
  std::vector<std::string> offloadArchs; // --offload-arch= (repeatable; several -> one bundle)
  // Translation (libptxjit):
  unsigned optLevel = 3;                 // -O0..-O3
  std::string warpPolicy;                // --warp-policy=pack|pad (module default)
  std::vector<std::pair<std::string, std::string>> kernelWarpPolicy; // --warp-policy=KERNEL=pad
  unsigned codeObjectVersion = 5;        // --code-object-version=4|5|6
  bool timePasses = false;               // --time-passes
  bool verbose = false;                  // -v
  bool warnWarpSize = false;             // -Wwarp-size
  unsigned threads = 0;                  // -j<n> codegen threads (0 = all cores)
  bool help = false;
  bool version = false;
};

// Parses argv. On error returns false with a message in *err.
bool parseOptions(int argc, char **argv, Options &opts, std::string *err);
// The --help text, generated from the option table.
std::string helpText(const char *argv0);

} // namespace ptx2amd

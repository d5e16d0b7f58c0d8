//===- ptx/Parser.h - PTX text -> typed IR ----------------------*- C++ -*-===//
//
// Entry points of the PTX front end: parse (ANTLR4 grammar + IR builder +
// semantic checks), print (IR -> PTX text) and structural comparison (for
// round-trip tests). No exceptions cross this boundary.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ptx/Diagnostics.h"
#include "ptx/IR.h"

#include <memory>
#include <string>
#include <string_view>

namespace ptx {

// Wall-clock time of the front-end phases, in milliseconds (for benchmarks).
struct ParseTimings {
  double lexMs = 0, parseMs = 0, buildMs = 0, teardownMs = 0;
};

struct ParseOptions {
  bool semanticChecks = true;   // run sema (undeclared names, types, modifiers)
  unsigned maxErrors = 100;     // stop reporting after this many (0 = unlimited)
  ParseTimings *timings = nullptr; // when set, filled with per-phase times
};

struct ParseResult {
  std::unique_ptr<Module> module; // present even with errors (best effort)
  DiagnosticList diags;
  bool ok() const { return !diags.hasErrors(); }
};

ParseResult parse(std::string_view text, std::string_view sourceName,
                  const ParseOptions &opts = {});

// IR -> PTX text that ptxas accepts for the module's own .target.
std::string print(const Module &m);

// Structural equality ignoring source locations; on mismatch fills *why with
// the first difference (path + both values).
bool structurallyEqual(const Module &a, const Module &b, std::string *why = nullptr);

} // namespace ptx

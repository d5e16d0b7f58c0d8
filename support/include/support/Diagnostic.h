//===- support/Diagnostic.h - the one diagnostic type and renderer -*- C++ -*-===//
//
// Every stage reports problems as support::Diagnostic (severity, position,
// message and the ErrorKind that says what happened), and every tool prints
// them with support::render(): the clang format users know,
//
//   file:line:col: error: message
//   <source line>
//   <caret under the column>
//
// Columns are 1-based byte offsets in the line (a tab counts as one column,
// as ANTLR and the fast lexer count); the caret line repeats the tabs that
// precede the column, so it stays aligned in a terminal on tab-indented PTX.
// This header and Diagnostic.cpp use only the C++ standard library (the PTX
// front end and its fuzz build need nothing else); Error.h adds LLVM.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace support {

enum class Severity : uint8_t { Note, Warning, Error };

// What happened, independent of the message text. Consumers decide on this
// (support/Error.h), never on the wording.
enum class ErrorKind : uint8_t {
  Generic,           // not classified (foreign llvm::Errors, plain diagnostics)
  Unsupported,       // a construct the toolchain does not implement (names stage and construct)
  ContractViolation, // one stage received input that breaks its documented contract
  InvalidInput,      // malformed user input (PTX syntax/semantics, bad option, corrupt file)
  ResourceLimit,     // a limit was exceeded (registers, LDS, residency, sizes)
  DeviceFault,       // the (emulated) device faulted: memory fault, trap, assert, timeout, ...
  IO,                // reading or writing a file failed
  Internal,          // a toolchain bug or an LLVM failure that no input should cause
};
std::string_view errorKindName(ErrorKind k); // "unsupported", "invalid-input", ...

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string file;          // may be empty
  unsigned line = 0, col = 0; // 1-based; 0 = unknown
  std::string message;       // without the "file:line:col: error: " prefix
  ErrorKind kind = ErrorKind::Generic;
  // ErrorKind::Unsupported (support::UnsupportedError): the stage that refused
  // and the construct it names ("ptx-to-llvm", "tex.grad"); empty otherwise.
  std::string stage = {}, construct = {};
};

std::string_view severityName(Severity s); // "error" | "warning" | "note"

// "file:line:col: error: msg\n" (the location part shrinks to "file: " or
// nothing when unknown), then, when `sourceText` is the text of d.file and the
// line exists, the source line and a caret line.
std::string render(const Diagnostic &d, std::string_view sourceText = {});
// render() of each diagnostic, concatenated.
std::string renderAll(std::span<const Diagnostic> diags, std::string_view sourceText = {});

inline bool hasErrors(std::span<const Diagnostic> diags) {
  for (const Diagnostic &d : diags)
    if (d.severity == Severity::Error) return true;
  return false;
}

} // namespace support

//===- support/ExitStatus.h - a tool's exit status by error kind --*- C++ -*-===//
//
// The tools' exit status says what kind of failure happened, so a script can
// tell "the PTX uses something ptx2amd does not implement" from "the PTX is
// wrong" or "ptx2amd failed" without reading the diagnostics. One table maps
// support::ErrorKind to a status (the same split as libptxjit's
// COMPILATION / INTERNAL statuses, with unsupported constructs apart), and
// exitStatusHelp() is the paragraph the tools append to --help.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Diagnostic.h"

#include <algorithm>
#include <span>
#include <string>

namespace support {

enum class ExitStatus : int {
  Success = 0,
  Input = 1,       // the input is wrong: PTX syntax/semantics, invalid input, contract, resource limits
  Usage = 2,       // the command line is wrong: options, no input, unreadable input file
  Unsupported = 3, // only unsupported constructs: valid input that ptx2amd does not implement
  Internal = 4,    // a toolchain failure: internal error, LLVM, I/O (output not writable), device
};

// The status of one error kind.
constexpr ExitStatus exitStatusFor(ErrorKind k) {
  switch (k) {
  case ErrorKind::Unsupported: return ExitStatus::Unsupported;
  case ErrorKind::DeviceFault:
  case ErrorKind::IO:
  case ErrorKind::Internal: return ExitStatus::Internal;
  case ErrorKind::Generic:
  case ErrorKind::ContractViolation:
  case ErrorKind::InvalidInput:
  case ErrorKind::ResourceLimit: return ExitStatus::Input;
  }
  return ExitStatus::Internal;
}

// Which of two statuses a run with both reports: Internal, then Input (the
// input has to be fixed first), then Unsupported, then Usage.
constexpr ExitStatus worseExitStatus(ExitStatus a, ExitStatus b) {
  auto rank = [](ExitStatus s) {
    switch (s) {
    case ExitStatus::Success: return 0;
    case ExitStatus::Usage: return 1;
    case ExitStatus::Unsupported: return 2;
    case ExitStatus::Input: return 3;
    case ExitStatus::Internal: return 4;
    }
    return 4;
  };
  return rank(a) >= rank(b) ? a : b;
}

// The status of a failed run from its error diagnostics (Internal when none
// says why: a failure without a diagnostic is the toolchain's).
inline ExitStatus exitStatusOf(std::span<const Diagnostic> diags) {
  ExitStatus s = ExitStatus::Success;
  for (const Diagnostic &d : diags)
    if (d.severity == Severity::Error) s = worseExitStatus(s, exitStatusFor(d.kind));
  return s == ExitStatus::Success ? ExitStatus::Internal : s;
}

inline int exitCode(ExitStatus s) { return static_cast<int>(s); }

// The "Exit status" paragraph of --help.
inline std::string exitStatusHelp() {
  return "\nExit status:\n"
         "  0  success\n"
         "  1  errors in the input (PTX syntax or semantics, invalid or inconsistent input, resource limits)\n"
         "  2  usage: unknown or ill-formed option, incompatible options, no input, unreadable input file\n"
         "  3  the input uses constructs ptx2amd does not support (and has no other error)\n"
         "  4  internal or toolchain failure (LLVM, I/O such as an unwritable output)\n";
}

} // namespace support

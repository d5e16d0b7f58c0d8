//===- StdoutStatus.h - a tool's exit status includes writing stdout -*- C++ -*-===//
//
// Text a tool prints to standard output (--help, --version, --list, --dump
// lines) goes through stdio's buffer, so a write that fails - stdout on a
// full disk or /dev/full - is only seen when the buffer is flushed at exit,
// and the tool would still exit 0 with its output lost. finishStdout() is the
// last step of every tool's main(): it flushes stdout and, if anything
// written there failed, prints one message and turns a success into the
// tool's failure status (as coreutils do: "write error").
//
//===----------------------------------------------------------------------===//
#pragma once

namespace ptx2amd::tools {

/// Flushes stdout. Returns Status, or FailStatus with "<Tool>: error: cannot
/// write standard output: <reason>" on stderr when Status is 0 and a write to
/// stdout failed.
int finishStdout(const char *Tool, int Status, int FailStatus);

} // namespace ptx2amd::tools

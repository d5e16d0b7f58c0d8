//===- StdoutStatus.cpp - report a failed write to standard output ---------===//
//
// ferror(stdout) stays set once any buffered write failed; fflush() reports
// a failure of the last buffer. errno is what the failing write(2) set
// (ENOSPC for /dev/full); a cleared errno is reported as an I/O error.
//
//===----------------------------------------------------------------------===//
#include "StdoutStatus.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace ptx2amd::tools {

int finishStdout(const char *Tool, int Status, int FailStatus) {
  errno = 0;
  const bool Failed = std::fflush(stdout) != 0 || std::ferror(stdout);
  if (!Failed) return Status;
  const int Why = errno ? errno : EIO;
  std::fprintf(stderr, "%s: error: cannot write standard output: %s\n", Tool, std::strerror(Why));
  return Status == 0 ? FailStatus : Status;
}

} // namespace ptx2amd::tools

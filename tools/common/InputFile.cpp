//===- InputFile.cpp - bounded, non-hanging input reading for the tools -----===//
//
// open(O_RDONLY | O_NONBLOCK) never blocks on a FIFO without a writer; after
// fstat() has classified the file we clear O_NONBLOCK so a pipe whose writer
// is merely slow (process substitution) still works. Reads go through read(2)
// in 1 MiB chunks, so a stream that never ends (/dev/zero) stops at the cap.
// readInputPrefix() shares the classification and stops reading at its
// limit instead of failing there.
//
//===----------------------------------------------------------------------===//
#include "InputFile.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ptx2amd::tools {
namespace {

std::string mib(uint64_t N) { return std::to_string(N >> 20) + " MiB"; }

// Prefix: stop quietly after MaxBytes instead of failing.
bool readAll(int Fd, const std::string &Shown, std::string &Out, std::string &Err, uint64_t MaxBytes,
             bool Prefix) {
  Out.clear();
  std::string Chunk(1 << 20, '\0');
  for (;;) {
    size_t Want = Chunk.size();
    if (Prefix) {
      if (Out.size() >= MaxBytes) return true;
      Want = size_t(std::min<uint64_t>(Want, MaxBytes - Out.size()));
    }
    ssize_t N = ::read(Fd, Chunk.data(), Want);
    if (N < 0 && errno == EINTR) continue;
    if (N < 0) {
      Err = "error reading " + Shown + ": " + std::strerror(errno);
      return false;
    }
    if (N == 0) return true;
    if (Out.size() + uint64_t(N) > MaxBytes) {
      Err = Shown + " is larger than the input limit of " + mib(MaxBytes);
      return false;
    }
    Out.append(Chunk.data(), size_t(N));
  }
}

bool readPath(const std::string &Path, std::string &Out, std::string &Err, uint64_t MaxBytes, bool Prefix) {
  // A prefix is bounded by its own length; whole streams by MaxInputBytes.
  const uint64_t StreamCap = Prefix ? MaxBytes : std::min(MaxBytes, MaxInputBytes);
  if (Path == "-") return readAll(0, "<stdin>", Out, Err, StreamCap, Prefix);
  std::string Shown = "'" + Path + "'";
  int Fd = ::open(Path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (Fd < 0) {
    Err = "cannot open " + Shown + ": " + std::strerror(errno);
    return false;
  }
  struct stat St;
  bool Ok = false;
  if (::fstat(Fd, &St) != 0) {
    Err = "cannot stat " + Shown + ": " + std::strerror(errno);
  } else if (S_ISDIR(St.st_mode)) {
    Err = Shown + " is a directory";
  } else if (!Prefix && S_ISREG(St.st_mode) && uint64_t(St.st_size) > MaxBytes) {
    Err = Shown + " is " + mib(uint64_t(St.st_size)) + ", larger than the input limit of " + mib(MaxBytes);
  } else {
    int Flags = ::fcntl(Fd, F_GETFL);
    if (Flags >= 0) ::fcntl(Fd, F_SETFL, Flags & ~O_NONBLOCK);
    // Streams (pipes, FIFOs, character devices) read whole never exceed
    // MaxInputBytes, whatever the caller allows for regular files.
    Ok = readAll(Fd, Shown, Out, Err, S_ISREG(St.st_mode) ? MaxBytes : StreamCap, Prefix);
    if (Ok && Out.empty() && S_ISFIFO(St.st_mode)) {
      Err = Shown + " is empty (a FIFO with no writer)";
      Ok = false;
    }
  }
  ::close(Fd);
  return Ok;
}

} // namespace

bool readInputFile(const std::string &Path, std::string &Out, std::string &Err, uint64_t MaxBytes) {
  return readPath(Path, Out, Err, MaxBytes, /*Prefix=*/false);
}

bool readInputPrefix(const std::string &Path, std::string &Out, std::string &Err, uint64_t MaxBytes) {
  return readPath(Path, Out, Err, MaxBytes, /*Prefix=*/true);
}

} // namespace ptx2amd::tools

//===- Log.h - vgpu diagnostics ---------------------------------*- C++ -*-===//
//
// Every message of the virtual GPU goes to stderr with the prefix "vgpu: ".
// Unsupported requests (an ioctl, an AQL packet type, a register) are
// reported with report() naming the request; VGPU_TRACE=1 also logs every
// request the driver model serves (trace()).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace vgpu {

inline bool traceEnabled() {
  static const bool On = [] {
    const char *V = getenv("VGPU_TRACE");
    return V && *V && *V != '0';
  }();
  return On;
}

[[gnu::format(printf, 1, 2)]] inline void report(const char *Fmt, ...) {
  va_list A;
  va_start(A, Fmt);
  fputs("vgpu: ", stderr);
  vfprintf(stderr, Fmt, A);
  fputc('\n', stderr);
  va_end(A);
}

#define VGPU_TRACE(...)                                                                            \
  do {                                                                                             \
    if (::vgpu::traceEnabled()) ::vgpu::report(__VA_ARGS__);                                       \
  } while (0)

} // namespace vgpu

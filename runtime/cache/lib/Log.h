//===- Log.h - The cache's spdlog logger ------------------------*- C++ -*-===//
//
// The "cache" logger of the runtime's one logging setup (runtime/Log.h:
// stderr, `ptx2amd[cache] <level>: msg`, level from PTX2AMD_LOG), looked up
// once.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Log.h"

namespace runtime::cachelog {
inline spdlog::logger &logger() {
  static const std::shared_ptr<spdlog::logger> L = runtime::logger("cache");
  return *L;
}
} // namespace runtime::cachelog

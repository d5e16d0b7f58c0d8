//===- Log.h - The cache's spdlog logger ------------------------*- C++ -*-===//
//
// One logger named "cache" (issue 13: one logger per stage), on stderr, level
// from PTX2AMD_LOG (error|warn|info|debug|trace|off, default warn). If the
// process registered a "cache" logger first (the runtime's logging setup),
// that one is used.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <spdlog/spdlog.h>

namespace runtime::cachelog {
spdlog::logger &logger();
} // namespace runtime::cachelog

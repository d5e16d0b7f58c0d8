//===- runtime/Log.h - spdlog loggers, one per stage -------------*- C++ -*-===//
//
// Level from PTX2AMD_LOG (error|warn|info|debug|trace|off, default warn),
// read once. Loggers: "runtime" (core), "jit" (translation), "cache", "emu",
// "hip", "shim", "driver". Output goes to stderr as `ptx2amd[<stage>] <level>: msg`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <spdlog/spdlog.h>

#include <memory>
#include <string_view>

namespace runtime {
std::shared_ptr<spdlog::logger> logger(std::string_view Stage);
} // namespace runtime

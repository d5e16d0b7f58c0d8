//===- Log.cpp - The "cache" logger ------------------------------------------===//
#include "Log.h"

#include <spdlog/sinks/stdout_color_sinks.h>

#include <cstdlib>
#include <string>

namespace runtime::cachelog {

spdlog::logger &logger() {
  // Created once; spdlog's registry is thread-safe and owns the logger.
  static std::shared_ptr<spdlog::logger> L = [] {
    if (auto Existing = spdlog::get("cache")) return Existing;
    std::shared_ptr<spdlog::logger> N;
    try {
      N = spdlog::stderr_color_mt("cache");
    } catch (...) { // registered concurrently by someone else
      N = spdlog::get("cache");
    }
    if (!N) N = std::make_shared<spdlog::logger>("cache");
    spdlog::level::level_enum Lvl = spdlog::level::warn;
    if (const char *E = std::getenv("PTX2AMD_LOG")) {
      std::string S = E;
      if (S == "warn" || S == "warning") Lvl = spdlog::level::warn;
      else Lvl = spdlog::level::from_str(S); // unknown names mean off in spdlog; keep warn then
      if (Lvl == spdlog::level::off && S != "off") Lvl = spdlog::level::warn;
    }
    N->set_level(Lvl);
    N->set_pattern("ptx2amd[%n] %l: %v"); // the runtime's format (runtime/Log.h)
    return N;
  }();
  return *L;
}

} // namespace runtime::cachelog

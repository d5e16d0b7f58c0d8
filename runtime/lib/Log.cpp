//===- Log.cpp - spdlog loggers per stage, level from PTX2AMD_LOG ------------===//
//
// The process's one logging setup (library runtimelog): the core, the
// backends, the cache, the shim and the driver all take their logger here,
// so PTX2AMD_LOG is parsed in one place.
//
//===----------------------------------------------------------------------===//
#include "runtime/Log.h"

#include <spdlog/sinks/stdout_sinks.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

namespace runtime {

namespace {
spdlog::level::level_enum levelFromEnv() {
  const char *L = getenv("PTX2AMD_LOG");
  if (!L || !*L) return spdlog::level::warn;
  std::string S = L;
  if (S == "error") return spdlog::level::err;
  if (S == "warn" || S == "warning") return spdlog::level::warn;
  if (S == "info") return spdlog::level::info;
  if (S == "debug") return spdlog::level::debug;
  if (S == "trace") return spdlog::level::trace;
  if (S == "off") return spdlog::level::off;
  fprintf(stderr, "ptx2amd: PTX2AMD_LOG='%s' is not error|warn|info|debug|trace|off; using warn\n", L);
  return spdlog::level::warn;
}
} // namespace

std::shared_ptr<spdlog::logger> logger(std::string_view Stage) {
  static std::mutex Mu;
  static auto *Loggers = new std::map<std::string, std::shared_ptr<spdlog::logger>, std::less<>>;
  static auto *Sink = new std::shared_ptr<spdlog::sinks::stderr_sink_mt>(std::make_shared<spdlog::sinks::stderr_sink_mt>());
  static const spdlog::level::level_enum Level = levelFromEnv();
  std::lock_guard<std::mutex> G(Mu);
  auto It = Loggers->find(Stage);
  if (It != Loggers->end()) return It->second;
  auto L = std::make_shared<spdlog::logger>(std::string(Stage), *Sink);
  L->set_pattern("ptx2amd[%n] %l: %v");
  L->set_level(Level);
  L->flush_on(spdlog::level::trace);
  (*Loggers)[std::string(Stage)] = L;
  return L;
}

} // namespace runtime

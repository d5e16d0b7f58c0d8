//===- BenchFrontend.cpp - PTX front-end throughput -----------------------===//
//
// Google Benchmark of the front end on a large real PTX file (default: the
// Thrust/CUB module generated at build time; override with the environment
// variable PTX2AMD_BENCH_PTX). Reports bytes/s for lexing alone, parse + IR
// construction (with and without the instruction checks) and printing.
// With `--frontend-once` it instead parses the file once and prints the
// phase times, which frontend_vs_ptxas.sh uses for its side-by-side run.
//
//===----------------------------------------------------------------------===//
#include "Internal.h"
#include "ProcessAllocator.h"
#include "ptx/Parser.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace {

const std::string &input() {
  static const std::string *text = [] {
    const char *p = std::getenv("PTX2AMD_BENCH_PTX");
    std::string path = p && *p ? p : PTX2AMD_BENCH_DEFAULT_PTX;
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    auto *s = new std::string(ss.str());
    if (s->empty()) {
      std::fprintf(stderr, "bench_frontend: cannot read %s\n", path.c_str());
      std::exit(1);
    }
    return s;
  }();
  return *text;
}

void BM_Lex(benchmark::State &st) {
  const std::string &t = input();
  for (auto _ : st) benchmark::DoNotOptimize(ptx::detail::lexFast(t).size());
  st.SetBytesProcessed(int64_t(st.iterations()) * int64_t(t.size()));
}

void BM_ParseBuildIR(benchmark::State &st) {
  const std::string &t = input();
  ptx::ParseOptions o;
  o.semanticChecks = st.range(0) != 0;
  for (auto _ : st) {
    auto r = ptx::parse(t, "bench.ptx", o);
    if (!r.ok()) st.SkipWithError("parse errors");
    benchmark::DoNotOptimize(r.module.get());
  }
  st.SetBytesProcessed(int64_t(st.iterations()) * int64_t(t.size()));
}

void BM_Print(benchmark::State &st) {
  const std::string &t = input();
  auto r = ptx::parse(t, "bench.ptx");
  for (auto _ : st) benchmark::DoNotOptimize(ptx::print(*r.module).size());
  st.SetBytesProcessed(int64_t(st.iterations()) * int64_t(t.size()));
}

BENCHMARK(BM_Lex)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseBuildIR)->Arg(1)->ArgName("sema")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseBuildIR)->Arg(0)->ArgName("sema")->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Print)->Unit(benchmark::kMillisecond);

// One cold parse in a fresh process, as a user would run it.
int frontendOnce(const char *path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  std::string t = ss.str();
  ptx::ParseTimings tm;
  ptx::ParseOptions o;
  o.timings = &tm;
  auto t0 = std::chrono::steady_clock::now();
  auto r = ptx::parse(t, path, o);
  auto t1 = std::chrono::steady_clock::now();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  std::printf("bytes %zu errors %u total_ms %.1f lex_ms %.1f parse_ms %.1f build_ms %.1f teardown_ms %.1f MBps %.1f alloc %s\n",
              t.size(), r.diags.errorCount(), ms, tm.lexMs, tm.parseMs, tm.buildMs, tm.teardownMs,
              t.size() / 1e6 / (ms / 1e3), ptx::processAllocatorName());
  return r.ok() ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  ptx::configureProcessAllocator(ptx::AllocatorUse::FrontEnd);
  if (argc == 3 && std::strcmp(argv[1], "--frontend-once") == 0) return frontendOnce(argv[2]);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

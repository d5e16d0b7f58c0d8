//===- BenchCache.cpp - Warm-cache module load (issue 13: <= 1 ms) ------------===//
//
// Google Benchmark of what a second start pays per module when the on-disk
// cache is warm: the key of the module's PTX (BLAKE3 over the PTX text,
// toolchain id, target, options) and the lookup (open, read, xxh3-128
// checksum, mtime refresh, return the bytes). The payload is a real code
// object: the CUB corpus program's PTX (nvcc -ptx -arch=sm_90, > 1 MB; or
// $PTX2AMD_BENCH_PTX) translated once for gfx90a with libptxjit at startup,
// which also gives the cold-start translation time for comparison.
//
//===----------------------------------------------------------------------===//
#include "ptxjit.h"
#include "runtime/Cache.h"
#include "runtime/CacheOptions.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace runtime;

namespace {

struct Fixture {
  std::string Ptx, Dir, Fp;
  std::vector<uint8_t> CodeObject;
  std::unique_ptr<CodeObjectCache> Cache;
  CacheKey Key;
  double TranslateSeconds = 0;
  bool Ok = false;

  Fixture() {
    const char *P = std::getenv("PTX2AMD_BENCH_PTX");
    std::string Path = P ? P : PTX2AMD_BENCH_DEFAULT_PTX;
    auto B = llvm::MemoryBuffer::getFile(Path);
    if (!B) {
      fprintf(stderr, "cannot read %s\n", Path.c_str());
      return;
    }
    Ptx = (*B)->getBuffer().str();
    ptxjit_context C;
    ptxjit_context_create(&C);
    ptxjit_options O;
    ptxjit_options_create(&O);
    ptxjit_options_add_arch(O, "gfx90a");
    ptxjit_result R = nullptr;
    auto T0 = std::chrono::steady_clock::now();
    ptxjit_status S = ptxjit_compile(C, Ptx.data(), Ptx.size(), O, &R);
    TranslateSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - T0).count();
    size_t N = 0;
    const void *D = R ? ptxjit_result_data(R, &N) : nullptr;
    if (S == PTXJIT_SUCCESS && D) CodeObject.assign((const uint8_t *)D, (const uint8_t *)D + N);
    if (R) ptxjit_result_destroy(R);
    ptxjit_options_destroy(O);
    ptxjit_context_destroy(C);
    if (CodeObject.empty()) {
      fprintf(stderr, "translation of %s failed\n", Path.c_str());
      return;
    }
    llvm::SmallString<128> Tmp;
    llvm::sys::fs::createUniqueDirectory("ptx2amd-bench-cache", Tmp);
    Dir = Tmp.str().str();
    auto Cc = CodeObjectCache::open(Dir, 1ull << 30);
    if (!Cc || !(*Cc)->enabled()) return;
    Cache = std::move(*Cc);
    amdgpulower::LowerOptions LO;
    LO.arch = "gfx90a";
    Fp = optionsFingerprint(LO);
    Key = makeCacheKey(Ptx, "gfx90a", Fp);
    if (llvm::Error E = Cache->publish(Key, "hsaco", CodeObject)) {
      llvm::consumeError(std::move(E));
      return;
    }
    fprintf(stderr, "PTX %zu bytes -> code object %zu bytes; translation (cold start) %.3f s\n", Ptx.size(),
            CodeObject.size(), TranslateSeconds);
    Ok = true;
  }
  ~Fixture() {
    if (!Dir.empty()) llvm::sys::fs::remove_directories(Dir);
  }
};

Fixture &fixture() {
  static Fixture F;
  return F;
}

void BM_CacheKey(benchmark::State &St) {
  Fixture &F = fixture();
  if (!F.Ok) return St.SkipWithError("fixture failed");
  for (auto _ : St) benchmark::DoNotOptimize(makeCacheKey(F.Ptx, "gfx90a", F.Fp));
  St.SetBytesProcessed(int64_t(St.iterations()) * int64_t(F.Ptx.size()));
}

void BM_WarmLookup(benchmark::State &St) {
  Fixture &F = fixture();
  if (!F.Ok) return St.SkipWithError("fixture failed");
  for (auto _ : St) {
    auto Got = F.Cache->lookup(F.Key, "hsaco");
    if (!Got || Got->size() != F.CodeObject.size()) return St.SkipWithError("miss");
    benchmark::DoNotOptimize(Got->data());
  }
  St.SetBytesProcessed(int64_t(St.iterations()) * int64_t(F.CodeObject.size()));
}

// Key + lookup: the whole per-module cost of a warm start.
void BM_WarmLoad(benchmark::State &St) {
  Fixture &F = fixture();
  if (!F.Ok) return St.SkipWithError("fixture failed");
  for (auto _ : St) {
    auto Got = F.Cache->lookup(makeCacheKey(F.Ptx, "gfx90a", F.Fp), "hsaco");
    if (!Got) return St.SkipWithError("miss");
    benchmark::DoNotOptimize(Got->data());
  }
  St.counters["translate_s"] = F.TranslateSeconds;
  St.counters["code_object_bytes"] = double(F.CodeObject.size());
}

// Fresh cache object per iteration (what a new process does: open + load).
void BM_OpenAndLoad(benchmark::State &St) {
  Fixture &F = fixture();
  if (!F.Ok) return St.SkipWithError("fixture failed");
  for (auto _ : St) {
    auto C = CodeObjectCache::open(F.Dir, 1ull << 30);
    auto Got = (*C)->lookup(makeCacheKey(F.Ptx, "gfx90a", F.Fp), "hsaco");
    if (!Got) return St.SkipWithError("miss");
    benchmark::DoNotOptimize(Got->data());
  }
}

void BM_Publish(benchmark::State &St) {
  Fixture &F = fixture();
  if (!F.Ok) return St.SkipWithError("fixture failed");
  for (auto _ : St)
    if (llvm::Error E = F.Cache->publish(F.Key, "hsaco", F.CodeObject)) llvm::consumeError(std::move(E));
  St.SetBytesProcessed(int64_t(St.iterations()) * int64_t(F.CodeObject.size()));
}

BENCHMARK(BM_CacheKey)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_WarmLookup)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_WarmLoad)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_OpenAndLoad)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Publish)->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();

//===- BenchIsa.cpp - isa-emu throughput benchmark -------------------------===//
//
// Lane-instructions per second of the machine-code emulator for the
// compute-bound (FMA chain per lane) and memory-bound (grid-stride copy)
// kernels of bench/emu, as code objects clang-22 builds for gfx1100 (wave32)
// and gfx90a (wave64). The count is isa-emu's own (active lanes summed over
// executed wave instructions); the device uses 2 host threads.
//
//===----------------------------------------------------------------------===//
#include "isa-emu/IsaEmu.h"

#include "llvm/Support/MemoryBuffer.h"

#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <cstdlib>
#include <vector>

using namespace isaemu;

namespace {

struct Setup {
  std::unique_ptr<Device> D;
  Program *P = nullptr;
};

Setup make(const char *Cpu) {
  Setup S;
  DeviceOptions O;
  O.threads = 2;
  auto D = Device::create(O);
  if (!D) { fprintf(stderr, "%s\n", llvm::toString(D.takeError()).c_str()); std::exit(1); }
  S.D = std::move(*D);
  auto B = llvm::MemoryBuffer::getFile(std::string(ISA_BENCH_KERNEL_DIR) + "/basic_" + Cpu + ".hsaco");
  if (!B) { fprintf(stderr, "cannot read kernels for %s\n", Cpu); std::exit(1); }
  auto P = S.D->loadCodeObject(llvm::ArrayRef<char>((*B)->getBufferStart(), (*B)->getBufferSize()));
  if (!P) { fprintf(stderr, "%s\n", llvm::toString(P.takeError()).c_str()); std::exit(1); }
  S.P = *P;
  return S;
}

void run(benchmark::State &St, Setup &S, const char *K, LaunchConfig C, std::vector<void *> Args) {
  S.D->resetCounters();
  auto cpuSeconds = [] {
    rusage U;
    getrusage(RUSAGE_SELF, &U);
    return double(U.ru_utime.tv_sec + U.ru_stime.tv_sec) + 1e-6 * double(U.ru_utime.tv_usec + U.ru_stime.tv_usec);
  };
  double Cpu0 = cpuSeconds();
  for (auto _ : St) {
    llvm::Error E = S.D->launch(*S.P, K, C, Args.data());
    if (E) { St.SkipWithError(llvm::toString(std::move(E)).c_str()); return; }
  }
  double Cpu = cpuSeconds() - Cpu0;
  Counters KC = S.D->counters();
  St.counters["lane_instr/cpu_s"] = double(KC.laneInstructions) / std::max(Cpu, 1e-9);
  St.counters["lane_instr/s"] = benchmark::Counter(double(KC.laneInstructions), benchmark::Counter::kIsRate);
  St.counters["lanes/wave_instr"] = double(KC.laneInstructions) / double(std::max<uint64_t>(1, KC.waveInstructions));
}

void BM_ComputeBound(benchmark::State &St, const char *Cpu) {
  Setup S = make(Cpu);
  uint64_t out = *S.D->malloc(64 * 256 * 4);
  int iters = 200;
  LaunchConfig C;
  C.grid = {64};
  C.block = {256};
  run(St, S, "compute_bound", C, {&out, &iters});
}

void BM_MemoryBound(benchmark::State &St, const char *Cpu) {
  Setup S = make(Cpu);
  const int N = 1 << 20;
  uint64_t in = *S.D->malloc(N * 4), out = *S.D->malloc(N * 4);
  std::vector<float> H(N, 1.0f);
  llvm::consumeError(S.D->copyToDevice(in, H.data(), N * 4));
  int n = N, reps = 1;
  LaunchConfig C;
  C.grid = {64};
  C.block = {256};
  run(St, S, "memory_bound", C, {&in, &out, &n, &reps});
}

} // namespace

BENCHMARK_CAPTURE(BM_ComputeBound, gfx1100_wave32, "gfx1100")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_ComputeBound, gfx90a_wave64, "gfx90a")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_MemoryBound, gfx1100_wave32, "gfx1100")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_MemoryBound, gfx90a_wave64, "gfx90a")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_MAIN();

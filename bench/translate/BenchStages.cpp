//===- BenchStages.cpp - Google Benchmark: ptx2amd translation per stage ----===//
//
// Per-stage cost of translating one large PTX file (env PTX2AMD_BENCH_PTX,
// default: the build's generated CUB PTX) for one target (env
// PTX2AMD_BENCH_ARCH, default gfx1100): parse, ptx-to-llvm, amdgpu-lower
// (policy/ABI/devlib), the -O3 optimisation pipeline, instruction selection
// of the whole module on one thread, and the full back half with the
// per-kernel split on all cores (compileModule). Each stage's input is
// prepared outside the timed region. bench_translate.py gives the
// end-to-end ratio against ptxas.
//
//===----------------------------------------------------------------------===//
#include "amdgpulower/Lower.h"
#include "ptx/Parser.h"
#include "ptx2llvm/Translate.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#ifndef PTX2AMD_BENCH_DEFAULT_PTX
#define PTX2AMD_BENCH_DEFAULT_PTX ""
#endif

namespace {

std::string env(const char *name, const char *dflt) {
  const char *v = std::getenv(name);
  return v && *v ? v : dflt;
}

const std::string &ptxText() {
  static const std::string text = [] {
    std::ifstream f(env("PTX2AMD_BENCH_PTX", PTX2AMD_BENCH_DEFAULT_PTX), std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }();
  return text;
}

amdgpulower::LowerOptions lowerOptions() {
  amdgpulower::LowerOptions o;
  o.arch = env("PTX2AMD_BENCH_ARCH", std::string(support::kDefaultTarget).c_str());
  o.optLevel = 3;
  return o;
}

std::unique_ptr<ptx::Module> parsed(benchmark::State &st) {
  auto r = ptx::parse(ptxText(), "bench.ptx");
  if (!r.ok()) st.SkipWithError("PTX parse errors");
  return std::move(r.module);
}

std::unique_ptr<llvm::Module> translated(const ptx::Module &pm, llvm::LLVMContext &ctx,
                                         benchmark::State &st) {
  auto m = ptx2llvm::translate(pm, ctx, {});
  if (!m) {
    st.SkipWithError(llvm::toString(m.takeError()).substr(0, 200).c_str());
    return nullptr;
  }
  return std::move(*m);
}

llvm::SmallString<0> bitcode(const llvm::Module &m) {
  llvm::SmallString<0> bc;
  llvm::raw_svector_ostream os(bc);
  llvm::WriteBitcodeToFile(m, os);
  return bc;
}

std::unique_ptr<llvm::Module> load(const llvm::SmallString<0> &bc, llvm::LLVMContext &ctx) {
  return llvm::cantFail(llvm::parseBitcodeFile(llvm::MemoryBufferRef(bc.str(), "bench"), ctx));
}

void BM_Parse(benchmark::State &st) {
  if (ptxText().empty()) return st.SkipWithError("no PTX (set PTX2AMD_BENCH_PTX)");
  for (auto _ : st) benchmark::DoNotOptimize(ptx::parse(ptxText(), "bench.ptx"));
  st.SetBytesProcessed(int64_t(st.iterations()) * int64_t(ptxText().size()));
}

void BM_Translate(benchmark::State &st) {
  auto pm = parsed(st);
  if (!pm) return;
  for (auto _ : st) {
    llvm::LLVMContext ctx;
    benchmark::DoNotOptimize(translated(*pm, ctx, st));
  }
}

// amdgpu-lower without the optimisation pipeline (policy, ABI, devlib link).
void BM_Lower(benchmark::State &st) {
  auto pm = parsed(st);
  if (!pm) return;
  llvm::LLVMContext c0;
  auto m0 = translated(*pm, c0, st);
  if (!m0) return;
  auto bc = bitcode(*m0);
  for (auto _ : st) {
    st.PauseTiming();
    llvm::LLVMContext ctx;
    auto m = load(bc, ctx);
    std::vector<amdgpulower::Diagnostic> d;
    st.ResumeTiming();
    if (auto e = amdgpulower::lowerModuleNoOpt(*m, lowerOptions(), d))
      return st.SkipWithError(llvm::toString(std::move(e)).c_str());
  }
}

// Prepares the lowered (not optimised) module as bitcode.
llvm::SmallString<0> loweredBitcode(benchmark::State &st) {
  auto pm = parsed(st);
  if (!pm) return {};
  llvm::LLVMContext ctx;
  auto m = translated(*pm, ctx, st);
  if (!m) return {};
  std::vector<amdgpulower::Diagnostic> d;
  llvm::cantFail(amdgpulower::lowerModuleNoOpt(*m, lowerOptions(), d));
  return bitcode(*m);
}

void BM_Optimize(benchmark::State &st) {
  auto bc = loweredBitcode(st);
  if (bc.empty()) return;
  for (auto _ : st) {
    st.PauseTiming();
    llvm::LLVMContext ctx;
    auto m = load(bc, ctx);
    st.ResumeTiming();
    llvm::cantFail(amdgpulower::optimizeModule(*m, lowerOptions()));
  }
}

// Instruction selection + object emission of the whole optimised module, one thread.
void BM_Codegen(benchmark::State &st) {
  auto bc0 = loweredBitcode(st);
  if (bc0.empty()) return;
  llvm::LLVMContext c0;
  auto m0 = load(bc0, c0);
  llvm::cantFail(amdgpulower::optimizeModule(*m0, lowerOptions()));
  auto bc = bitcode(*m0);
  for (auto _ : st) {
    st.PauseTiming();
    llvm::LLVMContext ctx;
    auto m = load(bc, ctx);
    auto tm = llvm::cantFail(amdgpulower::createTargetMachine(lowerOptions().arch, 3));
    st.ResumeTiming();
    benchmark::DoNotOptimize(llvm::cantFail(amdgpulower::emitMachineCode(*m, *tm, false)));
  }
}

// The whole back half as ptx2amd runs it: lower, split per kernel, optimise +
// codegen on all cores, lld.
void BM_BackHalfParallel(benchmark::State &st) {
  auto pm = parsed(st);
  if (!pm) return;
  llvm::LLVMContext c0;
  auto m0 = translated(*pm, c0, st);
  if (!m0) return;
  auto bc = bitcode(*m0);
  for (auto _ : st) {
    st.PauseTiming();
    llvm::LLVMContext ctx;
    auto m = load(bc, ctx);
    std::vector<amdgpulower::Diagnostic> d;
    st.ResumeTiming();
    benchmark::DoNotOptimize(llvm::cantFail(amdgpulower::compileModule(
        std::move(m), lowerOptions(), amdgpulower::OutputKind::CodeObject, d)));
  }
}

BENCHMARK(BM_Parse)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_Translate)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_Lower)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_Optimize)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_Codegen)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_BackHalfParallel)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();

} // namespace

BENCHMARK_MAIN();

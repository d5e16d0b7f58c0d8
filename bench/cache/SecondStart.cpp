//===- SecondStart.cpp - A program's module loading, first vs second start ---===//
//
// `bench_cache_second_start EXE [--arch=gfx90a] [--kind=emu-bc|hsaco]
//  [--cache-dir=DIR]` does what a runtime does with a CUDA executable's PTX
// when it starts, through the on-disk cache and nothing else: for every PTX
// module in EXE's fat binaries (ptxfatbin, highest PTX <= sm_90) it computes
// the cache key and looks it up; on a hit it loads the product (emu-bc: parses
// the bitcode into an llvm::Module, as the emulator needs; hsaco: the bytes),
// on a miss it translates (emu-bc: ptxjit::lowerPTX, the emulator's module;
// hsaco: libptxjit code object) and publishes. It prints one line per module
// and "total: N modules, H hits, T ms". Run twice on a fresh directory, the
// second run's T over the first's is the second-start ratio of issue 13
// (thrust_second_start.sh does this). Not the shim: no program runs.
//
//===----------------------------------------------------------------------===//
#include "fatbin/Fatbin.h"
#include "ptxjit.h"
#include "ptxjit/Lowering.h"
#include "runtime/Cache.h"
#include "runtime/CacheOptions.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

using namespace runtime;
using Clock = std::chrono::steady_clock;

namespace {
double msSince(Clock::time_point T) { return std::chrono::duration<double, std::milli>(Clock::now() - T).count(); }

bool translate(const std::string &Ptx, const std::string &Name, const amdgpulower::LowerOptions &LO,
               const std::string &Kind, std::vector<uint8_t> &Out) {
  if (Kind == "emu-bc") {
    llvm::LLVMContext Ctx;
    std::vector<amdgpulower::Diagnostic> Diags;
    auto M = ptxjit::lowerPTX(Ptx, Name, Ctx, LO, Diags);
    if (!M) {
      fprintf(stderr, "%s: %s\n", Name.c_str(), llvm::toString(M.takeError()).c_str());
      return false;
    }
    llvm::SmallVector<char, 0> Bc;
    llvm::raw_svector_ostream OS(Bc);
    llvm::WriteBitcodeToFile(**M, OS);
    Out.assign(Bc.begin(), Bc.end());
    return true;
  }
  ptxjit_context C;
  ptxjit_context_create(&C);
  ptxjit_options O;
  ptxjit_options_create(&O);
  ptxjit_options_add_arch(O, LO.arch.c_str());
  ptxjit_result R = nullptr;
  bool Ok = ptxjit_compile(C, Ptx.data(), Ptx.size(), O, &R) == PTXJIT_SUCCESS;
  size_t N = 0;
  const void *D = R ? ptxjit_result_data(R, &N) : nullptr;
  if (Ok && D) Out.assign((const uint8_t *)D, (const uint8_t *)D + N);
  if (R) ptxjit_result_destroy(R);
  ptxjit_options_destroy(O);
  ptxjit_context_destroy(C);
  return Ok && D;
}
} // namespace

int main(int argc, char **argv) {
  std::string Exe, Arch = "gfx90a", Kind = "emu-bc", Dir;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    if (A.rfind("--arch=", 0) == 0) Arch = A.substr(7);
    else if (A.rfind("--kind=", 0) == 0) Kind = A.substr(7);
    else if (A.rfind("--cache-dir=", 0) == 0) Dir = A.substr(12);
    else Exe = A;
  }
  if (Exe.empty() || (Kind != "emu-bc" && Kind != "hsaco")) {
    fprintf(stderr, "usage: %s EXE [--arch=gfx90a] [--kind=emu-bc|hsaco] [--cache-dir=DIR]\n", argv[0]);
    return 2;
  }
  auto T0 = Clock::now();
  auto Cache = Dir.empty() ? CodeObjectCache::openDefault() : CodeObjectCache::open(Dir, kDefaultCacheMaxBytes);
  if (!Cache || !(*Cache)->enabled()) {
    fprintf(stderr, "cache unusable\n");
    return 1;
  }
  auto Buf = llvm::MemoryBuffer::getFile(Exe, false, false);
  if (!Buf) return fprintf(stderr, "cannot read %s\n", Exe.c_str()), 1;
  auto Mods = ptxfatbin::ptxFromFile(
      llvm::ArrayRef<uint8_t>((const uint8_t *)(*Buf)->getBufferStart(), (*Buf)->getBufferSize()), 90);
  if (!Mods) return fprintf(stderr, "%s\n", llvm::toString(Mods.takeError()).c_str()), 1;
  double ExtractMs = msSince(T0);
  amdgpulower::LowerOptions LO;
  LO.arch = Arch;
  std::string Fp = optionsFingerprint(LO);
  unsigned Hits = 0;
  double Total = 0;
  for (size_t I = 0; I < Mods->size(); ++I) {
    const std::string &Ptx = (*Mods)[I].text;
    auto T = Clock::now();
    CacheKey K = makeCacheKey(Ptx, Arch, Fp);
    bool Hit = false;
    size_t Bytes = 0;
    if (auto Got = (*Cache)->lookup(K, Kind)) {
      if (Kind == "emu-bc") { // the emulator needs the module itself
        llvm::LLVMContext Ctx;
        auto M = llvm::parseBitcodeFile(
            llvm::MemoryBufferRef(llvm::StringRef((const char *)Got->data(), Got->size()), "cached"), Ctx);
        if (!M) return fprintf(stderr, "cached bitcode unreadable: %s\n", llvm::toString(M.takeError()).c_str()), 1;
      }
      Hit = true;
      Bytes = Got->size();
    } else {
      std::vector<uint8_t> Out;
      if (!translate(Ptx, Exe + ":ptx" + std::to_string(I), LO, Kind, Out)) return 1;
      Bytes = Out.size();
      if (llvm::Error E = (*Cache)->publish(K, Kind, Out)) return fprintf(stderr, "publish failed\n"), 1;
    }
    double Ms = msSince(T);
    Total += Ms;
    Hits += Hit;
    printf("module %zu: %zu bytes of PTX, %s, %zu bytes of %s, %.3f ms\n", I, Ptx.size(), Hit ? "cache hit" : "translated",
           Bytes, Kind.c_str(), Ms);
  }
  printf("total: %zu modules, %u hits, %.3f ms (+ %.3f ms opening the cache and extracting the PTX)\n", Mods->size(),
         Hits, Total, ExtractMs);
  return 0;
}

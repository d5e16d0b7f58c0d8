//===- TranslateFuzz.cpp - libFuzzer target: the whole PTX translation -----===//
//
// Each input is PTX text; it goes through libptxjit exactly as `ptx2amd -O1
// --offload-arch=gfx1100` (or gfx90a with the pad policy, chosen by the
// input's first byte) would send it: parse, sema, translate, lower, optimise,
// codegen, in-process lld, with the result cache off and one thread. Any
// outcome but a code object or positioned diagnostics - a signal, an abort
// (LLVM fatal errors, failed asserts), an uncaught exception, exit() from
// inside LLVM, a timeout or more than -rss_limit_mb - is a finding. Inputs
// are mutated by PtxMutator (structure-aware) rather than bit flips.
//
// Built in the main (g++) build and linked with clang-22's libFuzzer runtime
// archive, which keeps the build to one file instead of a second, sanitized
// copy of LLVM-heavy code. The translator is therefore not coverage-
// instrumented; instead the outcome is the coverage signal: libFuzzer's
// "extra counters" section gets one counter per diagnostic message shape
// (digits and quoted names removed), per success/failure and per log2 bucket
// of the code object size and diagnostic count, so an input that makes the
// translator say something new is kept in the corpus.
//
//===----------------------------------------------------------------------===//
#include "PtxMutator.h"
#include "ptxjit.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

extern "C" size_t LLVMFuzzerMutate(uint8_t *Data, size_t Size, size_t MaxSize);

namespace {
constexpr size_t NumCounters = 1 << 14;
__attribute__((section("__libfuzzer_extra_counters"), used)) uint8_t Counters[NumCounters];

void feature(uint64_t H) {
  uint8_t &C = Counters[H % NumCounters];
  if (C < 255) ++C;
}

uint64_t shapeHash(const char *M) {
  uint64_t H = 1469598103934665603ull;
  bool Quoted = false;
  for (; *M; ++M) {
    char C = *M;
    if (C == '\'') { Quoted = !Quoted; continue; }
    if (Quoted || (C >= '0' && C <= '9')) continue;
    H = (H ^ uint8_t(C)) * 1099511628211ull;
  }
  return H;
}

unsigned log2Bucket(uint64_t V) { return V ? 64 - __builtin_clzll(V) : 0; }
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *D, size_t N) {
  static ptxjit_context Ctx = [] {
    ptxjit_context C = nullptr;
    if (ptxjit_context_create(&C) != PTXJIT_SUCCESS) std::abort();
    ptxjit_context_set_cache_enabled(C, 0);
    return C;
  }();
  bool Wave64 = N && (D[0] & 1);
  ptxjit_options O = nullptr;
  if (ptxjit_options_create(&O) != PTXJIT_SUCCESS) std::abort();
  ptxjit_options_add_arch(O, Wave64 ? "gfx90a" : "gfx1100");
  if (Wave64) ptxjit_options_set_warp_policy(O, PTXJIT_WARP_POLICY_PAD);
  ptxjit_options_set_opt_level(O, 1);
  ptxjit_options_set_threads(O, 1);
  ptxjit_options_set_emit(O, PTXJIT_EMIT_CODE_OBJECT);
  ptxjit_options_set_source_name(O, "fuzz.ptx");
  ptxjit_result Res = nullptr;
  ptxjit_status S = ptxjit_compile(Ctx, reinterpret_cast<const char *>(D), N, O, &Res);
  // A failure must come with at least one diagnostic.
  size_t NDiag = Res ? ptxjit_result_diagnostic_count(Res) : 0;
  if (S != PTXJIT_SUCCESS && Res && NDiag == 0) __builtin_trap();
  feature(S == PTXJIT_SUCCESS ? 1 : 2);
  feature(100 + log2Bucket(NDiag));
  for (size_t I = 0; I < NDiag; ++I) {
    ptxjit_diagnostic Dg;
    if (ptxjit_result_diagnostic(Res, I, &Dg) == PTXJIT_SUCCESS) feature(shapeHash(Dg.message) + Dg.severity);
  }
  if (S == PTXJIT_SUCCESS) {
    size_t Size = 0;
    ptxjit_result_data(Res, &Size);
    feature(200 + log2Bucket(Size));
  }
  ptxjit_result_destroy(Res);
  ptxjit_options_destroy(O);
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *Data, size_t Size, size_t MaxSize, unsigned Seed) {
  if (Seed % 8 == 0) return LLVMFuzzerMutate(Data, Size, MaxSize);
  std::string T(reinterpret_cast<const char *>(Data), Size);
  ptxfuzz::mutatePTX(T, Seed);
  if (T.size() > MaxSize) T.resize(MaxSize);
  std::memcpy(Data, T.data(), T.size());
  return T.size();
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t *D1, size_t S1, const uint8_t *D2, size_t S2, uint8_t *Out,
                                            size_t MaxOut, unsigned Seed) {
  std::string T = ptxfuzz::crossOverPTX(std::string(reinterpret_cast<const char *>(D1), S1),
                                        std::string(reinterpret_cast<const char *>(D2), S2), Seed);
  if (T.size() > MaxOut) T.resize(MaxOut);
  std::memcpy(Out, T.data(), T.size());
  return T.size();
}

//===- BinaryFuzz.cpp - libFuzzer targets for the binary-format readers ----===//
//
// One source, three targets (FUZZ_TARGET selects): every reader of untrusted
// bytes in ptxfatbin must end in a value or a FormatError, never a fault, a
// sanitizer report, an exception or an allocation above the documented caps.
//   file   : ptxFromFile(bytes) (ELF host binaries, raw fatbins) plus a
//            payload() of every entry of every container parseContainers finds;
//   memory : the same bytes placed so that they end exactly at a PROT_NONE
//            guard page, then ptxFromWrapper() on a v1 wrapper, on a v2
//            wrapper whose prelinked list points at them, and on the bare
//            container - any read past the bytes faults, so a header that
//            lies about its size is caught by ASan or the guard page;
//   bundle : readOffloadBundle(bytes), touching every returned payload byte.
// Built by tests/fuzz/binary/CMakeLists.txt with clang-22 and
// -fsanitize=fuzzer,address,undefined.
//
//===----------------------------------------------------------------------===//
#include "fatbin/Fatbin.h"
#include "fatbin/OffloadBundle.h"

#include <cstdint>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

namespace {

[[maybe_unused]] void fileForm(const uint8_t *D, size_t N) {
  llvm::ArrayRef<uint8_t> Bytes(D, N);
  auto Mods = ptxfatbin::ptxFromFile(Bytes, 90);
  if (!Mods) llvm::consumeError(Mods.takeError());
  auto Cs = ptxfatbin::parseContainers(Bytes);
  if (!Cs) {
    llvm::consumeError(Cs.takeError());
    return;
  }
  for (const auto &C : *Cs)
    for (const auto &E : C.entries) {
      auto P = ptxfatbin::payload(E);
      if (!P) llvm::consumeError(P.takeError());
      else if (P->size() > ptxfatbin::maxDecompressedSize(E) && E.compressed()) __builtin_trap();
    }
}

// Copies D at the end of a mapping followed by an inaccessible page.
struct Guarded {
  uint8_t *Base = nullptr;
  size_t Len = 0;
  uint8_t *Data = nullptr;
  Guarded(const uint8_t *D, size_t N) {
    size_t Page = size_t(sysconf(_SC_PAGESIZE));
    size_t Pages = (N + Page - 1) / Page + 1;
    Len = Pages * Page;
    void *M = mmap(nullptr, Len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (M == MAP_FAILED) return;
    Base = static_cast<uint8_t *>(M);
    mprotect(Base + Len - Page, Page, PROT_NONE);
    Data = Base + Len - Page - N;
    if (N) std::memcpy(Data, D, N);
  }
  ~Guarded() {
    if (Base) munmap(Base, Len);
  }
};

[[maybe_unused]] void memoryForm(const uint8_t *D, size_t N) {
  Guarded G(D, N);
  if (!G.Data) return;
  struct Wrapper {
    uint32_t magic, version;
    const void *data, *aux;
  };
  Wrapper W1{ptxfatbin::WrapperMagic, 1, G.Data, nullptr};
  auto M1 = ptxfatbin::ptxFromWrapper(&W1, 90);
  if (!M1) llvm::consumeError(M1.takeError());
  // v2: a list of one container pointer, NULL-terminated.
  const void *List[2] = {G.Data, nullptr};
  Wrapper W2{ptxfatbin::WrapperMagic, 2, nullptr, List};
  auto M2 = ptxfatbin::ptxFromWrapper(&W2, 90);
  if (!M2) llvm::consumeError(M2.takeError());
  // The bytes themselves as a wrapper or bare container (cuModuleLoadFatBinary).
  auto M3 = ptxfatbin::ptxFromWrapper(G.Data, 90);
  if (!M3) llvm::consumeError(M3.takeError());
}

[[maybe_unused]] void bundleForm(const uint8_t *D, size_t N) {
  auto B = ptxfatbin::readOffloadBundle(llvm::ArrayRef<uint8_t>(D, N));
  if (!B) {
    llvm::consumeError(B.takeError());
    return;
  }
  volatile uint8_t Sum = 0;
  for (const auto &E : *B)
    for (uint8_t C : E.bytes) Sum = Sum + C;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *D, size_t N) {
#if FUZZ_TARGET == 1
  fileForm(D, N);
#elif FUZZ_TARGET == 2
  memoryForm(D, N);
#else
  bundleForm(D, N);
#endif
  return 0;
}

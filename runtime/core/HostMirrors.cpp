//===- core/HostMirrors.cpp - host-mapped memory on an emulated device --------===//
#include "HostMirrors.h"

#include "ErrorTable.h"

#include "llvm/ADT/StringExtras.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace runtime {
namespace {

uint64_t pageBytes() { return uint64_t(sysconf(_SC_PAGESIZE)); }

// Calls F(Offset, Length) for each maximal run of bytes where A and B differ.
template <class Fn> llvm::Error forEachDifference(const uint8_t *A, const uint8_t *B, uint64_t N, Fn F) {
  uint64_t I = 0;
  while (I < N) {
    uint64_t Block = std::min<uint64_t>(64, N - I);
    if (std::memcmp(A + I, B + I, Block) == 0) {
      I += Block;
      continue;
    }
    while (I < N && A[I] == B[I]) ++I;
    uint64_t J = I;
    while (J < N && A[J] != B[J]) ++J;
    if (llvm::Error E = F(I, J - I)) return E;
    I = J;
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<uint64_t> HostMirrors::allocate(EmulatorMemory &M, uint64_t N, uint64_t &Charged) {
  const uint64_t Page = pageBytes();
  uint64_t Size = (std::max<uint64_t>(N, 1) + Page - 1) / Page * Page;
  auto A = M.malloc(Size + Page);
  if (!A) return toRuntimeError(A.takeError(), Errc::MemoryAllocation);
  uint64_t Base = (*A + Page - 1) / Page * Page;
  void *P = mmap(reinterpret_cast<void *>(Base), Size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (P == MAP_FAILED || reinterpret_cast<uint64_t>(P) != Base) {
    if (P != MAP_FAILED) munmap(P, Size);
    llvm::consumeError(M.free(*A));
    return makeError(Errc::MemoryAllocation,
                     "cannot map host memory at the device address 0x" + llvm::utohexstr(Base) +
                         " (host-mapped/managed memory needs that address range free in the process)");
  }
  // Both sides start as zeroes (a fresh mapping, a fresh arena allocation).
  std::vector<uint8_t> Zero(Size, 0);
  if (llvm::Error E = M.copyToDevice(Base, Zero.data(), Size)) {
    munmap(P, Size);
    llvm::consumeError(M.free(*A));
    return toRuntimeError(std::move(E), Errc::MemoryAllocation);
  }
  std::lock_guard<std::mutex> G(Mu);
  Mirror &Mi = Mirrors[Base];
  Mi.size = Size;
  Mi.devBase = *A;
  Mi.devAddr = Base;
  Mi.shadow = std::move(Zero);
  Charged = Size + Page;
  return Base;
}

llvm::Error HostMirrors::release(EmulatorMemory &M, uint64_t Addr, uint64_t &Charged) {
  std::lock_guard<std::mutex> G(Mu);
  auto It = Mirrors.find(Addr);
  if (It == Mirrors.end() || It->second.aliasStorage) return makeError(Errc::InvalidValue, "not a host allocation");
  munmap(reinterpret_cast<void *>(Addr), It->second.size);
  Charged = It->second.size + pageBytes();
  uint64_t Dev = It->second.devBase;
  Mirrors.erase(It);
  return toRuntimeError(M.free(Dev), Errc::InvalidValue);
}

llvm::Expected<uint64_t> HostMirrors::alias(EmulatorMemory &M, uint64_t DevAddr, uint64_t Bytes) {
  Mirror Mi;
  Mi.size = std::max<uint64_t>(Bytes, 1);
  Mi.devAddr = DevAddr;
  Mi.aliasStorage.reset(new uint8_t[Mi.size]);
  if (llvm::Error E = M.copyFromDevice(Mi.aliasStorage.get(), DevAddr, Mi.size))
    return toRuntimeError(std::move(E), Errc::InvalidValue);
  Mi.shadow.assign(Mi.aliasStorage.get(), Mi.aliasStorage.get() + Mi.size);
  uint64_t Host = reinterpret_cast<uint64_t>(Mi.aliasStorage.get());
  std::lock_guard<std::mutex> G(Mu);
  Mirrors[Host] = std::move(Mi);
  return Host;
}

llvm::Error HostMirrors::toDevice(EmulatorMemory &M) {
  std::lock_guard<std::mutex> G(Mu);
  for (auto &[Addr, Mi] : Mirrors) {
    uint8_t *H = reinterpret_cast<uint8_t *>(Addr);
    if (llvm::Error E = forEachDifference(H, Mi.shadow.data(), Mi.size, [&](uint64_t O, uint64_t N) {
          std::memcpy(Mi.shadow.data() + O, H + O, N);
          return M.copyToDevice(Mi.devAddr + O, H + O, N);
        }))
      return toRuntimeError(std::move(E), Errc::Unknown);
  }
  return llvm::Error::success();
}

llvm::Error HostMirrors::fromDevice(EmulatorMemory &M) {
  std::lock_guard<std::mutex> G(Mu);
  std::vector<uint8_t> Now;
  for (auto &[Addr, Mi] : Mirrors) {
    Now.resize(Mi.size);
    if (llvm::Error E = M.copyFromDevice(Now.data(), Mi.devAddr, Mi.size)) return toRuntimeError(std::move(E), Errc::Unknown);
    uint8_t *H = reinterpret_cast<uint8_t *>(Addr);
    llvm::cantFail(forEachDifference(Now.data(), Mi.shadow.data(), Mi.size, [&](uint64_t O, uint64_t N) {
      std::memcpy(Mi.shadow.data() + O, Now.data() + O, N);
      std::memcpy(H + O, Now.data() + O, N);
      return llvm::Error::success();
    }));
  }
  return llvm::Error::success();
}

void HostMirrors::retireAliases() {
  std::lock_guard<std::mutex> G(Mu);
  for (auto It = Mirrors.begin(); It != Mirrors.end();) {
    if (!It->second.aliasStorage) {
      ++It;
      continue;
    }
    RetiredAliases.push_back(std::move(It->second.aliasStorage));
    It = Mirrors.erase(It);
  }
}

size_t HostMirrors::size() const {
  std::lock_guard<std::mutex> G(Mu);
  return Mirrors.size();
}

bool HostMirrors::empty() const {
  std::lock_guard<std::mutex> G(Mu);
  return Mirrors.empty();
}

} // namespace runtime

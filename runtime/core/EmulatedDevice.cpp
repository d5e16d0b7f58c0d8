//===- core/EmulatedDevice.cpp - what the emulator backends share ------------===//
#include "EmulatedDevice.h"

#include "ErrorTable.h"

#include <cstdio>
#include <cstring>
#include <vector>

namespace runtime {
namespace {

// Copies and memsets go straight to the executor's memory; launches to the
// device's launchKernel. Everything is synchronous, so finish() has nothing to wait for.
class EmulatedQueue final : public BackendQueue {
public:
  explicit EmulatedQueue(EmulatedDevice &D) : D(D) {}
  llvm::Error launch(BackendModule &M, const KernelProperties &K, const LaunchParams &P,
                     const Kernarg &Args) override {
    return D.launchKernel(M, K, P, Args);
  }
  llvm::Error copy(uint64_t Dst, uint64_t Src, uint64_t Bytes, CopyDir Dir) override {
    if (Dir == CopyDir::HostToHost) {
      std::memmove(reinterpret_cast<void *>(Dst), reinterpret_cast<const void *>(Src), Bytes);
      return llvm::Error::success();
    }
    auto M = D.memory();
    if (!M) return M.takeError();
    switch (Dir) {
    case CopyDir::HostToDevice:
      return toRuntimeError((*M)->copyToDevice(Dst, reinterpret_cast<const void *>(Src), Bytes), Errc::InvalidValue);
    case CopyDir::DeviceToHost:
      return toRuntimeError((*M)->copyFromDevice(reinterpret_cast<void *>(Dst), Src, Bytes), Errc::InvalidValue);
    case CopyDir::DeviceToDevice: {
      std::vector<uint8_t> Tmp(Bytes);
      if (llvm::Error E = (*M)->copyFromDevice(Tmp.data(), Src, Bytes)) return toRuntimeError(std::move(E), Errc::InvalidValue);
      return toRuntimeError((*M)->copyToDevice(Dst, Tmp.data(), Bytes), Errc::InvalidValue);
    }
    case CopyDir::HostToHost: break;
    }
    return llvm::Error::success();
  }
  llvm::Error memset(uint64_t Dst, int Value, uint64_t Bytes) override {
    auto M = D.memory();
    if (!M) return M.takeError();
    return toRuntimeError((*M)->memset(Dst, Value, Bytes), Errc::InvalidValue);
  }
  llvm::Error finish() override { return llvm::Error::success(); }

private:
  EmulatedDevice &D;
};

} // namespace

EmulatedDevice::EmulatedDevice(DeviceProperties P, uint64_t HeapBytes, uint64_t FifoBytes)
    : Props(std::move(P)), Heap(HeapBytes), Fifo(FifoBytes) {}

llvm::Expected<uint64_t> EmulatedDevice::allocDevice(uint64_t Bytes) {
  auto M = memory();
  if (!M) return M.takeError();
  auto A = (*M)->malloc(Bytes);
  if (!A) return toRuntimeError(A.takeError(), Errc::MemoryAllocation);
  std::lock_guard<std::mutex> G(SizesMu);
  Used += Bytes;
  Sizes[*A] = Bytes;
  return *A;
}

llvm::Error EmulatedDevice::freeDevice(uint64_t Addr) {
  auto M = memory();
  if (!M) return M.takeError();
  {
    std::lock_guard<std::mutex> G(SizesMu);
    auto It = Sizes.find(Addr);
    if (It == Sizes.end()) return makeError(Errc::InvalidValue, "not a device allocation");
    Used -= It->second;
    Sizes.erase(It);
  }
  return toRuntimeError((*M)->free(Addr), Errc::InvalidValue);
}

llvm::Expected<uint64_t> EmulatedDevice::allocHost(uint64_t Bytes, HostMemKind) {
  auto M = memory();
  if (!M) return M.takeError();
  uint64_t Charged = 0;
  auto A = Mirrors.allocate(**M, Bytes, Charged);
  if (A) Used += Charged;
  return A;
}

llvm::Error EmulatedDevice::freeHost(uint64_t Addr) {
  auto M = memory();
  if (!M) return M.takeError();
  uint64_t Charged = 0;
  llvm::Error E = Mirrors.release(**M, Addr, Charged);
  Used -= Charged;
  return E;
}

llvm::Expected<uint64_t> EmulatedDevice::hostAlias(uint64_t DeviceAddr, uint64_t Bytes) {
  auto M = memory();
  if (!M) return M.takeError();
  return Mirrors.alias(**M, DeviceAddr, Bytes);
}

llvm::Expected<std::unique_ptr<BackendQueue>> EmulatedDevice::createQueue() {
  return std::make_unique<EmulatedQueue>(*this);
}

llvm::Error EmulatedDevice::setLimit(Limit L, uint64_t V) {
  std::lock_guard<std::mutex> G(LimitMu);
  switch (L) {
  case Limit::StackSize: Stack = V; return llvm::Error::success();
  case Limit::MallocHeapSize:
  case Limit::PrintfFifoSize:
    if (Frozen) return makeError(Errc::InvalidValue, "the heap and printf FIFO sizes are fixed once the device is in use");
    (L == Limit::MallocHeapSize ? Heap : Fifo) = V;
    return llvm::Error::success();
  }
  return makeError(Errc::InvalidValue, "unknown limit");
}

uint64_t EmulatedDevice::limit(Limit L) const {
  return L == Limit::StackSize ? Stack.load() : L == Limit::MallocHeapSize ? Heap.load() : Fifo.load();
}

void EmulatedDevice::setPrintfSink(std::function<void(llvm::StringRef)> S) {
  std::lock_guard<std::mutex> G(SinkMu);
  Sink = std::move(S);
}

void EmulatedDevice::emitPrintf(llvm::StringRef Text) {
  if (Text.empty()) return;
  std::lock_guard<std::mutex> G(SinkMu);
  if (Sink) Sink(Text);
  else fwrite(Text.data(), 1, Text.size(), stdout);
}

std::pair<uint64_t, uint64_t> EmulatedDevice::memInfo() const {
  uint64_t T = Props.totalGlobalMem, U = Used.load();
  return {U > T ? 0 : T - U, T};
}

} // namespace runtime

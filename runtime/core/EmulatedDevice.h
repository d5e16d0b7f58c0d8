//===- core/EmulatedDevice.h - what the emulator backends share -*- C++ -*-===//
//
// The base of the backends that run kernels on a CPU executor (`emu`:
// amdgpu-emu, `isa`: isa-emu). It implements the BackendDevice primitives
// that do not depend on the executor: device allocations with memInfo
// accounting, host-mapped memory and host aliases (HostMirrors), the heap /
// printf-FIFO / stack limits (heap and FIFO fixed once the executor is in
// use, as CUDA fixes them once a kernel ran), the device-printf sink, and
// queues whose copies and memsets go straight to the executor's memory
// (synchronous: the core calls a queue from its stream's worker thread).
// A subclass supplies the executor's memory (created on first use), module
// loading and the launch itself; launches call syncToDevice() before and
// syncFromDevice() after running the kernel.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "EmulatorMemory.h"
#include "HostMirrors.h"

#include "runtime/Backend.h"

#include <atomic>
#include <functional>
#include <map>
#include <mutex>

namespace runtime {

class EmulatedDevice : public BackendDevice {
public:
  EmulatedDevice(DeviceProperties P, uint64_t HeapBytes, uint64_t FifoBytes);
  const DeviceProperties &properties() const override { return Props; }
  llvm::Expected<uint64_t> allocDevice(uint64_t Bytes) override;
  llvm::Error freeDevice(uint64_t Addr) override;
  llvm::Expected<uint64_t> allocHost(uint64_t Bytes, HostMemKind Kind) override;
  llvm::Error freeHost(uint64_t Addr) override;
  llvm::Expected<uint64_t> hostAlias(uint64_t DeviceAddr, uint64_t Bytes) override;
  void retireHostAliases() override { Mirrors.retireAliases(); }
  llvm::Expected<std::unique_ptr<BackendQueue>> createQueue() override;
  llvm::Error setLimit(Limit L, uint64_t Value) override;
  uint64_t limit(Limit L) const override;
  void setPrintfSink(std::function<void(llvm::StringRef)> Sink) override;
  std::pair<uint64_t, uint64_t> memInfo() const override;

  // ---- for the subclass
  // The executor's memory; the first call creates the executor (with the
  // heap / FIFO sizes set until then) and freezes those limits.
  virtual llvm::Expected<EmulatorMemory *> memory() = 0;
  // Runs one kernel to completion (a queue's worker thread calls it).
  virtual llvm::Error launchKernel(BackendModule &M, const KernelProperties &K, const LaunchParams &P,
                                   const Kernarg &Args) = 0;
  // Device printf text: to the core's sink, else stdout.
  void emitPrintf(llvm::StringRef Text);
  // Host-mapped memory around a launch.
  llvm::Error syncToDevice(EmulatorMemory &M) { return Mirrors.toDevice(M); }
  llvm::Error syncFromDevice(EmulatorMemory &M) { return Mirrors.fromDevice(M); }
  uint64_t heapBytes() const { return Heap.load(); }
  uint64_t printfFifoBytes() const { return Fifo.load(); }

protected:
  // The heap / FIFO sizes are fixed from now on (setLimit refuses them).
  void freezeLimits() {
    std::lock_guard<std::mutex> G(LimitMu);
    Frozen = true;
  }
  DeviceProperties Props;

private:
  std::atomic<uint64_t> Heap, Fifo, Stack{1024};
  std::atomic<bool> Frozen{false};
  std::mutex LimitMu;
  std::atomic<uint64_t> Used{0};
  std::mutex SizesMu;
  std::map<uint64_t, uint64_t> Sizes; // device allocation -> bytes
  HostMirrors Mirrors;
  std::mutex SinkMu;
  std::function<void(llvm::StringRef)> Sink;
};

} // namespace runtime

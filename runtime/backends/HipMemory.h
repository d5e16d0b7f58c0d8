//===- backends/HipMemory.h - HIP device memory behind EmulatorMemory -*- C++ -*-===//
//
// core/HostMirrors keeps a host copy of a `__managed__` module variable
// coherent with its device bytes around launches; it reaches device memory
// through the EmulatorMemory interface. This adapter gives it HIP's: copies
// and fills in the order of one stream (the launching queue's, so a copy
// never waits for another stream's running kernel as a null-stream hipMemcpy
// would), or synchronous hipMemcpy when no stream is given (at registration).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "EmulatorMemory.h"
#include "HipApi.h"

namespace runtime::hip {

class HipStreamMemory final : public EmulatorMemory {
public:
  HipStreamMemory(const HipApi &A, hipStream S) : A(A), S(S) {}
  llvm::Expected<uint64_t> malloc(uint64_t Bytes) override {
    void *P = nullptr;
    if (llvm::Error E = hipErr(A, A.Malloc(&P, Bytes), "hipMalloc")) return E;
    return reinterpret_cast<uint64_t>(P);
  }
  llvm::Error free(uint64_t Addr) override { return hipErr(A, A.Free(reinterpret_cast<void *>(Addr)), "hipFree"); }
  llvm::Error copyToDevice(uint64_t Dst, const void *Src, uint64_t Bytes) override {
    return copy(reinterpret_cast<void *>(Dst), Src, Bytes, MemcpyHostToDevice);
  }
  llvm::Error copyFromDevice(void *Dst, uint64_t Src, uint64_t Bytes) override {
    return copy(Dst, reinterpret_cast<const void *>(Src), Bytes, MemcpyDeviceToHost);
  }
  llvm::Error memset(uint64_t Dst, int Value, uint64_t Bytes) override {
    if (llvm::Error E = hipErr(A, A.MemsetAsync(reinterpret_cast<void *>(Dst), Value, Bytes, S), "hipMemsetAsync"))
      return E;
    return hipErr(A, A.StreamSynchronize(S), "hipStreamSynchronize");
  }

private:
  llvm::Error copy(void *Dst, const void *Src, uint64_t Bytes, int Kind) {
    if (!S) return hipErr(A, A.Memcpy(Dst, Src, Bytes, Kind), "hipMemcpy");
    if (llvm::Error E = hipErr(A, A.MemcpyAsync(Dst, Src, Bytes, Kind, S), "hipMemcpyAsync")) return E;
    return hipErr(A, A.StreamSynchronize(S), "hipStreamSynchronize");
  }
  const HipApi &A;
  hipStream S;
};

} // namespace runtime::hip

//===- core/EmulatorMemory.h - an emulator's device memory, as the core uses it -*- C++ -*-===//
//
// The part of an executor's host API the emulated backends share: allocate,
// free, copy in/out and fill device memory. amdgpu-emu (emu::Device) and
// isa-emu (isaemu::Device) have the same member names; EmulatorMemoryOf<D>
// adapts either (an executor without free() keeps the bytes: freeing
// succeeds and they are not reused). Errors pass through as the executor returned them
// (typed: ErrorTable.h maps them).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/Support/Error.h"

#include <cstdint>

namespace runtime {

class EmulatorMemory {
public:
  virtual ~EmulatorMemory() = default;
  virtual llvm::Expected<uint64_t> malloc(uint64_t Bytes) = 0;
  virtual llvm::Error free(uint64_t Addr) = 0;
  virtual llvm::Error copyToDevice(uint64_t Dst, const void *Src, uint64_t Bytes) = 0;
  virtual llvm::Error copyFromDevice(void *Dst, uint64_t Src, uint64_t Bytes) = 0;
  virtual llvm::Error memset(uint64_t Dst, int Value, uint64_t Bytes) = 0;
};

template <class Dev> class EmulatorMemoryOf final : public EmulatorMemory {
public:
  explicit EmulatorMemoryOf(Dev &D) : D(D) {}
  llvm::Expected<uint64_t> malloc(uint64_t Bytes) override { return D.malloc(Bytes); }
  llvm::Error free(uint64_t Addr) override {
    if constexpr (requires { D.free(Addr); }) return D.free(Addr);
    else return llvm::Error::success(); // no free(): nothing to return
  }
  llvm::Error copyToDevice(uint64_t Dst, const void *Src, uint64_t Bytes) override {
    return D.copyToDevice(Dst, Src, Bytes);
  }
  llvm::Error copyFromDevice(void *Dst, uint64_t Src, uint64_t Bytes) override {
    return D.copyFromDevice(Dst, Src, Bytes);
  }
  llvm::Error memset(uint64_t Dst, int Value, uint64_t Bytes) override { return D.memset(Dst, Value, Bytes); }
  Dev &device() { return D; }

private:
  Dev &D;
};

} // namespace runtime

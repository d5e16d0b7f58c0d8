//===- core/HostMirrors.h - host-mapped memory on an emulated device -*- C++ -*-===//
//
// Pinned and managed memory on a CPU emulator: each allocation is an arena
// allocation plus a host mapping at the same address (mmap MAP_FIXED_NOREPLACE),
// so host and kernel use one pointer; a `__managed__` module variable gets a
// host alias (heap bytes kept coherent with its device bytes). The bytes
// live twice (host mapping, device arena) and are synchronised around each
// launch against a shadow, the value both sides last agreed on:
//   before a launch, bytes the host changed since (host != shadow) go to the
//     device;
//   after it, bytes the kernel changed (device != shadow) go to the host.
// So host writes while a kernel runs on another stream are not clobbered,
// and launches running at the same time each publish only what they changed.
// Thread-safe (one mutex); the set is the backend device's.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "EmulatorMemory.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace runtime {

class HostMirrors {
public:
  // Host-mapped memory of N bytes (rounded to pages); returns its address.
  // Bytes: what the device accounting should charge.
  llvm::Expected<uint64_t> allocate(EmulatorMemory &M, uint64_t N, uint64_t &Charged);
  // Frees an allocate()d mapping; InvalidValue for anything else. Charged:
  // the bytes the allocation had charged.
  llvm::Error release(EmulatorMemory &M, uint64_t Addr, uint64_t &Charged);
  // A host copy of [DevAddr, +Bytes) kept coherent across launches.
  llvm::Expected<uint64_t> alias(EmulatorMemory &M, uint64_t DevAddr, uint64_t Bytes);
  // Every alias stops being synchronised (its module was unloaded); its host
  // bytes stay allocated, as the host program may still read them.
  void retireAliases();
  // Number of mirrors synchronised around a launch.
  size_t size() const;

  // Around a launch.
  llvm::Error toDevice(EmulatorMemory &M);
  llvm::Error fromDevice(EmulatorMemory &M);
  bool empty() const;

private:
  struct Mirror {
    uint64_t size = 0;    // bytes of the host mapping (== device bytes used)
    uint64_t devBase = 0; // the arena allocation to free (0: none, an alias)
    uint64_t devAddr = 0; // where the device sees the bytes
    std::vector<uint8_t> shadow;             // the bytes host and device last agreed on
    std::unique_ptr<uint8_t[]> aliasStorage; // host bytes of an alias
  };
  mutable std::mutex Mu;
  std::map<uint64_t, Mirror> Mirrors; // by host address
  std::vector<std::unique_ptr<uint8_t[]>> RetiredAliases;
};

} // namespace runtime

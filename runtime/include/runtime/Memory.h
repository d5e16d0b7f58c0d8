//===- runtime/Memory.h - the context's allocation registry -----*- C++ -*-===//
//
// Every allocation a context hands out (device, pinned host, managed) is
// recorded here with its base, size, kind and owning context (one registry
// per device: its contexts share one unified address space, so a pointer
// of one context is valid in the others, as in CUDA), so that any pointer a program
// passes can be classified without touching it: inside a live allocation
// (which one, at which offset) or not. Bad pointers thus become InvalidValue
// instead of crashes, freed and reset pointers are dead, and an allocation
// that cannot be satisfied never overlaps a live one.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Backend.h"

#include <functional>
#include <map>
#include <mutex>
#include <optional>

namespace runtime {

enum class MemoryKind { Device, Pinned, Managed };
// The direction a caller states (cudaMemcpyKind); Default infers it. A side
// stated as device must be a live allocation.
enum class MemcpyKind { Default, HostToHost, HostToDevice, DeviceToHost, DeviceToDevice };

struct Allocation {
  uint64_t base = 0;
  uint64_t size = 0; // bytes the program asked for (>= 1 reserved)
  MemoryKind kind = MemoryKind::Device;
  bool moduleGlobal = false; // a module variable (device memory the program cannot free)
  const void *owner = nullptr; // the Context that allocated it (freed with it)
  bool graphMemory = false;    // a graph allocation (runtime/Graph.h GraphAllocation)
  bool graphLive = false;      // ... between the launch that allocated it and its free
  bool hostAccessible() const { return kind != MemoryKind::Device; }
};

class MemoryRegistry {
public:
  void insert(const Allocation &A);
  std::optional<Allocation> erase(uint64_t Base);           // exact base only
  // The allocation holding [P, P+N) entirely, if any.
  std::optional<Allocation> find(uint64_t P, uint64_t N = 1) const;
  // Whether [P, P+N) touches any live allocation (contained or not).
  bool overlaps(uint64_t P, uint64_t N) const;
  std::vector<Allocation> all() const;
  // Changes the record at exactly Base; false when there is none.
  bool update(uint64_t Base, const std::function<void(Allocation &)> &Change);
  void clear();

private:
  mutable std::mutex Mu;
  std::map<uint64_t, Allocation> ByBase;
};

} // namespace runtime

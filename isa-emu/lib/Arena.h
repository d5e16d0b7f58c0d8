//===- Arena.h - allocator of the device-memory arena -------------*- C++ -*-===//
//
// isa-emu's device memory is one virtual reservation; this class hands out
// 256-byte aligned ranges of it (offsets from the arena's start) and takes
// them back. Freed ranges coalesce with free neighbours and are reused best
// fit (smallest hole that holds the request, lowest address on ties), so a
// program that allocates and frees in a loop -- and every launch's kernarg
// segment, dispatch packet, queue and scratch backing -- stays within a
// bounded footprint instead of walking the whole reservation. top() is the
// high-water mark: every byte below it has been handed out at some point
// and stays mapped (launches snapshot it; freed bytes are zeroed by the
// device, not unmapped). Not thread-safe: the device holds its lock.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace isaemu::detail {

class ArenaAllocator {
public:
  static constexpr uint64_t Align = 256;
  explicit ArenaAllocator(uint64_t Capacity) : Cap(Capacity) {}

  /// Offset of a new range of at least \p Bytes (1 for 0), or nullopt when
  /// no hole and no room above top() holds it.
  std::optional<uint64_t> allocate(uint64_t Bytes);
  /// Takes back the range allocate() returned at \p Off; its rounded size,
  /// or nullopt when \p Off is not the start of a live range.
  std::optional<uint64_t> release(uint64_t Off);
  /// Size of the live range starting at \p Off (0: none).
  uint64_t sizeOf(uint64_t Off) const;

  uint64_t top() const { return Top; }
  uint64_t liveBytes() const { return Live; }
  size_t holes() const { return HoleByOff.size(); }

private:
  void addHole(uint64_t Off, uint64_t Size);
  void removeHole(std::map<uint64_t, uint64_t>::iterator It);

  uint64_t Cap, Top = 0, Live = 0;
  std::map<uint64_t, uint64_t> Ranges;                ///< live: offset -> rounded size
  std::map<uint64_t, uint64_t> HoleByOff;             ///< free below Top: offset -> size
  std::set<std::pair<uint64_t, uint64_t>> HoleBySize; ///< (size, offset)
};

} // namespace isaemu::detail

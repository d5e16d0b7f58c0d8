//===- Arena.cpp - best-fit allocation with coalescing frees ---------------===//
//
// See Arena.h. Holes are kept twice (by offset, to coalesce; by size, to
// find the best fit); a hole that reaches top() is given back to the space
// above it, so top() only grows when no hole fits.
//
//===----------------------------------------------------------------------===//
#include "Arena.h"

namespace isaemu::detail {

void ArenaAllocator::addHole(uint64_t Off, uint64_t Size) {
  // Merge with the hole just below and the one just above.
  auto Next = HoleByOff.lower_bound(Off);
  if (Next != HoleByOff.begin()) {
    auto Prev = std::prev(Next);
    if (Prev->first + Prev->second == Off) {
      Off = Prev->first;
      Size += Prev->second;
      removeHole(Prev);
    }
  }
  Next = HoleByOff.lower_bound(Off);
  if (Next != HoleByOff.end() && Off + Size == Next->first) {
    Size += Next->second;
    removeHole(Next);
  }
  if (Off + Size == Top) { // the topmost range: lower the high-water mark of use
    Top = Off;
    return;
  }
  HoleByOff.emplace(Off, Size);
  HoleBySize.emplace(Size, Off);
}

void ArenaAllocator::removeHole(std::map<uint64_t, uint64_t>::iterator It) {
  HoleBySize.erase({It->second, It->first});
  HoleByOff.erase(It);
}

std::optional<uint64_t> ArenaAllocator::allocate(uint64_t Bytes) {
  uint64_t Size = (std::max<uint64_t>(Bytes, 1) + Align - 1) & ~(Align - 1);
  if (Size < Bytes) return std::nullopt; // overflow
  uint64_t Off;
  auto Fit = HoleBySize.lower_bound({Size, 0});
  if (Fit != HoleBySize.end()) {
    Off = Fit->second;
    uint64_t HoleSize = Fit->first;
    removeHole(HoleByOff.find(Off));
    if (HoleSize > Size) {
      HoleByOff.emplace(Off + Size, HoleSize - Size);
      HoleBySize.emplace(HoleSize - Size, Off + Size);
    }
  } else {
    if (Size > Cap || Top > Cap - Size) return std::nullopt;
    Off = Top;
    Top += Size;
  }
  Ranges.emplace(Off, Size);
  Live += Size;
  return Off;
}

std::optional<uint64_t> ArenaAllocator::release(uint64_t Off) {
  auto It = Ranges.find(Off);
  if (It == Ranges.end()) return std::nullopt;
  uint64_t Size = It->second;
  Ranges.erase(It);
  Live -= Size;
  addHole(Off, Size);
  return Size;
}

uint64_t ArenaAllocator::sizeOf(uint64_t Off) const {
  auto It = Ranges.find(Off);
  return It == Ranges.end() ? 0 : It->second;
}

} // namespace isaemu::detail

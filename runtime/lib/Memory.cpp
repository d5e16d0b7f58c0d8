//===- Memory.cpp - the allocation registry (runtime/Memory.h) ---------------===//
#include "runtime/Memory.h"

namespace runtime {

void MemoryRegistry::insert(const Allocation &A) {
  std::lock_guard<std::mutex> G(Mu);
  ByBase[A.base] = A;
}

std::optional<Allocation> MemoryRegistry::erase(uint64_t Base) {
  std::lock_guard<std::mutex> G(Mu);
  auto It = ByBase.find(Base);
  if (It == ByBase.end()) return std::nullopt;
  Allocation A = It->second;
  ByBase.erase(It);
  return A;
}

std::optional<Allocation> MemoryRegistry::find(uint64_t P, uint64_t N) const {
  std::lock_guard<std::mutex> G(Mu);
  auto It = ByBase.upper_bound(P);
  if (It == ByBase.begin()) return std::nullopt;
  --It;
  const Allocation &A = It->second;
  uint64_t Span = std::max<uint64_t>(A.size, 1);
  if (P - A.base >= Span || N > Span - (P - A.base)) return std::nullopt;
  return A;
}

std::vector<Allocation> MemoryRegistry::all() const {
  std::lock_guard<std::mutex> G(Mu);
  std::vector<Allocation> V;
  for (auto &[B, A] : ByBase) V.push_back(A);
  return V;
}

bool MemoryRegistry::update(uint64_t Base, const std::function<void(Allocation &)> &Change) {
  std::lock_guard<std::mutex> G(Mu);
  auto It = ByBase.find(Base);
  if (It == ByBase.end()) return false;
  Change(It->second);
  return true;
}

void MemoryRegistry::clear() {
  std::lock_guard<std::mutex> G(Mu);
  ByBase.clear();
}

} // namespace runtime

namespace runtime {
bool MemoryRegistry::overlaps(uint64_t P, uint64_t N) const {
  std::lock_guard<std::mutex> G(Mu);
  uint64_t End = N > UINT64_MAX - P ? UINT64_MAX : P + N;
  auto It = ByBase.lower_bound(End);
  if (It == ByBase.begin()) return false;
  --It;
  return It->second.base + std::max<uint64_t>(It->second.size, 1) > P;
}
} // namespace runtime

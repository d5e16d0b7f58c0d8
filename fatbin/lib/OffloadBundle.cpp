//===- OffloadBundle.cpp - bounds-checked __CLANG_OFFLOAD_BUNDLE__ reader ---===//
//
// Walks the entry table with every read checked against Bytes.size() using
// subtraction (never `a + b > n`, which wraps for attacker-chosen u64s), then
// sorts the non-empty payload ranges to reject overlaps in O(n log n). The
// entry count is bounded by the table space itself (each entry needs >= 25
// bytes), so a huge num_entries cannot make us reserve memory.
//
//===----------------------------------------------------------------------===//
#include "fatbin/OffloadBundle.h"
#include "fatbin/FormatError.h"

#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <cstring>
#include <set>

namespace ptxfatbin {
namespace {

uint64_t rd64(const uint8_t *P) {
  uint64_t V;
  std::memcpy(&V, P, 8);
  return V;
}

std::string field(uint64_t I, const char *Name) { return "bundle.entry[" + std::to_string(I) + "]." + Name; }

} // namespace

llvm::Expected<std::vector<BundleEntryRef>> readOffloadBundle(llvm::ArrayRef<uint8_t> Bytes) {
  const uint64_t N = Bytes.size();
  if (N >= 4 && std::memcmp(Bytes.data(), "CCOB", 4) == 0)
    return formatError("bundle.magic", 0, "compressed offload bundles (CCOB) are not supported");
  if (N < 32 || std::memcmp(Bytes.data(), OffloadBundleMagic, 24) != 0)
    return formatError("bundle.magic", 0, "not a clang offload bundle (no __CLANG_OFFLOAD_BUNDLE__ magic)");
  uint64_t Count = rd64(Bytes.data() + 24);
  if (Count == 0) return formatError("bundle.num_entries", 24, "offload bundle has no entries");
  if (Count > (N - 32) / 25)
    return formatError("bundle.num_entries", 24,
                       "offload bundle declares " + llvm::Twine(Count) + " entries; its " + llvm::Twine(N) +
                           " bytes hold at most " + llvm::Twine((N - 32) / 25));
  std::vector<BundleEntryRef> Out;
  Out.reserve(Count);
  std::set<std::string> Ids;
  uint64_t At = 32;
  for (uint64_t I = 0; I < Count; ++I) {
    if (N - At < 24)
      return formatError(field(I, "offset"), At, "offload bundle entry table truncated at entry " + llvm::Twine(I));
    uint64_t Off = rd64(Bytes.data() + At), Size = rd64(Bytes.data() + At + 8), IdLen = rd64(Bytes.data() + At + 16);
    if (IdLen == 0 || IdLen > N - At - 24)
      return formatError(field(I, "id_len"), At + 16,
                         "entry id length " + llvm::Twine(IdLen) + " is 0 or exceeds the " +
                             llvm::Twine(N - At - 24) + " bytes left");
    BundleEntryRef E;
    E.id.assign(reinterpret_cast<const char *>(Bytes.data() + At + 24), IdLen);
    if (!Ids.insert(E.id).second)
      return formatError(field(I, "id"), At + 24, "duplicate offload bundle entry id '" + E.id + "'");
    if (Off > N || Size > N - Off)
      return formatError(field(I, "size"), At + 8,
                         "entry '" + E.id + "' payload [" + llvm::Twine(Off) + ", +" + llvm::Twine(Size) +
                             ") exceeds the " + llvm::Twine(N) + "-byte bundle");
    E.offset = Off;
    E.bytes = Bytes.slice(Off, Size);
    Out.push_back(std::move(E));
    At += 24 + IdLen;
  }
  // Payloads start after the table and do not overlap each other.
  std::vector<std::pair<uint64_t, uint64_t>> R; // {offset, index}
  for (uint64_t I = 0; I < Out.size(); ++I) {
    if (Out[I].bytes.empty()) continue;
    if (Out[I].offset < At)
      return formatError(field(I, "offset"), 32, "entry '" + Out[I].id + "' payload at " +
                                                     llvm::Twine(Out[I].offset) + " overlaps the entry table (ends at " +
                                                     llvm::Twine(At) + ")");
    R.push_back({Out[I].offset, I});
  }
  std::sort(R.begin(), R.end());
  for (size_t K = 1; K < R.size(); ++K) {
    const BundleEntryRef &Prev = Out[R[K - 1].second], &Cur = Out[R[K].second];
    if (Cur.offset < Prev.offset + Prev.bytes.size())
      return formatError(field(R[K].second, "offset"), 32,
                         "entry '" + Cur.id + "' payload at " + llvm::Twine(Cur.offset) + " overlaps entry '" +
                             Prev.id + "' [" + llvm::Twine(Prev.offset) + ", +" + llvm::Twine(Prev.bytes.size()) + ")");
  }
  return Out;
}

} // namespace ptxfatbin

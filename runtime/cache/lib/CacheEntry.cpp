//===- CacheEntry.cpp - Encode / verify one cache entry ----------------------===//
//
// See CacheEntry.h for the layout. Verification is one pass of xxh3-128 over
// the payload (about 10 GB/s), so a warm hit of a megabyte code object costs
// well under a millisecond.
//
//===----------------------------------------------------------------------===//
#include "CacheEntry.h"

#include "llvm/Support/xxhash.h"

#include <cstring>

namespace runtime::cacheentry {

namespace {
constexpr char kMagic[8] = {'P', '2', 'A', 'C', 'A', 'C', 'H', '1'};

void put64(uint8_t *P, uint64_t V) {
  for (int I = 0; I < 8; ++I) P[I] = uint8_t(V >> (8 * I));
}
uint64_t get64(const uint8_t *P) {
  uint64_t V = 0;
  for (int I = 0; I < 8; ++I) V |= uint64_t(P[I]) << (8 * I);
  return V;
}
uint64_t nameHash(llvm::StringRef Name) {
  return llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Name.data()), Name.size()));
}
} // namespace

std::vector<uint8_t> encode(llvm::StringRef FileName, llvm::ArrayRef<uint8_t> Payload) {
  std::vector<uint8_t> Out(kHeaderSize + Payload.size());
  std::memcpy(Out.data(), kMagic, 8);
  put64(Out.data() + 8, Payload.size());
  llvm::XXH128_hash_t H = llvm::xxh3_128bits(Payload);
  put64(Out.data() + 16, H.low64);
  put64(Out.data() + 24, H.high64);
  put64(Out.data() + 32, nameHash(FileName));
  if (!Payload.empty()) std::memcpy(Out.data() + kHeaderSize, Payload.data(), Payload.size());
  return Out;
}

std::string verify(llvm::StringRef FileName, llvm::ArrayRef<uint8_t> Header, llvm::ArrayRef<uint8_t> Payload) {
  if (Header.size() < kHeaderSize)
    return "truncated header (" + std::to_string(Header.size()) + " bytes)";
  if (std::memcmp(Header.data(), kMagic, 8) != 0) return "bad magic (not a ptx2amd cache entry)";
  uint64_t Size = get64(Header.data() + 8);
  if (Size != Payload.size())
    return "size mismatch (header says " + std::to_string(Size) + " payload bytes, file has " +
           std::to_string(Payload.size()) + ")";
  if (get64(Header.data() + 32) != nameHash(FileName)) return "entry belongs to another key";
  llvm::XXH128_hash_t H = llvm::xxh3_128bits(Payload);
  if (H.low64 != get64(Header.data() + 16) || H.high64 != get64(Header.data() + 24))
    return "checksum mismatch";
  return {};
}

std::string decode(llvm::StringRef FileName, llvm::ArrayRef<uint8_t> File,
                   llvm::ArrayRef<uint8_t> &Payload) {
  if (File.size() < kHeaderSize) return verify(FileName, File, {});
  std::string Why = verify(FileName, File.take_front(kHeaderSize), File.drop_front(kHeaderSize));
  if (Why.empty()) Payload = File.drop_front(kHeaderSize);
  return Why;
}

} // namespace runtime::cacheentry

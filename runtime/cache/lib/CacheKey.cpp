//===- CacheKey.cpp - Content addresses of translation outputs ---------------===//
//
// key = BLAKE3-256 over length-prefixed fields: a domain tag, toolchainId(),
// the target, the options fingerprint and the PTX text's length and
// xxh3-128 digest. Length prefixes keep field boundaries unambiguous
// ("ab"+"c" != "a"+"bc"). The PTX goes through xxh3 because every start
// hashes all of it (3.7 MB for a Thrust program): xxh3-128 measured 0.73 ms
// there against 2.2 ms for BLAKE3 (loaded 2-core host). 128 bits make an
// accidental collision negligible; the cache does not defend against a
// writer of its directory, who could store any bytes under any name anyway.
//
//===----------------------------------------------------------------------===//
#include "runtime/Cache.h"

#include "ptx2amd/Version.h"
#include "runtime/CacheBuildId.inc" // PTX2AMD_LOWERING_BUILD_ID (generated)

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/xxhash.h"

namespace runtime {

llvm::StringRef toolchainId() {
  static const std::string Id = std::string("ptx2amd ") + PTX2AMD_VERSION + " LLVM " LLVM_VERSION_STRING
                                " lowering " PTX2AMD_LOWERING_BUILD_ID;
  return Id;
}

namespace {
void field(llvm::BLAKE3 &H, llvm::StringRef S) {
  uint8_t Len[8];
  uint64_t N = S.size();
  for (int I = 0; I < 8; ++I) Len[I] = uint8_t(N >> (8 * I));
  H.update(llvm::ArrayRef<uint8_t>(Len, 8));
  H.update(S);
}
} // namespace

std::string linkedPtxKeyText(llvm::ArrayRef<std::string> Units) {
  if (Units.size() == 1) return Units[0];
  static constexpr char Sep[] = "\0ptx2amd linked unit\0";
  std::string T;
  for (const std::string &U : Units) {
    T.append(Sep, sizeof(Sep) - 1);
    T += U;
  }
  return T;
}

CacheKey makeCacheKey(llvm::StringRef PtxText, llvm::StringRef Target, llvm::StringRef OptionsFingerprint) {
  llvm::BLAKE3 H;
  field(H, "ptx2amd code-object cache key v2");
  field(H, toolchainId());
  field(H, Target);
  field(H, OptionsFingerprint);
  llvm::XXH128_hash_t P =
      llvm::xxh3_128bits(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(PtxText.data()), PtxText.size()));
  uint8_t Digest128[24];
  uint64_t Words[3] = {PtxText.size(), P.low64, P.high64};
  for (int W = 0; W < 3; ++W)
    for (int I = 0; I < 8; ++I) Digest128[8 * W + I] = uint8_t(Words[W] >> (8 * I));
  field(H, llvm::StringRef(reinterpret_cast<const char *>(Digest128), sizeof(Digest128)));
  auto Digest = H.final();
  static constexpr char Hex[] = "0123456789abcdef";
  CacheKey K;
  K.Hex.reserve(2 * Digest.size());
  for (uint8_t B : Digest) {
    K.Hex.push_back(Hex[B >> 4]);
    K.Hex.push_back(Hex[B & 15]);
  }
  return K;
}

} // namespace runtime

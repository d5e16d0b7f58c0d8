//===- CacheKey.cpp - Content addresses of translation outputs ---------------===//
//
// key = BLAKE3-256 over length-prefixed fields: a domain tag, toolchainId(),
// the target, the options fingerprint and the PTX text. Length prefixes keep
// field boundaries unambiguous ("ab"+"c" != "a"+"bc"). BLAKE3 hashes the
// 3.7 MB of a Thrust program's PTX in about a millisecond, so computing the
// key costs little next to a warm lookup.
//
//===----------------------------------------------------------------------===//
#include "runtime/Cache.h"

#include "ptx2amd/Version.h"
#include "runtime/CacheBuildId.inc" // PTX2AMD_LOWERING_BUILD_ID (generated)

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/BLAKE3.h"

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

CacheKey makeCacheKey(llvm::StringRef PtxText, llvm::StringRef Target, llvm::StringRef OptionsFingerprint) {
  llvm::BLAKE3 H;
  field(H, "ptx2amd code-object cache key v1");
  field(H, toolchainId());
  field(H, Target);
  field(H, OptionsFingerprint);
  field(H, PtxText);
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

//===- runtime/BundleLookup.h - Prebuilt code objects from offload bundles -*- C++ -*-===//
//
// `ptx2amd-fatbin PROG -o PROG.bundle --offload-arch=...` translates a
// program's PTX ahead of time into clang offload bundles. Its bundles carry
// a manifest in the (otherwise empty) host entry's payload:
//   ptx2amd-bundle-manifest 1
//   <entry id> <cache key>        one line per code object
// where the cache key is makeCacheKey(PTX, target, optionsFingerprint) of
// the translation that produced it. The runtime computes the same key for
// the PTX it is about to JIT and asks findBundledCodeObject() first: a code
// object is returned only when its key matches exactly (same PTX, target,
// options and toolchain), so a stale or foreign bundle is never used.
// Searched, in order: next to the executable, then each directory of
// $PTX2AMD_BUNDLE_PATH (colon-separated); file names `<exe name>.bundle` and
// `<exe name>.bundle.<N>` (ptx2amd-fatbin's names for several PTX modules).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Cache.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace runtime {

inline constexpr llvm::StringLiteral kBundleManifestMagic = "ptx2amd-bundle-manifest 1";

// "hipv4-amdgcn-amd-amdhsa--<target>", the id clang and ptx2amd give a code object.
std::string bundleEntryIdFor(llvm::StringRef Target);

// The manifest text for (entry id, key) pairs.
std::string makeBundleManifest(const std::vector<std::pair<std::string, CacheKey>> &Entries);

struct BundledCodeObject {
  std::vector<uint8_t> Bytes;
  std::string Path; // the bundle it came from
};

// The code object for (Target, Key) from the bundles of `ExePath`; nullopt
// when no bundle has it (never an error: the caller translates instead).
std::optional<BundledCodeObject> findBundledCodeObject(llvm::StringRef ExePath, llvm::StringRef Target,
                                                       const CacheKey &Key);
// Same for the running executable (/proc/self/exe).
std::optional<BundledCodeObject> findBundledCodeObject(llvm::StringRef Target, const CacheKey &Key);

} // namespace runtime

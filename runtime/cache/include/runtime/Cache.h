//===- runtime/Cache.h - On-disk cache of translated modules ----*- C++ -*-===//
//
// A content-addressed store of translation outputs (code objects "hsaco",
// lowered emulator bitcode "emu-bc") shared by every process of a user. The
// key (makeCacheKey) hashes the PTX text, the target, the options that change
// the bytes (optionsFingerprint in runtime/CacheOptions.h) and the toolchain
// identity (ptx2amd version, LLVM version, a hash of the lowering's sources
// and device library). Entries are one file each, `<dir>/v1/<key>.<kind>`:
// a 40-byte header (magic, payload size, xxh3-128 of the payload, hash of
// the file's own name) and the payload. Publishing writes a temporary file
// and renames it into place, so readers see a whole entry or none; a corrupt
// or truncated entry is reported once (warn), removed and reported as a
// miss, so the caller rebuilds it. The directory listing is the index (there
// is no index file to tear or lose); recency is the entry's mtime, set on
// publish and on every hit; when the total exceeds the size bound the least
// recently used entries are removed. Any I/O failure disables the cache (one
// warning) instead of failing the caller: lookup() misses, publish() does
// nothing. Thread-safe; several processes may share one directory.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace runtime {

// Content address: 64 lowercase hex digits (BLAKE3-256 of the fields and the
// PTX's xxh3-128; lib/CacheKey.cpp).
struct CacheKey {
  std::string Hex;
  bool operator==(const CacheKey &) const = default;
};

// Toolchain identity that every key includes: "ptx2amd <version> LLVM
// <version> lowering <hash of the translation stages' sources + devlib>".
llvm::StringRef toolchainId();

CacheKey makeCacheKey(llvm::StringRef PtxText, llvm::StringRef Target,
                      llvm::StringRef OptionsFingerprint);
// The PtxText that names an image linked from several separately compiled
// (-rdc) PTX modules, in link order: the units joined by a separator holding
// NUL bytes (which PTX text cannot contain). One unit: the unit itself.
std::string linkedPtxKeyText(llvm::ArrayRef<std::string> Units);

// Default size bound when PTX2AMD_CACHE_MAX_MB is unset.
inline constexpr uint64_t kDefaultCacheMaxBytes = 1024ull << 20;

class CodeObjectCache {
public:
  // $PTX2AMD_CACHE_DIR, else $XDG_CACHE_HOME/ptx2amd, else ~/.cache/ptx2amd;
  // bound PTX2AMD_CACHE_MAX_MB (MiB; 0 disables the cache). Never fails: an
  // unusable directory gives a disabled cache and one warning.
  static llvm::Expected<std::unique_ptr<CodeObjectCache>> openDefault();
  static llvm::Expected<std::unique_ptr<CodeObjectCache>> open(std::string Dir, uint64_t MaxBytes);
  // Where openDefault() would put the cache ("" when no home is known).
  static std::string defaultDirectory();

  // Kind: "hsaco", "emu-bc" (any [a-z0-9-]{1,16}). A hit refreshes recency.
  std::optional<std::vector<uint8_t>> lookup(const CacheKey &Key, llvm::StringRef Kind);
  // Stores Bytes atomically; failures are logged, never returned (the only
  // Error is a malformed Kind or key, a caller bug).
  llvm::Error publish(const CacheKey &Key, llvm::StringRef Kind, llvm::ArrayRef<uint8_t> Bytes);

  bool enabled() const { return !Disabled.load(std::memory_order_relaxed); }
  const std::string &directory() const { return Dir; }
  uint64_t maxBytes() const { return MaxBytes; }
  std::string entryPath(const CacheKey &Key, llvm::StringRef Kind) const;

  // Removes least recently used entries until the total is within the bound;
  // returns the total size afterwards. publish() calls it when needed.
  uint64_t evict();

  // Statistics of this object (not of the directory).
  struct Stats {
    uint64_t Hits = 0, Misses = 0, Corrupt = 0, Published = 0, Evicted = 0;
  };
  Stats stats() const;

private:
  CodeObjectCache(std::string Dir, uint64_t MaxBytes);
  void disable(const std::string &Why);
  void reportCorrupt(const std::string &Path, const std::string &Why);

  std::string Dir;      // the cache root
  std::string EntryDir; // Dir/v1
  std::string TmpDir;   // Dir/v1/tmp
  uint64_t MaxBytes;
  std::atomic<bool> Disabled{false};
  std::atomic<uint64_t> ApproxBytes{0}; // estimate since the last scan
  std::atomic<bool> Scanned{false};
  std::atomic<int64_t> LastScanNs{0};
  std::mutex EvictMutex;
  std::mutex ReportMutex;
  std::set<std::string> ReportedCorrupt; // paths warned about (once each)
  std::atomic<uint64_t> NHits{0}, NMisses{0}, NCorrupt{0}, NPublished{0}, NEvicted{0};
};

} // namespace runtime

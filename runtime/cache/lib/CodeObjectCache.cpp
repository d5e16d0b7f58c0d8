//===- CodeObjectCache.cpp - Lookup, atomic publish, LRU eviction ------------===//
//
// The store behind runtime/Cache.h. Layout: `<dir>/v1/<key>.<kind>` entries
// and `<dir>/v1/tmp/` for files being written. Concurrency without locks:
//  * publish writes a uniquely named temporary file in tmp/ (same file
//    system), sets its mtime, and rename()s it over the entry: rename is
//    atomic, so a reader opens either the old whole file or the new one;
//    two publishers of one key write the same bytes, the last rename wins;
//  * lookup reads through the descriptor it opened; a concurrent rename or
//    eviction unlinks the name, not the open file;
//  * a corrupt entry is unlinked only if the name still refers to the file
//    that was read (same device + inode), so a fresh entry published in the
//    meantime survives;
//  * eviction lists the directory (the only index), sorts by mtime and
//    unlinks the oldest; unlinking a file another process already removed
//    is not an error. Readers holding it keep their bytes.
// Recency timestamps come from the process's clock (nanoseconds), not the
// kernel's coarse file-time clock, so hits in quick succession keep order.
//
//===----------------------------------------------------------------------===//
#include "runtime/Cache.h"

#include "CacheEntry.h"
#include "Log.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace runtime {

namespace {

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

bool setMtime(int Fd, int64_t Ns) {
  struct timespec T[2];
  T[0].tv_sec = T[1].tv_sec = Ns / 1000000000;
  T[0].tv_nsec = T[1].tv_nsec = Ns % 1000000000;
  return ::futimens(Fd, T) == 0;
}

bool validKind(llvm::StringRef K) {
  if (K.empty() || K.size() > 16) return false;
  for (char C : K)
    if (!((C >= 'a' && C <= 'z') || (C >= '0' && C <= '9') || C == '-')) return false;
  return true;
}
bool validKey(const CacheKey &K) {
  if (K.Hex.size() < 16 || K.Hex.size() > 128) return false;
  for (char C : K.Hex)
    if (!((C >= '0' && C <= '9') || (C >= 'a' && C <= 'f'))) return false;
  return true;
}

// Entry names are "<hex key>.<kind>"; anything else in v1/ is not ours.
bool isEntryName(llvm::StringRef N) {
  size_t Dot = N.find('.');
  if (Dot == llvm::StringRef::npos) return false;
  return validKey(CacheKey{N.substr(0, Dot).str()}) && validKind(N.substr(Dot + 1));
}

// Reads up to N bytes at Off; returns how many were read (short at EOF).
size_t readAt(int Fd, uint8_t *Buf, size_t N, uint64_t Off) {
  size_t Done = 0;
  while (Done < N) {
    ssize_t R = ::pread(Fd, Buf + Done, N - Done, off_t(Off + Done));
    if (R < 0 && errno == EINTR) continue;
    if (R <= 0) break;
    Done += size_t(R);
  }
  return Done;
}

bool writeAll(int Fd, const uint8_t *P, size_t N) {
  while (N) {
    ssize_t W = ::write(Fd, P, N);
    if (W < 0 && errno == EINTR) continue;
    if (W <= 0) return false;
    P += W, N -= size_t(W);
  }
  return true;
}

std::string errnoText() { return std::strerror(errno); }

} // namespace

std::string CodeObjectCache::defaultDirectory() {
  if (const char *D = std::getenv("PTX2AMD_CACHE_DIR"); D && *D) return D;
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X) return std::string(X) + "/ptx2amd";
  const char *Home = std::getenv("HOME");
  if (!Home || !*Home)
    if (const passwd *Pw = ::getpwuid(::getuid())) Home = Pw->pw_dir;
  if (!Home || !*Home) return {};
  return std::string(Home) + "/.cache/ptx2amd";
}

llvm::Expected<std::unique_ptr<CodeObjectCache>> CodeObjectCache::openDefault() {
  uint64_t Max = kDefaultCacheMaxBytes;
  bool Off = false;
  if (const char *M = std::getenv("PTX2AMD_CACHE_MAX_MB"); M && *M) {
    char *End = nullptr;
    errno = 0;
    unsigned long long V = std::strtoull(M, &End, 10);
    if (errno || !End || *End || V > (1ull << 40))
      cachelog::logger().warn("PTX2AMD_CACHE_MAX_MB='{}' is not a number of MiB; using {} MiB", M,
                              kDefaultCacheMaxBytes >> 20);
    else if (V == 0)
      Off = true;
    else
      Max = uint64_t(V) << 20;
  }
  std::string Dir = defaultDirectory();
  auto C = open(Dir, Max);
  if (C && Off) (*C)->Disabled = true, cachelog::logger().debug("cache disabled (PTX2AMD_CACHE_MAX_MB=0)");
  return C;
}

CodeObjectCache::CodeObjectCache(std::string D, uint64_t M) : Dir(std::move(D)), MaxBytes(M) {
  EntryDir = Dir + "/v1";
  TmpDir = EntryDir + "/tmp";
}

llvm::Expected<std::unique_ptr<CodeObjectCache>> CodeObjectCache::open(std::string Dir, uint64_t MaxBytes) {
  std::unique_ptr<CodeObjectCache> C(new CodeObjectCache(Dir, MaxBytes));
  if (Dir.empty()) {
    C->disable("no cache directory (set PTX2AMD_CACHE_DIR or HOME)");
    return C;
  }
  if (std::error_code EC = llvm::sys::fs::create_directories(C->TmpDir)) {
    C->disable("cannot create '" + C->TmpDir + "': " + EC.message());
    return C;
  }
  // Probe: the directory must be writable for entries to be published.
  llvm::SmallString<128> Probe;
  int Fd = -1;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(C->TmpDir + "/probe-%%%%%%%%", Fd, Probe)) {
    C->disable("cannot write in '" + C->TmpDir + "': " + EC.message());
    return C;
  }
  ::close(Fd);
  llvm::sys::fs::remove(Probe);
  if (::access(C->EntryDir.c_str(), R_OK | W_OK | X_OK) != 0) {
    C->disable("cannot use '" + C->EntryDir + "': " + errnoText());
    return C;
  }
  cachelog::logger().debug("cache at '{}' (bound {} MiB)", C->Dir, MaxBytes >> 20);
  return C;
}

void CodeObjectCache::disable(const std::string &Why) {
  if (!Disabled.exchange(true))
    cachelog::logger().warn("code-object cache disabled: {}; translating without it", Why);
}

void CodeObjectCache::reportCorrupt(const std::string &Path, const std::string &Why) {
  NCorrupt.fetch_add(1, std::memory_order_relaxed);
  bool First;
  {
    std::lock_guard<std::mutex> L(ReportMutex);
    First = ReportedCorrupt.insert(Path).second;
  }
  if (First) cachelog::logger().warn("corrupt cache entry '{}' ({}): removed, rebuilding", Path, Why);
}

std::string CodeObjectCache::entryPath(const CacheKey &Key, llvm::StringRef Kind) const {
  return EntryDir + "/" + Key.Hex + "." + Kind.str();
}

std::optional<std::vector<uint8_t>> CodeObjectCache::lookup(const CacheKey &Key, llvm::StringRef Kind) {
  if (!enabled() || !validKey(Key) || !validKind(Kind)) return std::nullopt;
  std::string Name = Key.Hex + "." + Kind.str();
  std::string Path = EntryDir + "/" + Name;
  int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0) {
    if (errno != ENOENT) cachelog::logger().debug("cannot open '{}': {}", Path, errnoText());
    NMisses.fetch_add(1, std::memory_order_relaxed);
    cachelog::logger().debug("cache miss {} {}", Kind.str(), Key.Hex);
    return std::nullopt;
  }
  // Header and payload are read separately so the payload lands in the
  // returned buffer directly (no copy of a megabyte code object).
  struct stat St;
  uint8_t Header[cacheentry::kHeaderSize];
  size_t HeaderLen = 0;
  std::vector<uint8_t> Payload;
  std::string Why;
  if (::fstat(Fd, &St) != 0) Why = "cannot stat: " + errnoText();
  else if (!S_ISREG(St.st_mode)) Why = "not a regular file";
  else if (uint64_t(St.st_size) > std::max<uint64_t>(MaxBytes, 1ull << 30) + sizeof(Header))
    Why = "implausibly large (" + std::to_string(St.st_size) + " bytes)"; // never read a stray huge file
  if (Why.empty()) {
    HeaderLen = readAt(Fd, Header, sizeof(Header), 0);
    if (uint64_t(St.st_size) > sizeof(Header) && HeaderLen == sizeof(Header)) {
      Payload.resize(size_t(St.st_size) - sizeof(Header));
      Payload.resize(readAt(Fd, Payload.data(), Payload.size(), sizeof(Header)));
    }
    Why = cacheentry::verify(Name, llvm::ArrayRef<uint8_t>(Header, HeaderLen), Payload);
  }
  if (!Why.empty()) {
    // Remove the entry only if the name still denotes the file we read.
    struct stat Now;
    if (::stat(Path.c_str(), &Now) == 0 && Now.st_dev == St.st_dev && Now.st_ino == St.st_ino)
      ::unlink(Path.c_str());
    ::close(Fd);
    reportCorrupt(Path, Why);
    NMisses.fetch_add(1, std::memory_order_relaxed);
    return std::nullopt;
  }
  setMtime(Fd, nowNs()); // recency for LRU; failure (read-only share) is harmless
  ::close(Fd);
  NHits.fetch_add(1, std::memory_order_relaxed);
  cachelog::logger().debug("cache hit {} {} ({} bytes)", Kind.str(), Key.Hex, Payload.size());
  return Payload;
}

llvm::Error CodeObjectCache::publish(const CacheKey &Key, llvm::StringRef Kind, llvm::ArrayRef<uint8_t> Bytes) {
  if (!validKind(Kind))
    return llvm::createStringError("cache kind '%s' is not [a-z0-9-]{1,16}", Kind.str().c_str());
  if (!validKey(Key)) return llvm::createStringError("malformed cache key '%s'", Key.Hex.c_str());
  if (!enabled()) return llvm::Error::success();
  std::string Name = Key.Hex + "." + Kind.str();
  uint64_t Size = cacheentry::kHeaderSize + Bytes.size();
  if (Size > MaxBytes) {
    cachelog::logger().debug("not caching {} ({} bytes exceed the {} byte bound)", Name, Size, MaxBytes);
    return llvm::Error::success();
  }
  std::vector<uint8_t> File = cacheentry::encode(Name, Bytes);
  llvm::SmallString<256> Tmp;
  int Fd = -1;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(TmpDir + "/" + Name + ".%%%%%%%%%%%%.tmp", Fd, Tmp)) {
    // tmp/ may have been removed by someone cleaning the cache: recreate once.
    if (llvm::sys::fs::create_directories(TmpDir) ||
        llvm::sys::fs::createUniqueFile(TmpDir + "/" + Name + ".%%%%%%%%%%%%.tmp", Fd, Tmp)) {
      disable("cannot create a file in '" + TmpDir + "': " + EC.message());
      return llvm::Error::success();
    }
  }
  bool Ok = writeAll(Fd, File.data(), File.size());
  std::string Why = Ok ? "" : errnoText();
  setMtime(Fd, nowNs());
  if (::close(Fd) != 0 && Ok) Ok = false, Why = errnoText();
  std::string Final = EntryDir + "/" + Name;
  if (Ok && ::rename(Tmp.c_str(), Final.c_str()) != 0) Ok = false, Why = errnoText();
  if (!Ok) {
    ::unlink(Tmp.c_str());
    disable("cannot publish '" + Final + "': " + Why);
    return llvm::Error::success();
  }
  NPublished.fetch_add(1, std::memory_order_relaxed);
  cachelog::logger().debug("cache publish {} ({} bytes)", Name, Bytes.size());
  // Reconcile with the directory on the first publish, whenever this
  // process's estimate passes the bound, and every few seconds (other
  // processes publish too).
  uint64_t Approx = ApproxBytes.fetch_add(Size) + Size;
  if (!Scanned.load() || Approx > MaxBytes || nowNs() - LastScanNs.load() > 5'000'000'000ll) evict();
  return llvm::Error::success();
}

uint64_t CodeObjectCache::evict() {
  std::unique_lock<std::mutex> Lock(EvictMutex, std::try_to_lock);
  if (!Lock.owns_lock()) return ApproxBytes.load(); // another thread is at it
  struct Entry {
    int64_t MtimeNs;
    uint64_t Size;
    std::string Name;
  };
  std::vector<Entry> Entries;
  uint64_t Total = 0;
  if (DIR *D = ::opendir(EntryDir.c_str())) {
    int DFd = ::dirfd(D);
    while (dirent *E = ::readdir(D)) {
      llvm::StringRef N(E->d_name);
      if (!isEntryName(N)) continue;
      struct stat St;
      if (::fstatat(DFd, E->d_name, &St, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(St.st_mode)) continue;
      Entries.push_back({int64_t(St.st_mtim.tv_sec) * 1000000000 + St.st_mtim.tv_nsec, uint64_t(St.st_size), N.str()});
      Total += uint64_t(St.st_size);
    }
    ::closedir(D);
  }
  if (Total > MaxBytes) {
    std::sort(Entries.begin(), Entries.end(), [](const Entry &A, const Entry &B) {
      return A.MtimeNs != B.MtimeNs ? A.MtimeNs < B.MtimeNs : A.Name < B.Name;
    });
    for (const Entry &E : Entries) {
      if (Total <= MaxBytes) break;
      std::string P = EntryDir + "/" + E.Name;
      if (::unlink(P.c_str()) == 0) {
        NEvicted.fetch_add(1, std::memory_order_relaxed);
        cachelog::logger().debug("cache evict {} ({} bytes)", E.Name, E.Size);
      }
      Total -= E.Size; // gone either way (ENOENT: another process evicted it)
    }
  }
  // Temporary files of writers that died (older than an hour).
  if (DIR *D = ::opendir(TmpDir.c_str())) {
    int DFd = ::dirfd(D);
    int64_t Old = nowNs() - 3600ll * 1000000000;
    while (dirent *E = ::readdir(D)) {
      llvm::StringRef N(E->d_name);
      if (!N.ends_with(".tmp")) continue;
      struct stat St;
      if (::fstatat(DFd, E->d_name, &St, AT_SYMLINK_NOFOLLOW) == 0 &&
          int64_t(St.st_mtim.tv_sec) * 1000000000 + St.st_mtim.tv_nsec < Old)
        ::unlinkat(DFd, E->d_name, 0);
    }
    ::closedir(D);
  }
  ApproxBytes.store(Total);
  LastScanNs.store(nowNs());
  Scanned.store(true);
  return Total;
}

CodeObjectCache::Stats CodeObjectCache::stats() const {
  return {NHits.load(), NMisses.load(), NCorrupt.load(), NPublished.load(), NEvicted.load()};
}

} // namespace runtime

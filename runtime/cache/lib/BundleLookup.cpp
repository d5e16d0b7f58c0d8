//===- BundleLookup.cpp - Find a prebuilt code object in offload bundles -----===//
//
// Reads only what it needs: the bundle table (clang's uncompressed format:
// 24-byte magic "__CLANG_OFFLOAD_BUNDLE__", u64 count, per entry u64
// offset, u64 size, u64 id length, id), the host entry's manifest, and the
// one matching payload. Every offset and size is bounds-checked against the
// file, so a damaged bundle is skipped, never trusted.
//
//===----------------------------------------------------------------------===//
#include "runtime/BundleLookup.h"

#include "Log.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace runtime {

namespace {

constexpr char kBundleMagic[] = "__CLANG_OFFLOAD_BUNDLE__";
constexpr size_t kMaxTable = 1 << 20; // table + manifest read at most this much

uint64_t get64(const uint8_t *P) {
  uint64_t V = 0;
  for (int I = 0; I < 8; ++I) V |= uint64_t(P[I]) << (8 * I);
  return V;
}

bool preadAll(int Fd, uint8_t *Buf, size_t N, uint64_t Off) {
  size_t Done = 0;
  while (Done < N) {
    ssize_t R = ::pread(Fd, Buf + Done, N - Done, off_t(Off + Done));
    if (R < 0 && errno == EINTR) continue;
    if (R <= 0) return false;
    Done += size_t(R);
  }
  return true;
}

struct Fd {
  int V = -1;
  ~Fd() {
    if (V >= 0) ::close(V);
  }
};

// One bundle file: the code object for `Id` if its manifest lists `Key`.
std::optional<std::vector<uint8_t>> tryBundle(const std::string &Path, const std::string &Id, const CacheKey &Key) {
  auto &Log = cachelog::logger();
  Fd F;
  F.V = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (F.V < 0) return std::nullopt;
  struct stat St;
  if (::fstat(F.V, &St) != 0 || !S_ISREG(St.st_mode)) return std::nullopt;
  uint64_t FileSize = uint64_t(St.st_size);
  std::vector<uint8_t> Head(std::min<uint64_t>(FileSize, 64 * 1024));
  if (!preadAll(F.V, Head.data(), Head.size(), 0)) return std::nullopt;
  auto Table = readBundleTable(Head, FileSize);
  if (!Table && Head.size() < FileSize) { // a long table: read more of the file
    llvm::consumeError(Table.takeError());
    Head.resize(std::min<uint64_t>(FileSize, kMaxTable));
    if (!preadAll(F.V, Head.data(), Head.size(), 0)) return std::nullopt;
    Table = readBundleTable(Head, FileSize);
  }
  if (!Table) {
    Log.debug("bundle '{}' skipped: {}", Path, llvm::toString(Table.takeError()));
    return std::nullopt;
  }
  const BundleTableEntry *Host = nullptr, *Want = nullptr;
  for (const BundleTableEntry &E : *Table) {
    if (llvm::StringRef(E.Id).starts_with("host-") && !Host) Host = &E;
    if (E.Id == Id) Want = &E;
  }
  if (!Want) {
    Log.debug("bundle '{}' has no entry {}", Path, Id);
    return std::nullopt;
  }
  if (!Host || Host->Size == 0 || Host->Size > kMaxTable) {
    Log.debug("bundle '{}' has no ptx2amd manifest (not written by ptx2amd-fatbin): not used", Path);
    return std::nullopt;
  }
  std::string Manifest(Host->Size, '\0');
  if (!preadAll(F.V, reinterpret_cast<uint8_t *>(Manifest.data()), Manifest.size(), Host->Offset))
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef, 8> Lines;
  llvm::StringRef(Manifest).split(Lines, '\n', -1, false);
  if (Lines.empty() || Lines[0] != kBundleManifestMagic) {
    Log.debug("bundle '{}': host entry is not a ptx2amd manifest: not used", Path);
    return std::nullopt;
  }
  bool Listed = false;
  for (size_t I = 1; I < Lines.size() && !Listed; ++I) {
    auto [LId, LKey] = Lines[I].split(' ');
    Listed = LId == Id && LKey.trim() == Key.Hex;
  }
  if (!Listed) {
    Log.debug("bundle '{}': {} was translated from other PTX / options / toolchain: not used", Path, Id);
    return std::nullopt;
  }
  std::vector<uint8_t> Bytes(Want->Size);
  if (!preadAll(F.V, Bytes.data(), Bytes.size(), Want->Offset)) return std::nullopt;
  if (Bytes.size() < 4 || std::memcmp(Bytes.data(), "\x7f" "ELF", 4) != 0) {
    Log.warn("bundle '{}': entry {} is not an ELF code object: not used", Path, Id);
    return std::nullopt;
  }
  return Bytes;
}

} // namespace

std::string bundleEntryIdFor(llvm::StringRef Target) { return "hipv4-amdgcn-amd-amdhsa--" + Target.str(); }

std::string makeBundleManifest(const std::vector<std::pair<std::string, CacheKey>> &Entries) {
  std::string S = kBundleManifestMagic.str() + "\n";
  for (auto &[Id, Key] : Entries) S += Id + " " + Key.Hex + "\n";
  return S;
}

llvm::Expected<std::vector<BundleTableEntry>> readBundleTable(llvm::ArrayRef<uint8_t> Head, uint64_t FileSize) {
  if (Head.size() < 32 || std::memcmp(Head.data(), kBundleMagic, 24) != 0)
    return llvm::createStringError("not an uncompressed clang offload bundle");
  uint64_t N = get64(Head.data() + 24);
  if (N == 0 || N > 4096) return llvm::createStringError("implausible bundle entry count %llu", (unsigned long long)N);
  std::vector<BundleTableEntry> Out;
  size_t P = 32;
  for (uint64_t I = 0; I < N; ++I) {
    if (P + 24 > Head.size()) return llvm::createStringError("bundle table truncated");
    BundleTableEntry E;
    E.Offset = get64(Head.data() + P);
    E.Size = get64(Head.data() + P + 8);
    uint64_t IdLen = get64(Head.data() + P + 16);
    P += 24;
    if (IdLen > 1024 || P + IdLen > Head.size()) return llvm::createStringError("bundle entry id truncated");
    E.Id.assign(reinterpret_cast<const char *>(Head.data() + P), IdLen);
    P += IdLen;
    if (E.Offset > FileSize || E.Size > FileSize - E.Offset)
      return llvm::createStringError("bundle entry '%s' lies outside the file", E.Id.c_str());
    Out.push_back(std::move(E));
  }
  return Out;
}

std::optional<BundledCodeObject> findBundledCodeObject(llvm::StringRef ExePath, llvm::StringRef Target,
                                                       const CacheKey &Key) {
  std::string Id = bundleEntryIdFor(Target);
  std::string Base = llvm::sys::path::filename(ExePath).str();
  if (Base.empty()) return std::nullopt;
  std::vector<std::string> Dirs;
  llvm::StringRef ExeDir = llvm::sys::path::parent_path(ExePath);
  Dirs.push_back(ExeDir.empty() ? "." : ExeDir.str());
  if (const char *BP = std::getenv("PTX2AMD_BUNDLE_PATH")) {
    llvm::SmallVector<llvm::StringRef, 4> Parts;
    llvm::StringRef(BP).split(Parts, ':', -1, false);
    for (llvm::StringRef D : Parts) Dirs.push_back(D.str());
  }
  for (const std::string &D : Dirs) {
    std::string Stem = D + "/" + Base + ".bundle";
    if (auto B = tryBundle(Stem, Id, Key)) {
      cachelog::logger().debug("code object for {} from bundle '{}'", Target.str(), Stem);
      return BundledCodeObject{std::move(*B), Stem};
    }
    for (unsigned I = 0; I < 1024; ++I) {
      std::string P = Stem + "." + std::to_string(I);
      if (::access(P.c_str(), F_OK) != 0) break;
      if (auto B = tryBundle(P, Id, Key)) {
        cachelog::logger().debug("code object for {} from bundle '{}'", Target.str(), P);
        return BundledCodeObject{std::move(*B), P};
      }
    }
  }
  return std::nullopt;
}

std::optional<BundledCodeObject> findBundledCodeObject(llvm::StringRef Target, const CacheKey &Key) {
  char Buf[4096];
  ssize_t N = ::readlink("/proc/self/exe", Buf, sizeof(Buf) - 1);
  if (N <= 0) return std::nullopt;
  return findBundledCodeObject(llvm::StringRef(Buf, size_t(N)), Target, Key);
}

} // namespace runtime

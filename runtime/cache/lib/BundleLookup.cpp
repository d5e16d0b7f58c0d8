//===- BundleLookup.cpp - Find a prebuilt code object in offload bundles -----===//
//
// Maps the bundle file (llvm::MemoryBuffer: the kernel pages in only what is
// touched -- the entry table, the host entry's manifest and the one matching
// payload) and reads its table with fatbin's bounds-checked offload-bundle
// reader (the one reader of that format in the project), so a damaged bundle
// is skipped with its FormatError logged, never trusted.
//
//===----------------------------------------------------------------------===//
#include "runtime/BundleLookup.h"

#include "Log.h"

#include "fatbin/OffloadBundle.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace runtime {

namespace {

constexpr size_t kMaxManifest = 1 << 20;

// One bundle file: the code object for `Id` if its manifest lists `Key`.
std::optional<std::vector<uint8_t>> tryBundle(const std::string &Path, const std::string &Id, const CacheKey &Key) {
  auto &Log = cachelog::logger();
  struct stat St;
  if (::stat(Path.c_str(), &St) != 0 || !S_ISREG(St.st_mode)) return std::nullopt;
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buf) return std::nullopt;
  llvm::ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>((*Buf)->getBufferStart()), (*Buf)->getBufferSize());
  auto Table = ptxfatbin::readOffloadBundle(Bytes);
  if (!Table) {
    Log.debug("bundle '{}' skipped: {}", Path, llvm::toString(Table.takeError()));
    return std::nullopt;
  }
  const ptxfatbin::BundleEntryRef *Host = nullptr, *Want = nullptr;
  for (const ptxfatbin::BundleEntryRef &E : *Table) {
    if (llvm::StringRef(E.id).starts_with("host-") && !Host) Host = &E;
    if (E.id == Id) Want = &E;
  }
  if (!Want) {
    Log.debug("bundle '{}' has no entry {}", Path, Id);
    return std::nullopt;
  }
  if (!Host || Host->bytes.empty() || Host->bytes.size() > kMaxManifest) {
    Log.debug("bundle '{}' has no ptx2amd manifest (not written by ptx2amd-fatbin): not used", Path);
    return std::nullopt;
  }
  llvm::StringRef Manifest(reinterpret_cast<const char *>(Host->bytes.data()), Host->bytes.size());
  llvm::SmallVector<llvm::StringRef, 8> Lines;
  Manifest.split(Lines, '\n', -1, false);
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
  if (Want->bytes.size() < 4 || std::memcmp(Want->bytes.data(), "\x7f" "ELF", 4) != 0) {
    Log.warn("bundle '{}': entry {} is not an ELF code object: not used", Path, Id);
    return std::nullopt;
  }
  return std::vector<uint8_t>(Want->bytes.begin(), Want->bytes.end());
}

} // namespace

std::string bundleEntryIdFor(llvm::StringRef Target) { return "hipv4-amdgcn-amd-amdhsa--" + Target.str(); }

std::string makeBundleManifest(const std::vector<std::pair<std::string, CacheKey>> &Entries) {
  std::string S = kBundleManifestMagic.str() + "\n";
  for (auto &[Id, Key] : Entries) S += Id + " " + Key.Hex + "\n";
  return S;
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

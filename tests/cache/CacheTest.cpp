//===- CacheTest.cpp - runtime/cache: store, corruption, LRU, keys, bundles ---===//
//
// Unit tests of the on-disk code-object cache (issue 13, item 5) on real
// files in a fresh temporary directory per test:
//  * hit/miss round trip, entry layout, publish over an existing entry;
//  * corruption: a truncated entry, a flipped byte, a garbage file, an entry
//    renamed under another key -- each detected, reported once, removed, a
//    miss; the next publish repairs it;
//  * eviction: LRU order under a small bound, recency refreshed by a hit;
//  * an unusable directory disables the cache (miss / no-op), never fails;
//  * key sensitivity: target, warp policy (module and per kernel), options,
//    PTX text and kind each change the key; equal inputs give equal keys;
//  * offload-bundle lookup: the manifest written by ptx2amd-fatbin selects
//    the code object for (executable, target, key); stale or foreign
//    bundles are not used.
// The code objects used as payloads are real: ptx2amd output for corpus
// PTX is not needed here (the bytes are opaque to the cache), so payloads
// are fixed pseudo-random bytes of code-object size.
//
//===----------------------------------------------------------------------===//
#include "runtime/BundleLookup.h"
#include "runtime/Cache.h"
#include "runtime/CacheOptions.h"
#include "runtime/Log.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <sstream>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace runtime;

namespace {

std::vector<uint8_t> bytes(size_t N, uint32_t Seed) {
  std::mt19937 G(Seed);
  std::vector<uint8_t> V(N);
  for (auto &B : V) B = uint8_t(G());
  return V;
}

CacheKey key(int I) { return makeCacheKey("ptx " + std::to_string(I), "gfx90a", "fp"); }

struct TempDir {
  std::string Path;
  TempDir() {
    llvm::SmallString<128> P;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("ptx2amd-cache-test", P));
    Path = P.str().str();
  }
  ~TempDir() { llvm::sys::fs::remove_directories(Path); }
};

std::unique_ptr<CodeObjectCache> openCache(const std::string &Dir, uint64_t Max = 64 << 20) {
  auto C = CodeObjectCache::open(Dir, Max);
  EXPECT_TRUE(bool(C));
  return C ? std::move(*C) : nullptr;
}

std::vector<uint8_t> readFile(const std::string &P) {
  std::ifstream F(P, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(F)), std::istreambuf_iterator<char>());
}
void writeFile(const std::string &P, const std::vector<uint8_t> &B) {
  std::ofstream F(P, std::ios::binary | std::ios::trunc);
  F.write(reinterpret_cast<const char *>(B.data()), std::streamsize(B.size()));
}
bool exists(const std::string &P) { return ::access(P.c_str(), F_OK) == 0; }

TEST(Cache, MissThenHit) {
  TempDir T;
  auto C = openCache(T.Path);
  ASSERT_TRUE(C && C->enabled());
  auto Payload = bytes(300000, 1);
  EXPECT_FALSE(C->lookup(key(1), "hsaco"));
  ASSERT_FALSE(bool(C->publish(key(1), "hsaco", Payload)));
  auto Got = C->lookup(key(1), "hsaco");
  ASSERT_TRUE(Got);
  EXPECT_EQ(*Got, Payload);
  EXPECT_FALSE(C->lookup(key(1), "emu-bc")) << "kinds are separate entries";
  EXPECT_EQ(readFile(C->entryPath(key(1), "hsaco")).size(), Payload.size() + 40);
  // Another cache object (another process) on the same directory sees it.
  auto C2 = openCache(T.Path);
  EXPECT_EQ(C2->lookup(key(1), "hsaco"), Payload);
  // Publishing again replaces atomically; an empty payload is a valid entry.
  ASSERT_FALSE(bool(C->publish(key(1), "hsaco", {})));
  auto Empty = C->lookup(key(1), "hsaco");
  ASSERT_TRUE(Empty);
  EXPECT_TRUE(Empty->empty());
  auto S = C->stats();
  EXPECT_EQ(S.Hits, 2u);
  EXPECT_EQ(S.Published, 2u);
}

TEST(Cache, BadKindOrKeyIsAnError) {
  TempDir T;
  auto C = openCache(T.Path);
  auto Fails = [](llvm::Error E) {
    bool Failed = bool(E);
    llvm::consumeError(std::move(E));
    return Failed;
  };
  EXPECT_TRUE(Fails(C->publish(key(1), "../x", bytes(10, 1)))) << "kind must not escape the directory";
  EXPECT_TRUE(Fails(C->publish(key(1), "", bytes(10, 1))));
  EXPECT_TRUE(Fails(C->publish(CacheKey{"../../etc/passwd"}, "hsaco", bytes(10, 1))));
  EXPECT_FALSE(C->lookup(CacheKey{"zz"}, "hsaco"));
}

// Each damage is detected, removed, a miss; then publish + hit works again.
void expectCorruptionHandled(const std::function<void(const std::string &)> &Damage) {
  TempDir T;
  auto C = openCache(T.Path);
  auto Payload = bytes(100000, 7);
  ASSERT_FALSE(bool(C->publish(key(2), "hsaco", Payload)));
  std::string P = C->entryPath(key(2), "hsaco");
  Damage(P);
  EXPECT_FALSE(C->lookup(key(2), "hsaco"));
  EXPECT_FALSE(exists(P)) << "corrupt entry must be removed";
  EXPECT_EQ(C->stats().Corrupt, 1u);
  ASSERT_FALSE(bool(C->publish(key(2), "hsaco", Payload)));
  EXPECT_EQ(C->lookup(key(2), "hsaco"), Payload);
}

TEST(CacheCorruption, Truncated) {
  expectCorruptionHandled([](const std::string &P) { ASSERT_EQ(::truncate(P.c_str(), 50000), 0); });
}
TEST(CacheCorruption, TruncatedHeader) {
  expectCorruptionHandled([](const std::string &P) { ASSERT_EQ(::truncate(P.c_str(), 12), 0); });
}
TEST(CacheCorruption, EmptyFile) {
  expectCorruptionHandled([](const std::string &P) { ASSERT_EQ(::truncate(P.c_str(), 0), 0); });
}
TEST(CacheCorruption, FlippedPayloadByte) {
  expectCorruptionHandled([](const std::string &P) {
    auto B = readFile(P);
    B[40 + 31337] ^= 0x10;
    writeFile(P, B);
  });
}
TEST(CacheCorruption, FlippedHeaderByte) {
  expectCorruptionHandled([](const std::string &P) {
    auto B = readFile(P);
    B[9] ^= 1; // payload size
    writeFile(P, B);
  });
}
TEST(CacheCorruption, GarbageFile) {
  expectCorruptionHandled([](const std::string &P) { writeFile(P, bytes(5000, 99)); });
}
TEST(CacheCorruption, HugeStrayFile) {
  TempDir T;
  auto C = openCache(T.Path, 1 << 20);
  std::string P = C->entryPath(key(6), "hsaco");
  writeFile(P, bytes(10, 6));
  ASSERT_EQ(::truncate(P.c_str(), off_t(3) << 30), 0); // sparse 3 GiB: must not be read
  EXPECT_FALSE(C->lookup(key(6), "hsaco"));
  EXPECT_FALSE(exists(P));
}
TEST(CacheCorruption, EntryOfAnotherKey) {
  TempDir T;
  auto C = openCache(T.Path);
  ASSERT_FALSE(bool(C->publish(key(3), "hsaco", bytes(1000, 3))));
  ASSERT_EQ(::rename(C->entryPath(key(3), "hsaco").c_str(), C->entryPath(key(4), "hsaco").c_str()), 0);
  EXPECT_FALSE(C->lookup(key(4), "hsaco"));
  EXPECT_EQ(C->stats().Corrupt, 1u);
}
TEST(CacheCorruption, ReportedOncePerEntry) {
  TempDir T;
  auto C = openCache(T.Path);
  auto Log = runtime::logger("cache"); // the cache's logger (runtime/Log.h)
  ASSERT_TRUE(Log);
  std::ostringstream Captured;
  auto Sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(Captured);
  Log->sinks().push_back(Sink);
  std::string P = C->entryPath(key(5), "hsaco");
  for (int I = 0; I < 3; ++I) {
    writeFile(P, bytes(100, 5));
    EXPECT_FALSE(C->lookup(key(5), "hsaco"));
  }
  Log->flush();
  Log->sinks().pop_back();
  EXPECT_EQ(C->stats().Corrupt, 3u); // detected and removed each time ...
  std::string Text = Captured.str();
  size_t Warnings = 0;
  for (size_t At = 0; (At = Text.find("corrupt cache entry", At)) != std::string::npos; ++At) ++Warnings;
  EXPECT_EQ(Warnings, 1u) << Text; // ... reported once
}

TEST(CacheEviction, LeastRecentlyUsedFirst) {
  TempDir T;
  const size_t N = 10000, E = N + 40; // entry file size
  auto C = openCache(T.Path, 3 * E + 100); // room for three entries
  for (int I = 0; I < 3; ++I) ASSERT_FALSE(bool(C->publish(key(I), "hsaco", bytes(N, I))));
  // Use 0, so 1 is now the least recently used.
  ASSERT_TRUE(C->lookup(key(0), "hsaco"));
  ASSERT_FALSE(bool(C->publish(key(3), "hsaco", bytes(N, 3))));
  EXPECT_TRUE(exists(C->entryPath(key(0), "hsaco")));
  EXPECT_FALSE(exists(C->entryPath(key(1), "hsaco"))) << "LRU entry must go first";
  EXPECT_TRUE(exists(C->entryPath(key(2), "hsaco")));
  EXPECT_TRUE(exists(C->entryPath(key(3), "hsaco")));
  // Next: 2 is the oldest now.
  ASSERT_FALSE(bool(C->publish(key(4), "hsaco", bytes(N, 4))));
  EXPECT_FALSE(exists(C->entryPath(key(2), "hsaco")));
  EXPECT_TRUE(exists(C->entryPath(key(0), "hsaco")));
  EXPECT_EQ(C->stats().Evicted, 2u);
  EXPECT_LE(C->evict(), 3 * E + 100);
  // An entry larger than the bound is not stored (and evicts nothing).
  ASSERT_FALSE(bool(C->publish(key(9), "hsaco", bytes(4 * E, 9))));
  EXPECT_FALSE(exists(C->entryPath(key(9), "hsaco")));
  EXPECT_TRUE(exists(C->entryPath(key(0), "hsaco")));
}

TEST(CacheEviction, BoundCountsEveryProcessesEntries) {
  TempDir T;
  const size_t N = 4000;
  auto A = openCache(T.Path, 5 * (N + 40));
  auto B = openCache(T.Path, 5 * (N + 40));
  for (int I = 0; I < 8; ++I) ASSERT_FALSE(bool((I % 2 ? A : B)->publish(key(I), "hsaco", bytes(N, I))));
  EXPECT_LE(A->evict(), 5 * (N + 40));
  int Left = 0;
  for (int I = 0; I < 8; ++I) Left += exists(A->entryPath(key(I), "hsaco"));
  EXPECT_EQ(Left, 5);
  EXPECT_TRUE(exists(A->entryPath(key(7), "hsaco"))); // the newest survive
  EXPECT_FALSE(exists(A->entryPath(key(0), "hsaco")));
}

TEST(CacheDisabled, DirectoryUnderARegularFile) {
  TempDir T;
  std::string F = T.Path + "/file";
  writeFile(F, bytes(10, 1));
  auto C = openCache(F + "/cache"); // cannot be created, even by root
  ASSERT_TRUE(C);
  EXPECT_FALSE(C->enabled());
  EXPECT_FALSE(bool(C->publish(key(1), "hsaco", bytes(10, 1))));
  EXPECT_FALSE(C->lookup(key(1), "hsaco"));
}

TEST(CacheDisabled, EntryDirectoryTurnsUnwritable) {
  TempDir T;
  auto C = openCache(T.Path);
  ASSERT_TRUE(C->enabled());
  // Replace v1/tmp by a regular file: publishing cannot create its temp file.
  llvm::sys::fs::remove_directories(T.Path + "/v1/tmp");
  writeFile(T.Path + "/v1/tmp", bytes(1, 1));
  EXPECT_FALSE(bool(C->publish(key(1), "hsaco", bytes(10, 1))));
  EXPECT_FALSE(C->enabled());
  EXPECT_FALSE(C->lookup(key(1), "hsaco"));
}

TEST(CacheDisabled, MaxZeroAndDefaults) {
  TempDir T;
  ::setenv("PTX2AMD_CACHE_DIR", T.Path.c_str(), 1);
  ::setenv("PTX2AMD_CACHE_MAX_MB", "0", 1);
  auto Off = CodeObjectCache::openDefault();
  ASSERT_TRUE(bool(Off));
  EXPECT_FALSE((*Off)->enabled());
  ::setenv("PTX2AMD_CACHE_MAX_MB", "7", 1);
  auto On = CodeObjectCache::openDefault();
  ASSERT_TRUE(bool(On));
  EXPECT_TRUE((*On)->enabled());
  EXPECT_EQ((*On)->maxBytes(), 7u << 20);
  EXPECT_EQ((*On)->directory(), T.Path);
  ::unsetenv("PTX2AMD_CACHE_DIR");
  ::setenv("XDG_CACHE_HOME", "/x/y", 1);
  EXPECT_EQ(CodeObjectCache::defaultDirectory(), "/x/y/ptx2amd");
  ::unsetenv("XDG_CACHE_HOME");
  const char *OldHome = std::getenv("HOME");
  std::string Saved = OldHome ? OldHome : "";
  ::setenv("HOME", "/h", 1);
  EXPECT_EQ(CodeObjectCache::defaultDirectory(), "/h/.cache/ptx2amd");
  if (OldHome) ::setenv("HOME", Saved.c_str(), 1);
  else ::unsetenv("HOME");
  ::unsetenv("PTX2AMD_CACHE_MAX_MB");
}

TEST(CacheKeys, EveryInputChangesTheKey) {
  amdgpulower::LowerOptions O;
  O.arch = "gfx90a";
  std::string Fp = optionsFingerprint(O);
  CacheKey Base = makeCacheKey("ptx text", "gfx90a", Fp);
  EXPECT_EQ(Base.Hex.size(), 64u);
  EXPECT_EQ(makeCacheKey("ptx text", "gfx90a", optionsFingerprint(O)), Base) << "deterministic";
  EXPECT_NE(makeCacheKey("ptx text ", "gfx90a", Fp), Base) << "PTX";
  EXPECT_NE(makeCacheKey("ptx text", "gfx942", Fp), Base) << "target";
  auto Changed = [&](auto Edit) {
    amdgpulower::LowerOptions P = O;
    Edit(P);
    return makeCacheKey("ptx text", "gfx90a", optionsFingerprint(P)) != Base;
  };
  EXPECT_TRUE(Changed([](auto &P) { P.defaultPolicy = amdgpulower::WarpPolicy::Pad; })) << "policy";
  EXPECT_TRUE(Changed([](auto &P) { P.kernelPolicy["k"] = amdgpulower::WarpPolicy::Pad; })) << "kernel policy";
  EXPECT_TRUE(Changed([](auto &P) { P.optLevel = 2; })) << "-O";
  EXPECT_TRUE(Changed([](auto &P) { P.codeObjectVersion = 6; })) << "code object version";
  EXPECT_TRUE(Changed([](auto &P) { P.arch = "gfx942"; })) << "arch in options";
  EXPECT_FALSE(Changed([](auto &P) { P.threads = 7; })) << "threads do not change the bytes";
  EXPECT_FALSE(Changed([](auto &P) { P.warnWarpSize = true; })) << "diagnostics only";
  EXPECT_NE(makeCacheKey("ptx text", "gfx90a", optionsFingerprint(O, CacheInputKind::LLVMIR)), Base);
  // Per-kernel specs with different kernels or policies differ; order of insertion does not.
  amdgpulower::LowerOptions A = O, B = O;
  A.kernelPolicy["a"] = amdgpulower::WarpPolicy::Pad;
  A.kernelPolicy["b"] = amdgpulower::WarpPolicy::Pack;
  B.kernelPolicy["b"] = amdgpulower::WarpPolicy::Pack;
  B.kernelPolicy["a"] = amdgpulower::WarpPolicy::Pad;
  EXPECT_EQ(optionsFingerprint(A), optionsFingerprint(B));
  B.kernelPolicy["a"] = amdgpulower::WarpPolicy::Pack;
  EXPECT_NE(optionsFingerprint(A), optionsFingerprint(B));
  // Pipeline options outside LowerOptions (pinned globals, per-kernel images).
  std::string Pin = optionsFingerprint(O, CacheInputKind::PTX, {{"pin", "a,b"}});
  EXPECT_NE(Pin, Fp);
  EXPECT_NE(Pin, optionsFingerprint(O, CacheInputKind::PTX, {{"pin", "a"}}));
  EXPECT_NE(optionsFingerprint(O, CacheInputKind::PTX, {{"pin", "a"}, {"kernel", "k"}}),
            optionsFingerprint(O, CacheInputKind::PTX, {{"pin", "a;x:kernel=1:k"}}));
  // Field boundaries are unambiguous.
  EXPECT_NE(makeCacheKey("ab", "c", ""), makeCacheKey("a", "bc", ""));
  EXPECT_NE(toolchainId().find("LLVM"), llvm::StringRef::npos);
  EXPECT_NE(toolchainId().find("lowering "), llvm::StringRef::npos);
}

// ---- Offload bundles ----------------------------------------------------------
void putU64(std::vector<uint8_t> &B, size_t At, uint64_t V) {
  for (int I = 0; I < 8; ++I) B[At + I] = uint8_t(V >> (8 * I));
}
// A bundle in clang's uncompressed layout (independent writer for the test).
std::vector<uint8_t> makeBundle(const std::vector<std::pair<std::string, std::vector<uint8_t>>> &Entries) {
  size_t Hdr = 32;
  for (auto &E : Entries) Hdr += 24 + E.first.size();
  std::vector<uint8_t> Out(Hdr);
  std::memcpy(Out.data(), "__CLANG_OFFLOAD_BUNDLE__", 24);
  putU64(Out, 24, Entries.size());
  size_t P = 32;
  for (auto &E : Entries) {
    putU64(Out, P, Out.size());
    putU64(Out, P + 8, E.second.size());
    putU64(Out, P + 16, E.first.size());
    std::memcpy(Out.data() + P + 24, E.first.data(), E.first.size());
    P += 24 + E.first.size();
    // payload appended at the current end (offsets were written before)
    size_t At = Out.size();
    Out.insert(Out.end(), E.second.begin(), E.second.end());
    putU64(Out, P - 24 - E.first.size(), At);
  }
  return Out;
}
std::vector<uint8_t> elf(uint32_t Seed) {
  auto B = bytes(3000, Seed);
  std::memcpy(B.data(), "\x7f" "ELF", 4);
  return B;
}
std::vector<uint8_t> text(const std::string &S) { return std::vector<uint8_t>(S.begin(), S.end()); }

TEST(CacheBundles, ManifestSelectsTheCodeObject) {
  TempDir T;
  std::string Exe = T.Path + "/prog";
  writeFile(Exe, bytes(10, 1));
  CacheKey K90 = makeCacheKey("ptx A", "gfx90a", "fp"), K11 = makeCacheKey("ptx A", "gfx1100", "fp");
  CacheKey KB = makeCacheKey("ptx B", "gfx90a", "fp");
  std::string Manifest = makeBundleManifest({{bundleEntryIdFor("gfx90a"), K90}, {bundleEntryIdFor("gfx1100"), K11}});
  writeFile(Exe + ".bundle", makeBundle({{"host-x86_64-unknown-linux-gnu", text(Manifest)},
                                          {bundleEntryIdFor("gfx90a"), elf(90)},
                                          {bundleEntryIdFor("gfx1100"), elf(11)}}));
  auto A = findBundledCodeObject(Exe, "gfx90a", K90);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Bytes, elf(90));
  EXPECT_EQ(A->Path, Exe + ".bundle");
  auto B = findBundledCodeObject(Exe, "gfx1100", K11);
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Bytes, elf(11));
  EXPECT_FALSE(findBundledCodeObject(Exe, "gfx942", makeCacheKey("ptx A", "gfx942", "fp"))) << "no such target";
  EXPECT_FALSE(findBundledCodeObject(Exe, "gfx90a", KB)) << "other PTX: stale bundle not used";
  EXPECT_FALSE(findBundledCodeObject(Exe, "gfx90a", K11)) << "key of another target";

  // Second module in prog.bundle.1 (ptx2amd-fatbin's name for module 1);
  // found after prog.bundle.0, which does not list it.
  writeFile(Exe + ".bundle.0", makeBundle({{"host-x86_64-unknown-linux-gnu", text(Manifest)},
                                            {bundleEntryIdFor("gfx90a"), elf(1)}}));
  writeFile(Exe + ".bundle.1", makeBundle({{"host-x86_64-unknown-linux-gnu",
                                              text(makeBundleManifest({{bundleEntryIdFor("gfx90a"), KB}}))},
                                             {bundleEntryIdFor("gfx90a"), elf(2)}}));
  auto M = findBundledCodeObject(Exe, "gfx90a", KB);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Bytes, elf(2));
}

TEST(CacheBundles, BundlePathAndDamagedBundles) {
  TempDir T, Other;
  std::string Exe = T.Path + "/app";
  writeFile(Exe, bytes(10, 1));
  CacheKey K = makeCacheKey("ptx", "gfx90a", "fp");
  std::string Manifest = makeBundleManifest({{bundleEntryIdFor("gfx90a"), K}});
  // Next to the executable: no manifest (a plain clang/ptx2amd bundle) -> not used.
  writeFile(Exe + ".bundle", makeBundle({{"host-x86_64-unknown-linux-gnu", {}}, {bundleEntryIdFor("gfx90a"), elf(5)}}));
  EXPECT_FALSE(findBundledCodeObject(Exe, "gfx90a", K));
  // In $PTX2AMD_BUNDLE_PATH: used.
  writeFile(Other.Path + "/app.bundle", makeBundle({{"host-x86_64-unknown-linux-gnu", text(Manifest)},
                                                     {bundleEntryIdFor("gfx90a"), elf(6)}}));
  ::setenv("PTX2AMD_BUNDLE_PATH", ("/nonexistent:" + Other.Path).c_str(), 1);
  auto R = findBundledCodeObject(Exe, "gfx90a", K);
  ::unsetenv("PTX2AMD_BUNDLE_PATH");
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Bytes, elf(6));
  // Damaged bundles are skipped, not trusted.
  auto Good = makeBundle({{"host-x86_64-unknown-linux-gnu", text(Manifest)}, {bundleEntryIdFor("gfx90a"), elf(7)}});
  auto Trunc = Good;
  Trunc.resize(Good.size() - 100);
  writeFile(Exe + ".bundle", Trunc);
  EXPECT_FALSE(findBundledCodeObject(Exe, "gfx90a", K));
  writeFile(Exe + ".bundle", bytes(100, 3));
  EXPECT_FALSE(findBundledCodeObject(Exe, "gfx90a", K));
  auto Huge = Good;
  putU64(Huge, 24, 1ull << 40);
  writeFile(Exe + ".bundle", Huge);
  EXPECT_FALSE(findBundledCodeObject(Exe, "gfx90a", K));
  writeFile(Exe + ".bundle", Good);
  auto Ok = findBundledCodeObject(Exe, "gfx90a", K);
  ASSERT_TRUE(Ok);
  EXPECT_EQ(Ok->Bytes, elf(7));
}

} // namespace

//===- BinaryInputsTest.cpp - corrupted fat binaries, sections and bundles --===//
//
// One reproducer per class of malformed binary input, built by corrupting
// real nvcc 13 output committed under data/ (zstd.fatbin, lz4.fatbin,
// raw.fatbin: `nvcc -fatbin` of a one-kernel file with the three compression
// modes; host.o: `nvcc -c`, whose .nv_fatbin section holds the container;
// tiny.bundle: a 3-entry clang offload bundle in formats.md 5.5 layout).
// Each case asserts the outcome is a FormatError naming the expected field
// (and offset where it is fixed by the format) - never a crash, an exception
// or an allocation driven by a declared size. The in-memory cases place the
// bytes against a PROT_NONE guard page, as a corrupt registration would.
//
//===----------------------------------------------------------------------===//
#include "fatbin/Fatbin.h"
#include "fatbin/FormatError.h"
#include "fatbin/OffloadBundle.h"
#include "fatbin/ProcessMemory.h"

#include "llvm/Object/ObjectFile.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sys/mman.h>
#include <unistd.h>

using namespace ptxfatbin;

namespace {

std::vector<uint8_t> load(const char *Name) {
  std::ifstream F(std::string(ROBUSTNESS_DATA_DIR) + "/" + Name, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(F)), std::istreambuf_iterator<char>());
}

template <typename T> void poke(std::vector<uint8_t> &B, size_t Off, T V) { std::memcpy(B.data() + Off, &V, sizeof V); }

// "field@offset" of a FormatError, or the message of any other error. A
// FormatError is the project's InvalidInputError (support/Error.h): its kind
// and field/offset say the same to consumers that only know support/.
std::string fieldOf(llvm::Error E) {
  std::string R;
  llvm::handleAllErrors(
      std::move(E),
      [&](const FormatError &F) {
        EXPECT_EQ(F.kind(), support::ErrorKind::InvalidInput);
        EXPECT_EQ(F.field(), F.Field);
        EXPECT_EQ(F.offset(), F.Offset);
        R = F.Field + "@" + std::to_string(F.Offset);
      },
      [&](const llvm::ErrorInfoBase &Other) { R = "other: " + Other.message(); });
  return R;
}
template <typename T> std::string fieldOf(llvm::Expected<T> &X) {
  EXPECT_FALSE(bool(X)) << "a malformed input was accepted";
  return X ? std::string("accepted") : fieldOf(X.takeError());
}

// Layout of data/*.fatbin: container header at 0, first entry at 0x10.
constexpr size_t Entry = 0x10;

TEST(Robustness, FatbinsFromNvccParse) {
  for (const char *N : {"zstd.fatbin", "lz4.fatbin", "raw.fatbin", "host.o"}) {
    auto B = load(N);
    ASSERT_FALSE(B.empty()) << N;
    auto M = ptxFromFile(B, 90);
    ASSERT_TRUE(bool(M)) << N << ": " << llvm::toString(M.takeError());
    ASSERT_EQ(M->size(), 1u) << N;
    EXPECT_NE((*M)[0].text.find(".entry _Z5scalePffi"), std::string::npos) << N;
  }
}

TEST(Robustness, EveryTruncationIsAnError) {
  for (const char *N : {"zstd.fatbin", "lz4.fatbin", "raw.fatbin"}) {
    auto B = load(N);
    for (size_t Len = 0; Len < B.size(); ++Len) {
      auto M = ptxFromFile(llvm::ArrayRef<uint8_t>(B.data(), Len), 90);
      if (M) continue; // a cut inside the trailing padding is a complete container
      llvm::consumeError(M.takeError());
    }
  }
  auto B = load("zstd.fatbin");
  auto C = parseContainers(llvm::ArrayRef<uint8_t>(B.data(), 100));
  EXPECT_EQ(fieldOf(C), "container.fat_size@8");
}

TEST(Robustness, ContainerHeaderLies) {
  auto B = load("zstd.fatbin");
  auto Bad = B;
  Bad[0] ^= 0xff;
  auto C1 = parseContainers(Bad);
  EXPECT_EQ(fieldOf(C1), "container.magic@0");
  Bad = B;
  poke<uint64_t>(Bad, 8, ~uint64_t(0));
  auto C2 = parseContainers(Bad);
  EXPECT_EQ(fieldOf(C2), "container.fat_size@8");
  Bad = B;
  poke<uint16_t>(Bad, 6, 8);
  auto C3 = parseContainers(Bad);
  EXPECT_EQ(fieldOf(C3), "container.header_size@6");
}

TEST(Robustness, EntryHeaderLies) {
  auto B = load("zstd.fatbin");
  auto Bad = B;
  poke<uint32_t>(Bad, Entry + 4, 0x10); // header below 64 bytes
  auto C1 = parseContainers(Bad);
  EXPECT_EQ(fieldOf(C1), "entry.header_size@" + std::to_string(Entry + 4));
  Bad = B;
  poke<uint32_t>(Bad, Entry + 4, 0xffffff00u);
  auto C2 = parseContainers(Bad);
  EXPECT_EQ(fieldOf(C2), "entry.header_size@" + std::to_string(Entry + 4));
  Bad = B;
  poke<uint64_t>(Bad, Entry + 8, uint64_t(1) << 62); // payload beyond the container
  auto C3 = parseContainers(Bad);
  EXPECT_EQ(fieldOf(C3), "entry.payload_size@" + std::to_string(Entry + 8));
  Bad = B;
  poke<uint32_t>(Bad, Entry + 0x10, 0x7fffffff); // compressed size > payload size
  auto C4 = parseContainers(Bad);
  EXPECT_EQ(fieldOf(C4), "entry.compressed_size@" + std::to_string(Entry + 0x10));
}

TEST(Robustness, BogusUncompressedSizesAllocateNothing) {
  for (const char *N : {"zstd.fatbin", "lz4.fatbin"}) {
    auto B = load(N);
    auto Bad = B;
    poke<uint64_t>(Bad, Entry + 0x38, uint64_t(4) << 30); // the issue's 4 GB demand
    auto C = parseContainers(Bad);
    ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
    const ptxfatbin::Entry &E = (*C)[0].entries[0];
    EXPECT_LT(maxDecompressedSize(E), uint64_t(1) << 20) << "cap is stored size x ratio bound";
    auto P = payload(E);
    EXPECT_EQ(fieldOf(P), "entry.uncompressed_size@" + std::to_string(Entry + 0x38)) << N;
    poke<uint64_t>(Bad, Entry + 0x38, 0);
    auto C0 = parseContainers(Bad);
    ASSERT_TRUE(bool(C0));
    auto P0 = payload((*C0)[0].entries[0]);
    EXPECT_EQ(fieldOf(P0), "entry.uncompressed_size@" + std::to_string(Entry + 0x38)) << N;
  }
  // zstd: the frame states its content size; a different header value is an error.
  auto Bad = load("zstd.fatbin");
  uint64_t U;
  std::memcpy(&U, Bad.data() + Entry + 0x38, 8);
  poke<uint64_t>(Bad, Entry + 0x38, U + 1);
  auto C = parseContainers(Bad);
  ASSERT_TRUE(bool(C));
  auto P = payload((*C)[0].entries[0]);
  EXPECT_EQ(fieldOf(P), "entry.uncompressed_size@" + std::to_string(Entry + 0x38));
}

TEST(Robustness, CorruptCompressedStreams) {
  for (const char *N : {"zstd.fatbin", "lz4.fatbin"}) {
    auto Bad = load(N);
    uint32_t HS;
    std::memcpy(&HS, Bad.data() + Entry + 4, 4);
    for (size_t I = Entry + HS + 4; I < Bad.size(); ++I) Bad[I] ^= 0x5a;
    auto C = parseContainers(Bad);
    ASSERT_TRUE(bool(C));
    auto P = payload((*C)[0].entries[0]);
    std::string F = fieldOf(P);
    EXPECT_TRUE(F == "entry.payload@16" || F.rfind("entry.uncompressed_size", 0) == 0) << N << ": " << F;
  }
}

// The .nv_fatbin section of data/host.o, located with LLVM's object reader.
size_t nvFatbinOffset(const std::vector<uint8_t> &Obj) {
  llvm::MemoryBufferRef Ref(llvm::StringRef(reinterpret_cast<const char *>(Obj.data()), Obj.size()), "host.o");
  auto O = llvm::object::ObjectFile::createObjectFile(Ref);
  if (!O) {
    llvm::consumeError(O.takeError());
    return 0;
  }
  for (const auto &S : (*O)->sections()) {
    auto N = S.getName();
    auto C = S.getContents();
    if (N && C && *N == ".nv_fatbin") return size_t(C->data() - reinterpret_cast<const char *>(Obj.data()));
    if (!N) llvm::consumeError(N.takeError());
    if (!C) llvm::consumeError(C.takeError());
  }
  return 0;
}

TEST(Robustness, CorruptNvFatbinSections) {
  auto Obj = load("host.o");
  size_t Sec = nvFatbinOffset(Obj);
  ASSERT_NE(Sec, 0u);
  auto Bad = Obj;
  poke<uint64_t>(Bad, Sec + 8, uint64_t(1) << 40); // container larger than its section
  auto M = ptxFromFile(Bad, 90);
  EXPECT_EQ(fieldOf(M), "container.fat_size@8");
  Bad = Obj;
  Bad[Sec] ^= 0xff;
  auto M2 = ptxFromFile(Bad, 90);
  EXPECT_EQ(fieldOf(M2), "container.magic@0");
  // A truncated ELF: section contents past the end of the file.
  for (size_t Len : {size_t(64), Sec + 8, Obj.size() / 2, Obj.size() - 1}) {
    auto T = ptxFromFile(llvm::ArrayRef<uint8_t>(Obj.data(), Len), 90);
    if (!T) llvm::consumeError(T.takeError());
  }
}

// Bytes placed to end exactly at a PROT_NONE page.
struct Guarded {
  uint8_t *Base = nullptr, *Data = nullptr;
  size_t Len = 0, Page = size_t(sysconf(_SC_PAGESIZE));
  explicit Guarded(const std::vector<uint8_t> &B) {
    Len = ((B.size() + Page - 1) / Page + 1) * Page;
    Base = static_cast<uint8_t *>(mmap(nullptr, Len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    mprotect(Base + Len - Page, Page, PROT_NONE);
    Data = Base + Len - Page - B.size();
    std::memcpy(Data, B.data(), B.size());
  }
  uint8_t *guard() const { return Base + Len - Page; }
  ~Guarded() { munmap(Base, Len); }
};

struct Wrapper {
  uint32_t magic, version;
  const void *data, *aux;
};

TEST(Robustness, InMemoryHeadersCannotReadPastTheMapping) {
  auto B = load("zstd.fatbin");
  B.resize(16 + 0x1c0); // exactly header + fat_size
  {
    Guarded G(B);
    EXPECT_EQ(readableExtent(G.Data, 1 << 20), B.size());
    EXPECT_EQ(readableExtent(G.guard(), 16), 0u);
    Wrapper W{WrapperMagic, 1, G.Data, nullptr};
    auto M = ptxFromWrapper(&W, 90);
    ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
    EXPECT_EQ(M->size(), 1u);
  }
  auto Lie = B;
  poke<uint64_t>(Lie, 8, 0x1c0 + 4096); // fat_size reaching into the guard page
  Guarded G(Lie);
  Wrapper W{WrapperMagic, 1, G.Data, nullptr};
  auto M = ptxFromWrapper(&W, 90);
  EXPECT_EQ(fieldOf(M), "container.fat_size@8");
  auto Bare = ptxFromWrapper(G.Data, 90);
  EXPECT_EQ(fieldOf(Bare), "container.fat_size@8");
}

TEST(Robustness, InMemoryPointersToNowhere) {
  Guarded G(std::vector<uint8_t>(8, 0));
  auto N = ptxFromWrapper(nullptr, 90);
  EXPECT_EQ(fieldOf(N), "wrapper@0");
  auto U = ptxFromWrapper(G.guard(), 90); // the wrapper itself unreadable
  EXPECT_EQ(fieldOf(U), "wrapper.magic@0");
  Wrapper W{WrapperMagic, 1, G.guard(), nullptr}; // container unreadable
  auto D = ptxFromWrapper(&W, 90);
  EXPECT_EQ(fieldOf(D), "container.header@0");
  Wrapper V{WrapperMagic, 7, G.Data, nullptr};
  auto Ver = ptxFromWrapper(&V, 90);
  EXPECT_EQ(fieldOf(Ver), "wrapper.version@4");
  // v2: a prelinked list that runs into the guard page without a NULL.
  std::vector<uint8_t> ListBytes(16);
  const void *Self = nullptr;
  std::memcpy(ListBytes.data(), &Self, 8); // placeholder, replaced below
  Guarded L(ListBytes);
  auto Fat = load("zstd.fatbin");
  const void *C = Fat.data();
  std::memcpy(L.Data, &C, 8);
  std::memcpy(L.Data + 8, &C, 8);
  Wrapper W2{WrapperMagic, 2, nullptr, L.Data};
  auto M = ptxFromWrapper(&W2, 90);
  EXPECT_EQ(fieldOf(M), "wrapper.prelinked@16");
  // A wrapper straddling the guard: 8 readable bytes, 24 needed.
  std::vector<uint8_t> Head(8);
  uint32_t Magic = WrapperMagic, Ver1 = 1;
  std::memcpy(Head.data(), &Magic, 4);
  std::memcpy(Head.data() + 4, &Ver1, 4);
  Guarded H(Head);
  auto S = ptxFromWrapper(H.Data, 90);
  EXPECT_EQ(fieldOf(S), "wrapper.data@8");
}

// formats.md 5.5 layout, payloads right after the table.
std::vector<uint8_t> makeBundle(const std::vector<std::pair<std::string, std::string>> &Es) {
  std::vector<uint8_t> B(OffloadBundleMagic, OffloadBundleMagic + 24);
  auto put = [&](uint64_t V) { B.insert(B.end(), reinterpret_cast<uint8_t *>(&V), reinterpret_cast<uint8_t *>(&V) + 8); };
  put(Es.size());
  uint64_t At = 32;
  for (const auto &E : Es) At += 24 + E.first.size();
  for (const auto &E : Es) {
    put(At), put(E.second.size()), put(E.first.size());
    B.insert(B.end(), E.first.begin(), E.first.end());
    At += E.second.size();
  }
  for (const auto &E : Es) B.insert(B.end(), E.second.begin(), E.second.end());
  return B;
}

TEST(Robustness, OffloadBundles) {
  auto B = load("tiny.bundle");
  auto Ok = readOffloadBundle(B);
  ASSERT_TRUE(bool(Ok)) << llvm::toString(Ok.takeError());
  ASSERT_EQ(Ok->size(), 3u);
  EXPECT_EQ((*Ok)[1].id, "hipv4-amdgcn-amd-amdhsa--gfx1100");
  EXPECT_EQ((*Ok)[1].bytes.size(), 64u);
  // Entry table: {off,size,idlen,id} from 32; entry 0's id is 29 bytes.
  const size_t E1 = 32 + 24 + 29, E2 = E1 + 24 + 32;
  auto Bad = B;
  poke<uint64_t>(Bad, 24, uint64_t(1) << 60);
  auto R1 = readOffloadBundle(Bad);
  EXPECT_EQ(fieldOf(R1), "bundle.num_entries@24");
  Bad = B;
  poke<uint64_t>(Bad, E1, ~uint64_t(0) - 8); // offset + size wraps
  auto R2 = readOffloadBundle(Bad);
  EXPECT_EQ(fieldOf(R2), "bundle.entry[1].size@" + std::to_string(E1 + 8));
  Bad = B;
  poke<uint64_t>(Bad, E2 + 8, ~uint64_t(0)); // huge size
  auto R3 = readOffloadBundle(Bad);
  EXPECT_EQ(fieldOf(R3), "bundle.entry[2].size@" + std::to_string(E2 + 8));
  Bad = B;
  uint64_t Off1;
  std::memcpy(&Off1, B.data() + E1, 8);
  poke<uint64_t>(Bad, E2, Off1 + 8); // entry 2 overlaps entry 1
  auto R4 = readOffloadBundle(Bad);
  ASSERT_FALSE(bool(R4));
  EXPECT_NE(llvm::toString(R4.takeError()).find("overlaps entry"), std::string::npos);
  Bad = B;
  poke<uint64_t>(Bad, E1, 40); // payload over the entry table
  auto R5 = readOffloadBundle(Bad);
  ASSERT_FALSE(bool(R5));
  EXPECT_NE(llvm::toString(R5.takeError()).find("overlaps the entry table"), std::string::npos);
  // Duplicate ids: entry 2 renamed to entry 1's id (same length table).
  std::vector<uint8_t> Dup = makeBundle({{"hipv4-amdgcn-amd-amdhsa--gfx1100", "AAAA"},
                                         {"hipv4-amdgcn-amd-amdhsa--gfx1100", "BBBB"}});
  ASSERT_TRUE(bool(readOffloadBundle(makeBundle({{"a", "AAAA"}, {"b", "BBBB"}}))));
  auto R6 = readOffloadBundle(Dup);
  EXPECT_EQ(fieldOf(R6), "bundle.entry[1].id@" + std::to_string(32 + 24 + 32 + 24));
  Bad = B;
  poke<uint64_t>(Bad, E1 + 16, uint64_t(1) << 40);
  auto R7 = readOffloadBundle(Bad);
  EXPECT_EQ(fieldOf(R7), "bundle.entry[1].id_len@" + std::to_string(E1 + 16));
  std::vector<uint8_t> Ccob = {'C', 'C', 'O', 'B', 2, 0, 1, 0};
  auto R8 = readOffloadBundle(Ccob);
  EXPECT_EQ(fieldOf(R8), "bundle.magic@0");
  for (size_t Len = 0; Len < B.size(); ++Len) {
    auto T = readOffloadBundle(llvm::ArrayRef<uint8_t>(B.data(), Len));
    if (!T) llvm::consumeError(T.takeError());
  }
}

} // namespace

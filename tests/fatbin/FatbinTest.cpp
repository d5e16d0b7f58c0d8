//===- FatbinTest.cpp - ptxfatbin on real nvcc 13 output --------------------===//
//
// Every test compiles small CUDA sources with the installed nvcc at test time
// (-fatbin with zstd / LZ4 / no compression, executables with cubin + PTX,
// several PTX archs, -rdc) and checks what ptxfatbin extracts: the entry
// kinds, archs and compression flags nvcc wrote, the decompressed PTX (which
// must be the same text for every compression mode and name every kernel of
// the source), PTX selection by arch, wrapper following (v1 and v2), and clean
// errors for corrupt inputs. A missing nvcc fails the tests.
//
//===----------------------------------------------------------------------===//
#include "fatbin/Fatbin.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace ptxfatbin;

namespace {

const char *KernelSrc = R"(
__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
template <typename T> __global__ void tk(T *p) { p[threadIdx.x] *= T(2); }
template __global__ void tk<double>(double *);
__device__ int dev_counter;
int main() { return 0; }
)";

std::string nvcc() { return std::string(PTX2AMD_NVCC); }

fs::path workDir() {
  static fs::path D = [] {
    fs::path P = fs::temp_directory_path() / ("ptxfatbin-test-" + std::to_string(getpid()));
    fs::create_directories(P);
    return P;
  }();
  return D;
}

std::vector<uint8_t> readFile(const fs::path &P) {
  std::ifstream F(P, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(F)), std::istreambuf_iterator<char>());
}

fs::path writeSrc(const std::string &Name, const std::string &Text) {
  fs::path P = workDir() / Name;
  std::ofstream(P) << Text;
  return P;
}

// Runs nvcc with Args on Src; returns the output path (asserts success).
fs::path compile(const std::string &Out, const std::string &Args, const fs::path &Src) {
  fs::path O = workDir() / Out;
  std::string Cmd = nvcc() + " " + Args + " -o " + O.string() + " " + Src.string() + " 2>&1";
  int R = std::system(Cmd.c_str());
  EXPECT_EQ(R, 0) << Cmd;
  return O;
}

std::vector<std::string> entryNames(const std::string &Ptx) {
  std::vector<std::string> N;
  std::istringstream S(Ptx);
  std::string L;
  while (std::getline(S, L)) {
    auto P = L.find(".entry ");
    if (P == std::string::npos) continue;
    auto B = P + 7, E = L.find_first_of("( \t", B);
    N.push_back(L.substr(B, E - B));
  }
  return N;
}

// The single PTX payload of a -fatbin file built with Flags.
std::pair<Entry, std::string> onlyPtx(const std::string &Tag, const std::string &Flags,
                                      std::vector<uint8_t> &Keep) {
  fs::path F = compile(Tag + ".fatbin", "-fatbin " + Flags, writeSrc("k.cu", KernelSrc));
  Keep = readFile(F);
  auto Cs = parseContainers(Keep);
  EXPECT_TRUE(bool(Cs)) << (Cs ? "" : llvm::toString(Cs.takeError()));
  if (!Cs) return {};
  EXPECT_EQ(Cs->size(), 1u);
  for (const Entry &E : (*Cs)[0].entries)
    if (E.isPTX()) {
      auto P = payload(E);
      EXPECT_TRUE(bool(P));
      return {E, P ? *P : std::string()};
    }
  ADD_FAILURE() << "no PTX entry";
  return {};
}

TEST(Fatbin, CompressionModesGiveTheSamePTX) {
  std::vector<uint8_t> B1, B2, B3, B4;
  const std::string G = "-gencode arch=compute_90,code=compute_90 ";
  auto [Ez, Pz] = onlyPtx("zstd", G, B1);
  auto [El, Pl] = onlyPtx("lz4", G + "--compress-mode=speed", B2);
  auto [En, Pn] = onlyPtx("none", G + "--compress-mode=none", B3);
  auto [Es, Ps] = onlyPtx("size", G + "--compress-mode=size", B4);
  EXPECT_TRUE(Ez.flags & FlagCompressedZstd);
  EXPECT_TRUE(El.flags & FlagCompressedLZ4);
  EXPECT_FALSE(En.compressed());
  EXPECT_TRUE(Es.flags & FlagCompressedZstd);
  EXPECT_EQ(Ez.arch, 90u);
  EXPECT_EQ(Ez.major, 9);
  EXPECT_NE(Pz.find(".target sm_90"), std::string::npos);
  EXPECT_EQ(Pz, Pl);
  EXPECT_EQ(Pz, Pn);
  EXPECT_EQ(Pz, Ps);
  EXPECT_EQ(Pz.size() + 1, Ez.uncompressedSize); // the stored PTX counts its NUL
  // Same kernels as nvcc -ptx prints.
  fs::path Ptx = compile("k.ptx", "-ptx -arch=compute_90", writeSrc("k.cu", KernelSrc));
  std::ifstream F(Ptx);
  std::string Direct((std::istreambuf_iterator<char>(F)), std::istreambuf_iterator<char>());
  auto Want = entryNames(Direct), Got = entryNames(Pz);
  EXPECT_EQ(Got, Want);
  EXPECT_EQ(Got.size(), 2u);
}

TEST(Fatbin, ExecutableWithCubinAndPTX) {
  fs::path Exe = compile("exe", "-gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90",
                         writeSrc("k.cu", KernelSrc));
  auto Bytes = readFile(Exe);
  auto Mods = ptxFromFile(Bytes, 90);
  ASSERT_TRUE(bool(Mods)) << llvm::toString(Mods.takeError());
  ASSERT_EQ(Mods->size(), 1u);
  EXPECT_EQ((*Mods)[0].arch, 90u);
  EXPECT_FALSE((*Mods)[0].relocatable());
  EXPECT_EQ(entryNames((*Mods)[0].text).size(), 2u);
}

TEST(Fatbin, CubinOnlyHasNoPTX) {
  fs::path Exe = compile("exe-sass", "-gencode arch=compute_90,code=sm_90", writeSrc("k.cu", KernelSrc));
  auto Bytes = readFile(Exe);
  auto Mods = ptxFromFile(Bytes, 90);
  ASSERT_TRUE(bool(Mods)) << llvm::toString(Mods.takeError());
  EXPECT_TRUE(Mods->empty());
}

TEST(Fatbin, SelectsHighestArchNotAboveTarget) {
  fs::path F = compile("multi.fatbin",
                       "-fatbin -gencode arch=compute_75,code=compute_75 -gencode arch=compute_90,code=compute_90 "
                       "-gencode arch=compute_80,code=sm_80",
                       writeSrc("k.cu", KernelSrc));
  auto Bytes = readFile(F);
  auto Cs = parseContainers(Bytes);
  ASSERT_TRUE(bool(Cs)) << llvm::toString(Cs.takeError());
  ASSERT_EQ(Cs->size(), 1u);
  const Container &C = (*Cs)[0];
  unsigned Ptx = 0, Elf = 0;
  for (const Entry &E : C.entries) (E.isPTX() ? Ptx : Elf) += E.isPTX() || E.isELF();
  EXPECT_EQ(Ptx, 2u);
  EXPECT_EQ(Elf, 1u);
  EXPECT_EQ(C.entries[selectPTX(C, 90)].arch, 90u);
  EXPECT_EQ(C.entries[selectPTX(C, 89)].arch, 75u);
  EXPECT_EQ(C.entries[selectPTX(C, 70)].arch, 75u); // nothing fits: lowest
  auto P75 = payload(C.entries[selectPTX(C, 80)]);
  ASSERT_TRUE(bool(P75));
  EXPECT_NE(P75->find(".target sm_75"), std::string::npos);
}

TEST(Fatbin, WrapperV1AndV2InMemory) {
  fs::path F = compile("w.fatbin", "-fatbin -gencode arch=compute_90,code=compute_90", writeSrc("k.cu", KernelSrc));
  auto Bytes = readFile(F);
  // The layout nvcc's host code passes to __cudaRegisterFatBinary.
  struct Wrapper { uint32_t magic, version; const void *data, *aux; };
  Wrapper W1{WrapperMagic, 1, Bytes.data(), nullptr};
  auto M1 = ptxFromWrapper(&W1, 90);
  ASSERT_TRUE(bool(M1)) << llvm::toString(M1.takeError());
  ASSERT_EQ(M1->size(), 1u);
  const void *Pre[] = {Bytes.data(), Bytes.data(), nullptr};
  uint8_t Empty[16] = {0x50, 0xed, 0x55, 0xba, 1, 0, 0x10, 0};
  Wrapper W2{WrapperMagic, 2, Empty, Pre};
  auto M2 = ptxFromWrapper(&W2, 90);
  ASSERT_TRUE(bool(M2)) << llvm::toString(M2.takeError());
  ASSERT_EQ(M2->size(), 2u);
  EXPECT_EQ((*M2)[1].text, (*M1)[0].text);
  Wrapper Bad{0x12345678, 1, Bytes.data(), nullptr};
  auto MB = ptxFromWrapper(&Bad, 90);
  ASSERT_FALSE(bool(MB));
  EXPECT_NE(llvm::toString(MB.takeError()).find("bad wrapper magic"), std::string::npos);
}

TEST(Fatbin, RelocatableDeviceCode) {
  fs::path A = writeSrc("a.cu", "__device__ int twice(int x);\n"
                                "__global__ void k(int *p) { p[threadIdx.x] = twice(p[threadIdx.x]); }\n"
                                "int main() { return 0; }\n");
  fs::path B = writeSrc("b.cu", "__device__ int twice(int x) { return 2 * x; }\n");
  fs::path O = workDir() / "rdc";
  std::string Cmd = nvcc() + " -rdc=true -gencode arch=compute_90,code=compute_90 -o " + O.string() + " " +
                    A.string() + " " + B.string() + " 2>&1";
  ASSERT_EQ(std::system(Cmd.c_str()), 0) << Cmd;
  auto Bytes = readFile(O);
  auto Mods = ptxFromFile(Bytes, 90);
  ASSERT_TRUE(bool(Mods)) << llvm::toString(Mods.takeError());
  unsigned Ours = 0;
  for (const PTXModule &M : *Mods) {
    EXPECT_TRUE(M.relocatable());
    if (M.text.find("twice") != std::string::npos) ++Ours;
  }
  EXPECT_EQ(Ours, 2u); // a.cu (caller, .extern .func) and b.cu (definition)
}

TEST(Fatbin, CorruptInputsAreErrors) {
  std::vector<uint8_t> Keep;
  auto [E, P] = onlyPtx("zstd2", "-gencode arch=compute_90,code=compute_90", Keep);
  // Truncated container.
  auto T = parseContainer(Keep.data(), Keep.size() - 40);
  ASSERT_FALSE(bool(T));
  EXPECT_NE(llvm::toString(T.takeError()).find("exceed"), std::string::npos);
  // Bad magic.
  std::vector<uint8_t> Bad = Keep;
  Bad[0] ^= 0xff;
  auto BM = parseContainers(Bad);
  ASSERT_FALSE(bool(BM));
  llvm::consumeError(BM.takeError());
  // Corrupt zstd stream.
  auto Cs = parseContainers(Keep);
  ASSERT_TRUE(bool(Cs));
  Entry C = (*Cs)[0].entries[0];
  std::vector<uint8_t> Junk(C.stored.begin(), C.stored.end());
  for (size_t I = 4; I < Junk.size(); ++I) Junk[I] ^= 0x5a;
  C.stored = Junk;
  auto D = payload(C);
  ASSERT_FALSE(bool(D));
  EXPECT_NE(llvm::toString(D.takeError()).find("zstd"), std::string::npos);
}

} // namespace

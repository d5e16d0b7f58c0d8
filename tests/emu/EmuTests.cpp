//===- EmuTests.cpp - amdgpu-emu tests on clang-generated AMDGPU IR --------===//
//
// Runs kernels compiled by clang-22 from OpenCL C (kernels/basic.cl, for
// gfx1100 = wave32 and gfx90a = wave64) and hand-written IR (kernels/*.ll)
// on the emulator and checks results against host-computed references:
// memory, LDS + barriers, divergence and reconvergence, cross-lane ops,
// atomics, inter-workgroup spin-waits, faults, the kernarg/hidden-argument
// layout, recursion and indirect calls, warp policies, printf and traps.
//
//===----------------------------------------------------------------------===//
#include "emu/Emu.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <cstring>
#include <random>

using namespace emu;

namespace {

std::string kernelPath(const std::string &Name) { return std::string(EMU_KERNEL_DIR) + "/" + Name; }
std::string srcPath(const std::string &Name) { return std::string(EMU_SRC_DIR) + "/" + Name; }

std::unique_ptr<Device> makeDevice(DeviceOptions O = {}) {
  O.threads = 2;
  auto D = Device::create(std::move(O));
  if (!D) {
    ADD_FAILURE() << llvm::toString(D.takeError());
    return nullptr;
  }
  return std::move(*D);
}

llvm::Expected<emu::Module *> loadFile(Device &D, const std::string &Path) {
  auto B = llvm::MemoryBuffer::getFile(Path);
  if (!B) return llvm::createStringError(B.getError(), "cannot read " + Path);
  return D.loadModule((*B)->getMemBufferRef());
}

#define ASSERT_OK(X)                                                                               \
  do {                                                                                             \
    llvm::Error E_ = (X);                                                                          \
    ASSERT_FALSE(bool(E_)) << llvm::toString(std::move(E_));                                       \
  } while (0)

template <class T> uint64_t upload(Device &D, const std::vector<T> &V) {
  auto A = D.malloc(V.size() * sizeof(T));
  EXPECT_TRUE(bool(A));
  if (!A) { llvm::consumeError(A.takeError()); return 0; }
  EXPECT_FALSE(bool(D.copyToDevice(*A, V.data(), V.size() * sizeof(T))));
  return *A;
}
template <class T> std::vector<T> download(Device &D, uint64_t Addr, size_t N) {
  std::vector<T> V(N);
  llvm::Error E = D.copyFromDevice(V.data(), Addr, N * sizeof(T));
  EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  return V;
}

struct Arch {
  const char *cpu;
  unsigned wave;
};

class EmuArch : public ::testing::TestWithParam<Arch> {
protected:
  void SetUp() override {
    Dev = makeDevice(Opts);
    ASSERT_TRUE(Dev);
    auto M = loadFile(*Dev, kernelPath(std::string("basic_") + GetParam().cpu + ".ll"));
    ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
    Mod = *M;
  }
  DeviceOptions Opts;
  std::unique_ptr<Device> Dev;
  emu::Module *Mod = nullptr;
  llvm::Error launch(const char *K, Dim3 G, Dim3 B, std::vector<void *> Args, uint32_t Dyn = 0, bool Coop = false) {
    LaunchConfig C;
    C.grid = G;
    C.block = B;
    C.dynamicLdsBytes = Dyn;
    C.cooperative = Coop;
    return Dev->launch(*Mod, K, C, Args.data());
  }
};

TEST_P(EmuArch, WaveSizeFromTarget) {
  auto K = Mod->kernel("vadd");
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  EXPECT_EQ(K->waveSize, GetParam().wave);
  EXPECT_EQ(K->argOffsets, (std::vector<uint32_t>{0, 8, 16, 24}));
  EXPECT_EQ(K->explicitKernargBytes, 28u);
}

TEST_P(EmuArch, VectorAdd) {
  const int N = 1000;
  std::vector<float> A(N), B(N);
  for (int i = 0; i < N; ++i) { A[i] = i * 0.5f; B[i] = 1000.0f - i; }
  uint64_t a = upload(*Dev, A), b = upload(*Dev, B), c = upload(*Dev, std::vector<float>(N, -1.0f));
  int n = N;
  ASSERT_OK(launch("vadd", {4}, {256}, {&a, &b, &c, &n}));
  auto C = download<float>(*Dev, c, N);
  for (int i = 0; i < N; ++i) ASSERT_EQ(C[i], A[i] + B[i]) << i;
  KernelCounters K = Dev->counters("vadd");
  EXPECT_EQ(K.launches, 1u);
  EXPECT_GT(K.laneInstructions, uint64_t(N) * 5);
  EXPECT_GE(K.waveInstructions * GetParam().wave, K.laneInstructions);
}

TEST_P(EmuArch, ReduceThroughLdsWithBarriers) {
  const int N = 256 * 8;
  std::vector<int> In(N);
  std::mt19937 R(42);
  for (auto &x : In) x = int(R() % 1000) - 500;
  uint64_t in = upload(*Dev, In), out = upload(*Dev, std::vector<int>{0});
  ASSERT_OK(launch("reduce_lds", {8}, {256}, {&in, &out}));
  EXPECT_EQ(download<int>(*Dev, out, 1)[0], std::accumulate(In.begin(), In.end(), 0));
}

TEST_P(EmuArch, ReduceThroughDynamicLds) {
  const int G = 5, T = 128;
  std::vector<int> In(G * T);
  for (int i = 0; i < G * T; ++i) In[i] = i * 3 - 7;
  uint64_t in = upload(*Dev, In), out = upload(*Dev, std::vector<int>(G, 0));
  auto K = Mod->kernel("reduce_dyn");
  ASSERT_TRUE(bool(K));
  uint32_t ldsOff = (K->staticLdsBytes + 15) & ~15u;
  ASSERT_OK(launch("reduce_dyn", {G}, {T}, {&in, &out, &ldsOff}, T * 4));
  auto O = download<int>(*Dev, out, G);
  for (int g = 0; g < G; ++g)
    EXPECT_EQ(O[g], std::accumulate(In.begin() + g * T, In.begin() + (g + 1) * T, 0)) << g;
  // too little dynamic LDS: the last lanes' LDS stores fault
  llvm::Error E = launch("reduce_dyn", {G}, {T}, {&in, &out, &ldsOff}, T * 2);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("invalid LDS store of 4 bytes"), std::string::npos);
}

TEST_P(EmuArch, DivergenceAndReconvergence) {
  const int N = 256;
  uint64_t out = upload(*Dev, std::vector<int>(N, 0));
  uint64_t bal = upload(*Dev, std::vector<uint64_t>(N / GetParam().wave, 0));
  ASSERT_OK(launch("diverge", {2}, {128}, {&out, &bal}));
  auto O = download<int>(*Dev, out, N);
  for (int i = 0; i < N; ++i) {
    int acc = 0;
    for (unsigned k = 0; k < unsigned(i % 7) * 3 + 1; ++k) {
      if ((k + i) & 1) acc += k * 3;
      else if (k % 3 == 0) acc -= i;
      else { acc ^= 0x55; if (acc > 100) break; }
    }
    if (i % 5 == 0) acc *= 2; else acc += 7;
    ASSERT_EQ(O[i], acc) << "lane " << i;
  }
  uint64_t Full = GetParam().wave == 64 ? ~0ull : 0xffffffffull;
  for (uint64_t b : download<uint64_t>(*Dev, bal, N / GetParam().wave)) EXPECT_EQ(b, Full);
}

TEST_P(EmuArch, CrossLaneOps) {
  const unsigned W = GetParam().wave, N = 128;
  uint64_t out = upload(*Dev, std::vector<uint32_t>(N * 6, 0));
  ASSERT_OK(launch("waveops", {2}, {64}, {&out}));
  auto O = download<uint32_t>(*Dev, out, N * 6);
  uint64_t oddMask = 0;
  for (unsigned l = 0; l < W; ++l) if (l & 1) oddMask |= 1ull << l;
  for (unsigned i = 0; i < N; ++i) {
    unsigned l = i % W, base = i - l;
    ASSERT_EQ(O[i * 6 + 0], l) << i;                               // mbcnt
    EXPECT_EQ(O[i * 6 + 1], uint32_t(oddMask)) << i;               // ballot low
    EXPECT_EQ(O[i * 6 + 2], uint32_t(oddMask >> 32)) << i;         // ballot high
    EXPECT_EQ(O[i * 6 + 3], (base + 3) * 10) << i;                 // readlane 3
    EXPECT_EQ(O[i * 6 + 4], l >= 5 ? base + 5 : 12345u) << i;      // readfirstlane in a branch
    EXPECT_EQ(O[i * 6 + 5], (base + W - 1 - l) * 2) << i;          // bpermute reverse
  }
}

TEST_P(EmuArch, Atomics) {
  const int N = 3000;
  std::vector<uint32_t> In(N);
  std::mt19937 R(7);
  for (auto &x : In) x = R() % 100000;
  uint64_t in = upload(*Dev, In), hist = upload(*Dev, std::vector<uint32_t>(16, 0)),
           fsum = upload(*Dev, std::vector<float>{0.0f}), imax = upload(*Dev, std::vector<int>{-1});
  int n = N;
  ASSERT_OK(launch("atomics", {12}, {256}, {&in, &hist, &fsum, &imax, &n}));
  std::vector<uint32_t> H(16, 0);
  float S = 0;
  int M = -1;
  for (uint32_t x : In) { H[x % 16]++; S += float(x % 8); M = std::max(M, int(x)); }
  EXPECT_EQ(download<uint32_t>(*Dev, hist, 16), H);
  EXPECT_EQ(download<float>(*Dev, fsum, 1)[0], S);
  EXPECT_EQ(download<int>(*Dev, imax, 1)[0], M);
}

TEST_P(EmuArch, SpinWaitBetweenWorkgroups) {
  for (bool Coop : {false, true}) {
    const int G = 12, T = 64;
    uint64_t flag = upload(*Dev, std::vector<int>{0}), out = upload(*Dev, std::vector<int>(G * T, 0));
    ASSERT_OK(launch("spin_last", {G}, {T}, {&flag, &out}, 0, Coop));
    auto O = download<int>(*Dev, out, G * T);
    for (int i = 0; i < G * T; ++i) ASSERT_EQ(O[i], i / T + 1) << i;
  }
}

TEST_P(EmuArch, ChainedScanBeyondResidency) {
  // 300 workgroups, 2 threads x 4 resident: in-order admission must keep
  // every waiter's predecessor resident.
  Dev.reset();
  DeviceOptions O;
  O.residentPerThread = 4;
  O.sliceInstructions = 64;
  Dev = makeDevice(O);
  auto M = loadFile(*Dev, kernelPath(std::string("basic_") + GetParam().cpu + ".ll"));
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  Mod = *M;
  const int G = 300, T = 64;
  std::vector<int> In(G * T);
  std::mt19937 R(3);
  for (auto &x : In) x = int(R() % 50);
  uint64_t in = upload(*Dev, In), flags = upload(*Dev, std::vector<int>(G, 0)),
           prefix = upload(*Dev, std::vector<int>(G, 0)), out = upload(*Dev, std::vector<int>(G, -1));
  ASSERT_OK(launch("chained_sum", {G}, {T}, {&in, &flags, &prefix, &out}));
  auto O2 = download<int>(*Dev, out, G);
  int run = 0;
  for (int g = 0; g < G; ++g) {
    ASSERT_EQ(O2[g], run) << g;
    for (int t = 0; t < T; ++t) run += In[g * T + t];
  }
}

TEST_P(EmuArch, OutOfBoundsStoreIsAFaultReport) {
  uint64_t out = upload(*Dev, std::vector<int>(64, 0));
  int n = 60; // lanes 4.. of workgroup 0 write past the 64-int allocation
  llvm::Error E = launch("oob_store", {1}, {64}, {&out, &n});
  ASSERT_TRUE(bool(E));
  std::string S = llvm::toString(std::move(E));
  EXPECT_NE(S.find("invalid global store of 4 bytes"), std::string::npos) << S;
  EXPECT_NE(S.find("kernel 'oob_store'"), std::string::npos) << S;
  EXPECT_NE(S.find("workgroup (0,0,0)"), std::string::npos) << S;
  EXPECT_NE(S.find("lane 4"), std::string::npos) << S;
  EXPECT_NE(S.find("store i32 1"), std::string::npos) << S;
  char Addr[64];
  snprintf(Addr, sizeof Addr, "0x%016llx", (unsigned long long)(out + 64 * 4));
  EXPECT_NE(S.find(Addr), std::string::npos) << S;
  // the device stays usable
  auto O = download<int>(*Dev, out, 64);
  EXPECT_EQ(O[0], 0);
  EXPECT_EQ(O[60], 1); // lanes 0..3 stored in bounds before lane 4 faulted
}

TEST_P(EmuArch, PrivateMemory) {
  const int N = 100;
  std::vector<int> Idx(N);
  for (int i = 0; i < N; ++i) Idx[i] = (i * 7) % 40;
  uint64_t idx = upload(*Dev, Idx), out = upload(*Dev, std::vector<int>(N, 0));
  ASSERT_OK(launch("private_array", {1}, {N}, {&idx, &out}));
  auto O = download<int>(*Dev, out, N);
  for (int i = 0; i < N; ++i) {
    int k = Idx[i] & 31;
    ASSERT_EQ(O[i], k * k + i) << i;
  }
}

TEST_P(EmuArch, HiddenArgumentsAndDispatchPacket) {
  uint64_t out = upload(*Dev, std::vector<uint32_t>(11, 0));
  ASSERT_OK(launch("hidden_args", {3, 2, 1}, {8, 4, 2}, {&out}, 128));
  EXPECT_EQ(download<uint32_t>(*Dev, out, 11), (std::vector<uint32_t>{3, 2, 1, 8, 4, 2, 3, 128, 24, 8, 2}));
}

TEST_P(EmuArch, TwoDimensionalGrid) {
  const uint32_t W = 24, H = 10;
  uint64_t out = upload(*Dev, std::vector<uint32_t>(W * H, 0));
  uint32_t w = W;
  ASSERT_OK(launch("grid2d", {3, 5}, {8, 2}, {&out, &w}));
  auto O = download<uint32_t>(*Dev, out, W * H);
  for (uint32_t y = 0; y < H; ++y)
    for (uint32_t x = 0; x < W; ++x) ASSERT_EQ(O[y * W + x], (y << 16) | x);
}

TEST_P(EmuArch, TrapIsAnError) {
  uint64_t out = upload(*Dev, std::vector<int>(64, 0));
  llvm::Error E = launch("do_trap", {1}, {64}, {&out});
  ASSERT_TRUE(bool(E));
  std::string S = llvm::toString(std::move(E));
  EXPECT_NE(S.find("trap"), std::string::npos) << S;
  EXPECT_NE(S.find("lane 3"), std::string::npos) << S;
}

INSTANTIATE_TEST_SUITE_P(Targets, EmuArch, ::testing::Values(Arch{"gfx1100", 32}, Arch{"gfx90a", 64}),
                         [](const auto &I) { return std::string(I.param.cpu); });

// ---- hand-written IR ----------------------------------------------------------------------------
class EmuIR : public ::testing::Test {
protected:
  void SetUp() override {
    Dev = makeDevice();
    ASSERT_TRUE(Dev);
    auto M = loadFile(*Dev, srcPath("misc.ll"));
    ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
    Mod = *M;
  }
  std::unique_ptr<Device> Dev;
  emu::Module *Mod = nullptr;
};

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

TEST_F(EmuIR, RecursionIndirectCallsSwitchVectors) {
  const int N = 64;
  uint64_t out = upload(*Dev, std::vector<int>(2 * N, 0));
  LaunchConfig C;
  C.block = {N};
  void *Args[] = {&out};
  ASSERT_OK(Dev->launch(*Mod, "recurse", C, Args));
  auto O = download<int>(*Dev, out, 2 * N);
  const int K[4] = {100, 200, 300, 300};
  for (int i = 0; i < N; ++i) {
    EXPECT_EQ(O[2 * i], fib(i & 15) + K[i % 4]) << i;
    EXPECT_EQ(O[2 * i + 1], (i & 1) ? 2 * i : i * i) << i;
  }
}

TEST_F(EmuIR, AllOnesConstants) {
  // regression: the constant pool once lost i64 -1 / -2 (hash-map sentinels)
  uint64_t out = upload(*Dev, std::vector<uint64_t>(3, 0));
  uint64_t x = 1000;
  LaunchConfig C;
  void *Args[] = {&out, &x};
  ASSERT_OK(Dev->launch(*Mod, "consts", C, Args));
  EXPECT_EQ(download<uint64_t>(*Dev, out, 3), (std::vector<uint64_t>{999, 998, ~uint64_t(1000)}));
}

TEST_F(EmuIR, ConstrainedRoundingModes) {
  uint64_t out = upload(*Dev, std::vector<uint32_t>(4, 0));
  LaunchConfig C;
  void *Args[] = {&out};
  ASSERT_OK(Dev->launch(*Mod, "rounding", C, Args));
  // 1 + 2^-24 is halfway between 1 and 1 + 2^-23
  EXPECT_EQ(download<uint32_t>(*Dev, out, 4),
            (std::vector<uint32_t>{0x3f800001u, 0x3f800000u, 0x3f800000u, 0xbf800000u}));
}

TEST_F(EmuIR, FlatAddressesIntoLds) {
  const int N = 64;
  uint64_t out = upload(*Dev, std::vector<int>(N, 0));
  LaunchConfig C;
  C.block = {N};
  void *Args[] = {&out};
  ASSERT_OK(Dev->launch(*Mod, "flat_lds", C, Args));
  auto O = download<int>(*Dev, out, N);
  for (int i = 0; i < N; ++i) EXPECT_EQ(O[i], (i ^ 1) + 1) << i;
}

TEST_F(EmuIR, PadWarpPolicyLaunch) {
  auto K = Mod->kernel("pad_ids");
  ASSERT_TRUE(bool(K));
  EXPECT_EQ(K->warpPolicy, "pad");
  EXPECT_EQ(K->waveSize, 64u);
  EXPECT_EQ(K->argSizes.size(), 1u); // the block-dim parameter is the launcher's
  const int G = 3, T = 40;
  uint64_t out = upload(*Dev, std::vector<int>(G * T, 0));
  LaunchConfig C;
  C.grid = {G};
  C.block = {T};
  void *Args[] = {&out};
  ASSERT_OK(Dev->launch(*Mod, "pad_ids", C, Args));
  auto O = download<int>(*Dev, out, G * T);
  for (int i = 0; i < G * T; ++i) EXPECT_EQ(O[i], i % T + 1000) << i;
}

TEST_F(EmuIR, ByrefAggregateArgument) {
  struct P {
    int32_t a;
    float f;
    int64_t b;
  } p{40, 1.0f, 2};
  uint64_t out = upload(*Dev, std::vector<int>(1, 0));
  LaunchConfig C;
  void *Args[] = {&out, &p};
  ASSERT_OK(Dev->launch(*Mod, "byref_arg", C, Args));
  EXPECT_EQ(download<int>(*Dev, out, 1)[0], 42);
}

TEST_F(EmuIR, VPrintf) {
  std::string Got;
  DeviceOptions O;
  O.printfSink = [&](llvm::StringRef S) { Got += S.str(); };
  Dev = makeDevice(O);
  auto M = loadFile(*Dev, srcPath("misc.ll"));
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  LaunchConfig C;
  C.block = {32};
  int x = 5;
  void *Args[] = {&x};
  ASSERT_OK(Dev->launch(**M, "vp", C, Args));
  EXPECT_EQ(Got, "v=5 f=2.50 hi\nlane 0: 5 -3 2.500 ff\n");
}

// ---- i128 (kernels/wide.ll) ---------------------------------------------------------------------
TEST(EmuWide, Int128Arithmetic) {
  using U = unsigned __int128;
  using S = __int128;
  auto D = makeDevice();
  ASSERT_TRUE(D);
  auto M = loadFile(*D, srcPath("wide.ll"));
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  const int N = 32;
  std::mt19937_64 R(20261129);
  std::vector<uint64_t> A(N), B(N);
  for (int i = 0; i < N; ++i) { A[i] = R(); B[i] = R(); }
  A[0] = ~0ull; B[0] = ~0ull;            // largest unsigned product
  A[1] = 1ull << 63; B[1] = 1ull << 63;  // INT64_MIN squared
  A[2] = 0; B[2] = 5;
  A[3] = ~0ull; B[3] = 0;                // sum carries into the high half
  uint64_t pa = upload(*D, A), pb = upload(*D, B), out = upload(*D, std::vector<uint64_t>(10 * N, 0));
  LaunchConfig C;
  C.block = {N};
  void *Args[] = {&pa, &pb, &out};
  ASSERT_OK(D->launch(**M, "wide", C, Args));
  auto O = download<uint64_t>(*D, out, 10 * N);
  for (int i = 0; i < N; ++i) {
    U za = A[i], zb = B[i];
    S sa = int64_t(A[i]), sb = int64_t(B[i]);
    U pu = za * zb;
    S ps = sa * sb;
    U ab = (za << 64) | zb;
    U sum = ab + ((U(1) << 64) | 1);
    U q = ab / (zb | 1);
    int64_t r = int64_t(int32_t(uint32_t(uint64_t(U(ps % 1000003)))));
    U x = (i & 1) ? (ab ^ pu) : (pu - ab);
    const uint64_t *o = &O[10 * i];
    EXPECT_EQ(o[0], uint64_t(pu >> 64)) << i;
    EXPECT_EQ(o[1], uint64_t(U(ps >> 64))) << i;
    EXPECT_EQ(o[2], uint64_t(sum)) << i;
    EXPECT_EQ(o[3], uint64_t(sum >> 64)) << i;
    EXPECT_EQ(o[4], uint64_t(ps < S(sum))) << i;
    EXPECT_EQ(o[5], uint64_t(q)) << i;
    EXPECT_EQ(o[6], uint64_t(q >> 64)) << i;
    EXPECT_EQ(o[7], uint64_t(r)) << i;
    EXPECT_EQ(o[8], uint64_t(x)) << i;
    EXPECT_EQ(o[9], uint64_t(x >> 64)) << i;
  }
}

TEST(EmuWide, UnsupportedInt128OpIsALoadError) {
  auto D = makeDevice();
  auto M = loadFile(*D, srcPath("wide_unsupported.ll"));
  ASSERT_FALSE(bool(M));
  std::string S = llvm::toString(M.takeError());
  EXPECT_NE(S.find("unsupported i128 operation"), std::string::npos) << S;
  EXPECT_NE(S.find("uitofp i128"), std::string::npos) << S;
}

TEST(EmuWide, WiderThan128IsALoadError) {
  auto D = makeDevice();
  auto M = loadFile(*D, srcPath("wide_i256.ll"));
  ASSERT_FALSE(bool(M));
  std::string S = llvm::toString(M.takeError());
  EXPECT_NE(S.find("unsupported type 'i256'"), std::string::npos) << S;
}

// ---- odd-width integers (kernels/odd.ll, OddInts.cpp) -----------------------------------------
namespace {
int64_t sx(uint64_t v, unsigned n) { return int64_t(v << (64 - n)) >> (64 - n); }
uint64_t mk(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }
} // namespace

TEST(EmuOdd, OddWidthIntegers) {
  auto D = makeDevice();
  ASSERT_TRUE(D);
  auto M = loadFile(*D, srcPath("odd.ll"));
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  const int N = 32;
  std::mt19937_64 R(20261201);
  std::vector<uint64_t> A(N), B(N);
  for (int i = 0; i < N; ++i) { A[i] = R(); B[i] = R(); }
  A[0] = 0xffffffffffffffffull; B[0] = 0;               // all four halves > 3e4; b = 0
  A[1] = 0x0000000100007531ull; B[1] = 0xffffffull;     // one half > 3e4 (0x7531 = 30001); b24 = -1
  A[2] = 0x800000ull; B[2] = 0xffffffffffffffffull;     // i24 INT_MIN / -1
  A[3] = 0; B[3] = 0x1f;                                // ashr by 31
  uint64_t pa = upload(*D, A), pb = upload(*D, B), out = upload(*D, std::vector<uint64_t>(12 * N, 0)),
           scratch = upload(*D, std::vector<uint32_t>(N, 0));
  LaunchConfig C;
  C.block = {N};
  void *Args[] = {&pa, &pb, &out, &scratch};
  ASSERT_OK(D->launch(**M, "odd", C, Args));
  auto O = download<uint64_t>(*D, out, 12 * N);
  for (int i = 0; i < N; ++i) {
    uint64_t a = A[i], b = B[i];
    const uint64_t *o = &O[12 * i];
    unsigned m = 0;
    for (int k = 0; k < 4; ++k) m |= (double((a >> (16 * k)) & 0xffff) > 3.0e4 ? 1u : 0u) << k;
    EXPECT_EQ(o[0], m | uint64_t(m != 0) << 8 | uint64_t(m == 15) << 9 | uint64_t(__builtin_popcount(m)) << 12) << i;
    unsigned mi = m ^ 5;
    uint64_t sel = 0;
    for (int k = 0; k < 4; ++k) sel |= ((mi >> k) & 1 ? uint64_t(1) << k : 0) << (8 * k);
    EXPECT_EQ(o[1], sel) << i;
    uint64_t a24 = a & mk(24), b24 = b & mk(24), q24 = (a24 * b24 + 0xfffff) & mk(24);
    EXPECT_EQ(o[2], q24) << i;
    int64_t sa = sx(a24, 24), sb = sx(b24 | 1, 24);
    int64_t dq = (sb == -1) ? sx(uint64_t(-sa) & mk(24), 24) : sa / sb;
    int64_t dr = (sb == -1) ? 0 : sa % sb;
    EXPECT_EQ(int64_t(o[3]), dq) << i;
    EXPECT_EQ(int64_t(o[4]), dr) << i;
    uint64_t a48 = a & mk(48), b48 = b & mk(48);
    EXPECT_EQ(o[5], uint64_t(sx(a48, 48) >> (b48 & 31)) & mk(48)) << i;
    EXPECT_EQ(o[6], uint64_t(sx(a48, 48) < sx(b48, 48)) | uint64_t(a48 < b48) << 1) << i;
    uint64_t s21 = 0;
    for (int k = 0; k < 3; ++k) s21 |= ((((a >> (7 * k)) & 127) + ((b >> (7 * k)) & 127)) & 127) << (7 * k);
    EXPECT_EQ(o[7], s21) << i;
    double f = double(sx(a24, 24));
    uint64_t fb;
    std::memcpy(&fb, &f, 8);
    EXPECT_EQ(o[8], fb) << i;
    EXPECT_EQ(o[9], 0xff000000ull | q24) << i;
    EXPECT_EQ(o[10], q24) << i;
    EXPECT_EQ(int64_t(o[11]), sx(b & 15, 4)) << i;
  }
}

TEST(EmuOdd, UnmodelledIntrinsicIsALoadError) {
  auto D = makeDevice();
  auto M = loadFile(*D, srcPath("odd_unsupported.ll"));
  ASSERT_FALSE(bool(M));
  std::string S = llvm::toString(M.takeError());
  EXPECT_NE(S.find("intrinsic on an odd-width integer type is not supported"), std::string::npos) << S;
  EXPECT_NE(S.find("llvm.ctlz.i4"), std::string::npos) << S;
}

// ---- permlane16/x16, ds.swizzle (kernels/xlane.ll, wave32) ---------------------------------------
TEST(EmuXlane, PermlaneAndSwizzle) {
  auto D = makeDevice();
  ASSERT_TRUE(D);
  auto M = loadFile(*D, srcPath("xlane.ll"));
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  const int N = 32;
  uint32_t s1 = 0x3a0f5c71u, s2 = 0x8e2d46b9u;
  uint64_t out = upload(*D, std::vector<uint32_t>(4 * N, 0));
  LaunchConfig C;
  C.block = {N};
  void *Args[] = {&out, &s1, &s2};
  ASSERT_OK(D->launch(**M, "xlane", C, Args));
  auto O = download<uint32_t>(*D, out, 4 * N);
  auto val = [](unsigned l) { return uint32_t(l * 7 + 100); };
  uint64_t sel = uint64_t(s1) | (uint64_t(s2) << 32);
  for (unsigned l = 0; l < N; ++l) {
    unsigned nib = unsigned((sel >> (4 * (l % 16))) & 15);
    EXPECT_EQ(O[4 * l + 0], val((l / 16) * 16 + nib)) << l;
    EXPECT_EQ(O[4 * l + 1], val(((l / 16) ^ 1) * 16 + nib)) << l;
    EXPECT_EQ(O[4 * l + 2], val(((l & 0x1c) | 1) ^ 2)) << l;
    const unsigned quad[4] = {2, 0, 3, 1};
    EXPECT_EQ(O[4 * l + 3], val((l & ~3u) | quad[l & 3])) << l;
  }
}

TEST(EmuXlane, PermlaneFromInactiveLaneFaults) {
  auto D = makeDevice();
  ASSERT_TRUE(D);
  auto M = loadFile(*D, srcPath("xlane.ll"));
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  uint64_t out = upload(*D, std::vector<uint32_t>(32, 0));
  LaunchConfig C;
  C.block = {32};
  void *Args[] = {&out};
  llvm::Error E = D->launch(**M, "xlane_inactive", C, Args);
  ASSERT_TRUE(bool(E));
  std::string S = llvm::toString(std::move(E));
  EXPECT_NE(S.find("permlane16 reads inactive lane 15 without fetch-inactive"), std::string::npos) << S;
}

// ---- signed zeros (kernels/signed_zero.ll) --------------------------------------------------------
TEST(EmuFP, NegativeZeroIsKept) {
  auto D = makeDevice();
  ASSERT_TRUE(D);
  auto M = loadFile(*D, srcPath("signed_zero.ll"));
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  uint64_t out = upload(*D, std::vector<uint64_t>(9, 0x1234));
  volatile double a = 0.0, b = -2.5;
  double av = a, bv = b;
  LaunchConfig C;
  void *Args[] = {&out, &av, &bv};
  ASSERT_OK(D->launch(**M, "szero", C, Args));
  auto O = download<uint64_t>(*D, out, 9);
  auto bits = [](double d) { return std::bit_cast<uint64_t>(d); };
  double m = a * b;
  std::vector<uint64_t> Want = {bits(m), bits(-a), bits(-0.0), bits(std::copysign(a, b)), bits(m + -a),
                                bits(m) /* RTZ of an exact product */, bits(double(float(m))),
                                bits(std::fma(a, b, -m)), bits(m - a)};
  EXPECT_EQ(O, Want);
  EXPECT_EQ(O[0], 0x8000000000000000ull); // the host agrees the product is -0
}

TEST(EmuLoad, UnknownIntrinsicIsALoadError) {
  auto D = makeDevice();
  auto M = loadFile(*D, srcPath("unknown_intrinsic.ll"));
  ASSERT_FALSE(bool(M));
  std::string S = llvm::toString(M.takeError());
  EXPECT_NE(S.find("unknown intrinsic 'llvm.amdgcn.mov.dpp"), std::string::npos) << S;
  EXPECT_NE(S.find("function 'k'"), std::string::npos) << S;
}

TEST(EmuLoad, UndefinedFunctionIsALoadError) {
  auto D = makeDevice();
  auto M = loadFile(*D, srcPath("undefined_function.ll"));
  ASSERT_FALSE(bool(M));
  std::string S = llvm::toString(M.takeError());
  EXPECT_NE(S.find("call to undefined function 'mystery'"), std::string::npos) << S;
}

TEST(EmuMemory, HostApiBoundsChecks) {
  auto D = makeDevice();
  auto A = D->malloc(100);
  ASSERT_TRUE(bool(A));
  std::vector<char> Buf(200);
  EXPECT_FALSE(bool(D->copyToDevice(*A, Buf.data(), 100)));
  llvm::Error E = D->copyToDevice(*A, Buf.data(), 101);
  EXPECT_TRUE(bool(E));
  llvm::consumeError(std::move(E));
  EXPECT_FALSE(bool(D->free(*A)));
  llvm::Error E2 = D->free(*A);
  EXPECT_TRUE(bool(E2));
  llvm::consumeError(std::move(E2));
}

// Freeing an allocation must not touch its neighbours. Allocations are
// 256-byte granular with a 256-byte red zone, so several share a host page;
// releasing a freed range's pages to the OS must stop at whole pages (the
// kernel rounds a madvise(MADV_DONTNEED) length up to the page size, which
// zeroed the live allocations after a page-aligned freed one: CUB's
// temp-storage cudaFree wiped the input of the next DeviceScan/Histogram).
TEST(EmuMemory, FreeKeepsNeighbours) {
  auto D = makeDevice();
  constexpr unsigned N = 64;  // 64 x 512-byte strides span several host pages
  std::vector<uint64_t> Addr(N);
  for (unsigned i = 0; i < N; ++i) {
    std::vector<uint32_t> V(25 + i % 7, 0xA5000000u + i);  // 100..124 bytes
    Addr[i] = upload(*D, V);
    ASSERT_NE(Addr[i], 0u);
  }
  for (unsigned i = 0; i < N; i += 2) ASSERT_OK(D->free(Addr[i]));
  for (unsigned i = 1; i < N; i += 2) {
    std::vector<uint32_t> Got = download<uint32_t>(*D, Addr[i], 25 + i % 7);
    for (uint32_t W : Got) ASSERT_EQ(W, 0xA5000000u + i) << "allocation " << i << " at 0x" << std::hex << Addr[i];
  }
  // A large allocation spanning whole pages, freed and reused, reads as zero.
  std::vector<uint32_t> Big(5000, 7u);
  uint64_t B = upload(*D, Big);
  ASSERT_OK(D->free(B));
  auto B2 = D->malloc(Big.size() * 4);
  ASSERT_TRUE(bool(B2));
  std::vector<uint32_t> Z = download<uint32_t>(*D, *B2, Big.size());
  EXPECT_EQ(std::count(Z.begin(), Z.end(), 0u), long(Z.size()));
}

} // namespace

// ---- memory seen across workgroups (kernels/concurrency.ll) ---------------------------------------
// A vector global access is one instruction per lane: another workgroup
// (on another host thread, or in the next time slice of the same thread)
// must never see half of a 16- or 8-byte vector store. Split element
// accesses made CUB's decoupled look-back read a tile status with another
// tile's value (thrust reduce_by_key / copy_if failing intermittently).
struct PublishCase {
  const char *kernel;
  unsigned threads, slice;
  bool wide; // <2 x i64> (16 bytes) or <2 x i32> (8 bytes)
  unsigned resident; // workgroups per host thread: 1 puts writer and reader on different threads
};
class EmuPublish : public ::testing::TestWithParam<PublishCase> {};
TEST_P(EmuPublish, VectorStoresAreNotTorn) {
  const PublishCase &P = GetParam();
  DeviceOptions O;
  O.sliceInstructions = P.slice;
  O.threads = P.threads; // (makeDevice forces 2 threads)
  O.residentPerThread = P.resident;
  auto D = Device::create(O);
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  auto M = loadFile(**D, srcPath("concurrency.ll"));
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  const uint64_t N = 20000;
  uint64_t slot = P.wide ? upload(**D, std::vector<uint64_t>{0, ~0ull})
                         : upload(**D, std::vector<uint32_t>{0, ~0u});
  uint64_t out = upload(**D, std::vector<uint64_t>{7, 0, 0});
  uint32_t n32 = uint32_t(N);
  LaunchConfig C;
  C.grid = {2};
  C.block = {1};
  void *Args[] = {&slot, &out, P.wide ? static_cast<void *>(const_cast<uint64_t *>(&N)) : &n32};
  ASSERT_OK((*D)->launch(**M, P.kernel, C, Args));
  auto R = download<uint64_t>(**D, out, 2);
  EXPECT_EQ(R[0], 0u) << "torn reads out of " << R[1];
  // One host thread time-slices writer and reader (slice of 16 wave
  // instructions): deterministically interleaved. With two threads the OS
  // decides how much they overlap.
  if (P.threads == 1) {
    EXPECT_GT(R[1], 1000u) << "the reader did not run interleaved with the writer";
  }
}
INSTANTIATE_TEST_SUITE_P(Interleavings, EmuPublish,
                         ::testing::Values(PublishCase{"publish", 1, 16, true, 2}, PublishCase{"publish", 2, 16, true, 1},
                                           PublishCase{"publish", 2, 4096, true, 1},
                                           PublishCase{"publish32", 1, 16, false, 2},
                                           PublishCase{"publish32", 2, 16, false, 1}),
                         [](const auto &I) {
                           return std::string(I.param.kernel) + "_t" + std::to_string(I.param.threads) + "_s" +
                                  std::to_string(I.param.slice);
                         });

// ---- packed f16x2/bf16x2 atomics (kernels/concurrency.ll) --------------------------------------
namespace {
uint16_t halfBits(double d) { return std::bit_cast<uint16_t>(_Float16(d)); } // one RNE rounding
double halfVal(uint16_t b) { return double(std::bit_cast<_Float16>(b)); }
double bfVal(uint16_t b) { return double(std::bit_cast<float>(uint32_t(b) << 16)); }
uint16_t bfBits(double d) { // RNE from a value exact in float
  float f = float(d);
  EXPECT_EQ(double(f), d);
  uint32_t u = std::bit_cast<uint32_t>(f);
  u += 0x7fff + ((u >> 16) & 1);
  return uint16_t(u >> 16);
}
} // namespace

TEST(EmuAtomics, PackedHalfAndBfloatAtomicsAreAtomic) {
  auto D = makeDevice();
  ASSERT_TRUE(D);
  auto M = loadFile(*D, srcPath("concurrency.ll"));
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  const unsigned WG = 4, T = 64, Lanes = WG * T; // every partial sum is exact
  // acc: [0] half2 sum, [1] bf16x2 sum, [2] half2 fmin (init +inf), [3] half2 fmax (init -inf)
  std::vector<uint16_t> Acc = {0, 0, 0, 0, 0x7c00, 0x7c00, 0xfc00, 0xfc00};
  uint64_t acc = upload(*D, Acc);
  uint64_t old = upload(*D, std::vector<uint16_t>(Lanes * 4, 0xffff));
  LaunchConfig C;
  C.grid = {WG};
  C.block = {T};
  void *Args[] = {&acc, &old};
  ASSERT_OK(D->launch(**M, "pk_atomics", C, Args));
  auto R = download<uint16_t>(*D, acc, 8);
  EXPECT_EQ(halfVal(R[0]), 0.25 * Lanes);
  EXPECT_EQ(halfVal(R[1]), 1.0 * Lanes);
  EXPECT_EQ(bfVal(R[2]), 1.0 * Lanes);
  EXPECT_EQ(bfVal(R[3]), 4.0 * Lanes);
  EXPECT_EQ(halfVal(R[4]), -100.0);                     // min of gid - 100
  EXPECT_EQ(halfVal(R[5]), -double(Lanes - 1 - 100));  // min of -(gid - 100)
  EXPECT_EQ(halfVal(R[6]), double(Lanes - 1 - 100));
  EXPECT_EQ(halfVal(R[7]), 100.0);
  // The old values returned are exactly the partial sums 0, 1, ..., Lanes-1 steps
  // (each once): no update was lost or applied twice.
  auto O = download<uint16_t>(*D, old, Lanes * 4);
  std::vector<int> SeenH(Lanes, 0), SeenB(Lanes, 0);
  for (unsigned g = 0; g < Lanes; ++g) {
    double h0 = halfVal(O[4 * g]), h1 = halfVal(O[4 * g + 1]);
    double b0 = bfVal(O[4 * g + 2]), b1 = bfVal(O[4 * g + 3]);
    ASSERT_EQ(h1, 4 * h0) << g; // both halves of one word were updated together
    ASSERT_EQ(b1, 4 * b0) << g;
    unsigned kh = unsigned(h0 / 0.25), kb = unsigned(b0);
    ASSERT_LT(kh, Lanes);
    ASSERT_LT(kb, Lanes);
    SeenH[kh]++;
    SeenB[kb]++;
  }
  EXPECT_EQ(SeenH, std::vector<int>(Lanes, 1));
  EXPECT_EQ(SeenB, std::vector<int>(Lanes, 1));
}

TEST(EmuAtomics, PackedAddRoundsToNearestEvenWithoutFlush) {
  auto D = makeDevice();
  ASSERT_TRUE(D);
  auto M = loadFile(*D, srcPath("concurrency.ll"));
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  // half words 0-1, bfloat words 2-3: ties, round-up, denormals, -0 + +0
  std::vector<uint16_t> Acc = {0x3c00, 0x0001, 0x3c00, 0x8001, 0x3f80, 0x3f80, 0x0001, 0x8000};
  std::vector<uint16_t> Val = {0x1000, 0x0001, 0x1200, 0x0001, 0x3b80, 0x3bc0, 0x0001, 0x0000};
  uint64_t acc = upload(*D, Acc), val = upload(*D, Val), old = upload(*D, std::vector<uint16_t>(8, 0xdead));
  LaunchConfig C;
  void *Args[] = {&acc, &val, &old};
  ASSERT_OK(D->launch(**M, "pk_round", C, Args));
  auto R = download<uint16_t>(*D, acc, 8);
  auto O = download<uint16_t>(*D, old, 8);
  EXPECT_EQ(O, Acc);
  std::vector<uint16_t> Want(8);
  for (unsigned i = 0; i < 4; ++i) Want[i] = halfBits(halfVal(Acc[i]) + halfVal(Val[i]));
  for (unsigned i = 4; i < 8; ++i) Want[i] = bfBits(bfVal(Acc[i]) + bfVal(Val[i]));
  EXPECT_EQ(R, Want);
  // the cases the values were chosen for
  EXPECT_EQ(R[0], 0x3c00); // 1 + 2^-11: tie, to even
  EXPECT_EQ(R[1], 0x0002); // denormals are kept
  EXPECT_EQ(R[2], 0x3c01); // rounds up
  EXPECT_EQ(R[3], 0x0000); // -2^-24 + 2^-24 = +0
  EXPECT_EQ(R[4], 0x3f80);
  EXPECT_EQ(R[5], 0x3f81);
  EXPECT_EQ(R[6], 0x0002);
}

// ---- ds_bpermute / ds_permute lane ranges (kernels/bpermute.ll) -------------------------------
// gfx10+ in wave64 executes ds_(b)permute per 32-lane half: the index picks
// a lane of the reading (writing) lane's own half; gfx9 spans all 64 lanes.
TEST(EmuXlane, BpermuteLaneRangeByTarget) {
  auto D = makeDevice();
  ASSERT_TRUE(D);
  auto M = loadFile(*D, srcPath("bpermute.ll"));
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  struct K { const char *name; unsigned W; bool halves; };
  for (K k : {K{"bperm_gfx1100_w64", 64, true}, K{"bperm_gfx90a", 64, false}, K{"bperm_gfx1100_w32", 32, false}}) {
    auto Info = (*M)->kernel(k.name);
    ASSERT_TRUE(bool(Info)) << llvm::toString(Info.takeError());
    EXPECT_EQ(Info->waveSize, k.W) << k.name;
    uint64_t out = upload(*D, std::vector<uint32_t>(2 * 64, 0xdeadbeef));
    LaunchConfig C;
    C.block = {k.W};
    void *Args[] = {&out};
    ASSERT_OK(D->launch(**M, k.name, C, Args));
    auto O = download<uint32_t>(*D, out, 2 * k.W);
    auto val = [](unsigned l) { return 1000u + 3 * l; };
    auto target = [&](unsigned l) {
      unsigned idx = (7 * l + 5) % 64;
      return k.halves ? (l & 32) | (idx & 31) : idx % k.W;
    };
    std::vector<uint32_t> Perm(k.W, 0);
    for (unsigned l = 0; l < k.W; ++l) Perm[target(l)] = val(l); // later lanes win, as the emulator orders them
    for (unsigned l = 0; l < k.W; ++l) {
      EXPECT_EQ(O[2 * l], val(target(l))) << k.name << " bpermute lane " << l;
      EXPECT_EQ(O[2 * l + 1], Perm[l]) << k.name << " permute lane " << l;
    }
  }
}

// ---- denormal modes (kernels/denormal_flush.ll) ----------------------------------------------------
TEST(EmuLoad, FlushingDenormalModeIsALoadError) {
  auto D = makeDevice();
  auto M = loadFile(*D, srcPath("denormal_flush.ll"));
  ASSERT_FALSE(bool(M));
  std::string S = llvm::toString(M.takeError());
  EXPECT_NE(S.find("function 'ftz_mul'"), std::string::npos) << S;
  EXPECT_NE(S.find("\"denormal-fp-math-f32\"=\"preserve-sign,preserve-sign\") is not modelled"), std::string::npos) << S;
  // ieee_mul ("dynamic", the default mode) precedes ftz_mul in the module and was translated
  EXPECT_EQ(S.find("ieee_mul"), std::string::npos) << S;
}

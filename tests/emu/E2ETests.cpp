//===- E2ETests.cpp - nvcc PTX -> ptx2amd -> amdgpu-emu end to end ---------===//
//
// CUDA kernels (cuda/e2e.cu) compiled to PTX by nvcc at build time are
// translated and lowered by ptxjit::lowerPTX for gfx1100 (wave32) and gfx90a
// (wave64 with the pack and the pad warp policy), then run on the emulator
// and checked against host references.
//
//===----------------------------------------------------------------------===//
#include "emu/Emu.h"
#include "ptxjit/Lowering.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <numeric>
#include <random>

using namespace emu;

namespace {

struct Target {
  const char *arch;
  amdgpulower::WarpPolicy policy;
  const char *name;
  unsigned wave;
};

#define ASSERT_OK(X)                                                                               \
  do {                                                                                             \
    llvm::Error E_ = (X);                                                                          \
    ASSERT_FALSE(bool(E_)) << llvm::toString(std::move(E_));                                       \
  } while (0)

class E2E : public ::testing::TestWithParam<Target> {
protected:
  void SetUp() override { load("e2e.ptx"); }
  void load(const std::string &File) {
    DeviceOptions O;
    O.threads = 2;
    O.printfSink = [this](llvm::StringRef S) { Printed += S.str(); };
    auto D = Device::create(O);
    ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
    Dev = std::move(*D);
    auto B = llvm::MemoryBuffer::getFile(std::string(EMU_PTX_DIR) + "/" + File);
    ASSERT_TRUE(bool(B));
    auto Ctx = std::make_unique<llvm::LLVMContext>();
    amdgpulower::LowerOptions LO;
    LO.arch = GetParam().arch;
    LO.defaultPolicy = GetParam().policy;
    std::vector<amdgpulower::Diagnostic> Diags;
    auto M = ptxjit::lowerPTX((*B)->getBuffer(), File, *Ctx, LO, Diags);
    ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
    auto Mod_ = Dev->loadModule(std::move(*M), std::move(Ctx));
    ASSERT_TRUE(bool(Mod_)) << llvm::toString(Mod_.takeError());
    Mod = *Mod_;
  }
  template <class T> uint64_t up(const std::vector<T> &V) {
    auto A = Dev->malloc(V.size() * sizeof(T));
    EXPECT_TRUE(bool(A));
    EXPECT_FALSE(bool(Dev->copyToDevice(*A, V.data(), V.size() * sizeof(T))));
    return *A;
  }
  template <class T> std::vector<T> down(uint64_t A, size_t N) {
    std::vector<T> V(N);
    EXPECT_FALSE(bool(Dev->copyFromDevice(V.data(), A, N * sizeof(T))));
    return V;
  }
  llvm::Error launch(const char *K, Dim3 G, Dim3 B, std::vector<void *> Args) {
    LaunchConfig C;
    C.grid = G;
    C.block = B;
    return Dev->launch(*Mod, K, C, Args.data());
  }
  std::string Printed;
  std::unique_ptr<Device> Dev;
  emu::Module *Mod = nullptr;
};

TEST_P(E2E, KernelMetadata) {
  auto K = Mod->kernel("vadd");
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  EXPECT_EQ(K->waveSize, GetParam().wave);
  EXPECT_EQ(K->argSizes, (std::vector<uint32_t>{8, 8, 8, 4}));
}

TEST_P(E2E, VectorAdd) {
  const int N = 1000;
  std::vector<float> A(N), B(N);
  for (int i = 0; i < N; ++i) { A[i] = i * 0.25f; B[i] = 3.0f - i; }
  uint64_t a = up(A), b = up(B), c = up(std::vector<float>(N, 0));
  int n = N;
  ASSERT_OK(launch("vadd", {8}, {128}, {&a, &b, &c, &n}));
  auto C = down<float>(c, N);
  for (int i = 0; i < N; ++i) ASSERT_EQ(C[i], A[i] + B[i]) << i;
}

TEST_P(E2E, BlockReduceSharedMemorySyncthreads) {
  const int N = 3000;
  std::vector<int> In(N);
  std::mt19937 R(1);
  for (auto &x : In) x = int(R() % 2001) - 1000;
  uint64_t in = up(In), out = up(std::vector<int>{0});
  int n = N;
  ASSERT_OK(launch("block_reduce", {12}, {256}, {&in, &out, &n}));
  EXPECT_EQ(down<int>(out, 1)[0], std::accumulate(In.begin(), In.end(), 0));
}

TEST_P(E2E, WarpShuffleBallot) {
  const int G = 2, T = 96, N = G * T, NW = N / 32;
  std::vector<int> In(N);
  std::mt19937 R(2);
  for (auto &x : In) x = int(R() % 100);
  uint64_t in = up(In), sums = up(std::vector<int>(NW, 0)), bal = up(std::vector<unsigned>(NW, 0)),
           lanes = up(std::vector<int>(N, 0));
  ASSERT_OK(launch("warp_ops", {G}, {T}, {&in, &sums, &bal, &lanes}));
  auto S = down<int>(sums, NW);
  auto B = down<unsigned>(bal, NW);
  auto L = down<int>(lanes, N);
  for (int w = 0; w < NW; ++w) {
    int s = 0;
    unsigned b = 0;
    for (int l = 0; l < 32; ++l) { s += In[w * 32 + l]; b |= unsigned(In[w * 32 + l] & 1) << l; }
    EXPECT_EQ(S[w], s) << "warp " << w;
    EXPECT_EQ(B[w], b) << "warp " << w;
  }
  for (int i = 0; i < N; ++i) ASSERT_EQ(L[i], (i & ~31) + 31 - (i & 31)) << i;
}

TEST_P(E2E, Transpose2DBlocks) {
  const int W = 40, H = 24;
  std::vector<float> In(W * H);
  for (int i = 0; i < W * H; ++i) In[i] = float(i);
  uint64_t in = up(In), out = up(std::vector<float>(W * H, -1));
  int w = W, h = H;
  ASSERT_OK(launch("transpose2d", {3, 2}, {16, 16}, {&in, &out, &w, &h}));
  auto O = down<float>(out, W * H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) ASSERT_EQ(O[x * H + y], In[y * W + x]) << x << "," << y;
}

TEST_P(E2E, DivergentLoops) {
  const int N = 300;
  uint64_t out = up(std::vector<int>(N, 0));
  int n = N;
  ASSERT_OK(launch("divergent", {3}, {128}, {&out, &n}));
  auto O = down<int>(out, N);
  for (int i = 0; i < N; ++i) {
    int acc = 0;
    for (int k = 0; k < i % 13; ++k) acc += (k & 1) ? k * i : -k;
    ASSERT_EQ(O[i], acc) << i;
  }
}

TEST_P(E2E, OutOfBoundsFault) {
  uint64_t out = up(std::vector<int>(16, 0));
  long long off = 1ll << 30; // 4 GiB past the buffer: no allocation there
  llvm::Error E = launch("oob", {1}, {32}, {&out, &off});
  ASSERT_TRUE(bool(E));
  std::string S = llvm::toString(std::move(E));
  EXPECT_NE(S.find("invalid global store of 4 bytes"), std::string::npos) << S;
  EXPECT_NE(S.find("kernel 'oob'"), std::string::npos) << S;
}

TEST_P(E2E, PrintfThroughTheDeviceBuffer) {
  int v = 5;
  ASSERT_OK(launch("hello", {1}, {64}, {&v}));
  EXPECT_EQ(Printed, "t0 v=5 f=2.5 ok\nt1 v=5 f=2.5 ok\n");
}

TEST_P(E2E, DeviceMalloc) {
  const int T = 96;
  uint64_t out = up(std::vector<int>(T, 0));
  ASSERT_OK(launch("use_malloc", {1}, {T}, {&out}));
  auto O = down<int>(out, T);
  for (int t = 0; t < T; ++t) ASSERT_EQ(O[t], 40 * t + 6) << t;
}

TEST_P(E2E, ChainedScanSpinsBetweenWorkgroups) {
  const int G = 200, T = 64, N = G * T;
  std::vector<int> In(N);
  std::mt19937 R(5);
  for (auto &x : In) x = int(R() % 20);
  uint64_t in = up(In), out = up(std::vector<int>(N, -1)), flags = up(std::vector<int>(G, 0)),
           agg = up(std::vector<int>(G, 0));
  int n = N;
  ASSERT_OK(launch("chained_scan", {G}, {T}, {&in, &out, &flags, &agg, &n}));
  auto O = down<int>(out, N);
  int run = 0;
  for (int g = 0; g < G; ++g) {
    for (int t = 0; t < T; ++t) ASSERT_EQ(O[g * T + t], run) << g;
    for (int t = 0; t < T; ++t) run += In[g * T + t];
  }
}

class E2ECub : public E2E {
protected:
  void SetUp() override { load("e2e_cub.ptx"); }
};

TEST_P(E2ECub, BlockReduceAndScan) {
  const int G = 5, T = 128, N = G * T;
  std::vector<int> In(N);
  std::mt19937 R(11);
  for (auto &x : In) x = int(R() % 1000) - 300;
  uint64_t in = up(In), sums = up(std::vector<int>(G, 0)), scan = up(std::vector<int>(N, 0));
  ASSERT_OK(launch("cub_block_sum_scan", {G}, {T}, {&in, &sums, &scan}));
  auto S = down<int>(sums, G);
  auto X = down<int>(scan, N);
  for (int g = 0; g < G; ++g) {
    int run = 0;
    for (int t = 0; t < T; ++t) {
      ASSERT_EQ(X[g * T + t], run) << g << "," << t;
      run += In[g * T + t];
    }
    EXPECT_EQ(S[g], run) << g;
  }
}

class E2ECubScan : public E2E {
protected:
  void SetUp() override { load("e2e_cub_scan.ptx"); }
  std::string find(const std::string &Part) {
    for (auto &N : Mod->kernelNames())
      if (N.find(Part) != std::string::npos) return N;
    return "";
  }
};

// CUB's single-pass scan: every tile waits for its predecessors' published
// aggregates (decoupled look-back), so this only finishes with forward
// progress between workgroups. 100k elements.
TEST_P(E2ECubScan, DecoupledLookBackInclusiveSum) {
  std::string InitK = find("DeviceScanInitKernel"), ScanK = find("DeviceScanKernel");
  ASSERT_FALSE(InitK.empty());
  ASSERT_FALSE(ScanK.empty());
  const int N = 100000, TileItems = 128 * 15; // sm_75 policy: 128 threads x 15 items
  int Tiles = (N + TileItems - 1) / TileItems;
  std::vector<int> In(N);
  std::mt19937 R(9);
  for (auto &x : In) x = int(R() % 100) - 40;
  uint64_t in = up(In), out = up(std::vector<int>(N, 0)), desc = up(std::vector<uint64_t>(Tiles + 32, 0));
  {
    LaunchConfig C;
    C.grid = {uint32_t((Tiles + 127) / 128)};
    C.block = {128};
    std::vector<void *> A = {&desc, &Tiles};
    ASSERT_OK(Dev->launch(*Mod, InitK, C, A.data()));
  }
  uint32_t Start = 0, Num = N;
  uint64_t Op = 0, Init = 0;
  LaunchConfig C;
  C.grid = {uint32_t(Tiles)};
  C.block = {128};
  std::vector<void *> A = {&in, &out, &desc, &Start, &Op, &Init, &Num};
  ASSERT_OK(Dev->launch(*Mod, ScanK, C, A.data()));
  auto O = down<int>(out, N);
  int run = 0;
  for (int i = 0; i < N; ++i) {
    run += In[i];
    ASSERT_EQ(O[i], run) << i;
  }
}

class E2EAssert : public E2E {
protected:
  void SetUp() override { load("e2e_assert.ptx"); }
};

TEST_P(E2EAssert, AssertIsAnErrorWithCudasMessage) {
  std::vector<int> P(64, 0);
  P[37] = 1;
  uint64_t p = up(P);
  llvm::Error E = launch("check_assert", {1}, {64}, {&p});
  ASSERT_TRUE(bool(E));
  std::string S = llvm::toString(std::move(E));
  EXPECT_NE(S.find("trap"), std::string::npos) << S;
  EXPECT_NE(Printed.find("thread: [37,0,0] Assertion `p[threadIdx.x] == 0` failed."), std::string::npos) << Printed;
}

TEST_P(E2E, CooperativeGridSync) {
  const int G = 6, T = 64, N = G * T;
  uint64_t data = up(std::vector<int>(N, 0)), out = up(std::vector<int>(N, 0));
  int n = N;
  LaunchConfig C;
  C.grid = {G};
  C.block = {T};
  C.cooperative = true;
  std::vector<void *> Args = {&data, &out, &n};
  ASSERT_OK(Dev->launch(*Mod, "grid_sync", C, Args.data()));
  auto O = down<int>(out, N);
  for (int i = 0; i < N; ++i) ASSERT_EQ(O[i], ((i + 1) % N) * 3 + ((i + N - 1) % N) * 3) << i;
}

const auto AllTargets =
    ::testing::Values(Target{"gfx1100", amdgpulower::WarpPolicy::Pack, "gfx1100", 32},
                      Target{"gfx90a", amdgpulower::WarpPolicy::Pack, "gfx90a_pack", 64},
                      Target{"gfx90a", amdgpulower::WarpPolicy::Pad, "gfx90a_pad", 64});
INSTANTIATE_TEST_SUITE_P(Targets, E2ECubScan, AllTargets, [](const auto &I) { return std::string(I.param.name); });
INSTANTIATE_TEST_SUITE_P(Targets, E2ECub, AllTargets, [](const auto &I) { return std::string(I.param.name); });
INSTANTIATE_TEST_SUITE_P(Targets, E2EAssert, AllTargets, [](const auto &I) { return std::string(I.param.name); });
INSTANTIATE_TEST_SUITE_P(Targets, E2E,
                         ::testing::Values(Target{"gfx1100", amdgpulower::WarpPolicy::Pack, "gfx1100", 32},
                                           Target{"gfx90a", amdgpulower::WarpPolicy::Pack, "gfx90a_pack", 64},
                                           Target{"gfx90a", amdgpulower::WarpPolicy::Pad, "gfx90a_pad", 64}),
                         [](const auto &I) { return std::string(I.param.name); });

} // namespace

//===- RuntimeTests.cpp - the runtime core on the emu backend, HIP failures --===//
//
// Expected values come from CUDA's documented semantics (stream order, the
// legacy default stream, sticky kernel faults, event completion) and from
// the code-object-v5 hidden-argument layout of LLVM's AMDGPUUsage; the
// kernels are hand-written PTX.
//
//===----------------------------------------------------------------------===//
#include "Kernels.h"

#include "runtime/Device.h"
#include "runtime/Graph.h"
#include "runtime/Launch.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

using namespace runtime;

namespace {

// add_const(int *p, int v, int n): p[i] += v for i < n.  oob(int *p): stores far out of bounds.
const char *Ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry add_const(.param .u64 p, .param .u32 v, .param .u32 n)
{
  .reg .pred %pr;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [v];
  ld.param.u32 %r2, [n];
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %tid.x;
  mad.lo.s32 %r6, %r3, %r4, %r5;
  setp.ge.s32 %pr, %r6, %r2;
  @%pr bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.s32 %rd3, %r6, 4;
  add.s64 %rd2, %rd2, %rd3;
  ld.global.u32 %r7, [%rd2];
  add.s32 %r7, %r7, %r1;
  st.global.u32 [%rd2], %r7;
DONE:
  ret;
}
)";

Errc errc(llvm::Error E) { return takeErrc(std::move(E)); }

struct EmuFixture : ::testing::Test {
  std::unique_ptr<Platform> P;
  Context *C = nullptr;
  Module *M = nullptr;
  Function *Add = nullptr;
  void SetUp() override {
    PlatformOptions O;
    O.device = "emu";
    O.arch = "gfx1100";
    auto R = Platform::create(O);
    ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
    P = std::move(*R);
    auto D = P->device(0);
    ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
    C = &(*D)->primaryContext();
    ModuleSource S;
    S.ptx = std::string(Ptx) + kOobEntryPtx;
    auto L = C->loadModule(S);
    ASSERT_TRUE(bool(L)) << llvm::toString(L.takeError());
    M = *L;
    auto F = M->function("add_const");
    ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
    Add = *F;
  }
  llvm::Error add(Stream &S, uint64_t Buf, int V, int N) {
    void *Args[] = {&Buf, &V, &N};
    LaunchConfig LC;
    LC.grid = {uint32_t((N + 63) / 64), 1, 1};
    LC.block = {64, 1, 1};
    return S.launch(*Add, LC, Args);
  }
};

std::atomic<int> Gate{0};
void waitGate() {
  while (!Gate.load()) {}
}

} // namespace

// ---- backend selection and HIP without a GPU -------------------------------------
TEST(HipBackend, LibraryMissingIsBackendUnavailable) {
  HipBackendOptions O;
  O.library = "/nonexistent/libamdhip64.so";
  auto B = createHipBackend(O);
  ASSERT_FALSE(bool(B));
  std::string Msg;
  EXPECT_EQ(takeErrc(B.takeError(), &Msg), Errc::BackendUnavailable);
  EXPECT_NE(Msg.find("cannot load the HIP runtime"), std::string::npos) << Msg;
}

TEST(HipBackend, NoAgentIsNoDevice) {
  struct stat St;
  if (stat("/dev/kfd", &St) == 0) GTEST_SKIP() << "/dev/kfd exists: this machine may have an AMD GPU";
  auto B = createHipBackend({});
  ASSERT_FALSE(bool(B));
  std::string Msg;
  Errc E = takeErrc(B.takeError(), &Msg);
  // Debian 12's libamdhip64 (ROCm 5.2) loads and reports no GPU; without the library it is unavailable.
  EXPECT_TRUE(E == Errc::NoDevice || E == Errc::BackendUnavailable) << errcName(E) << ": " << Msg;
}

// A fake KFD topology (PTX2AMD_KFD_TOPOLOGY): a CPU node and one gfx90a GPU node.
TEST(HipBackend, WrongTargetIsInvalidValueNamingBoth) {
  std::string Root = ::testing::TempDir() + "/kfd-topology-" + std::to_string(getpid());
  for (auto [Node, Version] : {std::pair<const char *, const char *>{"0", "0"}, {"1", "90010"}}) {
    std::string Dir = Root + "/" + Node;
    ASSERT_EQ(system(("mkdir -p '" + Dir + "'").c_str()), 0);
    FILE *F = fopen((Dir + "/properties").c_str(), "w");
    ASSERT_NE(F, nullptr);
    fprintf(F, "cpu_cores_count 0\nsimd_count 440\ngfx_target_version %s\nmax_waves_per_simd 8\n", Version);
    fclose(F);
  }
  setenv("PTX2AMD_KFD_TOPOLOGY", Root.c_str(), 1);
  HipBackendOptions O;
  O.arch = "gfx1100";
  auto B = createHipBackend(O);
  unsetenv("PTX2AMD_KFD_TOPOLOGY");
  ASSERT_FALSE(bool(B));
  std::string Msg;
  Errc E = takeErrc(B.takeError(), &Msg);
  if (E == Errc::BackendUnavailable) GTEST_SKIP() << "no libamdhip64 here: " << Msg;
  EXPECT_EQ(E, Errc::InvalidValue) << Msg;
  EXPECT_NE(Msg.find("the GPU is gfx90a but the requested target is gfx1100"), std::string::npos) << Msg;
}

TEST(Platform, AutoFallsBackToEmuAndHipFailsCleanly) {
  struct stat St;
  if (stat("/dev/kfd", &St) == 0) GTEST_SKIP() << "/dev/kfd exists";
  PlatformOptions O;
  O.device = "auto";
  auto A = Platform::create(O);
  ASSERT_TRUE(bool(A)) << llvm::toString(A.takeError());
  EXPECT_EQ((*A)->backendName(), "emu");
  O.device = "hip";
  auto H = Platform::create(O);
  ASSERT_FALSE(bool(H));
  EXPECT_NE(takeErrc(H.takeError()), Errc::Success);
  O.device = "gpu";
  auto G = Platform::create(O);
  ASSERT_FALSE(bool(G));
  EXPECT_EQ(takeErrc(G.takeError()), Errc::InvalidValue);
  O.device = "emu";
  O.arch = "gfx1234";
  auto X = Platform::create(O);
  ASSERT_FALSE(bool(X));
  EXPECT_EQ(takeErrc(X.takeError()), Errc::InvalidValue);
}

// ---- kernarg builder and launch checks ---------------------------------------------
TEST(Kernarg, ExplicitAtLayoutThenCov5HiddenBlock) {
  KernelProperties K;
  K.name = "k";
  K.args.sizes = {8, 4, 16};
  K.args.offsets = {0, 8, 16};
  K.args.explicitBytes = 32;
  LaunchConfig C;
  C.grid = {3, 2, 1};
  C.block = {128, 2, 1};
  C.dynamicSharedBytes = 512;
  uint64_t A0 = 0x1122334455667788ull;
  uint32_t A1 = 0xdeadbeef;
  uint8_t A2[16];
  for (int I = 0; I < 16; ++I) A2[I] = uint8_t(I);
  void *Args[] = {&A0, &A1, A2};
  auto R = KernargBuilder::fromPointers(K, C, Args);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->hiddenOffset, 32u);
  EXPECT_EQ(R->bytes.size(), 32u + hidden::Bytes);
  EXPECT_EQ(memcmp(R->bytes.data(), &A0, 8), 0);
  EXPECT_EQ(memcmp(R->bytes.data() + 8, &A1, 4), 0);
  EXPECT_EQ(memcmp(R->bytes.data() + 16, A2, 16), 0);
  auto u32 = [&](unsigned Off) { uint32_t V; memcpy(&V, R->bytes.data() + 32 + Off, 4); return V; };
  auto u16 = [&](unsigned Off) { uint16_t V; memcpy(&V, R->bytes.data() + 32 + Off, 2); return V; };
  EXPECT_EQ(u32(hidden::BlockCountX), 3u);
  EXPECT_EQ(u32(hidden::BlockCountY), 2u);
  EXPECT_EQ(u32(hidden::BlockCountZ), 1u);
  EXPECT_EQ(u16(hidden::GroupSizeX), 128u);
  EXPECT_EQ(u16(hidden::GroupSizeY), 2u);
  EXPECT_EQ(u16(hidden::GridDims), 2u);
  EXPECT_EQ(u32(hidden::DynamicLdsSize), 512u);
  Args[1] = nullptr;
  auto Bad = KernargBuilder::fromPointers(K, C, Args);
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(takeErrc(Bad.takeError()), Errc::InvalidValue);
}

TEST(Kernarg, PadFillsBlockDimsAndOneDimensionalGroups) {
  KernelProperties K;
  K.name = "k";
  K.warpPolicy = "pad";
  K.args.sizes = {4};
  K.args.offsets = {0};
  K.args.blockDimOffset = 16;
  K.args.blockDimBytes = 16;
  K.args.explicitBytes = 32;
  LaunchConfig C;
  C.block = {16, 4, 1}; // 64 threads = 2 warps -> 2 waves of 64 lanes
  uint32_t V = 9;
  void *Args[] = {&V};
  auto R = KernargBuilder::fromPointers(K, C, Args);
  ASSERT_TRUE(bool(R));
  uint32_t BD[4];
  memcpy(BD, R->bytes.data() + 16, 16);
  EXPECT_EQ(BD[0], 16u);
  EXPECT_EQ(BD[1], 4u);
  EXPECT_EQ(BD[2], 1u);
  uint16_t GX;
  memcpy(&GX, R->bytes.data() + R->hiddenOffset + hidden::GroupSizeX, 2);
  EXPECT_EQ(GX, 128u);
}

TEST(Launch, ChecksNamePolicySharedMemoryAndCoResidency) {
  DeviceProperties D;
  KernelProperties K;
  K.name = "k";
  K.warpPolicy = "pad";
  K.maxThreadsPerBlock = 512;
  K.staticLdsBytes = 1024;
  LaunchConfig C;
  C.grid = {1, 1, 1};
  C.block = {1024, 1, 1};
  std::string Msg;
  EXPECT_EQ(takeErrc(checkLaunch(D, K, C), &Msg), Errc::InvalidValue);
  EXPECT_NE(Msg.find("'pad'"), std::string::npos) << Msg;
  C.block = {256, 1, 1};
  EXPECT_EQ(errc(checkLaunch(D, K, C)), Errc::Success);
  C.dynamicSharedBytes = 65536;
  EXPECT_EQ(errc(checkLaunch(D, K, C)), Errc::InvalidValue);
  C.dynamicSharedBytes = 0;
  C.block = {0, 1, 1};
  EXPECT_EQ(errc(checkLaunch(D, K, C)), Errc::InvalidValue);
  // Every bad shape is InvalidValue on CUDA 13 (launch_errors_probe), gridDim.x 2^31 included.
  C.block = {256, 1, 1};
  C.grid = {0x80000000u, 1, 1};
  EXPECT_EQ(errc(checkLaunch(D, K, C)), Errc::InvalidValue);
  C.grid = {0x7fffffffu, 1, 1};
  EXPECT_EQ(errc(checkLaunch(D, K, C)), Errc::Success);
  C.grid = {1, 65536, 1};
  EXPECT_EQ(errc(checkLaunch(D, K, C)), Errc::InvalidValue);
  C.grid = {1, 1, 1};
  C.block = {1, 1, 65};
  EXPECT_EQ(errc(checkLaunch(D, K, C)), Errc::InvalidValue);
  // 256 threads, 1 KiB LDS: min(2048/256, 64 KiB/1 KiB, 32) = 8 blocks per CU, 8 CUs.
  C.block = {256, 1, 1};
  C.cooperative = true;
  C.grid = {64, 1, 1};
  EXPECT_EQ(errc(checkLaunch(D, K, C)), Errc::Success);
  C.grid = {65, 1, 1};
  EXPECT_EQ(errc(checkLaunch(D, K, C)), Errc::CooperativeLaunchTooLarge);
  // A backend that cannot size stacks (HIP < 5.3): the code object's private segment bounds the limit.
  C.cooperative = false;
  K.dynamicStack = true;
  K.maxStackBytes = 16416;
  EXPECT_EQ(errc(checkLaunch(D, K, C, 16384)), Errc::Success);
  EXPECT_EQ(takeErrc(checkLaunch(D, K, C, 1 << 20), &Msg), Errc::NotSupported);
  EXPECT_NE(Msg.find("1048576 bytes per thread"), std::string::npos) << Msg;
  K.dynamicStack = false; // a kernel with a fixed frame does not use the limit
  EXPECT_EQ(errc(checkLaunch(D, K, C, 1 << 20)), Errc::Success);
}

TEST(Memory, RegistryFindsContainedRangesOnly) {
  MemoryRegistry R;
  R.insert({0x1000, 0x100, MemoryKind::Device});
  R.insert({0x2000, 0x10, MemoryKind::Pinned});
  EXPECT_TRUE(R.find(0x1000, 0x100).has_value());
  EXPECT_TRUE(R.find(0x10ff).has_value());
  EXPECT_FALSE(R.find(0x10ff, 2).has_value());
  EXPECT_TRUE(R.overlaps(0x10ff, 2));
  EXPECT_FALSE(R.find(0x1100).has_value());
  EXPECT_FALSE(R.overlaps(0x1100, 0xf00));
  EXPECT_TRUE(R.overlaps(0x1100, 0xf01));
  EXPECT_EQ(R.find(0x2008)->kind, MemoryKind::Pinned);
  EXPECT_TRUE(R.erase(0x1000).has_value());
  EXPECT_FALSE(R.find(0x1000).has_value());
}

// ---- streams, events, errors on emu -------------------------------------------------
TEST_F(EmuFixture, StreamsRunInOrderAndEventsOrderStreams) {
  const int N = 1000;
  auto Buf = C->allocate(N * 4, MemoryKind::Device);
  ASSERT_TRUE(bool(Buf));
  ASSERT_FALSE(bool(C->memsetSync(*Buf, 0, N * 4)));
  auto S1 = C->createStream(false), S2 = C->createStream(true);
  ASSERT_TRUE(S1 && S2);
  auto E = C->createEvent();
  ASSERT_TRUE(bool(E));
  Gate = 0;
  std::vector<int> Order;
  std::mutex OrderMu;
  auto Mark = [&](int V) { std::lock_guard<std::mutex> G(OrderMu); Order.push_back(V); };
  ASSERT_FALSE(bool((*S1)->hostFunc(waitGate)));
  ASSERT_FALSE(bool(add(**S1, *Buf, 1, N)));
  ASSERT_FALSE(bool((*S1)->hostFunc([&] { Mark(1); })));
  ASSERT_FALSE(bool((*E)->record(**S1)));
  ASSERT_FALSE(bool((*S2)->waitEvent(**E)));
  ASSERT_FALSE(bool(add(**S2, *Buf, 10, N)));
  ASSERT_FALSE(bool((*S2)->hostFunc([&] { Mark(2); })));
  EXPECT_EQ(errc((*S1)->query()), Errc::NotReady);
  EXPECT_EQ(errc((*S2)->query()), Errc::NotReady);
  EXPECT_EQ(errc((*E)->query()), Errc::NotReady);
  Gate = 1;
  ASSERT_FALSE(bool((*S2)->synchronize()));
  EXPECT_EQ(errc((*S1)->query()), Errc::Success);
  EXPECT_EQ(errc((*E)->query()), Errc::Success);
  EXPECT_EQ(Order, (std::vector<int>{1, 2}));
  std::vector<int> H(N);
  ASSERT_FALSE(bool(C->copySync(reinterpret_cast<uint64_t>(H.data()), *Buf, N * 4)));
  for (int I = 0; I < N; ++I) ASSERT_EQ(H[I], 11) << I;
}

TEST_F(EmuFixture, LegacyStreamSynchronisesWithBlockingStreamsOnly) {
  auto Buf = C->allocate(256, MemoryKind::Device), Buf2 = C->allocate(4, MemoryKind::Device);
  ASSERT_TRUE(Buf && Buf2);
  auto Blocking = C->createStream(false), NonBlocking = C->createStream(true);
  ASSERT_TRUE(Blocking && NonBlocking);
  Gate = 0;
  Stream &L = C->legacyStream();
  ASSERT_FALSE(bool(L.hostFunc(waitGate)));
  ASSERT_FALSE(bool((*Blocking)->memset(*Buf, 1, 256)));
  ASSERT_FALSE(bool((*NonBlocking)->memset(*Buf, 2, 128)));
  ASSERT_FALSE(bool((*NonBlocking)->synchronize())); // does not wait for the legacy stream
  EXPECT_EQ(errc((*Blocking)->query()), Errc::NotReady);
  EXPECT_EQ(errc(C->perThreadStream().query()), Errc::Success);
  ASSERT_FALSE(bool(C->perThreadStream().memset(*Buf2, 3, 4)));
  EXPECT_EQ(errc(C->perThreadStream().query()), Errc::NotReady); // per-thread waits for legacy too
  Gate = 1;
  ASSERT_FALSE(bool(C->synchronize()));
  uint8_t H[256];
  ASSERT_FALSE(bool(C->copySync(reinterpret_cast<uint64_t>(H), *Buf, 256)));
  EXPECT_EQ(H[0], 1); // the non-blocking memset (2) ran first, the blocking one after the gate
  EXPECT_EQ(H[255], 1);
  ASSERT_FALSE(bool(C->copySync(reinterpret_cast<uint64_t>(H), *Buf2, 4)));
  EXPECT_EQ(H[3], 3);
  // The legacy stream waits for the blocking stream's earlier work.
  Gate = 0;
  ASSERT_FALSE(bool((*Blocking)->hostFunc(waitGate)));
  ASSERT_FALSE(bool(L.memset(*Buf, 4, 256)));
  EXPECT_EQ(errc(L.query()), Errc::NotReady);
  Gate = 1;
  ASSERT_FALSE(bool(L.synchronize()));
}

TEST_F(EmuFixture, KernelFaultIsStickyArgumentErrorsAreNot) {
  auto Buf = C->allocate(64, MemoryKind::Device);
  ASSERT_TRUE(bool(Buf));
  LaunchConfig Bad;
  Bad.grid = {1, 1, 1};
  Bad.block = {2048, 1, 1};
  uint64_t P = *Buf;
  int V = 1, N = 16;
  void *Args[] = {&P, &V, &N};
  EXPECT_EQ(errc(C->legacyStream().launch(*Add, Bad, Args)), Errc::InvalidValue);
  EXPECT_EQ(C->stickyCode(), Errc::Success);
  EXPECT_EQ(errc(C->copySync(0, *Buf, 4)), Errc::InvalidValue);
  EXPECT_EQ(C->stickyCode(), Errc::Success);
  auto Oob = M->function("oob");
  ASSERT_TRUE(bool(Oob));
  void *OArgs[] = {&P};
  LaunchConfig One;
  One.block = {1, 1, 1};
  ASSERT_FALSE(bool(C->legacyStream().launch(**Oob, One, OArgs))); // asynchronous: accepted
  Errc E = errc(C->synchronize());
  EXPECT_TRUE(isSticky(E)) << errcName(E);
  EXPECT_EQ(errc(add(C->legacyStream(), *Buf, 1, 16)), E); // every later call fails
  ASSERT_FALSE(bool(C->reset()));
  EXPECT_EQ(C->stickyCode(), Errc::Success);
  EXPECT_FALSE(C->memory().find(*Buf).has_value()); // pointers are dead after a reset
  auto Buf2 = C->allocate(64, MemoryKind::Device);
  ASSERT_TRUE(bool(Buf2));
  // The reset unloaded the module, as CUDA destroys a context's modules:
  // stale handles fail cleanly, a reload works.
  EXPECT_TRUE(M->retired());
  EXPECT_EQ(errc(add(C->legacyStream(), *Buf2, 1, 16)), Errc::InvalidResourceHandle);
  EXPECT_EQ(takeErrc(M->function("add_const").takeError()), Errc::InvalidResourceHandle);
  EXPECT_EQ(C->stickyCode(), Errc::Success); // not sticky
  uint64_t Gen = C->generation();
  ModuleSource S;
  S.ptx = std::string(Ptx) + kOobEntryPtx;
  auto L = C->loadModule(S);
  ASSERT_TRUE(bool(L)) << llvm::toString(L.takeError());
  EXPECT_EQ(C->generation(), Gen);
  auto F = (*L)->function("add_const");
  ASSERT_TRUE(bool(F));
  Add = *F;
  ASSERT_FALSE(bool(add(C->legacyStream(), *Buf2, 1, 16)));
  EXPECT_FALSE(bool(C->synchronize()));
}

// A non-sticky failure of queued work (a backend refusing what the launch checks let through)
// is returned by the next synchronize, once -- it used to be logged and dropped, so the failed
// command passed for done (session 8: the emulator refused a kernel's 64 KiB of dynamic LDS
// after checkLaunch accepted it, and cudaDeviceSynchronize said cudaSuccess).
TEST_F(EmuFixture, AsynchronousNonStickyFailureIsReportedOnce) {
  C->recordFailure(Errc::InvalidValue, "a queued command failed");
  EXPECT_EQ(C->stickyCode(), Errc::Success);
  std::string Msg;
  EXPECT_EQ(takeErrc(C->synchronize(), &Msg), Errc::InvalidValue);
  EXPECT_NE(Msg.find("a queued command failed"), std::string::npos) << Msg;
  EXPECT_EQ(errc(C->synchronize()), Errc::Success); // reported once
  C->recordFailure(Errc::NotSupported, "first");
  C->recordFailure(Errc::InvalidValue, "second");
  EXPECT_EQ(errc(C->legacyStream().synchronize()), Errc::NotSupported); // the first one, via a stream
  EXPECT_EQ(errc(C->legacyStream().synchronize()), Errc::Success);
  C->recordFailure(Errc::InvalidValue, "dropped by a reset");
  ASSERT_FALSE(bool(C->reset()));
  EXPECT_EQ(errc(C->synchronize()), Errc::Success);
}

// A device reset gives the retired modules' device memory back, one reset later (session 8;
// before, every reload after a reset took new arena bytes: the 1 MiB global below landed 1 MiB
// further each time). Right after a reset the old variables' addresses stay dead, as on the H200.
TEST_F(EmuFixture, ResetGivesBackTheModulesDeviceMemory) {
  static const char *BigPtx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .global .align 8 .b8 big[1048576];
.visible .entry touch(.param .u64 p) {
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [p];
  mov.u64 %rd2, big;
  st.global.u64 [%rd1], %rd2;
  ret;
}
)";
  ASSERT_FALSE(bool(C->reset())); // the fixture's module goes too, so every round starts alike
  std::vector<uint64_t> At;
  for (int Round = 0; Round < 4; ++Round) {
    ModuleSource S;
    S.ptx = BigPtx;
    auto L = C->loadModule(S);
    ASSERT_TRUE(bool(L)) << llvm::toString(L.takeError());
    auto G = (*L)->global("big");
    ASSERT_TRUE(bool(G)) << llvm::toString(G.takeError());
    At.push_back(G->address);
    ASSERT_FALSE(bool(C->reset()));
    EXPECT_EQ(takeErrc((*L)->global("big").takeError()), Errc::InvalidResourceHandle);
  }
  EXPECT_NE(At[1], At[0]); // the module reloaded after one reset does not reuse the old addresses
  EXPECT_EQ(At[2], At[0]); // but the memory is back after the next
  EXPECT_EQ(At[3], At[1]);
}

TEST_F(EmuFixture, AllocationsNeverOverlapAndImpossibleSizesFail) {
  auto A = C->allocate(uint64_t(0) - 1280, MemoryKind::Device);
  ASSERT_FALSE(bool(A));
  EXPECT_EQ(takeErrc(A.takeError()), Errc::MemoryAllocation);
  auto X = C->allocate(100, MemoryKind::Device), Y = C->allocate(100, MemoryKind::Pinned);
  ASSERT_TRUE(X && Y);
  EXPECT_TRUE(*Y + 100 <= *X || *X + 100 <= *Y);
  // Pinned memory is host memory at the device address and kernels see host writes.
  int *H = reinterpret_cast<int *>(*Y);
  for (int I = 0; I < 25; ++I) H[I] = I;
  ASSERT_FALSE(bool(add(C->legacyStream(), *Y, 5, 25)));
  ASSERT_FALSE(bool(C->synchronize()));
  for (int I = 0; I < 25; ++I) EXPECT_EQ(H[I], I + 5);
  EXPECT_EQ(errc(C->free(*X + 4)), Errc::InvalidValue);
  EXPECT_FALSE(bool(C->free(*X)));
  EXPECT_FALSE(bool(C->free(*Y)));
  EXPECT_EQ(errc(C->free(*X)), Errc::InvalidValue);
}

TEST_F(EmuFixture, EventElapsedTimeNeedsCompletedTimedEvents) {
  auto A = C->createEvent(), B = C->createEvent(), NoTiming = C->createEvent(false);
  ASSERT_TRUE(A && B && NoTiming);
  auto R = Event::elapsed(**A, **B);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(takeErrc(R.takeError()), Errc::InvalidResourceHandle);
  ASSERT_FALSE(bool((*A)->record(C->legacyStream())));
  ASSERT_FALSE(bool((*B)->record(C->legacyStream())));
  ASSERT_FALSE(bool((*NoTiming)->record(C->legacyStream())));
  ASSERT_FALSE(bool((*B)->synchronize()));
  auto Ms = Event::elapsed(**A, **B);
  ASSERT_TRUE(bool(Ms));
  EXPECT_GE(*Ms, 0.0f);
  ASSERT_FALSE(bool((*NoTiming)->synchronize()));
  auto NT = Event::elapsed(**A, **NoTiming);
  ASSERT_FALSE(bool(NT));
  EXPECT_EQ(takeErrc(NT.takeError()), Errc::InvalidResourceHandle);
}

// ---- graphs and stream capture (runtime/Graph.h) -------------------------------------
TEST_F(EmuFixture, CapturedWorkRunsOnlyWhenTheGraphIsLaunched) {
  const int N = 256;
  auto Buf = C->allocate(N * 4, MemoryKind::Device);
  ASSERT_TRUE(bool(Buf));
  ASSERT_FALSE(bool(C->memsetSync(*Buf, 0, N * 4)));
  auto S = C->createStream(true);
  ASSERT_TRUE(bool(S));
  ASSERT_FALSE(bool(beginCapture(**S, CaptureMode::Global)));
  ASSERT_FALSE(bool(add(**S, *Buf, 1, N)));
  ASSERT_FALSE(bool((*S)->fill(*Buf, 0x01010101, 4, 0))); // empty: no node
  ASSERT_FALSE(bool(add(**S, *Buf, 2, N)));
  auto G = endCapture(**S);
  ASSERT_TRUE(bool(G)) << llvm::toString(G.takeError());
  EXPECT_EQ((*G)->nodes().size(), 2u);
  EXPECT_EQ((*G)->edges().size(), 1u);
  std::vector<int> H(N, -1);
  ASSERT_FALSE(bool(C->copySync(reinterpret_cast<uint64_t>(H.data()), *Buf, N * 4)));
  EXPECT_EQ(H[0], 0); // nothing ran during the capture
  auto X = graphs().instantiate(**G, 0);
  ASSERT_TRUE(bool(X));
  for (int I = 0; I < 3; ++I) ASSERT_FALSE(bool((*X)->launch(**S)));
  ASSERT_FALSE(bool((*S)->synchronize()));
  ASSERT_FALSE(bool(C->copySync(reinterpret_cast<uint64_t>(H.data()), *Buf, N * 4)));
  for (int I = 0; I < N; ++I) ASSERT_EQ(H[I], 9) << I;
  ASSERT_FALSE(bool(graphs().destroy(*X)));
  ASSERT_FALSE(bool(graphs().destroy(*G)));
  EXPECT_FALSE(graphs().live(*G));
}

TEST_F(EmuFixture, GraphCyclesAndChangedTopologiesAreRefused) {
  Graph *G = graphs().create();
  auto A = G->add(GraphNodeKind::Empty, {});
  ASSERT_TRUE(bool(A));
  auto B = G->add(GraphNodeKind::Empty, {*A});
  ASSERT_TRUE(bool(B));
  EXPECT_EQ(errc(G->addEdge(*A, *B)), Errc::InvalidValue); // exists already
  auto X = graphs().instantiate(*G, 0);
  ASSERT_TRUE(bool(X));
  ASSERT_FALSE(bool(G->addEdge(*B, *A)));
  auto Cyc = graphs().instantiate(*G, 0);
  ASSERT_FALSE(bool(Cyc));
  EXPECT_EQ(errc(Cyc.takeError()), Errc::InvalidValue);
  Graph *H = graphs().create();
  ASSERT_TRUE(bool(H->add(GraphNodeKind::Empty, {})));
  GraphUpdateResult R;
  const GraphNode *Bad = nullptr;
  EXPECT_EQ(errc((*X)->update(*H, R, &Bad)), Errc::GraphExecUpdateFailure);
  EXPECT_EQ(R, GraphUpdateResult::TopologyChanged);
  ASSERT_FALSE(bool(graphs().destroy(*X)));
  ASSERT_FALSE(bool(graphs().destroy(G)));
  ASSERT_FALSE(bool(graphs().destroy(H)));
}

// Conditional nodes without kernels: the condition words hold their defaults (assignDefault),
// so the bodies chosen are known; SWITCH 2 of 3 memset bodies, IF with a false condition runs its
// else body; the executable graph is destroyed before its work ran (the work keeps its copy).
TEST_F(EmuFixture, ConditionalNodesPickTheirBodiesFromTheConditionWord) {
  auto Buf = C->allocate(16, MemoryKind::Device);
  ASSERT_TRUE(bool(Buf));
  ASSERT_FALSE(bool(C->memsetSync(*Buf, 0, 16)));
  Graph *G = graphs().create();
  auto Sw = G->createConditionalHandle(*C, 2, true);
  auto If = G->createConditionalHandle(*C, 0, true);
  ASSERT_TRUE(Sw && If);
  auto N = G->addConditional(*Sw, ConditionalKind::Switch, 3, {});
  ASSERT_TRUE(bool(N)) << llvm::toString(N.takeError());
  ASSERT_EQ((*N)->bodies.size(), 3u);
  for (unsigned I = 0; I < 3; ++I) {
    EXPECT_EQ((*N)->bodies[I]->parent(), *N);
    EXPECT_EQ((*N)->bodyHandles[I], (*N)->bodies[I].get());
    auto M = (*N)->bodies[I]->add(GraphNodeKind::Memset, {});
    ASSERT_TRUE(bool(M));
    (*M)->fill = FillNodeParams{*Buf + I, 0x10u + I, 1, 1, 1, 1};
  }
  auto Ie = G->addConditional(*If, ConditionalKind::If, 2, {*N});
  ASSERT_TRUE(bool(Ie));
  for (unsigned I = 0; I < 2; ++I) {
    auto M = (*Ie)->bodies[I]->add(GraphNodeKind::Memset, {});
    ASSERT_TRUE(bool(M));
    (*M)->fill = FillNodeParams{*Buf + 4 + I, 0x20u + I, 1, 1, 1, 1};
  }
  auto X = graphs().instantiate(*G, 0);
  ASSERT_TRUE(bool(X)) << llvm::toString(X.takeError());
  // Exec-side updates reach body nodes: body 2's memset now writes 0x13.
  GraphNode *Body2 = (*X)->nodeFor((*N)->bodies[2]->nodes()[0].get());
  ASSERT_NE(Body2, nullptr);
  Body2->fill.value = 0x13;
  auto S = C->createStream(true);
  ASSERT_TRUE(bool(S));
  ASSERT_FALSE(bool((*X)->launch(**S)));
  ASSERT_FALSE(bool(graphs().destroy(*X))); // in flight: the queued evaluation keeps the copy
  ASSERT_FALSE(bool((*S)->synchronize()));
  uint8_t H[16];
  ASSERT_FALSE(bool(C->copySync(reinterpret_cast<uint64_t>(H), *Buf, 16)));
  EXPECT_EQ(H[0], 0);
  EXPECT_EQ(H[1], 0);
  EXPECT_EQ(H[2], 0x13); // SWITCH value 2 (the exec-side value)
  EXPECT_EQ(H[4], 0);
  EXPECT_EQ(H[5], 0x21); // IF false: the else body
  // Invalid uses: a handle for two nodes, sizes, kinds, a handle of another graph; a host node in a
  // body fails instantiation; a graph with conditional nodes cannot be a child graph.
  EXPECT_EQ(errc(G->addConditional(*Sw, ConditionalKind::If, 1, {}).takeError()), Errc::InvalidValue);
  auto Free = G->createConditionalHandle(*C, 0, false);
  ASSERT_TRUE(bool(Free));
  EXPECT_EQ(errc(G->addConditional(*Free, ConditionalKind::While, 2, {}).takeError()), Errc::InvalidValue);
  EXPECT_EQ(errc(G->addConditional(*Free, ConditionalKind::If, 3, {}).takeError()), Errc::InvalidValue);
  EXPECT_EQ(errc(G->addConditional(*Free, ConditionalKind::Switch, 0, {}).takeError()), Errc::InvalidValue);
  EXPECT_EQ(errc(G->addConditional(*Free, ConditionalKind(9), 1, {}).takeError()), Errc::InvalidValue);
  Graph *Other = graphs().create();
  EXPECT_EQ(errc(Other->addConditional(*Free, ConditionalKind::If, 1, {}).takeError()), Errc::InvalidValue);
  EXPECT_EQ(errc(Other->addChild(*G, {}).takeError()), Errc::InvalidValue);
  auto Unused = graphs().instantiate(*G, 0); // Free is used by no node yet (the H200: InvalidValue)
  ASSERT_FALSE(bool(Unused));
  EXPECT_EQ(errc(Unused.takeError()), Errc::InvalidValue);
  auto W = G->addConditional(*Free, ConditionalKind::While, 1, {});
  ASSERT_TRUE(bool(W));
  ASSERT_TRUE(bool((*W)->bodies[0]->add(GraphNodeKind::Host, {})));
  int Result = 0;
  auto Bad = graphs().instantiate(*G, 0, &Result);
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(errc(Bad.takeError()), Errc::InvalidValue);
  EXPECT_EQ(Result, 3);
  ASSERT_FALSE(bool(graphs().destroy(Other)));
  ASSERT_FALSE(bool(graphs().destroy(G)));
  ASSERT_FALSE(bool(C->free(*Buf)));
}

TEST_F(EmuFixture, ForbiddenCallsInvalidateTheCapture) {
  auto S = C->createStream(true);
  ASSERT_TRUE(bool(S));
  EXPECT_EQ(errc(endCapture(**S).takeError()), Errc::IllegalState);
  EXPECT_EQ(errc(beginCapture(C->legacyStream(), CaptureMode::Global)), Errc::StreamCaptureUnsupported);
  ASSERT_FALSE(bool(beginCapture(**S, CaptureMode::Global)));
  EXPECT_EQ(errc(beginCapture(**S, CaptureMode::Global)), Errc::IllegalState);
  EXPECT_EQ(errc((*S)->synchronize()), Errc::StreamCaptureUnsupported);
  auto I = captureInfo(**S);
  ASSERT_TRUE(bool(I));
  EXPECT_EQ(I->status, CaptureStatus::Invalidated);
  EXPECT_EQ(errc(endCapture(**S).takeError()), Errc::StreamCaptureInvalidated);
  // Allocation: refused under global mode, allowed under relaxed.
  ASSERT_FALSE(bool(beginCapture(**S, CaptureMode::Global)));
  auto A = C->allocate(64, MemoryKind::Device);
  ASSERT_FALSE(bool(A));
  EXPECT_EQ(errc(A.takeError()), Errc::StreamCaptureUnsupported);
  EXPECT_EQ(errc(endCapture(**S).takeError()), Errc::StreamCaptureInvalidated);
  ASSERT_FALSE(bool(beginCapture(**S, CaptureMode::Relaxed)));
  auto A2 = C->allocate(64, MemoryKind::Device);
  ASSERT_TRUE(bool(A2));
  auto G = endCapture(**S);
  ASSERT_TRUE(bool(G));
  ASSERT_FALSE(bool(graphs().destroy(*G)));
  ASSERT_FALSE(bool(C->free(*A2)));
}

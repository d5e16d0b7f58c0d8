//===- ConcurrencyTests.cpp - launches of different streams overlap -----------===//
//
// CUDA runs kernels of different streams at the same time, so a kernel may
// wait for one launched later in another stream. Here a spinner waits on a
// device flag that a setter, launched after it in a second non-blocking
// stream, sets; it gives up after a %globaltimer deadline (result 2), so a
// runtime that serialises launches fails the test instead of hanging. On
// emu and isa (whose %globaltimer is a per-wave instruction count, so the
// deadline is generous in wall time there); on emu also with a cooperative
// setter (cooperative launches take turns only among themselves). The same
// spinner on the legacy default stream sees a setter of a non-blocking stream:
// CUDA orders a non-blocking stream after nothing of stream 0, which is why
// tests/corpus/profiler_calls.cu (its graph replays on a non-blocking stream
// after direct launches on stream 0) raced on isa until it waited for an
// event of stream 0 (docs/notes/session8-isa.md). With that event, replays of
// a captured graph of two dependent in-place kernels after a slow in-place
// kernel of stream 0 give the in-order result, replayed many times.
// Also: the host aliases of
// __managed__ variables are retired by a device reset (core/HostMirrors),
// checked on a fake device memory.
//
//===----------------------------------------------------------------------===//
#include "HostMirrors.h"

#include "runtime/Device.h"
#include "runtime/Graph.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>

using namespace runtime;

namespace {

// spin(u32 *flag, u32 *result, u64 timeout_ns): *result = 1 once *flag != 0, 2 after the deadline.
// set(u32 *flag): *flag = 1.
const char *SpinPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry spin(.param .u64 flag, .param .u64 result, .param .u64 timeout)
{
  .reg .pred %p<3>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [flag];
  ld.param.u64 %rd2, [result];
  ld.param.u64 %rd3, [timeout];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u64 %rd4, %globaltimer;
LOOP:
  ld.volatile.global.u32 %r1, [%rd1];
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra SEEN;
  mov.u64 %rd5, %globaltimer;
  sub.u64 %rd6, %rd5, %rd4;
  setp.gt.u64 %p2, %rd6, %rd3;
  @%p2 bra GAVEUP;
  bra LOOP;
SEEN:
  mov.u32 %r2, 1;
  st.global.u32 [%rd2], %r2;
  ret;
GAVEUP:
  mov.u32 %r2, 2;
  st.global.u32 [%rd2], %r2;
  ret;
}
.visible .entry set(.param .u64 flag)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [flag];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, 1;
  st.volatile.global.u32 [%rd1], %r1;
  membar.sys;
  ret;
}
)";

// axpb(u32 *y, u32 a, u32 b, u32 n, u64 wait_ns): y[i] = a * y[i] + b (mod 2^32) for i < n, the
// store %globaltimer wait_ns after the load (a slow in-place kernel; 0: no wait).
const char *AxpbPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry axpb(.param .u64 y, .param .u32 a, .param .u32 b, .param .u32 n, .param .u64 wait)
{
  .reg .pred %p<3>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [y];
  ld.param.u32 %r1, [a];
  ld.param.u32 %r2, [b];
  ld.param.u32 %r3, [n];
  ld.param.u64 %rd2, [wait];
  mov.u32 %r4, %ctaid.x;
  mov.u32 %r5, %ntid.x;
  mov.u32 %r6, %tid.x;
  mad.lo.u32 %r7, %r4, %r5, %r6;
  setp.ge.u32 %p1, %r7, %r3;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd1, %rd1;
  mul.wide.u32 %rd3, %r7, 4;
  add.u64 %rd4, %rd1, %rd3;
  ld.global.u32 %r8, [%rd4];
  mov.u64 %rd5, %globaltimer;
WAIT:
  mov.u64 %rd6, %globaltimer;
  sub.u64 %rd7, %rd6, %rd5;
  setp.lt.u64 %p2, %rd7, %rd2;
  @%p2 bra WAIT;
  mad.lo.u32 %r9, %r8, %r1, %r2;
  st.global.u32 [%rd4], %r9;
DONE:
  ret;
}
)";

struct Target {
  const char *device, *arch;
};
class ConcurrentLaunches : public ::testing::TestWithParam<Target> {};

} // namespace

TEST_P(ConcurrentLaunches, ASpinnerSeesTheFlagAKernelInAnotherStreamSets) {
  PlatformOptions O;
  O.device = GetParam().device;
  O.arch = GetParam().arch;
  auto P = Platform::create(O);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  auto D = (*P)->device(0);
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  Context &C = (*D)->primaryContext();
  ModuleSource S;
  S.ptx = SpinPtx;
  auto M = C.loadModule(S);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  auto Spin = (*M)->function("spin");
  ASSERT_TRUE(bool(Spin)) << llvm::toString(Spin.takeError());
  auto Set = (*M)->function("set");
  ASSERT_TRUE(bool(Set)) << llvm::toString(Set.takeError());
  auto Buf = C.allocate(8, MemoryKind::Device);
  ASSERT_TRUE(bool(Buf));
  ASSERT_FALSE(bool(C.memsetSync(*Buf, 0, 8)));
  auto A = C.createStream(true);
  ASSERT_TRUE(bool(A)) << llvm::toString(A.takeError());
  auto B = C.createStream(true);
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  uint64_t Flag = *Buf, Result = *Buf + 4, Timeout = 5'000'000'000ull; // 5 s of %globaltimer
  void *SpinArgs[] = {&Flag, &Result, &Timeout};
  void *SetArgs[] = {&Flag};
  LaunchConfig One;
  ASSERT_FALSE(bool((*A)->launch(**Spin, One, SpinArgs)));
  EXPECT_EQ(takeErrc((*A)->query()), Errc::NotReady); // spinning until the setter runs
  ASSERT_FALSE(bool((*B)->launch(**Set, One, SetArgs)));
  ASSERT_FALSE(bool((*A)->drain()));
  ASSERT_FALSE(bool((*B)->drain()));
  uint32_t Got[2] = {};
  ASSERT_FALSE(bool(C.copySync(reinterpret_cast<uint64_t>(Got), *Buf, 8)));
  EXPECT_EQ(Got[0], 1u);
  EXPECT_EQ(Got[1], 1u) << "the spinner gave up: the launches did not overlap";
  ASSERT_FALSE(bool(C.reset()));
}

TEST_P(ConcurrentLaunches, ANonBlockingStreamDoesNotWaitForTheLegacyStream) {
  PlatformOptions O;
  O.device = GetParam().device;
  O.arch = GetParam().arch;
  auto P = Platform::create(O);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  auto D = (*P)->device(0);
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  Context &C = (*D)->primaryContext();
  ModuleSource S;
  S.ptx = SpinPtx;
  auto M = C.loadModule(S);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  auto Spin = (*M)->function("spin");
  ASSERT_TRUE(bool(Spin)) << llvm::toString(Spin.takeError());
  auto Set = (*M)->function("set");
  ASSERT_TRUE(bool(Set)) << llvm::toString(Set.takeError());
  auto Buf = C.allocate(8, MemoryKind::Device);
  ASSERT_TRUE(bool(Buf));
  ASSERT_FALSE(bool(C.memsetSync(*Buf, 0, 8)));
  auto B = C.createStream(true);
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  uint64_t Flag = *Buf, Result = *Buf + 4, Timeout = 5'000'000'000ull;
  void *SpinArgs[] = {&Flag, &Result, &Timeout};
  void *SetArgs[] = {&Flag};
  LaunchConfig One;
  ASSERT_FALSE(bool(C.legacyStream().launch(**Spin, One, SpinArgs)));
  ASSERT_FALSE(bool((*B)->launch(**Set, One, SetArgs)));
  ASSERT_FALSE(bool(C.legacyStream().drain()));
  ASSERT_FALSE(bool((*B)->drain()));
  uint32_t Got[2] = {};
  ASSERT_FALSE(bool(C.copySync(reinterpret_cast<uint64_t>(Got), *Buf, 8)));
  EXPECT_EQ(Got[1], 1u) << "the spinner gave up: the non-blocking stream waited for the legacy stream";
  ASSERT_FALSE(bool(C.reset()));
}

// profiler_calls' pattern, ordered: stream 0 runs a slow in-place kernel, a
// non-blocking stream waits for an event recorded after it, then replays a
// captured graph of two dependent in-place kernels Replays times. a*y+b does
// not commute with another a'*y+b', so any overlap or reordering of the
// launches changes the result (checked against the host's model, every element).
TEST_P(ConcurrentLaunches, GraphReplaysAfterAnEventOfTheLegacyStreamRunInOrder) {
  PlatformOptions O;
  O.device = GetParam().device;
  O.arch = GetParam().arch;
  auto P = Platform::create(O);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  auto D = (*P)->device(0);
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  Context &C = (*D)->primaryContext();
  ModuleSource S;
  S.ptx = AxpbPtx;
  auto M = C.loadModule(S);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  auto F = (*M)->function("axpb");
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  const uint32_t N = 1024;
  const int Replays = 40;
  std::vector<uint32_t> H(N);
  for (uint32_t I = 0; I < N; ++I) H[I] = I * 2654435761u;
  auto Y = C.allocate(N * 4, MemoryKind::Device);
  ASSERT_TRUE(bool(Y));
  ASSERT_FALSE(bool(C.copySync(*Y, reinterpret_cast<uint64_t>(H.data()), N * 4)));
  auto St = C.createStream(true);
  ASSERT_TRUE(bool(St)) << llvm::toString(St.takeError());
  auto Ev = C.createEvent(false);
  ASSERT_TRUE(bool(Ev)) << llvm::toString(Ev.takeError());
  uint64_t YP = *Y, Slow = 5'000'000, NoWait = 0; // 5 ms of %globaltimer per wave
  uint32_t A0 = 3, B0 = 11, A1 = 5, B1 = 7, A2 = 0xfffffffeu, B2 = 1, Cnt = N;
  void *Args0[] = {&YP, &A0, &B0, &Cnt, &Slow};
  void *Args1[] = {&YP, &A1, &B1, &Cnt, &NoWait};
  void *Args2[] = {&YP, &A2, &B2, &Cnt, &NoWait};
  LaunchConfig L256{{N / 256, 1, 1}, {256, 1, 1}}, L128{{N / 128, 1, 1}, {128, 1, 1}}, L64{{N / 64, 1, 1}, {64, 1, 1}};
  ASSERT_FALSE(bool(C.legacyStream().launch(**F, L256, Args0)));
  ASSERT_FALSE(bool((*Ev)->record(C.legacyStream())));
  ASSERT_FALSE(bool((*St)->waitEvent(**Ev)));
  ASSERT_FALSE(bool(beginCapture(**St, CaptureMode::Global)));
  ASSERT_FALSE(bool((*St)->launch(**F, L128, Args1)));
  ASSERT_FALSE(bool((*St)->launch(**F, L64, Args2)));
  auto G = endCapture(**St);
  ASSERT_TRUE(bool(G)) << llvm::toString(G.takeError());
  auto X = graphs().instantiate(**G, 0);
  ASSERT_TRUE(bool(X)) << llvm::toString(X.takeError());
  for (int R = 0; R < Replays; ++R) ASSERT_FALSE(bool((*X)->launch(**St)));
  ASSERT_FALSE(bool((*St)->synchronize()));
  std::vector<uint32_t> Got(N);
  ASSERT_FALSE(bool(C.copySync(reinterpret_cast<uint64_t>(Got.data()), *Y, N * 4)));
  int Wrong = 0;
  for (uint32_t I = 0; I < N; ++I) {
    uint32_t V = H[I] * A0 + B0;
    for (int R = 0; R < Replays; ++R) V = (V * A1 + B1) * A2 + B2;
    Wrong += Got[I] != V;
  }
  EXPECT_EQ(Wrong, 0) << "elements that differ from in-order execution";
  ASSERT_FALSE(bool(graphs().destroy(*X)));
  ASSERT_FALSE(bool(graphs().destroy(*G)));
  ASSERT_FALSE(bool(C.reset()));
}

// emu: a cooperative launch (the setter) overlaps a normal launch of the same
// module (the spinner) -- only cooperative launches of one module take turns.
TEST(ConcurrentCooperativeLaunch, OverlapsANormalLaunchOfItsModule) {
  PlatformOptions O;
  O.device = "emu";
  O.arch = "gfx1100";
  auto P = Platform::create(O);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  auto D = (*P)->device(0);
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  Context &C = (*D)->primaryContext();
  ModuleSource S;
  S.ptx = SpinPtx;
  auto M = C.loadModule(S);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  auto Spin = (*M)->function("spin");
  ASSERT_TRUE(bool(Spin)) << llvm::toString(Spin.takeError());
  auto Set = (*M)->function("set");
  ASSERT_TRUE(bool(Set)) << llvm::toString(Set.takeError());
  auto Buf = C.allocate(8, MemoryKind::Device);
  ASSERT_TRUE(bool(Buf));
  ASSERT_FALSE(bool(C.memsetSync(*Buf, 0, 8)));
  auto A = C.createStream(true);
  ASSERT_TRUE(bool(A)) << llvm::toString(A.takeError());
  auto B = C.createStream(true);
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  uint64_t Flag = *Buf, Result = *Buf + 4, Timeout = 5'000'000'000ull;
  void *SpinArgs[] = {&Flag, &Result, &Timeout};
  void *SetArgs[] = {&Flag};
  LaunchConfig One, Coop;
  Coop.cooperative = true;
  ASSERT_FALSE(bool((*A)->launch(**Spin, One, SpinArgs)));
  ASSERT_FALSE(bool((*B)->launch(**Set, Coop, SetArgs)));
  ASSERT_FALSE(bool((*A)->drain()));
  ASSERT_FALSE(bool((*B)->drain()));
  uint32_t Got[2] = {};
  ASSERT_FALSE(bool(C.copySync(reinterpret_cast<uint64_t>(Got), *Buf, 8)));
  EXPECT_EQ(Got[1], 1u) << "the spinner gave up: the cooperative launch waited for it";
  ASSERT_FALSE(bool(C.reset()));
}

INSTANTIATE_TEST_SUITE_P(EmuAndIsa, ConcurrentLaunches,
                         ::testing::Values(Target{"emu", "gfx1100"}, Target{"emu", "gfx90a"},
                                           Target{"isa", "gfx1100"}, Target{"isa", "gfx90a"}),
                         [](const auto &I) { return std::string(I.param.device) + "_" + I.param.arch; });

namespace {
// Device memory as a map of byte vectors (one per allocation).
class FakeMemory final : public EmulatorMemory {
public:
  llvm::Expected<uint64_t> malloc(uint64_t Bytes) override {
    uint64_t A = Next;
    Next += (Bytes + 4095) / 4096 * 4096 + 4096;
    Blocks[A].assign(Bytes, 0);
    return A;
  }
  llvm::Error free(uint64_t Addr) override {
    Blocks.erase(Addr);
    return llvm::Error::success();
  }
  llvm::Error copyToDevice(uint64_t Dst, const void *Src, uint64_t Bytes) override {
    ++Writes;
    std::memcpy(at(Dst), Src, Bytes);
    return llvm::Error::success();
  }
  llvm::Error copyFromDevice(void *Dst, uint64_t Src, uint64_t Bytes) override {
    std::memcpy(Dst, at(Src), Bytes);
    return llvm::Error::success();
  }
  llvm::Error memset(uint64_t Dst, int V, uint64_t Bytes) override {
    std::memset(at(Dst), V, Bytes);
    return llvm::Error::success();
  }
  uint8_t *at(uint64_t A) {
    auto It = std::prev(Blocks.upper_bound(A));
    return It->second.data() + (A - It->first);
  }
  std::map<uint64_t, std::vector<uint8_t>> Blocks;
  uint64_t Next = 0x7f0000000000ull;
  unsigned Writes = 0;
};
} // namespace

TEST(HostMirrors, RetiredAliasesStayReadableAndAreNoLongerSynchronised) {
  FakeMemory Mem;
  auto Var = Mem.malloc(4); // a module variable
  ASSERT_TRUE(bool(Var));
  int Init = 5;
  ASSERT_FALSE(bool(Mem.copyToDevice(*Var, &Init, 4)));
  HostMirrors H;
  auto Alias = H.alias(Mem, *Var, 4);
  ASSERT_TRUE(bool(Alias));
  int *Host = reinterpret_cast<int *>(*Alias);
  EXPECT_EQ(*Host, 5);
  *Host = 42;
  ASSERT_FALSE(bool(H.toDevice(Mem)));
  int Dev = 0;
  ASSERT_FALSE(bool(Mem.copyFromDevice(&Dev, *Var, 4)));
  EXPECT_EQ(Dev, 42);
  EXPECT_EQ(H.size(), 1u);
  H.retireAliases(); // a device reset unloaded the module
  EXPECT_EQ(H.size(), 0u);
  EXPECT_EQ(*Host, 42); // still readable
  *Host = 7;
  unsigned Before = Mem.Writes;
  ASSERT_FALSE(bool(H.toDevice(Mem)));
  ASSERT_FALSE(bool(H.fromDevice(Mem)));
  EXPECT_EQ(Mem.Writes, Before);
  ASSERT_FALSE(bool(Mem.copyFromDevice(&Dev, *Var, 4)));
  EXPECT_EQ(Dev, 42);
}

//===- CoreTests.cpp - what the backends share: error table, printf FIFO -------===//
//
// The kind -> code table is checked against CUDA's codes for the same
// situations on the H200 (tests/golden/programs/runtime_errors.stdout: too
// much dynamic shared memory is cudaErrorInvalidValue; CUDA's documented
// codes for an illegal address, an assert, a trap, a block of too many
// threads). The printf FIFO records are built by hand in the layout the
// device library writes (amdgpu-lower/devlib/runtime.c), independently of
// any executor. Typed faults are checked end to end on emu and isa with
// hand-written PTX, and so is isa's freeing of an unloaded module's buffers.
//
//===----------------------------------------------------------------------===//
#include "ErrorTable.h"
#include "Kernels.h"
#include "PrintfFifo.h"

#include "runtime/Device.h"

#include "support/Contract.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>

using namespace runtime;

namespace {

Errc codeOf(llvm::Error E) {
  Errc C = errcFor(E, Errc::Unknown);
  llvm::consumeError(std::move(E));
  return C;
}

// One record in the device library's layout.
void addRecord(std::vector<uint8_t> &Buf, const std::string &Fmt, const std::vector<uint8_t> &Args,
               uint32_t Flags = 0) {
  uint32_t FLen = uint32_t(Fmt.size() + 1), FPad = (FLen + 7) & ~7u;
  uint32_t Rec = 8 + FPad + uint32_t((Args.size() + 7) & ~size_t(7));
  size_t At = Buf.size();
  Buf.resize(At + Rec, 0);
  uint32_t W = FLen | Flags;
  std::memcpy(&Buf[At], &Rec, 4);
  std::memcpy(&Buf[At + 4], &W, 4);
  std::memcpy(&Buf[At + 8], Fmt.c_str(), FLen);
  if (!Args.empty()) std::memcpy(&Buf[At + 8 + FPad], Args.data(), Args.size());
}
std::vector<uint8_t> fifo(const std::vector<uint8_t> &Records, uint64_t Capacity = 4096) {
  std::vector<uint8_t> B(support::printfrec::kHeaderBytes + Capacity, 0);
  uint64_t Used = Records.size();
  std::memcpy(B.data(), &Capacity, 8);
  std::memcpy(B.data() + 8, &Used, 8);
  std::memcpy(B.data() + 16, Records.data(), std::min<size_t>(Records.size(), Capacity));
  return B;
}
template <class T> void put(std::vector<uint8_t> &A, T V) {
  size_t At = (A.size() + sizeof(T) - 1) / sizeof(T) * sizeof(T);
  A.resize(At + sizeof(T));
  std::memcpy(&A[At], &V, sizeof(T));
}

} // namespace

TEST(ErrorTable, FaultsAndLimitsGetCudasCodes) {
  using support::FaultKind;
  using support::Resource;
  auto fault = [](FaultKind K) { return codeOf(support::deviceFault(K, support::noLoc("f"))); };
  auto limit = [](Resource R) { return codeOf(support::resourceLimit(R, support::noLoc("l"))); };
  EXPECT_EQ(fault(FaultKind::MemoryFault), Errc::IllegalAddress);
  EXPECT_EQ(fault(FaultKind::Misaligned), Errc::MisalignedAddress);
  EXPECT_EQ(fault(FaultKind::Trap), Errc::LaunchFailure);
  EXPECT_EQ(fault(FaultKind::Assert), Errc::Assert);
  EXPECT_EQ(fault(FaultKind::Timeout), Errc::LaunchTimeout);
  EXPECT_EQ(fault(FaultKind::IllegalInstruction), Errc::IllegalInstruction);
  EXPECT_EQ(limit(Resource::BlockThreads), Errc::InvalidValue); // CUDA 13: any bad launch shape
  EXPECT_EQ(limit(Resource::SharedMemory), Errc::InvalidValue); // H200: 1 MiB dynamic shared memory
  EXPECT_EQ(limit(Resource::Registers), Errc::LaunchOutOfResources);
  EXPECT_EQ(limit(Resource::CooperativeGrid), Errc::CooperativeLaunchTooLarge);
  EXPECT_EQ(limit(Resource::DeviceMemory), Errc::MemoryAllocation);
  EXPECT_EQ(codeOf(support::unsupported("isa-emu", "s_sendmsg 5", support::noLoc("u"))), Errc::NotSupported);
  EXPECT_EQ(codeOf(llvm::createStringError("foreign")), Errc::Unknown); // the fallback
  EXPECT_EQ(codeOf(makeError(Errc::InvalidSymbol, "x")), Errc::InvalidSymbol);
  for (Errc C : {Errc::IllegalAddress, Errc::MisalignedAddress, Errc::LaunchFailure, Errc::Assert,
                 Errc::LaunchTimeout, Errc::IllegalInstruction})
    EXPECT_TRUE(isSticky(C)) << errcName(C);
  for (Errc C : {Errc::InvalidValue, Errc::CooperativeLaunchTooLarge, Errc::LaunchOutOfResources, Errc::NotSupported})
    EXPECT_FALSE(isSticky(C)) << errcName(C);
}

TEST(ErrorTable, ATrapAfterAnAssertionRecordIsAnAssert) {
  auto trap = [] { return support::deviceFault(support::FaultKind::Trap, support::noLoc("s_trap 2")); };
  EXPECT_EQ(takeErrc(launchError(trap(), "k", true)), Errc::Assert);
  EXPECT_EQ(takeErrc(launchError(trap(), "k", false)), Errc::LaunchFailure);
  EXPECT_EQ(takeErrc(launchError(support::deviceFault(support::FaultKind::MemoryFault, support::noLoc("m")), "k", true)),
            Errc::IllegalAddress);
  std::string Msg;
  takeErrc(launchError(trap(), "kern", false), &Msg);
  EXPECT_EQ(Msg, "kernel 'kern' failed: s_trap 2");
}

TEST(PrintfFifo, DecodesRecordsStringsAndTheAssertionFlag) {
  std::vector<uint8_t> Recs, A1, A2;
  put<int32_t>(A1, -7);
  put<double>(A1, 2.5);
  addRecord(Recs, "a=%d b=%.1f\n", A1);
  put<uint64_t>(A2, 0x1000);
  put<uint32_t>(A2, 42);
  addRecord(Recs, "%s:%u: Assertion failed.\n", A2, support::printfrec::kAssertFlag);
  std::map<uint64_t, std::string> Mem{{0x1000, "file.cu"}};
  PrintfDrain D = decodePrintfFifo(fifo(Recs), [&](uint64_t Addr, std::string &S) {
    auto It = Mem.find(Addr);
    if (It == Mem.end()) return false;
    S = It->second;
    return true;
  });
  EXPECT_EQ(D.text, "a=-7 b=2.5\nfile.cu:42: Assertion failed.\n");
  EXPECT_EQ(D.records, 2u);
  EXPECT_TRUE(D.assertion);
  EXPECT_FALSE(D.truncated);
}

TEST(PrintfFifo, StopsAtAMalformedRecordAndHonoursCapacity) {
  std::vector<uint8_t> Recs;
  addRecord(Recs, "one\n", {});
  size_t Good = Recs.size();
  addRecord(Recs, "two\n", {});
  uint32_t Bad = 4; // shorter than its own header
  std::memcpy(&Recs[Good], &Bad, 4);
  auto None = [](uint64_t, std::string &) { return false; };
  PrintfDrain D = decodePrintfFifo(fifo(Recs), None);
  EXPECT_EQ(D.text, "one\n");
  EXPECT_FALSE(D.assertion);
  EXPECT_TRUE(D.truncated);
  // `used` past the capacity (reservations that did not fit): only the capacity is read.
  std::vector<uint8_t> B = fifo(Recs, Good);
  uint64_t Used = 1 << 20;
  std::memcpy(B.data() + 8, &Used, 8);
  D = decodePrintfFifo(B, None);
  EXPECT_EQ(D.text, "one\n");
  EXPECT_EQ(D.records, 1u);
  EXPECT_TRUE(decodePrintfFifo({}, None).text.empty());
}

namespace {
// trapper: PTX trap (oob: Kernels.h).
const char *TrapPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry trapper(.param .u64 p)
{
  trap;
  ret;
}
)";

struct FaultCase {
  const char *device, *kernel;
  Errc expected;
};

class TypedFaults : public ::testing::TestWithParam<FaultCase> {};

} // namespace

TEST_P(TypedFaults, ReachTheContextAsCudasStickyCode) {
  const FaultCase &F = GetParam();
  PlatformOptions O;
  O.device = F.device;
  O.arch = "gfx1100";
  auto P = Platform::create(O);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  auto D = (*P)->device(0);
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  Context &C = (*D)->primaryContext();
  ModuleSource S;
  S.ptx = std::string(TrapPtx) + kOobEntryPtx;
  auto M = C.loadModule(S);
  ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
  auto K = (*M)->function(F.kernel);
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  auto Buf = C.allocate(64, MemoryKind::Device);
  ASSERT_TRUE(bool(Buf));
  uint64_t Ptr = *Buf;
  void *Args[] = {&Ptr};
  LaunchConfig One;
  One.block = {32, 1, 1};
  ASSERT_FALSE(bool(C.legacyStream().launch(**K, One, Args)));
  EXPECT_EQ(takeErrc(C.synchronize()), F.expected);
  EXPECT_EQ(C.stickyCode(), F.expected);
  ASSERT_FALSE(bool(C.reset()));
}

INSTANTIATE_TEST_SUITE_P(EmuAndIsa, TypedFaults,
                         ::testing::Values(FaultCase{"emu", "oob", Errc::IllegalAddress},
                                           FaultCase{"emu", "trapper", Errc::LaunchFailure},
                                           FaultCase{"isa", "oob", Errc::IllegalAddress},
                                           FaultCase{"isa", "trapper", Errc::LaunchFailure}),
                         [](const auto &I) { return std::string(I.param.device) + "_" + I.param.kernel; });

namespace {
// hello(u64 *out, u32 v): printf("unload %d\n", v); out[0] = (u64)malloc(16) -- a module with
// both launcher-filled buffers (printf FIFO and device heap).
const char *PrintfHeapPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.extern .func (.param .b32 func_retval0) vprintf(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);
.extern .func (.param .b64 func_retval0) malloc(.param .b64 malloc_param_0);
.global .align 1 .b8 $str[11] = {117, 110, 108, 111, 97, 100, 32, 37, 100, 10, 0};
.visible .entry hello(.param .u64 out, .param .u32 v)
{
  .local .align 8 .b8 __local_depot0[8];
  .reg .b64 %SP;
  .reg .b64 %SPL;
  .reg .b32 %r<3>;
  .reg .b64 %rd<9>;
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [v];
  add.u64 %rd2, %SP, 0;
  add.u64 %rd3, %SPL, 0;
  st.local.u32 [%rd3], %r1;
  mov.u64 %rd4, $str;
  cvta.global.u64 %rd5, %rd4;
  {
  .param .b64 param0;
  st.param.b64 [param0], %rd5;
  .param .b64 param1;
  st.param.b64 [param1], %rd2;
  .param .b32 retval0;
  call.uni (retval0), vprintf, (param0, param1);
  ld.param.b32 %r2, [retval0];
  }
  {
  .param .b64 param0;
  st.param.b64 [param0], 16;
  .param .b64 retval0;
  call.uni (retval0), malloc, (param0);
  ld.param.b64 %rd6, [retval0];
  }
  cvta.to.global.u64 %rd7, %rd1;
  st.global.u64 [%rd7], %rd6;
  ret;
}
)";
} // namespace

// isa: an unloaded module gives back its printf FIFO, device heap, heap
// header and code object image (runtime/backends/Isa.cpp, isa-emu's
// unloadProgram): after load / launch / unload cycles the next allocation
// lands where it did before them (isa-emu's arena reuses freed ranges best
// fit and lowers its top when the top range is freed; each leaked module
// held ~9 MiB above it). Every reloaded module still prints and allocates.
TEST(IsaModules, UnloadFreesTheirBuffersAndImage) {
  PlatformOptions O;
  O.device = "isa";
  O.arch = "gfx1100";
  auto P = Platform::create(O);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  auto D = (*P)->device(0);
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  Context &C = (*D)->primaryContext();
  auto Out = C.allocate(8, MemoryKind::Device);
  ASSERT_TRUE(bool(Out));
  ModuleSource S;
  S.ptx = PrintfHeapPtx;
  auto Cycle = [&](uint32_t V) {
    auto M = C.loadModule(S);
    ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
    auto K = (*M)->function("hello");
    ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
    ASSERT_FALSE(bool(C.memsetSync(*Out, 0, 8)));
    uint64_t OutP = *Out;
    void *Args[] = {&OutP, &V};
    LaunchConfig One;
    testing::internal::CaptureStdout();
    ASSERT_FALSE(bool(C.legacyStream().launch(**K, One, Args)));
    llvm::Error E = C.synchronize();
    std::string Printed = testing::internal::GetCapturedStdout();
    ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
    EXPECT_EQ(Printed, "unload " + std::to_string(V) + "\n");
    uint64_t Heap = 0;
    ASSERT_FALSE(bool(C.copySync(reinterpret_cast<uint64_t>(&Heap), *Out, 8)));
    EXPECT_NE(Heap, 0u) << "device malloc failed";
    ASSERT_FALSE(bool(C.unloadModule(*M)));
  };
  Cycle(0); // the device and whatever a first launch sets up once
  auto Probe = C.allocate(1 << 20, MemoryKind::Device);
  ASSERT_TRUE(bool(Probe));
  ASSERT_FALSE(bool(C.free(*Probe)));
  for (uint32_t I = 1; I <= 4; ++I) Cycle(I);
  auto After = C.allocate(1 << 20, MemoryKind::Device);
  ASSERT_TRUE(bool(After));
  EXPECT_EQ(*After, *Probe) << "unloaded modules left device memory allocated";
  ASSERT_FALSE(bool(C.free(*After)));
  ASSERT_FALSE(bool(C.reset()));
}

// A module that cannot be translated fails with CUDA's code for it
// (InvalidKernelImage) and carries the pipeline's typed diagnostics: a
// consumer learns which construct was refused, by which stage and where,
// without reading the message. ld.shared::cluster (distributed shared memory)
// is refused by ptx-to-llvm (tests/lit/ptx-to-llvm/errors.ptx); the second
// module has a PTX syntax error, the parser's InvalidInput.
TEST(TranslationErrors, CarryTheirTypedDiagnostics) {
  PlatformOptions O;
  O.device = "emu";
  O.arch = "gfx1100";
  auto P = Platform::create(O);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  auto D = (*P)->device(0);
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  Context &C = (*D)->primaryContext();
  ModuleSource S;
  S.name = "cluster.ptx";
  S.ptx = ".version 9.0\n.target sm_90\n.address_size 64\n"
          ".visible .entry k(.param .u64 out)\n{\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n"
          "  ld.param.u64 %rd1, [out];\n  ld.shared::cluster.u32 %r1, [%rd1];\n  st.global.u32 [%rd1], %r1;\n"
          "  ret;\n}\n";
  auto M = C.loadModule(S);
  ASSERT_FALSE(bool(M));
  std::vector<support::Diagnostic> Diags;
  EXPECT_EQ(takeErrc(M.takeError(), nullptr, &Diags), Errc::InvalidKernelImage);
  ASSERT_EQ(Diags.size(), 1u);
  EXPECT_EQ(Diags[0].kind, support::ErrorKind::Unsupported);
  EXPECT_EQ(Diags[0].stage, "ptx-to-llvm");
  EXPECT_EQ(Diags[0].construct, "ld.shared::cluster.u32");
  EXPECT_EQ(Diags[0].line, 9u);
  EXPECT_EQ(Diags[0].col, 3u);

  S.ptx = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n  bogus.op;\n  ret;\n}\n";
  M = C.loadModule(S);
  ASSERT_FALSE(bool(M));
  Diags.clear();
  EXPECT_EQ(takeErrc(M.takeError(), nullptr, &Diags), Errc::InvalidKernelImage);
  ASSERT_FALSE(Diags.empty());
  EXPECT_EQ(Diags[0].kind, support::ErrorKind::InvalidInput);
  EXPECT_EQ(Diags[0].line, 6u);
  EXPECT_TRUE(Diags[0].stage.empty());
  EXPECT_EQ(C.stickyCode(), Errc::Success); // translation errors are not sticky
}

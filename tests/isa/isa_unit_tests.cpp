//===- isa_unit_tests.cpp - per-family unit tests of isa-emu ----------------===//
//
// Hand-written assembly kernels (asm/gfx1100.s, asm/gfx90a.s; assembled with
// llvm-mc-22 and linked by ld.lld-22 at build time) run on isa-emu; every
// result slot is compared with a value computed by hand from the ISA
// guides' definitions (the comments in the .s files say which). Kernels
// store result j of work-item l at out[j * 64 + l]; one workgroup of 64
// work-items (two waves on gfx1100, one on gfx90a / gfx942 unless stated).
// asm/<cpu>-ops.s hold the opcodes found missing in real code objects.
//
//===----------------------------------------------------------------------===//
#include "isa-emu/IsaEmu.h"
#include "support/Error.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>

namespace {

using Expect = std::function<uint32_t(unsigned)>; // work-item id -> value
uint32_t fb(float f) { return std::bit_cast<uint32_t>(f); }

struct Case {
  const char *kernel;
  unsigned block;
  std::vector<std::pair<unsigned, Expect>> slots;
};

// One device with one loaded code object; launch() runs a kernel with the
// out buffer (16 slots of 64 words, zeroed) and the two scalar arguments.
struct Loaded {
  std::unique_ptr<isaemu::Device> Dev;
  isaemu::Program *Prog = nullptr; // owned by Dev
  uint64_t Out = 0;
  llvm::Error launch(const char *Kernel, unsigned Block) {
    auto O = Dev->malloc(16 * 64 * 4);
    if (!O) return O.takeError();
    Out = *O;
    if (auto E = Dev->memset(Out, 0, 16 * 64 * 4)) return E;
    uint64_t A0 = Out;
    uint32_t A1 = 7, A2 = 9;
    void *Args[] = {&A0, &A1, &A2};
    isaemu::LaunchConfig LC;
    LC.block = {Block, 1, 1};
    return Dev->launch(*Prog, Kernel, LC, Args);
  }
};
void load(const char *File, Loaded &L, isaemu::DeviceOptions Opts = {}) {
  auto Buf = llvm::MemoryBuffer::getFile(File);
  ASSERT_TRUE(bool(Buf)) << "cannot read " << File;
  auto Dev = isaemu::Device::create(Opts);
  ASSERT_TRUE(bool(Dev)) << llvm::toString(Dev.takeError());
  llvm::ArrayRef<char> Bytes((*Buf)->getBufferStart(), (*Buf)->getBufferSize());
  auto P = (*Dev)->loadCodeObject(Bytes);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  L.Dev = std::move(*Dev);
  L.Prog = *P;
}

void runCases(const char *File, const std::vector<Case> &Cases) {
  Loaded L;
  load(File, L);
  if (!L.Prog) return;
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.kernel);
    auto E = L.launch(C.kernel, C.block);
    ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
    std::vector<uint32_t> H(16 * 64);
    ASSERT_FALSE(bool(L.Dev->copyFromDevice(H.data(), L.Out, H.size() * 4)));
    for (auto &[Slot, F] : C.slots)
      for (unsigned l = 0; l < std::min(C.block, 64u); ++l) // kernels store work-items 0..63
        ASSERT_EQ(H[Slot * 64 + l], F(l)) << "slot " << Slot << " work-item " << l;
  }
}

Expect k(uint32_t v) { return [v](unsigned) { return v; }; }
// binary16 bits of an exactly representable value (or the host's nearest-even rounding).
uint32_t h(double x) { return std::bit_cast<uint16_t>(_Float16(float(x))); }
// binary16 bits of the integer x in [0, 4096) rounded toward +inf (the quantum is 2 above 2048).
uint32_t hUp(unsigned x) { return h(x < 2048 ? x : (x + 1) & ~1u); }
uint32_t sat16(int x) { return uint16_t(std::clamp(x, -32768, 32767)); }
// The LDS word p_l of the D16 kernels and what each D16 load leaves in its register.
uint32_t d16Low(unsigned l) { return 0xdead0000u | ((0x80 + l) << 8) | l; }       // u16 of bits 31:16
uint32_t d16High(unsigned l) { return ((0x1100 + l) << 16) | 0x5678; }            // u16 of bits 15:0
uint32_t d16I8(unsigned l) { return 0x77770000u | (0xff00u | (0x80 + l)); }       // sext16 of byte 3

// The clamp bit of a float result (RDNA3 / CDNA2 / CDNA3 ISA guides: clamp to [0.0, 1.0]):
// +0 for NaN (DX10 clamp) and for -0. x_l = (l - 8) / 4, the k_clamp kernels' input.
double clampX(unsigned l) { return (double(l) - 8.0) / 4.0; }
double cl01(double d) { return !(d > 0.0) ? 0.0 : std::min(d, 1.0); }
uint32_t hi64(double d) { return uint32_t(std::bit_cast<uint64_t>(d) >> 32); }
uint32_t pk(uint32_t lo, uint32_t hi) { return (lo & 0xffff) | hi << 16; }

} // namespace

TEST(IsaUnit, gfx1100) {
  runCases(ISA_ASM_DIR "/gfx1100.hsaco", {
    {"k_salu", 64, {{0, k(0x10)}, {1, k(7)}, {2, k(4)}, {3, k(0xfffffff1)}, {4, k(48)}, {5, k(0xb)},
                    {6, k(8)}, {7, k(8)}, {8, k(1)}, {9, k(0xffff8000)}, {10, k(0x80000000)},
                    {11, k(2)}, {12, k(uint32_t(-5))}, {13, k(0x10000000)}}},
    {"k_valu", 64, {{0, [](unsigned l) { return l + 10; }},
                    {1, [](unsigned l) { return 100 - l; }},
                    {2, [](unsigned l) { return l << 3; }},
                    {3, [](unsigned l) { return fb(float(l) * 0.5f); }},
                    {4, [](unsigned l) { return fb(float(l * l + 1)); }},
                    {5, [](unsigned l) { return uint32_t((uint64_t(l) << 31) + l); }},
                    {6, [](unsigned l) { return uint32_t(((uint64_t(l) << 31) + l) >> 32); }},
                    {7, [](unsigned l) { return (l >> 1) & 7; }},
                    {8, [](unsigned l) { return l < 16 ? 9u : 5u; }},
                    {9, [](unsigned l) { return l % 32; }},                 // mbcnt counts within the wave
                    {10, [](unsigned l) { return (l / 32) * 32 + 7; }},     // readlane 7 of each wave
                    {11, k(uint32_t(-2))}, {12, k(0x3e800000)}, {13, k(0x789abcde)},
                    {14, [](unsigned l) { return l ? 10u : 9u; }},
                    {15, [](unsigned l) { return l == 0 ? 0x80000000u : fb(std::max(-float(l), -4.0f)); }}}},
    {"k_exec", 64, {{0, [](unsigned l) { return l < 10 ? 1u : 0u; }},
                    {1, [](unsigned l) { return l < 32 ? 0x3ffu : 0u; }},
                    {2, [](unsigned l) { return l > 20 ? 2u : 0u; }}}},
    {"k_ds", 64, {{0, [](unsigned l) { return 3 * ((l + 1) % 64); }}, {1, k(64)},
                  {2, [](unsigned l) { return l ^ 1; }},
                  {3, [](unsigned l) { return l < 62 ? 3 * (l + 2) : 0u; }}}},
    {"k_dpp", 64, {{0, [](unsigned l) { return l % 16 ? l - 1 : 0u; }},
                   {1, [](unsigned l) { return (l & ~3u) + 3 - (l & 3); }},
                   {2, [](unsigned l) { return (l & ~15u) + 15 - (l & 15); }},
                   {3, [](unsigned l) { return (((l / 4) & 1) == 0 && l % 16 < 14) ? l + 2 + 1000 : 1000u; }},
                   {4, [](unsigned l) { return (l & ~7u) + 7 - (l & 7); }}}},
    {"k_vopd", 64, {{0, [](unsigned l) { return 100 + l; }}, {1, [](unsigned l) { return l; }},
                    {2, [](unsigned l) { return fb(float(l) + 1.0f); }},
                    {3, [](unsigned l) { return fb(2.0f * float(l)); }}}},
    {"k_mem", 64, {{0, k(16)}, {1, [](unsigned l) { return l + 5; }}, {2, [](unsigned l) { return l + 6; }},
                   {3, [](unsigned l) { return l == 0 ? 64u : 0u; }}}},
    {"k_scratch", 64, {{0, [](unsigned l) { return 7 * l; }}, {1, [](unsigned l) { return l; }}}},
  });
}

TEST(IsaUnit, gfx90a) {
  runCases(ISA_ASM_DIR "/gfx90a.hsaco", {
    {"k_salu", 64, {{0, k(0x10)}, {1, k(4)}, {2, k(36)}, {3, k(64)}, {4, k(0xffffffff)}, {5, k(0xffffffef)},
                    {6, k(2)}, {7, k(0x7fff)}}},
    {"k_valu", 64, {{0, [](unsigned l) { return l + 10; }},
                    {1, [](unsigned l) { return 100 - l; }},
                    {2, [](unsigned l) { return l ? 10u : 9u; }},
                    {3, [](unsigned l) { return l; }},
                    {4, [](unsigned l) { return fb(float(l * l + 1)); }},
                    {5, [](unsigned l) { return uint32_t((uint64_t(l) << 31) + l); }},
                    {6, [](unsigned l) { return uint32_t(((uint64_t(l) << 31) + l) >> 32); }},
                    {7, k(0xff)}, {8, k(50)},
                    {9, [](unsigned l) { return fb(float(l) + 0.5f); }}}},
    {"k_vop3p", 64, {{0, [](unsigned l) { return fb(float(l) + 1.0f); }}, {1, k(fb(1.5f))},
                     {2, [](unsigned l) { return fb(float(l * l + 1)); }},
                     {3, [](unsigned l) { return fb(float(l) * 2.0f + 0.5f); }},
                     {4, k(fb(0.5f))}, {5, [](unsigned l) { return fb(float(l) + 1.0f); }},
                     {6, [](unsigned l) { return l; }}}},
    {"k_ds", 128, {{0, [](unsigned l) { return 3 * (l + 64); }}, {1, [](unsigned l) { return l ^ 33; }}}},
    {"k_dpp", 64, {{0, [](unsigned l) { return l % 16 ? l - 1 : 0u; }},
                   {1, [](unsigned l) { return l ? l - 1 : 5u; }},
                   {2, [](unsigned l) { unsigned r = l / 16; return (r == 1 || r == 3) ? 16 * r - 1 : 9u; }}}},
    {"k_scratch", 64, {{0, [](unsigned l) { return 7 * l; }}, {1, [](unsigned l) { return l; }}}},
  });
}

// Opcodes that real code objects use (asm/gfx90a-ops.s).
TEST(IsaUnit, gfx90aOps) {
  const uint64_t A = 0x8000000180000000ull;
  const uint64_t Shr33 = uint64_t(int64_t(A) >> 33);
  runCases(ISA_ASM_DIR "/gfx90a-ops.hsaco", {
    {"k_mix", 64, {{0, [](unsigned l) { return fb(float(l * l + 1)); }},
                   {1, [](unsigned l) { return 0xabcd0000u | h(l * l + l); }},
                   {2, [](unsigned l) { return h(l * l + l) << 16 | 0x1234u; }},
                   {3, k(0x3c01)},
                   {4, [](unsigned l) { return fb(l ? 1.0f : 0.0f); }},
                   {5, [](unsigned l) { return fb(float(l * l + l)); }},
                   {6, [](unsigned l) { return l ? fb(-float(l)) : 0u; }},
                   {7, [](unsigned l) { return fb(float(l * l) + 0.5f); }},
                   {8, [](unsigned l) { return sat16(-32000 - 100 * int(l)); }}}},
    {"k_lds", 64, {{0, [](unsigned l) { return fb(float(l)); }},
                   {1, [](unsigned l) { return fb(float(l) + 0.5f); }},
                   {2, k(fb(64.0f))},
                   {3, d16Low}, {4, d16High}, {5, d16I8}, {6, k(0x114321)},
                   {7, [](unsigned l) { return 0x1100 + l; }}}},
    {"k_sdwa", 64, {{0, [](unsigned l) { return ((0xfffa + l) & 0xffff) << 16; }},
                    {1, [](unsigned l) { return 0xabcd0000u | ((0xffffffe0u + l) & 0xffff); }},
                    {2, [](unsigned l) { return l >= 32 ? 1u : 0u; }},
                    {3, [](unsigned l) { return uint32_t(20 - int(l)); }},
                    {4, [](unsigned l) { return l > 20 ? 1u : 0u; }},
                    {5, k(0xffffffff)}, {6, k(0xffffffff)}, {7, k(0xfffffffe)}, {8, k(0xffffffff)},
                    {9, k(uint32_t(Shr33))}, {10, k(uint32_t(Shr33 >> 32))}, {11, k(3)}, {12, k(0)},
                    {13, [](unsigned l) { return l; }}, {14, [](unsigned l) { return l; }},
                    {15, [](unsigned l) { return l < 63 ? l + 1 : 0u; }}}},
    // 128 work-items, one group: wave 1 (work-items 64..127) stores into the next slot's row.
    {"k_hwid", 128, {{0, k(0)}, {1, k(1)}, {2, k(0)}, {3, k(0)}}},
  });
}

// gfx90a has no hardware register 29 (SHADER_CYCLES is gfx10.3/gfx11): reading it is a
// fault naming the register, never a made-up value.
TEST(IsaUnit, gfx90aHwreg29Refused) {
  Loaded L;
  load(ISA_ASM_DIR "/gfx90a-ops.hsaco", L);
  ASSERT_TRUE(L.Prog);
  llvm::Error E = L.launch("k_hwreg29", 64);
  ASSERT_TRUE(bool(E));
  std::string Msg = llvm::toString(std::move(E));
  EXPECT_NE(Msg.find("hardware register 29"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("SHADER_CYCLES"), std::string::npos) << Msg;
}

// The watchdog: an endless loop (k_spin, two waves) ends in a Timeout device fault naming
// where the wave was, after about the limit's count (one slice of 2048 past it at most per wave).
TEST(IsaUnit, watchdogEndsEndlessLoop) {
  isaemu::DeviceOptions O;
  O.maxWaveInstructions = 100000;
  O.threads = 1;
  Loaded L;
  load(ISA_ASM_DIR "/gfx1100-ops.hsaco", L, O);
  ASSERT_TRUE(L.Prog);
  llvm::Error E = L.launch("k_spin", 64);
  ASSERT_TRUE(bool(E));
  support::FaultKind Kind = support::FaultKind::MemoryFault;
  bool Typed = false;
  std::string Msg;
  llvm::handleAllErrors(std::move(E), [&](const support::DeviceFaultError &D) {
    Typed = true;
    Kind = D.fault();
    Msg = D.message();
  }, [&](const llvm::ErrorInfoBase &B) { Msg = B.message(); });
  ASSERT_TRUE(Typed) << Msg;
  EXPECT_EQ(Kind, support::FaultKind::Timeout) << Msg;
  EXPECT_NE(Msg.find("limit of 100000 wave instructions"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("k_spin+0x"), std::string::npos) << Msg;
  isaemu::Counters C = L.Dev->counters();
  EXPECT_GE(C.waveInstructions, 100000u);
  EXPECT_LE(C.waveInstructions, 100000u + 2 * 2048u);
}

// Cooperative launches keep the whole grid resident: k_gridsync's 8 workgroups wait for each
// other at a grid barrier. In dispatch order on one host thread the first one never finishes
// (the watchdog ends it); cooperative, on one thread and on three, all of them see the count 8.
TEST(IsaUnit, cooperativeGridBarrier) {
  for (unsigned Threads : {1u, 3u})
    for (bool Coop : {false, true}) {
      if (!Coop && Threads > 1) continue; // spins until the watchdog, nothing new
      SCOPED_TRACE(std::string(Coop ? "cooperative" : "dispatch order") + ", threads " + std::to_string(Threads));
      isaemu::DeviceOptions O;
      O.threads = Threads;
      O.maxWaveInstructions = 1000000;
      Loaded L;
      load(ISA_ASM_DIR "/gfx1100-ops.hsaco", L, O);
      ASSERT_TRUE(L.Prog);
      auto Out = L.Dev->malloc(4096);
      ASSERT_TRUE(bool(Out)) << llvm::toString(Out.takeError());
      ASSERT_FALSE(bool(L.Dev->memset(*Out, 0, 4096)));
      uint64_t A0 = *Out;
      uint32_t A1 = 8, A2 = 0;
      void *Args[] = {&A0, &A1, &A2};
      isaemu::LaunchConfig LC;
      LC.grid = {4, 2, 1};
      LC.block = {64, 1, 1}; // two waves each
      LC.cooperative = Coop;
      llvm::Error E = L.Dev->launch(*L.Prog, "k_gridsync", LC, Args);
      if (!Coop) {
        ASSERT_TRUE(bool(E));
        std::string Msg = llvm::toString(std::move(E));
        EXPECT_NE(Msg.find("watchdog"), std::string::npos) << Msg;
        continue;
      }
      ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
      std::vector<uint32_t> H(1024);
      ASSERT_FALSE(bool(L.Dev->copyFromDevice(H.data(), *Out, 4096)));
      EXPECT_EQ(H[1023], 8u);
      for (unsigned l = 0; l < 64; ++l) ASSERT_EQ(H[l], 8u) << "work-item " << l;
    }
}

// Device memory is reused: a freed range is handed out again (zeroed), and a launch frees its
// kernarg segment, packet, queue and scratch, so 200 launches leave the arena as they found it.
TEST(IsaUnit, arenaReusesMemory) {
  Loaded L;
  load(ISA_ASM_DIR "/gfx1100-ops.hsaco", L);
  ASSERT_TRUE(L.Prog);
  auto A = L.Dev->malloc(1 << 20);
  ASSERT_TRUE(bool(A));
  std::vector<uint8_t> Ones(1 << 20, 0xff);
  ASSERT_FALSE(bool(L.Dev->copyToDevice(*A, Ones.data(), Ones.size())));
  auto Keep = L.Dev->malloc(100); // above A: A's range becomes a hole, not the top
  ASSERT_TRUE(bool(Keep));
  ASSERT_FALSE(bool(L.Dev->free(*A)));
  llvm::Error Twice = L.Dev->free(*A);
  EXPECT_TRUE(bool(Twice)) << "a second free of the same range must fail";
  llvm::consumeError(std::move(Twice));
  auto B = L.Dev->malloc(1000);
  ASSERT_TRUE(bool(B));
  EXPECT_EQ(*B, *A) << "the freed range is reused (best fit, lowest address)";
  std::vector<uint8_t> Back(1000, 1);
  ASSERT_FALSE(bool(L.Dev->copyFromDevice(Back.data(), *B, Back.size())));
  EXPECT_EQ(std::count(Back.begin(), Back.end(), 0), 1000) << "reused memory reads as zeroes";
  ASSERT_FALSE(bool(L.Dev->free(*B)));
  ASSERT_FALSE(bool(L.Dev->free(*Keep)));
  auto Out = L.Dev->malloc(4096);
  ASSERT_TRUE(bool(Out));
  uint64_t A0 = *Out;
  uint32_t A1 = 7, A2 = 9;
  void *Args[] = {&A0, &A1, &A2};
  isaemu::LaunchConfig LC;
  LC.block = {64, 1, 1};
  auto Probe = L.Dev->malloc(64);
  ASSERT_TRUE(bool(Probe));
  ASSERT_FALSE(bool(L.Dev->free(*Probe)));
  for (int i = 0; i < 200; ++i) ASSERT_FALSE(bool(L.Dev->launch(*L.Prog, "k_minmax", LC, Args)));
  auto After = L.Dev->malloc(64);
  ASSERT_TRUE(bool(After));
  EXPECT_EQ(*After, *Probe) << "launches left memory allocated";
}

// unloadProgram gives the code object's image back: loading the same code
// object again lands at the same address (the arena's top came back down),
// the reloaded program runs, and a second unload of the old handle fails.
TEST(IsaUnit, unloadProgramFreesTheImage) {
  Loaded L;
  load(ISA_ASM_DIR "/gfx1100-ops.hsaco", L);
  ASSERT_TRUE(L.Prog);
  auto Buf = llvm::MemoryBuffer::getFile(ISA_ASM_DIR "/gfx1100-ops.hsaco");
  ASSERT_TRUE(bool(Buf));
  llvm::ArrayRef<char> Bytes((*Buf)->getBufferStart(), (*Buf)->getBufferSize());
  auto Kd = L.Prog->symbolAddress("k_minmax.kd");
  ASSERT_TRUE(bool(Kd)) << llvm::toString(Kd.takeError());
  uint64_t FirstKd = *Kd;
  isaemu::Program *Old = L.Prog;
  for (int i = 0; i < 5; ++i) {
    ASSERT_FALSE(bool(L.Dev->unloadProgram(L.Prog)));
    auto P = L.Dev->loadCodeObject(Bytes);
    ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
    L.Prog = *P;
    auto K = L.Prog->symbolAddress("k_minmax.kd");
    ASSERT_TRUE(bool(K));
    ASSERT_EQ(*K, FirstKd) << "reload " << i << ": the unloaded image was not freed";
  }
  auto E = L.launch("k_minmax", 64);
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  llvm::Error Stale = L.Dev->unloadProgram(Old == L.Prog ? nullptr : Old);
  EXPECT_TRUE(bool(Stale)) << "unloading a program twice must fail";
  llvm::consumeError(std::move(Stale));
  llvm::Error Null = L.Dev->unloadProgram(nullptr);
  EXPECT_TRUE(bool(Null));
  llvm::consumeError(std::move(Null));
}

// k_clamp (asm/gfx1100-ops.s): true16 VOP3 f16 ops with clamp (v_trunc_f16_e64 ... clamp is
// what LLVM folds cvt.rzi.sat.f16.f16 into), f32 / f64 / packed clamps, f16 omod, v_pk_add_u16 clamp.
TEST(IsaUnit, clampBitGfx1100) {
  auto X = clampX;
  runCases(ISA_ASM_DIR "/gfx1100-ops.hsaco", {
    {"k_clamp", 64, {{0, [&](unsigned l) { return h(cl01(std::trunc(X(l)))); }},
                     {1, [&](unsigned l) { return h(cl01(X(l) + 0.5)); }},
                     {2, [&](unsigned l) { return h(cl01(X(l) * X(l) - 0.5)); }},
                     {3, [&](unsigned l) { return h(cl01(X(l))); }},
                     {4, [&](unsigned l) { return pk(h(cl01(-X(l))), h(cl01(X(l)))); }},
                     {5, [&](unsigned l) { return fb(float(cl01(X(l)))); }},
                     {6, [&](unsigned l) { return hi64(cl01(X(l))); }},
                     {7, [&](unsigned l) { return h(cl01(-X(l))); }},
                     {8, [&](unsigned l) { return h(-X(l)); }}, // 0x8000 at l = 8: the -0 the clamp turns into +0
                     {9, k(0)},
                     {10, [&](unsigned l) { return h(2 * X(l)); }},
                     {11, [](unsigned l) { return fb(float(cl01(l))); }},
                     {12, [&](unsigned l) { return pk(h(cl01(-X(l))), h(cl01(X(l)))); }},
                     {13, [](unsigned l) { return pk(std::min(0xfff0u + l, 0xffffu), std::min(0xfff0u + l, 0xffffu)); }},
                     {14, [&](unsigned l) { return h(cl01(X(l))); }}}},
  });
}

// k_clamp (asm/gfx90a-ops.s): the same on gfx90a (gfx9 f16 results zero the high half), with
// v_pk_add_f32 / v_pk_fma_f32 clamp in slots 14 / 15.
TEST(IsaUnit, clampBitGfx90a) {
  auto X = clampX;
  runCases(ISA_ASM_DIR "/gfx90a-ops.hsaco", {
    {"k_clamp", 64, {{0, [&](unsigned l) { return h(cl01(std::trunc(X(l)))); }},
                     {1, [&](unsigned l) { return h(cl01(X(l) + 0.5)); }},
                     {2, [&](unsigned l) { return h(cl01(X(l) * X(l) - 0.5)); }},
                     {3, [&](unsigned l) { return h(cl01(X(l))); }},
                     {4, [&](unsigned l) { return pk(h(cl01(-X(l))), h(cl01(X(l)))); }},
                     {5, [&](unsigned l) { return fb(float(cl01(X(l)))); }},
                     {6, [&](unsigned l) { return hi64(cl01(X(l))); }},
                     {7, [&](unsigned l) { return h(cl01(-X(l))); }},
                     {8, [&](unsigned l) { return h(-X(l)); }},
                     {9, k(0)},
                     {10, [&](unsigned l) { return h(2 * X(l)); }},
                     {11, [](unsigned l) { return fb(float(cl01(l))); }},
                     {12, [&](unsigned l) { return pk(h(cl01(-X(l))), h(cl01(X(l)))); }},
                     {13, [](unsigned l) { return pk(std::min(0xfff0u + l, 0xffffu), std::min(0xfff0u + l, 0xffffu)); }},
                     {14, [&](unsigned l) { return fb(float(cl01(X(l)))); }},
                     {15, [&](unsigned l) { return fb(float(cl01(-X(l)))); }}}},
  });
}

TEST(IsaUnit, gfx1100Ops) {
  runCases(ISA_ASM_DIR "/gfx1100-ops.hsaco", {
    {"k_f16", 64, {{0, [](unsigned l) { return h(3 * l); }},
                   {1, [](unsigned l) { return h(l * l + 1); }},
                   {2, [](unsigned l) { return hUp(l * l + 1); }},
                   {3, [](unsigned l) { return 0x55550000u | h(l * l + l); }},
                   {4, k(0x3c01)},
                   {5, [](unsigned l) { return sat16(-32000 - 100 * int(l)); }},
                   {6, k(0)}, {7, k(1)}}},
    {"k_call", 64, {{0, [](unsigned l) { return 3 * l + 7; }}}},
    {"k_lds", 64, {{0, d16Low}, {1, d16High}, {2, d16I8}, {3, k(0x114321)}, {4, k(1)}, {5, k(0)},
                   {6, [](unsigned l) { return l; }}, {7, [](unsigned l) { return l; }}}},
    {"k_minmax", 64, {{0, [](unsigned l) { return std::min(std::max(l, 4u), 10u); }},
                      {1, [](unsigned l) { return std::max(std::min(l, 10u), 4u); }},
                      {2, [](unsigned l) { return std::min(l, 10u); }}}},
  });
}

TEST(IsaUnit, gfx942) {
  runCases(ISA_ASM_DIR "/gfx942.hsaco", {
    {"k_942", 64, {{0, [](unsigned l) { return l; }}, {1, [](unsigned l) { return l + 1; }},
                   {2, [](unsigned l) { return 5 * l; }}, {3, [](unsigned l) { return 5 * (l + 1); }},
                   {4, [](unsigned l) { return 7 * l; }}, {5, [](unsigned l) { return l; }},
                   {6, [](unsigned l) { return 0x42000000u | h(2 * l); }}}},
  });
}

// Partial workgroups (HSA AQL: a grid need not be a multiple of the workgroup size). k_geom
// (asm/<cpu>-geom.s) writes one 8-word record per work-item; the expected records follow from
// the geometry alone: the last workgroup of a dimension holds the remainder, its work-item IDs
// run over its own extent (x fastest), it has only the waves it needs (the LDS count after
// s_barrier is its work-item count), hidden_remainder_x/y are the remainders (0 if none),
// hidden_block_count_x/y round up, and the packet's grid_size is the work-item count.
namespace {
constexpr unsigned GeomStride = 48, GeomRows = 16, GeomWords = 8;
std::vector<uint32_t> geomExpected(isaemu::Dim3 G, isaemu::Dim3 B, unsigned W) {
  std::vector<uint32_t> R(GeomStride * GeomRows * GeomWords, 0);
  const unsigned NX = (G.x + B.x - 1) / B.x, NY = (G.y + B.y - 1) / B.y;
  for (unsigned gy = 0; gy < G.y; ++gy)
    for (unsigned gx = 0; gx < G.x; ++gx) {
      unsigned wx = gx / B.x, wy = gy / B.y, tx = gx % B.x, ty = gy % B.y;
      unsigned ex = std::min(B.x, G.x - wx * B.x), ey = std::min(B.y, G.y - wy * B.y);
      unsigned T = ty * ex + tx, N = ex * ey, Wave = T / W, Lanes = std::min(W, N - Wave * W);
      uint32_t *Rec = &R[(gy * GeomStride + gx) * GeomWords];
      Rec[0] = tx | ty << 8 | wx << 16 | wy << 24 | 1u << 31;
      Rec[1] = N;
      Rec[2] = (G.x % B.x) | (G.y % B.y) << 16;
      Rec[3] = Lanes | NX << 8 | NY << 16;
      Rec[4] = G.x;
      Rec[5] = G.y;
      Rec[6] = B.x | B.y << 16;
      Rec[7] = 0x600d;
    }
  return R;
}
void expectGeom(const std::vector<uint32_t> &Got, const std::vector<uint32_t> &Want) {
  for (size_t i = 0; i < Want.size(); ++i)
    ASSERT_EQ(Got[i], Want[i]) << "record " << i / GeomWords << " (gx " << (i / GeomWords) % GeomStride << ", gy "
                               << (i / GeomWords) / GeomStride << ") word " << i % GeomWords;
}
} // namespace

TEST(IsaUnit, partialWorkgroups) {
  struct Geo {
    const char *file;
    unsigned W;
    isaemu::Dim3 block, items;
  };
  const Geo Cases[] = {
      {ISA_ASM_DIR "/gfx1100-geom.hsaco", 32, {16, 4, 1}, {40, 6, 1}},  // corner group: 8x2, one half wave
      {ISA_ASM_DIR "/gfx1100-geom.hsaco", 32, {16, 4, 1}, {48, 16, 1}}, // whole workgroups: remainders 0
      {ISA_ASM_DIR "/gfx1100-geom.hsaco", 32, {12, 5, 1}, {37, 11, 1}}, // 1x1 corner, 12x1 / 1x5 edges
      {ISA_ASM_DIR "/gfx90a-geom.hsaco", 64, {16, 8, 1}, {40, 10, 1}},  // corner 8x2: 16 lanes of one wave
      {ISA_ASM_DIR "/gfx90a-geom.hsaco", 64, {32, 4, 1}, {45, 15, 1}},  // 13x3 corner: 39 lanes
  };
  for (const Geo &C : Cases)
    for (bool Coop : {false, true}) {
      SCOPED_TRACE(std::string(C.file) + " block " + std::to_string(C.block.x) + "x" + std::to_string(C.block.y) +
                   " grid " + std::to_string(C.items.x) + "x" + std::to_string(C.items.y) +
                   (Coop ? " cooperative" : ""));
      isaemu::DeviceOptions O;
      O.threads = 2;
      Loaded L;
      load(C.file, L, O);
      ASSERT_TRUE(L.Prog);
      const size_t Bytes = GeomStride * GeomRows * GeomWords * 4;
      auto Out = L.Dev->malloc(Bytes);
      ASSERT_TRUE(bool(Out));
      ASSERT_FALSE(bool(L.Dev->memset(*Out, 0, Bytes)));
      uint64_t A0 = *Out;
      void *Args[] = {&A0};
      isaemu::LaunchConfig LC;
      LC.block = C.block;
      LC.grid = {(C.items.x + C.block.x - 1) / C.block.x, (C.items.y + C.block.y - 1) / C.block.y, 1};
      LC.gridWorkItems = C.items;
      LC.cooperative = Coop;
      llvm::Error E = L.Dev->launch(*L.Prog, "k_geom", LC, Args);
      ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
      std::vector<uint32_t> H(Bytes / 4);
      ASSERT_FALSE(bool(L.Dev->copyFromDevice(H.data(), *Out, Bytes)));
      expectGeom(H, geomExpected(C.items, C.block, C.W));
    }
  // A work-item count that does not fit the workgroup count is refused.
  Loaded L;
  load(ISA_ASM_DIR "/gfx1100-geom.hsaco", L);
  ASSERT_TRUE(L.Prog);
  auto Out = L.Dev->malloc(4096);
  ASSERT_TRUE(bool(Out));
  uint64_t A0 = *Out;
  void *Args[] = {&A0};
  isaemu::LaunchConfig LC;
  LC.block = {16, 4, 1};
  LC.grid = {2, 1, 1};
  LC.gridWorkItems = {40, 4, 1}; // needs 3 workgroups in x
  llvm::Error E = L.Dev->launch(*L.Prog, "k_geom", LC, Args);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("does not fit"), std::string::npos);
}

// The same through launchPacket (process-memory mode, as vgpu/ dispatches an AQL packet the
// ROCm runtime wrote): the packet and kernarg segment are written here as the runtime writes
// them, with a grid that is not a multiple of the workgroup size (refused before).
TEST(IsaUnit, partialWorkgroupsFromPacket) {
  isaemu::DeviceOptions O;
  O.threads = 2;
  O.processMemory = [](uint64_t, uint64_t) -> uint8_t * { return nullptr; }; // only our own memory
  Loaded L;
  load(ISA_ASM_DIR "/gfx90a-geom.hsaco", L, O);
  ASSERT_TRUE(L.Prog);
  auto KI = L.Prog->kernel("k_geom");
  ASSERT_TRUE(bool(KI));
  const isaemu::Dim3 B{16, 8, 1}, G{40, 10, 1};
  const size_t Bytes = GeomStride * GeomRows * GeomWords * 4;
  auto Out = L.Dev->malloc(Bytes), Kernarg = L.Dev->malloc(256), Pkt = L.Dev->malloc(64), Q = L.Dev->malloc(256);
  ASSERT_TRUE(Out && Kernarg && Pkt && Q);
  uint8_t K[24] = {}, P[64] = {};
  auto put = [](uint8_t *D, unsigned Off, auto V) { std::memcpy(D + Off, &V, sizeof(V)); };
  put(K, 0, uint64_t(*Out));
  put(K, 8, uint32_t(3));   // hidden_block_count_x
  put(K, 12, uint32_t(2));  // hidden_block_count_y
  put(K, 16, uint16_t(8));  // hidden_remainder_x
  put(K, 18, uint16_t(2));  // hidden_remainder_y
  put(P, 2, uint16_t(2));   // dimensions
  put(P, 4, uint16_t(B.x));
  put(P, 6, uint16_t(B.y));
  put(P, 8, uint16_t(B.z));
  put(P, 12, G.x);
  put(P, 16, G.y);
  put(P, 20, G.z);
  put(P, 28, uint32_t(4));  // group_segment_size
  put(P, 32, (*KI)->kdAddress);
  put(P, 40, uint64_t(*Kernarg));
  ASSERT_FALSE(bool(L.Dev->copyToDevice(*Kernarg, K, sizeof(K))));
  ASSERT_FALSE(bool(L.Dev->copyToDevice(*Pkt, P, sizeof(P))));
  isaemu::PacketDispatch D;
  D.packetAddress = *Pkt;
  D.queueAddress = *Q;
  D.kernelObject = (*KI)->kdAddress;
  D.kernargAddress = *Kernarg;
  D.gridWorkItems = G;
  D.block = B;
  D.groupSegmentBytes = 4;
  llvm::Error E = L.Dev->launchPacket(*L.Prog, D);
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  std::vector<uint32_t> H(Bytes / 4);
  ASSERT_FALSE(bool(L.Dev->copyFromDevice(H.data(), *Out, Bytes)));
  expectGeom(H, geomExpected(G, B, 64));
}

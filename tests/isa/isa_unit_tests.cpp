//===- isa_unit_tests.cpp - per-family unit tests of isa-emu ----------------===//
//
// Hand-written assembly kernels (asm/gfx1100.s, asm/gfx90a.s; assembled with
// llvm-mc-22 and linked by ld.lld-22 at build time) run on isa-emu; every
// result slot is compared with a value computed by hand from the ISA
// guides' definitions (the comments in the .s files say which). Kernels
// store result j of work-item l at out[j * 64 + l]; one workgroup of 64
// work-items (two waves on gfx1100, one on gfx90a unless stated).
//
//===----------------------------------------------------------------------===//
#include "isa-emu/IsaEmu.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <bit>
#include <functional>

namespace {

using Expect = std::function<uint32_t(unsigned)>; // work-item id -> value
uint32_t fb(float f) { return std::bit_cast<uint32_t>(f); }

struct Case {
  const char *kernel;
  unsigned block;
  std::vector<std::pair<unsigned, Expect>> slots;
};

void runCases(const char *File, const std::vector<Case> &Cases) {
  auto Buf = llvm::MemoryBuffer::getFile(File);
  ASSERT_TRUE(bool(Buf)) << "cannot read " << File;
  auto Dev = isaemu::Device::create({});
  ASSERT_TRUE(bool(Dev)) << llvm::toString(Dev.takeError());
  llvm::ArrayRef<char> Bytes((*Buf)->getBufferStart(), (*Buf)->getBufferSize());
  auto P = (*Dev)->loadCodeObject(Bytes);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.kernel);
    auto Out = (*Dev)->malloc(16 * 64 * 4);
    ASSERT_TRUE(bool(Out));
    ASSERT_FALSE(bool((*Dev)->memset(*Out, 0, 16 * 64 * 4)));
    uint64_t A0 = *Out;
    uint32_t A1 = 7, A2 = 9;
    void *Args[] = {&A0, &A1, &A2};
    isaemu::LaunchConfig LC;
    LC.block = {C.block, 1, 1};
    auto E = (*Dev)->launch(**P, C.kernel, LC, Args);
    ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
    std::vector<uint32_t> H(16 * 64);
    ASSERT_FALSE(bool((*Dev)->copyFromDevice(H.data(), *Out, H.size() * 4)));
    for (auto &[Slot, F] : C.slots)
      for (unsigned l = 0; l < std::min(C.block, 64u); ++l) // kernels store work-items 0..63
        ASSERT_EQ(H[Slot * 64 + l], F(l)) << "slot " << Slot << " work-item " << l;
  }
}

Expect k(uint32_t v) { return [v](unsigned) { return v; }; }

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

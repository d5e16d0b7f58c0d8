//===- DevlibSemanticsTest.cpp - __ptx_* device library vs the PTX ISA -------===//
//
// Runs real nvcc PTX (Inputs/warp_semantics.ptx: inline-PTX shfl.sync with
// predicate outputs and runtime clamp/segment masks, vote/redux/match/elect
// with partial membermasks in divergent code, lane masks, named barriers with
// thread counts, bar.arrive, bar.red popc/and/or, %warpid, %ntid) through
// ptxjit::lowerPTX and amdgpu-emu under wave32 (gfx1100), wave64 pack and
// wave64 pad (gfx90a, gfx942), and compares every result with a host model
// written from the PTX ISA text. Blocks hold four warps so pack puts two
// warps in each wave64.
//
//===----------------------------------------------------------------------===//
#include "emu/Emu.h"
#include "ptxjit/Lowering.h"

#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <random>

namespace {

struct Target {
  const char *arch;
  amdgpulower::WarpPolicy policy;
  const char *name;
};

constexpr unsigned kSentinel = 0xdeadbeefu;

class DevlibSemantics : public ::testing::TestWithParam<Target> {
protected:
  void SetUp() override {
    emu::DeviceOptions o;
    o.threads = 2;
    o.maxWaveInstructions = 50'000'000; // a hang is a failure, not a stuck test
    auto d = emu::Device::create(o);
    ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
    dev = std::move(*d);
    auto buf = llvm::MemoryBuffer::getFile(std::string(PTXJIT_TEST_INPUTS) + "/warp_semantics.ptx");
    ASSERT_TRUE(bool(buf));
    auto ctx = std::make_unique<llvm::LLVMContext>();
    amdgpulower::LowerOptions lo;
    lo.arch = GetParam().arch;
    lo.defaultPolicy = GetParam().policy;
    lo.optLevel = 2;
    std::vector<amdgpulower::Diagnostic> diags;
    auto m = ptxjit::lowerPTX((*buf)->getBuffer(), "warp_semantics.ptx", *ctx, lo, diags);
    ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
    auto mod = dev->loadModule(std::move(*m), std::move(ctx));
    ASSERT_TRUE(bool(mod)) << llvm::toString(mod.takeError());
    module = *mod;
  }
  uint64_t upload(const std::vector<unsigned> &v) {
    auto a = dev->malloc(v.size() * 4);
    EXPECT_TRUE(bool(a));
    EXPECT_FALSE(bool(dev->copyToDevice(*a, v.data(), v.size() * 4)));
    return *a;
  }
  std::vector<unsigned> download(uint64_t a, size_t n) {
    std::vector<unsigned> v(n);
    EXPECT_FALSE(bool(dev->copyFromDevice(v.data(), a, n * 4)));
    return v;
  }
  void launch(const char *k, unsigned blocks, unsigned threads, std::vector<void *> args) {
    emu::LaunchConfig c;
    c.grid = {blocks, 1, 1};
    c.block = {threads, 1, 1};
    llvm::Error e = dev->launch(*module, k, c, args.data());
    ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  }
  std::unique_ptr<emu::Device> dev;
  emu::Module *module = nullptr;
};

std::vector<unsigned> randomInputs(size_t n, unsigned seed) {
  std::mt19937 r(seed);
  std::vector<unsigned> v(n);
  for (auto &x : v) x = r() % 7 == 0 ? r() : r() % 50; // small values collide (match), some large
  return v;
}

TEST_P(DevlibSemantics, ShflAllModesClampAndSegmentMask) {
  const unsigned B = 2, T = 128, N = B * T;
  auto a = randomInputs(N, 7);
  uint64_t da = upload(a);
  // c = clamp | segmask << 8: full warp, width 8/16 segments (CUDA's width
  // encoding for up and for down/bfly/idx), and odd clamps.
  const unsigned cs[] = {0x1f, 0x0, 0x181f, 0x1000, 0x1c03, 0x0c07, 0x0810};
  const unsigned bs[] = {0, 1, 2, 5, 16, 31, 33};
  for (unsigned c : cs)
    for (unsigned b : bs) {
      uint64_t dout = upload(std::vector<unsigned>(N * 8, kSentinel));
      launch("shfl_all", B, T, {&da, &b, &c, &dout});
      auto out = download(dout, N * 8);
      for (unsigned t = 0; t < N; ++t) {
        int lane = int(t & 31), base = int(t & ~31u);
        int seg = int((c >> 8) & 31), clamp = int(c & 31), bv = int(b & 31);
        int maxLane = (lane & seg) | (clamp & ~seg), minLane = lane & seg;
        int js[4] = {lane - bv, lane + bv, lane ^ bv, minLane | (bv & ~seg)};
        bool ps[4] = {js[0] >= maxLane, js[1] <= maxLane, js[2] <= maxLane, js[3] <= maxLane};
        for (int m = 0; m < 4; ++m) {
          int j = ps[m] ? js[m] : lane;
          ASSERT_EQ(out[t * 8 + 2 * m], a[base + j]) << "mode " << m << " t " << t << " b " << b << " c " << c;
          ASSERT_EQ(out[t * 8 + 2 * m + 1], unsigned(ps[m])) << "mode " << m << " t " << t << " b " << b << " c " << c;
        }
      }
    }
}

TEST_P(DevlibSemantics, VoteReduxMatchElectWithMembermask) {
  const unsigned B = 2, T = 128, N = B * T;
  auto a = randomInputs(N, 11);
  uint64_t da = upload(a);
  for (unsigned mask : {0xffffffffu, 0x0f0f0f0fu, 0xaaaaaaaau, 0x00010001u}) {
    uint64_t dout = upload(std::vector<unsigned>(N * 20, kSentinel));
    launch("vote_redux", B, T, {&da, &mask, &dout});
    auto out = download(dout, N * 20);
    for (unsigned t = 0; t < N; ++t) {
      unsigned l = t & 31, base = t & ~31u;
      const unsigned *o = &out[t * 20];
      unsigned act = 0;
      for (unsigned i = 0; i < 32; ++i) act |= unsigned(i % 5 != 4) << i;
      if (l % 5 == 4) {
        for (int k = 0; k < 20; ++k) ASSERT_EQ(o[k], kSentinel) << t;
        continue;
      }
      ASSERT_EQ(o[0], act) << "activemask t " << t;
      unsigned mm = act & mask;
      if (!((mm >> l) & 1)) {
        for (int k = 1; k < 20; ++k) ASSERT_EQ(o[k], kSentinel) << t;
        continue;
      }
      unsigned ballot = 0, add = 0, andv = ~0u, orv = 0, xorv = 0, umin = ~0u, umax = 0;
      int smin = INT32_MAX, smax = INT32_MIN;
      unsigned key = a[t] % 3, same = 0;
      bool allSame = true;
      unsigned leader = 32;
      for (unsigned i = 0; i < 32; ++i) {
        if (!((mm >> i) & 1)) continue;
        unsigned v = a[base + i];
        leader = std::min(leader, i);
        ballot |= (v & 1) << i;
        add += v, andv &= v, orv |= v, xorv ^= v;
        umin = std::min(umin, v), umax = std::max(umax, v);
        smin = std::min(smin, int(v)), smax = std::max(smax, int(v));
        same |= unsigned(v % 3 == key) << i;
        allSame &= v % 3 == a[base + leader] % 3;
      }
      ASSERT_EQ(o[1], ballot) << "ballot t " << t << " mask " << mask;
      ASSERT_EQ(o[2], unsigned(ballot != 0)) << "any t " << t;
      ASSERT_EQ(o[3], unsigned(ballot == mm)) << "all t " << t;
      ASSERT_EQ(o[4], unsigned(ballot == 0 || ballot == mm)) << "uni t " << t;
      ASSERT_EQ(o[5], add) << "redux.add t " << t;
      ASSERT_EQ(int(o[6]), smin) << "redux.min.s32 t " << t;
      ASSERT_EQ(int(o[7]), smax) << "redux.max.s32 t " << t;
      ASSERT_EQ(o[8], umin) << "redux.min.u32 t " << t;
      ASSERT_EQ(o[9], umax) << "redux.max.u32 t " << t;
      ASSERT_EQ(o[10], andv) << "redux.and t " << t;
      ASSERT_EQ(o[11], orv) << "redux.or t " << t;
      ASSERT_EQ(o[12], xorv) << "redux.xor t " << t;
      ASSERT_EQ(o[13], same) << "match.any t " << t;
      ASSERT_EQ(o[14], allSame ? mm : 0u) << "match.all d t " << t;
      ASSERT_EQ(o[15], unsigned(allSame)) << "match.all p t " << t;
      ASSERT_EQ(o[16], leader) << "elect d t " << t;
      ASSERT_EQ(o[17], unsigned(l == leader)) << "elect p t " << t;
      ASSERT_EQ(o[18], (1u << l) - 1u) << "lanemask_lt t " << t;
      ASSERT_EQ(o[19], ~0u << l) << "lanemask_ge t " << t;
    }
  }
}

// Named barrier with a thread count between warps 0 and 1, bar.arrive
// (warp 2) / bar.sync (warp 3) producer-consumer, bar.red over the block.
// Under pack warps 2 and 3 share a wave64 and take different branches; this
// completes only because the wave runs the producer's branch first (the
// structurised order of this kernel) — the general hazard -Wwarp-size
// reports for bar.arrive in pack kernels.
TEST_P(DevlibSemantics, NamedBarriersArriveAndBarRed) {
  const unsigned B = 2, T = 128, N = B * T;
  auto a = randomInputs(N, 13);
  for (auto &x : a) x &= 0x7fffffffu;
  a[5] = 12345u; // bar.red.or true in block 0 only
  for (unsigned t = 0; t < N; ++t)
    if (a[t] == 12345u && t != 5) a[t] = 1;
  uint64_t da = upload(a), dout = upload(std::vector<unsigned>(N * 6, kSentinel));
  launch("barriers", B, T, {&da, &dout});
  auto out = download(dout, N * 6);
  for (unsigned blk = 0; blk < B; ++blk) {
    unsigned popc = 0, allNonzero = 1, any12345 = 0;
    for (unsigned i = 0; i < T; ++i) {
      unsigned v = a[blk * T + i];
      popc += v & 1, allNonzero &= unsigned(v % 7 != 0), any12345 |= unsigned(v == 12345u);
    }
    for (unsigned tid = 0; tid < T; ++tid) {
      unsigned t = blk * T + tid, w = tid / 32;
      const unsigned *o = &out[t * 6];
      unsigned want0 = w < 2 ? a[blk * T + (tid ^ 32)] : w == 2 ? 0u : a[blk * T + tid - 32] * 3u;
      ASSERT_EQ(o[0], want0) << "named barrier / arrive, t " << t;
      ASSERT_EQ(o[1], popc) << "bar.red.popc t " << t;
      ASSERT_EQ(o[2], allNonzero) << "bar.red.and t " << t;
      ASSERT_EQ(o[3], any12345) << "bar.red.or t " << t;
      ASSERT_EQ(o[4], w) << "%warpid t " << t;
      ASSERT_EQ(o[5], T + 1000u * (tid & 31)) << "%ntid/%laneid t " << t;
    }
  }
}

TEST_P(DevlibSemantics, NamedBarrierUniform) {
  const unsigned B = 3, T = 128, N = B * T;
  auto a = randomInputs(N, 17);
  uint64_t da = upload(a), dout = upload(std::vector<unsigned>(N * 3, kSentinel));
  launch("named_uniform", B, T, {&da, &dout});
  auto out = download(dout, N * 3);
  for (unsigned t = 0; t < N; ++t) {
    unsigned base = t & ~127u, tid = t & 127u;
    for (unsigned r = 0; r < 3; ++r)
      ASSERT_EQ(out[t * 3 + r], a[base + 127 - tid] + r) << "t " << t << " round " << r;
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, DevlibSemantics,
                         ::testing::Values(Target{"gfx1100", amdgpulower::WarpPolicy::Pack, "gfx1100"},
                                           Target{"gfx90a", amdgpulower::WarpPolicy::Pack, "gfx90a_pack"},
                                           Target{"gfx90a", amdgpulower::WarpPolicy::Pad, "gfx90a_pad"},
                                           Target{"gfx942", amdgpulower::WarpPolicy::Pack, "gfx942_pack"}),
                         [](const auto &i) { return std::string(i.param.name); });

} // namespace

namespace {

// One wave64 module, two policies: `k_pad` under pad and `k_pack` under pack
// call the same device functions through a function-pointer table
// (Inputs/mixed_policy.cu). The pad kernel must reach the pad clones of the
// callees (pad %tid/%warpid/shuffles), the pack kernel the pack versions.
TEST(MixedWarpPolicy, IndirectCallsReachTheCallersPolicy) {
  emu::DeviceOptions o;
  o.threads = 2;
  o.maxWaveInstructions = 50'000'000;
  auto d = emu::Device::create(o);
  ASSERT_TRUE(bool(d)) << llvm::toString(d.takeError());
  auto buf = llvm::MemoryBuffer::getFile(std::string(PTXJIT_TEST_INPUTS) + "/mixed_policy.ptx");
  ASSERT_TRUE(bool(buf));
  for (const char *arch : {"gfx90a", "gfx942"}) {
    auto ctx = std::make_unique<llvm::LLVMContext>();
    amdgpulower::LowerOptions lo;
    lo.arch = arch;
    lo.defaultPolicy = amdgpulower::WarpPolicy::Pack;
    lo.kernelPolicy["_Z5k_padPKiPj"] = amdgpulower::WarpPolicy::Pad;
    lo.optLevel = 2;
    std::vector<amdgpulower::Diagnostic> diags;
    auto m = ptxjit::lowerPTX((*buf)->getBuffer(), "mixed_policy.ptx", *ctx, lo, diags);
    ASSERT_TRUE(bool(m)) << llvm::toString(m.takeError());
    auto mod = (*d)->loadModule(std::move(*m), std::move(ctx));
    ASSERT_TRUE(bool(mod)) << llvm::toString(mod.takeError());
    const unsigned B = 2, T = 128, N = B * T;
    std::vector<int> sel(T);
    for (unsigned t = 0; t < T; ++t) sel[t] = int((t / 32) & 1); // warps 0,2: geom; 1,3: rotate
    auto dsel = (*d)->malloc(T * 4), dout = (*d)->malloc(N * 4);
    ASSERT_TRUE(dsel && dout);
    ASSERT_FALSE(bool((*d)->copyToDevice(*dsel, sel.data(), T * 4)));
    for (const char *k : {"_Z5k_padPKiPj", "_Z6k_packPKiPj"}) {
      std::vector<unsigned> out(N, 0xdeadbeefu);
      ASSERT_FALSE(bool((*d)->copyToDevice(*dout, out.data(), N * 4)));
      emu::LaunchConfig c;
      c.grid = {B, 1, 1};
      c.block = {T, 1, 1};
      uint64_t a0 = *dsel, a1 = *dout;
      void *args[] = {&a0, &a1};
      llvm::Error e = (*d)->launch(**mod, k, c, args);
      ASSERT_FALSE(bool(e)) << arch << " " << k << ": " << llvm::toString(std::move(e));
      ASSERT_FALSE(bool((*d)->copyFromDevice(out.data(), *dout, N * 4)));
      unsigned x = std::string(k).find("k_pad") != std::string::npos ? 1u : 0u; // k_pad passes 1
      for (unsigned i = 0; i < N; ++i) {
        unsigned tid = i % T, lane = tid & 31, warp = tid / 32;
        unsigned want = sel[tid] == 0 ? (tid << 16) | (warp << 8) | (lane << 1) | x
                                      : x + (tid & ~31u) + ((lane + 1) & 31);
        ASSERT_EQ(out[i], want) << arch << " " << k << " thread " << i;
      }
    }
  }
}

} // namespace

//===- DeterminismTest.cpp - same input + options => same code-object bytes ---===//
//
// The on-disk cache (runtime/cache) stores code objects under a key of the
// input and the options; that is only sound when a translation is a pure
// function of them. This test compiles nvcc's PTX of two multi-kernel corpus
// programs (reduction, scan) for gfx90a under pack, pad and a mixed per-kernel
// policy, and for gfx1100, with 1 and 2 codegen threads, repeated, on
// different threads and after other translations have reshaped the heap, and
// requires byte-identical code objects. Two causes of differences were found
// and fixed in amdgpu-lower: the codegen split used `threads` parts (so -j
// changed the per-kernel partition and the linked layout), and kernels / pad
// clones were processed in heap-address order (std::map / SmallPtrSet keyed
// by Function*), which moves functions in the module whenever earlier
// allocations leave holes -- seen with pad, which re-creates every kernel.
//
//===----------------------------------------------------------------------===//
#include "ptxjit.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

std::string readFile(const std::string &p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// nvcc -ptx of a corpus program, made once per test binary run.
const std::string &corpusPtx(const std::string &name) {
  static std::map<std::string, std::string> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  std::string dir = ::testing::TempDir() + "ptx2amd-determinism";
  std::string mk = "mkdir -p '" + dir + "'";
  EXPECT_EQ(std::system(mk.c_str()), 0);
  std::string out = dir + "/" + name + ".ptx";
  std::string cmd = std::string("'") + PTX2AMD_NVCC + "' -arch=sm_90 -ptx '" + PTX2AMD_CORPUS + "/" + name +
                    ".cu' -o '" + out + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  return cache[name] = readFile(out);
}

struct Variant {
  const char *arch;
  ptxjit_warp_policy policy;
  const char *padKernel; // mixed policy: this kernel pad, the rest `policy`
};

std::vector<char> compile(const std::string &ptx, const Variant &v, unsigned threads) {
  ptxjit_context ctx;
  EXPECT_EQ(ptxjit_context_create(&ctx), PTXJIT_SUCCESS);
  ptxjit_context_set_cache_enabled(ctx, 0);
  ptxjit_options o;
  ptxjit_options_create(&o);
  ptxjit_options_add_arch(o, v.arch);
  ptxjit_options_set_warp_policy(o, v.policy);
  if (v.padKernel) ptxjit_options_set_kernel_warp_policy(o, v.padKernel, PTXJIT_WARP_POLICY_PAD);
  ptxjit_options_set_threads(o, threads);
  ptxjit_result r = nullptr;
  ptxjit_status s = ptxjit_compile(ctx, ptx.data(), ptx.size(), o, &r);
  std::vector<char> bytes;
  EXPECT_EQ(s, PTXJIT_SUCCESS);
  size_t n = 0;
  if (r)
    if (const void *d = ptxjit_result_data(r, &n)) bytes.assign((const char *)d, (const char *)d + n);
  if (r) ptxjit_result_destroy(r);
  ptxjit_options_destroy(o);
  ptxjit_context_destroy(ctx);
  return bytes;
}

// Leaves holes in the heap (what a long-running process with earlier
// translations looks like) so allocation order no longer follows creation order.
struct HeapHoles {
  std::vector<std::unique_ptr<char[]>> keep;
  HeapHoles() {
    std::vector<std::unique_ptr<char[]>> all;
    for (int i = 0; i < 4000; ++i) all.emplace_back(new char[48 + (i * 37) % 400]);
    for (size_t i = 0; i < all.size(); ++i)
      if (i % 3 == 0) keep.push_back(std::move(all[i]));
  }
};

void expectDeterministic(const std::string &program, const Variant &v) {
  const std::string &ptx = corpusPtx(program);
  ASSERT_FALSE(ptx.empty());
  std::vector<char> ref = compile(ptx, v, 1);
  ASSERT_FALSE(ref.empty());
  EXPECT_EQ(compile(ptx, v, 2), ref) << program << " " << v.arch << ": -j2 differs from -j1";
  EXPECT_EQ(compile(ptx, v, 1), ref) << program << " " << v.arch << ": repeated -j1 differs";
  {
    HeapHoles holes;
    EXPECT_EQ(compile(ptx, v, 2), ref) << program << " " << v.arch << ": differs after heap churn";
  }
  std::vector<char> other;
  std::thread t([&] { other = compile(ptx, v, 2); });
  t.join();
  EXPECT_EQ(other, ref) << program << " " << v.arch << ": differs on another thread";
}

TEST(CacheDeterminism, ReductionPack) { expectDeterministic("reduction", {"gfx90a", PTXJIT_WARP_POLICY_PACK, nullptr}); }
TEST(CacheDeterminism, ReductionPad) { expectDeterministic("reduction", {"gfx90a", PTXJIT_WARP_POLICY_PAD, nullptr}); }
TEST(CacheDeterminism, ReductionMixed) {
  expectDeterministic("reduction", {"gfx90a", PTXJIT_WARP_POLICY_PACK, "_Z5votesPKiiPj"});
}
TEST(CacheDeterminism, ReductionWave32) { expectDeterministic("reduction", {"gfx1100", PTXJIT_WARP_POLICY_PACK, nullptr}); }
TEST(CacheDeterminism, ScanPack) { expectDeterministic("scan", {"gfx90a", PTXJIT_WARP_POLICY_PACK, nullptr}); }
TEST(CacheDeterminism, ScanPad) { expectDeterministic("scan", {"gfx90a", PTXJIT_WARP_POLICY_PAD, nullptr}); }

} // namespace

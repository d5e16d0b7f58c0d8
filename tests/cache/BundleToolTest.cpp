//===- BundleToolTest.cpp - ptx2amd-fatbin bundles found by the runtime lookup -===//
//
// End to end on real nvcc output: an executable built by nvcc with PTX only
// (compute_90), converted by `ptx2amd-fatbin EXE -o EXE.bundle` for gfx90a
// and gfx1100. The runtime's lookup (runtime/BundleLookup.h), given the key
// the runtime computes for the PTX it extracted from the executable, must
// return exactly the code object a direct translation of that PTX gives
// (translation is deterministic), for each target; a different policy or a
// rebuilt program (other PTX) must not match, so the runtime JITs instead.
//
//===----------------------------------------------------------------------===//
#include "fatbin/Fatbin.h"
#include "ptxjit.h"
#include "runtime/BundleLookup.h"
#include "runtime/CacheOptions.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

using namespace runtime;

namespace {

std::vector<uint8_t> translate(const std::string &Ptx, const char *Arch, ptxjit_warp_policy P) {
  ptxjit_context C;
  ptxjit_context_create(&C);
  ptxjit_options O;
  ptxjit_options_create(&O);
  ptxjit_options_add_arch(O, Arch);
  ptxjit_options_set_warp_policy(O, P);
  ptxjit_result R = nullptr;
  EXPECT_EQ(ptxjit_compile(C, Ptx.data(), Ptx.size(), O, &R), PTXJIT_SUCCESS);
  size_t N = 0;
  const void *D = R ? ptxjit_result_data(R, &N) : nullptr;
  std::vector<uint8_t> Out;
  if (D) Out.assign((const uint8_t *)D, (const uint8_t *)D + N);
  if (R) ptxjit_result_destroy(R);
  ptxjit_options_destroy(O);
  ptxjit_context_destroy(C);
  return Out;
}

CacheKey keyFor(const std::string &Ptx, const std::string &Arch, amdgpulower::WarpPolicy P) {
  amdgpulower::LowerOptions O;
  O.arch = Arch;
  O.defaultPolicy = P;
  return makeCacheKey(Ptx, Arch, optionsFingerprint(O));
}

TEST(CacheBundleTool, FatbinOutputFoundBeforeJit) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("ptx2amd-bundle-tool", Dir));
  std::string D = Dir.str().str();
  {
    std::ofstream F(D + "/k.cu");
    F << "__global__ void scale(float *p, float s, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;"
         " if (i < n) p[i] *= s; }\n"
         "__global__ void add(float *p, const float *q, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x;"
         " if (i < n) p[i] += q[i]; }\nint main() { return 0; }\n";
  }
  std::string Exe = D + "/prog";
  std::string Cmd = std::string("'") + PTX2AMD_NVCC + "' -cudart shared -gencode arch=compute_90,code=compute_90 -o '" +
                    Exe + "' '" + D + "/k.cu'";
  ASSERT_EQ(std::system(Cmd.c_str()), 0) << Cmd;
  Cmd = std::string("'") + PTX2AMD_FATBIN_TOOL + "' '" + Exe + "' -o '" + Exe +
        ".bundle' --offload-arch=gfx90a --offload-arch=gfx1100 > /dev/null";
  ASSERT_EQ(std::system(Cmd.c_str()), 0) << Cmd;

  // The runtime's view: the PTX registered by the executable.
  auto Buf = llvm::MemoryBuffer::getFile(Exe, false, false);
  ASSERT_TRUE(bool(Buf));
  auto Mods = ptxfatbin::ptxFromFile(
      llvm::ArrayRef<uint8_t>((const uint8_t *)(*Buf)->getBufferStart(), (*Buf)->getBufferSize()), 90);
  ASSERT_TRUE(bool(Mods));
  ASSERT_EQ(Mods->size(), 1u);
  const std::string &Ptx = (*Mods)[0].text;
  for (const char *Arch : {"gfx90a", "gfx1100"}) {
    auto Found = findBundledCodeObject(Exe, Arch, keyFor(Ptx, Arch, amdgpulower::WarpPolicy::Pack));
    ASSERT_TRUE(Found) << Arch;
    EXPECT_EQ(Found->Path, Exe + ".bundle");
    EXPECT_EQ(Found->Bytes, translate(Ptx, Arch, PTXJIT_WARP_POLICY_PACK)) << Arch << ": not the JIT's bytes";
  }
  EXPECT_FALSE(findBundledCodeObject(Exe, "gfx90a", keyFor(Ptx, "gfx90a", amdgpulower::WarpPolicy::Pad)))
      << "made with pack: a pad runtime must translate";
  EXPECT_FALSE(findBundledCodeObject(Exe, "gfx942", keyFor(Ptx, "gfx942", amdgpulower::WarpPolicy::Pack)));
  EXPECT_FALSE(findBundledCodeObject(Exe, "gfx90a", keyFor(Ptx + "\n", "gfx90a", amdgpulower::WarpPolicy::Pack)))
      << "rebuilt program: stale bundle not used";
  llvm::sys::fs::remove_directories(D);
}

} // namespace

//===- Target.cpp - targets the virtual GPU can present -------------------===//
#include "Target.h"
#include "Log.h"

#include <cstring>

namespace vgpu {

static const Target Gfx90a = {
    "gfx90a", 90010, 0x740f, /*CUs*/ 8, /*SIMD/CU*/ 4, /*wave*/ 64, /*waves/SIMD*/ 8,
    /*VRAM*/ 4ull << 30, /*gpu_id*/ 0x5a1d, /*render minor*/ 128,
};

const Target *selectTarget() {
  const char *N = getenv("VGPU_TARGET");
  if (!N || !*N || !strcmp(N, "gfx90a")) return &Gfx90a;
  if (!strcmp(N, "gfx1100"))
    report("VGPU_TARGET=gfx1100 is not offered: Debian's ROCr 5.2.3 has no gfx11 entry in its ISA "
           "registry (isa.cpp ends at gfx1035) and no gfx11 blit kernels; use gfx90a");
  else
    report("VGPU_TARGET=%s is not a target the virtual GPU presents (gfx90a)", N);
  return nullptr;
}

} // namespace vgpu

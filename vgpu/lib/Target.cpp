//===- Target.cpp - targets the virtual GPU can present -------------------===//
#include "Target.h"
#include "Log.h"

#include <cstring>

namespace vgpu {

static const Target Gfx90a = {
    "gfx90a", 90010, 0x740f, /*CUs*/ 8, /*SIMD/CU*/ 4, /*wave*/ 64, /*waves/SIMD*/ 8,
    /*VRAM*/ 4ull << 30, /*gpu_id*/ 0x5a1d, /*render minor*/ 128,
};

// A Navi 31-class gfx1100 (device id 0x744c: Radeon RX 7900 XTX): 8 CUs x 2 SIMD32, wave32.
// Presented as completely as gfx90a (topology, every ioctl, the executor runs gfx1100 code), but
// Debian's ROCm 5.2.3 cannot use it: libhsakmt enumerates the node (EngineId 11.0.0), then ROCr's
// GpuAgent constructor finds no IsaRegistry entry for 11.0.0 (isa.cpp ends at gfx1035), throws
// HSA_STATUS_ERROR_INVALID_ISA and DiscoverGpu drops the node, so no GPU agent exists
// (tests/vgpu/gfx1100_probe.cpp, vgpu.gfx1100_probe / vgpu.rocminfo_gfx1100 show it).
static const Target Gfx1100 = {
    "gfx1100", 110000, 0x744c, /*CUs*/ 8, /*SIMD/CU*/ 2, /*wave*/ 32, /*waves/SIMD*/ 16,
    /*VRAM*/ 4ull << 30, /*gpu_id*/ 0x1100, /*render minor*/ 128,
};

const Target *selectTarget() {
  const char *N = getenv("VGPU_TARGET");
  if (!N || !*N || !strcmp(N, "gfx90a")) return &Gfx90a;
  if (!strcmp(N, "gfx1100")) {
    report("VGPU_TARGET=gfx1100: presenting a gfx1100 node; Debian's ROCr 5.2.3 has no gfx11 entry in its "
           "ISA registry (src/core/runtime/isa.cpp ends at gfx1035) and drops the node, so no GPU agent "
           "will exist");
    return &Gfx1100;
  }
  report("VGPU_TARGET=%s is not a target the virtual GPU presents (gfx90a; gfx1100 only to show ROCr 5.2.3 "
         "dropping it)",
         N);
  return nullptr;
}

} // namespace vgpu

//===- Target.h - the virtual GPU's identity --------------------*- C++ -*-===//
//
// What the virtual agent reports: gfx version (as the KFD's
// gfx_target_version), geometry (CUs, SIMDs, wave size), memory size and the
// ids the thunk and ROCr key on. gfx90a is the usable target; gfx1100 is
// presented too, but Debian's ROCr 5.2.3 ISA registry (src/core/runtime/isa.cpp)
// ends at gfx1035, so ROCr drops that node and no GPU agent exists
// (docs/notes/session7-vgpu.md has the code path and the probe's output).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>

namespace vgpu {

struct Target {
  std::string name;             ///< "gfx90a"
  uint32_t gfxTargetVersion;    ///< KFD encoding major*10000 + minor*100 + stepping
  uint32_t deviceId;            ///< PCI device id (0x740f: Instinct MI210)
  uint32_t computeUnits;
  uint32_t simdPerCu;
  uint32_t waveSize;
  uint32_t maxWavesPerSimd;
  uint64_t localMemBytes;       ///< device-local ("VRAM") pool size
  uint32_t gpuId;               ///< KFD gpu_id of the node
  uint32_t drmRenderMinor;      ///< /dev/dri/renderD<minor>
};

/// The target selected by VGPU_TARGET (default gfx90a); nullptr with a
/// message on stderr when the name is not one the 5.2 stack can run.
const Target *selectTarget();

} // namespace vgpu

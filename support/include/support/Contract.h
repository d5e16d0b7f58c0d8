//===- support/Contract.h - names and rules the stages agree on ---*- C++ -*-===//
//
// Everything two stages must spell the same way lives here, once:
//  * the warp policies (native / pack / pad) and the one parser of policy
//    specs (`pad`, `KERNEL=pack`, `pad,KERNEL=pack,...`) used by every tool,
//    libptxjit and the runtime;
//  * the AMDGPU processors ptx2amd compiles for, the wave-size rule (gfx6-9:
//    wave64, gfx10+: wave32) and the default target;
//  * function attributes, metadata kinds and global names written by one
//    stage and read by another (docs/pipeline.md);
//  * CUDA / pad work-group limits.
// Address spaces come from llvm::AMDGPUAS (llvm/Support/AMDGPUAddrSpace.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/DevlibNames.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace support {

// ---- Warp policies -------------------------------------------------------------
// wave32: one CUDA warp per wave (Native). wave64: two warps per wave (Pack)
// or one warp per wave with 32 idle lanes (Pad).
enum class WarpPolicy : uint8_t { Native, Pack, Pad };
std::string_view warpPolicyName(WarpPolicy p); // "native" | "pack" | "pad"
// "pack" or "pad" (the policies a user can ask for); nullopt otherwise.
std::optional<WarpPolicy> parseWarpPolicyName(std::string_view s);

// A parsed policy spec: the module default (when given) and per-kernel entries.
struct WarpPolicySpec {
  std::optional<WarpPolicy> module;
  std::vector<std::pair<std::string, WarpPolicy>> kernels; // in spec order; later entries win
};
// Parses a comma-separated list of `pack|pad` and `KERNEL=pack|pad` items
// into `into` (appending; a later module item replaces an earlier one). The
// kernel name is everything before the last '=' (mangled names hold no '=').
// Errors are support::InvalidInputError naming the bad item (field
// `optionName`, e.g. "--warp-policy" or "PTX2AMD_WARP_POLICY").
llvm::Error parseWarpPolicySpec(std::string_view spec, WarpPolicySpec &into,
                                std::string_view optionName = "--warp-policy");

// ---- Targets -------------------------------------------------------------------
// Major version of an AMDGPU processor name: 9 for "gfx90a" and
// "gfx9-4-generic", 11 for "gfx1100" and "gfx11-generic"; 0 when `name` is
// not a gfx processor name. Generic targets ("9-4-generic", "11-generic") name
// it before the first '-'; specific ones append two version characters.
constexpr unsigned gfxMajorOf(std::string_view name) {
  if (name.substr(0, 3) != "gfx") return 0;
  std::string_view v = name.substr(3);
  size_t dash = v.find('-');
  std::string_view major = dash != std::string_view::npos ? v.substr(0, dash)
                           : v.size() > 2                 ? v.substr(0, v.size() - 2)
                                                          : std::string_view{};
  if (major.empty()) return 0;
  unsigned n = 0;
  for (char c : major) {
    if (c < '0' || c > '9') return 0;
    n = n * 10 + unsigned(c - '0');
  }
  return n;
}
// The wave-size rule: GCN/CDNA (gfx6..gfx9) have only wave64; RDNA (gfx10+)
// run wave32, the CUDA warp width. 0 when `name` is not a gfx processor name.
constexpr unsigned waveSizeOf(std::string_view name) {
  unsigned major = gfxMajorOf(name);
  return major == 0 ? 0 : major >= 10 ? 32 : 64;
}

struct TargetInfo {
  std::string_view name; // "gfx90a", "gfx11-generic" (NUL-terminated literal)
  unsigned waveSize;     // 32 or 64: waveSizeOf(name)
  bool generic;          // LLVM generic target (requires code object v6)
};
llvm::ArrayRef<TargetInfo> supportedTargets();
const TargetInfo *findTarget(std::string_view name);
// The target when none is given (tools, runtime): an RDNA3 part, wave32.
inline constexpr std::string_view kDefaultTarget = "gfx1100";
// "gfx900, gfx906, ..." for error messages.
std::string supportedTargetList();

// ---- Work-group limits ---------------------------------------------------------
inline constexpr unsigned kWarpSize = 32;               // CUDA warp
inline constexpr unsigned kMaxBlockThreads = 1024;      // CUDA threads per block
inline constexpr unsigned kMaxWorkGroupSize = 1024;     // AMDGPU work-items per work-group
// Under pad every 32 CUDA threads take a 64-lane wave, so a block holds at
// most kMaxWorkGroupSize / 2 CUDA threads.
inline constexpr unsigned kPadMaxBlockThreads = kMaxWorkGroupSize * kWarpSize / 64;
// Hardware work-items of a block of `threads` CUDA threads under `p` (wave64 pad: 64 per warp).
constexpr uint64_t workItemsFor(uint64_t threads, WarpPolicy p) {
  return p == WarpPolicy::Pad ? 64 * ((threads + kWarpSize - 1) / kWarpSize) : threads;
}

// ---- Names shared between stages -------------------------------------------------
namespace attr {
// Written by ptx-to-llvm from the PTX performance directives ("x,y,z" / "n").
inline constexpr const char *kMaxntid = "ptx.maxntid";
inline constexpr const char *kReqntid = "ptx.reqntid";
inline constexpr const char *kMinnctapersm = "ptx.minnctapersm";
inline constexpr const char *kMaxnreg = "ptx.maxnreg";
inline constexpr const char *kKernel = "ptx.kernel"; // the function was a PTX .entry
inline constexpr const char *kLoc = "ptx.loc";       // "line:col" of the PTX .entry/.func (backend diagnostics)
// Written by amdgpu-lower on each kernel for launchers (emu, runtime).
inline constexpr const char *kWaveSize = "ptx2amd.wave-size";     // "32" | "64"
inline constexpr const char *kWarpPolicy = "ptx2amd.warp-policy"; // warpPolicyName()
} // namespace attr

namespace md {
inline constexpr const char *kLoc = "ptx.loc";       // !{line, col} of the PTX instruction
inline constexpr const char *kSrcLoc = "ptx.srcloc"; // .loc source position (file, line, col)
} // namespace md

namespace global {
// The devlib-defined globals come from support/DevlibNames.h (shared with the C sources).
inline constexpr std::string_view kDevlibPrefix = "__ptx_";      // device-library interface
inline constexpr std::string_view kInternalPrefix = "__ptx2amd_"; // device-library internals
inline constexpr const char *kEnvReg = PTX2AMD_NAME_STRING(PTX2AMD_ENVREG);  // %envreg0..31, 128 bytes
inline constexpr const char *kBlockDim = "__ptx2amd_block_dim";         // pad wrapper's CUDA block size
inline constexpr const char *kPrintfBuffer = PTX2AMD_NAME_STRING(PTX2AMD_PRINTF_BUFFER); // vprintf buffer pointer
inline constexpr const char *kHeap = PTX2AMD_NAME_STRING(PTX2AMD_HEAP);    // device malloc heap pointer
inline constexpr const char *kBarrierInit = PTX2AMD_NAME_STRING(PTX2AMD_BARRIER_INIT); // software barrier state init
inline constexpr const char *kPadSuffix = ".ptx2amd.pad";               // pad clones of devlib functions
} // namespace global

// The device printf FIFO (__ptx2amd_printf_buffer -> { u64 capacity; u64 used;
// u8 data[capacity] }, written by amdgpu-lower/devlib/runtime.c): records of
// { u32 record bytes (8-aligned); u32 format bytes incl. NUL | flags; format
// padded to 8; argument buffer }.
namespace printfrec {
inline constexpr uint32_t kHeaderBytes = 16;         // capacity, used
inline constexpr uint32_t kAssertFlag = 0x80000000u; // the record of a failed assertion (__assertfail)
inline constexpr uint32_t kLengthMask = 0x7fffffffu; // format bytes in the second word
} // namespace printfrec

} // namespace support

//===- runtime/Launch.h - launch configuration and the kernarg builder -*- C++ -*-===//
//
// The one place that turns a CUDA launch into what a device consumes: checks
// the configuration against the device and the kernel's own policy limits
// (block size under the warp policy, shared memory, cooperative
// co-residency), and builds the kernarg segment: explicit arguments at the
// kernel's .param layout (from `void **` as cudaLaunchKernel passes them, or
// from a packed buffer as cuLaunchKernel's `extra` does), the pad policy's
// block-dim argument, then the code-object-v5 hidden block (block counts,
// group sizes, remainders, grid dims, dynamic LDS size), as HIP fills it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Backend.h"

namespace runtime {

struct LaunchConfig {
  Dim3 grid, block;
  uint32_t dynamicSharedBytes = 0;
  bool cooperative = false;
};

// COV5 hidden-argument offsets (relative to Kernarg::hiddenOffset).
namespace hidden {
inline constexpr unsigned BlockCountX = 0, BlockCountY = 4, BlockCountZ = 8;
inline constexpr unsigned GroupSizeX = 12, GroupSizeY = 14, GroupSizeZ = 16;
inline constexpr unsigned RemainderX = 18, RemainderY = 20, RemainderZ = 22;
inline constexpr unsigned GlobalOffsetX = 40, GlobalOffsetY = 48, GlobalOffsetZ = 56;
inline constexpr unsigned GridDims = 64;
inline constexpr unsigned DynamicLdsSize = 120;
inline constexpr unsigned PrivateBase = 192, SharedBase = 196;
inline constexpr unsigned Bytes = 256;
} // namespace hidden

class KernargBuilder {
public:
  // Args: one pointer per explicit argument (CUDA's kernelParams).
  static llvm::Expected<Kernarg> fromPointers(const KernelProperties &K, const LaunchConfig &C, void **Args);
  // Packed: the explicit arguments already laid out (cuLaunchKernel `extra`).
  static llvm::Expected<Kernarg> fromBuffer(const KernelProperties &K, const LaunchConfig &C,
                                            llvm::ArrayRef<uint8_t> Packed);
};

// Blocks of kernel K (block size and dynamic LDS of C) one CU holds at once.
unsigned residentBlocksPerCU(const DeviceProperties &D, const KernelProperties &K, uint64_t BlockThreads,
                             uint64_t DynamicShared);
// InvalidValue (any geometry, policy or shared-memory limit, as CUDA 13 says) /
// CooperativeLaunchTooLarge, NotSupported
// (a dynamic stack of StackBytes per thread beyond the kernel's maxStackBytes),
// or success.
llvm::Error checkLaunch(const DeviceProperties &D, const KernelProperties &K, const LaunchConfig &C,
                        uint64_t StackBytes = 0);

} // namespace runtime

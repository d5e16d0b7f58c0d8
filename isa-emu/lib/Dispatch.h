//===- Dispatch.h - AQL packet, kernarg segment, initial wave state -*- C++ -*-===//
#pragma once

#include "Image.h"

#include <algorithm>
#include <functional>
#include <vector>

namespace isaemu::detail {

struct DispatchMemory {
  std::function<llvm::Expected<uint64_t>(uint64_t)> alloc;
  std::function<uint8_t *(uint64_t, uint64_t)> host;
  std::function<void(uint64_t)> release;
};

struct DispatchLayout {
  uint64_t scratchBase = 0;   ///< device address of the queue's scratch backing
  uint64_t scratchPerSlot = 0; ///< bytes per scratch slot (one workgroup's waves)
  uint32_t privPerLane = 0;
  uint32_t ldsBytes = 0;
  unsigned wavesPerGroup = 0;
  /// What the layout allocated for this launch alone (kernarg segment, queue,
  /// packet, scratch): the device frees them when the launch ends.
  std::vector<uint64_t> allocations;
};

/// Work-items of the grid per dimension (LaunchConfig::gridWorkItems, or grid * block).
inline Dim3 gridItems(const LaunchConfig &C) {
  if (C.gridWorkItems.x == 0 && C.gridWorkItems.y == 0 && C.gridWorkItems.z == 0)
    return {C.grid.x * C.block.x, C.grid.y * C.block.y, C.grid.z * C.block.z};
  return C.gridWorkItems;
}
/// Work-items of workgroup \p Id per dimension: the block, or in the last workgroup of a
/// dimension whose grid is not a multiple of the block, the remainder (HSA AQL: "partial
/// work-groups"; AMDGPUUsage hidden_remainder_x/y/z).
inline Dim3 groupExtent(const LaunchConfig &C, const uint32_t Id[3]) {
  Dim3 G = gridItems(C);
  auto ext = [](uint32_t Grid, uint32_t Block, uint32_t I) {
    uint64_t First = uint64_t(I) * Block;
    return uint32_t(std::min<uint64_t>(Block, Grid > First ? Grid - First : 0));
  };
  return {ext(G.x, C.block.x, Id[0]), ext(G.y, C.block.y, Id[1]), ext(G.z, C.block.z, Id[2])};
}
/// An error unless gridWorkItems is unset or fits grid/block (see LaunchConfig).
llvm::Error checkGridItems(const LaunchConfig &C);

/// Kernarg segment, dispatch packet, queue and scratch for a launch (fills
/// LS.dispatchPtr/kernargPtr/queuePtr); \p Slots scratch regions of one
/// workgroup each. On failure nothing stays allocated.
llvm::Expected<DispatchLayout> buildDispatch(LaunchState &LS, const DispatchMemory &M, void **Args,
                                             unsigned Slots);
/// Process-memory mode: the layout of an AQL packet the runtime already wrote
/// (kernarg, packet, queue in memory); allocates only the scratch backing.
llvm::Expected<DispatchLayout> layoutPacketDispatch(LaunchState &LS, const DispatchMemory &M,
                                                    const PacketDispatch &D, unsigned Slots);
/// Sets up workgroup \p Id's LDS and waves in the initial kernel execution
/// state; \p Slot is the host worker (the compute unit HW_ID reports),
/// \p ScratchSlot the region of the scratch backing its waves use.
void initWorkgroup(LaunchState &LS, const DispatchLayout &L, Workgroup &WG, const uint32_t Id[3],
                   unsigned Slot, unsigned ScratchSlot);

} // namespace isaemu::detail

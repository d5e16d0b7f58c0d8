//===- Dispatch.h - AQL packet, kernarg segment, initial wave state -*- C++ -*-===//
#pragma once

#include "Image.h"

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

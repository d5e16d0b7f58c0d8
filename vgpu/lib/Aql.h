//===- Aql.h - AQL packet and AMD signal layouts ----------------*- C++ -*-===//
//
// The 64-byte HSA AQL packets (HSA Platform System Architecture spec 1.2,
// hsa.h) and ROCr's amd_signal_t (amd_hsa_signal.h: kind, value,
// event_mailbox_ptr, event_id, start/end timestamps, queue pointer), as the
// command processor reads and writes them in process memory.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace vgpu::aql {

enum PacketType : uint8_t {
  VendorSpecific = 0,
  Invalid = 1,
  KernelDispatch = 2,
  BarrierAnd = 3,
  AgentDispatch = 4,
  BarrierOr = 5,
};
constexpr unsigned HeaderTypeMask = 0xff;

struct KernelDispatchPacket {
  uint16_t header, setup;
  uint16_t workgroupSize[3];
  uint16_t reserved0;
  uint32_t gridSize[3];
  uint32_t privateSegmentSize, groupSegmentSize;
  uint64_t kernelObject, kernargAddress, reserved2, completionSignal;
};
static_assert(sizeof(KernelDispatchPacket) == 64);

struct BarrierPacket {
  uint16_t header, reserved0;
  uint32_t reserved1;
  uint64_t depSignal[5];
  uint64_t reserved2, completionSignal;
};
static_assert(sizeof(BarrierPacket) == 64);

struct AmdSignal {
  int64_t kind;
  int64_t value;
  uint64_t eventMailboxPtr;
  uint32_t eventId, reserved1;
  uint64_t startTs, endTs;
  uint64_t queuePtr;
  uint32_t reserved3[2];
};
static_assert(sizeof(AmdSignal) == 64);

} // namespace vgpu::aql

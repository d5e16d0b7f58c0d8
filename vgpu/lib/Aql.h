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

/// AMD vendor-specific packet (type VENDOR_SPECIFIC, hsa_ext_amd.h): byte 2 is AmdFormat.
enum AmdFormat : uint8_t { AmdPm4Ib = 1, AmdBarrierValue = 2 };

/// ROCr's AMD_AQL_FORMAT_PM4_IB packet (amd_aql_queue.cpp ExecutePM4, gfx9+):
/// a PM4 INDIRECT_BUFFER command that jumps to a command buffer in memory.
struct Pm4IbPacket {
  uint16_t header;
  uint16_t venHdr; ///< AmdFormat in the low byte
  uint32_t ibJump[4];
  uint32_t dwCntRemain;
  uint32_t reserved[8];
  uint64_t completionSignal;
};
static_assert(sizeof(Pm4IbPacket) == 64);

/// PM4 type-3 packet header fields and the opcodes ROCr 5.2 submits (amd_gpu_pm4.h).
inline unsigned pm4Type(uint32_t H) { return H >> 30; }
inline unsigned pm4Opcode(uint32_t H) { return (H >> 8) & 0xff; }
inline unsigned pm4Dwords(uint32_t H) { return ((H >> 16) & 0x3fff) + 2; }
enum Pm4Opcode : unsigned { Pm4Nop = 0x10, Pm4IndirectBuffer = 0x3f, Pm4ReleaseMem = 0x49, Pm4AcquireMem = 0x58 };

struct BarrierValuePacket {
  uint16_t header;
  uint8_t amdFormat, reserved;
  uint32_t reserved0;
  uint64_t signal;
  int64_t value, mask;
  uint32_t cond; ///< hsa_signal_condition_t: EQ 0, NE 1, LT 2, GTE 3
  uint32_t reserved1;
  uint64_t reserved2, reserved3, completionSignal;
};
static_assert(sizeof(BarrierValuePacket) == 64);

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

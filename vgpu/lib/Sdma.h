//===- Sdma.h - the SDMA (system DMA) packets ROCr 5.2 submits --*- C++ -*-===//
//
// The byte ring of an SDMA queue holds packets of 32-bit words; the low byte
// of the first word is the opcode, the next byte the sub-opcode. These are
// the packets of ROCr 5.2.3's BlitSdma for gfx9 (src/core/runtime/
// amd_blit_sdma.cpp, layouts in src/core/inc/sdma_registers.h; the same
// packets as the Linux amdgpu driver's SDMA 4.x): linear and rectangular
// copies, a constant fill, fences, memory polls (dependency waits, and a
// register poll that stands for the HDP flush), a 64-bit atomic add (the
// completion signal's decrement), global timestamps and the trap that raises
// the completion signal's interrupt (its context is the KFD event id). The
// ring index is in bytes; on gfx9 it is a monotonic 64-bit count and copy
// and fill counts are stored minus one.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace vgpu::sdma {

enum Opcode : unsigned {
  OpNop = 0,
  OpCopy = 1,
  OpFence = 5,
  OpTrap = 6,
  OpPollRegMem = 8,
  OpAtomic = 10,
  OpConstFill = 11,
  OpTimestamp = 13,
  OpGcr = 17,
};
enum CopySubOp : unsigned { CopyLinear = 0, CopyLinearRect = 4 };
enum TimestampSubOp : unsigned { TimestampGetGlobal = 2 };
constexpr unsigned AtomicAdd64 = 47; ///< ATOMIC operation field

/// Packet lengths in 32-bit words (the NOP's is 1 + its count field).
constexpr unsigned CopyLinearWords = 7, CopyRectWords = 13, FenceWords = 4, TrapWords = 2, PollWords = 6,
                   AtomicWords = 8, ConstFillWords = 5, TimestampWords = 3;

inline unsigned opcode(uint32_t H) { return H & 0xff; }
inline unsigned subOpcode(uint32_t H) { return (H >> 8) & 0xff; }
inline unsigned nopCount(uint32_t H) { return (H >> 16) & 0x3fff; }
inline uint64_t addr64(uint32_t Lo, uint32_t Hi) { return (uint64_t(Hi) << 32) | Lo; }

// COPY_LINEAR: w1 count (22 bits, bytes - 1), w3/w4 source, w5/w6 destination.
inline uint64_t copyLinearBytes(const uint32_t *W) { return uint64_t(W[1] & 0x3fffff) + 1; }

// COPY_LINEAR_RECT: w0 bits 29-31 log2 of the element size; per side: address (dword aligned),
// x/y offsets (14 bits each), z offset (11) + pitch (19, elements - 1), slice pitch (28, elements - 1);
// w11 rect x / y (14 bits each, count - 1), w12 rect z (11 bits, count - 1).
struct RectSide {
  uint64_t base;
  uint32_t x, y, z;
  uint64_t pitch, slice; ///< in elements
};
inline RectSide rectSide(const uint32_t *W) { // W: the side's first word (source w1, destination w6)
  return {addr64(W[0], W[1]), W[2] & 0x3fff, (W[2] >> 16) & 0x3fff, W[3] & 0x7ff, uint64_t(W[3] >> 13) + 1,
          uint64_t(W[4] & 0xfffffff) + 1};
}

// POLL_REGMEM: w0 bit 26 HDP flush, bits 28-30 compare function, bit 31 memory (else register);
// w1/w2 address, w3 reference, w4 mask, w5 interval (16 bits) + retry count (12 bits, 0xfff: forever).
inline bool pollIsMemory(uint32_t H) { return (H >> 31) & 1; }
inline bool pollHdpFlush(uint32_t H) { return (H >> 26) & 1; }
inline unsigned pollFunction(uint32_t H) { return (H >> 28) & 7; }
/// The compare functions: always, <, <=, ==, !=, >=, >.
inline bool pollSatisfied(unsigned F, uint32_t V, uint32_t Ref) {
  switch (F) {
  case 0: return true;
  case 1: return V < Ref;
  case 2: return V <= Ref;
  case 3: return V == Ref;
  case 4: return V != Ref;
  case 5: return V >= Ref;
  case 6: return V > Ref;
  }
  return false;
}

// ATOMIC: w0 bits 25-31 operation; w1/w2 address, w3/w4 source data, w5/w6 compare data, w7 loop interval.
inline unsigned atomicOperation(uint32_t H) { return H >> 25; }

// CONST_FILL: w0 bits 30-31 fill size (2: dwords); w1/w2 destination, w3 data, w4 count (22 bits, bytes - 1).
inline unsigned fillSize(uint32_t H) { return H >> 30; }

} // namespace vgpu::sdma

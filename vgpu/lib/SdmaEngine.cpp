//===- SdmaEngine.cpp - executes an SDMA ring's packets -------------------===//
//
// The loop: the read index R (bytes, monotonic; *readPtr) and the doorbell
// (the write index the runtime last published; all-ones: never rung). While
// R is behind it, the packet at ring offset R mod size runs and R advances
// by its length (ROCr never lets a packet straddle the ring's end: it pads
// to the end with zero words, each a one-word NOP). Copies go through
// Kfd::translate, in one piece when both ranges lie inside one buffer object,
// else page by page (a staging copy may cross from one BO into the next).
//
//===----------------------------------------------------------------------===//
#include "SdmaEngine.h"
#include "Kfd.h"
#include "Log.h"
#include "Sdma.h"

#include <algorithm>
#include <cstring>

namespace vgpu {

using namespace sdma;

namespace {
const char *opName(unsigned Op) {
  switch (Op) {
  case OpNop: return "NOP";
  case OpCopy: return "COPY";
  case OpFence: return "FENCE";
  case OpTrap: return "TRAP";
  case OpPollRegMem: return "POLL_REGMEM";
  case OpAtomic: return "ATOMIC";
  case OpConstFill: return "CONST_FILL";
  case OpTimestamp: return "TIMESTAMP";
  case OpGcr: return "GCR";
  }
  return "(unknown)";
}
} // namespace

SdmaEngine::SdmaEngine(Kfd &K, const QueueDesc &D) : K(K), D(D) {
  Thread = std::thread([this] { run(); });
}

SdmaEngine::~SdmaEngine() {
  Stop.store(true);
  if (Thread.joinable()) Thread.join();
}

std::string SdmaEngine::describe() const {
  uint64_t R = __atomic_load_n(reinterpret_cast<uint64_t *>(D.readPtr), __ATOMIC_ACQUIRE);
  volatile uint64_t *Bell = K.doorbell(D.doorbellOffset);
  uint64_t Rung = Bell ? *Bell : ~0ull;
  uint32_t H = 0;
  memcpy(&H, reinterpret_cast<const void *>(D.ringBase + (R & (D.ringBytes - 1))), 4);
  return "SDMA, read index " + std::to_string(R) + " bytes, doorbell " +
         (Rung == ~0ull ? std::string("never rung") : std::to_string(Rung)) + ", packet at read index: " +
         opName(opcode(H));
}

void SdmaEngine::run() {
  IdleBackoff Idle;
  volatile uint64_t *Bell = K.doorbell(D.doorbellOffset);
  auto *Read = reinterpret_cast<uint64_t *>(D.readPtr);
  while (!Stop.load(std::memory_order_relaxed)) {
    uint64_t R = __atomic_load_n(Read, __ATOMIC_ACQUIRE);
    uint64_t W = __atomic_load_n(Bell, __ATOMIC_ACQUIRE);
    if (W == ~0ull || R >= W) {
      Idle.pause();
      continue;
    }
    Idle.reset();
    beginPacket();
    uint64_t N = execute(R);
    endPacket();
    if (N == 0) {
      report("SDMA queue %u: stopping at ring byte %llu; the process ends (a GPU queue error)", D.id,
             (unsigned long long)R);
      fflush(stderr);
      _exit(70);
    }
    __atomic_store_n(Read, R + N, __ATOMIC_RELEASE);
  }
}

uint8_t *SdmaEngine::word(uint64_t Va, unsigned Bytes, const char *What, uint64_t Index) {
  uint8_t *P = K.translate(Va, Bytes);
  if (!P)
    report("SDMA queue %u: %s at 0x%llx (packet at ring byte %llu) is not GPU memory (an SDMA page fault)", D.id,
           What, (unsigned long long)Va, (unsigned long long)Index);
  return P;
}

uint64_t SdmaEngine::execute(uint64_t Index) {
  const uint64_t Off = Index & (D.ringBytes - 1);
  const auto *W = reinterpret_cast<const uint32_t *>(D.ringBase + Off);
  const uint32_t H = W[0];
  const unsigned Op = opcode(H), Sub = subOpcode(H);
  auto Fits = [&](unsigned Words) {
    if (Off + Words * 4 <= D.ringBytes) return true;
    report("SDMA queue %u: %s packet at ring byte %llu crosses the end of the ring", D.id, opName(Op),
           (unsigned long long)Index);
    return false;
  };
  VGPU_TRACE("SDMA queue %u: ring byte %llu: %s (sub-op %u)", D.id, (unsigned long long)Index, opName(Op), Sub);
  switch (Op) {
  case OpNop: return 4ull * (1 + nopCount(H));
  case OpCopy:
    if (Sub == CopyLinear) {
      if (!Fits(CopyLinearWords)) return 0;
      uint64_t Bytes = copyLinearBytes(W);
      VGPU_TRACE("  copy %llu bytes 0x%llx -> 0x%llx", (unsigned long long)Bytes,
                 (unsigned long long)addr64(W[3], W[4]), (unsigned long long)addr64(W[5], W[6]));
      return copy(addr64(W[5], W[6]), addr64(W[3], W[4]), Bytes, Index) ? 4 * CopyLinearWords : 0;
    }
    if (Sub == CopyLinearRect) {
      if (!Fits(CopyRectWords)) return 0;
      return copyRect(W, Index) ? 4 * CopyRectWords : 0;
    }
    report("SDMA queue %u: COPY sub-opcode %u at ring byte %llu is not supported (only LINEAR 0 and "
           "LINEAR_RECT 4)",
           D.id, Sub, (unsigned long long)Index);
    return 0;
  case OpConstFill:
    if (!Fits(ConstFillWords)) return 0;
    return fill(W, Index) ? 4 * ConstFillWords : 0;
  case OpFence: {
    if (!Fits(FenceWords)) return 0;
    auto *P = word(addr64(W[1], W[2]), 4, "the FENCE address", Index);
    if (!P) return 0;
    __atomic_store_n(reinterpret_cast<uint32_t *>(P), W[3], __ATOMIC_RELEASE);
    return 4 * FenceWords;
  }
  case OpTrap:
    if (!Fits(TrapWords)) return 0;
    // The interrupt's context is the event id ROCr's signal names (InterruptSignal's event_id).
    K.signalEvent(W[1] & 0xfffffff);
    return 4 * TrapWords;
  case OpPollRegMem:
    if (!Fits(PollWords)) return 0;
    return poll(W, Index) ? 4 * PollWords : 0;
  case OpAtomic: {
    if (!Fits(AtomicWords)) return 0;
    if (atomicOperation(H) != AtomicAdd64) {
      report("SDMA queue %u: ATOMIC operation %u at ring byte %llu is not supported (only ADD64, 47)", D.id,
             atomicOperation(H), (unsigned long long)Index);
      return 0;
    }
    auto *P = word(addr64(W[1], W[2]), 8, "the ATOMIC address", Index);
    if (!P) return 0;
    __atomic_fetch_add(reinterpret_cast<uint64_t *>(P), addr64(W[3], W[4]), __ATOMIC_ACQ_REL);
    return 4 * AtomicWords;
  }
  case OpTimestamp: {
    if (!Fits(TimestampWords)) return 0;
    if (Sub != TimestampGetGlobal) {
      report("SDMA queue %u: TIMESTAMP sub-opcode %u at ring byte %llu is not supported (only GET_GLOBAL 2)",
             D.id, Sub, (unsigned long long)Index);
      return 0;
    }
    auto *P = word(addr64(W[1], W[2]), 8, "the TIMESTAMP address", Index);
    if (!P) return 0;
    __atomic_store_n(reinterpret_cast<uint64_t *>(P), Kfd::gpuTimestamp(), __ATOMIC_RELEASE);
    return 4 * TimestampWords;
  }
  default: break;
  }
  report("SDMA queue %u: opcode %u (%s) at ring byte %llu is not supported (header 0x%08x)", D.id, Op, opName(Op),
         (unsigned long long)Index, H);
  return 0;
}

bool SdmaEngine::copy(uint64_t Dst, uint64_t Src, uint64_t Bytes, uint64_t Index) {
  uint8_t *To = K.translate(Dst, Bytes);
  const uint8_t *From = K.translate(Src, Bytes);
  if (To && From) {
    memmove(To, From, Bytes);
    return true;
  }
  for (uint64_t Done = 0; Done < Bytes;) {
    uint64_t N = std::min({Bytes - Done, 4096 - ((Src + Done) & 4095), 4096 - ((Dst + Done) & 4095)});
    uint8_t *T = word(Dst + Done, unsigned(N), "the copy destination", Index);
    const uint8_t *F = T ? word(Src + Done, unsigned(N), "the copy source", Index) : nullptr;
    if (!F) return false;
    memmove(T, F, N);
    Done += N;
  }
  return true;
}

bool SdmaEngine::copyRect(const uint32_t *W, uint64_t Index) {
  const uint64_t E = 1ull << (W[0] >> 29);
  const RectSide S = rectSide(W + 1), T = rectSide(W + 6);
  const uint64_t X = (W[11] & 0x3fff) + 1, Y = ((W[11] >> 16) & 0x3fff) + 1, Z = (W[12] & 0x7ff) + 1;
  VGPU_TRACE("  rect copy %llux%llux%llu elements of %llu bytes 0x%llx -> 0x%llx", (unsigned long long)X,
             (unsigned long long)Y, (unsigned long long)Z, (unsigned long long)E, (unsigned long long)S.base,
             (unsigned long long)T.base);
  auto At = [E](const RectSide &P, uint64_t Y, uint64_t Z) {
    return P.base + E * ((P.z + Z) * P.slice + (P.y + Y) * P.pitch + P.x);
  };
  for (uint64_t z = 0; z < Z; ++z)
    for (uint64_t y = 0; y < Y; ++y)
      if (!copy(At(T, y, z), At(S, y, z), X * E, Index)) return false;
  return true;
}

bool SdmaEngine::fill(const uint32_t *W, uint64_t Index) {
  if (fillSize(W[0]) != 2) {
    report("SDMA queue %u: CONST_FILL of fill size %u at ring byte %llu is not supported (only dwords, 2)", D.id,
           fillSize(W[0]), (unsigned long long)Index);
    return false;
  }
  // The count is the byte count less one; dword fills cover whole dwords.
  const uint64_t Dst = addr64(W[1], W[2]), Bytes = ((uint64_t(W[4] & 0x3fffff) + 1) + 3) & ~3ull;
  VGPU_TRACE("  fill %llu bytes at 0x%llx with 0x%08x", (unsigned long long)Bytes, (unsigned long long)Dst, W[3]);
  for (uint64_t Done = 0; Done < Bytes;) {
    uint64_t N = std::min(Bytes - Done, 4096 - ((Dst + Done) & 4095));
    uint8_t *P = word(Dst + Done, unsigned(N), "the fill destination", Index);
    if (!P) return false;
    for (uint64_t I = 0; I < N; I += 4) memcpy(P + I, &W[3], 4);
    Done += N;
  }
  return true;
}

bool SdmaEngine::poll(const uint32_t *W, uint64_t Index) {
  const uint32_t H = W[0];
  const unsigned F = pollFunction(H);
  if (F > 6) {
    report("SDMA queue %u: POLL_REGMEM compare function %u at ring byte %llu is not defined", D.id, F,
           (unsigned long long)Index);
    return false;
  }
  if (!pollIsMemory(H)) {
    // A register poll: the HDP flush ROCr issues on gfx9 (HDP_FLUSH bit, or ROCr 5.2's
    // constant form: function "always"). No register is modelled; memory is coherent.
    if (pollHdpFlush(H) || F == 0) return true;
    report("SDMA queue %u: POLL_REGMEM of register 0x%x at ring byte %llu is not supported (registers are not "
           "modelled)",
           D.id, W[1], (unsigned long long)Index);
    return false;
  }
  auto *P = word(addr64(W[1], W[2]), 4, "the POLL_REGMEM address", Index);
  if (!P) return false;
  const uint32_t Ref = W[3], Mask = W[4];
  auto Until = std::chrono::steady_clock::now() + waitDeadline();
  IdleBackoff Idle;
  for (;;) {
    uint32_t V = __atomic_load_n(reinterpret_cast<uint32_t *>(P), __ATOMIC_ACQUIRE) & Mask;
    if (pollSatisfied(F, V, Ref)) return true;
    if (std::chrono::steady_clock::now() > Until) {
      report("SDMA queue %u: POLL_REGMEM at ring byte %llu waited past the deadline (VGPU_WAIT_DEADLINE_S): "
             "the word at 0x%llx is 0x%x (masked), compare function %u against 0x%x",
             D.id, (unsigned long long)Index, (unsigned long long)addr64(W[1], W[2]), V, F, Ref);
      return false;
    }
    Idle.pause();
  }
}

} // namespace vgpu

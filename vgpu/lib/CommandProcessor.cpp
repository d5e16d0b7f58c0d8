//===- CommandProcessor.cpp - polls an AQL ring, executes its packets -----===//
//
// The loop: read index R (the queue's read_dispatch_id); a packet is ready
// when the doorbell has been rung with an index >= R (the producer rings
// it after writing the packet's header; a header alone is not enough, as
// ROCr writes packet bodies with a zero header first) and its header type
// is not INVALID. After a packet completes, its header is set back to
// INVALID and R+1 is stored (release) so the runtime can reuse the slot.
// Idle polling backs off from yields to 1 ms sleeps.
//
//===----------------------------------------------------------------------===//
#include "CommandProcessor.h"
#include "Aql.h"
#include "Executor.h"
#include "Kfd.h"
#include "Log.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace vgpu {

namespace {
template <class T> T atomicLoad(uint64_t Addr) {
  return __atomic_load_n(reinterpret_cast<T *>(Addr), __ATOMIC_ACQUIRE);
}
const char *typeName(unsigned T) {
  switch (T) {
  case aql::VendorSpecific: return "VENDOR_SPECIFIC";
  case aql::Invalid: return "INVALID";
  case aql::KernelDispatch: return "KERNEL_DISPATCH";
  case aql::BarrierAnd: return "BARRIER_AND";
  case aql::AgentDispatch: return "AGENT_DISPATCH";
  case aql::BarrierOr: return "BARRIER_OR";
  }
  return "(reserved)";
}
} // namespace

CommandProcessor::CommandProcessor(Kfd &K, const QueueDesc &D) : K(K), D(D) {
  Thread = std::thread([this] { run(); });
}

CommandProcessor::~CommandProcessor() {
  Stop.store(true);
  if (Thread.joinable()) Thread.join();
}

std::string CommandProcessor::describe() const {
  uint64_t R = atomicLoad<uint64_t>(D.readPtr), W = atomicLoad<uint64_t>(D.writePtr);
  uint32_t Slots = D.ringBytes / 64;
  uint16_t H = atomicLoad<uint16_t>(D.ringBase + (R % Slots) * 64);
  volatile uint64_t *Bell = K.doorbell(D.doorbellOffset);
  uint64_t Rung = Bell ? *Bell : ~0ull;
  std::string S = "read index " + std::to_string(R) + ", write index " + std::to_string(W) + ", doorbell " +
                  (Rung == ~0ull ? std::string("never rung") : std::to_string(Rung)) + ", packet at read index: " +
                  typeName(H & aql::HeaderTypeMask);
  if (busySinceNs()) {
    std::lock_guard<std::mutex> L(CurrentMu);
    if (!Current.empty()) S += " (executing: " + Current + ")";
  }
  return S;
}

void CommandProcessor::setCurrent(std::string What) {
  std::lock_guard<std::mutex> L(CurrentMu);
  Current = std::move(What);
}

void CommandProcessor::run() {
  uint32_t Slots = D.ringBytes / 64;
  IdleBackoff Idle;
  volatile uint64_t *Bell = K.doorbell(D.doorbellOffset);
  while (!Stop.load(std::memory_order_relaxed)) {
    uint64_t R = atomicLoad<uint64_t>(D.readPtr);
    uint64_t Rung = __atomic_load_n(Bell, __ATOMIC_ACQUIRE);
    uint64_t Slot = D.ringBase + (R % Slots) * 64;
    // The doorbell holds the index of the last packet published (ROCr and HSA
    // applications store it after the packet's header); ~0 = never rung.
    if (Rung == ~0ull || R > Rung || (atomicLoad<uint16_t>(Slot) & aql::HeaderTypeMask) == aql::Invalid) {
      Idle.pause();
      continue;
    }
    Idle.reset();
    beginPacket();
    bool Ok = processPacket(R);
    endPacket();
    if (!Ok) {
      report("queue %u: stopping at packet %llu; the process ends (a GPU queue error)", D.id,
             (unsigned long long)R);
      fflush(stderr);
      _exit(70);
    }
    __atomic_store_n(reinterpret_cast<uint16_t *>(Slot), uint16_t(aql::Invalid), __ATOMIC_RELEASE);
    __atomic_store_n(reinterpret_cast<uint64_t *>(D.readPtr), R + 1, __ATOMIC_RELEASE);
  }
}

bool CommandProcessor::processPacket(uint64_t Index) {
  uint32_t Slots = D.ringBytes / 64;
  uint64_t Addr = D.ringBase + (Index % Slots) * 64;
  uint16_t Header = atomicLoad<uint16_t>(Addr);
  unsigned Type = Header & aql::HeaderTypeMask;
  VGPU_TRACE("queue %u: packet %llu %s", D.id, (unsigned long long)Index, typeName(Type));
  switch (Type) {
  case aql::KernelDispatch: {
    aql::KernelDispatchPacket P;
    memcpy(&P, reinterpret_cast<const void *>(Addr), sizeof(P));
    // The queue object (amd_queue_t) starts with the hsa_queue_t whose base_address is the ring.
    uint64_t Start = Kfd::gpuTimestamp();
    std::string Err = executeDispatch(K, P, Addr, D.ringBase, [&](const std::string &Kernel) {
      char Buf[64];
      snprintf(Buf, sizeof Buf, "kernel object 0x%llx", (unsigned long long)P.kernelObject);
      setCurrent("dispatch of " + (Kernel.empty() ? std::string(Buf) : Kernel + " (" + Buf + ")"));
    });
    setCurrent({});
    if (!Err.empty()) {
      report("queue %u: kernel dispatch (packet %llu, kernel object 0x%llx) failed: %s", D.id,
             (unsigned long long)Index, (unsigned long long)P.kernelObject, Err.c_str());
      return false;
    }
    completeSignal(P.completionSignal, Start, Kfd::gpuTimestamp());
    return true;
  }
  case aql::BarrierAnd:
  case aql::BarrierOr: {
    aql::BarrierPacket P;
    memcpy(&P, reinterpret_cast<const void *>(Addr), sizeof(P));
    if (!waitSignals(P.depSignal, 5, Type == aql::BarrierAnd, Index)) return false;
    completeSignal(P.completionSignal);
    return true;
  }
  case aql::VendorSpecific: {
    aql::BarrierValuePacket P;
    memcpy(&P, reinterpret_cast<const void *>(Addr), sizeof(P));
    if (P.amdFormat == aql::AmdPm4Ib) {
      aql::Pm4IbPacket Ib;
      memcpy(&Ib, reinterpret_cast<const void *>(Addr), sizeof(Ib));
      if (!runPm4(Ib, Index)) return false;
      completeSignal(Ib.completionSignal);
      return true;
    }
    if (P.amdFormat != aql::AmdBarrierValue) {
      if (traceEnabled()) {
        const uint32_t *W = reinterpret_cast<const uint32_t *>(Addr);
        std::string Hex;
        for (int i = 0; i < 16; ++i) Hex += " " + std::to_string(W[i]);
        report("packet words:%s", Hex.c_str());
      }
      report("queue %u: AMD vendor packet format %u at packet %llu is not supported (only BARRIER_VALUE)", D.id,
             P.amdFormat, (unsigned long long)Index);
      return false;
    }
    if (!waitValue(P, Index)) return false;
    completeSignal(P.completionSignal);
    return true;
  }
  default:
    report("queue %u: AQL packet type %s (%u) at packet %llu is not supported", D.id, typeName(Type), Type,
           (unsigned long long)Index);
    return false;
  }
}

bool CommandProcessor::waitSignals(const uint64_t *Deps, unsigned N, bool All, uint64_t Index) {
  auto Until = std::chrono::steady_clock::now() + waitDeadline();
  unsigned Spins = 0;
  for (;;) {
    unsigned Zero = 0, Used = 0;
    for (unsigned i = 0; i < N; ++i) {
      if (!Deps[i]) continue;
      ++Used;
      if (__atomic_load_n(&reinterpret_cast<aql::AmdSignal *>(Deps[i])->value, __ATOMIC_ACQUIRE) == 0) ++Zero;
    }
    if (Used == 0 || (All ? Zero == Used : Zero > 0)) return true;
    if (std::chrono::steady_clock::now() > Until) {
      std::string Pending;
      for (unsigned i = 0; i < N; ++i)
        if (Deps[i]) {
          int64_t V = __atomic_load_n(&reinterpret_cast<aql::AmdSignal *>(Deps[i])->value, __ATOMIC_ACQUIRE);
          if (V != 0) {
            char Buf[96];
            snprintf(Buf, sizeof Buf, " dep_signal[%u] 0x%llx = %lld;", i, (unsigned long long)Deps[i], (long long)V);
            Pending += Buf;
          }
        }
      report("queue %u: %s packet %llu waited past the deadline (VGPU_WAIT_DEADLINE_S) for %u of %u "
             "dependency signals to reach 0:%s",
             D.id, All ? "BARRIER_AND" : "BARRIER_OR", (unsigned long long)Index, Used - Zero, Used, Pending.c_str());
      return false;
    }
    if (++Spins < 64) sched_yield();
    else usleep(200);
  }
}

bool CommandProcessor::runPm4(const aql::Pm4IbPacket &P, uint64_t Index) {
  uint32_t J = P.ibJump[0];
  if (aql::pm4Type(J) != 3 || aql::pm4Opcode(J) != aql::Pm4IndirectBuffer) {
    report("queue %u: PM4_IB packet %llu does not start with INDIRECT_BUFFER (PM4 header 0x%08x)", D.id,
           (unsigned long long)Index, J);
    return false;
  }
  uint64_t Base = (uint64_t(P.ibJump[2] & 0xffff) << 32) | (P.ibJump[1] & ~3u);
  uint32_t Dwords = P.ibJump[3] & 0xfffff;
  const uint8_t *Ib = K.translate(Base, uint64_t(Dwords) * 4);
  if (!Ib) {
    report("queue %u: PM4 indirect buffer at 0x%llx (%u dwords) is not GPU memory", D.id, (unsigned long long)Base,
           Dwords);
    return false;
  }
  for (uint32_t At = 0; At < Dwords;) {
    uint32_t H;
    memcpy(&H, Ib + At * 4, 4);
    unsigned Op = aql::pm4Opcode(H), N = aql::pm4Dwords(H);
    if (aql::pm4Type(H) != 3) {
      report("queue %u: PM4 packet of type %u in the indirect buffer of packet %llu is not supported", D.id,
             aql::pm4Type(H), (unsigned long long)Index);
      return false;
    }
    switch (Op) {
    case aql::Pm4Nop: break;
    case aql::Pm4AcquireMem: break; // cache invalidation/write-back: the emulator's memory is coherent
    default:
      report("queue %u: PM4 opcode 0x%02x in the indirect buffer of packet %llu is not supported", D.id, Op,
             (unsigned long long)Index);
      return false;
    }
    VGPU_TRACE("queue %u: PM4 opcode 0x%02x (%u dwords): no-op", D.id, Op, N);
    At += N;
  }
  return true;
}

bool CommandProcessor::waitValue(const aql::BarrierValuePacket &P, uint64_t Index) {
  if (!P.signal) return true; // a null signal is a satisfied dependency
  if (P.cond > 3) {
    report("queue %u: BARRIER_VALUE packet %llu has signal condition %u (not EQ/NE/LT/GTE)", D.id,
           (unsigned long long)Index, P.cond);
    return false;
  }
  auto Until = std::chrono::steady_clock::now() + waitDeadline();
  unsigned Spins = 0;
  for (;;) {
    int64_t V = __atomic_load_n(&reinterpret_cast<aql::AmdSignal *>(P.signal)->value, __ATOMIC_ACQUIRE) & P.mask;
    bool Ok = P.cond == 0 ? V == P.value : P.cond == 1 ? V != P.value : P.cond == 2 ? V < P.value : V >= P.value;
    if (Ok) return true;
    if (std::chrono::steady_clock::now() > Until) {
      report("queue %u: BARRIER_VALUE packet %llu waited past the deadline (VGPU_WAIT_DEADLINE_S): signal value "
             "%lld, condition %u against %lld",
             D.id, (unsigned long long)Index, (long long)V, P.cond, (long long)P.value);
      return false;
    }
    if (++Spins < 64) sched_yield();
    else usleep(200);
  }
}

void CommandProcessor::completeSignal(uint64_t Signal, uint64_t Start, uint64_t End) {
  if (!Signal) return;
  auto *S = reinterpret_cast<aql::AmdSignal *>(Signal);
  // Profiling timestamps (ROCr reads them for hipEventElapsedTime / profiled queues).
  if (!Start) Start = End = Kfd::gpuTimestamp();
  S->startTs = Start;
  S->endTs = End;
  __atomic_fetch_sub(&S->value, 1, __ATOMIC_ACQ_REL);
  uint64_t Mailbox = __atomic_load_n(&S->eventMailboxPtr, __ATOMIC_ACQUIRE);
  if (Mailbox) {
    uint32_t Id = S->eventId;
    __atomic_store_n(reinterpret_cast<uint64_t *>(Mailbox), uint64_t(Id), __ATOMIC_RELEASE);
    K.signalEvent(Id);
  }
}

} // namespace vgpu

//===- CommandProcessor.h - one AQL packet processor per queue --*- C++ -*-===//
//
// What the GPU's command processor does for a user-mode AQL queue: a
// thread polls the queue's doorbell / write index, consumes the 64-byte
// packets in order (kernel dispatch, barrier-AND, barrier-OR, AMD barrier-value, AMD PM4 indirect buffers of
// cache operations), executes
// dispatches on the machine-code emulator against process memory, then
// decrements the packet's completion signal and raises the signal's KFD
// event. Every packet runs to completion before the next one starts, which
// satisfies the barrier bit and all acquire/release fence scopes. A packet
// type or field the emulator cannot honour is reported by name and the
// process ends (as ROCr does on a GPU queue error), never a hang.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Aql.h"
#include "HardwareQueue.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace vgpu {

class Kfd;

class CommandProcessor final : public HardwareQueue {
public:
  CommandProcessor(Kfd &K, const QueueDesc &D);
  ~CommandProcessor() override;
  CommandProcessor(const CommandProcessor &) = delete;
  CommandProcessor &operator=(const CommandProcessor &) = delete;

  /// One line: read/write index and the packet at the read index.
  std::string describe() const override;

private:
  void run();
  bool processPacket(uint64_t Index); ///< false: fatal error (reported)
  bool waitSignals(const uint64_t *Deps, unsigned N, bool All, uint64_t Index);
  bool runPm4(const aql::Pm4IbPacket &P, uint64_t Index);
  bool waitValue(const aql::BarrierValuePacket &P, uint64_t Index);
  void completeSignal(uint64_t Signal, uint64_t Start = 0, uint64_t End = 0);
  void setCurrent(std::string What);

  Kfd &K;
  QueueDesc D;
  std::atomic<bool> Stop{false};
  mutable std::mutex CurrentMu;
  std::string Current; ///< what the packet now executing does (describe(); guarded by CurrentMu)
  std::thread Thread;
};

} // namespace vgpu

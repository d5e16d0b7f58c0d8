//===- HardwareQueue.h - what every engine queue of the virtual GPU shares -*- C++ -*-===//
//
// A user-mode queue the driver model created (CREATE_QUEUE): its ring, its
// read/write index words and its doorbell, and the engine thread that
// consumes it -- the command processor for AQL compute queues
// (CommandProcessor.h), the SDMA engine for SDMA queues (SdmaEngine.h). Kfd
// keeps them by queue id and asks each to describe itself when a wait runs
// past its deadline. Each engine marks the packet it is executing
// (beginPacket/endPacket); Kfd's hang monitor ends the process, naming the
// queue, its packet and the host waits pending, when one packet has run
// longer than the deadline -- amdgpu's lockup timeout, the only bound on a
// kernel that never ends (ROCr 5.2.3 never waits "forever": it splits an
// unbounded signal wait into WAIT_EVENTS of 0xFFFFFFFE ms, ~49 days). Also
// the two policies both engines follow: that deadline (VGPU_WAIT_DEADLINE_S,
// default 600 s) and the back-off of an idle polling loop.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <sched.h>
#include <string>
#include <unistd.h>

namespace vgpu {

struct QueueDesc {
  uint32_t id = 0;
  uint64_t ringBase = 0;
  uint32_t ringBytes = 0;
  uint64_t readPtr = 0, writePtr = 0; ///< addresses of the 64-bit read / write indices
  uint64_t doorbellOffset = 0;        ///< byte offset in the doorbell page
};

class HardwareQueue {
public:
  virtual ~HardwareQueue() = default;
  /// One line: indices, doorbell and what the engine is at.
  virtual std::string describe() const = 0;
  /// steady_clock nanoseconds since the packet now executing started; 0: idle.
  int64_t busySinceNs() const { return BusySince.load(std::memory_order_acquire); }

protected:
  void beginPacket() {
    BusySince.store(std::chrono::steady_clock::now().time_since_epoch().count() | 1, std::memory_order_release);
  }
  void endPacket() { BusySince.store(0, std::memory_order_release); }

private:
  std::atomic<int64_t> BusySince{0};
};

/// The deadline of a wait that would be unbounded on hardware.
inline std::chrono::seconds waitDeadline() {
  const char *V = getenv("VGPU_WAIT_DEADLINE_S");
  long S = V ? atol(V) : 600;
  return std::chrono::seconds(S > 0 ? S : 600);
}

/// An engine's idle loop: yields first, then sleeps 50 us, then 1 ms.
class IdleBackoff {
public:
  void reset() { N = 0; }
  void pause() {
    if (++N < 64) sched_yield();
    else usleep(N < 1024 ? 50 : 1000);
  }

private:
  unsigned N = 0;
};

} // namespace vgpu

//===- HardwareQueue.h - what every engine queue of the virtual GPU shares -*- C++ -*-===//
//
// A user-mode queue the driver model created (CREATE_QUEUE): its ring, its
// read/write index words and its doorbell, and the engine thread that
// consumes it -- the command processor for AQL compute queues
// (CommandProcessor.h), the SDMA engine for SDMA queues (SdmaEngine.h). Kfd
// keeps them by queue id and asks each to describe itself when a wait runs
// past its deadline. Also the two policies both engines follow: the
// deadline of a wait the runtime made unbounded (VGPU_WAIT_DEADLINE_S,
// default 600 s) and the back-off of an idle polling loop.
//
//===----------------------------------------------------------------------===//
#pragma once

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

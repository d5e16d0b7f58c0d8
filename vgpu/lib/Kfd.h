//===- Kfd.h - user-space model of the amdkfd driver ------------*- C++ -*-===//
//
// The state /dev/kfd and the render node would hold for this process: the
// one virtual GPU node, its buffer objects (backed by one sparse memfd,
// "physical memory", so every CPU mapping of a BO and the emulator see the
// same bytes), the doorbell page, signal events and user-mode queues. The
// interposed ioctl()/mmap() of Interpose.cpp forward here. Requests are the
// ones libhsakmt 5.2.3 issues (src/*.c at tag rocm-5.2.3), with argument
// structs from <linux/kfd_ioctl.h>; anything else fails with EINVAL and a
// message naming it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Target.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace vgpu {

class HardwareQueue;

struct BufferObject {
  uint64_t handle = 0;
  uint64_t va = 0, size = 0;
  uint32_t flags = 0;       ///< KFD_IOC_ALLOC_MEM_FLAGS_*
  uint64_t backing = ~0ull; ///< offset in the physical memfd (~0: none, e.g. doorbell, userptr)
  uint64_t userptr = 0;     ///< CPU address of a USERPTR BO
};

class Kfd {
public:
  static Kfd &instance();

  const Target &target() const { return *T; }
  bool ok() const { return T != nullptr; }

  /// Serves ioctl \p Request on the /dev/kfd fd; returns 0 or -errno.
  int ioctl(unsigned long Request, void *Arg);
  /// Serves an mmap of the kfd fd (\p Render false) or the render node;
  /// returns the address or MAP_FAILED with errno set.
  void *mmap(void *Addr, size_t Len, int Prot, int Flags, bool Render, uint64_t Offset);

  /// Host pointer of GPU virtual address range [Va, Va+N), nullptr when it is
  /// not inside a buffer object (a GPU page fault).
  uint8_t *translate(uint64_t Va, uint64_t N);
  /// The BO whose GPU range contains \p Va (copied to \p Out); false if none.
  bool boContaining(uint64_t Va, BufferObject &Out);
  /// Raises signal event \p EventId (what the CP's end-of-pipe interrupt does).
  void signalEvent(uint32_t EventId);
  /// The GPU timestamp counter (GET_CLOCK_COUNTERS' gpu_clock_counter): 100 MHz.
  static uint64_t gpuTimestamp();
  /// Doorbell word of the process doorbell page at byte \p Offset.
  volatile uint64_t *doorbell(uint64_t Offset);

private:
  Kfd();
  int getVersion(void *);
  int getProcessAperturesNew(void *);
  int allocMemory(void *);
  int freeMemory(void *);
  int mapMemory(void *, bool Map);
  int createEvent(void *);
  int destroyEvent(void *);
  int setEvent(void *, bool Set);
  int waitEvents(void *);
  int createQueue(void *);
  int destroyQueue(void *);
  int getTileConfig(void *);
  int getClockCounters(void *);
  int setXnackMode(void *);
  /// The hang monitor (started with the first queue): ends the process when
  /// a queue's packet has run past waitDeadline(), naming it and the waits.
  void monitorHangs();
  std::string pendingWaits(); ///< the WAIT_EVENTS now blocked (Mu held)

  const Target *T = nullptr;
  std::mutex Mu;
  int PhysFd = -1;           ///< sparse memfd backing every BO
  uint64_t PhysNext = 0;     ///< bump pointer in PhysFd
  int DoorbellFd = -1;       ///< one page of 64-bit doorbells
  uint8_t *DoorbellMap = nullptr;
  uint64_t NextHandle = 1;
  std::map<uint64_t, BufferObject> Bos;   ///< by handle
  std::map<uint64_t, uint64_t> BoByVa;    ///< va -> handle
  std::atomic<uint64_t> FreeGeneration{0}; ///< bumped by every free (translate's caches)

  struct Event {
    uint32_t type = 0;
    bool autoReset = true, signaled = false;
  };
  std::map<uint32_t, Event> Events;
  void raiseEvent(uint32_t Id, Event &E); ///< amdkfd's set_event (Mu held)
  uint32_t NextEvent = 1;
  uint64_t EventPageOffset = 0; ///< handle of the thunk's event page BO
  std::condition_variable EventCv;
  struct Wait {
    std::vector<uint32_t> events;
    std::vector<char> activated; ///< per event: raised for this waiter (amdkfd's waiter->activated)
    std::vector<char> listed;    ///< per event: on the event's wait list (not activated when the wait began)
    bool all = false;
    uint32_t timeoutMs = 0;
    std::chrono::steady_clock::time_point since;
  };
  std::map<uint64_t, Wait> Waits; ///< WAIT_EVENTS in progress, by a serial number
  uint64_t NextWait = 0;
  std::once_flag MonitorOnce;

  std::map<uint32_t, std::unique_ptr<HardwareQueue>> Queues; ///< AQL and SDMA queues by id
  /// Queue ids (= doorbell slots) in use: live queues and destroyed ones whose engine thread has
  /// not been joined yet. Freed ids are reused, lowest first (amdkfd's per-process queue and doorbell
  /// bitmaps), so a process may create and destroy queues without limit, 1024 at a time.
  std::set<uint32_t> QueueIdsUsed;
  bool DbgTrapReported = false;
};

} // namespace vgpu

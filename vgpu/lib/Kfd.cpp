//===- Kfd.cpp - the amdkfd ioctls libhsakmt 5.2 issues, served in process ===//
//
// Semantics follow the amdkfd UAPI (<linux/kfd_ioctl.h>) as libhsakmt
// 5.2.3 uses it: apertures as the gfx9 kernel reports them (LDS at
// 0x1'0000'0000'0000, scratch at 0x2'0000'0000'0000, a canonical 47-bit
// GPUVM range so the thunk sets up its SVM apertures and GPU VA == CPU VA),
// BOs that the thunk places at a VA it reserved and later maps for the CPU
// through the render node (mmap_offset), doorbells mapped through /dev/kfd
// (offset type 3 << 62, as amdkfd's KFD_MMAP_TYPE_DOORBELL), signal events
// with one slot each in the thunk's event page, raised and waited for as
// amdkfd's kfd_events.c does (a raise activates every waiter listed on the
// event; an auto-reset event is latched only when nobody waits), queue ids
// and their doorbells reused once a queue is destroyed.
//
//===----------------------------------------------------------------------===//
#include "Kfd.h"
#include "CommandProcessor.h"
#include "SdmaEngine.h"
#include "Log.h"

#include <linux/kfd_ioctl.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>

namespace vgpu {

namespace {
constexpr uint64_t MmapTypeDoorbell = 0x3ull << 62;
constexpr uint64_t PhysBytes = 64ull << 30; // sparse
constexpr uint64_t LdsBase = 0x0001000000000000ull, ScratchBase = 0x0002000000000000ull;
constexpr uint64_t GpuvmBase = 0x0000000001000000ull, GpuvmLimit = 0x00007fffffffffffull;

const char *ioctlName(unsigned Nr) {
  static const char *const Names[] = {
      nullptr, "GET_VERSION", "CREATE_QUEUE", "DESTROY_QUEUE", "SET_MEMORY_POLICY", "GET_CLOCK_COUNTERS",
      "GET_PROCESS_APERTURES", "UPDATE_QUEUE", "CREATE_EVENT", "DESTROY_EVENT", "SET_EVENT", "RESET_EVENT",
      "WAIT_EVENTS", "DBG_REGISTER", "DBG_UNREGISTER", "DBG_ADDRESS_WATCH", "DBG_WAVE_CONTROL",
      "SET_SCRATCH_BACKING_VA", "GET_TILE_CONFIG", "SET_TRAP_HANDLER", "GET_PROCESS_APERTURES_NEW",
      "ACQUIRE_VM", "ALLOC_MEMORY_OF_GPU", "FREE_MEMORY_OF_GPU", "MAP_MEMORY_TO_GPU",
      "UNMAP_MEMORY_FROM_GPU", "SET_CU_MASK", "GET_QUEUE_WAVE_STATE", "GET_DMABUF_INFO", "IMPORT_DMABUF",
      "ALLOC_QUEUE_GWS", "SMI_EVENTS", "SVM", "SET_XNACK_MODE", "CRIU_OP", "AVAILABLE_MEMORY"};
  if (Nr < sizeof(Names) / sizeof(Names[0]) && Names[Nr]) return Names[Nr];
  switch (Nr) { // ROCm DKMS-only requests of libhsakmt 5.2's own kfd_ioctl.h
  case 0x80: return "IPC_IMPORT_HANDLE";
  case 0x81: return "IPC_EXPORT_HANDLE";
  case 0x82: return "DBG_TRAP";
  case 0x83: return "CROSS_MEMORY_COPY";
  case 0x84: return "RLC_SPM";
  }
  return "(unknown)";
}

uint64_t nowNs(clockid_t C) {
  timespec Ts;
  clock_gettime(C, &Ts);
  return uint64_t(Ts.tv_sec) * 1000000000ull + uint64_t(Ts.tv_nsec);
}

} // namespace

Kfd &Kfd::instance() {
  // Never destroyed: at exit other threads (ROCr's event thread in
  // WAIT_EVENTS, the command processors) may still use it, and destroying a
  // condition variable with waiters blocks forever.
  static Kfd *K = new Kfd;
  return *K;
}

Kfd::Kfd() {
  T = selectTarget();
  PhysFd = memfd_create("vgpu-physical-memory", MFD_CLOEXEC);
  DoorbellFd = memfd_create("vgpu-doorbells", MFD_CLOEXEC);
  if (PhysFd < 0 || DoorbellFd < 0 || ftruncate(PhysFd, PhysBytes) != 0 || ftruncate(DoorbellFd, 8192) != 0) {
    report("cannot create the memfds backing device memory: %s", strerror(errno));
    T = nullptr;
    return;
  }
  void *M = ::mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, DoorbellFd, 0);
  DoorbellMap = M == MAP_FAILED ? nullptr : static_cast<uint8_t *>(M);
  if (DoorbellMap) memset(DoorbellMap, 0xff, 8192); // every doorbell "never rung"
}


int Kfd::ioctl(unsigned long Request, void *Arg) {
  if (_IOC_TYPE(Request) != AMDKFD_IOCTL_BASE) {
    report("unsupported ioctl 0x%lx on /dev/kfd (not an amdkfd request)", Request);
    return -EINVAL;
  }
  unsigned Nr = _IOC_NR(Request);
  VGPU_TRACE("ioctl AMDKFD_IOC_%s", ioctlName(Nr));
  switch (Request) {
  case AMDKFD_IOC_GET_VERSION: return getVersion(Arg);
  case AMDKFD_IOC_GET_PROCESS_APERTURES_NEW: return getProcessAperturesNew(Arg);
  case AMDKFD_IOC_ACQUIRE_VM: return 0;
  case AMDKFD_IOC_SET_MEMORY_POLICY: return 0;          // caching policy: no effect on the emulator
  case AMDKFD_IOC_SET_SCRATCH_BACKING_VA: return 0;     // scratch comes from the dispatch's own segment
  case AMDKFD_IOC_SET_TRAP_HANDLER: return 0;           // s_trap is reported by isa-emu
  case AMDKFD_IOC_ALLOC_MEMORY_OF_GPU: return allocMemory(Arg);
  case AMDKFD_IOC_FREE_MEMORY_OF_GPU: return freeMemory(Arg);
  case AMDKFD_IOC_MAP_MEMORY_TO_GPU: return mapMemory(Arg, true);
  case AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU: return mapMemory(Arg, false);
  case AMDKFD_IOC_CREATE_EVENT: return createEvent(Arg);
  case AMDKFD_IOC_DESTROY_EVENT: return destroyEvent(Arg);
  case AMDKFD_IOC_SET_EVENT: return setEvent(Arg, true);
  case AMDKFD_IOC_RESET_EVENT: return setEvent(Arg, false);
  case AMDKFD_IOC_WAIT_EVENTS: return waitEvents(Arg);
  case AMDKFD_IOC_CREATE_QUEUE: return createQueue(Arg);
  case AMDKFD_IOC_DESTROY_QUEUE: return destroyQueue(Arg);
  case AMDKFD_IOC_GET_TILE_CONFIG: return getTileConfig(Arg);
  case AMDKFD_IOC_GET_CLOCK_COUNTERS: return getClockCounters(Arg);
  case AMDKFD_IOC_SET_XNACK_MODE: return setXnackMode(Arg);
  case 0xc0284b82: // AMDKFD_IOC_DBG_TRAP of libhsakmt 5.2's kfd_ioctl.h (ROCm DKMS only)
    if (!DbgTrapReported) {
      DbgTrapReported = true;
      report("unsupported KFD request AMDKFD_IOC_DBG_TRAP (the ROCm-DKMS debugger interface); the runtime "
             "continues without debugger support");
    }
    return -EINVAL;
  default: break;
  }
  report("unsupported KFD request AMDKFD_IOC_%s (nr 0x%x, %u-byte argument)", ioctlName(Nr), Nr,
         unsigned(_IOC_SIZE(Request)));
  return -EINVAL;
}

int Kfd::getVersion(void *A) {
  auto *Args = static_cast<kfd_ioctl_get_version_args *>(A);
  Args->major_version = 1;
  Args->minor_version = 8; // what libhsakmt 5.2.3's bundled kfd_ioctl.h was written against
  return 0;
}

int Kfd::getProcessAperturesNew(void *A) {
  auto *Args = static_cast<kfd_ioctl_get_process_apertures_new_args *>(A);
  if (Args->num_of_nodes == 0 || !Args->kfd_process_device_apertures_ptr) {
    Args->num_of_nodes = 1;
    return 0;
  }
  auto *Ap = reinterpret_cast<kfd_process_device_apertures *>(Args->kfd_process_device_apertures_ptr);
  memset(Ap, 0, sizeof(*Ap));
  Ap->lds_base = LdsBase;
  Ap->lds_limit = LdsBase + 0xffffffffull;
  Ap->scratch_base = ScratchBase;
  Ap->scratch_limit = ScratchBase + 0xffffffffull;
  Ap->gpuvm_base = GpuvmBase;
  Ap->gpuvm_limit = GpuvmLimit;
  Ap->gpu_id = T->gpuId;
  Args->num_of_nodes = 1;
  return 0;
}

int Kfd::allocMemory(void *A) {
  auto *Args = static_cast<kfd_ioctl_alloc_memory_of_gpu_args *>(A);
  if (Args->gpu_id != T->gpuId) {
    report("ALLOC_MEMORY_OF_GPU for gpu_id 0x%x: the only GPU is 0x%x", Args->gpu_id, T->gpuId);
    return -EINVAL;
  }
  std::lock_guard<std::mutex> L(Mu);
  BufferObject Bo;
  Bo.handle = NextHandle++;
  Bo.va = Args->va_addr;
  Bo.size = Args->size;
  Bo.flags = Args->flags;
  uint32_t Kind = Args->flags & (KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_GTT |
                                 KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL |
                                 KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP);
  // MMIO_REMAP: the HDP flush page ROCr writes to flush the host data path; plain memory here.
  if (Kind == KFD_IOC_ALLOC_MEM_FLAGS_VRAM || Kind == KFD_IOC_ALLOC_MEM_FLAGS_GTT ||
      Kind == KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP) {
    uint64_t Size = (Bo.size + 4095) & ~4095ull;
    if (PhysNext + Size > PhysBytes) {
      report("ALLOC_MEMORY_OF_GPU of %llu bytes: the virtual GPU's %llu GiB of backing memory are used up",
             (unsigned long long)Bo.size, (unsigned long long)(PhysBytes >> 30));
      return -ENOMEM;
    }
    Bo.backing = PhysNext;
    PhysNext += Size;
    // The GPU's view: the VA the thunk reserved (PROT_NONE) becomes this BO's
    // pages now; the thunk's CPU mapping (render-node mmap) lands on the same pages.
    void *M = ::mmap(reinterpret_cast<void *>(Bo.va), Size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                     PhysFd, off_t(Bo.backing));
    if (M == MAP_FAILED) {
      report("ALLOC_MEMORY_OF_GPU: cannot back va 0x%llx (+%llu): %s", (unsigned long long)Bo.va,
             (unsigned long long)Size, strerror(errno));
      return -ENOMEM;
    }
    Args->mmap_offset = Bo.backing;
  } else if (Kind == KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) {
    // Registered host memory: the GPU sees the pages at userptr through GPU VA
    // va_addr, which the thunk may place elsewhere in its SVM aperture
    // (hsaKmtRegisterMemory); translate() adds the difference.
    Bo.userptr = Args->mmap_offset;
  } else if (Kind == KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL) {
    Args->mmap_offset = MmapTypeDoorbell;
  } else {
    report("ALLOC_MEMORY_OF_GPU with memory kind flags 0x%x is not supported", Kind);
    return -EINVAL;
  }
  Args->handle = Bo.handle;
  VGPU_TRACE("  BO %llu va 0x%llx size 0x%llx flags 0x%x", (unsigned long long)Bo.handle,
             (unsigned long long)Bo.va, (unsigned long long)Bo.size, Bo.flags);
  BoByVa[Bo.va] = Bo.handle;
  Bos[Bo.handle] = Bo;
  return 0;
}

int Kfd::freeMemory(void *A) {
  auto *Args = static_cast<kfd_ioctl_free_memory_of_gpu_args *>(A);
  std::lock_guard<std::mutex> L(Mu);
  auto It = Bos.find(Args->handle);
  if (It == Bos.end()) {
    report("FREE_MEMORY_OF_GPU of handle 0x%llx, which names no buffer object", (unsigned long long)Args->handle);
    return -EINVAL;
  }
  if (It->second.backing != ~0ull)
    fallocate(PhysFd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off_t(It->second.backing),
              off_t((It->second.size + 4095) & ~4095ull));
  BoByVa.erase(It->second.va);
  Bos.erase(It);
  FreeGeneration.fetch_add(1, std::memory_order_release);
  return 0;
}

int Kfd::mapMemory(void *A, bool Map) {
  // Same layout for map and unmap: {handle, device_ids_array_ptr, n_devices, n_success}.
  auto *Args = static_cast<kfd_ioctl_map_memory_to_gpu_args *>(A);
  std::lock_guard<std::mutex> L(Mu);
  const char *What = Map ? "MAP_MEMORY_TO_GPU" : "UNMAP_MEMORY_FROM_GPU";
  if (!Bos.count(Args->handle)) {
    report("%s of handle 0x%llx, which names no buffer object", What, (unsigned long long)Args->handle);
    return -EINVAL;
  }
  const uint32_t *Ids = reinterpret_cast<const uint32_t *>(Args->device_ids_array_ptr);
  for (uint32_t i = 0; i < Args->n_devices; ++i)
    if (Ids && Ids[i] != T->gpuId) {
      report("%s for gpu_id 0x%x: the only GPU is 0x%x", What, Ids[i], T->gpuId);
      return -EINVAL;
    }
  Args->n_success = Args->n_devices;
  return 0;
}

void *Kfd::mmap(void *Addr, size_t Len, int Prot, int Flags, bool Render, uint64_t Offset) {
  int Fixed = Flags & MAP_FIXED;
  if (!Render && (Offset & (0x3ull << 62)) == MmapTypeDoorbell) {
    std::lock_guard<std::mutex> L(Mu);
    if (Len > 8192) ftruncate(DoorbellFd, off_t(Len));
    VGPU_TRACE("mmap doorbells at %p (%zu bytes)", Addr, Len);
    return ::mmap(Addr, Len, Prot, MAP_SHARED | Fixed, DoorbellFd, 0);
  }
  // BO pages: through the render node (VRAM/GTT) or /dev/kfd (the MMIO remap page).
  if (Offset < PhysBytes) {
    VGPU_TRACE("mmap BO backing 0x%llx at %p (%zu bytes)", (unsigned long long)Offset, Addr, Len);
    return ::mmap(Addr, Len, Prot, MAP_SHARED | Fixed, PhysFd, off_t(Offset));
  }
  report("unsupported mmap of %s at offset 0x%llx (%zu bytes)", Render ? "the render node" : "/dev/kfd",
         (unsigned long long)Offset, Len);
  errno = EINVAL;
  return MAP_FAILED;
}

bool Kfd::boContaining(uint64_t Va, BufferObject &Out) {
  std::lock_guard<std::mutex> L(Mu);
  auto It = BoByVa.upper_bound(Va);
  if (It == BoByVa.begin()) return false;
  --It;
  const BufferObject &Bo = Bos[It->second];
  if (Va >= Bo.va + Bo.size) return false;
  Out = Bo;
  return true;
}

uint8_t *Kfd::translate(uint64_t Va, uint64_t N) {
  // The emulator calls this for every memory access: a per-thread cache of
  // the last BO's range, invalidated whenever any BO is freed.
  struct Cache {
    uint64_t lo = 1, hi = 0, delta = 0, gen = ~0ull;
  };
  thread_local Cache C;
  uint64_t G = FreeGeneration.load(std::memory_order_acquire);
  if (C.gen == G && Va >= C.lo && Va + N <= C.hi) return reinterpret_cast<uint8_t *>(Va + C.delta);
  std::lock_guard<std::mutex> L(Mu);
  auto It = BoByVa.upper_bound(Va);
  if (It == BoByVa.begin()) return nullptr;
  --It;
  const BufferObject &Bo = Bos[It->second];
  if (Va + N > Bo.va + Bo.size) return nullptr;
  if (Bo.flags & KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL) return nullptr;
  // VRAM/GTT: GPU VA == CPU VA (the BO's pages are mapped at va); USERPTR: at userptr.
  uint64_t Delta = (Bo.flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR) ? Bo.userptr - Bo.va : 0;
  C = Cache{Bo.va, Bo.va + Bo.size, Delta, G};
  return reinterpret_cast<uint8_t *>(Va + Delta);
}

volatile uint64_t *Kfd::doorbell(uint64_t Offset) {
  return DoorbellMap ? reinterpret_cast<volatile uint64_t *>(DoorbellMap + (Offset & 8191)) : nullptr;
}

int Kfd::createEvent(void *A) {
  auto *Args = static_cast<kfd_ioctl_create_event_args *>(A);
  std::lock_guard<std::mutex> L(Mu);
  if (Args->event_type != KFD_IOC_EVENT_SIGNAL && Args->event_type != KFD_IOC_EVENT_HW_EXCEPTION &&
      Args->event_type != KFD_IOC_EVENT_MEMORY) {
    report("CREATE_EVENT of event type %u is not supported", Args->event_type);
    return -EINVAL;
  }
  if (NextEvent >= 4096) { // KFD_SIGNAL_EVENT_LIMIT slots
    report("CREATE_EVENT: all 4096 event slots of the event page are used");
    return -ENOMEM;
  }
  uint32_t Id = NextEvent++;
  Events[Id] = Event{Args->event_type, Args->auto_reset != 0, false};
  Args->event_id = Id;
  Args->event_trigger_data = Id;
  Args->event_slot_index = Id;
  // The thunk passes its event page BO's handle with the first event only; the
  // driver reports the page's offset with every event (the thunk sets an
  // event's slot address, HWData2, only when it is non-zero).
  if (Args->event_page_offset && !EventPageOffset) EventPageOffset = Args->event_page_offset;
  Args->event_page_offset = EventPageOffset;
  return 0;
}

int Kfd::destroyEvent(void *A) {
  auto *Args = static_cast<kfd_ioctl_destroy_event_args *>(A);
  std::lock_guard<std::mutex> L(Mu);
  if (Events.erase(Args->event_id)) return 0;
  report("DESTROY_EVENT of event %u, which does not exist", Args->event_id);
  return -EINVAL;
}

int Kfd::setEvent(void *A, bool Set) {
  uint32_t Id = static_cast<kfd_ioctl_set_event_args *>(A)->event_id; // reset args: same layout
  {
    std::lock_guard<std::mutex> L(Mu);
    auto It = Events.find(Id);
    if (It == Events.end()) {
      report("%s of event %u, which does not exist", Set ? "SET_EVENT" : "RESET_EVENT", Id);
      return -EINVAL;
    }
    if (Set) raiseEvent(Id, It->second);
    else It->second.signaled = false;
  }
  if (Set) EventCv.notify_all();
  return 0;
}

// amdkfd's set_event (kfd_events.c): every waiter now on the event's wait list
// is activated, and an auto-reset event stays signaled only when nobody was
// waiting for it (the wake-up is then consumed by the waiters, each of them).
// Latching the event for the waiters to consume instead loses wake-ups when
// two threads wait on one event: ROCr's async-events thread and a thread
// destroying an AQL queue both wait on the queues' shared event
// (AqlQueue::queue_event_); the first to run took the wake-up and the other
// slept on (~AqlQueue waits for its queue_inactive_signal to change, which
// the async thread's DynamicScratchHandler had already done).
void Kfd::raiseEvent(uint32_t Id, Event &E) {
  bool Listed = false;
  for (auto &[Serial, W] : Waits)
    for (size_t i = 0; i < W.events.size(); ++i)
      if (W.events[i] == Id && W.listed[i]) {
        Listed = true;
        W.activated[i] = 1;
      }
  E.signaled = !E.autoReset || !Listed;
}

void Kfd::signalEvent(uint32_t Id) {
  {
    std::lock_guard<std::mutex> L(Mu);
    auto It = Events.find(Id);
    if (It == Events.end()) return;
    raiseEvent(Id, It->second);
  }
  EventCv.notify_all();
}

int Kfd::waitEvents(void *A) {
  auto *Args = static_cast<kfd_ioctl_wait_events_args *>(A);
  auto *Data = reinterpret_cast<kfd_event_data *>(Args->events_ptr);
  // KFD_EVENT_TIMEOUT_INFINITE: bounded by the deadline here. (ROCr 5.2.3 never
  // passes it: its unbounded signal waits ask for 0xFFFFFFFE ms at a time; a
  // GPU that never finishes is caught by the hang monitor instead.)
  bool Infinite = Args->timeout == 0xffffffffu;
  auto Deadline = std::chrono::steady_clock::now() +
                  (Infinite ? std::chrono::milliseconds(waitDeadline()) : std::chrono::milliseconds(Args->timeout));
  std::unique_lock<std::mutex> L(Mu);
  for (uint32_t i = 0; i < Args->num_events; ++i)
    if (!Events.count(Data[i].event_id)) { // as amdkfd's kfd_wait_on_events: an unknown id is EINVAL
      report("WAIT_EVENTS on event %u, which does not exist", Data[i].event_id);
      return -EINVAL;
    }
  uint64_t Serial = NextWait++;
  Wait &W = Waits[Serial];
  // As amdkfd's init_event_waiter_get_status: a signaled event activates this
  // waiter at once (an auto-reset one is consumed); the others put the waiter
  // on their wait list, where raiseEvent activates it.
  for (uint32_t i = 0; i < Args->num_events; ++i) {
    Event &E = Events[Data[i].event_id];
    W.events.push_back(Data[i].event_id);
    W.activated.push_back(E.signaled);
    W.listed.push_back(!E.signaled);
    E.signaled = E.signaled && !E.autoReset;
  }
  W.all = Args->wait_for_all != 0;
  W.timeoutMs = Args->timeout;
  W.since = std::chrono::steady_clock::now();
  auto Ready = [&W] { // amdkfd's test_event_condition
    size_t N = 0;
    for (char A : W.activated) N += A != 0;
    return W.all ? N == W.activated.size() : N > 0;
  };
  bool Done = EventCv.wait_until(L, Deadline, Ready);
  Waits.erase(Serial);
  if (Done) {
    Args->wait_result = KFD_IOC_WAIT_RESULT_COMPLETE;
    return 0;
  }
  if (Infinite) {
    std::string Ids;
    for (uint32_t i = 0; i < Args->num_events; ++i) Ids += " " + std::to_string(Data[i].event_id);
    report("WAIT_EVENTS: an infinite wait for %s of event(s)%s passed the deadline (VGPU_WAIT_DEADLINE_S); "
           "%zu queue(s) exist",
           Args->wait_for_all ? "all" : "any", Ids.c_str(), Queues.size());
    for (auto &[Id, Q] : Queues) report("  queue %u: %s", Id, Q->describe().c_str());
    Args->wait_result = KFD_IOC_WAIT_RESULT_FAIL;
    return 0;
  }
  Args->wait_result = KFD_IOC_WAIT_RESULT_TIMEOUT;
  return 0;
}

std::string Kfd::pendingWaits() {
  std::string S;
  auto Now = std::chrono::steady_clock::now();
  for (auto &[Serial, W] : Waits) {
    S += "  host wait (WAIT_EVENTS, " + std::string(W.all ? "all" : "any") + " of events";
    for (uint32_t E : W.events) S += " " + std::to_string(E);
    S += ", timeout " + (W.timeoutMs == 0xffffffffu ? std::string("infinite") : std::to_string(W.timeoutMs) + " ms") +
         ") blocked for " +
         std::to_string(std::chrono::duration_cast<std::chrono::seconds>(Now - W.since).count()) + " s\n";
  }
  return S.empty() ? "  no host thread is blocked in WAIT_EVENTS (the runtime may be polling the signal)\n" : S;
}

void Kfd::monitorHangs() {
  const auto Deadline = waitDeadline();
  const int64_t DeadlineNs = std::chrono::duration_cast<std::chrono::nanoseconds>(Deadline).count();
  // Checked 8 times per deadline (at most every 250 ms): a hang is reported
  // between 1x and 1.125x the deadline after its packet started.
  const auto Period = std::min<std::chrono::milliseconds>(std::chrono::milliseconds(250),
                                                          std::chrono::duration_cast<std::chrono::milliseconds>(Deadline) / 8);
  for (;;) {
    std::this_thread::sleep_for(Period);
    std::unique_lock<std::mutex> L(Mu);
    int64_t Now = std::chrono::steady_clock::now().time_since_epoch().count();
    for (auto &[Id, Q] : Queues) {
      int64_t Since = Q->busySinceNs();
      if (!Since || Now - Since <= DeadlineNs) continue;
      report("queue %u: one packet has run for %lld s, past the deadline (VGPU_WAIT_DEADLINE_S=%lld): the virtual "
             "GPU is hung (a kernel that does not end, or a wait that is never satisfied); the process ends (a GPU "
             "queue error)",
             Id, (long long)((Now - Since) / 1000000000), (long long)Deadline.count());
      report("  queue %u: %s", Id, Q->describe().c_str());
      for (auto &[Other, Q2] : Queues)
        if (Other != Id) report("  queue %u: %s", Other, Q2->describe().c_str());
      fputs(("vgpu: pending:\n" + pendingWaits()).c_str(), stderr);
      fflush(stderr);
      _exit(70);
    }
  }
}

int Kfd::createQueue(void *A) {
  auto *Args = static_cast<kfd_ioctl_create_queue_args *>(A);
  if (Args->gpu_id != T->gpuId) {
    report("CREATE_QUEUE for gpu_id 0x%x: the only GPU is 0x%x", Args->gpu_id, T->gpuId);
    return -EINVAL;
  }
  if (!DoorbellMap) return -ENOMEM;
  const bool Sdma = Args->queue_type == KFD_IOC_QUEUE_TYPE_SDMA || Args->queue_type == KFD_IOC_QUEUE_TYPE_SDMA_XGMI;
  if (Args->queue_type != KFD_IOC_QUEUE_TYPE_COMPUTE_AQL && !Sdma) {
    report("CREATE_QUEUE of queue type %u is not supported (only AQL compute queues and SDMA queues)",
           Args->queue_type);
    return -EINVAL;
  }
  if (!Args->ring_size || (Args->ring_size & (Args->ring_size - 1)) || (!Sdma && Args->ring_size % 64)) {
    report("CREATE_QUEUE: %s ring size %u is not a power of two%s", Sdma ? "SDMA" : "AQL", Args->ring_size,
           Sdma ? "" : " of 64-byte packets");
    return -EINVAL;
  }
  std::call_once(MonitorOnce, [this] { std::thread([this] { monitorHangs(); }).detach(); });
  std::lock_guard<std::mutex> L(Mu);
  uint32_t Id = 0; // the lowest free slot (amdkfd: find_first_zero_bit of the process's queue bitmap)
  for (uint32_t U : QueueIdsUsed) {
    if (U != Id) break;
    ++Id;
  }
  if (Id >= 1024) { // the doorbell page holds 1024 64-bit doorbells
    report("CREATE_QUEUE: all 1024 doorbells of the virtual GPU are in use (%zu queues exist)", Queues.size());
    return -ENOMEM;
  }
  QueueIdsUsed.insert(Id);
  QueueDesc D;
  D.id = Id;
  D.ringBase = Args->ring_base_address;
  D.ringBytes = Args->ring_size;
  D.writePtr = Args->write_pointer_address;
  D.readPtr = Args->read_pointer_address;
  D.doorbellOffset = uint64_t(Id) * 8;
  *doorbell(D.doorbellOffset) = ~0ull; // a recycled slot starts un-rung
  Args->queue_id = Id;
  Args->doorbell_offset = MmapTypeDoorbell | D.doorbellOffset;
  VGPU_TRACE("  %s queue %u ring 0x%llx (%u bytes) rptr 0x%llx wptr 0x%llx", Sdma ? "SDMA" : "AQL", Id,
             (unsigned long long)D.ringBase, D.ringBytes, (unsigned long long)D.readPtr,
             (unsigned long long)D.writePtr);
  if (Sdma) Queues[Id] = std::make_unique<SdmaEngine>(*this, D);
  else Queues[Id] = std::make_unique<CommandProcessor>(*this, D);
  return 0;
}

int Kfd::destroyQueue(void *A) {
  auto *Args = static_cast<kfd_ioctl_destroy_queue_args *>(A);
  std::unique_ptr<HardwareQueue> Q;
  {
    std::lock_guard<std::mutex> L(Mu);
    auto It = Queues.find(Args->queue_id);
    if (It == Queues.end()) {
      report("DESTROY_QUEUE of queue %u, which does not exist", Args->queue_id);
      return -EINVAL;
    }
    Q = std::move(It->second);
    Queues.erase(It);
  }
  Q.reset(); // stops and joins the engine thread outside the lock
  std::lock_guard<std::mutex> L(Mu);
  QueueIdsUsed.erase(Args->queue_id); // only now may a new queue take the id and its doorbell
  return 0;
}

int Kfd::getTileConfig(void *A) {
  auto *Args = static_cast<kfd_ioctl_get_tile_config_args *>(A);
  Args->num_tile_configs = 0; // gfx9+: no tiling tables
  Args->num_macro_tile_configs = 0;
  Args->gb_addr_config = 0;
  Args->num_banks = 0;
  Args->num_ranks = 0;
  return 0;
}

int Kfd::getClockCounters(void *A) {
  auto *Args = static_cast<kfd_ioctl_get_clock_counters_args *>(A);
  uint64_t Ns = nowNs(CLOCK_MONOTONIC_RAW);
  Args->gpu_clock_counter = Ns / 10; // gpuTimestamp()
  Args->cpu_clock_counter = Ns;
  Args->system_clock_counter = Ns;
  Args->system_clock_freq = 1000000000ull;
  return 0;
}

uint64_t Kfd::gpuTimestamp() { return nowNs(CLOCK_MONOTONIC_RAW) / 10; }

int Kfd::setXnackMode(void *A) {
  auto *Args = static_cast<kfd_ioctl_set_xnack_mode_args *>(A);
  if (Args->xnack_enabled < 0) { // query
    Args->xnack_enabled = 0;
    return 0;
  }
  if (Args->xnack_enabled == 0) return 0;
  report("SET_XNACK_MODE(1): XNACK (retry on page fault) is not offered by the virtual GPU");
  return -EPERM;
}

} // namespace vgpu

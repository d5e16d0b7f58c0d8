//===- kfd_events.cpp - KFD event semantics of the virtual GPU, as amdkfd's -===//
//
// vgpu.kfd_events: under LD_PRELOAD=libvgpu.so, CREATE_EVENT / SET_EVENT /
// RESET_EVENT / WAIT_EVENTS are sent straight to /dev/kfd and must behave as
// amdkfd's kfd_events.c (set_event, init_event_waiter_get_status,
// test_event_condition):
//  * one SET_EVENT of an auto-reset event wakes every thread waiting on it --
//    here one waiting for "all of E" and one for "any of F, E", the shape of a
//    thread destroying an AQL queue and ROCr's async-events thread, which both
//    wait on the queues' shared event (the wake-up lost by the second waiter
//    hung shim.graph_conditional.vgpu, docs/notes/session9-vgpu.md);
//  * an auto-reset event set while nobody waits stays signaled for the next
//    wait, which consumes it (the wait after that times out);
//  * a manual-reset event stays signaled for every wait until RESET_EVENT.
// A waiter is known to be blocked when it has announced the call and its
// thread sleeps (/proc/self/task/TID/stat state S). Prints "kfd events: all
// as amdkfd" when every case holds.
//
//===----------------------------------------------------------------------===//
#include <linux/kfd_ioctl.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <string>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

int Kfd = -1;
int Bad = 0;

void check(bool Ok, const char *What) {
  printf("%s: %s\n", What, Ok ? "ok" : "FAIL");
  Bad += !Ok;
}

uint32_t createEvent(bool AutoReset) {
  kfd_ioctl_create_event_args C = {};
  C.event_type = KFD_IOC_EVENT_SIGNAL;
  C.auto_reset = AutoReset;
  if (ioctl(Kfd, AMDKFD_IOC_CREATE_EVENT, &C) != 0) return 0;
  return C.event_id;
}

bool setEvent(uint32_t Id, bool Set) {
  kfd_ioctl_set_event_args S = {}; // reset args: same layout
  S.event_id = Id;
  return ioctl(Kfd, Set ? AMDKFD_IOC_SET_EVENT : AMDKFD_IOC_RESET_EVENT, &S) == 0;
}

/// WAIT_EVENTS on Ids; returns the wait_result (or ~0u if the ioctl failed).
uint32_t waitEvents(std::initializer_list<uint32_t> Ids, bool All, uint32_t TimeoutMs) {
  kfd_event_data Ev[4] = {};
  uint32_t N = 0;
  for (uint32_t Id : Ids) Ev[N++].event_id = Id;
  kfd_ioctl_wait_events_args W = {};
  W.events_ptr = reinterpret_cast<uint64_t>(Ev);
  W.num_events = N;
  W.wait_for_all = All;
  W.timeout = TimeoutMs;
  if (ioctl(Kfd, AMDKFD_IOC_WAIT_EVENTS, &W) != 0) return ~0u;
  return W.wait_result;
}

/// A thread that waits once; Tid and Entered tell the main thread when it is blocked.
struct Waiter {
  std::atomic<long> Tid{0};
  std::atomic<bool> Entered{false};
  std::atomic<uint32_t> Result{~0u};
  std::atomic<long long> Ms{-1};
  std::thread T;
  void start(std::initializer_list<uint32_t> Ids, bool All, uint32_t TimeoutMs) {
    std::vector<uint32_t> V(Ids);
    T = std::thread([this, V, All, TimeoutMs] {
      Tid = syscall(SYS_gettid);
      Entered = true;
      auto T0 = std::chrono::steady_clock::now();
      uint32_t R = V.size() == 1 ? waitEvents({V[0]}, All, TimeoutMs) : waitEvents({V[0], V[1]}, All, TimeoutMs);
      Ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - T0).count();
      Result = R;
    });
  }
  bool sleeping() const {
    if (!Entered) return false;
    std::ifstream F("/proc/self/task/" + std::to_string(Tid.load()) + "/stat");
    std::string S;
    std::getline(F, S);
    size_t P = S.rfind(')');
    return P != std::string::npos && P + 2 < S.size() && S[P + 2] == 'S';
  }
};

} // namespace

int main() {
  Kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
  if (Kfd < 0) {
    printf("cannot open /dev/kfd FAIL\n");
    return 1;
  }
  uint32_t E = createEvent(true), F = createEvent(true), M = createEvent(false);
  check(E && F && M, "CREATE_EVENT (two auto-reset, one manual-reset)");

  // 1. Two waiters, one SET_EVENT: both complete (amdkfd activates every listed waiter).
  Waiter A, B;
  A.start({E}, true, 5000);
  B.start({F, E}, false, 5000);
  auto Until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!(A.sleeping() && B.sleeping()) && std::chrono::steady_clock::now() < Until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::this_thread::sleep_for(std::chrono::milliseconds(50)); // past the ioctl's entry, into the wait
  check(A.sleeping() && B.sleeping(), "both waiters blocked in WAIT_EVENTS");
  check(setEvent(E, true), "SET_EVENT");
  A.T.join();
  B.T.join();
  printf("waiter all-of(E): result %u after %lld ms; waiter any-of(F, E): result %u after %lld ms\n", A.Result.load(),
         A.Ms.load(), B.Result.load(), B.Ms.load());
  check(A.Result == KFD_IOC_WAIT_RESULT_COMPLETE && B.Result == KFD_IOC_WAIT_RESULT_COMPLETE,
        "one SET_EVENT of an auto-reset event completes both waits");
  check(waitEvents({E}, false, 0) == KFD_IOC_WAIT_RESULT_TIMEOUT,
        "the event is not left signaled after waking its waiters");

  // 2. Set while nobody waits: latched once.
  check(setEvent(F, true), "SET_EVENT with no waiter");
  check(waitEvents({F}, false, 0) == KFD_IOC_WAIT_RESULT_COMPLETE, "the next wait completes at once");
  check(waitEvents({F}, false, 0) == KFD_IOC_WAIT_RESULT_TIMEOUT, "the wait after it times out (auto-reset)");

  // 3. Manual reset: signaled for every wait until RESET_EVENT.
  check(setEvent(M, true), "SET_EVENT (manual-reset)");
  check(waitEvents({M}, false, 0) == KFD_IOC_WAIT_RESULT_COMPLETE &&
            waitEvents({M, E}, true, 0) == KFD_IOC_WAIT_RESULT_TIMEOUT &&
            waitEvents({M}, false, 0) == KFD_IOC_WAIT_RESULT_COMPLETE,
        "a manual-reset event completes each wait (all-of with an unset event still waits)");
  check(setEvent(M, false) && waitEvents({M}, false, 0) == KFD_IOC_WAIT_RESULT_TIMEOUT,
        "RESET_EVENT clears it");
  if (Bad) printf("kfd events: %d FAIL\n", Bad);
  else printf("kfd events: all as amdkfd\n");
  return Bad != 0;
}

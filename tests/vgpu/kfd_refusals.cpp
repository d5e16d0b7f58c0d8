//===- kfd_refusals.cpp - requests the virtual GPU refuses, by name -------===//
//
// vgpu.kfd_refusals: under LD_PRELOAD=libvgpu.so, requests the driver model
// cannot serve are sent straight to /dev/kfd and the render node (the
// <linux/kfd_ioctl.h> layouts); each must fail with the errno amdkfd would
// give and a "vgpu: ..." line naming the request: an unknown request number
// (SVM), a non-AQL compute queue, WAIT_EVENTS / DESTROY_EVENT on an event that
// does not exist, FREE of an unknown buffer handle, a DRM ioctl on the render
// node. stderr is captured in a temporary file and checked here; prints
// "kfd refusals: all named" when every case holds.
//
//===----------------------------------------------------------------------===//
#include <linux/kfd_ioctl.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/ioctl.h>
#include <unistd.h>

namespace {

struct Case {
  const char *what;
  int err;             ///< the errno expected
  const char *message; ///< the text the vgpu line must contain
  int got = 0;         ///< errno seen (0: the call succeeded)
};

} // namespace

int main() {
  FILE *Log = tmpfile();
  if (!Log) return 2;
  int Saved = dup(2);
  fflush(stderr);
  dup2(fileno(Log), 2);

  Case Cases[] = {
      {"SVM", EINVAL, "unsupported KFD request AMDKFD_IOC_SVM"},
      {"CREATE_QUEUE (PM4 compute)", EINVAL, "CREATE_QUEUE of queue type 0 is not supported"},
      {"WAIT_EVENTS (unknown event)", EINVAL, "WAIT_EVENTS on event 999, which does not exist"},
      {"DESTROY_EVENT (unknown event)", EINVAL, "DESTROY_EVENT of event 999, which does not exist"},
      {"FREE_MEMORY_OF_GPU (unknown handle)", EINVAL, "FREE_MEMORY_OF_GPU of handle 0xdead, which names no buffer object"},
      {"DRM ioctl on the render node", EINVAL, "unsupported ioctl 0xc0406400 on the render node"},
  };
  int Kfd = open("/dev/kfd", O_RDWR | O_CLOEXEC);
  int Render = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
  auto Errno = [](int R) { return R == 0 ? 0 : errno; };
  if (Kfd >= 0 && Render >= 0) {
    char Svm[64] = {};
    Cases[0].got = Errno(ioctl(Kfd, AMDKFD_IOC_SVM, Svm));
    kfd_ioctl_create_queue_args Q = {};
    Q.gpu_id = 0x5a1d; // vgpu/lib/Target.cpp, gfx90a
    Q.queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE;
    Q.ring_size = 4096;
    Cases[1].got = Errno(ioctl(Kfd, AMDKFD_IOC_CREATE_QUEUE, &Q));
    kfd_event_data Ev = {};
    Ev.event_id = 999;
    kfd_ioctl_wait_events_args W = {};
    W.events_ptr = reinterpret_cast<uint64_t>(&Ev);
    W.num_events = 1;
    W.timeout = 0xffffffffu; // would block forever were the id not checked
    Cases[2].got = Errno(ioctl(Kfd, AMDKFD_IOC_WAIT_EVENTS, &W));
    kfd_ioctl_destroy_event_args D = {};
    D.event_id = 999;
    Cases[3].got = Errno(ioctl(Kfd, AMDKFD_IOC_DESTROY_EVENT, &D));
    kfd_ioctl_free_memory_of_gpu_args F = {};
    F.handle = 0xdead;
    Cases[4].got = Errno(ioctl(Kfd, AMDKFD_IOC_FREE_MEMORY_OF_GPU, &F));
    char Version[64] = {};
    Cases[5].got = Errno(ioctl(Render, 0xc0406400 /* DRM_IOCTL_VERSION */, Version));
  }
  fflush(stderr);
  dup2(Saved, 2);
  close(Saved);

  std::string Text;
  rewind(Log);
  char Buf[4096];
  for (size_t N; (N = fread(Buf, 1, sizeof Buf, Log)) > 0;) Text.append(Buf, N);
  if (Kfd < 0 || Render < 0) {
    fprintf(stderr, "cannot open the virtual /dev/kfd (%d) or render node (%d); is libvgpu.so preloaded?\n%s", Kfd,
            Render, Text.c_str());
    return 1;
  }
  int Bad = 0;
  for (const Case &C : Cases) {
    bool Named = Text.find(std::string("vgpu: ") + C.message) != std::string::npos;
    printf("kfd refusals: %-36s errno %-2d %s\n", C.what, C.got, Named ? "named" : "NOT NAMED");
    if (C.got != C.err || !Named) {
      fprintf(stderr, "FAIL: %s: errno %d (want %d), message \"%s\" %s\n", C.what, C.got, C.err, C.message,
              Named ? "present" : "missing");
      Bad = 1;
    }
  }
  if (Bad) {
    fprintf(stderr, "captured stderr:\n%s", Text.c_str());
    return 1;
  }
  printf("kfd refusals: all named\n");
  return 0;
}

//===- Interpose.cpp - libc / libdrm entry points the preload replaces ----===//
//
// libvgpu.so is loaded with LD_PRELOAD, so these definitions win over
// libc's and libdrm's for every library of the process. They route:
//   * open/openat("/dev/kfd"), open("/dev/dri/renderD<minor>") to memfds
//     this library owns (so close/fcntl/poll on them behave), and ioctl/mmap
//     on those fds to the driver model (Kfd.cpp);
//   * fopen/open/opendir of the KFD sysfs topology to the tree Topology.cpp
//     wrote for this process;
//   * drmOpenRender/drmClose, amdgpu_device_initialize/_deinitialize and
//     amdgpu_get_marketing_name (the libdrm calls libhsakmt 5.2 makes for a
//     node's marketing name) to the virtual device;
//   * rocminfo's "lsmod | grep amdgpu" probe and its fopen("/dev/kfd") check.
// Every other call goes to the next definition (dlsym RTLD_NEXT).
//
//===----------------------------------------------------------------------===//
#include "Kfd.h"
#include "Log.h"
#include "Topology.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <ftw.h>
#include <mutex>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

using namespace vgpu;

namespace {

template <class F> F next(const char *Name) {
  void *P = dlsym(RTLD_NEXT, Name);
  if (!P) {
    report("cannot find the next definition of %s", Name);
    _exit(71);
  }
  return reinterpret_cast<F>(P);
}
#define NEXT(name) static auto Real = next<decltype(&::name)>(#name)

/// What each open fd is (0: not ours, Kfd, Render); several render fds can be
/// open at once (libhsakmt opens the node for its VM and again for the
/// marketing name).
enum : uint8_t { NotOurs = 0, KfdFile = 1, RenderFile = 2 };
constexpr int MaxFds = 65536;
std::atomic<uint8_t> FdKind[MaxFds];
uint8_t fdKind(int Fd) {
  return Fd >= 0 && Fd < MaxFds ? FdKind[Fd].load(std::memory_order_acquire) : uint8_t(NotOurs);
}

/// The KFD sysfs tree of this device, shared through a content-named directory.
class SysfsTree {
public:
  static SysfsTree &get() {
    static SysfsTree *S = new SysfsTree;
    return *S;
  }
  const std::string &root() {
    std::call_once(Once, [this] { create(); });
    return Root;
  }

private:
  void create() {
    const Target *T = Kfd::instance().ok() ? &Kfd::instance().target() : nullptr;
    if (!T) return;
    TopologyFiles Files = topologyFiles(*T);
    char Hash[32];
    snprintf(Hash, sizeof Hash, "%016llx", (unsigned long long)topologyHash(Files));
    const char *Tmp = getenv("TMPDIR");
    std::string Dir = std::string(Tmp && *Tmp ? Tmp : "/tmp");
    std::string Final = Dir + "/vgpu-sysfs-" + std::to_string(getuid()) + "-" + Hash;
    if (access((Final + "/topology/generation_id").c_str(), R_OK) == 0) {
      Root = Final;
      return;
    }
    std::string Tpl = Final + ".XXXXXX";
    if (!mkdtemp(Tpl.data())) {
      report("cannot create the topology directory %s: %s", Tpl.c_str(), strerror(errno));
      return;
    }
    if (std::string Err = writeTopology(Tpl, Files); !Err.empty()) {
      report("writing the KFD topology failed: %s", Err.c_str());
      return;
    }
    if (rename(Tpl.c_str(), Final.c_str()) != 0) { // another process won the race: use its copy
      nftw(Tpl.c_str(), [](const char *P, const struct stat *, int, FTW *) { return ::remove(P); }, 16,
           FTW_DEPTH | FTW_PHYS);
      if (access((Final + "/topology/generation_id").c_str(), R_OK) != 0) {
        report("cannot install the topology directory %s: %s", Final.c_str(), strerror(errno));
        return;
      }
    }
    Root = Final;
  }
  std::once_flag Once;
  std::string Root;
};

/// The path to really open for \p Path ("" = unchanged).
std::string redirect(const char *Path) {
  if (!Path || strncmp(Path, "/sys/", 5) != 0) return {};
  const std::string &Root = SysfsTree::get().root();
  if (Root.empty()) return {};
  return redirectSysfs(Path, Root);
}

bool isRenderNode(const char *Path) {
  if (!Path || !Kfd::instance().ok()) return false;
  std::string Want = "/dev/dri/renderD" + std::to_string(Kfd::instance().target().drmRenderMinor);
  return Want == Path;
}

int openDevice(const char *Path, int Flags) {
  if (!Kfd::instance().ok()) {
    errno = ENOENT;
    return -1;
  }
  bool IsKfd = !strcmp(Path, "/dev/kfd");
  int Fd = memfd_create(IsKfd ? "vgpu-kfd" : "vgpu-render", (Flags & O_CLOEXEC) ? MFD_CLOEXEC : 0);
  if (Fd >= MaxFds) {
    ::close(Fd);
    errno = EMFILE;
    return -1;
  }
  if (Fd >= 0) FdKind[Fd].store(IsKfd ? KfdFile : RenderFile, std::memory_order_release);
  VGPU_TRACE("open %s -> fd %d", Path, Fd);
  return Fd;
}

bool isAbsolute(const char *P) { return P && P[0] == '/'; }

bool isDevicePath(const char *P) { return P && (!strcmp(P, "/dev/kfd") || isRenderNode(P)); }

} // namespace

extern "C" {

int open(const char *Path, int Flags, ...) {
  NEXT(open);
  mode_t Mode = 0;
  if (Flags & (O_CREAT | O_TMPFILE)) {
    va_list A;
    va_start(A, Flags);
    Mode = va_arg(A, mode_t);
    va_end(A);
  }
  if (isDevicePath(Path)) return openDevice(Path, Flags);
  std::string R = redirect(Path);
  return Real(R.empty() ? Path : R.c_str(), Flags, Mode);
}

int open64(const char *Path, int Flags, ...) {
  mode_t Mode = 0;
  if (Flags & (O_CREAT | O_TMPFILE)) {
    va_list A;
    va_start(A, Flags);
    Mode = va_arg(A, mode_t);
    va_end(A);
  }
  return open(Path, Flags, Mode);
}

int openat(int Dir, const char *Path, int Flags, ...) {
  NEXT(openat);
  mode_t Mode = 0;
  if (Flags & (O_CREAT | O_TMPFILE)) {
    va_list A;
    va_start(A, Flags);
    Mode = va_arg(A, mode_t);
    va_end(A);
  }
  if (isAbsolute(Path)) {
    if (isDevicePath(Path)) return openDevice(Path, Flags);
    std::string R = redirect(Path);
    if (!R.empty()) return Real(Dir, R.c_str(), Flags, Mode);
  }
  return Real(Dir, Path, Flags, Mode);
}

int openat64(int Dir, const char *Path, int Flags, ...) {
  mode_t Mode = 0;
  if (Flags & (O_CREAT | O_TMPFILE)) {
    va_list A;
    va_start(A, Flags);
    Mode = va_arg(A, mode_t);
    va_end(A);
  }
  return openat(Dir, Path, Flags, Mode);
}

FILE *fopen(const char *Path, const char *Mode) {
  NEXT(fopen);
  // rocminfo checks it may open /dev/kfd read-write with fopen("/dev/kfd", "r+").
  if (isDevicePath(Path)) return Real("/dev/null", Mode);
  std::string R = redirect(Path);
  return Real(R.empty() ? Path : R.c_str(), Mode);
}

FILE *fopen64(const char *Path, const char *Mode) { return fopen(Path, Mode); }

DIR *opendir(const char *Path) {
  NEXT(opendir);
  std::string R = redirect(Path);
  return Real(R.empty() ? Path : R.c_str());
}

FILE *popen(const char *Cmd, const char *Mode) {
  NEXT(popen);
  // rocminfo 5.2 checks that the amdgpu kernel module is loaded this way.
  if (Cmd && !strcmp(Cmd, "lsmod | grep amdgpu") && Kfd::instance().ok())
    return Real("echo 'amdgpu 0 0 - Live 0x0000000000000000 (virtual GPU: libvgpu.so)'", Mode);
  return Real(Cmd, Mode);
}

int close(int Fd) {
  NEXT(close);
  if (fdKind(Fd) != NotOurs) FdKind[Fd].store(NotOurs, std::memory_order_release);
  return Real(Fd);
}

int ioctl(int Fd, unsigned long Request, ...) {
  NEXT(ioctl);
  va_list A;
  va_start(A, Request);
  void *Arg = va_arg(A, void *);
  va_end(A);
  uint8_t Kind = fdKind(Fd);
  if (Kind == KfdFile) {
    int R = Kfd::instance().ioctl(Request, Arg);
    if (R < 0) {
      errno = -R;
      return -1;
    }
    return R;
  }
  if (Kind == RenderFile) {
    report("unsupported ioctl 0x%lx on the render node (DRM/amdgpu requests are not modelled)", Request);
    errno = EINVAL;
    return -1;
  }
  return Real(Fd, Request, Arg);
}

void *mmap(void *Addr, size_t Len, int Prot, int Flags, int Fd, off_t Off) {
  NEXT(mmap);
  if (uint8_t Kind = fdKind(Fd))
    return Kfd::instance().mmap(Addr, Len, Prot, Flags, Kind == RenderFile, uint64_t(Off));
  return Real(Addr, Len, Prot, Flags, Fd, Off);
}

void *mmap64(void *Addr, size_t Len, int Prot, int Flags, int Fd, off_t Off) {
  return mmap(Addr, Len, Prot, Flags, Fd, Off);
}

// ---- libdrm / libdrm_amdgpu -------------------------------------------------------
int drmOpenRender(int Minor) {
  if (!Kfd::instance().ok() || Minor != int(Kfd::instance().target().drmRenderMinor)) {
    errno = ENOENT;
    return -ENOENT;
  }
  std::string P = "/dev/dri/renderD" + std::to_string(Minor);
  return openDevice(P.c_str(), O_RDWR | O_CLOEXEC);
}

int drmClose(int Fd) { return close(Fd); }

struct vgpu_amdgpu_device {
  int fd;
};
int amdgpu_device_initialize(int Fd, uint32_t *Major, uint32_t *Minor, void **Handle) {
  if (fdKind(Fd) != RenderFile) {
    report("amdgpu_device_initialize on fd %d, which is not the virtual render node", Fd);
    return -EINVAL;
  }
  static vgpu_amdgpu_device Dev{0};
  Dev.fd = Fd;
  *Major = 3;
  *Minor = 46;
  *Handle = &Dev;
  return 0;
}
int amdgpu_device_deinitialize(void *) { return 0; }
const char *amdgpu_get_marketing_name(void *) { return "ptx2amd virtual GPU (isa-emu)"; }

} // extern "C"

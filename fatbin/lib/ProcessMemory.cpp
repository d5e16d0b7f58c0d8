//===- ProcessMemory.cpp - readable extent of a pointer in this process ------===//
//
// /proc/self/maps lines are "start-end perms offset dev inode [path]" with
// start/end in hex, sorted by address. We look for the line whose range holds
// P and whose perms start with 'r', then walk forward while the next line is
// readable and contiguous (a section's bytes may span an r-- and an r-x
// mapping of the same file). Fallback without /proc: process_vm_readv on our
// own pid copies one byte per page and fails with EFAULT on an unreadable
// page instead of raising SIGSEGV. Under AddressSanitizer a mapped page is
// not enough: ASan's own shadow memory is mapped read-write, yet an
// instrumented load from it faults (the shadow of the shadow is the
// protected gap), and a heap redzone is mapped but reading it is a report.
// So in ASan builds the extent also stops at the first byte ASan considers
// poisoned or outside application memory (__asan_region_is_poisoned), which
// is what "readable" means to such a process. Found by fuzz.fatbin_memory: a
// wrapper whose data pointer lands in the high shadow.
//
//===----------------------------------------------------------------------===//
#include "fatbin/ProcessMemory.h"

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <sys/uio.h>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PTXFATBIN_ASAN 1
#endif
#endif
#if !defined(PTXFATBIN_ASAN) && defined(__SANITIZE_ADDRESS__)
#define PTXFATBIN_ASAN 1
#endif
#ifdef PTXFATBIN_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace ptxfatbin {
namespace {

bool readMaps(std::string &Out) {
  int Fd = ::open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (Fd < 0) return false;
  char Buf[8192];
  for (;;) {
    ssize_t N = ::read(Fd, Buf, sizeof Buf);
    if (N < 0 && errno == EINTR) continue;
    if (N <= 0) break;
    Out.append(Buf, size_t(N));
  }
  ::close(Fd);
  return !Out.empty();
}

// Parses "start-end perms" at the start of a line; false when malformed.
bool parseLine(const char *L, const char *End, uint64_t &Lo, uint64_t &Hi, bool &Readable) {
  char *Q;
  Lo = std::strtoull(L, &Q, 16);
  if (Q >= End || *Q != '-') return false;
  Hi = std::strtoull(Q + 1, &Q, 16);
  if (Q + 2 >= End || *Q != ' ') return false;
  Readable = Q[1] == 'r';
  return Hi > Lo;
}

uint64_t extentFromMaps(const std::string &Maps, uint64_t Addr, uint64_t Want) {
  uint64_t End = 0; // end of the readable run holding Addr, 0 = not found yet
  for (size_t At = 0; At < Maps.size();) {
    size_t Nl = Maps.find('\n', At);
    if (Nl == std::string::npos) Nl = Maps.size();
    uint64_t Lo, Hi;
    bool R;
    if (parseLine(Maps.data() + At, Maps.data() + Nl, Lo, Hi, R)) {
      if (End == 0) {
        if (Lo <= Addr && Addr < Hi) {
          if (!R) return 0;
          End = Hi;
        }
      } else {
        if (Lo != End || !R) break;
        End = Hi;
      }
      if (End && End - Addr >= Want) return Want;
    }
    At = Nl + 1;
  }
  return End ? End - Addr : 0;
}

uint64_t extentByProbing(uint64_t Addr, uint64_t Want) {
  long PageL = ::sysconf(_SC_PAGESIZE);
  uint64_t Page = PageL > 0 ? uint64_t(PageL) : 4096;
  uint64_t Done = 0;
  while (Done < Want) {
    char Byte;
    iovec Local{&Byte, 1}, Remote{reinterpret_cast<void *>(Addr + Done), 1};
    if (::process_vm_readv(::getpid(), &Local, 1, &Remote, 1, 0) != 1) break;
    uint64_t NextPage = ((Addr + Done) / Page + 1) * Page;
    Done = NextPage - Addr;
  }
  return Done < Want ? Done : Want;
}

} // namespace

uint64_t readableExtent(const void *P, uint64_t Want) {
  uint64_t Addr = reinterpret_cast<uintptr_t>(P);
  if (!P || Want == 0) return 0;
  if (Want > UINT64_MAX - Addr) Want = UINT64_MAX - Addr;
  std::string Maps;
  uint64_t Extent = readMaps(Maps) ? extentFromMaps(Maps, Addr, Want) : extentByProbing(Addr, Want);
#ifdef PTXFATBIN_ASAN
  if (Extent)
    if (void *Bad = __asan_region_is_poisoned(const_cast<void *>(P), size_t(Extent)))
      Extent = uint64_t(reinterpret_cast<uintptr_t>(Bad) - Addr);
#endif
  return Extent;
}

} // namespace ptxfatbin

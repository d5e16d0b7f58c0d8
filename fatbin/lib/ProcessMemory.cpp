//===- ProcessMemory.cpp - readable extent of a pointer in this process ------===//
//
// /proc/self/maps lines are "start-end perms offset dev inode [path]" with
// start/end in hex, sorted by address. We look for the line whose range holds
// P and whose perms start with 'r', then walk forward while the next line is
// readable and contiguous (a section's bytes may span an r-- and an r-x
// mapping of the same file). Fallback without /proc: process_vm_readv on our
// own pid copies one byte per page and fails with EFAULT on an unreadable
// page instead of raising SIGSEGV.
//
//===----------------------------------------------------------------------===//
#include "fatbin/ProcessMemory.h"

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <sys/uio.h>
#include <unistd.h>

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
  if (readMaps(Maps)) return extentFromMaps(Maps, Addr, Want);
  return extentByProbing(Addr, Want);
}

} // namespace ptxfatbin

//===- ProcessAllocator.cpp - allocator setup for front-end executables ---===//
//
// See ProcessAllocator.h. With mimalloc linked in (PTX2AMD_HAVE_MIMALLOC),
// AllocatorUse::FrontEnd enables its large-OS-page mode, which madvise()s its
// segments for transparent huge pages; measured on the 3.65 MB Thrust/CUB
// bench module, front-end system time drops from ~0.10 s to ~0.02 s.
// AllocatorUse::Translation sets it off (mimalloc's default), so pages
// freed by the front end can return to the system. Without mimalloc the
// functions are no-ops.
//
//===----------------------------------------------------------------------===//
#include "ProcessAllocator.h"

#ifdef PTX2AMD_HAVE_MIMALLOC
#include <mimalloc.h>

#include <cstdlib>
#endif

namespace ptx {

void configureProcessAllocator([[maybe_unused]] AllocatorUse use) {
#ifdef PTX2AMD_HAVE_MIMALLOC
  // An explicit MIMALLOC_LARGE_OS_PAGES in the environment wins.
  if (!std::getenv("MIMALLOC_LARGE_OS_PAGES"))
    mi_option_set_enabled(mi_option_large_os_pages, use == AllocatorUse::FrontEnd);
#endif
}

const char *processAllocatorName() {
#ifdef PTX2AMD_HAVE_MIMALLOC
  return "mimalloc";
#else
  return "system";
#endif
}

} // namespace ptx

//===- fatbin/ProcessMemory.h - how many bytes at a pointer are readable -*- C++ -*-===//
//
// __cudaRegisterFatBinary hands the runtime a bare pointer; the container's
// header_size / fat_size come from that memory, so they cannot bound their
// own reads. readableExtent(P, Want) answers "how many bytes starting at P can
// be read without a fault", capped at Want. Method (cheap and robust): read
// /proc/self/maps once per call (one open/read loop, no allocation beyond a
// small buffer), find the mapping holding P and extend over the following
// mappings that are readable and start exactly where the previous one ends.
// A registration does this a handful of times per module, so its cost (tens
// of microseconds) is irrelevant. When /proc is unavailable it falls back to
// probing one byte per page with process_vm_readv on our own pid, which
// reports EFAULT instead of faulting. 0 means P itself is not readable.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace ptxfatbin {

uint64_t readableExtent(const void *P, uint64_t Want);

} // namespace ptxfatbin

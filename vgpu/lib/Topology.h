//===- Topology.h - the KFD sysfs topology of the virtual GPU ---*- C++ -*-===//
//
// libhsakmt 5.2 discovers devices by reading
// /sys/devices/virtual/kfd/kfd/topology/{generation_id,system_properties}
// and nodes/<n>/{gpu_id,name,properties,mem_banks/<m>/properties,
// caches/<c>/properties,io_links/<l>/properties} (topology.c). vgpu writes
// that tree into $TMPDIR/vgpu-sysfs-<uid>-<hash of the contents> (written
// once, renamed into place atomically, shared by every process that
// presents the same device, never deleted: nothing leaks per process) and
// the interposed fopen/open/opendir redirect the KFD sysfs paths into it. Node 0 is the
// host CPU (from the real /proc and /sys), node 1 the virtual GPU.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Target.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace vgpu {

/// The tree for \p T: (relative path, contents) in creation order; a path
/// ending in '/' is a directory.
using TopologyFiles = std::vector<std::pair<std::string, std::string>>;
TopologyFiles topologyFiles(const Target &T);
/// Writes \p Files under \p Root (which must exist); "" or what failed.
std::string writeTopology(const std::string &Root, const TopologyFiles &Files);
/// A hash of the tree's paths and contents (names the shared directory).
uint64_t topologyHash(const TopologyFiles &Files);

/// The redirection of a KFD sysfs path into \p Root, or "" when \p Path is
/// not one (prefixes /sys/devices/virtual/kfd/kfd and /sys/class/kfd/kfd).
std::string redirectSysfs(const char *Path, const std::string &Root);

} // namespace vgpu

//===- Topology.h - the KFD sysfs topology of the virtual GPU ---*- C++ -*-===//
//
// libhsakmt 5.2 discovers devices by reading
// /sys/devices/virtual/kfd/kfd/topology/{generation_id,system_properties}
// and nodes/<n>/{gpu_id,name,properties,mem_banks/<m>/properties,
// caches/<c>/properties,io_links/<l>/properties} (topology.c). vgpu writes
// that tree once per process into a private directory and the interposed
// fopen/open/opendir redirect the KFD sysfs paths into it. Node 0 is the
// host CPU (from the real /proc and /sys), node 1 the virtual GPU.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Target.h"

#include <string>

namespace vgpu {

/// Writes the topology tree for \p T under \p Root (which must exist);
/// returns an empty string on success, else what failed.
std::string writeTopology(const std::string &Root, const Target &T);

/// The redirection of a KFD sysfs path into \p Root, or "" when \p Path is
/// not one (prefixes /sys/devices/virtual/kfd/kfd and /sys/class/kfd/kfd).
std::string redirectSysfs(const char *Path, const std::string &Root);

} // namespace vgpu

//===- Executor.h - runs one kernel dispatch packet -------------*- C++ -*-===//
//
// The shader side of the virtual GPU: given an AQL kernel-dispatch packet in
// process memory, run its grid on the machine-code emulator (isa-emu)
// against process memory and return "" or the reason it failed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Aql.h"

#include <functional>
#include <string>

namespace vgpu {

class Kfd;

/// \p Starting is called with the kernel's symbol name ("" when the code has
/// none, e.g. ROCr's blit kernels) just before the grid starts.
std::string executeDispatch(Kfd &K, const aql::KernelDispatchPacket &Pkt, uint64_t PacketAddress,
                            uint64_t QueueAddress, const std::function<void(const std::string &)> &Starting);

} // namespace vgpu

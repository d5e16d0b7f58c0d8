//===- Executor.h - runs one kernel dispatch packet -------------*- C++ -*-===//
//
// The shader side of the virtual GPU: given an AQL kernel-dispatch packet in
// process memory, run its grid on the machine-code emulator (isa-emu)
// against process memory and return "" or the reason it failed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Aql.h"

#include <string>

namespace vgpu {

class Kfd;

std::string executeDispatch(Kfd &K, const aql::KernelDispatchPacket &Pkt, uint64_t PacketAddress,
                            uint64_t QueueAddress);

} // namespace vgpu

//===- Executor.cpp - kernel dispatch packets on isa-emu ------------------===//
#include "Executor.h"

namespace vgpu {

std::string executeDispatch(Kfd &, const aql::KernelDispatchPacket &, uint64_t, uint64_t) {
  return "kernel dispatch execution is not implemented yet";
}

} // namespace vgpu

//===- backends/HipModuleGlobals.h - launcher-filled globals on HIP -*- C++ -*-===//
//
// Translated code's device library reads two pointers the launcher fills
// (docs/pipeline.md, support::global): __ptx2amd_printf_buffer (the printf
// FIFO, support::printfrec) and __ptx2amd_heap (device malloc's bump heap,
// { base, size, used }). On the hip backend both buffers are hipMalloc'd per
// module when its code object defines the global, and the globals
// (hipModuleGetGlobal) are pointed at them once, at load. The heap header is
// written once (malloc'd memory stays allocated across launches, as on CUDA).
// The FIFO's header { capacity, used = 0 } is written in stream order before
// each launch; after the launch's stream finished, the used bytes are copied
// back and decoded by core/PrintfFifo -- the decoder the emulated backends
// use. %s arguments (core/CodeObjectImage): in a read-only segment of the
// code object or in a string literal (nvcc emits them as `$str` .global
// arrays, which land in .data, and HIP 5.2's hipModuleGetGlobal does not find
// local symbols: 500 hipErrorNotFound, seen under vgpu) from the code object's
// bytes kept on the host; inside an exported module variable with hipMemcpy
// device-to-host after hipModuleGetGlobal named it (HIP knows a module
// variable's memory only then); elsewhere with hipMemcpy
// device-to-host (hipMalloc'd memory; an unknown pointer fails cleanly there
// and the formatter prints "(invalid string address)").
//
// The FIFO is one per module, so the launches of a module that has one are
// serialised (launchMutex()); other modules' launches stay concurrent.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "HipApi.h"
#include "CodeObjectImage.h"
#include "PrintfFifo.h"

#include <memory>
#include <mutex>

namespace runtime::hip {

class HipModuleGlobals {
public:
  // Image: the module's code object (its load base is set here). FifoBytes /
  // HeapBytes: the CUDA limits (cudaLimitPrintfFifoSize / MallocHeapSize).
  static llvm::Expected<std::unique_ptr<HipModuleGlobals>>
  create(const HipApi &A, hipModule M, CodeObjectImage &Image, uint64_t FifoBytes, uint64_t HeapBytes);

  bool hasPrintf() const { return FifoBuf != 0; }
  bool hasHeap() const { return HeapBuf != 0; }
  std::mutex &launchMutex() { return LaunchMu; }
  // Before a launch on S: the FIFO is empty.
  llvm::Error resetFifo(hipStream S);
  // After S finished the launch: its printf records, decoded.
  PrintfDrain drainFifo(hipStream S);

private:
  HipModuleGlobals(const HipApi &A, hipModule M, const CodeObjectImage &Image) : A(A), M(M), Image(Image) {}
  bool readDeviceString(hipStream S, uint64_t Addr, std::string &Out);

  const HipApi &A;
  hipModule M;
  const CodeObjectImage &Image;
  uint64_t FifoBuf = 0, FifoCapacity = 0;
  uint64_t HeapBuf = 0, HeapHdr = 0;
  uint64_t EmptyHeader[2] = {0, 0}; // the host side of resetFifo's copy: lives as long as the module
  std::mutex LaunchMu;
};

} // namespace runtime::hip

//===- backends/HipModuleGlobals.h - launcher-filled globals on HIP -*- C++ -*-===//
//
// Translated code's device library reads two pointers the launcher fills
// (docs/pipeline.md, support::global): __ptx2amd_printf_buffer (the printf
// FIFO, support::printfrec) and __ptx2amd_heap (device malloc's bump heap,
// { base, size, used }). On the hip backend both buffers are hipMalloc'd per
// module when its code object defines the global, and the globals
// (hipModuleGetGlobal) are pointed at them once, at load. The heap header is
// written once (malloc'd memory stays allocated across launches, as on CUDA).
// The FIFO is one per module and shared by the module's launches in flight
// (the device library reserves records with an atomic add, so kernels of
// different streams append to it at the same time, as CUDA runs them): the
// first launch in flight writes its header { capacity, used = 0 } (and waits
// for that copy, so no concurrent launch's records are wiped), the last one to
// finish copies the used bytes back and decodes them with core/PrintfFifo --
// the decoder the emulated backends use (the isa backend counts its launches
// in flight the same way). A failed launch with others still running decodes
// the FIFO only to find its assertion record. %s arguments (core/CodeObjectImage): in a read-only segment of the
// code object or in a string literal (nvcc emits them as `$str` .global
// arrays, which land in .data, and HIP 5.2's hipModuleGetGlobal does not find
// local symbols: 500 hipErrorNotFound, seen under vgpu) from the code object's
// bytes kept on the host; inside an exported module variable with hipMemcpy
// device-to-host after hipModuleGetGlobal named it (HIP knows a module
// variable's memory only then); elsewhere with hipMemcpy
// device-to-host (hipMalloc'd memory; an unknown pointer fails cleanly there
// and the formatter prints "(invalid string address)").
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
  // Before a launch on S (S holds no kernel): the first launch in flight empties the FIFO.
  llvm::Error beginLaunch(hipStream S);
  // After S finished the launch: the last one in flight returns every record, decoded (\p Failed: this
  // launch failed, so its records are decoded even while others run, for its assertion record; the
  // text is then returned only by the last launch).
  PrintfDrain endLaunch(hipStream S, bool Failed);

private:
  HipModuleGlobals(const HipApi &A, hipModule M, const CodeObjectImage &Image) : A(A), M(M), Image(Image) {}
  bool readDeviceString(hipStream S, uint64_t Addr, std::string &Out);
  PrintfDrain drainFifo(hipStream S);

  const HipApi &A;
  hipModule M;
  const CodeObjectImage &Image;
  uint64_t FifoBuf = 0, FifoCapacity = 0;
  uint64_t HeapBuf = 0, HeapHdr = 0;
  uint64_t EmptyHeader[2] = {0, 0}; // the host side of resetFifo's copy: lives as long as the module
  std::mutex LaunchMu;   // guards InFlight and the FIFO's reset / drain
  unsigned InFlight = 0; // launches of this module between beginLaunch and endLaunch
};

} // namespace runtime::hip

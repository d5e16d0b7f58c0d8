//===- Shim.h - what the shim's files share -------------------*- C++ -*-===//
//
// cudart-shim is libcudart.so.13 written on the runtime core (runtime/):
// each file implements one CUDA concept's entry points (Registry, Memory,
// Launch, Device, Streams, Errors, Textures) against the core context that is
// current on the calling thread (the primary one unless the driver API made a
// created context current). Here: that context, the
// mapping of core errors to cudaError_t with CUDA's last-error rules
// (per-thread; a sticky kernel fault is returned by every later call), and
// stream-handle resolution (0 / cudaStreamLegacy / cudaStreamPerThread /
// created streams; the _ptsz entry points map 0 to the per-thread stream).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cuda_runtime_api.h>

#include "runtime/Device.h"

#include <cstddef>
#include <string>

namespace runtime {
struct CopyNodeParams;
}

namespace cudartshim {

// "ptx2amd-shim: <Msg>" on stderr (through the "shim" logger at warn level).
void note(const std::string &Msg);
// Records E (when not cudaSuccess) as the calling thread's last error and returns it.
cudaError_t recordError(cudaError_t E);
// Whether kernels can access [P, P+N): a live device, pinned or managed allocation.
bool isKernelAccessible(const void *P, size_t N);

cudaError_t toCuda(runtime::Errc C);
// Consumes E: success, or its code recorded as the last error (the message
// logged unless the code is NotReady).
cudaError_t fromError(llvm::Error E, const char *Api);

// The calling thread's current driver context (its device's primary context
// unless the program made a created one current), or null with *Err set (no
// device: cudaErrorNoDevice and a one-time note; a destroyed context left
// current: cudaErrorDeviceUninitialized).
runtime::Context *context(cudaError_t *Err);
int currentDevice();
void setCurrentDevice(int D);

// nullptr with *Err = cudaErrorInvalidResourceHandle for a dead handle.
runtime::Stream *stream(runtime::Context &C, cudaStream_t S, bool PerThreadDefault, cudaError_t *Err);

// The warp policy the process runs under (PTX2AMD_WARP_POLICY's default entry).
bool padPolicy();

// Registry (Registry.cpp).
struct KernelEntry;
KernelEntry *kernelFor(const void *Func);
// The kernel's core Function in context In (default: the current one),
// translating its module there on first use.
cudaError_t functionOf(KernelEntry *K, runtime::Function **F, runtime::Context *In = nullptr);
cudaError_t symbolAddress(const void *Symbol, uint64_t *Addr, size_t *Size);
// The PTX ISA target (sm_XX as a number) the kernel's module was read for.
uint32_t ptxArchOf(KernelEntry *K);

// Textures.cpp: cudaMemcpy3DParms (array endpoints: positions and extent in
// elements; pitched pointers: bytes) <-> the core's resolved copy.
cudaError_t memcpy3DParams(const cudaMemcpy3DParms *P, runtime::CopyNodeParams &Out, const char *Call);
cudaMemcpy3DParms memcpy3DParamsOf(const runtime::CopyNodeParams &C);

} // namespace cudartshim

#define SHIM_CONTEXT(C)                                                                                             \
  cudaError_t ShimErr_ = cudaSuccess;                                                                              \
  runtime::Context *C = cudartshim::context(&ShimErr_);                                                            \
  if (!C) return cudartshim::recordError(ShimErr_)

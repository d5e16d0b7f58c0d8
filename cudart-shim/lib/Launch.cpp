//===- Launch.cpp - kernel launches -------------------------------------------===//
//
// nvcc's <<<>>> (push/pop call configuration + __cudaLaunchKernel, or
// cudaLaunchKernel), cudaLaunchKernelExC with its attributes, and
// cudaLaunchCooperativeKernel. Launches are queued on their stream (the core
// checks the configuration against the device and the kernel's own policy
// first: those errors are returned at once and are not sticky); kernel
// faults surface at the next synchronisation, sticky, as in CUDA.
//
//===----------------------------------------------------------------------===//
#include "Shim.h"

#include <vector>

using namespace cudartshim;

namespace {

struct CallConfig {
  dim3 grid, block;
  size_t shmem;
  cudaStream_t stream;
};
thread_local std::vector<CallConfig> CallConfigs;

cudaError_t launch(const void *Func, dim3 G, dim3 B, void **Args, size_t Shmem, cudaStream_t S, bool Coop,
                   bool PerThread) {
  SHIM_CONTEXT(C);
  if (cudaError_t E = toCuda(C->stickyCode())) return recordError(E);
  cudaError_t Err = cudaSuccess;
  runtime::Stream *St = stream(*C, S, PerThread, &Err);
  if (!St) return recordError(Err);
  // The launch runs in the stream's context, also when that is not the current one: the kernel of
  // that context's module (its own __device__ variables), as on the H200 (tests/graphs/ctx_runtime.cu).
  runtime::Function *F = nullptr;
  if (cudaError_t E = functionOf(kernelFor(Func), &F, &St->context())) return recordError(E);
  runtime::LaunchConfig LC;
  LC.grid = {G.x, G.y, G.z};
  LC.block = {B.x, B.y, B.z};
  if (Shmem > UINT32_MAX) return recordError(cudaErrorInvalidValue);
  LC.dynamicSharedBytes = uint32_t(Shmem);
  LC.cooperative = Coop;
  return fromError(St->launch(*F, LC, Args, Func), "kernel launch");
}

} // namespace

extern "C" {

unsigned __cudaPushCallConfiguration(dim3 G, dim3 B, size_t Shmem, cudaStream_t Stream) {
  CallConfigs.push_back({G, B, Shmem, Stream});
  return 0;
}
cudaError_t __cudaPopCallConfiguration(dim3 *G, dim3 *B, size_t *Shmem, void *Stream) {
  if (CallConfigs.empty()) return cudaErrorMissingConfiguration;
  CallConfig C = CallConfigs.back();
  CallConfigs.pop_back();
  *G = C.grid;
  *B = C.block;
  *Shmem = C.shmem;
  *static_cast<cudaStream_t *>(Stream) = C.stream;
  return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t *Out, const void *HostFun) {
  KernelEntry *K = kernelFor(HostFun);
  if (!K) return recordError(cudaErrorInvalidDeviceFunction);
  *Out = reinterpret_cast<cudaKernel_t>(K);
  return cudaSuccess;
}
cudaError_t __cudaLaunchKernel(cudaKernel_t K, dim3 G, dim3 B, void **Args, size_t Shmem, cudaStream_t S) {
  return launch(K, G, B, Args, Shmem, S, false, false);
}
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t K, dim3 G, dim3 B, void **Args, size_t Shmem, cudaStream_t S) {
  return launch(K, G, B, Args, Shmem, S, false, true);
}
cudaError_t cudaLaunchKernel(const void *Func, dim3 G, dim3 B, void **Args, size_t Shmem, cudaStream_t S) {
  return launch(Func, G, B, Args, Shmem, S, false, false);
}
cudaError_t cudaLaunchKernel_ptsz(const void *Func, dim3 G, dim3 B, void **Args, size_t Shmem, cudaStream_t S) {
  return launch(Func, G, B, Args, Shmem, S, false, true);
}
cudaError_t cudaLaunchCooperativeKernel(const void *Func, dim3 G, dim3 B, void **Args, size_t Shmem, cudaStream_t S) {
  return launch(Func, G, B, Args, Shmem, S, true, false);
}
cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *Func, dim3 G, dim3 B, void **Args, size_t Shmem,
                                             cudaStream_t S) {
  return launch(Func, G, B, Args, Shmem, S, true, true);
}

static cudaError_t launchExC(const cudaLaunchConfig_t *Cfg, const void *Func, void **Args, bool PerThread) {
  if (!Cfg) return recordError(cudaErrorInvalidValue);
  bool Coop = false;
  for (unsigned I = 0; I < Cfg->numAttrs; ++I) {
    const cudaLaunchAttribute &A = Cfg->attrs[I];
    if (A.id == cudaLaunchAttributeCooperative) Coop = A.val.cooperative != 0;
    else if (A.id == cudaLaunchAttributeIgnore || A.id == cudaLaunchAttributeProgrammaticStreamSerialization ||
             A.id == cudaLaunchAttributeProgrammaticEvent || A.id == cudaLaunchAttributePriority)
      continue; // ordering / priority hints: streams are in-order queues here
    else
      note("cudaLaunchKernelExC: launch attribute " + std::to_string(int(A.id)) + " ignored (no effect here)");
  }
  return launch(Func, Cfg->gridDim, Cfg->blockDim, Args, Cfg->dynamicSmemBytes, Cfg->stream, Coop, PerThread);
}
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *Cfg, const void *Func, void **Args) {
  return launchExC(Cfg, Func, Args, false);
}
cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *Cfg, const void *Func, void **Args) {
  return launchExC(Cfg, Func, Args, true);
}

} // extern "C"

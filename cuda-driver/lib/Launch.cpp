//===- cuda-driver/lib/Launch.cpp - kernel launches and occupancy -------------===//
//
// cuLaunchKernel's two ways of passing arguments: kernelParams (one pointer per
// parameter) and `extra` (CU_LAUNCH_PARAM_BUFFER_POINTER / _SIZE / _END: the parameters
// already packed at their .param offsets); both at once is CUDA_ERROR_INVALID_VALUE, as on
// the H200. The core's KernargBuilder lays out either form. Cooperative launches go through
// the same path with LaunchConfig::cooperative (the core checks co-residency).
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include "runtime/Launch.h"

using namespace cudadrv;

namespace {

CUresult launch(CUfunction Fn, runtime::LaunchConfig C, CUstream H, void **Params, void **Extra,
                bool PerThread) {
  if (Params && Extra) return CUDA_ERROR_INVALID_VALUE;
  runtime::Stream *S;
  if (CUresult R = resolveStream(H, PerThread, &S)) return R;
  DrvFunction *F;
  // A CUkernel runs in the stream's context (CUDA's rule: static cudart's launch on a stream of a
  // context that is not current runs that context's kernel on the H200, tests/graphs/ctx_runtime.cu).
  if (Fn && HandleTable::get().live<DrvKernel>(Fn)) {
    DrvContext *SC = contextOf(&S->context());
    if (!SC) return CUDA_ERROR_INVALID_CONTEXT;
    if (CUresult R = kernelFunction(reinterpret_cast<DrvKernel *>(Fn), &F, SC)) return R;
  } else if (CUresult R = resolveFunction(Fn, &F)) {
    return R;
  }
  // A CUfunction of one context on a stream of another (created contexts): the H200's answer.
  if (&F->core->module().context() != &S->context()) return CUDA_ERROR_INVALID_HANDLE;
  if (C.dynamicSharedBytes > 0 && F->maxDynamicShared > 0 && C.dynamicSharedBytes > uint32_t(F->maxDynamicShared))
    return CUDA_ERROR_INVALID_VALUE;
  if (!Extra) {
    if (!Params && !F->core->properties().args.sizes.empty()) return CUDA_ERROR_INVALID_VALUE;
    return fail(S->launch(*F->core, C, Params, F), "cuLaunchKernel");
  }
  const void *Buf = nullptr;
  size_t Size = 0;
  bool HaveSize = false;
  for (size_t I = 0; Extra[I] != CU_LAUNCH_PARAM_END; I += 2) {
    if (Extra[I] == CU_LAUNCH_PARAM_BUFFER_POINTER) Buf = Extra[I + 1];
    else if (Extra[I] == CU_LAUNCH_PARAM_BUFFER_SIZE) {
      if (!Extra[I + 1]) return CUDA_ERROR_INVALID_VALUE;
      Size = *static_cast<size_t *>(Extra[I + 1]);
      HaveSize = true;
    } else return CUDA_ERROR_INVALID_VALUE;
    if (I > 64) return CUDA_ERROR_INVALID_VALUE; // unterminated list
  }
  if (!Buf || !HaveSize) return CUDA_ERROR_INVALID_VALUE;
  // A buffer shorter than the kernel's parameters is accepted by NVIDIA's driver (H200:
  // CUDA_SUCCESS with 16 of 32 bytes); the missing bytes read as zero here.
  std::vector<uint8_t> Packed(static_cast<const uint8_t *>(Buf), static_cast<const uint8_t *>(Buf) + Size);
  uint32_t Need = F->core->properties().args.explicitBytes;
  if (F->core->properties().args.blockDimOffset >= 0) Need = uint32_t(F->core->properties().args.blockDimOffset);
  if (Packed.size() < Need) Packed.resize(Need, 0);
  return fail(S->launch(*F->core, C, llvm::ArrayRef<uint8_t>(Packed), F), "cuLaunchKernel");
}

runtime::LaunchConfig config(unsigned GX, unsigned GY, unsigned GZ, unsigned BX, unsigned BY, unsigned BZ,
                             unsigned Shared, bool Coop) {
  runtime::LaunchConfig C;
  C.grid = {GX, GY, GZ};
  C.block = {BX, BY, BZ};
  C.dynamicSharedBytes = Shared;
  C.cooperative = Coop;
  return C;
}

CUresult launchEx(const CUlaunchConfig *Cfg, CUfunction F, void **Params, void **Extra, bool PerThread) {
  if (!Cfg) return CUDA_ERROR_INVALID_VALUE;
  bool Coop = false;
  for (unsigned I = 0; I < Cfg->numAttrs; ++I) {
    const CUlaunchAttribute &A = Cfg->attrs[I];
    switch (A.id) {
    case CU_LAUNCH_ATTRIBUTE_COOPERATIVE: Coop = A.value.cooperative != 0; break;
    case CU_LAUNCH_ATTRIBUTE_IGNORE: break;
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION:
      if (A.value.clusterDim.x * A.value.clusterDim.y * A.value.clusterDim.z > 1)
        return unsupported("cuLaunchKernelEx (thread block clusters)");
      break;
    case CU_LAUNCH_ATTRIBUTE_PRIORITY:
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
    case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE: break; // hints
    // Programmatic dependent launch only *allows* the next kernel to start early; a stream
    // that runs its commands strictly in order (the core's) meets every guarantee.
    case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION: break;
    case CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION:
      if (A.value.preferredClusterDim.x * A.value.preferredClusterDim.y * A.value.preferredClusterDim.z > 1)
        return unsupported("cuLaunchKernelEx (preferred thread block clusters)");
      break;
    case CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT: return unsupported("cuLaunchKernelEx (CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT)");
    case CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT:
      return unsupported("cuLaunchKernelEx (CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT)");
    default: return unsupported("cuLaunchKernelEx (launch attribute other than cooperative / hints)");
    }
  }
  return launch(F, config(Cfg->gridDimX, Cfg->gridDimY, Cfg->gridDimZ, Cfg->blockDimX, Cfg->blockDimY,
                          Cfg->blockDimZ, Cfg->sharedMemBytes, Coop),
                Cfg->hStream, Params, Extra, PerThread);
}

} // namespace

CUresult cuLaunchKernel(CUfunction F, unsigned int GX, unsigned int GY, unsigned int GZ, unsigned int BX,
                        unsigned int BY, unsigned int BZ, unsigned int Shared, CUstream S, void **Params,
                        void **Extra) {
  return launch(F, config(GX, GY, GZ, BX, BY, BZ, Shared, false), S, Params, Extra, false);
}
extern "C" CUresult cuLaunchKernel_ptsz(CUfunction F, unsigned GX, unsigned GY, unsigned GZ, unsigned BX,
                                        unsigned BY, unsigned BZ, unsigned Shared, CUstream S, void **Params,
                                        void **Extra) {
  return launch(F, config(GX, GY, GZ, BX, BY, BZ, Shared, false), S, Params, Extra, true);
}

CUresult cuLaunchCooperativeKernel(CUfunction F, unsigned int GX, unsigned int GY, unsigned int GZ,
                                   unsigned int BX, unsigned int BY, unsigned int BZ, unsigned int Shared,
                                   CUstream S, void **Params) {
  return launch(F, config(GX, GY, GZ, BX, BY, BZ, Shared, true), S, Params, nullptr, false);
}
extern "C" CUresult cuLaunchCooperativeKernel_ptsz(CUfunction F, unsigned GX, unsigned GY, unsigned GZ,
                                                   unsigned BX, unsigned BY, unsigned BZ, unsigned Shared,
                                                   CUstream S, void **Params) {
  return launch(F, config(GX, GY, GZ, BX, BY, BZ, Shared, true), S, Params, nullptr, true);
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *Cfg, CUfunction F, void **Params, void **Extra) {
  return launchEx(Cfg, F, Params, Extra, false);
}
extern "C" CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *Cfg, CUfunction F, void **Params, void **Extra) {
  return launchEx(Cfg, F, Params, Extra, true);
}

// ---- occupancy ------------------------------------------------------------------
static CUresult blocksPerSM(int *N, CUfunction Fn, int Block, size_t Shared) {
  if (!N || Block <= 0) return CUDA_ERROR_INVALID_VALUE;
  DrvFunction *F;
  if (CUresult R = resolveFunction(Fn, &F)) return R;
  *N = int(runtime::residentBlocksPerCU(F->module->ctx->core->properties(), F->core->properties(),
                                        uint64_t(Block), Shared));
  return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *N, CUfunction F, int Block, size_t Shared) {
  return blocksPerSM(N, F, Block, Shared);
}
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *N, CUfunction F, int Block, size_t Shared,
                                                              unsigned int) {
  return blocksPerSM(N, F, Block, Shared);
}

static CUresult potentialBlockSize(int *MinGrid, int *BlockOut, CUfunction Fn, CUoccupancyB2DSize B2D,
                                   size_t Shared, int Limit) {
  if (!MinGrid || !BlockOut) return CUDA_ERROR_INVALID_VALUE;
  DrvFunction *F;
  if (CUresult R = resolveFunction(Fn, &F)) return R;
  const auto &D = F->module->ctx->core->properties();
  int Max = int(F->core->properties().maxThreadsPerBlock);
  if (Limit > 0 && Limit < Max) Max = Limit;
  int Best = 0, BestBlock = 0;
  for (int B = 32; B <= Max; B += 32) {
    size_t S = B2D ? B2D(B) : Shared;
    int N = int(runtime::residentBlocksPerCU(D, F->core->properties(), uint64_t(B), S));
    if (N * B > Best) { Best = N * B; BestBlock = B; }
  }
  if (!BestBlock) return CUDA_ERROR_INVALID_VALUE;
  *BlockOut = BestBlock;
  *MinGrid = (Best / BestBlock) * int(D.multiProcessorCount);
  return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxPotentialBlockSize(int *MinGrid, int *Block, CUfunction F, CUoccupancyB2DSize B2D,
                                          size_t Shared, int Limit) {
  return potentialBlockSize(MinGrid, Block, F, B2D, Shared, Limit);
}
CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *MinGrid, int *Block, CUfunction F,
                                                   CUoccupancyB2DSize B2D, size_t Shared, int Limit,
                                                   unsigned int) {
  return potentialBlockSize(MinGrid, Block, F, B2D, Shared, Limit);
}

CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *Bytes, CUfunction Fn, int, int) {
  if (!Bytes) return CUDA_ERROR_INVALID_VALUE;
  DrvFunction *F;
  if (CUresult R = resolveFunction(Fn, &F)) return R;
  uint64_t Total = F->module->ctx->core->properties().sharedMemPerBlock;
  uint64_t Static = F->core->properties().staticLdsBytes;
  *Bytes = Total > Static ? Total - Static : 0;
  return CUDA_SUCCESS;
}

//===- Device.cpp - devices, properties, limits, function queries -----------===//
//
// The device is the core's device 0 (emu: amdgpu-emu pretending to be the
// PTX2AMD_ARCH target; hip: the AMD GPU) presented as compute capability
// 9.0 with warpSize 32. Block limits follow the process's warp policy (pad
// on wave64 runs at most 512 threads per block); cudaFuncGetAttributes
// reports each kernel's own policy limit and static LDS. The runtime and the
// driver API share the core (it lives in libcuda.so.1), and, as CUDA's
// runtime does, the thread's driver context follows the runtime's device: a
// thread without a current context gets its device's primary context
// (cudaSetDevice replaces it), and a context the program made current with
// cuCtxSetCurrent / cuCtxPushCurrent selects the runtime's device.
//
//===----------------------------------------------------------------------===//
#include "Shim.h"

#include "support/Contract.h"

#include <cuda.h>

#include <cstring>
#include <mutex>
#include <set>

using namespace cudartshim;

namespace {
constexpr int EmulatedSM = 90;
thread_local int CurrentDevice = 0;
thread_local bool DeviceChosen = false; // cudaSetDevice since the last sync with the driver

// Makes the driver's current context of this thread agree with CurrentDevice (see the header).
void syncDriverContext() {
  static std::once_flag Init;
  static CUresult InitResult = CUDA_SUCCESS;
  std::call_once(Init, [] { InitResult = cuInit(0); });
  if (InitResult != CUDA_SUCCESS) return; // no device: context() reports it
  CUcontext Cur = nullptr;
  if (cuCtxGetCurrent(&Cur) != CUDA_SUCCESS) return;
  if (Cur && !DeviceChosen) {
    CUdevice D = 0;
    if (cuCtxGetDevice(&D) == CUDA_SUCCESS) CurrentDevice = D;
    return;
  }
  DeviceChosen = false;
  static std::mutex Mu;
  static std::set<int> Retained; // the runtime holds one reference per device's primary context
  CUcontext P = nullptr;
  {
    std::lock_guard<std::mutex> L(Mu);
    if (Retained.count(CurrentDevice)) {
      CUdevice D = CurrentDevice;
      if (cuDevicePrimaryCtxRetain(&P, D) == CUDA_SUCCESS) cuDevicePrimaryCtxRelease(D);
    } else if (cuDevicePrimaryCtxRetain(&P, CurrentDevice) == CUDA_SUCCESS) {
      Retained.insert(CurrentDevice);
    }
  }
  if (P && P != Cur) cuCtxSetCurrent(P);
}

int maxThreads(runtime::Context &C) {
  return support::parseWarpPolicyName(C.defaultWarpPolicy()) == support::WarpPolicy::Pad
             ? int(support::kPadMaxBlockThreads)
             : int(C.properties().maxThreadsPerBlock);
}

int deviceAttr(runtime::Context &C, cudaDeviceAttr A) {
  const runtime::DeviceProperties &P = C.properties();
  switch (A) {
  case cudaDevAttrMaxThreadsPerBlock: return maxThreads(C);
  case cudaDevAttrMaxBlockDimX: case cudaDevAttrMaxBlockDimY: return maxThreads(C);
  case cudaDevAttrMaxBlockDimZ: return 64;
  case cudaDevAttrMaxGridDimX: return 2147483647;
  case cudaDevAttrMaxGridDimY: case cudaDevAttrMaxGridDimZ: return 65535;
  case cudaDevAttrMaxSharedMemoryPerBlock: case cudaDevAttrMaxSharedMemoryPerBlockOptin: return int(P.sharedMemPerBlock);
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor: return int(P.sharedMemPerMultiprocessor);
  case cudaDevAttrTotalConstantMemory: return 65536;
  case cudaDevAttrWarpSize: return 32;
  case cudaDevAttrMaxRegistersPerBlock: case cudaDevAttrMaxRegistersPerMultiprocessor: return 65536;
  case cudaDevAttrClockRate: return int(P.clockRateKHz);
  case cudaDevAttrMemoryClockRate: return int(P.memoryClockRateKHz);
  case cudaDevAttrGlobalMemoryBusWidth: return int(P.memoryBusWidth);
  case cudaDevAttrL2CacheSize: return int(P.l2CacheBytes);
  case cudaDevAttrMultiProcessorCount: return int(P.multiProcessorCount);
  case cudaDevAttrMaxThreadsPerMultiProcessor: return int(P.maxThreadsPerMultiProcessor);
  case cudaDevAttrMaxBlocksPerMultiprocessor: return int(P.maxBlocksPerMultiProcessor);
  case cudaDevAttrComputeCapabilityMajor: return EmulatedSM / 10;
  case cudaDevAttrComputeCapabilityMinor: return EmulatedSM % 10;
  case cudaDevAttrCooperativeLaunch: return P.cooperativeLaunch;
  case cudaDevAttrConcurrentKernels: return 1;
  case cudaDevAttrUnifiedAddressing: return 1;
  case cudaDevAttrManagedMemory: return P.managedMemory;
  case cudaDevAttrIntegrated: return 0;
  case cudaDevAttrCanMapHostMemory: return 1;
  case cudaDevAttrComputeMode: return cudaComputeModeDefault;
  case cudaDevAttrEccEnabled: return 0;
  case cudaDevAttrPciBusId: return int(P.pciBusId);
  case cudaDevAttrPciDeviceId: return int(P.pciDeviceId);
  case cudaDevAttrPciDomainId: return int(P.pciDomainId);
  case cudaDevAttrTccDriver: return 0;
  case cudaDevAttrAsyncEngineCount: return 1;
  case cudaDevAttrMemoryPoolsSupported: return 0;
  case cudaDevAttrTextureAlignment: return 512;
  case cudaDevAttrTexturePitchAlignment: return 32;
  default: return -1;
  }
}
} // namespace

namespace cudartshim {

int currentDevice() {
  syncDriverContext();
  return CurrentDevice;
}
void setCurrentDevice(int D) {
  CurrentDevice = D;
  DeviceChosen = true;
}

runtime::Context *context(cudaError_t *Err) {
  static std::once_flag Noted;
  syncDriverContext();
  auto P = runtime::Platform::get();
  if (!P) {
    std::string Msg = llvm::toString(P.takeError());
    std::call_once(Noted, [&] { note("no device: " + Msg); });
    *Err = cudaErrorNoDevice;
    return nullptr;
  }
  auto D = (*P)->device(unsigned(CurrentDevice));
  if (!D) {
    std::string Msg;
    *Err = toCuda(runtime::takeErrc(D.takeError(), &Msg));
    std::call_once(Noted, [&] { note(Msg); });
    return nullptr;
  }
  // The thread's current driver context: the primary context syncDriverContext
  // made current, or one the program created (cuCtxCreate) and made current.
  CUcontext Cur = nullptr;
  if (cuCtxGetCurrent(&Cur) == CUDA_SUCCESS && Cur) {
    unsigned long long Id = 0;
    if (cuCtxGetId(Cur, &Id) != CUDA_SUCCESS) { // a destroyed context left current
      *Err = cudaErrorDeviceUninitialized;
      return nullptr;
    }
    if (runtime::Context *C = (*D)->context(Id)) return C;
  }
  return &(*D)->primaryContext();
}

runtime::Stream *stream(runtime::Context &C, cudaStream_t S, bool PerThreadDefault, cudaError_t *Err) {
  if (!S) return PerThreadDefault ? &C.perThreadStream() : &C.legacyStream();
  if (S == cudaStreamLegacy) return &C.legacyStream();
  if (S == cudaStreamPerThread) return &C.perThreadStream();
  auto *St = reinterpret_cast<runtime::Stream *>(S);
  if (C.isLive(St)) return St;
  // A stream of another context of the device (one current earlier) stays
  // usable, as on the H200: synchronisation, copies, and launches, which run
  // in the stream's context (Launch.cpp).
  for (runtime::Context *O : C.device().contexts())
    if (O != &C && O->isLive(St)) return St;
  *Err = cudaErrorInvalidResourceHandle;
  return nullptr;
}

} // namespace cudartshim

extern "C" {

cudaError_t cudaGetDeviceCount(int *N) {
  if (!N) return recordError(cudaErrorInvalidValue);
  auto P = runtime::Platform::get();
  if (!P) {
    llvm::consumeError(P.takeError());
    *N = 0;
    return recordError(cudaErrorNoDevice);
  }
  *N = int((*P)->deviceCount());
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int D) {
  int N = 0;
  if (cudaError_t E = cudaGetDeviceCount(&N)) return E;
  if (D < 0 || D >= N) return recordError(cudaErrorInvalidDevice);
  setCurrentDevice(D);
  syncDriverContext(); // CUDA 12+: cudaSetDevice makes the device's primary context current
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int *D) {
  if (!D) return recordError(cudaErrorInvalidValue);
  *D = currentDevice();
  return cudaSuccess;
}
cudaError_t cudaInitDevice(int D, unsigned, unsigned) { return cudaSetDevice(D); }
cudaError_t cudaSetDeviceFlags(unsigned) { return cudaSuccess; }
cudaError_t cudaGetDeviceFlags(unsigned *F) {
  if (!F) return recordError(cudaErrorInvalidValue);
  *F = 0;
  return cudaSuccess;
}

// Peer access: every device of the platform is its backend's only one, so no pair of devices
// can access each other's memory (a device and itself included, as on CUDA): the query answers
// 0, enabling is cudaErrorInvalidDevice (what CUDA returns when cudaDeviceCanAccessPeer says 0),
// disabling cudaErrorPeerAccessNotEnabled. Ordinals out of range are cudaErrorInvalidDevice.
static bool validOrdinal(int D) {
  int N = 0;
  return !cudaGetDeviceCount(&N) && D >= 0 && D < N;
}
cudaError_t cudaDeviceCanAccessPeer(int *Can, int Dev, int Peer) {
  if (!Can) return recordError(cudaErrorInvalidValue);
  if (!validOrdinal(Dev) || !validOrdinal(Peer)) return recordError(cudaErrorInvalidDevice);
  *Can = 0;
  return cudaSuccess;
}
cudaError_t cudaDeviceEnablePeerAccess(int Peer, unsigned Flags) {
  if (!validOrdinal(Peer)) return recordError(cudaErrorInvalidDevice);
  if (Flags != 0) return recordError(cudaErrorInvalidValue);
  // No device reaches another's memory here (cudaDeviceCanAccessPeer says 0); the H200 answers
  // cudaErrorPeerAccessUnsupported for the device itself (tests/golden/programs/peer_copy.stdout).
  return recordError(cudaErrorPeerAccessUnsupported);
}
cudaError_t cudaDeviceDisablePeerAccess(int Peer) {
  if (!validOrdinal(Peer)) return recordError(cudaErrorInvalidDevice);
  return recordError(cudaErrorPeerAccessNotEnabled);
}

cudaError_t cudaDeviceGetAttribute(int *V, cudaDeviceAttr A, int Dev) {
  if (!V) return recordError(cudaErrorInvalidValue);
  if (Dev != currentDevice()) {
    int N = 0;
    if (cudaGetDeviceCount(&N) || Dev < 0 || Dev >= N) return recordError(cudaErrorInvalidDevice);
  }
  SHIM_CONTEXT(C);
  int R = deviceAttr(*C, A);
  if (R < 0) {
    note("cudaDeviceGetAttribute: attribute " + std::to_string(int(A)) + " is not modelled");
    return recordError(cudaErrorInvalidValue);
  }
  *V = R;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp *P, int Dev) {
  if (!P) return recordError(cudaErrorInvalidValue);
  if (Dev != currentDevice()) return recordError(cudaErrorInvalidDevice);
  SHIM_CONTEXT(C);
  const runtime::DeviceProperties &D = C->properties();
  memset(P, 0, sizeof *P);
  snprintf(P->name, sizeof P->name, "%s", D.name.c_str());
  P->totalGlobalMem = D.totalGlobalMem;
  P->sharedMemPerBlock = D.sharedMemPerBlock;
  P->regsPerBlock = 65536;
  P->warpSize = 32;
  P->memPitch = 2147483647;
  P->maxThreadsPerBlock = maxThreads(*C);
  P->maxThreadsDim[0] = P->maxThreadsDim[1] = maxThreads(*C);
  P->maxThreadsDim[2] = 64;
  P->maxGridSize[0] = 2147483647;
  P->maxGridSize[1] = P->maxGridSize[2] = 65535;
  P->totalConstMem = 65536;
  P->major = EmulatedSM / 10;
  P->minor = EmulatedSM % 10;
  P->textureAlignment = 512;
  P->texturePitchAlignment = 32;
  P->multiProcessorCount = int(D.multiProcessorCount);
  P->canMapHostMemory = 1;
  P->concurrentKernels = 1;
  P->asyncEngineCount = 1;
  P->unifiedAddressing = 1;
  P->memoryBusWidth = int(D.memoryBusWidth);
  P->l2CacheSize = int(D.l2CacheBytes);
  P->maxThreadsPerMultiProcessor = int(D.maxThreadsPerMultiProcessor);
  P->sharedMemPerMultiprocessor = D.sharedMemPerMultiprocessor;
  P->regsPerMultiprocessor = 65536;
  P->managedMemory = D.managedMemory;
  P->cooperativeLaunch = D.cooperativeLaunch;
  P->sharedMemPerBlockOptin = D.sharedMemPerBlock;
  P->maxBlocksPerMultiProcessor = int(D.maxBlocksPerMultiProcessor);
  P->pciBusID = int(D.pciBusId);
  P->pciDeviceID = int(D.pciDeviceId);
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void) {
  SHIM_CONTEXT(C);
  return fromError(C->synchronize(), "cudaDeviceSynchronize");
}
cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
// CUDA resets the device's primary context, also while a created context is
// current (that one keeps its memory and stays current).
cudaError_t cudaDeviceReset(void) {
  SHIM_CONTEXT(Cur);
  runtime::Context *C = &Cur->device().primaryContext();
  cudaError_t E = fromError(C->reset(), "cudaDeviceReset");
  cudaGetLastError(); // clears this thread's last error (the sticky one is gone)
  return E;
}

static bool limitOf(cudaLimit L, runtime::Limit *Out) {
  switch (L) {
  case cudaLimitStackSize: *Out = runtime::Limit::StackSize; return true;
  case cudaLimitMallocHeapSize: *Out = runtime::Limit::MallocHeapSize; return true;
  case cudaLimitPrintfFifoSize: *Out = runtime::Limit::PrintfFifoSize; return true;
  default: return false;
  }
}
cudaError_t cudaDeviceSetLimit(cudaLimit L, size_t V) {
  runtime::Limit RL;
  if (!limitOf(L, &RL)) return recordError(cudaErrorUnsupportedLimit);
  SHIM_CONTEXT(C);
  return fromError(C->setLimit(RL, V), "cudaDeviceSetLimit");
}
cudaError_t cudaDeviceGetLimit(size_t *V, cudaLimit L) {
  if (!V) return recordError(cudaErrorInvalidValue);
  runtime::Limit RL;
  if (!limitOf(L, &RL)) return recordError(cudaErrorUnsupportedLimit);
  SHIM_CONTEXT(C);
  *V = C->limit(RL);
  return cudaSuccess;
}
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache *C) {
  if (!C) return recordError(cudaErrorInvalidValue);
  *C = cudaFuncCachePreferNone;
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int *V) {
  if (!V) return recordError(cudaErrorInvalidValue);
  *V = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int *V) {
  if (!V) return recordError(cudaErrorInvalidValue);
  *V = CUDART_VERSION;
  return cudaSuccess;
}

// ---- functions and occupancy ------------------------------------------------
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *A, const void *Func) {
  if (!A) return recordError(cudaErrorInvalidValue);
  KernelEntry *K = kernelFor(Func);
  runtime::Function *F = nullptr;
  if (cudaError_t E = functionOf(K, &F)) return recordError(E);
  SHIM_CONTEXT(C);
  const runtime::KernelProperties &P = F->properties();
  memset(A, 0, sizeof *A);
  A->sharedSizeBytes = P.staticLdsBytes;
  A->localSizeBytes = P.privateSegmentBytes;
  A->maxThreadsPerBlock = int(P.maxThreadsPerBlock);
  A->numRegs = int(P.numRegs);
  A->ptxVersion = int(ptxArchOf(K));
  A->binaryVersion = int(ptxArchOf(K));
  A->maxDynamicSharedSizeBytes = int(C->properties().sharedMemPerBlock) - int(P.staticLdsBytes);
  return cudaSuccess;
}
// The attributes are checked as CUDA checks them and have no other effect: the launch itself
// enforces the device's shared-memory limit (sharedMemPerBlock is also the opt-in limit here).
cudaError_t cudaFuncSetAttribute(const void *Func, cudaFuncAttribute Attr, int Value) {
  runtime::Function *F = nullptr;
  if (cudaError_t E = functionOf(kernelFor(Func), &F)) return recordError(E);
  switch (Attr) {
  case cudaFuncAttributeMaxDynamicSharedMemorySize: {
    SHIM_CONTEXT(C);
    if (Value < 0 || uint64_t(Value) + F->properties().staticLdsBytes > C->properties().sharedMemPerBlock)
      return recordError(cudaErrorInvalidValue);
    return cudaSuccess;
  }
  case cudaFuncAttributePreferredSharedMemoryCarveout:
    return Value < -1 || Value > 100 ? recordError(cudaErrorInvalidValue) : cudaSuccess;
  case cudaFuncAttributeClusterDimMustBeSet:
  case cudaFuncAttributeRequiredClusterWidth:
  case cudaFuncAttributeRequiredClusterHeight:
  case cudaFuncAttributeRequiredClusterDepth:
  case cudaFuncAttributeNonPortableClusterSizeAllowed:
  case cudaFuncAttributeClusterSchedulingPolicyPreference:
    return cudaSuccess;
  default:
    return recordError(cudaErrorInvalidValue);
  }
}
cudaError_t cudaFuncSetCacheConfig(const void *, cudaFuncCache) { return cudaSuccess; }
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *N, const void *Func, int BlockSize,
                                                                   size_t Shmem, unsigned) {
  if (!N || BlockSize <= 0) return recordError(cudaErrorInvalidValue);
  runtime::Function *F = nullptr;
  if (cudaError_t E = functionOf(kernelFor(Func), &F)) return recordError(E);
  SHIM_CONTEXT(C);
  if (uint64_t(BlockSize) > F->properties().maxThreadsPerBlock) {
    *N = 0;
    return cudaSuccess;
  }
  *N = int(runtime::residentBlocksPerCU(C->properties(), F->properties(), uint64_t(BlockSize), Shmem));
  return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *N, const void *Func, int BlockSize, size_t Shmem) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(N, Func, BlockSize, Shmem, 0);
}

} // extern "C"

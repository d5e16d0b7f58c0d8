//===- cuda-driver/lib/Device.cpp - cuDevice* -------------------------------===//
//
// Device queries answered from the core's DeviceProperties. The device reports compute
// capability 9.0 (the PTX the translator consumes best) like the runtime shim, and the
// attribute numbering is CUDA's (CUdevice_attribute == cudaDeviceAttr).
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include <cstring>

using namespace cudadrv;

namespace {
constexpr int EmulatedMajor = 9, EmulatedMinor = 0;

CUresult props(CUdevice Dev, const runtime::DeviceProperties **Out) {
  runtime::Device *D;
  if (CUresult R = device(Dev, &D)) return R;
  *Out = &D->properties();
  return CUDA_SUCCESS;
}

// -1: an attribute this library does not know (CUDA_ERROR_INVALID_VALUE, as for an
// out-of-range attribute on NVIDIA's driver).
long long attribute(CUdevice_attribute A, const runtime::DeviceProperties &P) {
  switch (A) {
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: return P.maxThreadsPerBlock;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: return 1024;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: return 64;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: return 2147483647;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: return 65535;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: return P.sharedMemPerBlock;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: return P.sharedMemPerMultiprocessor;
  case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY: return 65536;
  case CU_DEVICE_ATTRIBUTE_WARP_SIZE: return 32; // CUDA's warp, whatever the wave size
  case CU_DEVICE_ATTRIBUTE_MAX_PITCH: return 2147483647;
  case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK:
  case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR: return 65536;
  case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: return P.clockRateKHz;
  case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: return P.memoryClockRateKHz;
  case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: return P.memoryBusWidth;
  case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: return P.l2CacheBytes;
  case CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT: return 512;
  case CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT: return 32;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: return P.multiProcessorCount;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: return P.maxThreadsPerMultiProcessor;
  case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: return P.maxBlocksPerMultiProcessor;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: return EmulatedMajor;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: return EmulatedMinor;
  case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH: return P.cooperativeLaunch;
  case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS:
  case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING:
  case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY:
  case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT:
  case CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED:
  case CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED:
  case CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED: return 1;
  case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY: return P.managedMemory;
  case CU_DEVICE_ATTRIBUTE_INTEGRATED:
  case CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT:
  case CU_DEVICE_ATTRIBUTE_ECC_ENABLED:
  case CU_DEVICE_ATTRIBUTE_TCC_DRIVER:
  case CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD:
  case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED:
  case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS:
  case CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS: return 0;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_MODE: return CU_COMPUTEMODE_DEFAULT;
  case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID: return P.pciBusId;
  case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID: return P.pciDeviceId;
  case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID: return P.pciDomainId;
  default: return -1;
  }
}
} // namespace

CUresult cuDeviceGetCount(int *Count) {
  if (!Count) return CUDA_ERROR_INVALID_VALUE;
  runtime::Platform *P;
  if (CUresult R = platform(&P)) return R;
  *Count = int(P->deviceCount());
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *Dev, int Ordinal) {
  if (!Dev) return CUDA_ERROR_INVALID_VALUE;
  runtime::Device *D;
  if (CUresult R = device(Ordinal, &D)) return R;
  *Dev = Ordinal;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *Name, int Len, CUdevice Dev) {
  if (!Name || Len <= 0) return CUDA_ERROR_INVALID_VALUE;
  const runtime::DeviceProperties *P;
  if (CUresult R = props(Dev, &P)) return R;
  snprintf(Name, size_t(Len), "%s", P->name.c_str());
  return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem(size_t *Bytes, CUdevice Dev) {
  if (!Bytes) return CUDA_ERROR_INVALID_VALUE;
  const runtime::DeviceProperties *P;
  if (CUresult R = props(Dev, &P)) return R;
  *Bytes = P->totalGlobalMem;
  return CUDA_SUCCESS;
}

// A stable UUID per (ordinal, arch): "ptx2amd" + ordinal + the arch name, zero padded.
static void deviceUuid(CUdevice Dev, const runtime::DeviceProperties &P, CUuuid *U) {
  memset(U->bytes, 0, sizeof U->bytes);
  memcpy(U->bytes, "ptx2amd", 7);
  U->bytes[7] = char(Dev);
  memcpy(U->bytes + 8, P.arch.data(), std::min<size_t>(8, P.arch.size()));
}

CUresult cuDeviceGetUuid(CUuuid *U, CUdevice Dev) {
  if (!U) return CUDA_ERROR_INVALID_VALUE;
  const runtime::DeviceProperties *P;
  if (CUresult R = props(Dev, &P)) return R;
  deviceUuid(Dev, *P, U);
  return CUDA_SUCCESS;
}

extern "C" CUresult drvDeviceGetUuid_v1(CUuuid *U, CUdevice Dev) __asm__("cuDeviceGetUuid");
extern "C" CUresult drvDeviceGetUuid_v1(CUuuid *U, CUdevice Dev) { return cuDeviceGetUuid(U, Dev); }

CUresult cuDeviceGetAttribute(int *Value, CUdevice_attribute A, CUdevice Dev) {
  if (!Value) return CUDA_ERROR_INVALID_VALUE;
  // Values outside CUDA 13's enum are an error: the H200 answers 1..147 and returns
  // CUDA_ERROR_INVALID_VALUE for 148 (CU_DEVICE_ATTRIBUTE_MAX) .. 159
  // (tests/driver/data/driver_probe_h200.txt).
  if (int(A) < 0 || int(A) >= int(CU_DEVICE_ATTRIBUTE_MAX)) return CUDA_ERROR_INVALID_VALUE;
  const runtime::DeviceProperties *P;
  if (CUresult R = props(Dev, &P)) return R;
  long long V = attribute(A, *P);
  if (V < 0) {
    // Attributes not modelled answer 0 (not supported) rather than an error: CUDA 13's
    // static cudart queries ~95 of them to fill cudaDeviceProp and fails on any error.
    *Value = 0;
    return CUDA_SUCCESS;
  }
  *Value = int(V);
  return CUDA_SUCCESS;
}

CUresult cuDeviceComputeCapability(int *Major, int *Minor, CUdevice Dev) {
  if (!Major || !Minor) return CUDA_ERROR_INVALID_VALUE;
  const runtime::DeviceProperties *P;
  if (CUresult R = props(Dev, &P)) return R;
  *Major = EmulatedMajor;
  *Minor = EmulatedMinor;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetPCIBusId(char *Id, int Len, CUdevice Dev) {
  if (!Id || Len <= 0) return CUDA_ERROR_INVALID_VALUE;
  const runtime::DeviceProperties *P;
  if (CUresult R = props(Dev, &P)) return R;
  snprintf(Id, size_t(Len), "%04x:%02x:%02x.0", P->pciDomainId, P->pciBusId, P->pciDeviceId);
  return CUDA_SUCCESS;
}

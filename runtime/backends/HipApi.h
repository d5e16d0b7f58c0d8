//===- backends/HipApi.h - the HIP runtime entry points the hip backend uses -*- C++ -*-===//
//
// libamdhip64 is loaded with dlopen ($PTX2AMD_HIP_LIBRARY, else
// libamdhip64.so / .so.6 / .so.5), so the runtime builds and runs without
// ROCm. Only entry points whose ABI did not change in ROCm 6 are used
// (attribute queries instead of hipGetDeviceProperties). Optional ones are
// null when the library lacks them: hipDeviceSetLimit (ROCm >= 5.3),
// hipModuleLaunchCooperativeKernel (ROCm >= 5.5). Before loading it, GPU_MAX_HW_QUEUES is
// set from CUDA_DEVICE_MAX_CONNECTIONS unless the user set it (HipApi.cpp says why).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Error.h"

#include "llvm/Support/Error.h"

#include <cstddef>
#include <string>

namespace runtime::hip {

using hipError = int;
using hipStream = void *;
using hipModule = void *;
using hipFunction = void *;

struct HipApi {
  void *Lib = nullptr;
  hipError (*Init)(unsigned) = nullptr;
  hipError (*GetDeviceCount)(int *) = nullptr;
  hipError (*SetDevice)(int) = nullptr;
  hipError (*DeviceGetAttribute)(int *, int, int) = nullptr;
  hipError (*ModuleLoadData)(hipModule *, const void *) = nullptr;
  hipError (*ModuleGetFunction)(hipFunction *, hipModule, const char *) = nullptr;
  hipError (*ModuleGetGlobal)(void **, size_t *, hipModule, const char *) = nullptr;
  hipError (*ModuleLaunchKernel)(hipFunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                 hipStream, void **, void **) = nullptr;
  hipError (*Malloc)(void **, size_t) = nullptr;
  hipError (*Free)(void *) = nullptr;
  hipError (*HostMalloc)(void **, size_t, unsigned) = nullptr;
  hipError (*HostFree)(void *) = nullptr;
  hipError (*MallocManaged)(void **, size_t, unsigned) = nullptr;
  hipError (*Memcpy)(void *, const void *, size_t, int) = nullptr;
  hipError (*MemcpyAsync)(void *, const void *, size_t, int, hipStream) = nullptr;
  hipError (*MemsetAsync)(void *, int, size_t, hipStream) = nullptr;
  hipError (*StreamCreate)(hipStream *) = nullptr;
  hipError (*StreamSynchronize)(hipStream) = nullptr;
  hipError (*StreamDestroy)(hipStream) = nullptr;
  hipError (*MemGetInfo)(size_t *, size_t *) = nullptr;
  hipError (*DeviceSetLimit)(int, size_t) = nullptr;
  const char *(*GetErrorName)(hipError) = nullptr;
  hipError (*RuntimeGetVersion)(int *) = nullptr;
  // ROCm >= 5.5 (optional): cooperative launches take kernelParams only.
  hipError (*ModuleLaunchCooperativeKernel)(hipFunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                            unsigned, hipStream, void **) = nullptr;
};

// hipDeviceAttribute_t values (stable since ROCm 5.0).
enum : int {
  AttrMaxThreadsPerBlock = 56, AttrMultiprocessorCount = 63, AttrMaxSharedMemoryPerBlock = 74,
  AttrClockRate = 5, AttrTotalGlobalMem = 84, AttrPciBusId = 66, AttrPciDeviceId = 67, AttrWarpSize = 87,
};
enum : int { MemcpyHostToDevice = 1, MemcpyDeviceToHost = 2, MemcpyDefault = 4 };

// A HIP failure as a runtime error naming the call (hipErrorOutOfMemory: MemoryAllocation).
llvm::Error hipErr(const HipApi &A, hipError E, const char *What);
// Loads Lib (or the default names) and resolves the entry points.
llvm::Expected<HipApi> loadApi(std::string Lib);

} // namespace runtime::hip

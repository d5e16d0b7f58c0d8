//===- backends/HipApi.cpp - loading libamdhip64 ------------------------------===//
#include "HipApi.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

namespace runtime::hip {

llvm::Error hipErr(const HipApi &A, hipError E, const char *What) {
  if (E == 0) return llvm::Error::success();
  const char *Name = A.GetErrorName ? A.GetErrorName(E) : nullptr;
  return makeError(E == 2 ? Errc::MemoryAllocation : Errc::Unknown,
                   std::string("hip: ") + What + " failed: " + (Name ? Name : "") + " (" + std::to_string(E) + ")");
}

namespace {
// ROCclr (HIP 5.2.3 device/rocm/rocdevice.cpp acquireQueue) gives every stream a hardware queue from
// a pool of GPU_MAX_HW_QUEUES (default 4) per priority and, once the pool is full, shares the
// least-used queue between streams: kernels of two streams sharing one queue run one after the
// other. The pool also holds the null stream's queue and ROCclr's internal transfer queue, so by
// default only two user streams are sure to run concurrently (seen under vgpu: a ping-pong between
// two new streams serialised while an old stream's queue was still being released). CUDA's
// equivalent is CUDA_DEVICE_MAX_CONNECTIONS (default 8 hardware work queues); unless the user set
// GPU_MAX_HW_QUEUES, it is set to that many plus ROCclr's two, before HIP is loaded (ROCclr reads it
// when it initialises).
void setHardwareQueueLimit() {
  if (getenv("GPU_MAX_HW_QUEUES")) return;
  long N = 8;
  if (const char *C = getenv("CUDA_DEVICE_MAX_CONNECTIONS"); C && *C) N = std::clamp(atol(C), 1L, 32L);
  setenv("GPU_MAX_HW_QUEUES", std::to_string(N + 2).c_str(), 0);
}
} // namespace

llvm::Expected<HipApi> loadApi(std::string Lib) {
  HipApi A;
  setHardwareQueueLimit();
  std::vector<std::string> Names;
  if (!Lib.empty()) Names.push_back(Lib);
  else if (const char *E = getenv("PTX2AMD_HIP_LIBRARY"); E && *E) Names.push_back(E);
  else Names = {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"};
  std::string Tried;
  for (const std::string &N : Names) {
    A.Lib = dlopen(N.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (A.Lib) break;
    Tried += (Tried.empty() ? "" : "; ") + std::string(dlerror());
  }
  if (!A.Lib) return makeError(Errc::BackendUnavailable, "hip: cannot load the HIP runtime (" + Tried + ")");
  std::string Missing;
  auto Get = [&](auto &Fn, const char *Sym) {
    Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(dlsym(A.Lib, Sym));
    if (!Fn) Missing += std::string(Missing.empty() ? "" : ", ") + Sym;
  };
  Get(A.Init, "hipInit");
  Get(A.GetDeviceCount, "hipGetDeviceCount");
  Get(A.SetDevice, "hipSetDevice");
  Get(A.DeviceGetAttribute, "hipDeviceGetAttribute");
  Get(A.ModuleLoadData, "hipModuleLoadData");
  Get(A.ModuleGetFunction, "hipModuleGetFunction");
  Get(A.ModuleGetGlobal, "hipModuleGetGlobal");
  Get(A.ModuleLaunchKernel, "hipModuleLaunchKernel");
  Get(A.Malloc, "hipMalloc");
  Get(A.Free, "hipFree");
  Get(A.HostMalloc, "hipHostMalloc");
  Get(A.HostFree, "hipHostFree");
  Get(A.MallocManaged, "hipMallocManaged");
  Get(A.Memcpy, "hipMemcpy");
  Get(A.MemcpyAsync, "hipMemcpyAsync");
  Get(A.MemsetAsync, "hipMemsetAsync");
  Get(A.StreamCreate, "hipStreamCreate");
  Get(A.StreamSynchronize, "hipStreamSynchronize");
  Get(A.StreamDestroy, "hipStreamDestroy");
  Get(A.MemGetInfo, "hipMemGetInfo");
  A.DeviceSetLimit = reinterpret_cast<decltype(A.DeviceSetLimit)>(dlsym(A.Lib, "hipDeviceSetLimit")); // ROCm >= 5.3
  A.ModuleLaunchCooperativeKernel = reinterpret_cast<decltype(A.ModuleLaunchCooperativeKernel)>(
      dlsym(A.Lib, "hipModuleLaunchCooperativeKernel")); // ROCm >= 5.5
  Get(A.GetErrorName, "hipGetErrorName");
  Get(A.RuntimeGetVersion, "hipRuntimeGetVersion");
  if (!Missing.empty()) {
    dlclose(A.Lib);
    return makeError(Errc::BackendUnavailable, "hip: the HIP runtime lacks " + Missing);
  }
  return A;
}

} // namespace runtime::hip

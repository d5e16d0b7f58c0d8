//===- backends/HipApi.cpp - loading libamdhip64 ------------------------------===//
#include "HipApi.h"

#include <dlfcn.h>

#include <cstdlib>
#include <type_traits>
#include <vector>

namespace runtime::hip {

llvm::Error hipErr(const HipApi &A, hipError E, const char *What) {
  if (E == 0) return llvm::Error::success();
  const char *Name = A.GetErrorName ? A.GetErrorName(E) : nullptr;
  return makeError(E == 2 ? Errc::MemoryAllocation : Errc::Unknown,
                   std::string("hip: ") + What + " failed: " + (Name ? Name : "") + " (" + std::to_string(E) + ")");
}

llvm::Expected<HipApi> loadApi(std::string Lib) {
  HipApi A;
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

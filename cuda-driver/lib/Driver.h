//===- cuda-driver/lib/Driver.h - state shared by the driver-API entry points -*- C++ -*-===//
//
// libcuda.so.1 is a thin layer over the runtime core (runtime/): CUDA handles are pointers
// to the small objects below, each registered in the process's one HandleTable so that a
// dead or foreign handle becomes CUDA_ERROR_INVALID_HANDLE / INVALID_CONTEXT instead of a
// crash. Contexts: one DrvContext per device wraps the core's primary context (the runtime
// API uses the same core context, so both APIs share it); every host thread has its own
// context stack (cuCtxPush/Pop/SetCurrent). Errors of the core (runtime::Errc) map to
// CUresult in one place (toResult), and the last failure's message is logged once per call
// through the "driver" logger.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cuda.h>

#include "runtime/Context.h"
#include "runtime/Device.h"
#include "runtime/Error.h"
#include "runtime/Graph.h"

#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

namespace cudadrv {

// ---- errors ---------------------------------------------------------------------
CUresult toResult(runtime::Errc C);
// Consumes E; logs its message (debug level, "driver" logger) and returns its CUresult.
CUresult fail(llvm::Error E, const char *Api);
// An entry point or feature this library refuses: logs `Name` once, CUDA_ERROR_NOT_SUPPORTED.
CUresult unsupported(const char *Name);
// A failure with a message the user must see (stderr, always), e.g. a cubin-only image.
CUresult failLoud(CUresult R, const std::string &Msg);

// ---- handles --------------------------------------------------------------------
struct DrvContext {
  runtime::Context *core = nullptr;
  int device = 0;
  unsigned flags = 0;
  bool primary = true;
};

struct DrvModule;
struct DrvKernel;
struct DrvFunction {
  runtime::Function *core = nullptr;
  DrvModule *module = nullptr;
  DrvKernel *kernel = nullptr; // the CUkernel it is the function of (cuLibrary*), if any
  std::string name;
  int maxDynamicShared = 0;   // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
  int preferredCarveout = -1; // CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT
};

struct DrvModule {
  DrvContext *ctx = nullptr;
  runtime::Module *core = nullptr;
  std::mutex mu;
  std::map<std::string, std::unique_ptr<DrvFunction>> functions;
};

// cuLibrary*: the image is translated when first used in a context (CUDA 13 loads lazily:
// an image without usable code loads and fails at cuLibraryGetKernel, as on the H200).
struct DrvLibrary;
struct DrvKernel {
  DrvLibrary *library = nullptr;
  std::string name;
};
struct DrvLibrary {
  std::vector<std::string> ptx; // empty when `loadError` is set; several: -rdc modules to link
  CUresult loadError = CUDA_SUCCESS;
  std::string loadMessage;
  std::mutex mu;
  std::map<DrvContext *, DrvModule *> modules;
  std::map<std::string, std::unique_ptr<DrvKernel>> kernels;
};

struct DrvLinkState; // cuLink* (Link.cpp)
class HandleTable {
public:
  static HandleTable &get();
  template <class T> void add(T *P) { std::lock_guard<std::mutex> L(Mu); set<T>().insert(P); }
  template <class T> void remove(T *P) { std::lock_guard<std::mutex> L(Mu); set<T>().erase(P); }
  template <class T> bool live(const void *P) {
    std::lock_guard<std::mutex> L(Mu);
    return set<T>().count(static_cast<T *>(const_cast<void *>(P))) != 0;
  }
  template <class T, class Fn> void forEach(Fn F) {
    std::lock_guard<std::mutex> L(Mu);
    for (T *P : set<T>()) F(P);
  }
  // Unregisters every handle of type T for which Dead(handle) holds; returns them.
  template <class T, class Pred> std::vector<T *> removeIf(Pred Dead) {
    std::lock_guard<std::mutex> L(Mu);
    std::vector<T *> Out;
    for (T *P : set<T>())
      if (Dead(P)) Out.push_back(P);
    for (T *P : Out) set<T>().erase(P);
    return Out;
  }

private:
  template <class T> std::unordered_set<T *> &set();
  std::mutex Mu;
  std::unordered_set<DrvModule *> Modules;
  std::unordered_set<DrvFunction *> Functions;
  std::unordered_set<DrvLibrary *> Libraries;
  std::unordered_set<DrvKernel *> Kernels;
  std::unordered_set<runtime::Stream *> Streams;
  std::unordered_set<runtime::Event *> Events;
  std::unordered_set<DrvContext *> Contexts;
  std::unordered_set<DrvLinkState *> Links;
};

template <> std::unordered_set<DrvModule *> &HandleTable::set<DrvModule>();
template <> std::unordered_set<DrvFunction *> &HandleTable::set<DrvFunction>();
template <> std::unordered_set<DrvLibrary *> &HandleTable::set<DrvLibrary>();
template <> std::unordered_set<DrvKernel *> &HandleTable::set<DrvKernel>();
template <> std::unordered_set<runtime::Stream *> &HandleTable::set<runtime::Stream>();
template <> std::unordered_set<runtime::Event *> &HandleTable::set<runtime::Event>();
template <> std::unordered_set<DrvContext *> &HandleTable::set<DrvContext>();
template <> std::unordered_set<DrvLinkState *> &HandleTable::set<DrvLinkState>();

// ---- process state --------------------------------------------------------------
// CUDA_ERROR_NOT_INITIALIZED before cuInit; the platform after.
CUresult platform(runtime::Platform **Out);
CUresult device(CUdevice Ordinal, runtime::Device **Out);
// The device's primary DrvContext (created on first use; its core context too).
CUresult primaryContext(CUdevice Ordinal, DrvContext **Out);
// The calling thread's current context; CUDA_ERROR_INVALID_CONTEXT when none.
CUresult currentContext(DrvContext **Out);
std::vector<DrvContext *> &contextStack(); // this thread's
// The live DrvContext wrapping a core context; null when none.
DrvContext *contextOf(const runtime::Context *Core);

// A live stream / event: one made by the driver API, or by the runtime API (libcudart.so.13 makes
// them in the core directly) in a live context: both APIs' handles are the core's objects.
bool liveStream(const runtime::Stream *S);
bool liveEvent(const runtime::Event *E);

// Stream handle -> core stream of the current context (null / CU_STREAM_LEGACY: legacy
// stream; CU_STREAM_PER_THREAD, or null from a _ptsz/_ptds entry point: per-thread stream).
CUresult resolveStream(CUstream H, bool PerThreadDefault, runtime::Stream **Out);

// A CUfunction that may also be a CUkernel (CUDA 12+ accepts both in cuLaunchKernel).
CUresult resolveFunction(CUfunction F, DrvFunction **Out);
// The kernel's function in the current context, or in `In` (loading the library's module there).
CUresult kernelFunction(DrvKernel *K, DrvFunction **Out, DrvContext *In = nullptr);
CUresult moduleFunction(DrvModule *M, const char *Name, DrvFunction **Out);
// cuCtxDestroy: the libraries' modules in C are gone (Module.cpp).
void forgetLibraryModules(DrvContext *C);

// ---- copies with array endpoints (Texture.cpp) ---------------------------------------
// cuMemcpy2D / cuMemcpy3D (+Async, _ptds / _ptsz): Async on H, else synchronous.
CUresult copy2DParams(const CUDA_MEMCPY2D *P, CUstream H, bool Async, bool PerThread);
CUresult copy3DParams(const CUDA_MEMCPY3D *P, CUstream H, bool Async, bool PerThread);
// CUDA_MEMCPY3D <-> the core's resolved copy (graph memcpy nodes too).
CUresult memcpy3DParams(const CUDA_MEMCPY3D *P, runtime::CopyNodeParams &Out);
CUDA_MEMCPY3D memcpy3DOf(const runtime::CopyNodeParams &C);

// ---- images -----------------------------------------------------------------------
// The PTX of an image given to cuModuleLoadData / cuLibraryLoadData / cuModuleLoadFatBinary:
// PTX text, a fat binary wrapper or container (compressed entries too), or an ELF holding
// .nv_fatbin. Every size is bounded by the readable bytes. A cubin / SASS-only image gives
// CUDA_ERROR_NO_BINARY_FOR_GPU and `Msg` naming its sm_XX and how to rebuild with PTX.
CUresult imagePTX(const void *Image, std::vector<std::string> &PTX, std::string &Msg);
// cuLinkComplete's image (Link.cpp): "P2AL" (LinkedImageMagic), u32 count, then count x
// {u64 size, size bytes of PTX}; imagePTX returns its modules, which the load links.
inline constexpr uint32_t LinkedImageMagic = 0x4C413250u;
std::vector<uint8_t> makeLinkedImage(const std::vector<std::string> &Ptx);
// Writes Msg into the CU_JIT_ERROR_LOG_BUFFER of a JIT option list (if any).
void writeLog(unsigned N, CUjit_option *Opts, void **Vals, const std::string &Msg);
// Loads PTX as a module of Ctx (module-scope variables kept addressable by name).
CUresult loadModule(DrvContext *Ctx, const std::vector<std::string> &PTX, const std::string &Name, DrvModule **Out);

} // namespace cudadrv

//===- cuda-driver/lib/Context.cpp - primary contexts and the context stack ----===//
//
// cuDevicePrimaryCtx* count references on the device's one primary DrvContext; cuCtx*
// manipulate the calling thread's context stack. cuCtxCreate makes a further core context of
// the device (its own modules, streams, events, limits, printf text; memory in the device's
// one address space, so pointers stay valid across the device's contexts) and pushes it;
// cuCtxDestroy kills its handles (modules, functions, streams, events), pops it from the
// calling thread's stack and destroys the core context (waiting for its work and freeing its
// memory).
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include "runtime/Log.h"

using namespace cudadrv;

namespace {
std::mutex RefMu;
std::map<int, int> &refs() {
  static auto *M = new std::map<int, int>;
  return *M;
}
CUresult liveContext(CUcontext C, DrvContext **Out) {
  auto *D = reinterpret_cast<DrvContext *>(C);
  if (!D) return currentContext(Out);
  if (!HandleTable::get().live<DrvContext>(D)) return CUDA_ERROR_INVALID_CONTEXT;
  *Out = D;
  return CUDA_SUCCESS;
}
} // namespace

CUresult cuDevicePrimaryCtxRetain(CUcontext *Ctx, CUdevice Dev) {
  if (!Ctx) return CUDA_ERROR_INVALID_VALUE;
  DrvContext *C;
  if (CUresult R = primaryContext(Dev, &C)) return R;
  std::lock_guard<std::mutex> L(RefMu);
  ++refs()[Dev];
  *Ctx = reinterpret_cast<CUcontext>(C);
  return CUDA_SUCCESS;
}

static CUresult primaryRelease(CUdevice Dev) {
  DrvContext *C;
  if (CUresult R = primaryContext(Dev, &C)) return R;
  std::lock_guard<std::mutex> L(RefMu);
  int &N = refs()[Dev];
  if (N <= 0) return CUDA_ERROR_INVALID_CONTEXT;
  --N; // the core context stays: its memory is the process's until cuDevicePrimaryCtxReset
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease(CUdevice Dev) { return primaryRelease(Dev); }
extern "C" CUresult drvPrimaryCtxRelease_v1(CUdevice Dev) __asm__("cuDevicePrimaryCtxRelease");
extern "C" CUresult drvPrimaryCtxRelease_v1(CUdevice Dev) { return primaryRelease(Dev); }

CUresult cuDevicePrimaryCtxGetState(CUdevice Dev, unsigned int *Flags, int *Active) {
  if (!Flags || !Active) return CUDA_ERROR_INVALID_VALUE;
  DrvContext *C;
  if (CUresult R = primaryContext(Dev, &C)) return R;
  std::lock_guard<std::mutex> L(RefMu);
  *Flags = C->flags;
  *Active = refs()[Dev] > 0;
  return CUDA_SUCCESS;
}

static CUresult primarySetFlags(CUdevice Dev, unsigned Flags) {
  DrvContext *C;
  if (CUresult R = primaryContext(Dev, &C)) return R;
  C->flags = Flags;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxSetFlags(CUdevice Dev, unsigned int Flags) { return primarySetFlags(Dev, Flags); }
extern "C" CUresult drvPrimaryCtxSetFlags_v1(CUdevice Dev, unsigned Flags) __asm__("cuDevicePrimaryCtxSetFlags");
extern "C" CUresult drvPrimaryCtxSetFlags_v1(CUdevice Dev, unsigned Flags) { return primarySetFlags(Dev, Flags); }

static CUresult primaryReset(CUdevice Dev) {
  DrvContext *C;
  if (CUresult R = primaryContext(Dev, &C)) return R;
  return fail(C->core->reset(), "cuDevicePrimaryCtxReset");
}
CUresult cuDevicePrimaryCtxReset(CUdevice Dev) { return primaryReset(Dev); }
extern "C" CUresult drvPrimaryCtxReset_v1(CUdevice Dev) __asm__("cuDevicePrimaryCtxReset");
extern "C" CUresult drvPrimaryCtxReset_v1(CUdevice Dev) { return primaryReset(Dev); }

static CUresult createContext(CUcontext *Ctx, unsigned Flags, CUdevice Dev) {
  if (!Ctx) return CUDA_ERROR_INVALID_VALUE;
  runtime::Device *D;
  if (CUresult R = device(Dev, &D)) return R;
  auto *C = new DrvContext;
  C->core = D->createContext();
  C->device = Dev;
  C->flags = Flags;
  C->primary = false;
  HandleTable::get().add(C);
  contextStack().push_back(C);
  *Ctx = reinterpret_cast<CUcontext>(C);
  return CUDA_SUCCESS;
}
extern "C" CUresult drvCtxCreate_v2(CUcontext *C, unsigned F, CUdevice D) __asm__("cuCtxCreate_v2");
extern "C" CUresult drvCtxCreate_v2(CUcontext *C, unsigned F, CUdevice D) { return createContext(C, F, D); }
CUresult cuCtxCreate(CUcontext *C, CUctxCreateParams *Params, unsigned int F, CUdevice D) {
  if (Params && (Params->execAffinityParams || Params->cigParams)) return unsupported("cuCtxCreate_v4 (affinity / CIG parameters)");
  return createContext(C, F, D);
}

// The driver handles of a dying context: its modules (and their functions), streams, events.
static void killHandles(DrvContext *C) {
  HandleTable &T = HandleTable::get();
  for (DrvModule *M : T.removeIf<DrvModule>([&](DrvModule *M) { return M->ctx == C; })) {
    for (auto &[Name, F] : M->functions) T.remove(F.get());
    delete M; // its core module goes with the core context
  }
  T.removeIf<runtime::Stream>([&](runtime::Stream *S) { return &S->context() == C->core; });
  T.removeIf<runtime::Event>([&](runtime::Event *E) { return C->core->isLive(E); });
}

CUresult cuCtxDestroy(CUcontext Ctx) {
  DrvContext *C;
  if (CUresult R = liveContext(Ctx, &C)) return R;
  auto &S = contextStack();
  for (auto It = S.begin(); It != S.end();)
    It = *It == C ? S.erase(It) : It + 1;
  if (C->primary) return CUDA_SUCCESS; // the primary context lives on (cuDevicePrimaryCtxReset resets it)
  killHandles(C);
  forgetLibraryModules(C);
  HandleTable::get().remove(C);
  runtime::Device &D = C->core->device();
  CUresult R = fail(D.destroyContext(C->core), "cuCtxDestroy");
  delete C;
  return R;
}

// CUDA pushes a destroyed context's handle too (the H200 answers CUDA_SUCCESS and reports it as
// current); it is never dereferenced here: every use checks liveness (currentContext).
CUresult cuCtxPushCurrent(CUcontext Ctx) {
  if (!Ctx) return CUDA_ERROR_INVALID_CONTEXT;
  runtime::Platform *P;
  if (CUresult R = platform(&P)) return R;
  contextStack().push_back(reinterpret_cast<DrvContext *>(Ctx));
  return CUDA_SUCCESS;
}

CUresult cuCtxPopCurrent(CUcontext *Ctx) {
  auto &S = contextStack();
  if (S.empty()) return CUDA_ERROR_INVALID_CONTEXT;
  if (Ctx) *Ctx = reinterpret_cast<CUcontext>(S.back());
  S.pop_back();
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext Ctx) {
  auto &S = contextStack();
  if (!Ctx) {
    if (!S.empty()) S.pop_back();
    return CUDA_SUCCESS;
  }
  DrvContext *C;
  if (CUresult R = liveContext(Ctx, &C)) return R;
  if (S.empty()) S.push_back(C);
  else S.back() = C;
  return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext *Ctx) {
  if (!Ctx) return CUDA_ERROR_INVALID_VALUE;
  auto &S = contextStack();
  *Ctx = S.empty() ? nullptr : reinterpret_cast<CUcontext>(S.back());
  return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice(CUdevice *Dev) {
  if (!Dev) return CUDA_ERROR_INVALID_VALUE;
  DrvContext *C;
  if (CUresult R = currentContext(&C)) return R;
  *Dev = C->device;
  return CUDA_SUCCESS;
}
CUresult cuCtxGetDevice_v2(CUdevice *Dev, CUcontext Ctx) {
  if (!Dev) return CUDA_ERROR_INVALID_VALUE;
  DrvContext *C;
  if (CUresult R = liveContext(Ctx, &C)) return R;
  *Dev = C->device;
  return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize() {
  DrvContext *C;
  if (CUresult R = currentContext(&C)) return R;
  return fail(C->core->synchronize(), "cuCtxSynchronize");
}
CUresult cuCtxSynchronize_v2(CUcontext Ctx) {
  DrvContext *C;
  if (CUresult R = liveContext(Ctx, &C)) return R;
  return fail(C->core->synchronize(), "cuCtxSynchronize");
}

CUresult cuCtxGetApiVersion(CUcontext Ctx, unsigned int *Version) {
  if (!Version) return CUDA_ERROR_INVALID_VALUE;
  DrvContext *C;
  if (CUresult R = liveContext(Ctx, &C)) return R;
  *Version = 3020; // what CUDA reports for contexts of the v2 API
  return CUDA_SUCCESS;
}

CUresult cuCtxGetFlags(unsigned int *Flags) {
  if (!Flags) return CUDA_ERROR_INVALID_VALUE;
  DrvContext *C;
  if (CUresult R = currentContext(&C)) return R;
  *Flags = C->flags;
  return CUDA_SUCCESS;
}
CUresult cuCtxSetFlags(unsigned int Flags) {
  DrvContext *C;
  if (CUresult R = currentContext(&C)) return R;
  C->flags = Flags;
  return CUDA_SUCCESS;
}

static bool coreLimit(CUlimit L, runtime::Limit &Out) {
  switch (L) {
  case CU_LIMIT_STACK_SIZE: Out = runtime::Limit::StackSize; return true;
  case CU_LIMIT_MALLOC_HEAP_SIZE: Out = runtime::Limit::MallocHeapSize; return true;
  case CU_LIMIT_PRINTF_FIFO_SIZE: Out = runtime::Limit::PrintfFifoSize; return true;
  default: return false;
  }
}
CUresult cuCtxSetLimit(CUlimit L, size_t Value) {
  DrvContext *C;
  if (CUresult R = currentContext(&C)) return R;
  runtime::Limit CL;
  if (!coreLimit(L, CL)) return CUDA_ERROR_UNSUPPORTED_LIMIT;
  return fail(C->core->setLimit(CL, Value), "cuCtxSetLimit");
}
CUresult cuCtxGetLimit(size_t *Value, CUlimit L) {
  if (!Value) return CUDA_ERROR_INVALID_VALUE;
  DrvContext *C;
  if (CUresult R = currentContext(&C)) return R;
  runtime::Limit CL;
  if (!coreLimit(L, CL)) return CUDA_ERROR_UNSUPPORTED_LIMIT;
  *Value = C->core->limit(CL);
  return CUDA_SUCCESS;
}

CUresult cuCtxGetStreamPriorityRange(int *Least, int *Greatest) {
  if (Least) *Least = 0;
  if (Greatest) *Greatest = -5; // CUDA's range on current NVIDIA GPUs; priorities are accepted and ignored
  return CUDA_SUCCESS;
}
CUresult cuCtxGetCacheConfig(CUfunc_cache *Config) {
  if (!Config) return CUDA_ERROR_INVALID_VALUE;
  *Config = CU_FUNC_CACHE_PREFER_NONE;
  return CUDA_SUCCESS;
}
CUresult cuCtxSetCacheConfig(CUfunc_cache) { return CUDA_SUCCESS; } // a hint; LDS size is fixed

// A context's id: unique over the process's life (the core context's id()).
CUresult cuCtxGetId(CUcontext Ctx, unsigned long long *Id) {
  if (!Id) return CUDA_ERROR_INVALID_VALUE;
  DrvContext *C;
  if (CUresult R = liveContext(Ctx, &C)) return R;
  *Id = C->core->id();
  return CUDA_SUCCESS;
}

// ---- peer access ------------------------------------------------------------------
// Every device is its backend's only one, so no two devices (nor a device and itself, as on
// CUDA) can access each other's memory: the query answers 0, enabling access to another
// context is CUDA_ERROR_PEER_ACCESS_UNSUPPORTED (also to the current context itself: the H200's
// answer, session 9, where the documentation says INVALID_CONTEXT), disabling
// CUDA_ERROR_PEER_ACCESS_NOT_ENABLED.
CUresult cuDeviceCanAccessPeer(int *Can, CUdevice Dev, CUdevice Peer) {
  if (!Can) return CUDA_ERROR_INVALID_VALUE;
  runtime::Device *D;
  if (CUresult R = device(Dev, &D)) return R;
  if (CUresult R = device(Peer, &D)) return R;
  *Can = 0;
  return CUDA_SUCCESS;
}
CUresult cuCtxEnablePeerAccess(CUcontext Peer, unsigned int Flags) {
  DrvContext *Cur;
  if (CUresult R = currentContext(&Cur)) return R;
  auto *P = reinterpret_cast<DrvContext *>(Peer);
  if (!P || !HandleTable::get().live<DrvContext>(P)) return CUDA_ERROR_INVALID_CONTEXT;
  if (Flags != 0) return CUDA_ERROR_INVALID_VALUE;
  return CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
}
CUresult cuCtxDisablePeerAccess(CUcontext Peer) {
  DrvContext *Cur;
  if (CUresult R = currentContext(&Cur)) return R;
  auto *P = reinterpret_cast<DrvContext *>(Peer);
  if (!P || !HandleTable::get().live<DrvContext>(P)) return CUDA_ERROR_INVALID_CONTEXT;
  return CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
}

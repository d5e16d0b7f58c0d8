//===- cuda-driver/lib/State.cpp - process state, handles, errors ------------===//
//
// The driver library's only process-wide state: whether cuInit ran, one DrvContext per
// device (wrapping the core's primary context), the HandleTable, and the per-thread context
// stacks. Also the Errc -> CUresult mapping and the once-per-name "unsupported" notes.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include "runtime/Log.h"

#include <atomic>
#include <cstdio>
#include <set>

namespace cudadrv {

CUresult toResult(runtime::Errc C) {
  using runtime::Errc;
  switch (C) {
  case Errc::Success: return CUDA_SUCCESS;
  case Errc::InvalidValue: return CUDA_ERROR_INVALID_VALUE;
  case Errc::MemoryAllocation: return CUDA_ERROR_OUT_OF_MEMORY;
  case Errc::NoDevice: return CUDA_ERROR_NO_DEVICE;
  case Errc::InvalidDevice: return CUDA_ERROR_INVALID_DEVICE;
  case Errc::BackendUnavailable: return CUDA_ERROR_NO_DEVICE;
  case Errc::InvalidKernelImage: return CUDA_ERROR_INVALID_IMAGE;
  case Errc::InvalidDeviceFunction: return CUDA_ERROR_NOT_FOUND;
  case Errc::InvalidSymbol: return CUDA_ERROR_NOT_FOUND;
  case Errc::InvalidResourceHandle: return CUDA_ERROR_INVALID_HANDLE;
  case Errc::NotReady: return CUDA_ERROR_NOT_READY;
  case Errc::NotSupported: return CUDA_ERROR_NOT_SUPPORTED;
  case Errc::CooperativeLaunchTooLarge: return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
  case Errc::LaunchOutOfResources: return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  case Errc::LaunchFailure: return CUDA_ERROR_LAUNCH_FAILED;
  case Errc::IllegalAddress: return CUDA_ERROR_ILLEGAL_ADDRESS;
  case Errc::MisalignedAddress: return CUDA_ERROR_MISALIGNED_ADDRESS;
  case Errc::IllegalInstruction: return CUDA_ERROR_ILLEGAL_INSTRUCTION;
  case Errc::LaunchTimeout: return CUDA_ERROR_LAUNCH_TIMEOUT;
  case Errc::Assert: return CUDA_ERROR_ASSERT;
  case Errc::IllegalState: return CUDA_ERROR_ILLEGAL_STATE;
  case Errc::StreamCaptureUnsupported: return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
  case Errc::StreamCaptureInvalidated: return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
  case Errc::StreamCaptureMerge: return CUDA_ERROR_STREAM_CAPTURE_MERGE;
  case Errc::StreamCaptureUnmatched: return CUDA_ERROR_STREAM_CAPTURE_UNMATCHED;
  case Errc::StreamCaptureUnjoined: return CUDA_ERROR_STREAM_CAPTURE_UNJOINED;
  case Errc::StreamCaptureIsolation: return CUDA_ERROR_STREAM_CAPTURE_ISOLATION;
  case Errc::StreamCaptureImplicit: return CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
  case Errc::CapturedEvent: return CUDA_ERROR_CAPTURED_EVENT;
  case Errc::StreamCaptureWrongThread: return CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD;
  case Errc::GraphExecUpdateFailure: return CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE;
  // The driver API has no codes of their own for these: invalid arguments.
  case Errc::InvalidChannelDescriptor: case Errc::InvalidFilterSetting: case Errc::InvalidNormSetting:
  case Errc::InvalidPitchValue: return CUDA_ERROR_INVALID_VALUE;
  case Errc::Unknown: return CUDA_ERROR_UNKNOWN;
  }
  return CUDA_ERROR_UNKNOWN;
}

CUresult fail(llvm::Error E, const char *Api) {
  if (!E) return CUDA_SUCCESS;
  std::string Msg;
  runtime::Errc C = runtime::takeErrc(std::move(E), &Msg);
  CUresult R = toResult(C);
  runtime::logger("driver")->debug("{}: {}", Api, Msg);
  if (R == CUDA_ERROR_INVALID_IMAGE || R == CUDA_ERROR_NOT_SUPPORTED)
    fprintf(stderr, "ptx2amd-driver: %s: %s\n", Api, Msg.c_str());
  return R;
}

CUresult unsupported(const char *Name) {
  static std::mutex Mu;
  static std::set<std::string> Seen;
  std::lock_guard<std::mutex> L(Mu);
  if (Seen.insert(Name).second)
    fprintf(stderr, "ptx2amd-driver: unsupported CUDA driver call '%s'\n", Name);
  return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult failLoud(CUresult R, const std::string &Msg) {
  fprintf(stderr, "ptx2amd-driver: %s\n", Msg.c_str());
  return R;
}

HandleTable &HandleTable::get() {
  static HandleTable *T = new HandleTable; // never destroyed: atexit unloads may run late
  return *T;
}
template <> std::unordered_set<DrvModule *> &HandleTable::set() { return Modules; }
template <> std::unordered_set<DrvFunction *> &HandleTable::set() { return Functions; }
template <> std::unordered_set<DrvLibrary *> &HandleTable::set() { return Libraries; }
template <> std::unordered_set<DrvKernel *> &HandleTable::set() { return Kernels; }
template <> std::unordered_set<DrvLinkState *> &HandleTable::set() { return Links; }
template <> std::unordered_set<runtime::Stream *> &HandleTable::set() { return Streams; }
template <> std::unordered_set<runtime::Event *> &HandleTable::set() { return Events; }
template <> std::unordered_set<DrvContext *> &HandleTable::set() { return Contexts; }

namespace {
std::atomic<bool> Initialized{false};
std::mutex PrimaryMu;
std::map<int, DrvContext *> &primaries() {
  static auto *M = new std::map<int, DrvContext *>;
  return *M;
}
} // namespace

CUresult platform(runtime::Platform **Out) {
  if (!Initialized.load()) return CUDA_ERROR_NOT_INITIALIZED;
  auto P = runtime::Platform::get();
  if (!P) return fail(P.takeError(), "cuInit");
  *Out = *P;
  return CUDA_SUCCESS;
}

CUresult device(CUdevice Ordinal, runtime::Device **Out) {
  runtime::Platform *P;
  if (CUresult R = platform(&P)) return R;
  if (Ordinal < 0 || unsigned(Ordinal) >= P->deviceCount()) return CUDA_ERROR_INVALID_DEVICE;
  auto D = P->device(unsigned(Ordinal));
  if (!D) return fail(D.takeError(), "device");
  *Out = *D;
  return CUDA_SUCCESS;
}

CUresult primaryContext(CUdevice Ordinal, DrvContext **Out) {
  runtime::Device *D;
  if (CUresult R = device(Ordinal, &D)) return R;
  std::lock_guard<std::mutex> L(PrimaryMu);
  DrvContext *&C = primaries()[Ordinal];
  if (!C) {
    C = new DrvContext;
    C->core = &D->primaryContext();
    C->device = Ordinal;
    HandleTable::get().add(C);
  }
  *Out = C;
  return CUDA_SUCCESS;
}

std::vector<DrvContext *> &contextStack() {
  thread_local std::vector<DrvContext *> Stack;
  return Stack;
}

DrvContext *contextOf(const runtime::Context *Core) {
  DrvContext *Found = nullptr;
  HandleTable::get().forEach<DrvContext>([&](DrvContext *C) {
    if (C->core == Core) Found = C;
  });
  return Found;
}

CUresult currentContext(DrvContext **Out) {
  if (!Initialized.load()) return CUDA_ERROR_NOT_INITIALIZED;
  auto &S = contextStack();
  // A context destroyed (cuCtxDestroy, maybe by another thread) stays on stacks as a dead handle.
  if (S.empty() || !S.back() || !HandleTable::get().live<DrvContext>(S.back())) return CUDA_ERROR_INVALID_CONTEXT;
  *Out = S.back();
  return CUDA_SUCCESS;
}

bool liveStream(const runtime::Stream *S) {
  HandleTable &T = HandleTable::get();
  if (T.live<runtime::Stream>(S)) return true;
  bool Live = false;
  T.forEach<DrvContext>([&](DrvContext *C) { Live = Live || C->core->isLive(S); });
  return Live;
}
bool liveEvent(const runtime::Event *E) {
  HandleTable &T = HandleTable::get();
  if (T.live<runtime::Event>(E)) return true;
  bool Live = false;
  T.forEach<DrvContext>([&](DrvContext *C) { Live = Live || C->core->isLive(E); });
  return Live;
}

CUresult resolveStream(CUstream H, bool PerThreadDefault, runtime::Stream **Out) {
  DrvContext *C;
  if (CUresult R = currentContext(&C)) return R;
  if (H == CU_STREAM_PER_THREAD || (!H && PerThreadDefault)) {
    *Out = &C->core->perThreadStream();
    return CUDA_SUCCESS;
  }
  if (!H || H == CU_STREAM_LEGACY) {
    *Out = &C->core->legacyStream();
    return CUDA_SUCCESS;
  }
  auto *S = reinterpret_cast<runtime::Stream *>(H);
  if (!liveStream(S)) return CUDA_ERROR_INVALID_HANDLE;
  *Out = S;
  return CUDA_SUCCESS;
}

} // namespace cudadrv

using namespace cudadrv;

CUresult cuInit(unsigned int Flags) {
  if (Flags != 0) return CUDA_ERROR_INVALID_VALUE;
  auto P = runtime::Platform::get();
  if (!P) return fail(P.takeError(), "cuInit");
  if ((*P)->deviceCount() == 0) return CUDA_ERROR_NO_DEVICE;
  Initialized.store(true);
  return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int *Version) {
  if (!Version) return CUDA_ERROR_INVALID_VALUE;
  *Version = CUDA_VERSION; // 13000: the toolkit this library implements (the H200 answers 13000)
  return CUDA_SUCCESS;
}

namespace cudadrv {
// Called by the generated weak stubs (Stubs.cpp), which cannot include cuda.h.
int unsupportedCall(const char *Name) { return int(unsupported(Name)); }
} // namespace cudadrv

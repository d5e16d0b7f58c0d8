//===- Errors.cpp - CUDA's error model over the core's errors ---------------===//
//
// The last error is per thread (CUDA); cudaGetLastError returns and clears
// it, but a sticky kernel fault of the context is returned again by every
// call. Also the core-Errc -> cudaError_t map, error names/strings and the
// explicitly unsupported entry points.
//
//===----------------------------------------------------------------------===//
#include "Shim.h"

#include "runtime/Log.h"

#include <cstdio>

namespace cudartshim {

namespace {
thread_local cudaError_t LastError = cudaSuccess;
} // namespace

void note(const std::string &Msg) { runtime::logger("shim")->warn("{}", Msg); }

cudaError_t recordError(cudaError_t E) {
  if (E != cudaSuccess && E != cudaErrorNotReady) LastError = E;
  return E;
}

cudaError_t toCuda(runtime::Errc C) {
  using runtime::Errc;
  switch (C) {
  case Errc::Success: return cudaSuccess;
  case Errc::InvalidValue: return cudaErrorInvalidValue;
  case Errc::MemoryAllocation: return cudaErrorMemoryAllocation;
  case Errc::NoDevice: case Errc::BackendUnavailable: return cudaErrorNoDevice;
  case Errc::InvalidDevice: return cudaErrorInvalidDevice;
  case Errc::InvalidKernelImage: return cudaErrorInvalidKernelImage;
  case Errc::InvalidDeviceFunction: return cudaErrorInvalidDeviceFunction;
  case Errc::InvalidSymbol: return cudaErrorInvalidSymbol;
  case Errc::InvalidResourceHandle: return cudaErrorInvalidResourceHandle;
  case Errc::NotReady: return cudaErrorNotReady;
  case Errc::NotSupported: return cudaErrorNotSupported;
  case Errc::CooperativeLaunchTooLarge: return cudaErrorCooperativeLaunchTooLarge;
  case Errc::LaunchOutOfResources: return cudaErrorLaunchOutOfResources;
  case Errc::LaunchFailure: return cudaErrorLaunchFailure;
  case Errc::IllegalAddress: return cudaErrorIllegalAddress;
  case Errc::MisalignedAddress: return cudaErrorMisalignedAddress;
  case Errc::IllegalInstruction: return cudaErrorIllegalInstruction;
  case Errc::LaunchTimeout: return cudaErrorLaunchTimeout;
  case Errc::Assert: return cudaErrorAssert;
  case Errc::IllegalState: return cudaErrorIllegalState;
  case Errc::StreamCaptureUnsupported: return cudaErrorStreamCaptureUnsupported;
  case Errc::StreamCaptureInvalidated: return cudaErrorStreamCaptureInvalidated;
  case Errc::StreamCaptureMerge: return cudaErrorStreamCaptureMerge;
  case Errc::StreamCaptureUnmatched: return cudaErrorStreamCaptureUnmatched;
  case Errc::StreamCaptureUnjoined: return cudaErrorStreamCaptureUnjoined;
  case Errc::StreamCaptureIsolation: return cudaErrorStreamCaptureIsolation;
  case Errc::StreamCaptureImplicit: return cudaErrorStreamCaptureImplicit;
  case Errc::CapturedEvent: return cudaErrorCapturedEvent;
  case Errc::StreamCaptureWrongThread: return cudaErrorStreamCaptureWrongThread;
  case Errc::GraphExecUpdateFailure: return cudaErrorGraphExecUpdateFailure;
  case Errc::InvalidChannelDescriptor: return cudaErrorInvalidChannelDescriptor;
  case Errc::InvalidFilterSetting: return cudaErrorInvalidFilterSetting;
  case Errc::InvalidNormSetting: return cudaErrorInvalidNormSetting;
  case Errc::InvalidPitchValue: return cudaErrorInvalidPitchValue;
  case Errc::Unknown: return cudaErrorUnknown;
  }
  return cudaErrorUnknown;
}

cudaError_t fromError(llvm::Error E, const char *Api) {
  if (!E) return cudaSuccess;
  std::string Msg;
  runtime::Errc C = runtime::takeErrc(std::move(E), &Msg);
  if (C != runtime::Errc::NotReady && !runtime::isSticky(C)) note(std::string(Api) + ": " + Msg);
  return recordError(toCuda(C));
}

} // namespace cudartshim

using namespace cudartshim;

extern "C" {

cudaError_t cudaGetLastError(void) {
  cudaError_t Sticky = cudaSuccess;
  if (runtime::Context *C = context(&Sticky)) Sticky = toCuda(C->stickyCode());
  cudaError_t E = LastError;
  LastError = Sticky;
  return E;
}

cudaError_t cudaPeekAtLastError(void) { return LastError; }

const char *cudaGetErrorName(cudaError_t E) {
  switch (E) {
#define N(X) case X: return #X;
  N(cudaSuccess) N(cudaErrorInvalidValue) N(cudaErrorMemoryAllocation) N(cudaErrorInitializationError)
  N(cudaErrorInvalidConfiguration) N(cudaErrorInvalidSymbol) N(cudaErrorInvalidDeviceFunction)
  N(cudaErrorMissingConfiguration) N(cudaErrorNoDevice) N(cudaErrorInvalidDevice) N(cudaErrorInvalidKernelImage)
  N(cudaErrorInvalidResourceHandle) N(cudaErrorNotSupported) N(cudaErrorLaunchFailure) N(cudaErrorAssert)
  N(cudaErrorCooperativeLaunchTooLarge) N(cudaErrorUnsupportedLimit) N(cudaErrorUnknown)
  N(cudaErrorIllegalAddress) N(cudaErrorNotReady) N(cudaErrorInvalidChannelDescriptor)
  N(cudaErrorInvalidFilterSetting) N(cudaErrorInvalidNormSetting) N(cudaErrorInvalidPitchValue)
  N(cudaErrorInvalidTexture) N(cudaErrorInvalidSurface) N(cudaErrorInvalidDevicePointer)
  N(cudaErrorInvalidMemcpyDirection) N(cudaErrorLaunchOutOfResources) N(cudaErrorIllegalState)
  N(cudaErrorStreamCaptureUnsupported) N(cudaErrorStreamCaptureInvalidated) N(cudaErrorStreamCaptureMerge)
  N(cudaErrorStreamCaptureUnmatched) N(cudaErrorStreamCaptureUnjoined) N(cudaErrorStreamCaptureIsolation)
  N(cudaErrorStreamCaptureImplicit) N(cudaErrorCapturedEvent) N(cudaErrorStreamCaptureWrongThread)
  N(cudaErrorGraphExecUpdateFailure) N(cudaErrorMisalignedAddress)
  N(cudaErrorIllegalInstruction) N(cudaErrorLaunchTimeout) N(cudaErrorDeviceUninitialized)
  N(cudaErrorContextIsDestroyed) N(cudaErrorPeerAccessNotEnabled) N(cudaErrorPeerAccessUnsupported)
#undef N
  default: return "cudaErrorUnknown";
  }
}

const char *cudaGetErrorString(cudaError_t E) {
  switch (E) {
  case cudaSuccess: return "no error";
  case cudaErrorInvalidValue: return "invalid argument";
  case cudaErrorMemoryAllocation: return "out of memory";
  case cudaErrorInvalidConfiguration: return "invalid configuration argument";
  case cudaErrorInvalidSymbol: return "invalid device symbol";
  case cudaErrorInvalidDeviceFunction: return "invalid device function";
  case cudaErrorNoDevice: return "no CUDA-capable device is detected";
  case cudaErrorInvalidDevice: return "invalid device ordinal";
  case cudaErrorPeerAccessNotEnabled: return "peer access has not been enabled";
  case cudaErrorPeerAccessUnsupported: return "peer access is not supported between these two devices";
  case cudaErrorInvalidKernelImage: return "device kernel image is invalid (ptx2amd could not translate it)";
  case cudaErrorInvalidResourceHandle: return "invalid resource handle";
  case cudaErrorNotReady: return "device not ready";
  case cudaErrorNotSupported: return "operation not supported (by ptx2amd's runtime shim)";
  case cudaErrorLaunchFailure: return "unspecified launch failure";
  case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
  case cudaErrorAssert: return "device-side assert triggered";
  case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
  case cudaErrorMisalignedAddress: return "misaligned address";
  case cudaErrorIllegalInstruction: return "an illegal instruction was encountered";
  case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
  case cudaErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
  case cudaErrorDeviceUninitialized: return "invalid device context";
  case cudaErrorContextIsDestroyed: return "context is destroyed";
  default: return cudaGetErrorName(E);
  }
}

// Profiler control: no profiler is attached; CUDA returns success then too.
// (cudaProfilerInitialize was removed from libcudart in CUDA 12.)
cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

// ---- explicitly unsupported features ----------------------------------------
static cudaError_t unsupported(const char *Name) {
  fprintf(stderr, "ptx2amd-shim: unsupported CUDA runtime call '%s'\n", Name);
  return recordError(cudaErrorNotSupported);
}
cudaError_t cudaGetDriverEntryPoint(const char *, void **F, unsigned long long,
                                    cudaDriverEntryPointQueryResult *Status) {
  if (F) *F = nullptr;
  if (Status) *Status = cudaDriverEntryPointSymbolNotFound;
  return unsupported("cudaGetDriverEntryPoint");
}
cudaError_t cudaGetDriverEntryPointByVersion(const char *, void **F, unsigned, unsigned long long,
                                             cudaDriverEntryPointQueryResult *Status) {
  if (F) *F = nullptr;
  if (Status) *Status = cudaDriverEntryPointSymbolNotFound;
  return unsupported("cudaGetDriverEntryPointByVersion");
}

} // extern "C"

//===- runtime/Error.h - the core's error codes and sticky-error model -*- C++ -*-===//
//
// Every fallible core call returns llvm::Error / llvm::Expected whose payload
// is a runtime::RuntimeError carrying one Errc. The codes are CUDA's concepts,
// not CUDA's numbers: the runtime-API shim and the driver-API library map them
// to cudaError_t / CUresult (a backend's typed errors become Errc through
// runtime/core/ErrorTable.h). Errors classed sticky (kernel faults: launch
// failure, illegal address/instruction, misaligned, timeout, assert) poison the context until it is reset, as
// in CUDA; argument errors never do. (Issue 12 may later replace this with the
// project-wide typed error library; the Errc names stay.)
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/Support/Error.h"

#include <string>

namespace runtime {

enum class Errc {
  Success = 0,
  InvalidValue,            // bad argument (null / unknown pointer, bad size, bad flag)
  MemoryAllocation,        // allocation cannot be satisfied
  NoDevice,                // the backend has no usable device
  InvalidDevice,           // device ordinal out of range
  BackendUnavailable,      // backend library missing / unusable (e.g. libamdhip64.so)
  InvalidKernelImage,      // the module could not be translated or loaded
  InvalidDeviceFunction,   // no such kernel
  InvalidSymbol,           // no such global
  InvalidConfiguration,    // grid / block / shared memory / policy limit
  InvalidResourceHandle,   // dead stream / event / module handle
  NotReady,                // query: work still pending
  NotSupported,            // a feature the runtime refuses explicitly
  CooperativeLaunchTooLarge,
  LaunchOutOfResources,    // registers / private memory a launch needs
  LaunchFailure,           // sticky: kernel trap / fault
  IllegalAddress,          // sticky: kernel memory fault
  MisalignedAddress,       // sticky: misaligned access
  IllegalInstruction,      // sticky: control reached no code
  LaunchTimeout,           // sticky: a kernel that ran past the watchdog (a hang)
  Assert,                  // sticky: device-side assert
  IllegalState,            // e.g. ending a stream capture never begun
  // Stream capture and graphs (runtime/Graph.h), CUDA's codes of the same names.
  StreamCaptureUnsupported,  // an operation a capturing stream / thread may not do
  StreamCaptureInvalidated,  // the capture was invalidated by an earlier error
  StreamCaptureMerge,
  StreamCaptureUnmatched,    // ended on a stream that did not begin it
  StreamCaptureUnjoined,     // a forked stream did not join back
  StreamCaptureIsolation,    // a dependency across the capture's boundary
  StreamCaptureImplicit,     // the legacy stream's implicit sync with a capturing stream
  CapturedEvent,             // the event was last recorded in a capture
  StreamCaptureWrongThread,  // ended from another thread (not relaxed mode)
  GraphExecUpdateFailure,
  // Texture resources (runtime/Texture.h), CUDA's codes of the same names.
  InvalidChannelDescriptor,  // a channel format no texture can hold
  InvalidFilterSetting,      // linear filtering of element-type integer reads
  InvalidNormSetting,        // promoted ([0,1]) reads of 32-bit integers
  InvalidPitchValue,         // a pitch below the row or off the texture pitch alignment
  Unknown,
};

const char *errcName(Errc C); // "InvalidValue", ...
bool isSticky(Errc C);        // kernel faults

class RuntimeError : public llvm::ErrorInfo<RuntimeError> {
public:
  static char ID;
  RuntimeError(Errc C, std::string Msg) : Code(C), Msg(std::move(Msg)) {}
  Errc code() const { return Code; }
  const std::string &detail() const { return Msg; }
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  Errc Code;
  std::string Msg;
};

llvm::Error makeError(Errc C, const llvm::Twine &Msg);
// Consumes E: its Errc (Unknown for a foreign error) and, when Msg is given,
// its rendered message.
Errc takeErrc(llvm::Error E, std::string *Msg = nullptr);

} // namespace runtime

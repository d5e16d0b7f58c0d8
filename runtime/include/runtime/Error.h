//===- runtime/Error.h - the core's error codes and sticky-error model -*- C++ -*-===//
//
// Every fallible core call returns llvm::Error / llvm::Expected whose payload
// is a runtime::RuntimeError carrying one Errc. The codes are CUDA's concepts,
// not CUDA's numbers: the runtime-API shim and the driver-API library map them
// to cudaError_t / CUresult (a backend's typed errors become Errc through
// runtime/core/ErrorTable.h). Errors classed sticky (kernel faults: launch
// failure, illegal address/instruction, misaligned, timeout, assert) poison the context until it is reset, as
// in CUDA; argument errors never do. An error that comes from translation
// (Context::loadModule) also carries the pipeline's support::Diagnostic list
// (kind, position and, for unsupported constructs, stage and construct), so a
// consumer that wants to know what was refused reads diagnostics(), never the
// text.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Diagnostic.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

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
  RuntimeError(Errc C, std::string Msg, std::vector<support::Diagnostic> Diags = {})
      : Code(C), Msg(std::move(Msg)), Diags(std::move(Diags)) {}
  Errc code() const { return Code; }
  const std::string &detail() const { return Msg; }
  // The typed cause: the translation's diagnostics (empty for other errors).
  const std::vector<support::Diagnostic> &diagnostics() const { return Diags; }
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

private:
  Errc Code;
  std::string Msg;
  std::vector<support::Diagnostic> Diags;
};

llvm::Error makeError(Errc C, const llvm::Twine &Msg);
llvm::Error makeError(Errc C, const llvm::Twine &Msg, std::vector<support::Diagnostic> Diags);
// Consumes E: its Errc (Unknown for a foreign error) and, when Msg is given,
// its rendered message; when Diags is given, the RuntimeErrors' diagnostics
// are appended to it.
Errc takeErrc(llvm::Error E, std::string *Msg = nullptr, std::vector<support::Diagnostic> *Diags = nullptr);

} // namespace runtime

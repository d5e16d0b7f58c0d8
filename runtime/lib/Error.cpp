//===- Error.cpp - runtime::RuntimeError and the Errc names ------------------===//
#include "runtime/Error.h"

#include "llvm/Support/raw_ostream.h"

namespace runtime {

char RuntimeError::ID = 0;

const char *errcName(Errc C) {
  switch (C) {
#define N(X) case Errc::X: return #X;
  N(Success) N(InvalidValue) N(MemoryAllocation) N(NoDevice) N(InvalidDevice) N(BackendUnavailable)
  N(InvalidKernelImage) N(InvalidDeviceFunction) N(InvalidSymbol)
  N(InvalidResourceHandle) N(NotReady) N(NotSupported) N(CooperativeLaunchTooLarge) N(LaunchOutOfResources)
  N(LaunchFailure) N(IllegalAddress) N(MisalignedAddress) N(IllegalInstruction) N(LaunchTimeout) N(Assert)
  N(IllegalState) N(StreamCaptureUnsupported) N(StreamCaptureInvalidated)
  N(StreamCaptureMerge) N(StreamCaptureUnmatched) N(StreamCaptureUnjoined) N(StreamCaptureIsolation)
  N(StreamCaptureImplicit) N(CapturedEvent) N(StreamCaptureWrongThread) N(GraphExecUpdateFailure)
  N(InvalidChannelDescriptor) N(InvalidFilterSetting) N(InvalidNormSetting) N(InvalidPitchValue) N(Unknown)
#undef N
  }
  return "Unknown";
}

bool isSticky(Errc C) {
  switch (C) {
  case Errc::LaunchFailure: case Errc::IllegalAddress: case Errc::MisalignedAddress: case Errc::IllegalInstruction:
  case Errc::LaunchTimeout: case Errc::Assert:
    return true;
  default: return false;
  }
}

void RuntimeError::log(llvm::raw_ostream &OS) const { OS << Msg; }
std::error_code RuntimeError::convertToErrorCode() const { return llvm::inconvertibleErrorCode(); }

llvm::Error makeError(Errc C, const llvm::Twine &Msg) { return llvm::make_error<RuntimeError>(C, Msg.str()); }
llvm::Error makeError(Errc C, const llvm::Twine &Msg, std::vector<support::Diagnostic> Diags) {
  return llvm::make_error<RuntimeError>(C, Msg.str(), std::move(Diags));
}

Errc takeErrc(llvm::Error E, std::string *Msg, std::vector<support::Diagnostic> *Diags) {
  Errc Code = Errc::Success;
  llvm::handleAllErrors(
      std::move(E),
      [&](const RuntimeError &R) {
        if (Code == Errc::Success) Code = R.code();
        if (Msg) *Msg += (Msg->empty() ? "" : "; ") + R.detail();
        if (Diags) Diags->insert(Diags->end(), R.diagnostics().begin(), R.diagnostics().end());
      },
      [&](const llvm::ErrorInfoBase &B) {
        if (Code == Errc::Success) Code = Errc::Unknown;
        if (Msg) *Msg += (Msg->empty() ? "" : "; ") + B.message();
      });
  return Code;
}

} // namespace runtime

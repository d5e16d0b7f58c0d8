//===- core/ErrorTable.cpp - executors' typed errors -> runtime::Errc ----------===//
//
// See ErrorTable.h. Every FaultKind and Resource has one row here; a new
// kind added to support/Error.h without a row fails to compile (-Wswitch).
//
//===----------------------------------------------------------------------===//
#include "ErrorTable.h"

#include "support/Error.h"

namespace runtime {
namespace {

Errc faultErrc(support::FaultKind K) {
  using support::FaultKind;
  switch (K) {
  case FaultKind::MemoryFault: return Errc::IllegalAddress;          // cudaErrorIllegalAddress
  case FaultKind::Misaligned: return Errc::MisalignedAddress;        // cudaErrorMisalignedAddress
  case FaultKind::Trap: return Errc::LaunchFailure;                  // __trap(): cudaErrorLaunchFailure
  case FaultKind::Assert: return Errc::Assert;                       // cudaErrorAssert
  case FaultKind::Timeout: return Errc::LaunchTimeout;               // cudaErrorLaunchTimeout
  case FaultKind::Deadlock: return Errc::LaunchTimeout;              // a hang: the watchdog's code
  case FaultKind::IllegalInstruction: return Errc::IllegalInstruction; // cudaErrorIllegalInstruction
  }
  return Errc::LaunchFailure;
}

Errc resourceErrc(support::Resource R) {
  using support::Resource;
  switch (R) {
  case Resource::BlockThreads: return Errc::InvalidValue;             // CUDA 13 / H200: any bad launch shape
  case Resource::SharedMemory: return Errc::InvalidValue;             // H200: 1 MiB dynamic shared memory
  case Resource::Registers: return Errc::LaunchOutOfResources;
  case Resource::PrivateMemory: return Errc::LaunchOutOfResources;
  case Resource::CooperativeGrid: return Errc::CooperativeLaunchTooLarge;
  case Resource::DeviceMemory: return Errc::MemoryAllocation;
  case Resource::Unspecified: return Errc::LaunchOutOfResources;
  }
  return Errc::LaunchOutOfResources;
}

} // namespace

Errc errcFor(const llvm::Error &E, Errc Fallback) {
  Errc Code = Fallback;
  bool First = true;
  llvm::visitErrors(E, [&](const llvm::ErrorInfoBase &P) {
    if (!First) return;
    First = false;
    if (P.isA<RuntimeError>()) Code = static_cast<const RuntimeError &>(P).code();
    else if (P.isA<support::DeviceFaultError>()) Code = faultErrc(static_cast<const support::DeviceFaultError &>(P).fault());
    else if (P.isA<support::ResourceLimitError>())
      Code = resourceErrc(static_cast<const support::ResourceLimitError &>(P).resource());
    else if (P.isA<support::UnsupportedError>()) Code = Errc::NotSupported;
    else if (P.isA<support::InvalidInputError>()) Code = Errc::InvalidValue;
  });
  return Code;
}

llvm::Error toRuntimeError(llvm::Error E, Errc Fallback, const llvm::Twine &Prefix) {
  if (!E) return E;
  Errc Code = errcFor(E, Fallback);
  std::string Msg;
  takeErrc(std::move(E), &Msg);
  return makeError(Code, Prefix + Msg);
}

llvm::Error launchError(llvm::Error E, llvm::StringRef Kernel, bool AssertRecord) {
  if (!E) return E;
  bool Trap = false;
  bool First = true;
  llvm::visitErrors(E, [&](const llvm::ErrorInfoBase &P) {
    if (First && P.isA<support::DeviceFaultError>())
      Trap = static_cast<const support::DeviceFaultError &>(P).fault() == support::FaultKind::Trap;
    First = false;
  });
  if (AssertRecord && Trap) {
    std::string Msg;
    takeErrc(std::move(E), &Msg);
    return makeError(Errc::Assert, "kernel '" + Kernel + "' failed: device-side assertion (" + Msg + ")");
  }
  return toRuntimeError(std::move(E), Errc::LaunchFailure, "kernel '" + Kernel + "' failed: ");
}

} // namespace runtime

//===- core/ErrorTable.h - executors' typed errors -> the core's codes -*- C++ -*-===//
//
// The one table that turns what an executor (amdgpu-emu, isa-emu) or a
// backend library returns -- support/Error.h's typed errors: a device fault
// with its FaultKind, a resource limit with its Resource, an unsupported
// construct, invalid input -- into a runtime::Errc, which the runtime-API shim
// and the driver API map 1:1 to cudaError_t / CUresult. The codes are the
// ones CUDA returns on the H200 for the same situation (an out-of-bounds
// access is cudaErrorIllegalAddress, a device assert cudaErrorAssert, a
// block's dynamic shared memory over the limit or too many threads
// cudaErrorInvalidValue (CUDA 13: every invalid launch configuration), ...). No consumer inspects an
// error's text to decide what happened.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Error.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace runtime {

// The code for a failure E (not consumed): a RuntimeError's own code, else the table's
// entry for the first typed error, else Fallback.
Errc errcFor(const llvm::Error &E, Errc Fallback);

// Consumes E and returns it as a RuntimeError with errcFor(E, Fallback) and
// the message prefixed by Prefix (success stays success).
llvm::Error toRuntimeError(llvm::Error E, Errc Fallback, const llvm::Twine &Prefix = "");

// A failed launch of Kernel as the core reports it (Fallback LaunchFailure).
// AssertRecord: the launch's printf FIFO held a failed assertion's record
// (the device library's __assertfail prints one, then traps), so a Trap is
// an Assert.
llvm::Error launchError(llvm::Error E, llvm::StringRef Kernel, bool AssertRecord = false);

} // namespace runtime

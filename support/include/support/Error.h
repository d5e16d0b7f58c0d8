//===- support/Error.h - typed llvm::Errors with an ErrorKind ----*- C++ -*-===//
//
// The stages fail with these instead of createStringError, so consumers
// decide what happened by kind (an isA<> test or errorKind()), never by
// searching the message. Each error carries a support::Diagnostic (position,
// message, kind); the subclasses add what the kind needs:
//
//   UnsupportedError   stage ("ptx-to-llvm", "emu", ...) and construct name
//   ContractError      a stage received input that breaks its contract
//   InvalidInputError  malformed input, with the field and byte offset when known
//   ResourceLimitError a limit was exceeded; Resource says which
//   DeviceFaultError   the device faulted while running a kernel; FaultKind says how
//   IOError            a file operation failed (path + std::error_code)
//   InternalError      a toolchain bug / LLVM failure no input should cause
//
// Several problems travel as one llvm::Error built with llvm::joinErrors (an
// llvm::ErrorList); takeDiagnostics() flattens any Error into diagnostics.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Diagnostic.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <span>
#include <string>
#include <system_error>
#include <vector>

namespace support {

// Base of every typed error: one diagnostic.
class DiagError : public llvm::ErrorInfo<DiagError> {
public:
  static char ID;
  explicit DiagError(Diagnostic d) : diag_(std::move(d)) {}
  const Diagnostic &diagnostic() const { return diag_; }
  ErrorKind kind() const { return diag_.kind; }
  // "file:line:col: error: message" (no source excerpt); the message alone
  // when the diagnostic has no position.
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }

protected:
  Diagnostic diag_;
};

class UnsupportedError : public llvm::ErrorInfo<UnsupportedError, DiagError> {
public:
  static char ID;
  UnsupportedError(Diagnostic d, std::string stage, std::string construct) : ErrorInfo(std::move(d)) {
    diag_.kind = ErrorKind::Unsupported;
    diag_.stage = std::move(stage);
    diag_.construct = std::move(construct);
  }
  // Also in diagnostic().stage / .construct, so they survive flattening.
  const std::string &stage() const { return diag_.stage; }
  const std::string &construct() const { return diag_.construct; }
};

class ContractError : public llvm::ErrorInfo<ContractError, DiagError> {
public:
  static char ID;
  explicit ContractError(Diagnostic d) : ErrorInfo(std::move(d)) { diag_.kind = ErrorKind::ContractViolation; }
};

class InvalidInputError : public llvm::ErrorInfo<InvalidInputError, DiagError> {
public:
  static char ID;
  static constexpr uint64_t kNoOffset = ~uint64_t(0);
  InvalidInputError(Diagnostic d, std::string field = {}, uint64_t offset = kNoOffset)
      : ErrorInfo(std::move(d)), field_(std::move(field)), offset_(offset) {
    diag_.kind = ErrorKind::InvalidInput;
  }
  const std::string &field() const { return field_; } // "wrapper magic", "--offload-arch", ...
  uint64_t offset() const { return offset_; }          // byte offset in the input, or kNoOffset

private:
  std::string field_;
  uint64_t offset_;
};

// Which limit a ResourceLimitError hit (a launch's consumers map each to the
// API's own code: CUDA 13 says InvalidValue for a block's threads or shape and
// for shared memory, LaunchOutOfResources for registers).
enum class Resource : uint8_t {
  Unspecified,
  BlockThreads,    // threads per block / work-group (or an empty block / grid)
  SharedMemory,    // LDS per work-group (static + dynamic)
  Registers,       // registers per thread / work-group
  PrivateMemory,   // per-thread private segment / stack
  CooperativeGrid, // a cooperative grid whose work-groups cannot all be resident
  DeviceMemory     // device memory (an allocation a launch needs)
};
std::string_view resourceName(Resource r);

class ResourceLimitError : public llvm::ErrorInfo<ResourceLimitError, DiagError> {
public:
  static char ID;
  explicit ResourceLimitError(Diagnostic d, Resource r = Resource::Unspecified)
      : ErrorInfo(std::move(d)), resource_(r) {
    diag_.kind = ErrorKind::ResourceLimit;
  }
  Resource resource() const { return resource_; }

private:
  Resource resource_;
};

enum class FaultKind : uint8_t {
  MemoryFault,        // invalid or out-of-bounds access
  Misaligned,         // misaligned access (atomic / vector)
  Trap,               // trap / abort instruction, halt
  Assert,             // device-side assert() (__assertfail)
  Timeout,            // watchdog: the kernel ran too long (a hang)
  Deadlock,           // barrier / cooperative wait that can never complete
  IllegalInstruction  // control reached no code / not decoded code
};
std::string_view faultKindName(FaultKind k);

class DeviceFaultError : public llvm::ErrorInfo<DeviceFaultError, DiagError> {
public:
  static char ID;
  DeviceFaultError(Diagnostic d, FaultKind f) : ErrorInfo(std::move(d)), fault_(f) {
    diag_.kind = ErrorKind::DeviceFault;
  }
  FaultKind fault() const { return fault_; }

private:
  FaultKind fault_;
};

class IOError : public llvm::ErrorInfo<IOError, DiagError> {
public:
  static char ID;
  IOError(Diagnostic d, std::error_code ec) : ErrorInfo(std::move(d)), ec_(ec) { diag_.kind = ErrorKind::IO; }
  std::error_code convertToErrorCode() const override { return ec_; }

private:
  std::error_code ec_;
};

class InternalError : public llvm::ErrorInfo<InternalError, DiagError> {
public:
  static char ID;
  explicit InternalError(Diagnostic d) : ErrorInfo(std::move(d)) { diag_.kind = ErrorKind::Internal; }
};

// ---- Making them ---------------------------------------------------------------
// A diagnostic at a position (file may be empty, line/col 0 when unknown).
inline Diagnostic at(std::string file, unsigned line, unsigned col, std::string message) {
  return Diagnostic{Severity::Error, std::move(file), line, col, std::move(message), ErrorKind::Generic};
}
inline Diagnostic noLoc(std::string message) { return at({}, 0, 0, std::move(message)); }
// noLoc() with a printf-style message (the format createStringError took).
template <class... Ts> Diagnostic noLocf(const char *fmt, const Ts &...vals) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::format(fmt, vals...);
  return noLoc(std::move(s));
}

template <class E, class... Args> llvm::Error make(Args &&...args) {
  return llvm::make_error<E>(std::forward<Args>(args)...);
}
llvm::Error unsupported(std::string stage, std::string construct, Diagnostic d);
llvm::Error contractViolation(Diagnostic d);
llvm::Error invalidInput(Diagnostic d, std::string field = {},
                         uint64_t offset = InvalidInputError::kNoOffset);
llvm::Error resourceLimit(Diagnostic d);
llvm::Error resourceLimit(Resource r, Diagnostic d);
llvm::Error deviceFault(FaultKind f, Diagnostic d);
llvm::Error internalError(Diagnostic d);
llvm::Error ioError(std::string path, std::error_code ec, std::string what = {});

// ---- Inspecting them -----------------------------------------------------------
// Kind of the payload (for an ErrorList: the first error's kind); Generic
// for errors that are not DiagErrors. Does not consume the error.
ErrorKind errorKind(const llvm::Error &e);
// True when the error (any member of a list) is of kind k. Does not consume.
bool hasKind(const llvm::Error &e, ErrorKind k);
// Consumes `e` (success: nothing) and returns one diagnostic per error; a
// foreign error becomes a Generic diagnostic with its message and, when its
// file is empty, `defaultFile`.
std::vector<Diagnostic> takeDiagnostics(llvm::Error e, std::string_view defaultFile = {});
// Appends the diagnostics to `out`.
void appendDiagnostics(llvm::Error e, std::vector<Diagnostic> &out, std::string_view defaultFile = {});
// joinErrors over a vector of typed errors (success when empty).
llvm::Error joinAll(std::vector<llvm::Error> errors);

// ---- Between diagnostics and errors ---------------------------------------------
// The error-severity diagnostics as one typed error: a DiagError per
// diagnostic, in order, each keeping its kind and position (success when
// there is none). For stages that report as diagnostics (the PTX parser).
llvm::Error errorOf(std::span<const Diagnostic> diags);
// Appends a copy of each payload's diagnostic to `out` (as appendDiagnostics)
// without consuming `e`: a stage that returns its errors typed can also list
// them with its warnings.
void copyDiagnostics(const llvm::Error &e, std::vector<Diagnostic> &out, std::string_view defaultFile = {});
// The payloads of `e` one per line ("file:line:col: error: msg", each line
// prefixed by `indent`), at most `max` of them, then "... N more errors".
// Does not consume `e`.
std::string renderLines(const llvm::Error &e, unsigned max = 20, std::string_view indent = {});

} // namespace support

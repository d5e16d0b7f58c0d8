//===- fatbin/FormatError.h - typed error for malformed binary inputs -*- C++ -*-===//
//
// Every reader in ptxfatbin (fat binary wrappers, containers, entries,
// compressed payloads, host ELF sections, clang offload bundles) reports a
// malformed input as a FormatError: the field that is wrong, the byte offset
// of that field (from the start of the structure named in the message, e.g.
// the container or the bundle) and a sentence. Callers may match on the type
// (llvm::handleErrors / errorToErrorCode are not needed) or just print it:
// log() renders "fatbin: <message> (field <name> at offset 0x<off>)".
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace ptxfatbin {

class FormatError : public llvm::ErrorInfo<FormatError> {
public:
  static char ID;
  FormatError(std::string Field, uint64_t Offset, std::string Message)
      : Field(std::move(Field)), Offset(Offset), Message(std::move(Message)) {}
  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }

  std::string Field;   ///< e.g. "container.fat_size", "entry.uncompressed_size", "bundle.entry[2].offset"
  uint64_t Offset = 0; ///< byte offset of the field (see the message for the base)
  std::string Message;
};

/// Shorthand: llvm::make_error<FormatError>(Field, Offset, Message).
inline llvm::Error formatError(const llvm::Twine &Field, uint64_t Offset, const llvm::Twine &Message) {
  return llvm::make_error<FormatError>(Field.str(), Offset, Message.str());
}

} // namespace ptxfatbin

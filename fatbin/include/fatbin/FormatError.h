//===- fatbin/FormatError.h - typed error for malformed binary inputs -*- C++ -*-===//
//
// Every reader in ptxfatbin (fat binary wrappers, containers, entries,
// compressed payloads, host ELF sections, clang offload bundles) reports a
// malformed input as a FormatError: the field that is wrong, the byte offset
// of that field (from the start of the structure named in the message, e.g.
// the container or the bundle) and a sentence. It is the project's
// support::InvalidInputError (kind InvalidInput, field(), offset()), so
// consumers decide with support::errorKind like for every other stage, or
// match the type; log() renders
// "fatbin: <message> (field <name> at offset 0x<off>)".
//
//===----------------------------------------------------------------------===//
#pragma once

#include "support/Error.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace ptxfatbin {

class FormatError : public llvm::ErrorInfo<FormatError, support::InvalidInputError> {
public:
  static char ID;
  FormatError(std::string Field, uint64_t Offset, std::string Message);
  void log(llvm::raw_ostream &OS) const override;

  std::string Field;   ///< e.g. "container.fat_size", "entry.uncompressed_size", "bundle.entry[2].offset"
  uint64_t Offset = 0; ///< byte offset of the field (see the message for the base)
  std::string Message;
};

/// Shorthand: llvm::make_error<FormatError>(Field, Offset, Message).
inline llvm::Error formatError(const llvm::Twine &Field, uint64_t Offset, const llvm::Twine &Message) {
  return llvm::make_error<FormatError>(Field.str(), Offset, Message.str());
}

} // namespace ptxfatbin

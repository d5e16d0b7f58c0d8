//===- core/PrintfFifo.h - the device printf FIFO, read on the host -*- C++ -*-===//
//
// Translated code's printf writes records into a launcher-provided buffer
// (support/Contract.h printfrec: { u64 capacity; u64 used; records }, each
// { u32 record bytes; u32 format bytes | flags; format padded to 8; the
// argument buffer }). After a launch the backend copies the buffer back and
// decodes it here: each record is formatted with emu's CUDA vprintf
// formatter (%s arguments are device pointers, read through ReadString); a
// record flagged kAssertFlag is the message of a failed assertion, which
// turns the trap that follows into an Assert. Used by the backends that run
// code objects (isa, hip); decoding stops at the first malformed record.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <functional>
#include <string>

namespace runtime {

struct PrintfDrain {
  std::string text;          // the formatted output, records in buffer order
  unsigned records = 0;      // records decoded
  bool assertion = false;    // one of them is a failed assertion's message
  bool truncated = false;    // a malformed or partial record ended decoding early
};

// Reads a NUL-terminated device string at Addr into S; false when unreadable.
using ReadDeviceString = std::function<bool(uint64_t Addr, std::string &S)>;

// Decodes a printf FIFO: Buffer starts at the 16-byte header.
PrintfDrain decodePrintfFifo(llvm::ArrayRef<uint8_t> Buffer, const ReadDeviceString &ReadString);

} // namespace runtime

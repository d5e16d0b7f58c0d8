//===- CacheEntry.h - The byte layout of one cache entry file ---*- C++ -*-===//
//
// An entry file is a 40-byte little-endian header followed by the payload:
//   0  8  magic "P2ACACH1"
//   8  8  payload size
//  16 16  xxh3-128 of the payload (low, high)
//  32  8  xxh3-64 of the entry's file name ("<key>.<kind>")
// The name hash catches a file copied or renamed under another key; the
// size and payload hash catch truncation and bit flips.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace runtime::cacheentry {

inline constexpr size_t kHeaderSize = 40;

std::vector<uint8_t> encode(llvm::StringRef FileName, llvm::ArrayRef<uint8_t> Payload);

// Empty string when `File` is a valid entry named `FileName` (then `Payload`
// views its payload); otherwise what is wrong with it.
std::string decode(llvm::StringRef FileName, llvm::ArrayRef<uint8_t> File,
                   llvm::ArrayRef<uint8_t> &Payload);
// Same for an entry read as its header (the first kHeaderSize bytes, or all
// of a shorter file) and the rest, so the payload can be read straight into
// the caller's buffer.
std::string verify(llvm::StringRef FileName, llvm::ArrayRef<uint8_t> Header, llvm::ArrayRef<uint8_t> Payload);

} // namespace runtime::cacheentry

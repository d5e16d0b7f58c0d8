//===- support/OutputFile.h - writing tool outputs all-or-nothing -*- C++ -*-===//
//
// Tools never leave a partial or stale output behind, as clang does not:
// writeOutputFile() writes to a temporary file next to the target and renames
// it over the target only when everything was written; removeStaleOutput()
// deletes an older output after a failed run (only a regular file: never a
// device, FIFO or directory someone named with -o). "-" or "" is stdout.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/Support/Error.h"

#include <string_view>

namespace support {

// Errors are support::IOError naming the path.
llvm::Error writeOutputFile(std::string_view path, std::string_view data);
void removeStaleOutput(std::string_view path);

} // namespace support

//===- Loader.h - code object loading interface (CodeObject.cpp) -*- C++ -*-===//
#pragma once

#include "Image.h"

#include <functional>

namespace isaemu::detail {

/// How the loader reaches device memory.
struct DeviceMemory {
  std::function<llvm::Expected<uint64_t>(uint64_t)> alloc;
  std::function<uint8_t *(uint64_t, uint64_t)> host;
  std::set<std::string> *missing = nullptr; ///< collect unknown opcodes instead of failing
};

llvm::Expected<std::unique_ptr<ProgramImage>> loadProgram(llvm::ArrayRef<char> Bytes,
                                                          const DeviceMemory &Mem);

} // namespace isaemu::detail

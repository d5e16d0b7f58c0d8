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

/// A code object another loader already placed at \p Base (Resident.cpp).
llvm::Expected<std::unique_ptr<ProgramImage>> adoptResidentProgram(uint64_t Base, llvm::StringRef Target,
                                                                   const DeviceMemory &Mem);

/// Code without an ELF around it (amd_kernel_code_t + ISA, as ROCr 5.2's blit
/// kernels): decoded from the descriptor's entry up to \p CodeEnd or the first
/// word that does not decode.
llvm::Expected<std::unique_ptr<ProgramImage>> adoptRawKernel(uint64_t KernelObject, uint64_t CodeEnd,
                                                             llvm::StringRef Target, const DeviceMemory &Mem);

/// Target traits of a program (gfx9/gfx11, packed work-item ids, architected flat scratch).
void setTargetTraits(ProgramImage &P, llvm::StringRef Target);
/// The 64-byte kernel descriptor at \p P, field by field.
KernelDescriptor parseKD(const uint8_t *P);

} // namespace isaemu::detail

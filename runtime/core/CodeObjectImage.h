//===- core/CodeObjectImage.h - a code object's bytes, read on the host -*- C++ -*-===//
//
// A backend that hands a code object to a foreign loader (hip: ROCr's, via
// hipModuleLoadData) still needs a few facts from it that the loader's API
// does not give: whether a launcher-filled global exists (symbol table), a
// kernel's private segment size (its kernel descriptor, `<kernel>.kd`, u32 at
// byte 4), and where the %s arguments of device printf point (string
// literals: constant data in a read-only segment, or PTX .global arrays in
// .data, which on a discrete GPU sit in VRAM the host cannot read). The
// loader places the whole image at one base, so once the device address of
// any symbol is known (hipModuleGetGlobal), a device address maps back to a
// read-only segment's file bytes kept here, or to the data object holding it
// (whose current bytes the caller reads through the loader's API).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace runtime {

class CodeObjectImage {
public:
  // Parses an AMDGPU ET_DYN code object (the bytes are copied).
  static llvm::Expected<CodeObjectImage> parse(llvm::ArrayRef<uint8_t> Elf);

  // The symbol's value (its load-relative address), from .symtab or .dynsym.
  std::optional<uint64_t> symbol(llvm::StringRef Name) const;
  // private_segment_fixed_size of Kernel's descriptor.
  std::optional<uint32_t> privateSegmentFixedSize(llvm::StringRef Kernel) const;

  // Where the loader put the image: the device address of Symbol is DeviceAddr.
  void setLoadBase(llvm::StringRef Symbol, uint64_t DeviceAddr);
  bool hasLoadBase() const { return Based; }
  // The data object (STT_OBJECT with a size) holding DeviceAddr: its name and
  // the bytes from DeviceAddr to its end. PTX string literals are .global
  // arrays, so they land in .data: their current bytes are the device's.
  std::optional<std::pair<std::string, uint64_t>> objectAt(uint64_t DeviceAddr) const;
  // A NUL-terminated string at DeviceAddr (at most MaxBytes) whose bytes
  // cannot have changed since load: inside a read-only loaded segment, or
  // inside a string literal object (nvcc names them `$str`, `$str$N`: C++
  // string literals, which no conforming program modifies, emitted as PTX
  // .global arrays). False otherwise or when no load base is known.
  bool readConstantString(uint64_t DeviceAddr, std::string &S, uint64_t MaxBytes = 65536) const;

private:
  struct Segment {
    uint64_t vaddr, fileOffset, fileBytes;
    bool writable;
  };
  // File bytes of [VAddr, +Bytes) when they lie in one segment (ReadOnly: a segment without PF_W).
  const uint8_t *at(uint64_t VAddr, uint64_t Bytes, bool ReadOnly) const;

  std::vector<uint8_t> Bytes;
  std::vector<Segment> Segments;
  std::map<std::string, uint64_t> Symbols;
  std::map<uint64_t, std::pair<std::string, uint64_t>> Objects; // value -> name, size
  uint64_t Base = 0;
  bool Based = false;
};

} // namespace runtime

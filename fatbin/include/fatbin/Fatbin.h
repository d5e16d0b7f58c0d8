//===- fatbin/Fatbin.h - CUDA fat binary reader (ptxfatbin) -----*- C++ -*-===//
//
// Reads what nvcc 13 embeds in host programs: the 24-byte __fatBinC_Wrapper_t
// (magic 0x466243B1, version 1 or 2 with prelinked fatbins), fatbin
// containers (magic 0xBA55ED50) and their entries (PTX or ELF cubin), and
// decompresses entry payloads (zstd frames, LZ4 raw blocks). The layout is
// the one documented in /work/shared/notes/formats.md section 1. ptx2amd only
// consumes PTX, so the main job is "find the best PTX of each module".
// Every malformed input is a FormatError (FormatError.h) naming the field and
// its offset; no declared size is trusted before it is checked against the
// bytes present (files) or the readable extent of the mapping (process
// memory, ProcessMemory.h), and decompression is capped (Limits.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ptxfatbin {

inline constexpr uint32_t WrapperMagic = 0x466243B1u;   // __fatBinC_Wrapper_t.magic
inline constexpr uint32_t ContainerMagic = 0xBA55ED50u; // fatbin container header
inline constexpr uint64_t FlagCompressedLZ4 = 0x2000;
inline constexpr uint64_t FlagCompressedZstd = 0x8000;

enum class EntryKind : uint16_t { PTX = 1, ELF = 2 };

/// One entry of a container, payload still as stored.
struct Entry {
  uint16_t kind = 0;           ///< 1 PTX, 2 ELF cubin (others kept, never selected)
  uint32_t arch = 0;           ///< SM number (75, 90, ...)
  uint16_t major = 0, minor = 0; ///< PTX ISA version for PTX entries
  uint64_t flags = 0;
  std::string name;            ///< identifier (may be empty)
  std::string options;         ///< ptxas options string (e.g. "--compile-only  " for -rdc)
  uint64_t offsetInContainer = 0; ///< of the entry header
  llvm::ArrayRef<uint8_t> stored; ///< payload bytes as stored (compressed size when compressed)
  uint64_t uncompressedSize = 0;  ///< 0 when not compressed

  bool isPTX() const { return kind == uint16_t(EntryKind::PTX); }
  bool isELF() const { return kind == uint16_t(EntryKind::ELF); }
  bool compressed() const { return flags & (FlagCompressedLZ4 | FlagCompressedZstd); }
};

/// A parsed container: its entries and total size (header + fat_size).
struct Container {
  uint64_t size = 0;
  std::vector<Entry> entries;
};

/// Parses one container starting at Data (which must hold at least the
/// container; Avail bounds every read).
llvm::Expected<Container> parseContainer(const uint8_t *Data, uint64_t Avail);

/// Parses a sequence of containers back to back (8-aligned), as in an ELF
/// `.nv_fatbin` section or a `nvcc -fatbin` file.
llvm::Expected<std::vector<Container>> parseContainers(llvm::ArrayRef<uint8_t> Bytes);

/// The most bytes a compressed entry may decompress to:
/// min(MaxPayloadBytes, stored size x ratio bound + RatioSlack) (Limits.h).
uint64_t maxDecompressedSize(const Entry &E);

/// The decompressed payload of an entry. PTX is returned without its
/// trailing NUL padding. A compressed entry whose uncompressed_size is 0 or
/// above maxDecompressedSize() is an error before anything is allocated.
llvm::Expected<std::string> payload(const Entry &E);

/// A container in this process's memory (the `data` of a wrapper): its
/// header_size + fat_size must lie within the readable extent of the mapping
/// holding P (readableExtent), so a corrupt header is an error, not a fault.
llvm::Expected<Container> containerInMemory(const void *P);

/// Index of the best PTX entry: the highest arch <= MaxArch, else (none
/// <= MaxArch) the lowest arch; -1 when the container has no PTX.
int selectPTX(const Container &C, uint32_t MaxArch);

/// One PTX module to translate.
struct PTXModule {
  uint32_t arch = 0;
  std::string text;
  std::string options;
  bool relocatable() const { return options.find("--compile-only") != std::string::npos; }
};

/// The PTX modules of the wrapper a program passes to
/// __cudaRegisterFatBinary: version 1 -> the best PTX of its container;
/// version 2 -> the best PTX of each prelinked container (for -rdc). Reads
/// process memory: the wrapper, the v2 list and every container are checked
/// against the readable extent of their mappings before they are read, so
/// any pointer (NULL, unmapped, a corrupt header) gives an error, never a
/// signal. This is the entry point for __cudaRegisterFatBinary.
llvm::Expected<std::vector<PTXModule>> ptxFromWrapper(const void *Wrapper, uint32_t MaxArch);

/// Every PTX module of a byte buffer: an ELF host executable/object (its
/// `.nv_fatbin` and `__nv_relfatbin` sections) or a raw fatbin file. One
/// module per container holding PTX (the best one of that container).
llvm::Expected<std::vector<PTXModule>> ptxFromFile(llvm::ArrayRef<uint8_t> Bytes, uint32_t MaxArch);

} // namespace ptxfatbin

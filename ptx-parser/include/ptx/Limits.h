//===- ptx/Limits.h - resource limits the front end enforces -----*- C++ -*-===//
//
// Sizes a PTX file can declare with a few characters but that would make the
// translator or the code object explode. Each is checked where it is parsed,
// with a file:line:col error; the values were chosen against what ptxas 13.0
// does (measured here, see NOTES-robust.md):
//   * a variable's byte size must fit in 64 bits: ptxas accepts
//     `.global .u8 a[65536][65536][65536][65536]` (it wraps to 0) — we reject
//     the overflow, and anything above MaxVariableBytes (2^47 = 128 TiB, the
//     AMDGPU 48-bit virtual address space's user half; LLVM's object writer
//     fails with "invalid number of bytes" at 2^63 without a position);
//   * an initialised variable (its whole array, zero tail included, is
//     emitted into the code object) may be at most MaxInitializedBytes: ptxas
//     has no limit but its memory (1e9 u32 elements took 15 GB and 32 s; 2^32
//     elements died); 64 MiB is 1000x nvcc's largest corpus table;
//   * all `.const` variables together at most MaxConstBytes = 64 KiB, the
//     same limit and wording class as ptxas ("File uses too much global
//     constant data (0x10001 bytes, 0x10000 max)");
//   * bracket nesting (`{ } [ ] ( )`) at most 256 levels (Parse.cpp; ptxas
//     runs out of parser memory between 1000 and 5000 levels);
//   * identifiers: no limit of their own (ptxas and we accept 1 MB names);
//     inputs as a whole are capped by the tools at 256 MiB.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace ptx {

inline constexpr uint64_t MaxVariableBytes = uint64_t(1) << 47;
inline constexpr uint64_t MaxInitializedBytes = uint64_t(64) << 20;
inline constexpr uint64_t MaxConstBytes = uint64_t(64) << 10;

} // namespace ptx

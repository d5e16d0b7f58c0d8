//===- fatbin/OffloadBundle.h - clang offload bundle reader -------*- C++ -*-===//
//
// Reads the uncompressed `__CLANG_OFFLOAD_BUNDLE__` format (formats.md 5.5)
// that ptxjit/ptx2amd-fatbin write for several targets: magic[24], u64
// num_entries, then num_entries x {u64 offset, u64 size, u64 id_len, id},
// payloads at their offsets (from the bundle start). Every field is checked
// against the bytes present: the table must fit, each payload must lie inside
// the bundle, after the table, and not overlap another non-empty payload; ids
// are non-empty and unique. Violations are FormatErrors naming the entry's
// field and its offset. Compressed bundles (`CCOB`) are rejected by name.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ptxfatbin {

inline constexpr char OffloadBundleMagic[] = "__CLANG_OFFLOAD_BUNDLE__"; // 24 bytes, no NUL stored

struct BundleEntryRef {
  std::string id;                ///< e.g. "hipv4-amdgcn-amd-amdhsa--gfx1100"
  uint64_t offset = 0;           ///< of the payload, from the bundle start
  llvm::ArrayRef<uint8_t> bytes; ///< the payload (points into the input)
};

/// The entries of an offload bundle, in table order.
llvm::Expected<std::vector<BundleEntryRef>> readOffloadBundle(llvm::ArrayRef<uint8_t> Bytes);

} // namespace ptxfatbin

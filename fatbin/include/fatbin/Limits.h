//===- fatbin/Limits.h - documented caps on untrusted binary inputs -*- C++ -*-===//
//
// The sizes a fat binary or an offload bundle declares are attacker-chosen,
// so nothing is allocated or read from a declared size before it is checked
// against (a) the bytes actually present and (b) these caps. A compressed
// entry may decompress to at most min(MaxPayloadBytes, stored bytes x the
// format's ratio bound + RatioSlack); a larger `uncompressed_size` is an error
// before any allocation. The ratio bounds are above what either format can
// reach on real PTX/cubins (nvcc's PTX compresses 4-8x, see formats.md 1.6):
//   LZ4 raw blocks: the format itself cannot exceed ~255:1 (each output byte
//     of a match costs at least 1/255 byte of length encoding);
//   zstd frames: RLE blocks could reach ~32768:1; we allow 1024:1, which a
//     975-byte entry turns into at most ~1 MB instead of the 4 GB it may claim.
// Containers read from process memory are also bounded by the readable
// extent of the mapping that holds them (ProcessMemory.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace ptxfatbin {

inline constexpr uint64_t MaxPayloadBytes = uint64_t(1) << 30;   ///< 1 GiB per decompressed entry
inline constexpr uint64_t MaxContainerBytes = uint64_t(1) << 32; ///< 4 GiB per container (header + fat_size)
inline constexpr uint64_t MaxLZ4Ratio = 256;
inline constexpr uint64_t MaxZstdRatio = 1024;
inline constexpr uint64_t RatioSlack = 4096; ///< tiny streams (headers dominate)
inline constexpr uint64_t MaxPrelinkedContainers = 1u << 16; ///< v2 wrapper list length

} // namespace ptxfatbin

//===- KernelArgs.h - launch geometry and kernel arguments from the command line -===//
//
// The command-line forms shared by the kernel runners (ptx2amd-run on
// amdgpu-emu, isa-emu-run on isa-emu): launch dimensions "X[,Y,Z]", kernel
// arguments "TYPE:VALUE" / "buf:TYPE:COUNT:INIT" (INIT = zero | iota |
// fill:V | rand:SEED | file:PATH) and buffer dumps "bufK[:N]". Every number
// is parsed strictly (no exceptions, no silent wrap-around): a value outside
// its type, a negative or too large dimension, a buffer of more than
// MaxBufferBytes or trailing junk is an error naming the option text, so a
// typo on the command line ends in a message, never in std::terminate or a
// multi-terabyte allocation.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptx2amd::tools {

/// 4 GiB: the largest buffer a runner allocates (host copy plus device copy).
inline constexpr uint64_t MaxBufferBytes = uint64_t(4) << 30;

/// "X[,Y,Z]": one to three decimal numbers in [0, 2^32); missing ones are 1.
/// (0 is accepted here: the executors report an empty grid or block.)
llvm::Expected<std::array<uint32_t, 3>> parseDims(const std::string &Spec);

/// One --arg: a scalar (bytes = its value, zero-extended to 8 bytes) or a
/// buffer (bytes = its initial contents, count elements of elemBytes each).
struct KernelArg {
  bool isBuffer = false;
  std::string type; // i8 u8 i16 u16 i32 u32 i64 u64 f32 f64
  unsigned elemBytes = 0;
  uint64_t count = 0;
  std::vector<uint8_t> bytes;
};
llvm::Expected<KernelArg> parseKernelArg(const std::string &Spec);

/// One --dump "bufK[:N]" (WithPath: --dump-file "bufK:PATH").
struct DumpRequest {
  size_t buffer = 0;
  std::optional<uint64_t> count; // elements to print (at most the buffer's)
  std::string path;
};
llvm::Expected<DumpRequest> parseDump(const std::string &Spec, bool WithPath);

/// Appends " v" for each of the N elements at P (f32 %.9g, f64 %.17g,
/// integers in decimal with their signedness) to Out.
void formatElements(const std::string &Type, unsigned ElemBytes, const uint8_t *P, uint64_t N, std::string &Out);

} // namespace ptx2amd::tools

//===- InputFile.h - read a tool's input file safely ------------*- C++ -*-===//
//
// One place where the command-line tools turn a path into bytes. Misuse
// inputs fail with a message instead of an exception, a hang or an
// allocation storm: a directory ("is a directory"), a missing or unreadable
// file (the errno text), a FIFO nobody writes to (opened O_NONBLOCK so open()
// cannot block; its read then sees EOF: "is empty"), a character device such
// as /dev/zero or a pipe that never ends, and any file larger than MaxBytes
// (regular files are checked by st_size before reading; streams are read in
// chunks and stop at the cap). "-" reads stdin under the same cap.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>

namespace ptx2amd::tools {

/// 256 MiB: 70x the largest PTX nvcc writes for the corpus (Thrust, 3.6 MB).
inline constexpr uint64_t MaxInputBytes = uint64_t(256) << 20;
/// Host binaries (ptx2amd-fatbin): CUDA libraries reach ~1 GB (libtorch_cuda).
inline constexpr uint64_t MaxBinaryInputBytes = uint64_t(4) << 30;

/// Reads Path ("-" = stdin) into Out; on failure returns false and sets Err
/// to a sentence naming the path ("'x' is a directory", ...). MaxBytes bounds
/// regular files; streams are bounded by min(MaxBytes, MaxInputBytes).
bool readInputFile(const std::string &Path, std::string &Out, std::string &Err,
                   uint64_t MaxBytes = MaxInputBytes);

/// Like readInputFile, but reads at most MaxBytes and stops there without an
/// error (a longer file or an endless stream gives its first MaxBytes). An
/// empty regular file is an empty prefix; a FIFO with no writer is an error.
bool readInputPrefix(const std::string &Path, std::string &Out, std::string &Err, uint64_t MaxBytes);

} // namespace ptx2amd::tools

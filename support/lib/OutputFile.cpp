//===- OutputFile.cpp - temp file + rename for tool outputs -------------------===//
//
// llvm::writeToOutput does the temporary-file-and-rename dance (and maps "-"
// to stdout, /dev/null to a null stream); a target that exists and is not a
// regular file (a FIFO, a device) is written in place, since a rename would
// replace it.
//
//===----------------------------------------------------------------------===//
#include "support/OutputFile.h"

#include "support/Error.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>

namespace support {

llvm::Error writeOutputFile(std::string_view path, std::string_view data) {
  std::string p(path);
  if (p.empty() || p == "-") {
    if (std::fwrite(data.data(), 1, data.size(), stdout) != data.size() || std::fflush(stdout) != 0)
      return ioError("<stdout>", std::make_error_code(std::errc::io_error), "cannot write");
    return llvm::Error::success();
  }
  llvm::sys::fs::file_status st;
  if (!llvm::sys::fs::status(p, st) && llvm::sys::fs::exists(st) && !llvm::sys::fs::is_regular_file(st)) {
    if (llvm::sys::fs::is_directory(st))
      return ioError(p, std::make_error_code(std::errc::is_a_directory), "cannot write");
    std::error_code ec;
    llvm::raw_fd_ostream os(p, ec);
    if (!ec) {
      os << data;
      os.flush();
      ec = os.error();
      os.clear_error();
    }
    return ec ? ioError(p, ec, "cannot write") : llvm::Error::success();
  }
  llvm::Error e = llvm::writeToOutput(p, [&](llvm::raw_ostream &os) {
    os << data;
    return llvm::Error::success();
  });
  if (!e) return e;
  std::error_code ec = llvm::errorToErrorCode(std::move(e));
  return ioError(p, ec, "cannot write");
}

void removeStaleOutput(std::string_view path) {
  std::string p(path);
  if (p.empty() || p == "-") return;
  llvm::sys::fs::file_status st;
  if (!llvm::sys::fs::status(p, st) && llvm::sys::fs::is_regular_file(st)) llvm::sys::fs::remove(p);
}

} // namespace support

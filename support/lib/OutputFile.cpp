//===- OutputFile.cpp - temp file + rename for tool outputs -------------------===//
//
// llvm::writeToOutput does the temporary-file-and-rename dance (and maps "-"
// to stdout, /dev/null to a null stream); a target that exists and is not a
// regular file (a FIFO, a device) is written in place, since a rename would
// replace it. A failed write is an IOError without a position whose message
// names the target ("cannot write 'out.s': Is a directory", "cannot write
// standard output: No space left on device"), so a tool's "tool: error: "
// prefix is the only one; a failed stdout write drops what is still buffered,
// so the tool's final flush (tools/common/StdoutStatus.cpp) does not report
// the same failure again.
//
//===----------------------------------------------------------------------===//
#include "support/OutputFile.h"

#include "support/Error.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdio_ext.h>

namespace support {

namespace {
llvm::Error writeError(const std::string &p, std::error_code ec) {
  return llvm::make_error<IOError>(noLoc("cannot write '" + p + "': " + ec.message()), ec);
}
} // namespace

llvm::Error writeOutputFile(std::string_view path, std::string_view data) {
  std::string p(path);
  if (p.empty() || p == "-") {
    errno = 0;
    if (std::fwrite(data.data(), 1, data.size(), stdout) != data.size() || std::fflush(stdout) != 0) {
      const int why = errno ? errno : EIO;
      __fpurge(stdout);
      std::clearerr(stdout);
      return llvm::make_error<IOError>(noLoc(std::string("cannot write standard output: ") + std::strerror(why)),
                                       std::error_code(why, std::generic_category()));
    }
    return llvm::Error::success();
  }
  llvm::sys::fs::file_status st;
  if (!llvm::sys::fs::status(p, st) && llvm::sys::fs::exists(st) && !llvm::sys::fs::is_regular_file(st)) {
    if (llvm::sys::fs::is_directory(st))
      return writeError(p, std::make_error_code(std::errc::is_a_directory));
    std::error_code ec;
    llvm::raw_fd_ostream os(p, ec);
    if (!ec) {
      os << data;
      os.flush();
      ec = os.error();
      os.clear_error();
    }
    return ec ? writeError(p, ec) : llvm::Error::success();
  }
  llvm::Error e = llvm::writeToOutput(p, [&](llvm::raw_ostream &os) {
    os << data;
    return llvm::Error::success();
  });
  if (!e) return e;
  std::error_code ec = llvm::errorToErrorCode(std::move(e));
  return writeError(p, ec);
}

void removeStaleOutput(std::string_view path) {
  std::string p(path);
  if (p.empty() || p == "-") return;
  llvm::sys::fs::file_status st;
  if (!llvm::sys::fs::status(p, st) && llvm::sys::fs::is_regular_file(st)) llvm::sys::fs::remove(p);
}

} // namespace support

//===- LinkCodeObject.cpp - In-process lld: objects -> ET_DYN code object ---===//
//
// Runs lld's ELF driver inside the process (liblld: lld::lldMain) the way the
// HIP toolchain runs ld.lld for amdgcn: `-shared --no-undefined`, producing
// the loadable ET_DYN code object. lld's driver reads and writes files, so
// the inputs go through a private temporary directory that is removed
// afterwards. lld keeps per-process state while linking, so links are
// serialised by a mutex (the one piece of process-wide state here, owned by
// this function).
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "lld/Common/Driver.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

LLD_HAS_DRIVER(elf)

namespace amdgpulower {

namespace {
struct TempDir {
  llvm::SmallString<128> path;
  ~TempDir() {
    if (!path.empty()) llvm::sys::fs::remove_directories(path);
  }
};
} // namespace

llvm::Expected<std::vector<char>> linkCodeObject(llvm::ArrayRef<std::vector<char>> objects) {
  TempDir dir;
  if (auto ec = llvm::sys::fs::createUniqueDirectory("ptx2amd-lld", dir.path))
    return support::ioError("ptx2amd-lld", ec, "cannot create a temporary directory");
  std::vector<std::string> inputs;
  for (size_t i = 0; i < objects.size(); ++i) {
    llvm::SmallString<128> p(dir.path);
    llvm::sys::path::append(p, "part" + std::to_string(i) + ".o");
    std::error_code ec;
    llvm::raw_fd_ostream os(p, ec);
    if (ec) return support::ioError(p.str().str(), ec, "cannot write");
    os.write(objects[i].data(), objects[i].size());
    inputs.push_back(p.str().str());
  }
  llvm::SmallString<128> out(dir.path);
  llvm::sys::path::append(out, "out.hsaco");
  std::vector<const char *> args = {"ld.lld", "-shared", "--no-undefined", "-o", out.c_str()};
  for (auto &s : inputs) args.push_back(s.c_str());

  std::string diag;
  llvm::raw_string_ostream errs(diag), outs(diag);
  lld::Result r;
  {
    static std::mutex lldMutex;
    std::lock_guard<std::mutex> lock(lldMutex);
    r = lld::lldMain(args, outs, errs, {{lld::Gnu, &lld::elf::link}});
  }
  if (r.retCode != 0) return support::internalError(support::noLocf("lld failed: %s", diag.c_str()));
  auto buf = llvm::MemoryBuffer::getFile(out);
  if (!buf) return support::ioError(out.str().str(), buf.getError(), "lld produced no output");
  return std::vector<char>((*buf)->getBufferStart(), (*buf)->getBufferEnd());
}

} // namespace amdgpulower

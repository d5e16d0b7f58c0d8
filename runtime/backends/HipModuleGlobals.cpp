//===- backends/HipModuleGlobals.cpp - printf FIFO and heap on HIP ----------===//
#include "HipModuleGlobals.h"

#include "HipMemory.h"

#include "runtime/Log.h"
#include "support/Contract.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace runtime::hip {

namespace rec = support::printfrec;

namespace {
// A failed copy is an unreadable byte range here (the decoder reports it), not an error to pass on.
bool succeeded(llvm::Error E) {
  bool Ok = !E;
  llvm::consumeError(std::move(E));
  return Ok;
}
} // namespace

llvm::Expected<std::unique_ptr<HipModuleGlobals>>
HipModuleGlobals::create(const HipApi &A, hipModule M, CodeObjectImage &Image, uint64_t FifoBytes,
                         uint64_t HeapBytes) {
  std::unique_ptr<HipModuleGlobals> G(new HipModuleGlobals(A, M, Image));
  // The device address of a module global, when the code object defines it.
  auto Find = [&](const char *Name, uint64_t &Addr) -> llvm::Error {
    Addr = 0;
    if (!Image.symbol(Name)) return llvm::Error::success();
    void *P = nullptr;
    size_t N = 0;
    if (llvm::Error E = hipErr(A, A.ModuleGetGlobal(&P, &N, M, Name), "hipModuleGetGlobal")) return E;
    if (N < 8) return makeError(Errc::InvalidKernelImage, llvm::Twine("hip: ") + Name + " is " + llvm::Twine(N) +
                                                              " bytes, not a pointer");
    Addr = reinterpret_cast<uint64_t>(P);
    if (!Image.hasLoadBase()) Image.setLoadBase(Name, Addr);
    return llvm::Error::success();
  };
  auto Alloc = [&](uint64_t Bytes, uint64_t &Out) -> llvm::Error {
    void *P = nullptr;
    if (llvm::Error E = hipErr(A, A.Malloc(&P, Bytes), "hipMalloc")) return E;
    Out = reinterpret_cast<uint64_t>(P);
    return llvm::Error::success();
  };
  auto Store = [&](uint64_t Dst, const void *Src, size_t Bytes) {
    return hipErr(A, A.Memcpy(reinterpret_cast<void *>(Dst), Src, Bytes, MemcpyHostToDevice), "hipMemcpy");
  };
  uint64_t FifoGlobal, HeapGlobal;
  if (llvm::Error E = Find(support::global::kPrintfBuffer, FifoGlobal)) return E;
  if (llvm::Error E = Find(support::global::kHeap, HeapGlobal)) return E;
  if (FifoGlobal) {
    G->FifoCapacity = FifoBytes;
    G->EmptyHeader[0] = FifoBytes;
    if (llvm::Error E = Alloc(rec::kHeaderBytes + FifoBytes, G->FifoBuf)) return E;
    if (llvm::Error E = Store(FifoGlobal, &G->FifoBuf, 8)) return E;
  }
  if (HeapGlobal) {
    if (llvm::Error E = Alloc(HeapBytes, G->HeapBuf)) return E;
    if (llvm::Error E = Alloc(24, G->HeapHdr)) return E;
    uint64_t Hdr[3] = {G->HeapBuf, HeapBytes, 0}; // { base, size, bump offset }
    if (llvm::Error E = Store(G->HeapHdr, Hdr, sizeof Hdr)) return E;
    if (llvm::Error E = Store(HeapGlobal, &G->HeapHdr, 8)) return E;
  }
  return G;
}

llvm::Error HipModuleGlobals::beginLaunch(hipStream S) {
  if (!FifoBuf) return llvm::Error::success();
  std::lock_guard<std::mutex> L(LaunchMu);
  if (InFlight == 0) {
    // Finished before this launch is submitted: a launch of another stream that begins after
    // this one must not have its records wiped by a reset still queued on S.
    if (llvm::Error E = hipErr(A, A.MemcpyAsync(reinterpret_cast<void *>(FifoBuf), EmptyHeader, sizeof EmptyHeader,
                                                MemcpyHostToDevice, S),
                               "hipMemcpyAsync (printf FIFO header)"))
      return E;
    if (llvm::Error E = hipErr(A, A.StreamSynchronize(S), "hipStreamSynchronize (printf FIFO header)")) return E;
  }
  ++InFlight;
  return llvm::Error::success();
}

PrintfDrain HipModuleGlobals::endLaunch(hipStream S, bool Failed) {
  if (!FifoBuf) return {};
  std::lock_guard<std::mutex> L(LaunchMu);
  bool Last = --InFlight == 0;
  if (!Last && !Failed) return {};
  PrintfDrain Printed = drainFifo(S);
  if (!Last) Printed.text.clear(); // the last launch in flight emits every record once
  return Printed;
}

PrintfDrain HipModuleGlobals::drainFifo(hipStream S) {
  if (!FifoBuf) return {};
  auto Load = [Mem = HipStreamMemory(A, S)](void *Dst, uint64_t Src, size_t Bytes) mutable {
    return succeeded(Mem.copyFromDevice(Dst, Src, Bytes));
  };
  std::vector<uint8_t> B(rec::kHeaderBytes);
  if (!Load(B.data(), FifoBuf, B.size())) return {};
  uint64_t Used;
  std::memcpy(&Used, B.data() + 8, 8);
  Used = std::min(Used, FifoCapacity); // `used` counts reservations that did not fit too
  if (Used == 0) return {};
  B.resize(rec::kHeaderBytes + Used);
  if (!Load(B.data() + rec::kHeaderBytes, FifoBuf + rec::kHeaderBytes, Used)) return {};
  return decodePrintfFifo(B, [&](uint64_t Addr, std::string &Out) { return readDeviceString(S, Addr, Out); });
}

bool HipModuleGlobals::readDeviceString(hipStream S, uint64_t Addr, std::string &Out) {
  if (Image.readConstantString(Addr, Out)) return true;
  Out.clear();
  auto Load = [Mem = HipStreamMemory(A, S)](char *Dst, uint64_t Src, size_t Bytes) mutable {
    return succeeded(Mem.copyFromDevice(Dst, Src, Bytes));
  };
  uint64_t Limit = 65536;
  if (auto Obj = Image.objectAt(Addr)) {
    // A module variable: HIP copies it once hipModuleGetGlobal has named it.
    void *P = nullptr;
    size_t N = 0;
    if (hipError E = A.ModuleGetGlobal(&P, &N, M, Obj->first.c_str()); E != 0) {
      logger("hip")->debug("printf %s argument {:#x}: hipModuleGetGlobal('{}') returned {}", Addr, Obj->first, E);
      return false;
    }
    Limit = Obj->second;
  }
  // In chunks; near the end of an allocation HIP refuses a chunk that crosses it, then byte by byte.
  constexpr uint64_t Chunk = 64;
  for (uint64_t At = Addr; At < Addr + Limit;) {
    char C[Chunk];
    uint64_t Got = std::min(Chunk, Addr + Limit - At);
    if (!Load(C, At, Got)) {
      Got = 1;
      if (!Load(C, At, 1)) {
        logger("hip")->debug("printf %s argument {:#x}: hipMemcpy device-to-host of {:#x} failed", Addr, At);
        return false;
      }
    }
    for (uint64_t I = 0; I < Got; ++I) {
      if (!C[I]) return true;
      Out.push_back(C[I]);
    }
    At += Got;
  }
  return true;
}

} // namespace runtime::hip

//===- Isa.cpp - backend `isa`: isa-emu (the machine-code emulator) ---------===//
//
// One device that runs the pipeline driver's code object (ET_DYN HSACO for
// the device's gfx target) on isa-emu, the CPU emulator of AMDGPU machine
// code. Device memory is isa-emu's arena (a bump allocator: freeDevice only
// returns the bytes to memInfo's count). Host-mapped memory (pinned, managed)
// is *mirrored* as on the emu backend: an arena allocation plus a host
// mapping at the same address, uploaded before each launch and written back
// (changed bytes only) after it. Kernel properties and the explicit kernarg
// layout come from the code object's metadata (the core's Kernarg then holds
// every explicit argument at its metadata offset); the warp policy from the
// lowered module's `ptx2amd.warp-policy` attribute. isa-emu fills the
// code-object-v5 hidden block itself by .value_kind (as HIP does), from the
// hardware geometry this backend passes (pad: 64 lanes per 32 threads, 1-D).
// The launcher-filled globals of translated code (docs/pipeline.md) are set
// before each launch: __ptx2amd_envreg (zeroes), __ptx2amd_printf_buffer
// (a per-module buffer drained after the launch with emu's record
// formatter), __ptx2amd_heap (a per-module heap header). Cooperative
// launches are refused (isa-emu runs workgroups in dispatch order, so a grid
// barrier cannot be reached). Launches are serialised (isa-emu's launch is
// not reentrant); a kernel fault is LaunchFailure, an s_trap after CUDA's
// assertion text is Assert.
//
//===----------------------------------------------------------------------===//
#include "runtime/Backend.h"
#include "runtime/Log.h"

#include "amdgpulower/Lower.h"
#include "emu/Emu.h"
#include "isa-emu/IsaEmu.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <map>
#include <mutex>

namespace runtime {
namespace {

llvm::Error wrapErr(llvm::Error E, Errc C) {
  if (!E) return E;
  std::string Msg;
  takeErrc(std::move(E), &Msg);
  return makeError(C, Msg);
}

struct Mirror {
  uint64_t size = 0;
  uint64_t devAddr = 0;                    // where the device sees the bytes
  std::vector<uint8_t> shadow;             // what the last upload wrote
  std::unique_ptr<uint8_t[]> aliasStorage; // host bytes of an alias (hostAlias)
};

class IsaModule final : public BackendModule {
public:
  IsaModule(isaemu::Program *P, std::map<std::string, std::string> Policies,
            std::map<std::string, uint64_t> GlobalSizes, std::shared_ptr<void> Keep)
      : P(P), Policies(std::move(Policies)), GlobalSizes(std::move(GlobalSizes)), Keep(std::move(Keep)) {}
  std::vector<std::string> kernelNames() const override { return P->kernelNames(); }
  llvm::Expected<KernelProperties> kernel(llvm::StringRef Name) override {
    auto I = P->kernel(Name);
    if (!I) return wrapErr(I.takeError(), Errc::InvalidDeviceFunction);
    const isaemu::KernelInfo &KI = **I;
    KernelProperties K;
    K.name = KI.name;
    K.waveSize = KI.waveSize;
    auto It = Policies.find(Name.str());
    K.warpPolicy = It != Policies.end() ? It->second : "";
    uint32_t End = 0;
    for (const isaemu::KernelArg &A : KI.explicitArgs) {
      K.args.sizes.push_back(A.size);
      K.args.offsets.push_back(A.offset);
      End = std::max(End, A.offset + A.size);
    }
    if (K.warpPolicy == "pad" && !K.args.sizes.empty()) { // the trailing <4 x i32> block dims are the launcher's
      K.args.blockDimOffset = int32_t(K.args.offsets.back());
      K.args.blockDimBytes = K.args.sizes.back();
      K.args.sizes.pop_back();
      K.args.offsets.pop_back();
    }
    K.args.explicitBytes = End;
    K.staticLdsBytes = KI.groupSegmentFixedSize;
    K.privateSegmentBytes = KI.privateSegmentFixedSize;
    K.dynamicStack = KI.usesDynamicStack;
    K.maxThreadsPerBlock = (K.warpPolicy == "pad" && KI.waveSize == 64) ? 512 : 1024;
    K.numRegs = std::min<uint32_t>(KI.vgprCount, 255);
    return K;
  }
  llvm::Expected<GlobalInfo> global(llvm::StringRef Name) override {
    auto A = P->symbolAddress(Name);
    if (!A) return wrapErr(A.takeError(), Errc::InvalidSymbol);
    auto It = GlobalSizes.find(Name.str());
    return GlobalInfo{*A, It != GlobalSizes.end() ? It->second : 0};
  }
  isaemu::Program *P;
  // Launcher-filled globals (0: the module has none) and their backing.
  uint64_t envreg = 0, printfGlobal = 0, heapGlobal = 0;
  uint64_t printfBuf = 0, heapHdr = 0;

private:
  std::map<std::string, std::string> Policies;
  std::map<std::string, uint64_t> GlobalSizes;
  std::shared_ptr<void> Keep;
};

class IsaDevice final : public BackendDevice {
public:
  explicit IsaDevice(const IsaBackendOptions &O) : Opts(O) {
    const amdgpulower::TargetInfo *T = amdgpulower::findTarget(O.arch);
    Props.arch = O.arch;
    Props.waveSize = T ? T->waveSize : 64;
    Props.name = "ptx2amd isa-emu (" + O.arch + ")";
    Props.totalGlobalMem = ArenaBytes;
    Props.cooperativeLaunch = false;
  }
  const DeviceProperties &properties() const override { return Props; }
  // The lowered module for the warp policies and globals' sizes.
  ImageNeeds imageNeeds() const override { return {true, true}; }

  llvm::Expected<isaemu::Device *> dev() {
    std::lock_guard<std::mutex> G(Mu);
    if (D) return D.get();
    isaemu::DeviceOptions O;
    O.threads = Opts.threads;
    O.arenaBytes = ArenaBytes;
    auto R = isaemu::Device::create(O);
    if (!R) return wrapErr(R.takeError(), Errc::NoDevice);
    D = std::move(*R);
    return D.get();
  }

  llvm::Expected<std::unique_ptr<BackendModule>> loadModule(ModuleImage Image) override {
    if (Image.codeObject.empty()) return makeError(Errc::InvalidKernelImage, "isa: the image has no code object");
    if (Image.arch != Props.arch)
      return makeError(Errc::InvalidKernelImage, "isa: code object for " + Image.arch + ", the device is " + Props.arch);
    auto Dv = dev();
    if (!Dv) return Dv.takeError();
    std::map<std::string, std::string> Pol;
    std::map<std::string, uint64_t> GSizes;
    if (Image.lowered) {
      for (llvm::Function &F : *Image.lowered) {
        if (F.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL || F.isDeclaration()) continue;
        llvm::Attribute A = F.getFnAttribute("ptx2amd.warp-policy");
        Pol[F.getName().str()] = A.isStringAttribute() ? A.getValueAsString().str() : "";
      }
      for (llvm::GlobalVariable &GV : Image.lowered->globals())
        if (!GV.isDeclaration() && GV.getValueType()->isSized())
          GSizes[GV.getName().str()] = Image.lowered->getDataLayout().getTypeAllocSize(GV.getValueType());
    }
    isaemu::Program *P = nullptr;
    {
      std::lock_guard<std::mutex> G(Mu); // loadCodeObject is not reentrant
      auto L = (*Dv)->loadCodeObject(llvm::ArrayRef<char>(reinterpret_cast<const char *>(Image.codeObject.data()),
                                                          Image.codeObject.size()));
      if (!L) {
        std::string Msg;
        takeErrc(L.takeError(), &Msg);
        return makeError(Errc::InvalidKernelImage, "isa-emu rejected the code object: " + Msg);
      }
      P = *L;
    }
    for (const std::string &K : P->kernelNames()) {
      auto KI = P->kernel(K);
      if (!KI) return wrapErr(KI.takeError(), Errc::InvalidKernelImage);
      if ((*KI)->target != Props.arch)
        return makeError(Errc::InvalidKernelImage, "isa: kernel " + K + " is for " + (*KI)->target + ", the device is " +
                                                       Props.arch);
    }
    auto M = std::make_unique<IsaModule>(P, std::move(Pol), std::move(GSizes), std::move(Image.keepAlive));
    auto Sym = [&](const char *N) -> uint64_t {
      auto A = P->symbolAddress(N);
      if (A) return *A;
      llvm::consumeError(A.takeError());
      return 0;
    };
    M->envreg = Sym("__ptx2amd_envreg");
    M->printfGlobal = Sym("__ptx2amd_printf_buffer");
    M->heapGlobal = Sym("__ptx2amd_heap");
    std::lock_guard<std::mutex> G(Mu);
    Used = true;
    if (M->printfGlobal) {
      auto B = (*Dv)->malloc(Fifo + 16);
      if (!B) return wrapErr(B.takeError(), Errc::MemoryAllocation);
      M->printfBuf = *B;
    }
    if (M->heapGlobal) {
      auto H = (*Dv)->malloc(Heap);
      if (!H) return wrapErr(H.takeError(), Errc::MemoryAllocation);
      auto Hd = (*Dv)->malloc(24);
      if (!Hd) return wrapErr(Hd.takeError(), Errc::MemoryAllocation);
      uint64_t Hdr[3] = {*H, Heap, 0}; // { base, size, bump offset }
      if (llvm::Error E = (*Dv)->copyToDevice(*Hd, Hdr, 24)) return wrapErr(std::move(E), Errc::MemoryAllocation);
      M->heapHdr = *Hd;
    }
    logger("isa")->debug("code object loaded on isa-emu: {} kernels", P->kernelNames().size());
    return M;
  }

  llvm::Expected<uint64_t> allocDevice(uint64_t Bytes) override {
    auto Dv = dev();
    if (!Dv) return Dv.takeError();
    auto A = (*Dv)->malloc(Bytes);
    if (!A) return wrapErr(A.takeError(), Errc::MemoryAllocation);
    std::lock_guard<std::mutex> G(MirrorMu);
    InUse += Bytes;
    Sizes[*A] = Bytes;
    return *A;
  }
  llvm::Error freeDevice(uint64_t Addr) override {
    std::lock_guard<std::mutex> G(MirrorMu);
    auto It = Sizes.find(Addr);
    if (It == Sizes.end()) return makeError(Errc::InvalidValue, "isa: not a device allocation");
    InUse -= It->second; // isa-emu's arena is a bump allocator: the bytes are not reused
    Sizes.erase(It);
    return llvm::Error::success();
  }

  llvm::Expected<uint64_t> allocHost(uint64_t N, HostMemKind) override {
    auto Dv = dev();
    if (!Dv) return Dv.takeError();
    const uint64_t Page = uint64_t(sysconf(_SC_PAGESIZE));
    uint64_t Size = (std::max<uint64_t>(N, 1) + Page - 1) / Page * Page;
    auto A = (*Dv)->malloc(Size + Page);
    if (!A) return wrapErr(A.takeError(), Errc::MemoryAllocation);
    uint64_t Base = (*A + Page - 1) / Page * Page;
    void *P = mmap(reinterpret_cast<void *>(Base), Size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (P == MAP_FAILED || reinterpret_cast<uint64_t>(P) != Base) {
      if (P != MAP_FAILED) munmap(P, Size);
      return makeError(Errc::MemoryAllocation,
                       "isa: cannot map host memory at the device address 0x" + llvm::utohexstr(Base) +
                           " (host-mapped/managed memory needs that address range free in the process)");
    }
    std::lock_guard<std::mutex> G(MirrorMu);
    Mirror M;
    M.size = Size;
    M.devAddr = Base;
    Mirrors[Base] = std::move(M);
    InUse += Size + Page;
    return Base;
  }
  llvm::Error freeHost(uint64_t Addr) override {
    std::lock_guard<std::mutex> G(MirrorMu);
    auto It = Mirrors.find(Addr);
    if (It == Mirrors.end() || It->second.aliasStorage) return makeError(Errc::InvalidValue, "isa: not a host allocation");
    munmap(reinterpret_cast<void *>(Addr), It->second.size);
    InUse -= It->second.size + uint64_t(sysconf(_SC_PAGESIZE));
    Mirrors.erase(It);
    return llvm::Error::success();
  }

  llvm::Expected<uint64_t> hostAlias(uint64_t DevAddr, uint64_t Bytes) override {
    auto Dv = dev();
    if (!Dv) return Dv.takeError();
    Mirror M;
    M.size = std::max<uint64_t>(Bytes, 1);
    M.devAddr = DevAddr;
    M.aliasStorage.reset(new uint8_t[M.size]);
    if (llvm::Error E = (*Dv)->copyFromDevice(M.aliasStorage.get(), DevAddr, M.size))
      return wrapErr(std::move(E), Errc::InvalidValue);
    uint64_t Host = reinterpret_cast<uint64_t>(M.aliasStorage.get());
    std::lock_guard<std::mutex> G(MirrorMu);
    Mirrors[Host] = std::move(M);
    return Host;
  }

  llvm::Expected<std::unique_ptr<BackendQueue>> createQueue() override;

  llvm::Error setLimit(Limit L, uint64_t V) override {
    std::lock_guard<std::mutex> G(Mu);
    switch (L) {
    case Limit::StackSize: Stack = V; return llvm::Error::success();
    case Limit::MallocHeapSize:
    case Limit::PrintfFifoSize:
      if (Used) return makeError(Errc::InvalidValue, "the heap and printf FIFO sizes are fixed once a module is loaded");
      (L == Limit::MallocHeapSize ? Heap : Fifo) = V;
      return llvm::Error::success();
    }
    return makeError(Errc::InvalidValue, "unknown limit");
  }
  uint64_t limit(Limit L) const override {
    return L == Limit::StackSize ? Stack : L == Limit::MallocHeapSize ? Heap : Fifo;
  }
  void setPrintfSink(std::function<void(llvm::StringRef)> S) override {
    std::lock_guard<std::mutex> G(SinkMu);
    Sink = std::move(S);
  }
  std::pair<uint64_t, uint64_t> memInfo() const override {
    uint64_t T = Props.totalGlobalMem, U = InUse.load();
    return {U > T ? 0 : T - U, T};
  }

  // ---- around a launch (caller: a queue's worker thread, under LaunchMu)
  llvm::Error upload(isaemu::Device &Dv) {
    std::lock_guard<std::mutex> G(MirrorMu);
    for (auto &[Addr, M] : Mirrors) {
      M.shadow.assign(reinterpret_cast<uint8_t *>(Addr), reinterpret_cast<uint8_t *>(Addr) + M.size);
      if (llvm::Error E = Dv.copyToDevice(M.devAddr, M.shadow.data(), M.size)) return wrapErr(std::move(E), Errc::Unknown);
    }
    return llvm::Error::success();
  }
  llvm::Error writeBack(isaemu::Device &Dv) {
    std::lock_guard<std::mutex> G(MirrorMu);
    std::vector<uint8_t> Now;
    for (auto &[Addr, M] : Mirrors) {
      Now.resize(M.size);
      if (llvm::Error E = Dv.copyFromDevice(Now.data(), M.devAddr, M.size)) return wrapErr(std::move(E), Errc::Unknown);
      uint8_t *H = reinterpret_cast<uint8_t *>(Addr);
      for (uint64_t I = 0; I < M.size; ++I)
        if (Now[I] != M.shadow[I]) H[I] = Now[I];
    }
    return llvm::Error::success();
  }
  llvm::Error setGlobals(isaemu::Device &Dv, IsaModule &M) {
    if (M.envreg) {
      uint8_t Z[128] = {};
      if (llvm::Error E = Dv.copyToDevice(M.envreg, Z, sizeof Z)) return wrapErr(std::move(E), Errc::Unknown);
    }
    if (M.printfGlobal) {
      uint64_t Hdr[2] = {Fifo, 0}; // { capacity, used }
      if (llvm::Error E = Dv.copyToDevice(M.printfBuf, Hdr, 16)) return wrapErr(std::move(E), Errc::Unknown);
      if (llvm::Error E = Dv.copyToDevice(M.printfGlobal, &M.printfBuf, 8)) return wrapErr(std::move(E), Errc::Unknown);
    }
    if (M.heapGlobal)
      if (llvm::Error E = Dv.copyToDevice(M.heapGlobal, &M.heapHdr, 8)) return wrapErr(std::move(E), Errc::Unknown);
    return llvm::Error::success();
  }
  // Formats and emits the launch's printf records; returns the text.
  std::string drainPrintf(isaemu::Device &Dv, IsaModule &M) {
    if (!M.printfGlobal) return "";
    std::vector<uint8_t> B(Fifo + 16);
    if (llvm::Error E = Dv.copyFromDevice(B.data(), M.printfBuf, B.size())) {
      llvm::consumeError(std::move(E));
      return "";
    }
    uint64_t Used;
    std::memcpy(&Used, B.data() + 8, 8);
    Used = std::min(Used, Fifo);
    const uint8_t *Dt = B.data() + 16;
    auto ReadStr = [&](uint64_t Addr, std::string &S) {
      S.clear();
      for (uint64_t I = 0; I < 65536; ++I) {
        char C;
        if (llvm::Error E = Dv.copyFromDevice(&C, Addr + I, 1)) {
          llvm::consumeError(std::move(E));
          return false;
        }
        if (!C) return true;
        S.push_back(C);
      }
      return true;
    };
    std::string Out;
    for (uint64_t At = 0; At + 8 <= Used;) {
      uint32_t Rec, FLen;
      std::memcpy(&Rec, Dt + At, 4);
      std::memcpy(&FLen, Dt + At + 4, 4);
      uint64_t FPad = (uint64_t(FLen) + 7) & ~7ull;
      if (Rec < 8 + FPad || At + Rec > Used || !FLen) break;
      std::string Fmt(reinterpret_cast<const char *>(Dt + At + 8), FLen - 1);
      Out += emu::formatPrintfRecord(Fmt, Dt + At + 8 + FPad, Rec - 8 - FPad, ReadStr);
      At += Rec;
    }
    if (!Out.empty()) {
      std::lock_guard<std::mutex> G(SinkMu);
      if (Sink) Sink(Out);
      else fwrite(Out.data(), 1, Out.size(), stdout);
    }
    return Out;
  }

  std::mutex LaunchMu; // isa-emu launches one kernel at a time

private:
  static constexpr uint64_t ArenaBytes = 8ull << 30;
  IsaBackendOptions Opts;
  DeviceProperties Props;
  std::mutex Mu;
  std::unique_ptr<isaemu::Device> D;
  bool Used = false;
  uint64_t Heap = 8ull << 20, Fifo = 1ull << 20, Stack = 1024;
  std::atomic<uint64_t> InUse{0};
  std::map<uint64_t, uint64_t> Sizes;
  std::mutex MirrorMu;
  std::map<uint64_t, Mirror> Mirrors;
  std::mutex SinkMu;
  std::function<void(llvm::StringRef)> Sink;
};

class IsaQueue final : public BackendQueue {
public:
  explicit IsaQueue(IsaDevice &D) : D(D) {}
  llvm::Error launch(BackendModule &BM, const KernelProperties &K, const LaunchParams &P,
                     const Kernarg &Args) override {
    if (P.cooperative)
      return makeError(Errc::NotSupported, "isa: cooperative launches are not supported on isa-emu (kernel '" + K.name +
                                               "'): it runs workgroups in dispatch order, so a grid barrier never completes");
    auto Dv = D.dev();
    if (!Dv) return Dv.takeError();
    IsaModule &M = static_cast<IsaModule &>(BM);
    auto KI = M.P->kernel(K.name);
    if (!KI) return wrapErr(KI.takeError(), Errc::InvalidDeviceFunction);
    // One pointer per explicit argument of the metadata, into the core's segment
    // (it holds each at its metadata offset, the pad block dims included).
    std::vector<void *> Ptrs;
    for (const isaemu::KernelArg &A : (*KI)->explicitArgs) {
      if (A.offset + A.size > Args.bytes.size())
        return makeError(Errc::InvalidValue, "isa: kernel '" + K.name + "': argument outside the kernarg segment");
      Ptrs.push_back(const_cast<uint8_t *>(Args.bytes.data() + A.offset));
    }
    isaemu::LaunchConfig C;
    C.grid = {P.grid.x, P.grid.y, P.grid.z};
    C.block = {P.block.x, P.block.y, P.block.z};
    if (K.warpPolicy == "pad") { // one 64-lane wave per 32 threads, 1-D work-group
      C.block = {uint32_t(64 * ((P.block.count() + 31) / 32)), 1, 1};
    }
    C.dynamicLdsBytes = P.dynamicLdsBytes;
    C.dynamicPrivateBytes = uint32_t(std::max<uint64_t>(P.stackBytesPerThread, 1024));
    std::lock_guard<std::mutex> G(D.LaunchMu);
    if (llvm::Error E = D.setGlobals(**Dv, M)) return E;
    if (llvm::Error E = D.upload(**Dv)) return E;
    llvm::Error E = (*Dv)->launch(*M.P, K.name, C, Ptrs.data());
    llvm::Error W = D.writeBack(**Dv);
    std::string Printed = D.drainPrintf(**Dv, M);
    if (E) {
      std::string Msg;
      takeErrc(std::move(E), &Msg);
      llvm::consumeError(std::move(W));
      Errc Code = Errc::LaunchFailure;
      if (Msg.find("s_trap") != std::string::npos && Printed.find("Assertion `") != std::string::npos)
        Code = Errc::Assert;
      else if (Msg.find("exceeds 64 KiB") != std::string::npos) Code = Errc::InvalidValue;
      else if (Msg.find("bad launch geometry") != std::string::npos) Code = Errc::InvalidConfiguration;
      return makeError(Code, "kernel '" + K.name + "' failed: " + Msg);
    }
    return W;
  }
  llvm::Error copy(uint64_t Dst, uint64_t Src, uint64_t Bytes, CopyDir Dir) override {
    auto Dv = D.dev();
    if (!Dv) return Dv.takeError();
    switch (Dir) {
    case CopyDir::HostToDevice:
      return wrapErr((*Dv)->copyToDevice(Dst, reinterpret_cast<const void *>(Src), Bytes), Errc::InvalidValue);
    case CopyDir::DeviceToHost:
      return wrapErr((*Dv)->copyFromDevice(reinterpret_cast<void *>(Dst), Src, Bytes), Errc::InvalidValue);
    case CopyDir::DeviceToDevice: {
      std::vector<uint8_t> Tmp(Bytes);
      if (llvm::Error E = (*Dv)->copyFromDevice(Tmp.data(), Src, Bytes)) return wrapErr(std::move(E), Errc::InvalidValue);
      return wrapErr((*Dv)->copyToDevice(Dst, Tmp.data(), Bytes), Errc::InvalidValue);
    }
    case CopyDir::HostToHost:
      std::memmove(reinterpret_cast<void *>(Dst), reinterpret_cast<const void *>(Src), Bytes);
      return llvm::Error::success();
    }
    return llvm::Error::success();
  }
  llvm::Error memset(uint64_t Dst, int Value, uint64_t Bytes) override {
    auto Dv = D.dev();
    if (!Dv) return Dv.takeError();
    return wrapErr((*Dv)->memset(Dst, Value, Bytes), Errc::InvalidValue);
  }
  llvm::Error finish() override { return llvm::Error::success(); } // every call above is synchronous

private:
  IsaDevice &D;
};

llvm::Expected<std::unique_ptr<BackendQueue>> IsaDevice::createQueue() { return std::make_unique<IsaQueue>(*this); }

class IsaBackend final : public Backend {
public:
  explicit IsaBackend(const IsaBackendOptions &O) : O(O) {}
  llvm::StringRef name() const override { return "isa"; }
  unsigned deviceCount() const override { return 1; }
  llvm::Expected<std::unique_ptr<BackendDevice>> openDevice(unsigned Ordinal) override {
    if (Ordinal != 0) return makeError(Errc::InvalidDevice, "isa-emu has one device");
    return std::make_unique<IsaDevice>(O);
  }

private:
  IsaBackendOptions O;
};

} // namespace

llvm::Expected<std::unique_ptr<Backend>> createIsaBackend(const IsaBackendOptions &O) {
  const amdgpulower::TargetInfo *T = amdgpulower::findTarget(O.arch);
  if (!T) return makeError(Errc::InvalidValue, "'" + O.arch + "' is not a target ptx2amd supports (PTX2AMD_ARCH)");
  if (O.arch != "gfx1100" && O.arch != "gfx90a" && O.arch != "gfx942")
    return makeError(Errc::InvalidValue, "isa: isa-emu runs gfx1100, gfx90a and gfx942 code objects, not " + O.arch);
  return std::make_unique<IsaBackend>(O);
}

} // namespace runtime

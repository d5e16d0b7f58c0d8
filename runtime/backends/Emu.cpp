//===- Emu.cpp - backend `emu`: amdgpu-emu behind the core's interface ------===//
//
// One device that runs the lowered LLVM module on the CPU (emu::Device).
// Device memory is the emulator's arena. Host-mapped memory (pinned,
// managed) is *mirrored*: an arena allocation plus a host mapping at the
// same address; before each launch every mirror is uploaded and after it
// only the bytes the kernel changed are written back to the host mapping
// (so host writes to other bytes while a kernel runs on another stream are
// not clobbered). The emu::Device is created on first use, so heap and
// printf-FIFO limits set before that take effect. Launches run one at a
// time (emu::Device serialises them); each stream's queue calls them from
// its own worker thread. Per-kernel properties (own static LDS, dynamic
// stack) are computed from the lowered module before it is handed over.
//
//===----------------------------------------------------------------------===//
#include "runtime/Backend.h"
#include "runtime/Log.h"

#include "amdgpulower/Lower.h"
#include "emu/Emu.h"
#include "ptxjit/Pipeline.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <mutex>

namespace runtime {
namespace {

struct Mirror {
  uint64_t size = 0;    // bytes of the host mapping (== device bytes used)
  uint64_t devBase = 0; // the arena allocation to free (0: none, an alias)
  uint64_t devAddr = 0; // where the device sees the bytes
  std::vector<uint8_t> shadow; // what the last upload wrote
  std::unique_ptr<uint8_t[]> aliasStorage; // host bytes of an alias
};

class EmuDevice;

class EmuModule final : public BackendModule {
public:
  EmuModule(emu::Module *M, std::map<std::string, std::pair<uint32_t, bool>> Own,
            std::map<std::string, uint64_t> GlobalSizes, std::shared_ptr<void> Keep)
      : M(M), Own(std::move(Own)), GlobalSizes(std::move(GlobalSizes)), Keep(std::move(Keep)) {}
  std::vector<std::string> kernelNames() const override { return M->kernelNames(); }
  llvm::Expected<KernelProperties> kernel(llvm::StringRef Name) override {
    auto I = M->kernel(Name);
    if (!I) {
      std::string Msg;
      takeErrc(I.takeError(), &Msg);
      return makeError(Errc::InvalidDeviceFunction, Msg);
    }
    KernelProperties K;
    K.name = I->name;
    K.waveSize = I->waveSize;
    K.warpPolicy = I->warpPolicy;
    K.args.sizes = I->argSizes;
    K.args.offsets = I->argOffsets;
    K.args.explicitBytes = I->explicitKernargBytes; // the emulator fills a pad block-dim argument itself
    auto It = Own.find(Name.str());
    K.staticLdsBytes = It != Own.end() ? It->second.first : I->staticLdsBytes;
    K.dynamicStack = It != Own.end() && It->second.second;
    K.maxThreadsPerBlock = (I->warpPolicy == "pad" && I->waveSize == 64) ? 512 : 1024;
    K.numRegs = std::min<uint32_t>(I->registerSlots, 255);
    return K;
  }
  llvm::Expected<GlobalInfo> global(llvm::StringRef Name) override {
    auto A = M->globalAddress(Name);
    if (!A) {
      std::string Msg;
      takeErrc(A.takeError(), &Msg);
      return makeError(Errc::InvalidSymbol, Msg);
    }
    auto It = GlobalSizes.find(Name.str());
    return GlobalInfo{*A, It != GlobalSizes.end() ? It->second : 0};
  }
  emu::Module *M;

private:
  std::map<std::string, std::pair<uint32_t, bool>> Own; // kernel -> own LDS, dynamic stack
  std::map<std::string, uint64_t> GlobalSizes;
  std::shared_ptr<void> Keep;
};

class EmuDevice final : public BackendDevice {
public:
  explicit EmuDevice(const EmuBackendOptions &O) : Opts(O) {
    const amdgpulower::TargetInfo *T = amdgpulower::findTarget(O.arch);
    Props.arch = O.arch;
    Props.waveSize = T ? T->waveSize : 64;
    Props.name = "ptx2amd amdgpu-emu (" + O.arch + ")";
    Props.totalGlobalMem = emu::DeviceOptions{}.arenaBytes;
    Heap = emu::DeviceOptions{}.heapBytes;
    Fifo = emu::DeviceOptions{}.printfBufferBytes;
  }
  const DeviceProperties &properties() const override { return Props; }
  ImageNeeds imageNeeds() const override { return {true, false}; }

  llvm::Expected<emu::Device *> dev() {
    std::lock_guard<std::mutex> G(Mu);
    if (D) return D.get();
    emu::DeviceOptions O;
    O.threads = Opts.threads;
    O.heapBytes = Heap;
    O.printfBufferBytes = Fifo;
    O.printfSink = [this](llvm::StringRef T) {
      std::lock_guard<std::mutex> G2(SinkMu);
      if (Sink) Sink(T);
      else fwrite(T.data(), 1, T.size(), stdout);
    };
    auto R = emu::Device::create(O);
    if (!R) {
      std::string Msg;
      takeErrc(R.takeError(), &Msg);
      return makeError(Errc::NoDevice, "cannot create the emulated device: " + Msg);
    }
    D = std::move(*R);
    return D.get();
  }

  llvm::Expected<std::unique_ptr<BackendModule>> loadModule(ModuleImage Image) override {
    if (!Image.lowered) return makeError(Errc::InvalidKernelImage, "emu: the image has no lowered LLVM module");
    auto Dv = dev();
    if (!Dv) return Dv.takeError();
    std::map<std::string, std::pair<uint32_t, bool>> Own;
    for (llvm::Function &F : *Image.lowered)
      if (F.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL && !F.isDeclaration())
        Own[F.getName().str()] = {uint32_t(ptxjit::kernelStaticLdsBytes(*Image.lowered, F.getName())),
                                  ptxjit::kernelNeedsDynamicStack(*Image.lowered, F.getName())};
    std::map<std::string, uint64_t> GSizes;
    for (llvm::GlobalVariable &GV : Image.lowered->globals())
      if (!GV.isDeclaration() && GV.getValueType()->isSized())
        GSizes[GV.getName().str()] = Image.lowered->getDataLayout().getTypeAllocSize(GV.getValueType());
    std::lock_guard<std::mutex> G(Mu); // emu::Device::loadModule is not reentrant
    auto L = (*Dv)->loadModule(std::move(Image.lowered), std::move(Image.context));
    if (!L) {
      std::string Msg;
      takeErrc(L.takeError(), &Msg);
      return makeError(Errc::InvalidKernelImage, "emulator rejected the translated module: " + Msg);
    }
    logger("emu")->debug("module loaded on the emulator: {} kernels, {} globals", Own.size(), GSizes.size());
    return std::make_unique<EmuModule>(*L, std::move(Own), std::move(GSizes), std::move(Image.keepAlive));
  }

  llvm::Expected<uint64_t> allocDevice(uint64_t Bytes) override {
    auto Dv = dev();
    if (!Dv) return Dv.takeError();
    auto A = (*Dv)->malloc(Bytes);
    if (!A) {
      std::string Msg;
      takeErrc(A.takeError(), &Msg);
      return makeError(Errc::MemoryAllocation, Msg);
    }
    std::lock_guard<std::mutex> G(MirrorMu);
    Used += Bytes;
    Sizes[*A] = Bytes;
    return *A;
  }
  llvm::Error freeDevice(uint64_t Addr) override {
    auto Dv = dev();
    if (!Dv) return Dv.takeError();
    {
      std::lock_guard<std::mutex> G(MirrorMu);
      if (auto It = Sizes.find(Addr); It != Sizes.end()) {
        Used -= It->second;
        Sizes.erase(It);
      }
    }
    return wrap((*Dv)->free(Addr), Errc::InvalidValue);
  }

  llvm::Expected<uint64_t> allocHost(uint64_t N, HostMemKind) override {
    auto Dv = dev();
    if (!Dv) return Dv.takeError();
    const uint64_t Page = uint64_t(sysconf(_SC_PAGESIZE));
    uint64_t Size = (std::max<uint64_t>(N, 1) + Page - 1) / Page * Page;
    auto A = (*Dv)->malloc(Size + Page);
    if (!A) {
      std::string Msg;
      takeErrc(A.takeError(), &Msg);
      return makeError(Errc::MemoryAllocation, Msg);
    }
    uint64_t Base = (*A + Page - 1) / Page * Page;
    void *P = mmap(reinterpret_cast<void *>(Base), Size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (P == MAP_FAILED || reinterpret_cast<uint64_t>(P) != Base) {
      if (P != MAP_FAILED) munmap(P, Size);
      llvm::consumeError((*Dv)->free(*A));
      return makeError(Errc::MemoryAllocation,
                       "cannot map host memory at the device address 0x" + llvm::utohexstr(Base) +
                           " (host-mapped/managed memory needs that address range free in the process)");
    }
    std::lock_guard<std::mutex> G(MirrorMu);
    Mirrors[Base] = Mirror{Size, *A, Base, {}, nullptr};
    Used += Size + Page;
    return Base;
  }
  llvm::Error freeHost(uint64_t Addr) override {
    auto Dv = dev();
    if (!Dv) return Dv.takeError();
    std::lock_guard<std::mutex> G(MirrorMu);
    auto It = Mirrors.find(Addr);
    if (It == Mirrors.end()) return makeError(Errc::InvalidValue, "not a host allocation");
    munmap(reinterpret_cast<void *>(Addr), It->second.size);
    Used -= It->second.size + uint64_t(sysconf(_SC_PAGESIZE));
    uint64_t Dev = It->second.devBase;
    Mirrors.erase(It);
    return wrap((*Dv)->free(Dev), Errc::InvalidValue);
  }

  llvm::Expected<std::unique_ptr<BackendQueue>> createQueue() override;

  llvm::Expected<uint64_t> hostAlias(uint64_t DevAddr, uint64_t Bytes) override {
    auto Dv = dev();
    if (!Dv) return Dv.takeError();
    Mirror M;
    M.size = std::max<uint64_t>(Bytes, 1);
    M.devAddr = DevAddr;
    M.aliasStorage.reset(new uint8_t[M.size]);
    if (llvm::Error E = (*Dv)->copyFromDevice(M.aliasStorage.get(), DevAddr, M.size))
      return wrap(std::move(E), Errc::InvalidValue);
    uint64_t Host = reinterpret_cast<uint64_t>(M.aliasStorage.get());
    std::lock_guard<std::mutex> G(MirrorMu);
    Mirrors[Host] = std::move(M);
    return Host;
  }

  llvm::Error setLimit(Limit L, uint64_t V) override {
    std::lock_guard<std::mutex> G(Mu);
    switch (L) {
    case Limit::StackSize: Stack = V; return llvm::Error::success();
    case Limit::MallocHeapSize:
    case Limit::PrintfFifoSize:
      if (D) return makeError(Errc::InvalidValue, "the heap and printf FIFO sizes are fixed once the device is in use");
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
    uint64_t T = Props.totalGlobalMem, U = Used.load();
    return {U > T ? 0 : T - U, T};
  }

  static llvm::Error wrap(llvm::Error E, Errc C) {
    if (!E) return E;
    std::string Msg;
    takeErrc(std::move(E), &Msg);
    return makeError(C, Msg);
  }

  // Mirrors around a launch (caller: a queue's worker thread).
  llvm::Error upload(emu::Device &Dv) {
    std::lock_guard<std::mutex> G(MirrorMu);
    for (auto &[Addr, M] : Mirrors) {
      M.shadow.assign(reinterpret_cast<uint8_t *>(Addr), reinterpret_cast<uint8_t *>(Addr) + M.size);
      if (llvm::Error E = Dv.copyToDevice(M.devAddr, M.shadow.data(), M.size)) return wrap(std::move(E), Errc::Unknown);
    }
    return llvm::Error::success();
  }
  llvm::Error writeBack(emu::Device &Dv) {
    std::lock_guard<std::mutex> G(MirrorMu);
    std::vector<uint8_t> Now;
    for (auto &[Addr, M] : Mirrors) {
      Now.resize(M.size);
      if (llvm::Error E = Dv.copyFromDevice(Now.data(), M.devAddr, M.size)) return wrap(std::move(E), Errc::Unknown);
      uint8_t *H = reinterpret_cast<uint8_t *>(Addr);
      for (uint64_t I = 0; I < M.size; I += 8) {
        uint64_t N = std::min<uint64_t>(8, M.size - I);
        if (std::memcmp(Now.data() + I, M.shadow.data() + I, N) == 0) continue;
        for (uint64_t J = I; J < I + N; ++J)
          if (Now[J] != M.shadow[J]) H[J] = Now[J];
      }
    }
    return llvm::Error::success();
  }

private:
  EmuBackendOptions Opts;
  DeviceProperties Props;
  std::mutex Mu;
  std::unique_ptr<emu::Device> D;
  uint64_t Heap = 0, Fifo = 0, Stack = 1024;
  std::atomic<uint64_t> Used{0};
  std::map<uint64_t, uint64_t> Sizes;
  std::mutex MirrorMu;
  std::map<uint64_t, Mirror> Mirrors;
  std::mutex SinkMu;
  std::function<void(llvm::StringRef)> Sink;
};

class EmuQueue final : public BackendQueue {
public:
  explicit EmuQueue(EmuDevice &D) : D(D) {}
  llvm::Error launch(BackendModule &M, const KernelProperties &K, const LaunchParams &P,
                     const Kernarg &Args) override {
    auto Dv = D.dev();
    if (!Dv) return Dv.takeError();
    std::vector<void *> Ptrs(K.args.sizes.size());
    for (size_t I = 0; I < Ptrs.size(); ++I) Ptrs[I] = const_cast<void *>(Args.arg(I, K.args));
    if (llvm::Error E = D.upload(**Dv)) return E;
    emu::LaunchConfig C;
    C.grid = {P.grid.x, P.grid.y, P.grid.z};
    C.block = {P.block.x, P.block.y, P.block.z};
    C.dynamicLdsBytes = P.dynamicLdsBytes;
    C.cooperative = P.cooperative;
    llvm::Error E = (*Dv)->launch(*static_cast<EmuModule &>(M).M, K.name, C, Ptrs.data());
    llvm::Error W = D.writeBack(**Dv);
    if (E) {
      std::string Msg;
      takeErrc(std::move(E), &Msg);
      llvm::consumeError(std::move(W));
      Errc Code = Errc::LaunchFailure;
      if (Msg.find("device assertion failed") != std::string::npos) Code = Errc::Assert;
      else if (Msg.find("cannot all be resident") != std::string::npos) Code = Errc::CooperativeLaunchTooLarge;
      else if (Msg.find("bytes of LDS exceed") != std::string::npos) Code = Errc::InvalidValue;
      else if (Msg.find("threads exceeds") != std::string::npos) Code = Errc::InvalidConfiguration;
      return makeError(Code, "kernel '" + K.name + "' failed: " + Msg);
    }
    return W;
  }
  llvm::Error copy(uint64_t Dst, uint64_t Src, uint64_t Bytes, CopyDir Dir) override {
    auto Dv = D.dev();
    if (!Dv) return Dv.takeError();
    switch (Dir) {
    case CopyDir::HostToDevice:
      return EmuDevice::wrap((*Dv)->copyToDevice(Dst, reinterpret_cast<const void *>(Src), Bytes), Errc::InvalidValue);
    case CopyDir::DeviceToHost:
      return EmuDevice::wrap((*Dv)->copyFromDevice(reinterpret_cast<void *>(Dst), Src, Bytes), Errc::InvalidValue);
    case CopyDir::DeviceToDevice: {
      std::vector<uint8_t> Tmp(Bytes);
      if (llvm::Error E = (*Dv)->copyFromDevice(Tmp.data(), Src, Bytes)) return EmuDevice::wrap(std::move(E), Errc::InvalidValue);
      return EmuDevice::wrap((*Dv)->copyToDevice(Dst, Tmp.data(), Bytes), Errc::InvalidValue);
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
    return EmuDevice::wrap((*Dv)->memset(Dst, Value, Bytes), Errc::InvalidValue);
  }
  llvm::Error finish() override { return llvm::Error::success(); } // every call above is synchronous

private:
  EmuDevice &D;
};

llvm::Expected<std::unique_ptr<BackendQueue>> EmuDevice::createQueue() {
  return std::make_unique<EmuQueue>(*this);
}

class EmuBackend final : public Backend {
public:
  explicit EmuBackend(const EmuBackendOptions &O) : O(O) {}
  llvm::StringRef name() const override { return "emu"; }
  unsigned deviceCount() const override { return 1; }
  llvm::Expected<std::unique_ptr<BackendDevice>> openDevice(unsigned Ordinal) override {
    if (Ordinal != 0) return makeError(Errc::InvalidDevice, "the emulator has one device");
    return std::make_unique<EmuDevice>(O);
  }

private:
  EmuBackendOptions O;
};

} // namespace

llvm::Expected<std::unique_ptr<Backend>> createEmuBackend(const EmuBackendOptions &O) {
  if (!amdgpulower::findTarget(O.arch))
    return makeError(Errc::InvalidValue, "'" + O.arch + "' is not a target ptx2amd supports (PTX2AMD_ARCH)");
  return std::make_unique<EmuBackend>(O);
}

} // namespace runtime

//===- Emu.cpp - backend `emu`: amdgpu-emu behind the core's interface ------===//
//
// One device that runs the lowered LLVM module on the CPU (emu::Device).
// What it shares with the isa backend -- memory accounting, host-mapped
// memory mirrored around launches, limits, the printf sink, queues -- is
// runtime/core/EmulatedDevice. The emu::Device is created on first use, so
// heap and printf-FIFO limits set before that take effect. Each stream's
// queue launches from its own worker thread, and launches of different
// streams run at the same time (emu::Device::launch is thread-safe; the
// host-mapped mirrors are synchronised by difference, core/HostMirrors).
// Per-kernel properties (own static LDS, dynamic
// stack) are computed from the lowered module before it is handed over.
// emu returns typed errors (support/Error.h); core/ErrorTable maps them.
//
//===----------------------------------------------------------------------===//
#include "EmulatedDevice.h"
#include "ErrorTable.h"
#include "SingleDeviceBackend.h"

#include "runtime/Backend.h"
#include "runtime/Log.h"

#include "emu/Emu.h"
#include "ptxjit/Pipeline.h"
#include "support/Contract.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <map>
#include <mutex>

namespace runtime {
namespace {

class EmuModule final : public BackendModule {
public:
  EmuModule(emu::Device *Dev, emu::Module *M, std::map<std::string, std::pair<uint32_t, bool>> Own,
            std::map<std::string, uint64_t> GlobalSizes, std::shared_ptr<void> Keep)
      : M(M), Dev(Dev), Own(std::move(Own)), GlobalSizes(std::move(GlobalSizes)), Keep(std::move(Keep)) {}
  void releaseMemory() override { Dev->releaseModuleMemory(*M); }
  std::vector<std::string> kernelNames() const override { return M->kernelNames(); }
  llvm::Expected<KernelProperties> kernel(llvm::StringRef Name) override {
    auto I = M->kernel(Name);
    if (!I) return toRuntimeError(I.takeError(), Errc::InvalidDeviceFunction);
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
    K.maxThreadsPerBlock = (support::parseWarpPolicyName(I->warpPolicy) == support::WarpPolicy::Pad && I->waveSize == 64) ? support::kPadMaxBlockThreads
                                                                         : support::kMaxBlockThreads;
    K.numRegs = std::min<uint32_t>(I->registerSlots, 255);
    return K;
  }
  llvm::Expected<GlobalInfo> global(llvm::StringRef Name) override {
    auto A = M->globalAddress(Name);
    if (!A) return toRuntimeError(A.takeError(), Errc::InvalidSymbol);
    auto It = GlobalSizes.find(Name.str());
    return GlobalInfo{*A, It != GlobalSizes.end() ? It->second : 0};
  }
  emu::Module *M;

private:
  emu::Device *Dev; // outlives the module (the backend device owns both)
  std::map<std::string, std::pair<uint32_t, bool>> Own; // kernel -> own LDS, dynamic stack
  std::map<std::string, uint64_t> GlobalSizes;
  std::shared_ptr<void> Keep;
};

DeviceProperties emuProperties(const EmuBackendOptions &O) {
  DeviceProperties P;
  P.arch = O.arch;
  P.waveSize = support::waveSizeOf(O.arch);
  P.name = "ptx2amd amdgpu-emu (" + O.arch + ")";
  P.totalGlobalMem = emu::DeviceOptions{}.arenaBytes;
  return P;
}

class EmuDevice final : public EmulatedDevice {
public:
  explicit EmuDevice(const EmuBackendOptions &O)
      : EmulatedDevice(emuProperties(O), emu::DeviceOptions{}.heapBytes, emu::DeviceOptions{}.printfBufferBytes),
        Opts(O) {}
  ImageNeeds imageNeeds() const override { return {true, false}; }

  llvm::Expected<EmulatorMemory *> memory() override {
    std::lock_guard<std::mutex> G(Mu);
    if (D) return Mem.get();
    freezeLimits();
    emu::DeviceOptions O;
    O.threads = Opts.threads;
    O.maxWaveInstructions = Opts.maxWaveInstructions;
    O.heapBytes = heapBytes();
    O.printfBufferBytes = printfFifoBytes();
    O.printfSink = [this](llvm::StringRef T) { emitPrintf(T); };
    auto R = emu::Device::create(O);
    if (!R) return toRuntimeError(R.takeError(), Errc::NoDevice, "cannot create the emulated device: ");
    D = std::move(*R);
    Mem = std::make_unique<EmulatorMemoryOf<emu::Device>>(*D);
    return Mem.get();
  }

  llvm::Expected<std::unique_ptr<BackendModule>> loadModule(ModuleImage Image) override {
    if (!Image.lowered) return makeError(Errc::InvalidKernelImage, "emu: the image has no lowered LLVM module");
    auto M = memory();
    if (!M) return M.takeError();
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
    auto L = D->loadModule(std::move(Image.lowered), std::move(Image.context));
    if (!L)
      return toRuntimeError(L.takeError(), Errc::InvalidKernelImage, "emulator rejected the translated module: ");
    logger("emu")->debug("module loaded on the emulator: {} kernels, {} globals", Own.size(), GSizes.size());
    return std::make_unique<EmuModule>(D.get(), *L, std::move(Own), std::move(GSizes), std::move(Image.keepAlive));
  }

  llvm::Error launchKernel(BackendModule &BM, const KernelProperties &K, const LaunchParams &P,
                           const Kernarg &Args) override {
    auto M = memory();
    if (!M) return M.takeError();
    std::vector<void *> Ptrs(K.args.sizes.size());
    for (size_t I = 0; I < Ptrs.size(); ++I) Ptrs[I] = const_cast<void *>(Args.arg(I, K.args));
    if (llvm::Error E = syncToDevice(**M)) return E;
    emu::LaunchConfig C;
    C.grid = {P.grid.x, P.grid.y, P.grid.z};
    C.block = {P.block.x, P.block.y, P.block.z};
    C.dynamicLdsBytes = P.dynamicLdsBytes;
    C.kernelStaticLdsBytes = K.staticLdsBytes; // the kernel's own (checkLaunch checked it)
    C.cooperative = P.cooperative;
    if (P.printfSink) C.printfSink = &P.printfSink;
    llvm::Error E = D->launch(*static_cast<EmuModule &>(BM).M, K.name, C, Ptrs.data());
    llvm::Error W = syncFromDevice(**M);
    if (E) {
      llvm::consumeError(std::move(W));
      return launchError(std::move(E), K.name); // emu itself makes a trap after an assertion record an Assert
    }
    return W;
  }

private:
  EmuBackendOptions Opts;
  std::mutex Mu;
  std::unique_ptr<emu::Device> D;
  std::unique_ptr<EmulatorMemoryOf<emu::Device>> Mem;
};

} // namespace

llvm::Expected<std::unique_ptr<Backend>> createEmuBackend(const EmuBackendOptions &O) {
  if (!support::findTarget(O.arch))
    return makeError(Errc::InvalidValue, "'" + O.arch + "' is not a target ptx2amd supports (PTX2AMD_ARCH)");
  return std::make_unique<SingleDeviceBackend<EmuDevice, EmuBackendOptions>>("emu", O);
}

} // namespace runtime

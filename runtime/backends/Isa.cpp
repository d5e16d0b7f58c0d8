//===- Isa.cpp - backend `isa`: isa-emu (the machine-code emulator) ---------===//
//
// One device that runs the pipeline driver's code object (ET_DYN HSACO for
// the device's gfx target) on isa-emu, the CPU emulator of AMDGPU machine
// code. What it shares with the emu backend -- memory accounting (freed
// device memory goes back to isa-emu's arena for reuse), host-mapped memory
// mirrored around launches, limits, the printf sink, queues -- is
// runtime/core/EmulatedDevice. Kernel properties and the
// explicit kernarg layout come from the code object's metadata (the core's
// Kernarg then holds every explicit argument at its metadata offset); the
// warp policy from the lowered module's `ptx2amd.warp-policy` attribute.
// isa-emu fills the code-object-v5 hidden block itself by .value_kind (as
// HIP does), from the hardware geometry this backend passes (pad: 64 lanes
// per 32 threads, 1-D). The launcher-filled globals of translated code
// (docs/pipeline.md) are set at load: __ptx2amd_envreg (zeroes),
// __ptx2amd_printf_buffer (a per-module buffer, decoded by core/PrintfFifo),
// __ptx2amd_heap (a per-module heap header). A cooperative launch runs with
// the whole grid resident in isa-emu, and its grid-sync workspace
// (grid_workspace { u32 size; u32 barrier }, as emu lays it out) in
// %envreg1 (high half) / %envreg2 (low half) for its duration; the
// cooperative launches of one module take turns (the envreg holds one
// workspace). Launches of different streams run at the same time
// (isa-emu's launch is thread-safe); a module's printf FIFO is reset when
// its first in-flight launch starts and decoded when its last one ends. An
// unloaded module frees its buffers and its code object's image.
// isa-emu returns typed errors; core/ErrorTable maps them, and a trap after
// a failed assertion's printf record is an Assert.
//
//===----------------------------------------------------------------------===//
#include "EmulatedDevice.h"
#include "ErrorTable.h"
#include "SingleDeviceBackend.h"
#include "PrintfFifo.h"

#include "runtime/Backend.h"
#include "runtime/Log.h"

#include "isa-emu/IsaEmu.h"
#include "support/Contract.h"
#include "support/Error.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <cstring>
#include <map>
#include <mutex>

namespace runtime {
namespace {

class IsaModule final : public BackendModule {
public:
  IsaModule(isaemu::Device &Dev, std::mutex &DevMu, isaemu::Program *P, std::map<std::string, std::string> Policies,
            std::map<std::string, uint64_t> GlobalSizes, std::shared_ptr<void> Keep)
      : P(P), Dev(Dev), DevMu(DevMu), Policies(std::move(Policies)), GlobalSizes(std::move(GlobalSizes)),
        Keep(std::move(Keep)) {}
  // An unloaded module (cuModuleUnload, a context's end) gives back its
  // printf FIFO, heap and heap header and its code object's image. The
  // device outlives every module (runtime::Device destroys its contexts,
  // and so their modules, before its BackendDevice).
  ~IsaModule() override {
    std::lock_guard<std::mutex> G(DevMu);
    for (uint64_t A : {printfBuf, heapBuf, heapHdr})
      if (A)
        if (llvm::Error E = Dev.free(A)) logger("isa")->warn("unloading a module: {}", llvm::toString(std::move(E)));
    if (llvm::Error E = Dev.unloadProgram(P)) logger("isa")->warn("unloading a module: {}", llvm::toString(std::move(E)));
  }
  std::vector<std::string> kernelNames() const override { return P->kernelNames(); }
  llvm::Expected<KernelProperties> kernel(llvm::StringRef Name) override {
    auto I = P->kernel(Name);
    if (!I) return toRuntimeError(I.takeError(), Errc::InvalidDeviceFunction);
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
    if (support::parseWarpPolicyName(K.warpPolicy) == support::WarpPolicy::Pad && !K.args.sizes.empty()) { // the trailing <4 x i32> block dims are the launcher's
      K.args.blockDimOffset = int32_t(K.args.offsets.back());
      K.args.blockDimBytes = K.args.sizes.back();
      K.args.sizes.pop_back();
      K.args.offsets.pop_back();
    }
    K.args.explicitBytes = End;
    K.staticLdsBytes = KI.groupSegmentFixedSize;
    K.privateSegmentBytes = KI.privateSegmentFixedSize;
    K.dynamicStack = KI.usesDynamicStack;
    K.maxThreadsPerBlock =
        (support::parseWarpPolicyName(K.warpPolicy) == support::WarpPolicy::Pad && KI.waveSize == 64) ? support::kPadMaxBlockThreads : support::kMaxBlockThreads;
    K.numRegs = std::min<uint32_t>(KI.vgprCount, 255);
    return K;
  }
  llvm::Expected<GlobalInfo> global(llvm::StringRef Name) override {
    auto A = P->symbolAddress(Name);
    if (!A) return toRuntimeError(A.takeError(), Errc::InvalidSymbol);
    auto It = GlobalSizes.find(Name.str());
    return GlobalInfo{*A, It != GlobalSizes.end() ? It->second : 0};
  }
  isaemu::Program *P;
  // Launcher-filled globals (0: the module has none) and their backing.
  uint64_t envreg = 0, printfGlobal = 0, heapGlobal = 0;
  uint64_t printfBuf = 0, heapBuf = 0, heapHdr = 0;
  // Launches of this module now running (they share its printf FIFO).
  std::mutex launchMu;
  unsigned inFlight = 0;
  // Held by the module's cooperative launch now running (its workspace is in the envreg).
  std::mutex cooperativeMu;

private:
  isaemu::Device &Dev;
  std::mutex &DevMu; // the device's loader lock (IsaDevice::Mu)
  std::map<std::string, std::string> Policies;
  std::map<std::string, uint64_t> GlobalSizes;
  std::shared_ptr<void> Keep;
};

DeviceProperties isaProperties(const IsaBackendOptions &O, uint64_t ArenaBytes) {
  DeviceProperties P;
  P.arch = O.arch;
  P.waveSize = support::waveSizeOf(O.arch);
  P.name = "ptx2amd isa-emu (" + O.arch + ")";
  P.totalGlobalMem = ArenaBytes;
  return P;
}

class IsaDevice final : public EmulatedDevice {
public:
  static constexpr uint64_t ArenaBytes = 8ull << 30;
  explicit IsaDevice(const IsaBackendOptions &O)
      : EmulatedDevice(isaProperties(O, ArenaBytes), 8ull << 20, 1ull << 20), Opts(O) {}
  // The lowered module for the warp policies and globals' sizes.
  ImageNeeds imageNeeds() const override { return {true, true}; }

  llvm::Expected<EmulatorMemory *> memory() override {
    std::lock_guard<std::mutex> G(Mu);
    if (D) return Mem.get();
    isaemu::DeviceOptions O;
    O.threads = Opts.threads;
    O.maxWaveInstructions = Opts.maxWaveInstructions;
    O.arenaBytes = ArenaBytes;
    auto R = isaemu::Device::create(O);
    if (!R) return toRuntimeError(R.takeError(), Errc::NoDevice);
    D = std::move(*R);
    Mem = std::make_unique<EmulatorMemoryOf<isaemu::Device>>(*D);
    return Mem.get();
  }

  llvm::Expected<std::unique_ptr<BackendModule>> loadModule(ModuleImage Image) override {
    if (Image.codeObject.empty()) return makeError(Errc::InvalidKernelImage, "isa: the image has no code object");
    if (Image.arch != Props.arch)
      return makeError(Errc::InvalidKernelImage, "isa: code object for " + Image.arch + ", the device is " + Props.arch);
    auto Mv = memory();
    if (!Mv) return Mv.takeError();
    std::map<std::string, std::string> Pol;
    std::map<std::string, uint64_t> GSizes;
    if (Image.lowered) {
      for (llvm::Function &F : *Image.lowered) {
        if (F.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL || F.isDeclaration()) continue;
        llvm::Attribute A = F.getFnAttribute(support::attr::kWarpPolicy);
        Pol[F.getName().str()] = A.isStringAttribute() ? A.getValueAsString().str() : "";
      }
      for (llvm::GlobalVariable &GV : Image.lowered->globals())
        if (!GV.isDeclaration() && GV.getValueType()->isSized())
          GSizes[GV.getName().str()] = Image.lowered->getDataLayout().getTypeAllocSize(GV.getValueType());
    }
    isaemu::Program *P = nullptr;
    {
      std::lock_guard<std::mutex> G(Mu); // loadCodeObject is not reentrant
      auto L = D->loadCodeObject(llvm::ArrayRef<char>(reinterpret_cast<const char *>(Image.codeObject.data()),
                                                      Image.codeObject.size()));
      if (!L) return toRuntimeError(L.takeError(), Errc::InvalidKernelImage, "isa-emu rejected the code object: ");
      P = *L;
    }
    // From here on M owns the program (and what is allocated for it below).
    auto M = std::make_unique<IsaModule>(*D, Mu, P, std::move(Pol), std::move(GSizes), std::move(Image.keepAlive));
    for (const std::string &K : P->kernelNames()) {
      auto KI = P->kernel(K);
      if (!KI) return toRuntimeError(KI.takeError(), Errc::InvalidKernelImage);
      if ((*KI)->target != Props.arch)
        return makeError(Errc::InvalidKernelImage, "isa: kernel " + K + " is for " + (*KI)->target + ", the device is " +
                                                       Props.arch);
    }
    auto Sym = [&](const char *N) -> uint64_t {
      auto A = P->symbolAddress(N);
      if (A) return *A;
      llvm::consumeError(A.takeError());
      return 0;
    };
    M->envreg = Sym(support::global::kEnvReg);
    M->printfGlobal = Sym(support::global::kPrintfBuffer);
    M->heapGlobal = Sym(support::global::kHeap);
    freezeLimits(); // the buffers below have the sizes set until now
    std::lock_guard<std::mutex> G(Mu);
    if (M->printfGlobal) {
      auto B = D->malloc(printfFifoBytes() + support::printfrec::kHeaderBytes);
      if (!B) return toRuntimeError(B.takeError(), Errc::MemoryAllocation);
      M->printfBuf = *B;
    }
    if (M->heapGlobal) {
      auto H = D->malloc(heapBytes());
      if (!H) return toRuntimeError(H.takeError(), Errc::MemoryAllocation);
      M->heapBuf = *H;
      auto Hd = D->malloc(24);
      if (!Hd) return toRuntimeError(Hd.takeError(), Errc::MemoryAllocation);
      uint64_t Hdr[3] = {*H, heapBytes(), 0}; // { base, size, bump offset }
      if (llvm::Error E = D->copyToDevice(*Hd, Hdr, 24)) return toRuntimeError(std::move(E), Errc::MemoryAllocation);
      M->heapHdr = *Hd;
    }
    if (llvm::Error E = setGlobals(*M)) return E;
    logger("isa")->debug("code object loaded on isa-emu: {} kernels", P->kernelNames().size());
    return M;
  }

  llvm::Error launchKernel(BackendModule &BM, const KernelProperties &K, const LaunchParams &P,
                           const Kernarg &Args) override {
    auto Mv = memory();
    if (!Mv) return Mv.takeError();
    IsaModule &M = static_cast<IsaModule &>(BM);
    auto KI = M.P->kernel(K.name);
    if (!KI) return toRuntimeError(KI.takeError(), Errc::InvalidDeviceFunction);
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
    if (support::parseWarpPolicyName(K.warpPolicy) == support::WarpPolicy::Pad) { // one 64-lane wave per 32 threads, 1-D work-group
      C.block = {uint32_t(64 * ((P.block.count() + 31) / 32)), 1, 1};
    }
    C.dynamicLdsBytes = P.dynamicLdsBytes;
    C.dynamicPrivateBytes = uint32_t(std::max<uint64_t>(P.stackBytesPerThread, 1024));
    C.cooperative = P.cooperative;
    std::unique_lock<std::mutex> CoopTurn(M.cooperativeMu, std::defer_lock);
    auto Workspace = cooperativeWorkspace(M, P.cooperative, CoopTurn);
    if (!Workspace) return Workspace.takeError();
    if (llvm::Error E = syncToDevice(**Mv)) return E;
    if (llvm::Error E = beginLaunch(M)) return E;
    llvm::Error E = D->launch(*M.P, K.name, C, Ptrs.data());
    if (*Workspace) { // the next launches see no workspace
      uint8_t Z[8] = {};
      llvm::consumeError(D->copyToDevice(M.envreg + 4, Z, sizeof Z));
      llvm::consumeError(D->free(*Workspace));
    }
    llvm::Error W = syncFromDevice(**Mv);
    PrintfDrain Printed = endLaunch(M, bool(E), P.printfSink);
    if (E) {
      llvm::consumeError(std::move(W));
      return launchError(std::move(E), K.name, Printed.assertion);
    }
    return W;
  }

private:
  // A cooperative launch of a module that reads %envreg: takes the module's
  // turn (Turn) and puts a fresh grid-sync workspace into %envreg1/2; its
  // address (0: none needed).
  llvm::Expected<uint64_t> cooperativeWorkspace(IsaModule &M, bool Cooperative, std::unique_lock<std::mutex> &Turn) {
    if (!Cooperative || !M.envreg) return 0;
    Turn.lock();
    auto WS = D->malloc(256);
    if (!WS) return toRuntimeError(WS.takeError(), Errc::MemoryAllocation);
    uint32_t Hdr[2] = {8, 0}; // grid_workspace { wsSize; barrier }
    // CUDA's load_env_reg64<1, 2>: %envreg1 holds the high, %envreg2 the low half.
    uint32_t Env[2] = {uint32_t(*WS >> 32), uint32_t(*WS)};
    llvm::Error E = D->copyToDevice(*WS, Hdr, sizeof Hdr);
    if (!E) E = D->copyToDevice(M.envreg + 4, Env, sizeof Env);
    if (E) {
      llvm::consumeError(D->free(*WS));
      return toRuntimeError(std::move(E), Errc::Unknown);
    }
    return *WS;
  }
  // The launcher-filled globals of a module just loaded (no kernel reads them yet).
  llvm::Error setGlobals(IsaModule &M) {
    if (M.envreg) {
      uint8_t Z[128] = {};
      if (llvm::Error E = D->copyToDevice(M.envreg, Z, sizeof Z)) return toRuntimeError(std::move(E), Errc::Unknown);
    }
    if (M.printfGlobal)
      if (llvm::Error E = D->copyToDevice(M.printfGlobal, &M.printfBuf, 8)) return toRuntimeError(std::move(E), Errc::Unknown);
    if (M.heapGlobal)
      if (llvm::Error E = D->copyToDevice(M.heapGlobal, &M.heapHdr, 8)) return toRuntimeError(std::move(E), Errc::Unknown);
    return llvm::Error::success();
  }
  // A launch of M starts: the first of those in flight empties the printf FIFO.
  llvm::Error beginLaunch(IsaModule &M) {
    std::lock_guard<std::mutex> G(M.launchMu);
    if (M.inFlight == 0 && M.printfGlobal) {
      uint64_t Hdr[2] = {printfFifoBytes(), 0}; // { capacity, used }
      if (llvm::Error E = D->copyToDevice(M.printfBuf, Hdr, 16)) return toRuntimeError(std::move(E), Errc::Unknown);
    }
    ++M.inFlight;
    return llvm::Error::success();
  }
  // A launch of M ended: the last of those in flight emits the FIFO's
  // records. A failed launch with others still running only looks for its
  // assertion record (theirs may be incomplete; decoding stops there).
  // The text goes to the launch's context (Sink) when it names one.
  PrintfDrain endLaunch(IsaModule &M, bool Failed, const std::function<void(llvm::StringRef)> &Sink) {
    std::lock_guard<std::mutex> G(M.launchMu);
    bool Last = --M.inFlight == 0;
    if (!Last && !Failed) return {};
    PrintfDrain Printed = drainPrintf(M);
    if (Last) {
      if (!Sink) emitPrintf(Printed.text);
      else if (!Printed.text.empty()) Sink(Printed.text);
    }
    return Printed;
  }
  // The module's printf records, decoded.
  PrintfDrain drainPrintf(IsaModule &M) {
    if (!M.printfGlobal) return {};
    std::vector<uint8_t> B(printfFifoBytes() + support::printfrec::kHeaderBytes);
    if (llvm::Error E = D->copyFromDevice(B.data(), M.printfBuf, B.size())) {
      llvm::consumeError(std::move(E));
      return {};
    }
    return decodePrintfFifo(B, [&](uint64_t Addr, std::string &S) {
      S.clear();
      for (uint64_t I = 0; I < 65536; ++I) {
        char C;
        if (llvm::Error E = D->copyFromDevice(&C, Addr + I, 1)) {
          llvm::consumeError(std::move(E));
          return false;
        }
        if (!C) return true;
        S.push_back(C);
      }
      return true;
    });
  }

  IsaBackendOptions Opts;
  std::mutex Mu;
  std::unique_ptr<isaemu::Device> D;
  std::unique_ptr<EmulatorMemoryOf<isaemu::Device>> Mem;
};

} // namespace

llvm::Expected<std::unique_ptr<Backend>> createIsaBackend(const IsaBackendOptions &O) {
  if (!support::findTarget(O.arch)) return makeError(Errc::InvalidValue, "'" + O.arch + "' is not a target ptx2amd supports (PTX2AMD_ARCH)");
  if (O.arch != "gfx1100" && O.arch != "gfx90a" && O.arch != "gfx942")
    return makeError(Errc::InvalidValue, "isa: isa-emu runs gfx1100, gfx90a and gfx942 code objects, not " + O.arch);
  return std::make_unique<SingleDeviceBackend<IsaDevice, IsaBackendOptions>>("isa", O);
}

} // namespace runtime

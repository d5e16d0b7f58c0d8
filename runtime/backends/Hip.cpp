//===- Hip.cpp - backend `hip`: the ROCm HIP runtime, loaded with dlopen ----===//
//
// The HIP entry points are backends/HipApi (dlopen of libamdhip64, only
// ABI-stable calls). The agent's gfx name comes from the KFD topology
// (gfx_target_version of the GPU nodes); the code object is built for it and
// must match PTX2AMD_ARCH when that is set. Launches pass the explicit
// kernarg bytes through `extra` (BUFFER_POINTER 0x1, BUFFER_SIZE 0x2, END
// 0x3: HIP's END, not CUDA's 0); HIP fills the hidden block from the code
// object's metadata. Kernels under the pad warp policy run one 64-lane wave per
// 32 CUDA threads in a 1-D work-group (the CUDA block is their trailing
// kernarg). Cooperative launches use hipModuleLaunchCooperativeKernel
// (ROCm >= 5.5; kernelParams pointing into the explicit buffer) and are
// refused where it is missing. Each core stream owns one hipStream_t;
// finish() is hipStreamSynchronize. Device printf and the device heap of
// translated code: backends/HipModuleGlobals (a FIFO and a heap per module,
// the FIFO shared by the launches in flight, drained by the last to finish). Limits: the printf FIFO
// and heap sizes are ours (fixed once a module using them is loaded, as CUDA
// fixes them once a kernel ran); the stack size is hipDeviceSetLimit's where
// HIP has it (ROCm >= 5.3). HIP 5.2 gives a kernel the private segment its
// code object states (ROCclr 5.2.3 sets the dispatch's private_segment_size
// from the descriptor and ignores is_dynamic_callstack), so there a stack
// limit is recorded and such a kernel's maxStackBytes is that size (LLVM
// states its own frame plus 16 KiB for calls it cannot bound): the core's
// launch check refuses a larger limit with NotSupported, naming both sizes.
// `__managed__` module variables (hostAlias): core/HostMirrors over HIP
// memory (backends/HipMemory), synchronised on the launching stream before
// and after each launch while any exist.
//
//===----------------------------------------------------------------------===//
#include "CodeObjectImage.h"
#include "HipApi.h"
#include "HipMemory.h"
#include "HipModuleGlobals.h"
#include "HostMirrors.h"

#include "runtime/Backend.h"
#include "runtime/Log.h"

#include "ptxjit/Pipeline.h"
#include "support/Contract.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <sstream>

namespace runtime {
namespace {

using namespace hip;

// gfx names of the KFD GPU nodes, from gfx_target_version (e.g. 90010 -> gfx90a).
// $PTX2AMD_KFD_TOPOLOGY replaces the topology's nodes directory (a test aid).
std::vector<std::string> kfdGfxNames() {
  std::vector<std::string> Out;
  std::error_code EC;
  const char *Env = getenv("PTX2AMD_KFD_TOPOLOGY");
  std::filesystem::path Root(Env && *Env ? Env : "/sys/devices/virtual/kfd/kfd/topology/nodes");
  for (auto &E : std::filesystem::directory_iterator(Root, EC)) {
    std::ifstream F(E.path() / "properties");
    std::string K;
    uint64_t V;
    while (F >> K >> V)
      if (K == "gfx_target_version" && V) {
        unsigned Maj = unsigned(V / 10000), Min = unsigned(V / 100 % 100), Step = unsigned(V % 100);
        std::ostringstream S;
        S << "gfx" << Maj << std::hex << Min << Step;
        Out.push_back(S.str());
      }
  }
  return Out;
}

// Explicit kernarg layout of a kernel in the lowered module (each argument at
// its ABI alignment; byref aggregates at their stated alignment), as the
// AMDGPU backend lays out the code object's .args.
KernelArgLayout layoutOf(const llvm::Function &F, bool Pad) {
  KernelArgLayout L;
  const llvm::DataLayout &DL = F.getDataLayout();
  uint64_t Off = 0;
  for (const llvm::Argument &A : F.args()) {
    llvm::Type *T = A.getType();
    uint64_t Size, Align;
    if (llvm::Type *BT = A.getParamByRefType()) {
      Size = DL.getTypeAllocSize(BT);
      Align = A.getParamAlign().valueOrOne().value();
    } else {
      Size = DL.getTypeAllocSize(T);
      Align = DL.getABITypeAlign(T).value();
    }
    Off = (Off + Align - 1) / Align * Align;
    L.sizes.push_back(uint32_t(Size));
    L.offsets.push_back(uint32_t(Off));
    Off += Size;
  }
  if (Pad && !L.sizes.empty()) { // the trailing <4 x i32> block dims are the launcher's
    L.blockDimOffset = int32_t(L.offsets.back());
    L.blockDimBytes = L.sizes.back();
    L.sizes.pop_back();
    L.offsets.pop_back();
  }
  L.explicitBytes = uint32_t(Off);
  return L;
}

class HipModule final : public BackendModule {
public:
  HipModule(const HipApi &A, hipModule M, std::map<std::string, KernelProperties> K, CodeObjectImage Image)
      : A(A), M(M), Ks(std::move(K)), Image(std::move(Image)) {}
  std::vector<std::string> kernelNames() const override {
    std::vector<std::string> V;
    for (auto &[N, K] : Ks) V.push_back(N);
    return V;
  }
  llvm::Expected<KernelProperties> kernel(llvm::StringRef Name) override {
    auto It = Ks.find(Name.str());
    if (It == Ks.end()) return makeError(Errc::InvalidDeviceFunction, "hip: no kernel named '" + Name + "'");
    return It->second;
  }
  llvm::Expected<GlobalInfo> global(llvm::StringRef Name) override {
    void *P = nullptr;
    size_t N = 0;
    if (A.ModuleGetGlobal(&P, &N, M, Name.str().c_str()) != 0)
      return makeError(Errc::InvalidSymbol, "hip: no global named '" + Name + "'");
    return GlobalInfo{reinterpret_cast<uint64_t>(P), N};
  }
  llvm::Expected<hipFunction> function(const std::string &Name) {
    hipFunction F = nullptr;
    if (llvm::Error E = hipErr(A, A.ModuleGetFunction(&F, M, Name.c_str()), "hipModuleGetFunction")) return E;
    return F;
  }
  // The printf FIFO and heap (set up once the module is loaded).
  llvm::Error setUpGlobals(uint64_t FifoBytes, uint64_t HeapBytes) {
    auto G = HipModuleGlobals::create(A, M, Image, FifoBytes, HeapBytes);
    if (!G) return G.takeError();
    Globals = std::move(*G);
    return llvm::Error::success();
  }
  HipModuleGlobals &globals() { return *Globals; }

private:
  const HipApi &A;
  hipModule M;
  std::map<std::string, KernelProperties> Ks;
  CodeObjectImage Image;
  std::unique_ptr<HipModuleGlobals> Globals;
};

// What a queue needs of its device: the printf sink and whether HIP sets the stack size.
struct HipDeviceServices {
  std::function<void(llvm::StringRef)> emitPrintf;
  bool hipSetsStack = false;
  HostMirrors *mirrors = nullptr; // host aliases of __managed__ module variables
};

class HipQueue final : public BackendQueue {
public:
  HipQueue(const HipApi &A, hipStream S, const HipDeviceServices &Dev) : A(A), S(S), Dev(Dev) {}
  ~HipQueue() override { A.StreamDestroy(S); }
  llvm::Error launch(BackendModule &BM, const KernelProperties &K, const LaunchParams &P,
                     const Kernarg &Args) override {
    HipModule &M = static_cast<HipModule &>(BM);
    auto F = M.function(K.name);
    if (!F) return F.takeError();
    HipModuleGlobals &G = M.globals();
    HipStreamMemory Mem(A, S);
    bool Mirrored = !Dev.mirrors->empty();
    if (Mirrored)
      if (llvm::Error E = Dev.mirrors->toDevice(Mem)) return E;
    if (llvm::Error E = G.beginLaunch(S)) return E;
    llvm::Error Done = submit(*F, K, P, Args);
    if (!Done) Done = finish();
    if (Mirrored && !Done) Done = Dev.mirrors->fromDevice(Mem);
    PrintfDrain Printed = G.endLaunch(S, bool(Done));
    if (!Printed.text.empty()) Dev.emitPrintf(Printed.text);
    if (Done && Printed.assertion) {
      std::string Msg;
      takeErrc(std::move(Done), &Msg);
      return makeError(Errc::Assert, "kernel '" + K.name + "': device-side assertion failed (" + Msg + ")");
    }
    return Done;
  }
  llvm::Error copy(uint64_t Dst, uint64_t Src, uint64_t Bytes, CopyDir) override {
    return hipErr(A, A.MemcpyAsync(reinterpret_cast<void *>(Dst), reinterpret_cast<const void *>(Src), Bytes,
                                   MemcpyDefault, S),
                  "hipMemcpyAsync");
  }
  llvm::Error memset(uint64_t Dst, int V, uint64_t Bytes) override {
    return hipErr(A, A.MemsetAsync(reinterpret_cast<void *>(Dst), V, Bytes, S), "hipMemsetAsync");
  }
  llvm::Error finish() override {
    hipError E = A.StreamSynchronize(S);
    if (E == 0) return llvm::Error::success();
    llvm::Error R = hipErr(A, E, "kernel execution");
    std::string Msg;
    takeErrc(std::move(R), &Msg);
    return makeError(Errc::LaunchFailure, Msg);
  }

private:
  // Enqueues the launch on S; the kernarg buffer is copied by HIP at submission
  // (ROCclr captures the arguments when the command is built).
  llvm::Error submit(hipFunction F, const KernelProperties &K, const LaunchParams &LP, const Kernarg &Args) {
    LaunchParams P = LP;
    if (support::parseWarpPolicyName(K.warpPolicy) == support::WarpPolicy::Pad) // one 64-lane wave per 32 CUDA threads, a 1-D work-group (the kernarg has the CUDA block)
      P.block = {uint32_t(support::workItemsFor(LP.block.count(), support::WarpPolicy::Pad)), 1, 1};
    std::vector<uint8_t> Buf(Args.bytes.begin(), Args.bytes.begin() + Args.explicitBytes);
    if (P.cooperative) {
      if (!A.ModuleLaunchCooperativeKernel)
        return makeError(Errc::NotSupported, "hip: cooperative launches need hipModuleLaunchCooperativeKernel "
                                             "(ROCm >= 5.5); this HIP runtime lacks it");
      // kernelParams: one pointer per explicit parameter of the code object, into our buffer.
      std::vector<std::pair<uint32_t, void *>> ByOffset;
      for (size_t I = 0; I < K.args.offsets.size(); ++I)
        ByOffset.push_back({K.args.offsets[I], Buf.data() + K.args.offsets[I]});
      if (K.args.blockDimOffset >= 0)
        ByOffset.push_back({uint32_t(K.args.blockDimOffset), Buf.data() + K.args.blockDimOffset});
      std::sort(ByOffset.begin(), ByOffset.end());
      std::vector<void *> Params;
      for (auto &[Off, Ptr] : ByOffset) Params.push_back(Ptr);
      return hipErr(A, A.ModuleLaunchCooperativeKernel(F, P.grid.x, P.grid.y, P.grid.z, P.block.x, P.block.y,
                                                       P.block.z, P.dynamicLdsBytes, S, Params.data()),
                    "hipModuleLaunchCooperativeKernel");
    }
    size_t Size = Buf.size();
    void *Extra[] = {reinterpret_cast<void *>(1), Buf.data(), reinterpret_cast<void *>(2), &Size,
                     reinterpret_cast<void *>(3)};
    return hipErr(A, A.ModuleLaunchKernel(F, P.grid.x, P.grid.y, P.grid.z, P.block.x, P.block.y, P.block.z,
                                          P.dynamicLdsBytes, S, nullptr, Extra),
                  "hipModuleLaunchKernel");
  }

  const HipApi &A;
  hipStream S;
  const HipDeviceServices &Dev;
};

class HipDevice final : public BackendDevice {
public:
  HipDevice(const HipApi &A, int Ordinal, DeviceProperties P) : A(A), Ordinal(Ordinal), Props(std::move(P)) {
    Services.hipSetsStack = A.DeviceSetLimit != nullptr;
    Services.emitPrintf = [this](llvm::StringRef T) { emitPrintf(T); };
    Services.mirrors = &Mirrors;
  }
  const DeviceProperties &properties() const override { return Props; }
  // The module for the argument layout; code object v4 for HIP before 6.0:
  // HIP 5.2's hipModuleLoadData refuses v5 objects (hipErrorSharedObjectInitFailed,
  // seen on Debian's 5.2.3 under vgpu).
  ImageNeeds imageNeeds() const override {
    int V = 0;
    unsigned Cov = A.RuntimeGetVersion(&V) == 0 && V > 0 && V < 60000000 ? 4 : 0;
    return {true, true, Cov};
  }
  llvm::Expected<std::unique_ptr<BackendModule>> loadModule(ModuleImage I) override {
    if (I.codeObject.empty()) return makeError(Errc::InvalidKernelImage, "hip: the image has no code object");
    if (I.arch != Props.arch)
      return makeError(Errc::InvalidKernelImage, "hip: code object for " + I.arch + ", the GPU is " + Props.arch);
    auto Image = CodeObjectImage::parse(I.codeObject);
    if (!Image) return Image.takeError();
    std::map<std::string, KernelProperties> Ks;
    if (I.lowered) {
      for (llvm::Function &F : *I.lowered) {
        if (F.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL || F.isDeclaration()) continue;
        KernelProperties K;
        K.name = F.getName().str();
        K.waveSize = Props.waveSize;
        llvm::Attribute Pol = F.getFnAttribute(support::attr::kWarpPolicy);
        K.warpPolicy = Pol.isStringAttribute() ? Pol.getValueAsString().str() : "";
        const bool Pad = support::parseWarpPolicyName(K.warpPolicy) == support::WarpPolicy::Pad;
        K.args = layoutOf(F, Pad);
        K.maxThreadsPerBlock = Pad ? support::kPadMaxBlockThreads : support::kMaxBlockThreads;
        K.staticLdsBytes = uint32_t(ptxjit::kernelStaticLdsBytes(*I.lowered, F.getName()));
        K.dynamicStack = ptxjit::kernelNeedsDynamicStack(*I.lowered, F.getName());
        K.privateSegmentBytes = Image->privateSegmentFixedSize(K.name).value_or(0);
        if (K.dynamicStack && !Services.hipSetsStack) {
          K.maxStackBytes = K.privateSegmentBytes;
          K.stackLimitReason = "the private segment its code object states; HIP sets the stack size with "
                               "hipDeviceSetLimit, which this HIP runtime lacks (ROCm >= 5.3)";
        }
        Ks[K.name] = std::move(K);
      }
    }
    hipModule M = nullptr;
    if (llvm::Error E = hipErr(A, A.ModuleLoadData(&M, I.codeObject.data()), "hipModuleLoadData")) return E;
    auto HM = std::make_unique<HipModule>(A, M, std::move(Ks), std::move(*Image));
    std::lock_guard<std::mutex> G(LimitMu);
    if (llvm::Error E = HM->setUpGlobals(Limits[int(Limit::PrintfFifoSize)], Limits[int(Limit::MallocHeapSize)]))
      return E;
    if (HM->globals().hasPrintf() || HM->globals().hasHeap()) GlobalsFixed = true;
    return HM;
  }
  llvm::Expected<uint64_t> allocDevice(uint64_t Bytes) override {
    void *P = nullptr;
    if (llvm::Error E = hipErr(A, A.Malloc(&P, Bytes), "hipMalloc")) return E;
    return reinterpret_cast<uint64_t>(P);
  }
  llvm::Error freeDevice(uint64_t P) override { return hipErr(A, A.Free(reinterpret_cast<void *>(P)), "hipFree"); }
  llvm::Expected<uint64_t> allocHost(uint64_t Bytes, HostMemKind K) override {
    void *P = nullptr;
    hipError E = K == HostMemKind::Pinned ? A.HostMalloc(&P, Bytes, 0) : A.MallocManaged(&P, Bytes, 1);
    if (llvm::Error R = hipErr(A, E, "host allocation")) return R;
    Managed[reinterpret_cast<uint64_t>(P)] = K == HostMemKind::Managed;
    return reinterpret_cast<uint64_t>(P);
  }
  llvm::Error freeHost(uint64_t P) override {
    bool M = Managed[P];
    Managed.erase(P);
    return hipErr(A, M ? A.Free(reinterpret_cast<void *>(P)) : A.HostFree(reinterpret_cast<void *>(P)), "free");
  }
  llvm::Expected<std::unique_ptr<BackendQueue>> createQueue() override {
    hipStream S = nullptr;
    if (llvm::Error E = hipErr(A, A.StreamCreate(&S), "hipStreamCreate")) return E;
    return std::make_unique<HipQueue>(A, S, Services);
  }
  llvm::Error setLimit(Limit L, uint64_t V) override {
    std::lock_guard<std::mutex> G(LimitMu);
    if (L != Limit::StackSize) { // our printf FIFO / heap buffers
      if (GlobalsFixed)
        return makeError(Errc::InvalidValue, "the heap and printf FIFO sizes are fixed once a module using them is loaded");
      Limits[int(L)] = V;
      return llvm::Error::success();
    }
    if (A.DeviceSetLimit)
      if (llvm::Error E = hipErr(A, A.DeviceSetLimit(0 /*hipLimitStackSize*/, V), "hipDeviceSetLimit")) return E;
    Limits[int(L)] = V; // without hipDeviceSetLimit: checked at each launch (HipQueue::launch)
    return llvm::Error::success();
  }
  uint64_t limit(Limit L) const override {
    std::lock_guard<std::mutex> G(LimitMu);
    return Limits.at(int(L));
  }
  void setPrintfSink(std::function<void(llvm::StringRef)> S) override {
    std::lock_guard<std::mutex> G(SinkMu);
    Sink = std::move(S);
  }
  llvm::Expected<uint64_t> hostAlias(uint64_t DeviceAddr, uint64_t Bytes) override {
    HipStreamMemory Mem(A, nullptr);
    return Mirrors.alias(Mem, DeviceAddr, Bytes);
  }
  std::pair<uint64_t, uint64_t> memInfo() const override {
    size_t F = 0, T = 0;
    A.MemGetInfo(&F, &T);
    return {F, T};
  }

private:
  const HipApi &A;
  int Ordinal;
  DeviceProperties Props;
  // Device printf text: to the core's sink, else stdout.
  void emitPrintf(llvm::StringRef Text) {
    std::lock_guard<std::mutex> G(SinkMu);
    if (Sink) Sink(Text);
    else fwrite(Text.data(), 1, Text.size(), stdout);
  }

  std::map<uint64_t, bool> Managed;
  mutable std::mutex LimitMu;
  // CUDA's defaults: 1 KiB stack, 8 MiB heap, 1 MiB printf FIFO.
  std::map<int, uint64_t> Limits{
      {int(Limit::StackSize), 1024}, {int(Limit::MallocHeapSize), 8u << 20}, {int(Limit::PrintfFifoSize), 1u << 20}};
  bool GlobalsFixed = false;
  std::mutex SinkMu;
  std::function<void(llvm::StringRef)> Sink;
  HostMirrors Mirrors;
  HipDeviceServices Services;
};

class HipBackend final : public Backend {
public:
  HipBackend(HipApi A, int Count, std::string Arch) : A(A), Count(Count), Arch(std::move(Arch)) {}
  ~HipBackend() override = default; // the library stays loaded (HIP's own atexit handlers)
  llvm::StringRef name() const override { return "hip"; }
  unsigned deviceCount() const override { return unsigned(Count); }
  llvm::Expected<std::unique_ptr<BackendDevice>> openDevice(unsigned Ordinal) override {
    if (int(Ordinal) >= Count) return makeError(Errc::InvalidDevice, "hip: no device " + std::to_string(Ordinal));
    if (llvm::Error E = hipErr(A, A.SetDevice(int(Ordinal)), "hipSetDevice")) return E;
    DeviceProperties P;
    auto Attr = [&](int Which, int Default) {
      int V = 0;
      return A.DeviceGetAttribute(&V, Which, int(Ordinal)) == 0 ? V : Default;
    };
    P.arch = Arch;
    P.name = "AMD " + Arch + " (HIP)";
    P.waveSize = unsigned(Attr(AttrWarpSize, 64));
    P.multiProcessorCount = unsigned(Attr(AttrMultiprocessorCount, 1));
    P.maxThreadsPerBlock = unsigned(Attr(AttrMaxThreadsPerBlock, 1024));
    P.sharedMemPerBlock = uint32_t(Attr(AttrMaxSharedMemoryPerBlock, 65536));
    P.sharedMemPerMultiprocessor = P.sharedMemPerBlock;
    P.clockRateKHz = unsigned(Attr(AttrClockRate, 0));
    P.pciBusId = unsigned(Attr(AttrPciBusId, 0));
    P.pciDeviceId = unsigned(Attr(AttrPciDeviceId, 0));
    size_t F = 0, T = 0;
    A.MemGetInfo(&F, &T);
    P.totalGlobalMem = T;
    P.cooperativeLaunch = A.ModuleLaunchCooperativeKernel != nullptr;
    return std::make_unique<HipDevice>(A, int(Ordinal), std::move(P));
  }

private:
  HipApi A;
  int Count;
  std::string Arch;
};

} // namespace

llvm::Expected<std::unique_ptr<Backend>> createHipBackend(const HipBackendOptions &O) {
  auto A = loadApi(O.library);
  if (!A) return A.takeError();
  // The target first (the KFD topology needs no HIP call), then HIP's own view.
  std::vector<std::string> Gfx = kfdGfxNames();
  if (Gfx.empty()) return makeError(Errc::NoDevice, "hip: no AMD GPU available (the KFD topology lists no GPU node)");
  for (const std::string &G : Gfx)
    if (G != Gfx[0])
      return makeError(Errc::NotSupported, "hip: GPUs of different targets (" + Gfx[0] + ", " + G + ") in one process");
  if (!O.arch.empty() && O.arch != Gfx[0])
    return makeError(Errc::InvalidValue, "hip: the GPU is " + Gfx[0] + " but the requested target is " + O.arch);
  if (hipError E = A->Init(0); E != 0)
    return makeError(Errc::NoDevice, "hip: no AMD GPU available (hipInit returned " + std::to_string(E) + ")");
  int Count = 0;
  if (A->GetDeviceCount(&Count) != 0 || Count <= 0)
    return makeError(Errc::NoDevice, "hip: no AMD GPU available (hipGetDeviceCount found none)");
  return std::make_unique<HipBackend>(std::move(*A), Count, Gfx[0]);
}

} // namespace runtime

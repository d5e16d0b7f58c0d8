//===- Hip.cpp - backend `hip`: the ROCm HIP runtime, loaded with dlopen ----===//
//
// Uses only entry points whose ABI did not change in ROCm 6 (attribute
// queries instead of hipGetDeviceProperties). The library is
// $PTX2AMD_HIP_LIBRARY, else libamdhip64.so / .so.6 / .so.5. The agent's gfx
// name comes from the KFD topology (gfx_target_version of the GPU nodes);
// the code object is built for it and must match PTX2AMD_ARCH when that is
// set. Launches pass the explicit kernarg bytes through `extra`
// (BUFFER_POINTER 0x1, BUFFER_SIZE 0x2, END 0x3: HIP's END, not CUDA's 0);
// HIP fills the hidden block from the code object's metadata. Cooperative
// launches use hipModuleLaunchCooperativeKernel (ROCm >= 5.5; kernelParams
// pointing into the explicit buffer) and are refused where it is missing. Each core stream owns one hipStream_t;
// finish() is hipStreamSynchronize. Device printf and the device heap of
// translated code are not drained on this backend yet: a module that uses
// them loads with a warning.
//
//===----------------------------------------------------------------------===//
#include "runtime/Backend.h"
#include "runtime/Log.h"

#include "ptxjit/Pipeline.h"

#include "llvm/IR/DataLayout.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace runtime {
namespace {

using hipError = int;
using hipStream = void *;
using hipModule = void *;
using hipFunction = void *;

struct HipApi {
  void *Lib = nullptr;
  hipError (*Init)(unsigned) = nullptr;
  hipError (*GetDeviceCount)(int *) = nullptr;
  hipError (*SetDevice)(int) = nullptr;
  hipError (*DeviceGetAttribute)(int *, int, int) = nullptr;
  hipError (*ModuleLoadData)(hipModule *, const void *) = nullptr;
  hipError (*ModuleGetFunction)(hipFunction *, hipModule, const char *) = nullptr;
  hipError (*ModuleGetGlobal)(void **, size_t *, hipModule, const char *) = nullptr;
  hipError (*ModuleLaunchKernel)(hipFunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                 hipStream, void **, void **) = nullptr;
  hipError (*Malloc)(void **, size_t) = nullptr;
  hipError (*Free)(void *) = nullptr;
  hipError (*HostMalloc)(void **, size_t, unsigned) = nullptr;
  hipError (*HostFree)(void *) = nullptr;
  hipError (*MallocManaged)(void **, size_t, unsigned) = nullptr;
  hipError (*MemcpyAsync)(void *, const void *, size_t, int, hipStream) = nullptr;
  hipError (*MemsetAsync)(void *, int, size_t, hipStream) = nullptr;
  hipError (*StreamCreate)(hipStream *) = nullptr;
  hipError (*StreamSynchronize)(hipStream) = nullptr;
  hipError (*StreamDestroy)(hipStream) = nullptr;
  hipError (*MemGetInfo)(size_t *, size_t *) = nullptr;
  hipError (*DeviceSetLimit)(int, size_t) = nullptr;
  const char *(*GetErrorName)(hipError) = nullptr;
  hipError (*RuntimeGetVersion)(int *) = nullptr;
  // ROCm >= 5.5 (optional): cooperative launches take kernelParams only.
  hipError (*ModuleLaunchCooperativeKernel)(hipFunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                            unsigned, hipStream, void **) = nullptr;
};

// hipDeviceAttribute_t values (stable since ROCm 5.0).
enum : int {
  AttrMaxThreadsPerBlock = 56, AttrMultiprocessorCount = 63, AttrMaxSharedMemoryPerBlock = 74,
  AttrClockRate = 5, AttrTotalGlobalMem = 84, AttrPciBusId = 66, AttrPciDeviceId = 67, AttrWarpSize = 87,
};
enum : int { MemcpyDefault = 4 };

llvm::Error hipErr(const HipApi &A, hipError E, const char *What) {
  if (E == 0) return llvm::Error::success();
  const char *Name = A.GetErrorName ? A.GetErrorName(E) : nullptr;
  return makeError(E == 2 ? Errc::MemoryAllocation : Errc::Unknown,
                   std::string("hip: ") + What + " failed: " + (Name ? Name : "") + " (" + std::to_string(E) + ")");
}

llvm::Expected<HipApi> loadApi(std::string Lib) {
  HipApi A;
  std::vector<std::string> Names;
  if (!Lib.empty()) Names.push_back(Lib);
  else if (const char *E = getenv("PTX2AMD_HIP_LIBRARY"); E && *E) Names.push_back(E);
  else Names = {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"};
  std::string Tried;
  for (const std::string &N : Names) {
    A.Lib = dlopen(N.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (A.Lib) break;
    Tried += (Tried.empty() ? "" : "; ") + std::string(dlerror());
  }
  if (!A.Lib) return makeError(Errc::BackendUnavailable, "hip: cannot load the HIP runtime (" + Tried + ")");
  std::string Missing;
  auto Get = [&](auto &Fn, const char *Sym) {
    Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(dlsym(A.Lib, Sym));
    if (!Fn) Missing += std::string(Missing.empty() ? "" : ", ") + Sym;
  };
  Get(A.Init, "hipInit");
  Get(A.GetDeviceCount, "hipGetDeviceCount");
  Get(A.SetDevice, "hipSetDevice");
  Get(A.DeviceGetAttribute, "hipDeviceGetAttribute");
  Get(A.ModuleLoadData, "hipModuleLoadData");
  Get(A.ModuleGetFunction, "hipModuleGetFunction");
  Get(A.ModuleGetGlobal, "hipModuleGetGlobal");
  Get(A.ModuleLaunchKernel, "hipModuleLaunchKernel");
  Get(A.Malloc, "hipMalloc");
  Get(A.Free, "hipFree");
  Get(A.HostMalloc, "hipHostMalloc");
  Get(A.HostFree, "hipHostFree");
  Get(A.MallocManaged, "hipMallocManaged");
  Get(A.MemcpyAsync, "hipMemcpyAsync");
  Get(A.MemsetAsync, "hipMemsetAsync");
  Get(A.StreamCreate, "hipStreamCreate");
  Get(A.StreamSynchronize, "hipStreamSynchronize");
  Get(A.StreamDestroy, "hipStreamDestroy");
  Get(A.MemGetInfo, "hipMemGetInfo");
  A.DeviceSetLimit = reinterpret_cast<decltype(A.DeviceSetLimit)>(dlsym(A.Lib, "hipDeviceSetLimit")); // ROCm >= 5.3
  A.ModuleLaunchCooperativeKernel = reinterpret_cast<decltype(A.ModuleLaunchCooperativeKernel)>(
      dlsym(A.Lib, "hipModuleLaunchCooperativeKernel")); // ROCm >= 5.5
  Get(A.GetErrorName, "hipGetErrorName");
  Get(A.RuntimeGetVersion, "hipRuntimeGetVersion");
  if (!Missing.empty()) {
    dlclose(A.Lib);
    return makeError(Errc::BackendUnavailable, "hip: the HIP runtime lacks " + Missing);
  }
  return A;
}

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
  HipModule(const HipApi &A, hipModule M, std::map<std::string, KernelProperties> K) : A(A), M(M), Ks(std::move(K)) {}
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

private:
  const HipApi &A;
  hipModule M;
  std::map<std::string, KernelProperties> Ks;
};

class HipQueue final : public BackendQueue {
public:
  HipQueue(const HipApi &A, hipStream S) : A(A), S(S) {}
  ~HipQueue() override { A.StreamDestroy(S); }
  llvm::Error launch(BackendModule &M, const KernelProperties &K, const LaunchParams &P,
                     const Kernarg &Args) override {
    auto F = static_cast<HipModule &>(M).function(K.name);
    if (!F) return F.takeError();
    if (P.cooperative) {
      if (!A.ModuleLaunchCooperativeKernel)
        return makeError(Errc::NotSupported, "hip: cooperative launches need hipModuleLaunchCooperativeKernel "
                                             "(ROCm >= 5.5); this HIP runtime lacks it");
      // kernelParams: one pointer per explicit parameter of the code object, into our buffer.
      std::vector<uint8_t> Buf(Args.bytes.begin(), Args.bytes.begin() + Args.explicitBytes);
      std::vector<std::pair<uint32_t, void *>> ByOffset;
      for (size_t I = 0; I < K.args.offsets.size(); ++I)
        ByOffset.push_back({K.args.offsets[I], Buf.data() + K.args.offsets[I]});
      if (K.args.blockDimOffset >= 0)
        ByOffset.push_back({uint32_t(K.args.blockDimOffset), Buf.data() + K.args.blockDimOffset});
      std::sort(ByOffset.begin(), ByOffset.end());
      std::vector<void *> Params;
      for (auto &[Off, Ptr] : ByOffset) Params.push_back(Ptr);
      if (llvm::Error E = hipErr(A, A.ModuleLaunchCooperativeKernel(*F, P.grid.x, P.grid.y, P.grid.z, P.block.x,
                                                                   P.block.y, P.block.z, P.dynamicLdsBytes, S,
                                                                   Params.data()),
                                 "hipModuleLaunchCooperativeKernel"))
        return E;
      return finish();
    }
    std::vector<uint8_t> Buf(Args.bytes.begin(), Args.bytes.begin() + Args.explicitBytes);
    size_t Size = Buf.size();
    void *Extra[] = {reinterpret_cast<void *>(1), Buf.data(), reinterpret_cast<void *>(2), &Size,
                     reinterpret_cast<void *>(3)};
    if (llvm::Error E = hipErr(A, A.ModuleLaunchKernel(*F, P.grid.x, P.grid.y, P.grid.z, P.block.x, P.block.y,
                                                      P.block.z, P.dynamicLdsBytes, S, nullptr, Extra),
                               "hipModuleLaunchKernel"))
      return E;
    return finish(); // Buf must live until the launch has read it
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
  const HipApi &A;
  hipStream S;
};

class HipDevice final : public BackendDevice {
public:
  HipDevice(const HipApi &A, int Ordinal, DeviceProperties P) : A(A), Ordinal(Ordinal), Props(std::move(P)) {}
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
    std::map<std::string, KernelProperties> Ks;
    if (I.lowered) {
      if (I.lowered->getGlobalVariable(support::global::kPrintfBuffer, true) ||
          I.lowered->getGlobalVariable(support::global::kHeap, true))
        logger("hip")->warn("device printf / malloc output of translated code is not drained on the hip backend yet");
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
        Ks[K.name] = std::move(K);
      }
    }
    hipModule M = nullptr;
    if (llvm::Error E = hipErr(A, A.ModuleLoadData(&M, I.codeObject.data()), "hipModuleLoadData")) return E;
    return std::make_unique<HipModule>(A, M, std::move(Ks));
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
    return std::make_unique<HipQueue>(A, S);
  }
  llvm::Error setLimit(Limit L, uint64_t V) override {
    int HL = L == Limit::StackSize ? 0 : L == Limit::PrintfFifoSize ? 1 : 2; // hipLimitStackSize, PrintfFifo, MallocHeap
    if (!A.DeviceSetLimit)
      return makeError(Errc::NotSupported, "hip: this HIP runtime has no hipDeviceSetLimit (ROCm < 5.3)");
    Limits[int(L)] = V;
    return hipErr(A, A.DeviceSetLimit(HL, V), "hipDeviceSetLimit");
  }
  uint64_t limit(Limit L) const override {
    auto It = Limits.find(int(L));
    return It != Limits.end() ? It->second : L == Limit::StackSize ? 1024 : (8u << 20);
  }
  void setPrintfSink(std::function<void(llvm::StringRef)>) override {}
  std::pair<uint64_t, uint64_t> memInfo() const override {
    size_t F = 0, T = 0;
    A.MemGetInfo(&F, &T);
    return {F, T};
  }

private:
  const HipApi &A;
  int Ordinal;
  DeviceProperties Props;
  std::map<uint64_t, bool> Managed;
  std::map<int, uint64_t> Limits;
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

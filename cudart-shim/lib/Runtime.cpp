//===- Runtime.cpp - libcudart.so.13 replacement over ptxjit + amdgpu-emu --===//
//
// Implements the CUDA runtime entry points that nvcc 13 host code and the
// corpus programs call (formats.md section 2): fat binary / function /
// variable registration, the push/pop/__cudaGetKernel/__cudaLaunchKernel
// launch path, cudaLaunchKernel(ExC)/cudaLaunchCooperativeKernel, device
// memory, symbols, device and function queries, streams and events
// (execution is synchronous), and error reporting. Each registered fat binary
// is translated lazily, on the first launch or symbol access, by ptxjit for
// the emulated target chosen by PTX2AMD_ARCH (default gfx1100) and
// PTX2AMD_WARP_POLICY (pack|pad[,KERNEL=pack|pad...], wave64 only), then loaded on one emu device.
// Device pointers are emulator addresses; cudaMallocHost/HostAlloc/
// MallocManaged memory is "mirrored": a host mapping placed at the same
// address as its device allocation, copied to the device before every launch
// and back after it, so one pointer value works on both sides. All mutable
// state is the registry below, behind one mutex (launches run under it).
//
//===----------------------------------------------------------------------===//
#include <cuda_runtime_api.h>

#include "emu/Emu.h"
#include "fatbin/Fatbin.h"
#include "ptxjit/Lowering.h"
#include "Shim.h"

#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {

constexpr uint32_t EmulatedSM = 90; // PTX selection and reported compute capability

void note(const std::string &Msg) { fprintf(stderr, "ptx2amd-shim: %s\n", Msg.c_str()); }

struct FatModule;
struct Kernel {
  FatModule *mod = nullptr;
  std::string name;
  const void *hostFun = nullptr;
};
struct Var {
  FatModule *mod = nullptr;
  std::string name;
  size_t size = 0;
  bool constant = false;
};
struct FatModule {
  const void *wrapper = nullptr;
  bool loaded = false, failed = false;
  std::string error;
  uint32_t ptxArch = 0;
  std::vector<emu::Module *> images;
  std::vector<std::unique_ptr<llvm::LLVMContext>> keepCtx; // contexts of split images
  std::vector<std::unique_ptr<llvm::Module>> keepMod;
  // Split mode: kernel name -> its own image, loaded on first use from keepMod.
  bool split = false;
  std::map<std::string, emu::Module *> kernelImages;
};
struct Mirror {
  uint64_t size = 0; // bytes of the host mapping == device bytes used
  uint64_t devBase = 0; // the device allocation to free
};
struct Event {
  std::chrono::steady_clock::time_point t;
  bool recorded = false;
};
struct LaunchConfigRec {
  dim3 grid, block;
  size_t shmem;
  cudaStream_t stream;
};

struct State {
  std::mutex mu;
  std::unique_ptr<emu::Device> dev;
  std::string devError;
  std::string arch = "gfx1100";
  amdgpulower::WarpPolicy policy = amdgpulower::WarpPolicy::Pack;
  std::vector<std::unique_ptr<FatModule>> modules;
  std::vector<std::unique_ptr<Kernel>> kernels;
  std::map<const void *, Kernel *> byHost;
  std::map<const void *, Var> vars;
  std::map<uint64_t, uint64_t> allocs;  // device base -> size (cudaMalloc)
  std::map<uint64_t, Mirror> mirrors;   // host==device address -> mirror
  std::map<std::string, amdgpulower::WarpPolicy> kernelPolicy; // PTX2AMD_WARP_POLICY=K=pack|pad
  cudaError_t lastError = cudaSuccess;
  cudaError_t sticky = cudaSuccess;
  int currentDevice = 0;
  bool trace = false; // PTX2AMD_SHIM_TRACE: one stderr line per launch

  State() {
    trace = getenv("PTX2AMD_SHIM_TRACE") != nullptr;
    if (const char *A = getenv("PTX2AMD_ARCH"); A && *A) arch = A;
    if (const char *P = getenv("PTX2AMD_WARP_POLICY"); P && *P) parsePolicies(P);
  }

  // PTX2AMD_WARP_POLICY, as ptx2amd's --warp-policy: comma-separated `pack`
  // or `pad` (the module default) and `KERNEL=pack|pad` (per kernel, mangled
  // name), e.g. `pad,_Z9scan_sumsPii=pack`. A malformed entry is reported and
  // ignored.
  void parsePolicies(llvm::StringRef Spec) {
    llvm::SmallVector<llvm::StringRef, 4> Items;
    Spec.split(Items, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef Item : Items) {
      auto [Name, Value] = Item.contains('=') ? Item.split('=') : std::make_pair(llvm::StringRef(), Item);
      std::optional<amdgpulower::WarpPolicy> P;
      if (Value == "pack") P = amdgpulower::WarpPolicy::Pack;
      else if (Value == "pad") P = amdgpulower::WarpPolicy::Pad;
      if (!P || (Item.contains('=') && Name.empty())) {
        note("PTX2AMD_WARP_POLICY entry '" + Item.str() + "' is not pack, pad or KERNEL=pack|pad; ignored");
        continue;
      }
      if (Name.empty()) policy = *P;
      else kernelPolicy[Name.str()] = *P;
    }
  }
};

State &S() {
  static State *St = new State; // never destroyed: atexit unregistration may run late
  return *St;
}

thread_local std::vector<LaunchConfigRec> CallConfigs;

cudaError_t setErr(State &St, cudaError_t E) {
  if (E != cudaSuccess) St.lastError = E;
  return E;
}

// Caller holds St.mu.
emu::Device *device(State &St) {
  if (St.dev) return St.dev.get();
  if (!St.devError.empty()) return nullptr;
  emu::DeviceOptions O;
  if (const char *T = getenv("PTX2AMD_EMU_THREADS")) O.threads = unsigned(atoi(T));
  auto D = emu::Device::create(O);
  if (!D) {
    St.devError = llvm::toString(D.takeError());
    note("cannot create the emulated device: " + St.devError);
    return nullptr;
  }
  St.dev = std::move(*D);
  return St.dev.get();
}

// Static LDS bytes of all addrspace(3) globals of a module.
uint64_t moduleStaticLds(const llvm::Module &M) {
  uint64_t N = 0;
  for (const llvm::GlobalVariable &G : M.globals())
    if (G.getAddressSpace() == 3 && G.getValueType()->isSized())
      N += M.getDataLayout().getTypeAllocSize(G.getValueType());
  return N;
}

// Splitting a module into one image per kernel duplicates its global
// variables, so it is only done when no kernel-visible mutable state would
// be duplicated: every addrspace(1) variable is constant or an empty object
// (<= 1 byte, e.g. libcu++ customisation-point objects).
bool splittable(const llvm::Module &M, const std::vector<std::string> &HostVisible, std::string &Why) {
  for (const std::string &N : HostVisible) {
    Why = "the host accesses its variable '" + N + "'";
    return false;
  }
  for (const llvm::GlobalVariable &G : M.globals()) {
    if (G.getAddressSpace() != 1 || G.isConstant() || G.getName().starts_with("__ptx2amd_")) continue;
    if (G.getValueType()->isSized() && M.getDataLayout().getTypeAllocSize(G.getValueType()) <= 1) continue;
    Why = "it has the device variable '" + G.getName().str() + "'";
    return false;
  }
  return true;
}

// The global values kernel K of M references, transitively (through
// instructions, constant expressions and variable initialisers).
llvm::SmallPtrSet<const llvm::GlobalValue *, 32> referencedBy(const llvm::Module &M, const std::string &K) {
  llvm::SmallPtrSet<const llvm::GlobalValue *, 32> Keep;
  llvm::SmallPtrSet<const llvm::Constant *, 32> SeenConst;
  llvm::SmallVector<const llvm::GlobalValue *, 64> Work;
  auto VisitValue = [&](const llvm::Value *V, auto &Self) -> void {
    if (auto *GV = llvm::dyn_cast<llvm::GlobalValue>(V)) {
      if (Keep.insert(GV).second) Work.push_back(GV);
      return;
    }
    auto *C = llvm::dyn_cast<llvm::Constant>(V);
    if (!C || !SeenConst.insert(C).second) return;
    for (const llvm::Use &U : C->operands()) Self(U.get(), Self);
  };
  if (const llvm::Function *F = M.getFunction(K)) VisitValue(F, VisitValue);
  while (!Work.empty()) {
    const llvm::GlobalValue *GV = Work.pop_back_val();
    if (auto *F = llvm::dyn_cast<llvm::Function>(GV)) {
      for (const llvm::BasicBlock &BB : *F)
        for (const llvm::Instruction &I : BB)
          for (const llvm::Use &U : I.operands()) VisitValue(U.get(), VisitValue);
    } else if (auto *G = llvm::dyn_cast<llvm::GlobalVariable>(GV)) {
      if (G->hasInitializer()) VisitValue(G->getInitializer(), VisitValue);
    } else if (auto *A = llvm::dyn_cast<llvm::GlobalAlias>(GV)) {
      VisitValue(A->getAliasee(), VisitValue);
    }
  }
  return Keep;
}

// A copy of M holding only kernel K and what it references. Only those
// definitions are cloned (cloning the whole module per kernel made the first
// launch of every kernel of a large Thrust/CUB module cost a full copy).
std::unique_ptr<llvm::Module> onlyKernel(const llvm::Module &M, const std::string &K) {
  llvm::SmallPtrSet<const llvm::GlobalValue *, 32> Keep = referencedBy(M, K);
  llvm::ValueToValueMapTy VMap;
  std::unique_ptr<llvm::Module> C =
      llvm::CloneModule(M, VMap, [&](const llvm::GlobalValue *GV) { return Keep.contains(GV); });
  std::vector<llvm::Function *> Dead;
  for (llvm::Function &F : *C)
    if (F.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL && F.getName() != K) Dead.push_back(&F);
  for (llvm::Function *F : Dead) {
    F->replaceAllUsesWith(llvm::PoisonValue::get(F->getType()));
    F->eraseFromParent();
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (llvm::Function &F : llvm::make_early_inc_range(*C)) {
      F.removeDeadConstantUsers();
      if (F.use_empty() && (F.hasLocalLinkage() || F.isDeclaration()) &&
          F.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL) {
        F.eraseFromParent();
        Changed = true;
      }
    }
    for (llvm::GlobalVariable &G : llvm::make_early_inc_range(C->globals())) {
      G.removeDeadConstantUsers();
      if (G.use_empty() && (G.hasLocalLinkage() || G.isDeclaration() || G.getAddressSpace() == 3)) {
        G.eraseFromParent();
        Changed = true;
      }
    }
  }
  return C;
}

// nvcc registers every namespace-scope __device__ / __constant__ variable of
// the translation unit; in non-rdc PTX they are `.global` / `.const` without
// `.visible`, i.e. internal to the module, so -O3 would delete an unused one
// and fold loads of one that the kernels never store to (a `.const`) into
// its initializer. Giving them external linkage keeps them addressable by
// name (emu::Module::globalAddress) and makes their contents opaque to the
// optimiser. A registered name missing from the PTX is left alone: host
// access to it then fails with "variable ... not found".
void pinHostVariables(State &St, const FatModule &M, llvm::Module &Mod) {
  for (auto &[Host, V] : St.vars) {
    if (V.mod != &M) continue;
    llvm::GlobalVariable *G = Mod.getGlobalVariable(V.name, /*AllowInternal=*/true);
    if (!G || G->isDeclaration()) continue;
    G->setLinkage(llvm::GlobalValue::ExternalLinkage);
    G->setVisibility(llvm::GlobalValue::DefaultVisibility);
    G->setConstant(false);
  }
}

// Translate and load a fat binary's PTX (once). Caller holds St.mu.
cudaError_t ensureLoaded(State &St, FatModule &M) {
  if (M.loaded) return cudaSuccess;
  if (M.failed) return cudaErrorInvalidKernelImage;
  auto Fail = [&](const std::string &Msg) {
    M.failed = true;
    M.error = Msg;
    note(Msg);
    return cudaErrorInvalidKernelImage;
  };
  emu::Device *D = device(St);
  if (!D) return cudaErrorNoDevice;
  auto Ptx = ptxfatbin::ptxFromWrapper(M.wrapper, EmulatedSM);
  if (!Ptx) return Fail("cannot read the fat binary: " + llvm::toString(Ptx.takeError()));
  if (Ptx->empty())
    return Fail("the fat binary holds no PTX (compile with -gencode arch=compute_XX,code=compute_XX or "
                "-arch=sm_XX, which embeds PTX)");
  if (Ptx->size() > 1 || (*Ptx)[0].relocatable())
    return Fail("relocatable device code (-rdc) needs PTX linking, which the shim does not do yet (" +
                std::to_string(Ptx->size()) + " PTX modules)");
  for (ptxfatbin::PTXModule &P : *Ptx) {
    auto Ctx = std::make_unique<llvm::LLVMContext>();
    amdgpulower::LowerOptions LO;
    LO.arch = St.arch;
    LO.defaultPolicy = St.policy;
    std::vector<amdgpulower::Diagnostic> Diags;
    auto Mod = ptxjit::translate(P.text, "fatbin.ptx", ptxjit::InputKind::PTX, *Ctx, Diags);
    if (Mod) {
      // Variables the host registered (__cudaRegisterVar) must survive the
      // optimisation pipeline under their names and must not be folded
      // (cudaMemcpyToSymbol may write a `.const` between launches).
      pinHostVariables(St, M, **Mod);
      // Per-kernel policies name kernels of any of the program's modules.
      for (auto &[K, Pol] : St.kernelPolicy)
        if (llvm::Function *F = (*Mod)->getFunction(K); F && !F->isDeclaration()) LO.kernelPolicy[K] = Pol;
      if (llvm::Error E = amdgpulower::lowerModule(**Mod, LO, Diags)) Mod = std::move(E);
    }
    if (!Mod) {
      std::string Msg = llvm::toString(Mod.takeError());
      unsigned Shown = 0;
      for (const amdgpulower::Diagnostic &Dg : Diags)
        if (Dg.severity == amdgpulower::Severity::Error && Shown++ < 20) Msg += "\n  " + amdgpulower::renderDiagnostic(Dg);
      if (Shown > 20) Msg += "\n  ... " + std::to_string(Shown - 20) + " more errors";
      if (const char *Dump = getenv("PTX2AMD_SHIM_DUMP_PTX")) {
        if (FILE *F = fopen(Dump, "w")) { fwrite(P.text.data(), 1, P.text.size(), F); fclose(F); }
      }
      return Fail("translation of the PTX (sm_" + std::to_string(P.arch) + ") for " + St.arch + " failed:\n" + Msg);
    }
    uint64_t Lds = moduleStaticLds(**Mod);
    std::vector<std::string> Kernels;
    for (llvm::Function &F : **Mod)
      if (F.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL && !F.isDeclaration()) Kernels.push_back(F.getName().str());
    std::string Why;
    bool ForceSplit = getenv("PTX2AMD_SHIM_SPLIT") != nullptr; // testing aid: always split
    if ((ForceSplit || Lds > 65536) && Kernels.size() > 1 && !getenv("PTX2AMD_SHIM_NO_SPLIT")) {
      // amdgpu-emu sizes static LDS per module, not per kernel: load one
      // image per kernel so each kernel gets only the LDS it uses.
      std::vector<std::string> HostVisible; // registered variables larger than an empty object
      for (auto &[Host, V] : St.vars)
        if (V.mod == &M && V.size > 1) HostVisible.push_back(V.name);
      if (!splittable(**Mod, HostVisible, Why))
        return Fail("the module's kernels declare " + std::to_string(Lds) +
                    " bytes of static shared memory in total (> 64 KiB as the emulator counts it, per module) and "
                    "cannot be split per kernel because " + Why);
      M.split = true; // images are loaded per kernel on first launch (imageWithKernel)
      M.keepMod.push_back(std::move(*Mod));
      M.keepCtx.push_back(std::move(Ctx));
      M.ptxArch = P.arch;
      continue;
    }
    auto L = D->loadModule(std::move(*Mod), std::move(Ctx));
    if (!L) return Fail("emulator rejected the translated module: " + llvm::toString(L.takeError()));
    M.images.push_back(*L);
    M.ptxArch = P.arch;
  }
  M.loaded = true;
  return cudaSuccess;
}

emu::Module *imageWithKernel(State &St, FatModule &M, const std::string &Name) {
  if (M.split) {
    auto It = M.kernelImages.find(Name);
    if (It != M.kernelImages.end()) return It->second;
    for (auto &Mod : M.keepMod)
      if (llvm::Function *F = Mod->getFunction(Name); F && !F->isDeclaration()) {
        auto L = St.dev->loadModule(onlyKernel(*Mod, Name));
        if (!L) {
          note("emulator rejected the translated kernel '" + Name + "': " + llvm::toString(L.takeError()));
          return nullptr;
        }
        return M.kernelImages[Name] = *L;
      }
  }
  for (emu::Module *I : M.images) {
    auto K = I->kernel(Name);
    if (K) return I;
    llvm::consumeError(K.takeError());
  }
  if (!M.split) note("kernel '" + Name + "' not found in the translated module");
  return nullptr;
}

// Device address of a registered variable. Caller holds St.mu.
cudaError_t symbolAddress(State &St, const void *Symbol, uint64_t &Addr, size_t &Size) {
  auto It = St.vars.find(Symbol);
  if (It == St.vars.end()) return cudaErrorInvalidSymbol;
  if (cudaError_t E = ensureLoaded(St, *It->second.mod)) return E;
  if (It->second.mod->split) {
    note("host access to variable '" + It->second.name + "' of a module loaded per kernel is not supported");
    return cudaErrorNotSupported;
  }
  for (emu::Module *I : It->second.mod->images) {
    auto A = I->globalAddress(It->second.name);
    if (A) { Addr = *A; Size = It->second.size; return cudaSuccess; }
    llvm::consumeError(A.takeError());
  }
  note("variable '" + It->second.name + "' not found in the translated module");
  return cudaErrorInvalidSymbol;
}

bool inMirror(State &St, uint64_t P, uint64_t N) {
  auto It = St.mirrors.upper_bound(P);
  if (It == St.mirrors.begin()) return false;
  --It;
  return P >= It->first && P + N <= It->first + It->second.size;
}
bool isDevicePtr(State &St, const void *Ptr, size_t N) {
  uint64_t P = reinterpret_cast<uint64_t>(Ptr);
  if (inMirror(St, P, N)) return false;
  return P >= emu::GlobalBase && P < emu::GlobalBase + (emu::DeviceOptions{}.arenaBytes);
}

cudaError_t fromLlvm(State &St, llvm::Error E, const char *What, cudaError_t Code = cudaErrorInvalidValue) {
  if (!E) return cudaSuccess;
  note(std::string(What) + ": " + llvm::toString(std::move(E)));
  return setErr(St, Code);
}

cudaError_t copyAny(State &St, void *Dst, const void *Src, size_t N) {
  if (N == 0) return cudaSuccess;
  emu::Device *D = device(St);
  bool DD = isDevicePtr(St, Dst, N), SD = isDevicePtr(St, Src, N);
  if ((DD || SD) && !D) return setErr(St, cudaErrorNoDevice);
  uint64_t DA = reinterpret_cast<uint64_t>(Dst), SA = reinterpret_cast<uint64_t>(Src);
  if (DD && SD) {
    std::vector<uint8_t> Tmp(N);
    if (auto E = D->copyFromDevice(Tmp.data(), SA, N)) return fromLlvm(St, std::move(E), "cudaMemcpy");
    return fromLlvm(St, D->copyToDevice(DA, Tmp.data(), N), "cudaMemcpy");
  }
  if (DD) return fromLlvm(St, D->copyToDevice(DA, Src, N), "cudaMemcpy");
  if (SD) return fromLlvm(St, D->copyFromDevice(Dst, SA, N), "cudaMemcpy");
  memmove(Dst, Src, N);
  return cudaSuccess;
}

cudaError_t syncMirrors(State &St, bool ToDevice) {
  if (St.mirrors.empty()) return cudaSuccess;
  emu::Device *D = device(St);
  for (auto &[Addr, M] : St.mirrors) {
    llvm::Error E = ToDevice ? D->copyToDevice(Addr, reinterpret_cast<void *>(Addr), M.size)
                             : D->copyFromDevice(reinterpret_cast<void *>(Addr), Addr, M.size);
    if (E) return fromLlvm(St, std::move(E), "host-mapped memory transfer", cudaErrorUnknown);
  }
  return cudaSuccess;
}

cudaError_t launch(Kernel *K, dim3 G, dim3 B, void **Args, size_t Shmem, bool Cooperative) {
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  if (St.sticky) return St.sticky;
  if (!K) return setErr(St, cudaErrorInvalidDeviceFunction);
  if (uint64_t(B.x) * B.y * B.z > 1024 || B.x == 0 || B.y == 0 || B.z == 0 || G.x == 0 || G.y == 0 || G.z == 0 ||
      B.z > 64 || G.y > 65535 || G.z > 65535)
    return setErr(St, cudaErrorInvalidConfiguration);
  if (cudaError_t E = ensureLoaded(St, *K->mod)) return setErr(St, E);
  emu::Module *Img = imageWithKernel(St, *K->mod, K->name);
  if (!Img) return setErr(St, K->mod->split ? cudaErrorInvalidKernelImage : cudaErrorInvalidDeviceFunction);
  if (cudaError_t E = syncMirrors(St, true)) return E;
  if (St.trace)
    note("launch " + K->name + " grid (" + std::to_string(G.x) + "," + std::to_string(G.y) + "," + std::to_string(G.z) +
         ") block (" + std::to_string(B.x) + "," + std::to_string(B.y) + "," + std::to_string(B.z) + ") dynamic shared " +
         std::to_string(Shmem) + (Cooperative ? " cooperative" : ""));
  emu::LaunchConfig C;
  C.grid = {G.x, G.y, G.z};
  C.block = {B.x, B.y, B.z};
  C.dynamicLdsBytes = uint32_t(Shmem);
  C.cooperative = Cooperative;
  if (llvm::Error E = St.dev->launch(*Img, K->name, C, Args)) {
    std::string Msg = llvm::toString(std::move(E));
    note("kernel '" + K->name + "' failed: " + Msg);
    cudaError_t Code = Msg.find("device assertion failed") != std::string::npos ? cudaErrorAssert : cudaErrorLaunchFailure;
    if (Msg.find("cannot all be resident") != std::string::npos) Code = cudaErrorCooperativeLaunchTooLarge;
    else St.sticky = Code;
    return setErr(St, Code);
  }
  return syncMirrors(St, false);
}

Kernel *kernelFor(const void *Func) {
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  auto It = St.byHost.find(Func);
  if (It != St.byHost.end()) return It->second;
  for (auto &K : St.kernels) // a cudaKernel_t handle from __cudaGetKernel
    if (K.get() == Func) return K.get();
  return nullptr;
}

// Host-visible memory usable by kernels: a device allocation plus a host
// mapping at the same address (see the file header).
cudaError_t mirroredAlloc(void **Out, size_t N) {
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  emu::Device *D = device(St);
  if (!D) return setErr(St, cudaErrorNoDevice);
  const uint64_t Page = uint64_t(sysconf(_SC_PAGESIZE));
  uint64_t Size = (std::max<uint64_t>(N, 1) + Page - 1) / Page * Page;
  auto A = D->malloc(Size + Page);
  if (!A) return fromLlvm(St, A.takeError(), "cudaMallocHost", cudaErrorMemoryAllocation);
  uint64_t Base = (*A + Page - 1) / Page * Page;
  void *P = mmap(reinterpret_cast<void *>(Base), Size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (P == MAP_FAILED || reinterpret_cast<uint64_t>(P) != Base) {
    if (P != MAP_FAILED) munmap(P, Size);
    llvm::consumeError(D->free(*A));
    note("cannot map host memory at the device address " + std::to_string(Base) +
         " (host-mapped/managed memory needs that address range free in the process)");
    return setErr(St, cudaErrorMemoryAllocation);
  }
  St.mirrors[Base] = Mirror{Size, *A};
  *Out = P;
  return cudaSuccess;
}

cudaError_t mirroredFree(void *P) {
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  auto It = St.mirrors.find(reinterpret_cast<uint64_t>(P));
  if (It == St.mirrors.end()) return setErr(St, cudaErrorInvalidValue);
  munmap(P, It->second.size);
  llvm::consumeError(St.dev->free(It->second.devBase));
  St.mirrors.erase(It);
  return cudaSuccess;
}

cudaError_t unsupported(const char *Name) {
  note(std::string("unsupported CUDA runtime call '") + Name + "'");
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  return setErr(St, cudaErrorNotSupported);
}

int deviceAttr(cudaDeviceAttr A) {
  switch (A) {
  case cudaDevAttrMaxThreadsPerBlock: return 1024;
  case cudaDevAttrMaxBlockDimX: case cudaDevAttrMaxBlockDimY: return 1024;
  case cudaDevAttrMaxBlockDimZ: return 64;
  case cudaDevAttrMaxGridDimX: return 2147483647;
  case cudaDevAttrMaxGridDimY: case cudaDevAttrMaxGridDimZ: return 65535;
  case cudaDevAttrMaxSharedMemoryPerBlock: return 65536;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin: return 65536;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor: return 65536;
  case cudaDevAttrTotalConstantMemory: return 65536;
  case cudaDevAttrWarpSize: return 32;
  case cudaDevAttrMaxRegistersPerBlock: case cudaDevAttrMaxRegistersPerMultiprocessor: return 65536;
  case cudaDevAttrClockRate: return 2000000;
  case cudaDevAttrMemoryClockRate: return 1000000;
  case cudaDevAttrGlobalMemoryBusWidth: return 4096;
  case cudaDevAttrL2CacheSize: return 4 << 20;
  case cudaDevAttrMultiProcessorCount: return 8;
  case cudaDevAttrMaxThreadsPerMultiProcessor: return 2048;
  case cudaDevAttrMaxBlocksPerMultiprocessor: return 32;
  case cudaDevAttrComputeCapabilityMajor: return int(EmulatedSM / 10);
  case cudaDevAttrComputeCapabilityMinor: return int(EmulatedSM % 10);
  case cudaDevAttrCooperativeLaunch: return 1;
  case cudaDevAttrConcurrentKernels: return 1;
  case cudaDevAttrUnifiedAddressing: return 1;
  case cudaDevAttrManagedMemory: return 1;
  case cudaDevAttrIntegrated: return 0;
  case cudaDevAttrCanMapHostMemory: return 1;
  case cudaDevAttrComputeMode: return cudaComputeModeDefault;
  case cudaDevAttrEccEnabled: return 0;
  case cudaDevAttrPciBusId: case cudaDevAttrPciDeviceId: case cudaDevAttrPciDomainId: return 0;
  case cudaDevAttrTccDriver: return 0;
  case cudaDevAttrAsyncEngineCount: return 1;
  case cudaDevAttrMemoryPoolsSupported: return 0;
  case cudaDevAttrTextureAlignment: return 512;
  case cudaDevAttrTexturePitchAlignment: return 32;
  default: return -1;
  }
}

// Copies N bytes between `Host` and a registered variable at byte offset Off
// (ToSymbol: into the variable). Checks the range against the variable's size.
cudaError_t copySymbol(const void *Sym, size_t Off, size_t N, void *Host, bool ToSymbol) {
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  uint64_t A;
  size_t Size;
  if (cudaError_t E = symbolAddress(St, Sym, A, Size)) return setErr(St, E);
  if (Off + N > Size) return setErr(St, cudaErrorInvalidValue);
  void *Var = reinterpret_cast<void *>(A + Off);
  return ToSymbol ? copyAny(St, Var, Host, N) : copyAny(St, Host, Var, N);
}
} // namespace

extern "C" {

// ---- registration (crt/host_runtime.h) --------------------------------------
void **__cudaRegisterFatBinary(void *FatCubin) {
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  auto M = std::make_unique<FatModule>();
  M->wrapper = FatCubin;
  void **H = reinterpret_cast<void **>(M.get());
  St.modules.push_back(std::move(M));
  return H;
}
void __cudaRegisterFatBinaryEnd(void **) {}
void __cudaUnregisterFatBinary(void **) {}

void __cudaRegisterFunction(void **H, const char *HostFun, char *DeviceFun, const char *DeviceName, int, uint3 *,
                            uint3 *, dim3 *, dim3 *, int *) {
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  auto K = std::make_unique<Kernel>();
  K->mod = reinterpret_cast<FatModule *>(H);
  K->name = DeviceName ? DeviceName : DeviceFun;
  K->hostFun = HostFun;
  St.byHost[HostFun] = K.get();
  St.kernels.push_back(std::move(K));
}

void __cudaRegisterVar(void **H, char *HostVar, char *DeviceAddress, const char *DeviceName, int, size_t Size,
                       int Constant, int) {
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  St.vars[HostVar] = Var{reinterpret_cast<FatModule *>(H), DeviceName ? DeviceName : DeviceAddress, Size, Constant != 0};
}

void __cudaRegisterManagedVar(void **H, void **HostVarPtrAddress, char *DeviceAddress, const char *DeviceName, int,
                              size_t Size, int, int) {
  note(std::string("unsupported CUDA feature: __managed__ variable '") + (DeviceName ? DeviceName : DeviceAddress) +
       "' (host access to it will fail)");
}

char __cudaInitModule(void **) {
  note("unsupported CUDA runtime call '__cudaInitModule' (__managed__ variables)");
  return 0;
}

unsigned __cudaPushCallConfiguration(dim3 G, dim3 B, size_t Shmem, cudaStream_t Stream) {
  CallConfigs.push_back({G, B, Shmem, Stream});
  return 0;
}
cudaError_t __cudaPopCallConfiguration(dim3 *G, dim3 *B, size_t *Shmem, void *Stream) {
  if (CallConfigs.empty()) return cudaErrorMissingConfiguration;
  LaunchConfigRec C = CallConfigs.back();
  CallConfigs.pop_back();
  *G = C.grid;
  *B = C.block;
  *Shmem = C.shmem;
  *static_cast<cudaStream_t *>(Stream) = C.stream;
  return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t *Out, const void *HostFun) {
  Kernel *K = kernelFor(HostFun);
  if (!K) return cudaErrorInvalidDeviceFunction;
  *Out = reinterpret_cast<cudaKernel_t>(K);
  return cudaSuccess;
}
cudaError_t __cudaLaunchKernel(cudaKernel_t K, dim3 G, dim3 B, void **Args, size_t Shmem, cudaStream_t) {
  return launch(kernelFor(K), G, B, Args, Shmem, false);
}
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t K, dim3 G, dim3 B, void **Args, size_t Shmem, cudaStream_t) {
  return launch(kernelFor(K), G, B, Args, Shmem, false);
}

// ---- launches ---------------------------------------------------------------
cudaError_t cudaLaunchKernel(const void *Func, dim3 G, dim3 B, void **Args, size_t Shmem, cudaStream_t) {
  return launch(kernelFor(Func), G, B, Args, Shmem, false);
}
cudaError_t cudaLaunchCooperativeKernel(const void *Func, dim3 G, dim3 B, void **Args, size_t Shmem, cudaStream_t) {
  return launch(kernelFor(Func), G, B, Args, Shmem, true);
}
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *Cfg, const void *Func, void **Args) {
  if (!Cfg) return cudaErrorInvalidValue;
  bool Coop = false;
  for (unsigned I = 0; I < Cfg->numAttrs; ++I) {
    const cudaLaunchAttribute &A = Cfg->attrs[I];
    if (A.id == cudaLaunchAttributeCooperative) Coop = A.val.cooperative != 0;
    else if (A.id == cudaLaunchAttributeIgnore || A.id == cudaLaunchAttributeProgrammaticStreamSerialization ||
             A.id == cudaLaunchAttributeProgrammaticEvent || A.id == cudaLaunchAttributePriority)
      continue; // ordering/priority hints: launches are synchronous on emu
    else {
      note("cudaLaunchKernelExC: launch attribute " + std::to_string(int(A.id)) + " ignored (no effect on emu)");
    }
  }
  return launch(kernelFor(Func), Cfg->gridDim, Cfg->blockDim, Args, Cfg->dynamicSmemBytes, Coop);
}

// ---- memory -----------------------------------------------------------------
cudaError_t cudaMalloc(void **Ptr, size_t N) {
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  if (!Ptr) return setErr(St, cudaErrorInvalidValue);
  emu::Device *D = device(St);
  if (!D) return setErr(St, cudaErrorNoDevice);
  auto A = D->malloc(std::max<size_t>(N, 1));
  if (!A) return fromLlvm(St, A.takeError(), "cudaMalloc", cudaErrorMemoryAllocation);
  St.allocs[*A] = N;
  *Ptr = reinterpret_cast<void *>(*A);
  return cudaSuccess;
}
cudaError_t cudaFree(void *P) {
  if (!P) return cudaSuccess;
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  auto It = St.allocs.find(reinterpret_cast<uint64_t>(P));
  if (It == St.allocs.end()) {
    auto Mi = St.mirrors.find(reinterpret_cast<uint64_t>(P)); // cudaMallocManaged memory
    if (Mi == St.mirrors.end()) return setErr(St, cudaErrorInvalidValue);
    munmap(P, Mi->second.size);
    uint64_t Dev = Mi->second.devBase;
    St.mirrors.erase(Mi);
    return fromLlvm(St, St.dev->free(Dev), "cudaFree");
  }
  St.allocs.erase(It);
  return fromLlvm(St, St.dev->free(reinterpret_cast<uint64_t>(P)), "cudaFree");
}
cudaError_t cudaMallocAsync(void **P, size_t N, cudaStream_t) { return cudaMalloc(P, N); }
cudaError_t cudaFreeAsync(void *P, cudaStream_t) { return cudaFree(P); }
cudaError_t cudaMallocHost(void **P, size_t N) { return mirroredAlloc(P, N); }
cudaError_t cudaHostAlloc(void **P, size_t N, unsigned) { return mirroredAlloc(P, N); }
cudaError_t cudaMallocManaged(void **P, size_t N, unsigned) { return mirroredAlloc(P, N); }
cudaError_t cudaFreeHost(void *P) { return mirroredFree(P); }
cudaError_t cudaHostGetDevicePointer(void **D, void *H, unsigned) {
  *D = H; // mirrored memory has the same address on both sides
  return cudaSuccess;
}
cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t N, cudaMemcpyKind) {
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  if (St.sticky) return St.sticky;
  return copyAny(St, Dst, Src, N);
}
cudaError_t cudaMemcpyAsync(void *Dst, const void *Src, size_t N, cudaMemcpyKind K, cudaStream_t) {
  return cudaMemcpy(Dst, Src, N, K);
}
cudaError_t cudaMemcpy2D(void *Dst, size_t DP, const void *Src, size_t SP, size_t W, size_t H, cudaMemcpyKind) {
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  for (size_t R = 0; R < H; ++R)
    if (cudaError_t E = copyAny(St, static_cast<char *>(Dst) + R * DP, static_cast<const char *>(Src) + R * SP, W))
      return E;
  return cudaSuccess;
}
cudaError_t cudaMemset(void *P, int V, size_t N) {
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  if (St.sticky) return St.sticky;
  if (!isDevicePtr(St, P, N)) {
    memset(P, V, N);
    return cudaSuccess;
  }
  return fromLlvm(St, device(St)->memset(reinterpret_cast<uint64_t>(P), V, N), "cudaMemset");
}
cudaError_t cudaMemsetAsync(void *P, int V, size_t N, cudaStream_t) { return cudaMemset(P, V, N); }
// Pitched allocations: rows padded to the reported texture alignment (512 bytes).
cudaError_t cudaMallocPitch(void **P, size_t *Pitch, size_t W, size_t H) {
  if (!P || !Pitch) return cudaErrorInvalidValue;
  size_t Rounded = (std::max<size_t>(W, 1) + 511) / 512 * 512;
  if (cudaError_t E = cudaMalloc(P, Rounded * std::max<size_t>(H, 1))) return E;
  *Pitch = Rounded;
  return cudaSuccess;
}
cudaError_t cudaMalloc3D(cudaPitchedPtr *P, cudaExtent Ext) {
  if (!P) return cudaErrorInvalidValue;
  size_t Pitch = 0;
  void *Ptr = nullptr;
  if (cudaError_t E = cudaMallocPitch(&Ptr, &Pitch, Ext.width, std::max<size_t>(Ext.height, 1) * std::max<size_t>(Ext.depth, 1)))
    return E;
  *P = cudaPitchedPtr{Ptr, Pitch, Ext.width, Ext.height};
  return cudaSuccess;
}
cudaError_t cudaMemset2D(void *P, size_t Pitch, int V, size_t W, size_t H) {
  if (H > 1 && Pitch < W) return cudaErrorInvalidPitchValue;
  for (size_t R = 0; R < H; ++R)
    if (cudaError_t E = cudaMemset(static_cast<char *>(P) + R * Pitch, V, W)) return E;
  return cudaSuccess;
}
cudaError_t cudaMemset2DAsync(void *P, size_t Pitch, int V, size_t W, size_t H, cudaStream_t) {
  return cudaMemset2D(P, Pitch, V, W, H);
}
cudaError_t cudaMemGetInfo(size_t *Free, size_t *Total) {
  *Total = emu::DeviceOptions{}.arenaBytes;
  *Free = *Total / 2;
  return cudaSuccess;
}

cudaError_t cudaMemcpyToSymbol(const void *Sym, const void *Src, size_t N, size_t Off, cudaMemcpyKind) {
  return copySymbol(Sym, Off, N, const_cast<void *>(Src), true);
}
cudaError_t cudaMemcpyFromSymbol(void *Dst, const void *Sym, size_t N, size_t Off, cudaMemcpyKind) {
  return copySymbol(Sym, Off, N, Dst, false);
}
cudaError_t cudaMemcpyToSymbolAsync(const void *Sym, const void *Src, size_t N, size_t Off, cudaMemcpyKind K,
                                    cudaStream_t) {
  return cudaMemcpyToSymbol(Sym, Src, N, Off, K);
}
cudaError_t cudaMemcpyFromSymbolAsync(void *Dst, const void *Sym, size_t N, size_t Off, cudaMemcpyKind K,
                                      cudaStream_t) {
  return cudaMemcpyFromSymbol(Dst, Sym, N, Off, K);
}
cudaError_t cudaGetSymbolAddress(void **P, const void *Sym) {
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  uint64_t A;
  size_t Size;
  if (cudaError_t E = symbolAddress(St, Sym, A, Size)) return setErr(St, E);
  *P = reinterpret_cast<void *>(A);
  return cudaSuccess;
}
cudaError_t cudaGetSymbolSize(size_t *N, const void *Sym) {
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  auto It = St.vars.find(Sym);
  if (It == St.vars.end()) return setErr(St, cudaErrorInvalidSymbol);
  *N = It->second.size;
  return cudaSuccess;
}

// ---- device -----------------------------------------------------------------
cudaError_t cudaGetDeviceCount(int *N) {
  *N = 1;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int D) { return D == 0 ? cudaSuccess : cudaErrorInvalidDevice; }
cudaError_t cudaGetDevice(int *D) {
  *D = 0;
  return cudaSuccess;
}
cudaError_t cudaInitDevice(int D, unsigned, unsigned) { return cudaSetDevice(D); }
cudaError_t cudaSetDeviceFlags(unsigned) { return cudaSuccess; }
cudaError_t cudaGetDeviceFlags(unsigned *F) {
  *F = 0;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetAttribute(int *V, cudaDeviceAttr A, int Dev) {
  if (Dev != 0) return cudaErrorInvalidDevice;
  int R = deviceAttr(A);
  if (R < 0) {
    note("cudaDeviceGetAttribute: attribute " + std::to_string(int(A)) + " is not modelled");
    return cudaErrorInvalidValue;
  }
  *V = R;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *P, int Dev) {
  if (Dev != 0) return cudaErrorInvalidDevice;
  memset(P, 0, sizeof *P);
  State &St = S();
  {
    std::lock_guard<std::mutex> L(St.mu);
    snprintf(P->name, sizeof P->name, "ptx2amd amdgpu-emu (%s)", St.arch.c_str());
  }
  P->totalGlobalMem = emu::DeviceOptions{}.arenaBytes;
  P->sharedMemPerBlock = 65536;
  P->regsPerBlock = 65536;
  P->warpSize = 32;
  P->memPitch = 2147483647;
  P->maxThreadsPerBlock = 1024;
  P->maxThreadsDim[0] = 1024; P->maxThreadsDim[1] = 1024; P->maxThreadsDim[2] = 64;
  P->maxGridSize[0] = 2147483647; P->maxGridSize[1] = 65535; P->maxGridSize[2] = 65535;
  P->totalConstMem = 65536;
  P->major = int(EmulatedSM / 10);
  P->minor = int(EmulatedSM % 10);
  P->textureAlignment = 512;
  P->texturePitchAlignment = 32;
  P->multiProcessorCount = deviceAttr(cudaDevAttrMultiProcessorCount);
  P->integrated = 0;
  P->canMapHostMemory = 1;
  P->concurrentKernels = 1;
  P->asyncEngineCount = 1;
  P->unifiedAddressing = 1;
  P->memoryBusWidth = 4096;
  P->l2CacheSize = 4 << 20;
  P->maxThreadsPerMultiProcessor = 2048;
  P->sharedMemPerMultiprocessor = 65536;
  P->regsPerMultiprocessor = 65536;
  P->managedMemory = 1;
  P->cooperativeLaunch = 1;
  P->sharedMemPerBlockOptin = 65536;
  P->maxBlocksPerMultiProcessor = 32;
  return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize(void) {
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  if (St.sticky) return St.sticky;
  if (St.dev)
    if (llvm::Error E = St.dev->synchronize()) return fromLlvm(St, std::move(E), "cudaDeviceSynchronize", cudaErrorLaunchFailure);
  return cudaSuccess;
}
cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
cudaError_t cudaDeviceReset(void) {
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  St.sticky = cudaSuccess;
  St.lastError = cudaSuccess;
  return cudaSuccess;
}
cudaError_t cudaDeviceSetLimit(cudaLimit, size_t) { return cudaSuccess; }
cudaError_t cudaDeviceGetLimit(size_t *V, cudaLimit L) {
  switch (L) {
  case cudaLimitMallocHeapSize: *V = emu::DeviceOptions{}.heapBytes; return cudaSuccess;
  case cudaLimitPrintfFifoSize: *V = emu::DeviceOptions{}.printfBufferBytes; return cudaSuccess;
  case cudaLimitStackSize: *V = 1024; return cudaSuccess;
  default: return cudaErrorUnsupportedLimit;
  }
}
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache *C) {
  *C = cudaFuncCachePreferNone;
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int *V) {
  *V = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int *V) {
  *V = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaFree_v2(void *P) { return cudaFree(P); }

// ---- functions and occupancy ------------------------------------------------
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *A, const void *Func) {
  Kernel *K = kernelFor(Func);
  if (!K) return cudaErrorInvalidDeviceFunction;
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  if (cudaError_t E = ensureLoaded(St, *K->mod)) return setErr(St, E);
  emu::Module *Img = imageWithKernel(St, *K->mod, K->name);
  if (!Img) return setErr(St, cudaErrorInvalidDeviceFunction);
  auto Info = Img->kernel(K->name);
  if (!Info) return fromLlvm(St, Info.takeError(), "cudaFuncGetAttributes", cudaErrorInvalidDeviceFunction);
  memset(A, 0, sizeof *A);
  A->sharedSizeBytes = Info->staticLdsBytes;
  A->maxThreadsPerBlock = (St.policy == amdgpulower::WarpPolicy::Pad && Info->waveSize == 64) ? 512 : 1024;
  A->numRegs = int(std::min<uint32_t>(Info->registerSlots, 255));
  A->ptxVersion = int(K->mod->ptxArch);
  A->binaryVersion = int(K->mod->ptxArch);
  A->maxDynamicSharedSizeBytes = 65536 - int(Info->staticLdsBytes);
  return cudaSuccess;
}
cudaError_t cudaFuncSetAttribute(const void *, cudaFuncAttribute, int) { return cudaSuccess; }
cudaError_t cudaFuncSetCacheConfig(const void *, cudaFuncCache) { return cudaSuccess; }
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *N, const void *Func, int BlockSize,
                                                                   size_t Shmem, unsigned) {
  if (!kernelFor(Func)) return cudaErrorInvalidDeviceFunction;
  if (BlockSize <= 0) return cudaErrorInvalidValue;
  int ByThreads = 2048 / BlockSize;
  int ByLds = Shmem ? int(65536 / Shmem) : 32;
  *N = std::max(0, std::min({ByThreads, ByLds, 32}));
  return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *N, const void *Func, int BlockSize, size_t Shmem) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(N, Func, BlockSize, Shmem, 0);
}

// ---- streams and events (execution is synchronous) ---------------------------
cudaError_t cudaStreamCreate(cudaStream_t *S) {
  *S = reinterpret_cast<cudaStream_t>(new int(0));
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *S, unsigned) { return cudaStreamCreate(S); }
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *S, unsigned, int) { return cudaStreamCreate(S); }
cudaError_t cudaStreamDestroy(cudaStream_t S) {
  delete reinterpret_cast<int *>(S);
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaDeviceSynchronize(); }
cudaError_t cudaStreamQuery(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned) { return cudaSuccess; }
cudaError_t cudaEventCreate(cudaEvent_t *E) {
  *E = reinterpret_cast<cudaEvent_t>(new Event);
  return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *E, unsigned) { return cudaEventCreate(E); }
cudaError_t cudaEventDestroy(cudaEvent_t E) {
  delete reinterpret_cast<Event *>(E);
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t E, cudaStream_t) {
  auto *Ev = reinterpret_cast<Event *>(E);
  if (!Ev) return cudaErrorInvalidResourceHandle;
  Ev->t = std::chrono::steady_clock::now();
  Ev->recorded = true;
  return cudaSuccess;
}
cudaError_t cudaEventRecordWithFlags(cudaEvent_t E, cudaStream_t S, unsigned) { return cudaEventRecord(E, S); }
cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventQuery(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t A, cudaEvent_t B) {
  auto *EA = reinterpret_cast<Event *>(A), *EB = reinterpret_cast<Event *>(B);
  if (!EA || !EB) return cudaErrorInvalidResourceHandle;
  if (!EA->recorded || !EB->recorded) return cudaErrorInvalidResourceHandle;
  *Ms = std::chrono::duration<float, std::milli>(EB->t - EA->t).count();
  return cudaSuccess;
}

// ---- errors -----------------------------------------------------------------
cudaError_t cudaGetLastError(void) {
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  cudaError_t E = St.lastError;
  St.lastError = St.sticky;
  return E;
}
cudaError_t cudaPeekAtLastError(void) {
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  return St.lastError;
}
const char *cudaGetErrorName(cudaError_t E) {
  switch (E) {
#define N(X) case X: return #X;
  N(cudaSuccess) N(cudaErrorInvalidValue) N(cudaErrorMemoryAllocation) N(cudaErrorInitializationError)
  N(cudaErrorInvalidConfiguration) N(cudaErrorInvalidSymbol) N(cudaErrorInvalidDeviceFunction)
  N(cudaErrorMissingConfiguration) N(cudaErrorNoDevice) N(cudaErrorInvalidDevice) N(cudaErrorInvalidKernelImage)
  N(cudaErrorInvalidResourceHandle) N(cudaErrorNotSupported) N(cudaErrorLaunchFailure) N(cudaErrorAssert)
  N(cudaErrorCooperativeLaunchTooLarge) N(cudaErrorUnsupportedLimit) N(cudaErrorUnknown)
  N(cudaErrorIllegalAddress) N(cudaErrorNotReady) N(cudaErrorInvalidChannelDescriptor)
  N(cudaErrorInvalidFilterSetting) N(cudaErrorInvalidNormSetting) N(cudaErrorInvalidPitchValue)
  N(cudaErrorInvalidTexture) N(cudaErrorInvalidSurface)
#undef N
  default: return "cudaErrorUnknown";
  }
}
const char *cudaGetErrorString(cudaError_t E) {
  switch (E) {
  case cudaSuccess: return "no error";
  case cudaErrorInvalidValue: return "invalid argument";
  case cudaErrorMemoryAllocation: return "out of memory";
  case cudaErrorInvalidConfiguration: return "invalid configuration argument";
  case cudaErrorInvalidSymbol: return "invalid device symbol";
  case cudaErrorInvalidDeviceFunction: return "invalid device function";
  case cudaErrorNoDevice: return "no CUDA-capable device is detected";
  case cudaErrorInvalidDevice: return "invalid device ordinal";
  case cudaErrorInvalidKernelImage: return "device kernel image is invalid (ptx2amd could not translate it)";
  case cudaErrorNotSupported: return "operation not supported (by ptx2amd's runtime shim)";
  case cudaErrorLaunchFailure: return "unspecified launch failure";
  case cudaErrorAssert: return "device-side assert triggered";
  case cudaErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
  default: return cudaGetErrorName(E);
  }
}

// ---- explicitly unsupported features ----------------------------------------
cudaError_t cudaGetDriverEntryPoint(const char *, void **F, unsigned long long,
                                    cudaDriverEntryPointQueryResult *Status) {
  if (F) *F = nullptr;
  if (Status) *Status = cudaDriverEntryPointSymbolNotFound;
  return unsupported("cudaGetDriverEntryPoint");
}
cudaError_t cudaGetDriverEntryPointByVersion(const char *, void **F, unsigned, unsigned long long,
                                             cudaDriverEntryPointQueryResult *Status) {
  if (F) *F = nullptr;
  if (Status) *Status = cudaDriverEntryPointSymbolNotFound;
  return unsupported("cudaGetDriverEntryPointByVersion");
}
} // extern "C"

// ---- helpers for the shim's other files (Shim.h) ------------------------------
namespace cudartshim {
void note(const std::string &Msg) { ::note(Msg); }
cudaError_t recordError(cudaError_t E) {
  State &St = S();
  std::lock_guard<std::mutex> L(St.mu);
  return setErr(St, E);
}
bool isKernelAccessible(const void *P, size_t N) {
  uint64_t A = reinterpret_cast<uint64_t>(P), Arena = emu::DeviceOptions{}.arenaBytes;
  return A >= emu::GlobalBase && N <= Arena && A - emu::GlobalBase <= Arena - N;
}
} // namespace cudartshim

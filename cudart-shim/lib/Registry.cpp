//===- Registry.cpp - fat binaries, kernels and variables nvcc registers ----===//
//
// __cudaRegisterFatBinary / Function / Var / ManagedVar record what the host
// code of each translation unit declares (formats.md section 2). A fat
// binary's best PTX (<= sm_90) is read with ptxfatbin and handed to the core
// (Context::loadModule) on first use: the first launch, symbol access or
// __cudaInitModule. The runtime works in the thread's current context (the
// primary one, or one the program created with cuCtxCreate and made current):
// each context loads the fat binary itself (its own module variables, as on
// CUDA), so loads and kernels are kept per context id (Context::id(), never
// reused). An -rdc program registers one version-2 wrapper (nvcc's
// link.stub, through __cudaRegisterLinkedBinary_*) listing every object's
// prelinked fatbin: their PTX modules are loaded as one linked image. Registered variables are passed as host-visible globals
// (pinned by the pipeline; those larger than an empty object forbid a
// per-kernel split). This registry is the shim's only mutable global state.
//
//===----------------------------------------------------------------------===//
#include "Shim.h"

#include "fatbin/Fatbin.h"

#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace cudartshim {

namespace {
constexpr uint32_t EmulatedSM = 90; // PTX selection and reported compute capability

// The fat binary as loaded in one context.
struct Loaded {
  bool tried = false;
  cudaError_t failure = cudaSuccess;
  runtime::Module *mod = nullptr;
  uint64_t generation = 0; // the context generation `mod` was loaded in
};
struct FatModule {
  const void *wrapper = nullptr;
  std::map<uint64_t, Loaded> perContext; // by Context::id()
  uint32_t ptxArch = 0;
};
struct VarEntry {
  FatModule *mod = nullptr;
  std::string name;
  size_t size = 0;
  bool managed = false;
  void **managedPtr = nullptr; // __managed__: where the host code reads the variable's address
  bool aliased = false;        // *managedPtr is a host alias this registry made (a module load)
  uint64_t aliasContext = 0;   // the id of the context whose copy *managedPtr shows
};

struct Registry {
  std::mutex Mu; // also serialises module loads
  std::vector<std::unique_ptr<FatModule>> Modules;
  std::vector<std::unique_ptr<KernelEntry>> Kernels;
  std::map<const void *, KernelEntry *> ByHost;
  std::map<const void *, VarEntry> Vars;
};
Registry &reg() {
  static Registry *R = new Registry; // never destroyed: atexit unregistration may run late
  return *R;
}
} // namespace

struct KernelEntry {
  FatModule *mod = nullptr;
  std::string name;
  std::map<uint64_t, runtime::Function *> fn; // by Context::id()
};

namespace {
// Caller holds reg().Mu. Loads M in context C (null on entry: the current
// one; *Out: its module there). After a cudaDeviceReset (a new context generation) the fat binary
// is loaded again, as CUDA does: its kernels' cached functions are dropped
// and its variables start from their initial values.
cudaError_t ensureLoaded(Registry &R, FatModule &FM, runtime::Context *&C, runtime::Module *&Out) {
  cudaError_t Err = cudaSuccess;
  if (!C) C = context(&Err);
  if (!C) return Err;
  Loaded &M = FM.perContext[C->id()];
  if ((M.mod || M.tried) && M.generation != C->generation()) {
    M = Loaded();
    for (auto &K : R.Kernels)
      if (K->mod == &FM) K->fn.erase(C->id());
  }
  Out = M.mod;
  if (M.mod) return cudaSuccess;
  if (M.tried) return M.failure;
  M.tried = true;
  M.generation = C->generation();
  auto Fail = [&](cudaError_t E, const std::string &Msg) {
    note(Msg);
    return M.failure = E;
  };
  auto Ptx = ptxfatbin::ptxFromWrapper(FM.wrapper, EmulatedSM);
  if (!Ptx) return Fail(cudaErrorInvalidKernelImage, "cannot read the fat binary: " + llvm::toString(Ptx.takeError()));
  if (Ptx->empty())
    return Fail(cudaErrorInvalidKernelImage,
                "the fat binary holds no PTX (compile with -gencode arch=compute_XX,code=compute_XX or "
                "-arch=sm_XX, which embeds PTX)");
  // -rdc: a version-2 wrapper lists every object's prelinked fatbin; their
  // relocatable PTX modules are linked into one image (ptxjit/Link.h).
  runtime::ModuleSource Src;
  Src.ptx = std::string((*Ptx)[0].text);
  Src.name = "fatbin.ptx";
  for (size_t I = 1; I < Ptx->size(); ++I) Src.linkedPtx.push_back(std::move((*Ptx)[I].text));
  for (auto &[H, V] : R.Vars)
    if (V.mod == &FM) {
      Src.hostVisibleGlobals.push_back(V.name);
      if (V.size > 1) Src.hostMutableGlobals.push_back(V.name);
    }
  auto L = C->loadModule(Src);
  if (!L) {
    std::string Msg;
    runtime::Errc E = runtime::takeErrc(L.takeError(), &Msg);
    return Fail(toCuda(E), "translation of the PTX (sm_" + std::to_string((*Ptx)[0].arch) + (Ptx->size() > 1 ? ", " + std::to_string(Ptx->size()) + " -rdc modules linked" : std::string()) + ") failed: " + Msg);
  }
  Out = M.mod = *L;
  FM.ptxArch = (*Ptx)[0].arch;
  // __managed__ variables: the host reads them through *managedPtr, which
  // shows the copy of the first context that loaded the module (a further
  // context's kernels use their own copy).
  for (auto &[H, V] : R.Vars) {
    if (V.mod != &FM || !V.managed) continue;
    if (V.aliased && V.aliasContext != C->id()) {
      note("__managed__ variable '" + V.name + "': the host keeps seeing the copy of the context that loaded it "
           "first; kernels of a further context use their own");
      continue;
    }
    auto G = M.mod->global(V.name);
    if (!G) {
      note("__managed__ variable '" + V.name + "': " + llvm::toString(G.takeError()));
      continue;
    }
    // Loaded again after a cudaDeviceReset: CUDA keeps a __managed__ variable's
    // value across the reset (seen on the H200, tests/shim/device_reset.cu), so
    // the variable starts from the bytes of its previous alias (retired, still
    // readable), not from its initial value.
    if (V.aliased)
      if (llvm::Error E = C->copySync(G->address, reinterpret_cast<uint64_t>(*V.managedPtr), V.size,
                                      runtime::MemcpyKind::HostToDevice))
        note("__managed__ variable '" + V.name + "': its value before the device reset is lost: " +
             llvm::toString(std::move(E)));
    auto HostAddr = C->backend().hostAlias(G->address, V.size);
    if (!HostAddr) {
      note("__managed__ variable '" + V.name + "': " + llvm::toString(HostAddr.takeError()));
      continue;
    }
    *V.managedPtr = reinterpret_cast<void *>(*HostAddr);
    V.aliased = true;
    V.aliasContext = C->id();
  }
  return cudaSuccess;
}
} // namespace

KernelEntry *kernelFor(const void *Func) {
  Registry &R = reg();
  std::lock_guard<std::mutex> G(R.Mu);
  auto It = R.ByHost.find(Func);
  if (It != R.ByHost.end()) return It->second;
  for (auto &K : R.Kernels) // a cudaKernel_t handle from __cudaGetKernel
    if (K.get() == Func) return K.get();
  return nullptr;
}

cudaError_t functionOf(KernelEntry *K, runtime::Function **F, runtime::Context *In) {
  if (!K) return cudaErrorInvalidDeviceFunction;
  Registry &R = reg();
  std::lock_guard<std::mutex> G(R.Mu);
  runtime::Context *C = In;
  runtime::Module *M = nullptr;
  if (cudaError_t E = ensureLoaded(R, *K->mod, C, M)) return E;
  if (auto It = K->fn.find(C->id()); It != K->fn.end() && !It->second->module().retired()) {
    *F = It->second;
    return cudaSuccess;
  }
  auto Fn = M->function(K->name);
  if (!Fn) {
    std::string Msg;
    runtime::Errc E = runtime::takeErrc(Fn.takeError(), &Msg);
    note(Msg);
    return toCuda(E);
  }
  *F = K->fn[C->id()] = *Fn;
  return cudaSuccess;
}

cudaError_t symbolAddress(const void *Symbol, uint64_t *Addr, size_t *Size) {
  Registry &R = reg();
  std::lock_guard<std::mutex> G(R.Mu);
  auto It = R.Vars.find(Symbol);
  if (It == R.Vars.end()) return cudaErrorInvalidSymbol;
  runtime::Context *C = nullptr;
  runtime::Module *M = nullptr;
  if (cudaError_t E = ensureLoaded(R, *It->second.mod, C, M)) return E;
  auto A = M->global(It->second.name);
  if (!A) {
    std::string Msg;
    runtime::Errc E = runtime::takeErrc(A.takeError(), &Msg);
    note(Msg);
    return toCuda(E);
  }
  *Addr = A->address;
  *Size = It->second.size;
  return cudaSuccess;
}

uint32_t ptxArchOf(KernelEntry *K) { return K && K->mod ? K->mod->ptxArch : 0; }

} // namespace cudartshim

using namespace cudartshim;

extern "C" {

void **__cudaRegisterFatBinary(void *FatCubin) {
  Registry &R = reg();
  std::lock_guard<std::mutex> G(R.Mu);
  auto M = std::make_unique<FatModule>();
  M->wrapper = FatCubin;
  void **H = reinterpret_cast<void **>(M.get());
  R.Modules.push_back(std::move(M));
  return H;
}
void __cudaRegisterFatBinaryEnd(void **) {}
void __cudaUnregisterFatBinary(void **) {}

void __cudaRegisterFunction(void **H, const char *HostFun, char *DeviceFun, const char *DeviceName, int, uint3 *,
                            uint3 *, dim3 *, dim3 *, int *) {
  Registry &R = reg();
  std::lock_guard<std::mutex> G(R.Mu);
  auto K = std::make_unique<KernelEntry>();
  K->mod = reinterpret_cast<FatModule *>(H);
  K->name = DeviceName ? DeviceName : DeviceFun;
  R.ByHost[HostFun] = K.get();
  R.Kernels.push_back(std::move(K));
}

void __cudaRegisterVar(void **H, char *HostVar, char *DeviceAddress, const char *DeviceName, int, size_t Size,
                       int, int) {
  Registry &R = reg();
  std::lock_guard<std::mutex> G(R.Mu);
  R.Vars[HostVar] = VarEntry{reinterpret_cast<FatModule *>(H), DeviceName ? DeviceName : DeviceAddress, Size, false,
                             nullptr};
}

void __cudaRegisterManagedVar(void **H, void **HostVarPtrAddress, char *DeviceAddress, const char *DeviceName, int,
                              size_t Size, int, int) {
  Registry &R = reg();
  std::lock_guard<std::mutex> G(R.Mu);
  R.Vars[HostVarPtrAddress] = VarEntry{reinterpret_cast<FatModule *>(H), DeviceName ? DeviceName : DeviceAddress,
                                       Size, true, HostVarPtrAddress};
}

// Called by nvcc's host code before the first host access to a __managed__
// variable: loads the module and points the variables at host-visible memory.
char __cudaInitModule(void **H) {
  Registry &R = reg();
  std::lock_guard<std::mutex> G(R.Mu);
  runtime::Context *C = nullptr;
  runtime::Module *M = nullptr;
  return ensureLoaded(R, *reinterpret_cast<FatModule *>(H), C, M) == cudaSuccess;
}

} // extern "C"

//===- cuda-driver/lib/Module.cpp - modules, libraries, kernels, functions ------===//
//
// cuModule*: an image's PTX (Image.cpp) is loaded into the current context through the
// core (runtime::Context::loadModule). Every module-scope .global / .const variable of the
// PTX is declared host-visible (cuModuleGetGlobal may name any of them; non-rdc PTX makes
// them internal), and those larger than one byte host-mutable (they forbid per-kernel images). cuLibrary*: lazy, per context, as in
// CUDA 13 (cuLibraryLoadData accepts an unusable image; cuLibraryGetKernel reports it).
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include <cctype>
#include <cstring>
#include <fstream>
#include <sstream>

namespace cudadrv {
namespace {

// Module-scope .global / .const variables the PTX defines: name and size in bytes.
struct ModuleVariable {
  std::string name;
  uint64_t bytes = 0;
};

uint64_t typeBytes(const std::string &T) {
  if (T.size() < 3) return 0;
  std::string Bits = T.substr(2);
  if (Bits == "8") return 1;
  if (Bits == "16") return 2;
  if (Bits == "32") return 4;
  if (Bits == "64") return 8;
  return T == ".pred" ? 1 : 0;
}

std::vector<ModuleVariable> moduleVariables(const std::string &P) {
  std::vector<ModuleVariable> Out;
  int Depth = 0;
  size_t I = 0, N = P.size();
  std::string Stmt;
  auto Finish = [&] {
    std::istringstream S(Stmt);
    std::string Tok;
    bool Extern = false, Space = false;
    uint64_t Elem = 0;
    while (S >> Tok) {
      if (Tok == ".extern") Extern = true;
      else if (Tok == ".global" || Tok == ".const") Space = true;
      else if (Tok[0] == '.') { if (uint64_t B = typeBytes(Tok)) Elem = B; }
      else if (isdigit((unsigned char)Tok[0])) continue;
      else if (!Space) {
        continue; // the tail of a directive without ';' (.version 9.0 / .target sm_90 / ...)
      } else {
        if (!Extern) {
          ModuleVariable V;
          size_t E = Tok.find_first_of("[=;");
          V.name = Tok.substr(0, E);
          V.bytes = Elem ? Elem : 1;
          // array dimensions: [N][M]... (an empty [] counts as one element)
          for (size_t B = Tok.find('['); B != std::string::npos; B = Tok.find('[', B + 1)) {
            uint64_t D = strtoull(Tok.c_str() + B + 1, nullptr, 10);
            V.bytes *= D ? D : 1;
          }
          Out.push_back(V);
        }
        break;
      }
    }
    Stmt.clear();
  };
  while (I < N) {
    char C = P[I];
    if (C == '/' && I + 1 < N && P[I + 1] == '/') { I = P.find('\n', I); if (I == std::string::npos) break; continue; }
    if (C == '/' && I + 1 < N && P[I + 1] == '*') { I = P.find("*/", I); if (I == std::string::npos) break; I += 2; continue; }
    if (C == '"') { size_t E = P.find('"', I + 1); I = E == std::string::npos ? N : E + 1; continue; }
    if (C == '{') { if (Depth == 0 && Stmt.find('=') == std::string::npos) Stmt.clear(); ++Depth; }
    else if (C == '}') { if (Depth > 0) --Depth; if (Depth == 0 && Stmt.find('=') == std::string::npos) Stmt.clear(); }
    else if (Depth == 0) {
      if (C == ';') Finish();
      else Stmt += (C == '=' ? std::string(" = ") : std::string(1, C));
    }
    ++I;
  }
  return Out;
}

CUresult loadImage(const void *Image, const char *Api, DrvModule **Out, std::string *MsgOut = nullptr) {
  DrvContext *C;
  if (CUresult R = currentContext(&C)) return R;
  std::vector<std::string> PTX;
  std::string Msg;
  CUresult R = imagePTX(Image, PTX, Msg);
  if (MsgOut) *MsgOut = Msg;
  if (R == CUDA_ERROR_NO_BINARY_FOR_GPU || R == CUDA_ERROR_INVALID_IMAGE || R == CUDA_ERROR_NOT_SUPPORTED)
    return failLoud(R, std::string(Api) + ": " + Msg);
  if (R) return R;
  return loadModule(C, PTX, "module.ptx", Out);
}

} // namespace

void writeLog(unsigned N, CUjit_option *Opts, void **Vals, const std::string &Msg) {
  if (!Opts || !Vals) return;
  char *Buf = nullptr;
  size_t Size = 0;
  for (unsigned K = 0; K < N; ++K) {
    if (Opts[K] == CU_JIT_ERROR_LOG_BUFFER) Buf = static_cast<char *>(Vals[K]);
    if (Opts[K] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) Size = reinterpret_cast<size_t>(Vals[K]);
  }
  if (Buf && Size) snprintf(Buf, Size, "%s", Msg.c_str());
  for (unsigned K = 0; K < N; ++K)
    if (Opts[K] == CU_JIT_INFO_LOG_BUFFER && Vals[K]) {
      for (unsigned J = 0; J < N; ++J)
        if (Opts[J] == CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES && reinterpret_cast<size_t>(Vals[J]))
          static_cast<char *>(Vals[K])[0] = 0;
    }
}

CUresult loadModule(DrvContext *Ctx, const std::vector<std::string> &PTX, const std::string &Name, DrvModule **Out) {
  if (PTX.empty()) return CUDA_ERROR_INVALID_IMAGE;
  runtime::ModuleSource Src;
  Src.ptx = PTX[0];
  Src.linkedPtx.assign(PTX.begin() + 1, PTX.end()); // -rdc modules, linked into one image
  Src.name = Name;
  // The host may write any of them (cuModuleGetGlobal + a copy, cudaMemcpyToSymbol): all are
  // host-visible, and every one larger than an empty object (1 byte) forbids per-kernel images.
  for (const std::string &Text : PTX)
    for (const ModuleVariable &V : moduleVariables(Text)) {
      Src.hostVisibleGlobals.push_back(V.name);
      if (V.bytes > 1) Src.hostMutableGlobals.push_back(V.name);
    }
  auto M = Ctx->core->loadModule(Src);
  if (!M) return fail(M.takeError(), "cuModuleLoadData");
  auto *D = new DrvModule;
  D->ctx = Ctx;
  D->core = *M;
  HandleTable::get().add(D);
  *Out = D;
  return CUDA_SUCCESS;
}

CUresult moduleFunction(DrvModule *M, const char *Name, DrvFunction **Out) {
  std::lock_guard<std::mutex> L(M->mu);
  auto It = M->functions.find(Name);
  if (It != M->functions.end()) { *Out = It->second.get(); return CUDA_SUCCESS; }
  auto F = M->core->function(Name);
  if (!F) {
    runtime::takeErrc(F.takeError());
    return CUDA_ERROR_NOT_FOUND;
  }
  auto D = std::make_unique<DrvFunction>();
  D->core = *F;
  D->module = M;
  D->name = Name;
  *Out = D.get();
  HandleTable::get().add(D.get());
  M->functions.emplace(Name, std::move(D));
  return CUDA_SUCCESS;
}

CUresult resolveFunction(CUfunction F, DrvFunction **Out) {
  if (!F) return CUDA_ERROR_INVALID_HANDLE;
  if (HandleTable::get().live<DrvFunction>(F)) { *Out = reinterpret_cast<DrvFunction *>(F); return CUDA_SUCCESS; }
  if (HandleTable::get().live<DrvKernel>(F)) return kernelFunction(reinterpret_cast<DrvKernel *>(F), Out);
  return CUDA_ERROR_INVALID_HANDLE;
}

// The library's module in the current context; with `AnyContext`, when none is current, in
// device 0's primary context (cuLibraryGetKernel needs no context in CUDA 13: static cudart
// calls it before making one current when a program's first runtime call is a launch).
// `In`: that context instead of the current one.
static CUresult libraryModule(DrvLibrary *Lib, DrvModule **Out, bool AnyContext = false, DrvContext *In = nullptr) {
  if (Lib->loadError) return failLoud(Lib->loadError, "cuLibrary: " + Lib->loadMessage);
  DrvContext *C = In;
  if (CUresult R = C ? CUDA_SUCCESS : currentContext(&C)) {
    if (!AnyContext) return R;
    if (CUresult P = primaryContext(0, &C)) return P;
  }
  std::lock_guard<std::mutex> L(Lib->mu);
  DrvModule *&M = Lib->modules[C];
  if (!M) {
    if (CUresult R = loadModule(C, Lib->ptx, "library.ptx", &M)) {
      Lib->modules.erase(C);
      return R;
    }
  }
  *Out = M;
  return CUDA_SUCCESS;
}

CUresult kernelFunction(DrvKernel *K, DrvFunction **Out, DrvContext *In) {
  DrvModule *M;
  if (CUresult R = libraryModule(K->library, &M, false, In)) return R;
  if (CUresult R = moduleFunction(M, K->name.c_str(), Out)) return R;
  (*Out)->kernel = K;
  return CUDA_SUCCESS;
}

} // namespace cudadrv

using namespace cudadrv;

CUresult cuModuleLoadData(CUmodule *Mod, const void *Image) {
  if (!Mod) return CUDA_ERROR_INVALID_VALUE;
  return loadImage(Image, "cuModuleLoadData", reinterpret_cast<DrvModule **>(Mod));
}

CUresult cuModuleLoadDataEx(CUmodule *Mod, const void *Image, unsigned int N, CUjit_option *Opts, void **Vals) {
  if (!Mod) return CUDA_ERROR_INVALID_VALUE;
  std::string Msg;
  CUresult R = loadImage(Image, "cuModuleLoadDataEx", reinterpret_cast<DrvModule **>(Mod), &Msg);
  writeLog(N, Opts, Vals, R ? Msg : std::string());
  return R;
}

CUresult cuModuleLoadFatBinary(CUmodule *Mod, const void *Image) {
  if (!Mod) return CUDA_ERROR_INVALID_VALUE;
  return loadImage(Image, "cuModuleLoadFatBinary", reinterpret_cast<DrvModule **>(Mod));
}

static CUresult readWholeFile(const char *Path, std::vector<char> &Data) {
  if (!Path) return CUDA_ERROR_INVALID_VALUE;
  std::ifstream F(Path, std::ios::binary);
  if (!F) return CUDA_ERROR_FILE_NOT_FOUND;
  Data.assign(std::istreambuf_iterator<char>(F), std::istreambuf_iterator<char>());
  Data.push_back('\0');
  return CUDA_SUCCESS;
}

CUresult cuModuleLoad(CUmodule *Mod, const char *Path) {
  if (!Mod) return CUDA_ERROR_INVALID_VALUE;
  std::vector<char> Data;
  if (CUresult R = readWholeFile(Path, Data)) return R;
  return loadImage(Data.data(), "cuModuleLoad", reinterpret_cast<DrvModule **>(Mod));
}

void cudadrv::forgetLibraryModules(DrvContext *C) {
  HandleTable::get().forEach<DrvLibrary>([&](DrvLibrary *L) {
    std::lock_guard<std::mutex> G(L->mu);
    L->modules.erase(C);
  });
}

CUresult cuModuleUnload(CUmodule Mod) {
  auto *M = reinterpret_cast<DrvModule *>(Mod);
  if (!HandleTable::get().live<DrvModule>(M)) return CUDA_ERROR_INVALID_HANDLE;
  HandleTable::get().remove(M);
  for (auto &[Name, F] : M->functions) HandleTable::get().remove(F.get());
  CUresult R = fail(M->ctx->core->unloadModule(M->core), "cuModuleUnload");
  delete M;
  return R;
}

CUresult cuModuleGetFunction(CUfunction *Fn, CUmodule Mod, const char *Name) {
  if (!Fn || !Name) return CUDA_ERROR_INVALID_VALUE;
  auto *M = reinterpret_cast<DrvModule *>(Mod);
  if (!HandleTable::get().live<DrvModule>(M)) return CUDA_ERROR_INVALID_HANDLE;
  return moduleFunction(M, Name, reinterpret_cast<DrvFunction **>(Fn));
}

static CUresult moduleGlobal(DrvModule *M, CUdeviceptr *Ptr, size_t *Bytes, const char *Name) {
  if (!Name) return CUDA_ERROR_INVALID_VALUE;
  auto G = M->core->global(Name);
  if (!G) {
    std::string Msg;
    runtime::Errc C = runtime::takeErrc(G.takeError(), &Msg);
    if (C == runtime::Errc::InvalidSymbol) return CUDA_ERROR_NOT_FOUND;
    return failLoud(toResult(C), std::string("module global: ") + Msg);
  }
  if (Ptr) *Ptr = G->address;
  if (Bytes) *Bytes = G->size;
  return CUDA_SUCCESS;
}

CUresult cuModuleGetGlobal(CUdeviceptr *Ptr, size_t *Bytes, CUmodule Mod, const char *Name) {
  auto *M = reinterpret_cast<DrvModule *>(Mod);
  if (!HandleTable::get().live<DrvModule>(M)) return CUDA_ERROR_INVALID_HANDLE;
  return moduleGlobal(M, Ptr, Bytes, Name);
}

CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *Mode) {
  if (!Mode) return CUDA_ERROR_INVALID_VALUE;
  *Mode = CU_MODULE_LAZY_LOADING; // as CUDA 13 answers by default
  return CUDA_SUCCESS;
}

// ---- libraries ----------------------------------------------------------------------
static CUresult newLibrary(const void *Image, CUlibrary *Lib) {
  if (!Lib) return CUDA_ERROR_INVALID_VALUE;
  auto *L = new DrvLibrary;
  L->loadError = imagePTX(Image, L->ptx, L->loadMessage);
  if (L->loadError == CUDA_ERROR_INVALID_VALUE) { delete L; return CUDA_ERROR_INVALID_VALUE; }
  HandleTable::get().add(L);
  *Lib = reinterpret_cast<CUlibrary>(L);
  return CUDA_SUCCESS;
}

CUresult cuLibraryLoadData(CUlibrary *Lib, const void *Code, CUjit_option *, void **, unsigned int,
                           CUlibraryOption *, void **, unsigned int) {
  return newLibrary(Code, Lib);
}

CUresult cuLibraryLoadFromFile(CUlibrary *Lib, const char *Path, CUjit_option *, void **, unsigned int,
                               CUlibraryOption *, void **, unsigned int) {
  std::vector<char> Data;
  if (CUresult R = readWholeFile(Path, Data)) return R;
  return newLibrary(Data.data(), Lib);
}

static DrvLibrary *liveLibrary(CUlibrary L) {
  auto *D = reinterpret_cast<DrvLibrary *>(L);
  return HandleTable::get().live<DrvLibrary>(D) ? D : nullptr;
}

CUresult cuLibraryUnload(CUlibrary Lib) {
  DrvLibrary *L = liveLibrary(Lib);
  if (!L) return CUDA_ERROR_INVALID_HANDLE;
  HandleTable::get().remove(L);
  for (auto &[Name, K] : L->kernels) HandleTable::get().remove(K.get());
  for (auto &[Ctx, M] : L->modules) cuModuleUnload(reinterpret_cast<CUmodule>(M));
  delete L;
  return CUDA_SUCCESS;
}

CUresult cuLibraryGetKernel(CUkernel *Kernel, CUlibrary Lib, const char *Name) {
  if (!Kernel || !Name) return CUDA_ERROR_INVALID_VALUE;
  DrvLibrary *L = liveLibrary(Lib);
  if (!L) return CUDA_ERROR_INVALID_HANDLE;
  DrvModule *M;
  if (CUresult R = libraryModule(L, &M, /*AnyContext=*/true)) return R;
  DrvFunction *F;
  if (CUresult R = moduleFunction(M, Name, &F)) return R;
  std::lock_guard<std::mutex> G(L->mu);
  auto &K = L->kernels[Name];
  if (!K) {
    K = std::make_unique<DrvKernel>();
    K->library = L;
    K->name = Name;
    HandleTable::get().add(K.get());
  }
  *Kernel = reinterpret_cast<CUkernel>(K.get());
  return CUDA_SUCCESS;
}

CUresult cuLibraryGetModule(CUmodule *Mod, CUlibrary Lib) {
  if (!Mod) return CUDA_ERROR_INVALID_VALUE;
  DrvLibrary *L = liveLibrary(Lib);
  if (!L) return CUDA_ERROR_INVALID_HANDLE;
  return libraryModule(L, reinterpret_cast<DrvModule **>(Mod));
}

CUresult cuLibraryGetGlobal(CUdeviceptr *Ptr, size_t *Bytes, CUlibrary Lib, const char *Name) {
  DrvLibrary *L = liveLibrary(Lib);
  if (!L) return CUDA_ERROR_INVALID_HANDLE;
  DrvModule *M;
  if (CUresult R = libraryModule(L, &M)) return R;
  return moduleGlobal(M, Ptr, Bytes, Name);
}

CUresult cuLibraryGetKernelCount(unsigned int *Count, CUlibrary Lib) {
  if (!Count) return CUDA_ERROR_INVALID_VALUE;
  DrvLibrary *L = liveLibrary(Lib);
  if (!L) return CUDA_ERROR_INVALID_HANDLE;
  DrvModule *M;
  if (CUresult R = libraryModule(L, &M)) return R;
  *Count = unsigned(M->core->kernelNames().size());
  return CUDA_SUCCESS;
}

CUresult cuKernelGetFunction(CUfunction *Fn, CUkernel Kernel) {
  if (!Fn) return CUDA_ERROR_INVALID_VALUE;
  if (!HandleTable::get().live<DrvKernel>(Kernel)) return CUDA_ERROR_INVALID_HANDLE;
  return kernelFunction(reinterpret_cast<DrvKernel *>(Kernel), reinterpret_cast<DrvFunction **>(Fn));
}

CUresult cuKernelGetName(const char **Name, CUkernel Kernel) {
  if (!Name) return CUDA_ERROR_INVALID_VALUE;
  if (!HandleTable::get().live<DrvKernel>(Kernel)) return CUDA_ERROR_INVALID_HANDLE;
  *Name = reinterpret_cast<DrvKernel *>(Kernel)->name.c_str();
  return CUDA_SUCCESS;
}

// ---- function attributes ----------------------------------------------------------
static CUresult functionAttribute(int *Value, CUfunction_attribute A, DrvFunction *F) {
  const runtime::KernelProperties &P = F->core->properties();
  switch (A) {
  case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *Value = int(P.maxThreadsPerBlock); break;
  case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *Value = int(P.staticLdsBytes); break;
  case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *Value = 0; break;
  case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *Value = int(P.privateSegmentBytes); break;
  case CU_FUNC_ATTRIBUTE_NUM_REGS: *Value = int(P.numRegs); break;
  case CU_FUNC_ATTRIBUTE_PTX_VERSION:
  case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *Value = 90; break;
  case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *Value = 0; break;
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: {
    // Until set: what a work-group may still use next to the kernel's static LDS.
    uint32_t Total = F->module->ctx->core->properties().sharedMemPerBlock;
    *Value = F->maxDynamicShared ? F->maxDynamicShared
                                 : int(Total > P.staticLdsBytes ? Total - P.staticLdsBytes : 0);
    break;
  }
  case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *Value = F->preferredCarveout; break;
  // No thread-block clusters: none required, none allowed beyond 1.
  case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET:
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
  case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
  case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
  case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE: *Value = 0; break;
  default: return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int *Value, CUfunction_attribute A, CUfunction Fn) {
  if (!Value) return CUDA_ERROR_INVALID_VALUE;
  DrvFunction *F;
  if (CUresult R = resolveFunction(Fn, &F)) return R;
  return functionAttribute(Value, A, F);
}

CUresult cuFuncSetAttribute(CUfunction Fn, CUfunction_attribute A, int Value) {
  DrvFunction *F;
  if (CUresult R = resolveFunction(Fn, &F)) return R;
  switch (A) {
  case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: {
    const auto &P = F->module->ctx->core->properties();
    if (Value < 0 || uint64_t(Value) + F->core->properties().staticLdsBytes > P.sharedMemPerBlock)
      return CUDA_ERROR_INVALID_VALUE;
    F->maxDynamicShared = Value;
    return CUDA_SUCCESS;
  }
  case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: F->preferredCarveout = Value; return CUDA_SUCCESS;
  default: return unsupported("cuFuncSetAttribute (attribute other than max dynamic shared size / carveout)");
  }
}

CUresult cuFuncSetCacheConfig(CUfunction Fn, CUfunc_cache) {
  DrvFunction *F;
  return resolveFunction(Fn, &F); // a hint: the LDS size is fixed
}

CUresult cuFuncGetName(const char **Name, CUfunction Fn) {
  if (!Name) return CUDA_ERROR_INVALID_VALUE;
  DrvFunction *F;
  if (CUresult R = resolveFunction(Fn, &F)) return R;
  *Name = F->name.c_str();
  return CUDA_SUCCESS;
}

CUresult cuKernelGetAttribute(int *Value, CUfunction_attribute A, CUkernel Kernel, CUdevice) {
  return cuFuncGetAttribute(Value, A, reinterpret_cast<CUfunction>(Kernel));
}
CUresult cuKernelSetAttribute(CUfunction_attribute A, int Value, CUkernel Kernel, CUdevice) {
  return cuFuncSetAttribute(reinterpret_cast<CUfunction>(Kernel), A, Value);
}

//===- Module.cpp - translate, load, split per kernel (runtime/Module.h) -----===//
//
// Context::loadModule runs the ptxjit pipeline driver once for the device's
// target and the process's warp policies, producing what the backend needs
// (lowered module and/or code object). If the module's kernels together
// declare more static LDS than a work-group may use and splitting duplicates
// no mutable state, the lowered module is kept and each kernel's image is
// extracted and loaded on first use -- for backends that execute the lowered
// module (emu counts LDS per module). A code object needs no split: LLVM's
// AMDGPU backend gives each kernel only the LDS it reaches (its descriptor's
// group_segment_fixed_size), and a per-kernel image would have no code object.
//
//===----------------------------------------------------------------------===//
#include "ContextImpl.h"

#include "runtime/Log.h"
#include "ptxjit/Pipeline.h"
#include "support/Error.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#if PTX2AMD_HAVE_CACHE
#include "runtime/BundleLookup.h"
#include "runtime/Cache.h"
#include "runtime/CacheOptions.h"
#endif

namespace runtime {

struct SharedLowered { // declared order = destruction order reversed: module before context
  std::unique_ptr<llvm::LLVMContext> Ctx;
  std::unique_ptr<llvm::Module> M;
  ~SharedLowered() { M.reset(); }
};

struct Module::Impl {
  std::mutex Mu;
  std::vector<std::unique_ptr<BackendModule>> Images;
  std::vector<std::string> Kernels;
  std::shared_ptr<SharedLowered> Split; // split mode: the whole lowered module
  std::map<std::string, std::unique_ptr<Function>, std::less<>> Functions;
};

Module::Module(Context &C, std::unique_ptr<Impl> I) : Ctx(&C), P(std::move(I)) {}
Module::~Module() = default;
std::vector<std::string> Module::kernelNames() const { return P->Kernels; }
bool Module::isSplit() const { return P->Split != nullptr; }

static llvm::Error retiredError() {
  return makeError(Errc::InvalidResourceHandle, "the module was unloaded by a device reset");
}

llvm::Expected<Function *> Module::function(llvm::StringRef Name) {
  if (retired()) return retiredError();
  std::lock_guard<std::mutex> G(P->Mu);
  if (auto It = P->Functions.find(Name); It != P->Functions.end()) return It->second.get();
  BackendModule *Img = nullptr;
  if (P->Split) {
    if (llvm::Function *F = P->Split->M->getFunction(Name); !F || F->isDeclaration())
      return makeError(Errc::InvalidDeviceFunction, "kernel '" + Name + "' not found in the translated module");
    ModuleImage MI;
    MI.arch = Ctx->properties().arch;
    MI.lowered = ptxjit::extractKernel(*P->Split->M, Name);
    MI.keepAlive = P->Split;
    auto L = Ctx->backend().loadModule(std::move(MI));
    if (!L) {
      std::string Msg;
      takeErrc(L.takeError(), &Msg);
      return makeError(Errc::InvalidKernelImage, "the device rejected the translated kernel '" + Name + "': " + Msg);
    }
    P->Images.push_back(std::move(*L));
    Img = P->Images.back().get();
  } else {
    for (auto &I : P->Images)
      for (const std::string &K : I->kernelNames())
        if (K == Name) Img = I.get();
    if (!Img) return makeError(Errc::InvalidDeviceFunction, "kernel '" + Name + "' not found in the translated module");
  }
  auto KP = Img->kernel(Name);
  if (!KP) return KP.takeError();
  auto F = std::make_unique<Function>();
  F->Mod = this;
  F->Image = Img;
  F->Props = std::move(*KP);
  Function *Raw = F.get();
  P->Functions[Name.str()] = std::move(F);
  return Raw;
}

llvm::Expected<GlobalInfo> Module::global(llvm::StringRef Name) {
  if (retired()) return retiredError();
  std::lock_guard<std::mutex> G(P->Mu);
  if (P->Split)
    return makeError(Errc::NotSupported, "host access to variable '" + Name + "' of a module loaded per kernel");
  for (auto &I : P->Images) {
    auto A = I->global(Name);
    if (A) {
      // Registered so that copies and launches may use its address.
      Ctx->registerGlobal(*A);
      return *A;
    }
    llvm::consumeError(A.takeError());
  }
  return makeError(Errc::InvalidSymbol, "variable '" + Name + "' not found in the translated module");
}

namespace {

#if PTX2AMD_HAVE_CACHE
// The process's on-disk cache (runtime/cache/), opened on first use; null
// when it cannot be opened (then every module is translated).
CodeObjectCache *diskCache() {
  static std::unique_ptr<CodeObjectCache> C = [] {
    auto R = CodeObjectCache::openDefault();
    if (!R) {
      logger("jit")->warn("on-disk cache unavailable: {}", llvm::toString(R.takeError()));
      return std::unique_ptr<CodeObjectCache>();
    }
    return std::move(*R);
  }();
  return C.get();
}

std::vector<std::string> allUnits(const ModuleSource &Src) {
  std::vector<std::string> U{Src.ptx};
  U.insert(U.end(), Src.linkedPtx.begin(), Src.linkedPtx.end());
  return U;
}

CacheKey keyOf(const ModuleSource &Src, const ptxjit::PipelineOptions &O) {
  amdgpulower::LowerOptions LO;
  LO.arch = O.arch;
  LO.optLevel = O.optLevel;
  LO.defaultPolicy = O.defaultPolicy;
  LO.kernelPolicy = O.kernelPolicy;
  LO.codeObjectVersion = O.codeObjectVersion;
  std::vector<std::string> Pins = O.pinGlobals;
  std::sort(Pins.begin(), Pins.end());
  std::string Joined;
  for (const std::string &N : Pins) Joined += (Joined.empty() ? "" : ",") + N;
  std::string Text = Src.linkedPtx.empty() ? std::string() : linkedPtxKeyText(allUnits(Src));
  return makeCacheKey(Src.linkedPtx.empty() ? llvm::StringRef(Src.ptx) : llvm::StringRef(Text), O.arch,
                      optionsFingerprint(LO, CacheInputKind::PTX, {{"pin", Joined}}));
}
#endif

// Products of one translation, from the cache (or an offload bundle) when
// they are there, else from the pipeline driver (and then published).
llvm::Expected<ptxjit::PipelineResult> translateOrReuse(const ModuleSource &Src, const ptxjit::PipelineOptions &O) {
  static auto Log = logger("jit");
#if PTX2AMD_HAVE_CACHE
  CodeObjectCache *Cache = diskCache();
  CacheKey Key = keyOf(Src, O);
  ptxjit::PipelineResult Hit;
  bool HaveAll = true;
  if (O.emitCodeObject) {
    if (auto B = findBundledCodeObject(O.arch, Key)) {
      Log->debug("bundle hit {} for {} ({})", Key.Hex, Src.name, B->Path);
      Hit.codeObject = std::move(B->Bytes);
    } else if (auto C = Cache ? Cache->lookup(Key, "hsaco") : std::nullopt) {
      Log->debug("cache hit {} hsaco for {}", Key.Hex, Src.name);
      Hit.codeObject = std::move(*C);
    } else {
      HaveAll = false;
    }
  }
  if (HaveAll && O.emitLowered) {
    if (auto C = Cache ? Cache->lookup(Key, "emu-bc") : std::nullopt) {
      Hit.context = std::make_unique<llvm::LLVMContext>();
      auto M = llvm::parseBitcodeFile(
          llvm::MemoryBufferRef(llvm::StringRef(reinterpret_cast<const char *>(C->data()), C->size()), Src.name),
          *Hit.context);
      if (M) {
        Log->debug("cache hit {} emu-bc for {}", Key.Hex, Src.name);
        Hit.lowered = std::move(*M);
        for (llvm::Function &F : *Hit.lowered)
          if (F.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL && !F.isDeclaration())
            Hit.kernels.push_back(F.getName().str());
      } else {
        Log->warn("cached emu-bc {} does not parse ({}); translating", Key.Hex, llvm::toString(M.takeError()));
        HaveAll = false;
      }
    } else {
      HaveAll = false;
    }
  }
  if (HaveAll) return Hit;
#endif
  // The units' names are views into Names: all of them are made before the first view.
  std::vector<std::string> Names{Src.name};
  for (size_t I = 0; I < Src.linkedPtx.size(); ++I) Names.push_back(Src.name + "." + std::to_string(I + 1));
  std::vector<ptxjit::PTXUnit> Units{{Src.ptx, Names[0]}};
  for (size_t I = 0; I < Src.linkedPtx.size(); ++I) Units.push_back({Src.linkedPtx[I], Names[I + 1]});
  auto R = ptxjit::compilePTXUnits(Units, O);
#if PTX2AMD_HAVE_CACHE
  if (R && Cache) {
    if (!R->codeObject.empty()) llvm::consumeError(Cache->publish(Key, "hsaco", R->codeObject));
    if (R->lowered) {
      llvm::SmallVector<char, 0> Buf;
      llvm::raw_svector_ostream OS(Buf);
      llvm::WriteBitcodeToFile(*R->lowered, OS);
      llvm::consumeError(Cache->publish(
          Key, "emu-bc", llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Buf.data()), Buf.size())));
    }
  }
#endif
  return R;
}

// The one mapping of a failed translation's kind (the pipeline's typed
// errors, support/Error.h) to the core's code. CUDA reports every JIT
// failure of a module's PTX as an invalid image (cudaErrorInvalidKernelImage
// / CUDA_ERROR_INVALID_IMAGE), whatever the cause; LLVM's own codegen errors
// (an LDS or register limit it enforces) reach us as Internal, so they stay
// there too. Only a kind no translation can produce is Unknown.
Errc errcOfTranslation(support::ErrorKind K) {
  switch (K) {
  case support::ErrorKind::Generic:
  case support::ErrorKind::Unsupported:
  case support::ErrorKind::ContractViolation:
  case support::ErrorKind::InvalidInput:
  case support::ErrorKind::ResourceLimit:
  case support::ErrorKind::IO:
  case support::ErrorKind::Internal: return Errc::InvalidKernelImage;
  case support::ErrorKind::DeviceFault: return Errc::Unknown;
  }
  return Errc::Unknown;
}

} // namespace

llvm::Expected<Module *> Context::loadModule(const ModuleSource &Src) {
  static auto Log = logger("jit");
  flushPrintf(); // CUDA flushes device printf at module load
  const DeviceProperties &DP = properties();
  ImageNeeds Needs = backend().imageNeeds();
  ptxjit::PipelineOptions O;
  O.arch = DP.arch;
  O.defaultPolicy = P->Policy.defaultPolicy;
  O.kernelPolicy = P->Policy.perKernel;
  O.pinGlobals = Src.hostVisibleGlobals;
  O.emitLowered = Needs.loweredModule;
  O.emitCodeObject = Needs.codeObject;
  if (Needs.codeObjectVersion) O.codeObjectVersion = Needs.codeObjectVersion;
  auto T0 = std::chrono::steady_clock::now();
  auto R = translateOrReuse(Src, O);
  if (!R) {
    llvm::Error E = R.takeError();
    const Errc Code = errcOfTranslation(support::errorKind(E));
    std::string Msg = support::renderLines(E, 20, "  ");
    std::vector<support::Diagnostic> Diags = support::takeDiagnostics(std::move(E));
    if (const char *Dump = getenv("PTX2AMD_SHIM_DUMP_PTX"))
      if (FILE *F = fopen(Dump, "w")) {
        fwrite(Src.ptx.data(), 1, Src.ptx.size(), F);
        fclose(F);
      }
    return makeError(Code, "translation of the PTX for " + DP.arch + " failed:\n" + Msg, std::move(Diags));
  }
  size_t PtxBytes = Src.ptx.size();
  for (const std::string &L : Src.linkedPtx) PtxBytes += L.size();
  Log->info("loaded {} ({} bytes of PTX in {} module(s), {} kernels) for {} in {:.3f} s", Src.name, PtxBytes,
            1 + Src.linkedPtx.size(),
            R->kernels.size(), DP.arch,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - T0).count());
  auto I = std::make_unique<Module::Impl>();
  I->Kernels = R->kernels;
  bool Split = false;
  // Only a backend that runs the lowered module (emu) needs a split: there
  // the module's static LDS is one allocation for all its kernels. In a code
  // object (hip, isa) LLVM's module-LDS lowering gives each kernel only the
  // variables it reaches (its group_segment_fixed_size, checked at launch),
  // and the kernels must share the one image's globals -- a per-kernel image
  // would have no code object at all.
  if (R->lowered && !Needs.codeObject) {
    uint64_t Lds = ptxjit::staticLdsBytes(*R->lowered);
    bool Force = getenv("PTX2AMD_SHIM_SPLIT") != nullptr; // testing aid
    if ((Force || Lds > DP.sharedMemPerBlock) && R->kernels.size() > 1 && !getenv("PTX2AMD_SHIM_NO_SPLIT")) {
      std::string Why;
      if (!ptxjit::canSplitPerKernel(*R->lowered, Src.hostMutableGlobals, Why))
        return makeError(Errc::InvalidKernelImage,
                         "the module's kernels declare " + std::to_string(Lds) +
                             " bytes of static shared memory in total (> " + std::to_string(DP.sharedMemPerBlock) +
                             " as the emulator counts it, per module) and cannot be split per kernel because " + Why);
      Split = true;
    }
  }
  if (Split) {
    auto S = std::make_shared<SharedLowered>();
    S->Ctx = std::move(R->context);
    S->M = std::move(R->lowered);
    I->Split = std::move(S);
  } else {
    ModuleImage MI;
    MI.arch = DP.arch;
    MI.context = std::move(R->context);
    MI.lowered = std::move(R->lowered);
    MI.codeObject = std::move(R->codeObject);
    auto L = backend().loadModule(std::move(MI));
    if (!L) {
      std::string Msg;
      Errc C = takeErrc(L.takeError(), &Msg);
      return makeError(C == Errc::Unknown ? Errc::InvalidKernelImage : C,
                       "the device rejected the translated module: " + Msg);
    }
    I->Images.push_back(std::move(*L));
  }
  std::lock_guard<std::mutex> G(P->Mu);
  P->Modules.push_back(std::make_unique<Module>(*this, std::move(I)));
  return P->Modules.back().get();
}

void Module::releaseMemory() {
  std::lock_guard<std::mutex> G(P->Mu);
  for (auto &I : P->Images) I->releaseMemory();
}

llvm::Error Context::unloadModule(Module *M) {
  std::lock_guard<std::mutex> G(P->Mu);
  for (auto It = P->Modules.begin(); It != P->Modules.end(); ++It)
    if (It->get() == M) {
      P->Modules.erase(It);
      return llvm::Error::success();
    }
  return makeError(Errc::InvalidResourceHandle, "not a loaded module");
}

} // namespace runtime

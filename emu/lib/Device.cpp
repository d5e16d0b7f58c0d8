//===- Device.cpp - device memory, module loading, launches -----------------===//
//
// The host side of amdgpu-emu: the global memory arena (a reserved host
// mapping; device addresses start at GlobalBase and every access is checked
// against the live allocations), module loading (translation happens once,
// here), kernel argument marshalling (explicit kernarg layout from the LLVM
// signature incl. byref aggregates, then the code-object-v5 hidden argument
// block at the explicit size aligned to 8, and an HSA dispatch packet), and
// the launch scheduler: host threads each keep a set of resident workgroups
// and time-slice their waves, so spin-waits between waves and between
// workgroups make progress; cooperative launches keep the whole grid
// resident. Warp policies: a "pad" kernel gets workgroups of
// 64*ceil(T/32) lanes and its trailing block-dim argument filled here.
// Launches from several host threads (streams) run at the same time; a
// module's printf FIFO is drained when its last in-flight launch ends, and
// its cooperative launches take turns (ModuleImage).
//
//===----------------------------------------------------------------------===//
#include "Internal.h"
#include "support/Contract.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Function.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <thread>

using namespace llvm;

namespace emu {
namespace detail {

static Error mkErr(const Twine &T) { return createStringError(inconvertibleErrorCode(), "emu: " + T.str()); }
// A launch or allocation over one of the device's limits (typed: the runtime
// maps the resource to the API's error code).
static Error limitErr(::support::Resource R, const Twine &T) {
  return ::support::resourceLimit(R, ::support::noLoc("emu: " + T.str()));
}

Expected<std::unique_ptr<Arena>> Arena::create(uint64_t Bytes) {
  void *P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (P == MAP_FAILED) return mkErr("cannot reserve " + Twine(Bytes) + " bytes for device memory");
  auto A = std::make_unique<Arena>();
  A->Base = static_cast<uint8_t *>(P);
  A->Size = Bytes;
  return A;
}
Arena::~Arena() {
  if (Base) munmap(Base, Size);
}
Expected<uint64_t> Arena::alloc(uint64_t Bytes, uint64_t Align) {
  std::unique_lock<std::shared_mutex> G(Mu);
  if (Bytes == 0) Bytes = 1;
  Align = std::max<uint64_t>(Align, 256);
  uint64_t Rounded = (Bytes + 255) & ~255ull;
  // first fit in the free list
  for (auto It = FreeList.begin(); It != FreeList.end(); ++It) {
    uint64_t Lo = (It->first + Align - 1) & ~(Align - 1);
    if (Lo + Rounded <= It->second) {
      uint64_t OldLo = It->first, OldHi = It->second;
      FreeList.erase(It);
      if (OldLo < Lo) FreeList.push_back({OldLo, Lo});
      if (Lo + Rounded < OldHi) FreeList.push_back({Lo + Rounded, OldHi});
      std::memset(Base + Lo, 0, Rounded);
      Live.insert(std::upper_bound(Live.begin(), Live.end(), std::make_pair(uint64_t(GlobalBase + Lo), uint64_t(0))),
                  {GlobalBase + Lo, GlobalBase + Lo + Bytes});
      return GlobalBase + Lo;
    }
  }
  uint64_t Lo = (Bump + Align - 1) & ~(Align - 1);
  // leave a 256-byte red zone between allocations
  if (Lo + Rounded + 256 > Size) return limitErr(::support::Resource::DeviceMemory, "out of device memory allocating " + Twine(Bytes) + " bytes");
  Bump = Lo + Rounded + 256;
  Live.insert(std::upper_bound(Live.begin(), Live.end(), std::make_pair(uint64_t(GlobalBase + Lo), uint64_t(0))),
              {GlobalBase + Lo, GlobalBase + Lo + Bytes});
  return GlobalBase + Lo;
}
Error Arena::free(uint64_t Addr) {
  std::unique_lock<std::shared_mutex> G(Mu);
  auto It = std::lower_bound(Live.begin(), Live.end(), std::make_pair(Addr, uint64_t(0)));
  if (It == Live.end() || It->first != Addr) return mkErr("free of an address that is not an allocation");
  uint64_t Lo = Addr - GlobalBase, Hi = (It->second - GlobalBase + 255) & ~255ull;
  Live.erase(It);
  // Give the freed range's memory back to the OS, but only the host pages
  // that lie wholly inside it: allocations are 256-byte granular, so a page
  // may also hold live neighbours, and the kernel rounds a MADV_DONTNEED
  // length up to whole pages (which would zero them). Reuse of the range
  // memsets it in alloc(), so nothing relies on the zeroing here.
  const uintptr_t Page = uintptr_t(sysconf(_SC_PAGESIZE));
  uintptr_t PLo = (reinterpret_cast<uintptr_t>(Base + Lo) + Page - 1) & ~(Page - 1);
  uintptr_t PHi = reinterpret_cast<uintptr_t>(Base + Hi) & ~(Page - 1);
  if (PHi > PLo) madvise(reinterpret_cast<void *>(PLo), PHi - PLo, MADV_DONTNEED);
  FreeList.push_back({Lo, Hi});
  return Error::success();
}
bool Arena::lookup(uint64_t Addr, uint64_t Sz, uint64_t &Lo, uint64_t &Hi) const {
  std::shared_lock<std::shared_mutex> G(Mu);
  auto It = std::upper_bound(Live.begin(), Live.end(), std::make_pair(Addr, ~uint64_t(0)));
  if (It == Live.begin()) return false;
  --It;
  if (Addr < It->first || Addr + Sz > It->second || Addr + Sz < Addr) return false;
  Lo = It->first;
  Hi = It->second;
  return true;
}

} // namespace detail

using namespace detail;

struct Device::Impl {
  DeviceOptions Opts;
  std::unique_ptr<Arena> A;
  std::vector<std::unique_ptr<ModuleImage>> Images;
  std::vector<std::unique_ptr<emu::Module>> Modules;
  mutable std::mutex CountMu;
  std::map<std::string, KernelCounters> Counters;

  Error launch(ModuleImage &Img, StringRef Name, const LaunchConfig &Cfg, void **Args);
  // Decodes the module's printf records; true when one is a failed
  // assertion's. Emit: the text of every record goes to the sink (every
  // writer is done); else only look for that flag (other launches of the
  // module may still be writing records: the walk stops at the first one
  // that is not complete yet).
  bool scanPrintf(ModuleImage &Img, uint64_t Cap, bool Emit, const std::function<void(StringRef)> &Sink);
};

Device::Device(std::unique_ptr<Impl> I) : P(std::move(I)) {}
Device::~Device() = default;

Expected<std::unique_ptr<Device>> Device::create(DeviceOptions Opts) {
  auto I = std::make_unique<Impl>();
  if (Opts.threads == 0) Opts.threads = std::max(1u, std::thread::hardware_concurrency());
  I->Opts = std::move(Opts);
  auto A = Arena::create(I->Opts.arenaBytes);
  if (!A) return A.takeError();
  I->A = std::move(*A);
  return std::unique_ptr<Device>(new Device(std::move(I)));
}

Expected<emu::Module *> Device::loadModule(std::unique_ptr<llvm::Module> M, std::unique_ptr<LLVMContext> Ctx) {
  auto Img = std::make_unique<ModuleImage>();
  Img->ownedCtx = std::move(Ctx);
  Img->M = std::move(M);
  if (Error E = translateModule(*Img, *P->A)) {
    for (uint64_t A : Img->allocations) consumeError(P->A->free(A));
    return E;
  }
  P->Images.push_back(std::move(Img));
  P->Modules.push_back(std::unique_ptr<emu::Module>(new emu::Module(P->Images.back().get())));
  return P->Modules.back().get();
}

void Device::releaseModuleMemory(emu::Module &M) {
  ModuleImage &Img = *M.Img;
  std::lock_guard<std::mutex> G(Img.launchMu);
  if (Img.released) return;
  for (uint64_t A : Img.allocations) consumeError(P->A->free(A));
  Img.allocations.clear();
  Img.printfBuf = Img.heapHdr = 0;
  Img.released = true;
}

Expected<emu::Module *> Device::loadModule(MemoryBufferRef Buffer) {
  auto Ctx = std::make_unique<LLVMContext>();
  SMDiagnostic Diag;
  std::unique_ptr<llvm::Module> M = parseIR(Buffer, Diag, *Ctx);
  if (!M) {
    std::string S;
    raw_string_ostream OS(S);
    Diag.print("emu", OS);
    return mkErr("cannot parse module: " + OS.str());
  }
  return loadModule(std::move(M), std::move(Ctx));
}

Expected<uint64_t> Device::malloc(uint64_t Bytes) { return P->A->alloc(Bytes); }
Error Device::free(uint64_t Addr) { return P->A->free(Addr); }
Error Device::copyToDevice(uint64_t Dst, const void *Src, uint64_t Bytes) {
  uint64_t Lo, Hi;
  if (Bytes && !P->A->lookup(Dst, Bytes, Lo, Hi)) return mkErr("copyToDevice outside an allocation");
  if (Bytes) std::memcpy(P->A->host(Dst), Src, Bytes);
  return Error::success();
}
Error Device::copyFromDevice(void *Dst, uint64_t Src, uint64_t Bytes) {
  uint64_t Lo, Hi;
  if (Bytes && !P->A->lookup(Src, Bytes, Lo, Hi)) return mkErr("copyFromDevice outside an allocation");
  if (Bytes) std::memcpy(Dst, P->A->host(Src), Bytes);
  return Error::success();
}
Error Device::memset(uint64_t Dst, int V, uint64_t Bytes) {
  uint64_t Lo, Hi;
  if (Bytes && !P->A->lookup(Dst, Bytes, Lo, Hi)) return mkErr("memset outside an allocation");
  if (Bytes) std::memset(P->A->host(Dst), V, Bytes);
  return Error::success();
}
Error Device::synchronize() { return Error::success(); }

KernelCounters Device::counters(StringRef K) const {
  std::lock_guard<std::mutex> G(P->CountMu);
  auto It = P->Counters.find(K.str());
  return It == P->Counters.end() ? KernelCounters{} : It->second;
}
KernelCounters Device::totalCounters() const {
  std::lock_guard<std::mutex> G(P->CountMu);
  KernelCounters T;
  for (auto &[N, C] : P->Counters) {
    T.launches += C.launches;
    T.laneInstructions += C.laneInstructions;
    T.waveInstructions += C.waveInstructions;
  }
  return T;
}
void Device::resetCounters() {
  std::lock_guard<std::mutex> G(P->CountMu);
  P->Counters.clear();
}

// ---- kernel description ------------------------------------------------------------------------------
namespace {
struct ParamLayout {
  uint32_t offset = 0, size = 0;
  bool byref = false;
  bool blockDim = false; // pad policy's trailing CUDA block-dim parameter
};

Expected<std::vector<ParamLayout>> layoutParams(const Function &F, uint32_t &Explicit, bool Pad) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  std::vector<ParamLayout> Out;
  uint64_t Off = 0;
  for (const Argument &A : F.args()) {
    ParamLayout P;
    Type *T = A.getType();
    uint64_t Al;
    if (Type *BT = A.getParamByRefType()) {
      P.byref = true;
      P.size = uint32_t(DL.getTypeAllocSize(BT));
      Al = A.getParamAlign().valueOrOne().value();
      Al = std::max<uint64_t>(Al, DL.getABITypeAlign(BT).value());
    } else {
      P.size = uint32_t(DL.getTypeAllocSize(T));
      Al = DL.getABITypeAlign(T).value();
      if (auto PA = A.getParamAlign()) Al = std::max<uint64_t>(Al, PA->value());
    }
    Off = (Off + Al - 1) & ~(Al - 1);
    P.offset = uint32_t(Off);
    Off += P.size;
    Out.push_back(P);
  }
  if (Pad) {
    if (Out.empty() || (Out.back().size != 16 && Out.back().size != 12))
      return createStringError(inconvertibleErrorCode(),
                               "emu: kernel '" + F.getName().str() +
                                   "' has warp policy 'pad' but no trailing <4 x i32> block-dim parameter");
    Out.back().blockDim = true;
  }
  Explicit = uint32_t(Off);
  return Out;
}

std::string policyOf(const Function &F) {
  Attribute A = F.getFnAttribute(::support::attr::kWarpPolicy);
  return A.isStringAttribute() ? A.getValueAsString().str() : std::string();
}
} // namespace

Expected<KernelInfo> emu::Module::kernel(StringRef Name) const {
  const Function *F = Img->M->getFunction(Name);
  if (!F || F->isDeclaration() || F->getCallingConv() != CallingConv::AMDGPU_KERNEL)
    return createStringError(inconvertibleErrorCode(), "emu: no kernel named '" + Name.str() + "'");
  KernelInfo K;
  K.name = Name.str();
  K.waveSize = kernelWaveSize(*F);
  K.warpPolicy = policyOf(*F);
  uint32_t Explicit = 0;
  auto L = layoutParams(*F, Explicit, ::support::parseWarpPolicyName(K.warpPolicy) == ::support::WarpPolicy::Pad);
  if (!L) return L.takeError();
  for (auto &P : *L)
    if (!P.blockDim) {
      K.argSizes.push_back(P.size);
      K.argOffsets.push_back(P.offset);
    }
  K.explicitKernargBytes = Explicit;
  K.staticLdsBytes = Img->staticLds;
  if (auto It = Img->byFunc.find(F); It != Img->byFunc.end()) {
    K.registerSlots = It->second->numSlots;
    K.ssaValues = It->second->numValueSlots;
  }
  return K;
}
std::vector<std::string> emu::Module::kernelNames() const {
  std::vector<std::string> N;
  for (const Function &F : *Img->M)
    if (!F.isDeclaration() && F.getCallingConv() == CallingConv::AMDGPU_KERNEL) N.push_back(F.getName().str());
  return N;
}
Expected<uint64_t> emu::Module::globalAddress(StringRef Name) const {
  if (Img->released)
    return createStringError(inconvertibleErrorCode(), "emu: the module's memory was released (an unloaded module)");
  const GlobalVariable *GV = Img->M->getGlobalVariable(Name, true);
  if (!GV) return createStringError(inconvertibleErrorCode(), "emu: no global named '" + Name.str() + "'");
  auto It = Img->globalAddr.find(GV);
  if (It == Img->globalAddr.end())
    return createStringError(inconvertibleErrorCode(), "emu: global '" + Name.str() + "' has no device address");
  return It->second;
}

// Launches on one device may run at the same time (one per stream): each has
// its own LaunchState, kernarg segment and workers; what a module shares is
// guarded by ModuleImage::launchMu / cooperative.
Error Device::launch(emu::Module &M, StringRef Name, const LaunchConfig &Cfg, void **Args) {
  return P->launch(*M.Img, Name, Cfg, Args);
}

// ---- launch ------------------------------------------------------------------------------------------------
Error detail::LaunchState::takeError(bool AssertRecord) {
  std::lock_guard<std::mutex> G(errMu);
  if (error.empty()) return Error::success();
  ::support::Diagnostic D = ::support::noLoc("emu: " + error);
  switch (errorClass) {
  case ErrorClass::Unsupported: return ::support::unsupported("emu", errorConstruct, std::move(D));
  case ErrorClass::Limit: return ::support::resourceLimit(errorResource, std::move(D));
  case ErrorClass::Fault: break;
  }
  bool Assert = AssertRecord && errorFault == ::support::FaultKind::Trap;
  return ::support::deviceFault(Assert ? ::support::FaultKind::Assert : errorFault, std::move(D));
}

Error Device::Impl::launch(ModuleImage &Img, StringRef Name, const LaunchConfig &Cfg, void **Args) {
  if (Img.released)
    return ::support::contractViolation(
        ::support::noLoc("emu: launch of '" + Name.str() + "' from a module whose memory was released"));
  Function *F = Img.M->getFunction(Name);
  if (!F || F->isDeclaration() || F->getCallingConv() != CallingConv::AMDGPU_KERNEL)
    return mkErr("no kernel named '" + Name + "'");
  auto LS = std::make_unique<LaunchState>();
  LaunchState &L = *LS;
  L.img = &Img;
  L.kernel = Img.byFunc.lookup(F);
  L.arena = A.get();
  L.kernelName = Name.str();
  L.W = kernelWaveSize(*F);
  L.maxWaveInstructions = Opts.maxWaveInstructions;
  if (const char *T = getenv("EMU_TRACE")) L.trace = T[0] == '1';
  L.printfSink = Cfg.printfSink ? Cfg.printfSink : &Opts.printfSink;
  std::string Policy = policyOf(*F);
  bool Pad = ::support::parseWarpPolicyName(Policy) == ::support::WarpPolicy::Pad;
  if (Cfg.grid.count() == 0 || Cfg.block.count() == 0) return limitErr(::support::Resource::BlockThreads, "launch of '" + Name + "' with an empty grid or block");
  uint64_t T = Cfg.block.count();
  if (T > ::support::kMaxBlockThreads)
    return limitErr(::support::Resource::BlockThreads, "launch of '" + Name + "': block of " + Twine(T) +
                    " threads exceeds " + Twine(::support::kMaxBlockThreads));
  if (Pad) {
    if (L.W != 64)
      return ::support::contractViolation(
          ::support::noLoc("emu: kernel '" + Name.str() + "' has warp policy 'pad' but wave size " + std::to_string(L.W)));
    if (T > ::support::kPadMaxBlockThreads)
      return limitErr(::support::Resource::BlockThreads,
                      "launch of pad-policy kernel '" + Name + "': block of " + Twine(T) + " threads exceeds " +
                          Twine(::support::kPadMaxBlockThreads) + " (a pad work-group holds 64 lanes per 32 threads, at most " +
                          Twine(::support::kMaxWorkGroupSize) + ")");
    L.wgSize[0] = uint32_t(64 * ((T + 31) / 32));
    L.wgSize[1] = L.wgSize[2] = 1;
  } else {
    L.wgSize[0] = Cfg.block.x;
    L.wgSize[1] = Cfg.block.y;
    L.wgSize[2] = Cfg.block.z;
  }
  L.gridWG[0] = Cfg.grid.x;
  L.gridWG[1] = Cfg.grid.y;
  L.gridWG[2] = Cfg.grid.z;
  uint64_t LdsTotal = uint64_t((Img.staticLds + Img.dynLdsAlign - 1) & ~(Img.dynLdsAlign - 1)) + Cfg.dynamicLdsBytes;
  if (!Cfg.dynamicLdsBytes) LdsTotal = Img.staticLds;
  // The limit applies to what the kernel itself uses (its own static LDS when the caller says,
  // plus the dynamic part), not to the module-wide layout the emulator allocates.
  uint64_t LdsUsed = Cfg.kernelStaticLdsBytes != UINT32_MAX ? uint64_t(Cfg.kernelStaticLdsBytes) + Cfg.dynamicLdsBytes
                                                             : LdsTotal;
  if (LdsUsed > 65536)
    return limitErr(::support::Resource::SharedMemory, "launch of '" + Name + "': " + Twine(LdsUsed) + " bytes of LDS exceed the 65536-byte limit");
  L.ldsBytes = uint32_t(LdsTotal);

  // ---- kernarg segment
  uint32_t Explicit = 0;
  auto PL = layoutParams(*F, Explicit, Pad);
  if (!PL) return PL.takeError();
  uint32_t HiddenOff = (Explicit + 7) & ~7u;
  uint32_t KernargSize = HiddenOff + 256;
  auto KA = A->alloc(KernargSize + 64, 64);
  if (!KA) return KA.takeError();
  struct Free {
    Arena *A;
    uint64_t X;
    ~Free() { consumeError(A->free(X)); }
  } FreeKA{A.get(), *KA};
  uint8_t *KH = A->host(*KA);
  std::memset(KH, 0, KernargSize + 64);
  unsigned UserArg = 0;
  for (size_t i = 0; i < PL->size(); ++i) {
    const ParamLayout &PLi = (*PL)[i];
    if (PLi.blockDim) {
      uint32_t BD[4] = {Cfg.block.x, Cfg.block.y, Cfg.block.z, 0};
      std::memcpy(KH + PLi.offset, BD, PLi.size);
      continue;
    }
    if (!Args || !Args[UserArg])
      return ::support::invalidInput(::support::noLoc("emu: launch of '" + Name.str() + "': argument " +
                                                  std::to_string(UserArg) + " is null"),
                                   "kernel argument");
    std::memcpy(KH + PLi.offset, Args[UserArg], PLi.size);
    ++UserArg;
  }
  uint8_t *H = KH + HiddenOff;
  auto put32 = [&](unsigned Off, uint32_t V) { std::memcpy(H + Off, &V, 4); };
  auto put16 = [&](unsigned Off, uint16_t V) { std::memcpy(H + Off, &V, 2); };
  auto put64 = [&](unsigned Off, uint64_t V) { std::memcpy(H + Off, &V, 8); };
  put32(0, L.gridWG[0]);
  put32(4, L.gridWG[1]);
  put32(8, L.gridWG[2]);
  put16(12, uint16_t(L.wgSize[0]));
  put16(14, uint16_t(L.wgSize[1]));
  put16(16, uint16_t(L.wgSize[2]));
  put16(18, 0); // remainders: the grid is a whole number of workgroups
  put16(20, 0);
  put16(22, 0);
  put64(40, 0); // global offsets
  put64(48, 0);
  put64(56, 0);
  put16(64, uint16_t(Cfg.grid.z > 1 || (Pad ? false : Cfg.block.z > 1) ? 3 : (Cfg.grid.y > 1 || (Pad ? false : Cfg.block.y > 1)) ? 2 : 1));
  put32(120, Cfg.dynamicLdsBytes);
  put32(192, uint32_t(PrivateApertureBase >> 32));
  put32(196, uint32_t(SharedApertureBase >> 32));
  // HSA kernel dispatch packet after the hidden block
  uint8_t *D = KH + KernargSize;
  uint64_t DAddr = *KA + KernargSize;
  auto d16 = [&](unsigned Off, uint16_t V) { std::memcpy(D + Off, &V, 2); };
  auto d32 = [&](unsigned Off, uint32_t V) { std::memcpy(D + Off, &V, 4); };
  auto d64 = [&](unsigned Off, uint64_t V) { std::memcpy(D + Off, &V, 8); };
  d16(0, 2 /* HSA_PACKET_TYPE_KERNEL_DISPATCH */);
  d16(2, uint16_t(L.gridWG[2] > 1 ? 3 : L.gridWG[1] > 1 ? 2 : 1));
  d16(4, uint16_t(L.wgSize[0]));
  d16(6, uint16_t(L.wgSize[1]));
  d16(8, uint16_t(L.wgSize[2]));
  d32(12, L.gridWG[0] * L.wgSize[0]);
  d32(16, L.gridWG[1] * L.wgSize[1]);
  d32(20, L.gridWG[2] * L.wgSize[2]);
  d32(24, L.kernel->frameBytes);
  d32(28, L.ldsBytes);
  d64(32, L.kernel->address);
  d64(40, *KA);
  L.kernargAddr = *KA;
  L.hiddenAddr = *KA + HiddenOff;
  L.dispatchAddr = DAddr;
  // kernel parameter registers (uniform)
  {
    const DataLayout &DL = Img.M->getDataLayout();
    int32_t Slot = 0;
    for (size_t i = 0; i < PL->size(); ++i) {
      const Argument &Arg = *F->getArg(unsigned(i));
      const ParamLayout &PLi = (*PL)[i];
      if (PLi.byref) {
        L.paramInit.push_back({Slot++, *KA + PLi.offset});
        continue;
      }
      // flatten the parameter's leaves in the same order as the translator
      std::vector<std::pair<uint64_t, unsigned>> Leaves; // offset, bytes
      std::function<void(Type *, uint64_t)> Walk = [&](Type *Ty, uint64_t Off) {
        if (auto *ST = dyn_cast<StructType>(Ty)) {
          const StructLayout *SL = DL.getStructLayout(ST);
          for (unsigned k = 0; k < ST->getNumElements(); ++k) Walk(ST->getElementType(k), Off + SL->getElementOffset(k));
        } else if (auto *AT = dyn_cast<ArrayType>(Ty)) {
          for (uint64_t k = 0; k < AT->getNumElements(); ++k)
            Walk(AT->getElementType(), Off + k * DL.getTypeAllocSize(AT->getElementType()));
        } else if (auto *VT = dyn_cast<FixedVectorType>(Ty)) {
          unsigned EB = unsigned(DL.getTypeStoreSize(VT->getElementType()));
          for (unsigned k = 0; k < VT->getNumElements(); ++k) Leaves.push_back({Off + k * EB, EB});
        } else {
          Leaves.push_back({Off, unsigned(DL.getTypeStoreSize(Ty))});
        }
      };
      Walk(Arg.getType(), 0);
      for (auto &[Off, Bytes] : Leaves) {
        uint64_t V = 0;
        std::memcpy(&V, KH + PLi.offset + Off, std::min(Bytes, 8u));
        if (Arg.getType()->isIntegerTy(1)) V &= 1;
        L.paramInit.push_back({Slot++, V});
      }
    }
  }

  // ---- launcher-filled device globals (docs/pipeline.md)
  auto globalHost = [&](StringRef GName, uint64_t Bytes) -> uint8_t * {
    const GlobalVariable *GV = Img.M->getGlobalVariable(GName, true);
    if (!GV) return nullptr;
    auto It = Img.globalAddr.find(GV);
    if (It == Img.globalAddr.end()) return nullptr;
    uint64_t Lo, Hi;
    if (!A->lookup(It->second, Bytes, Lo, Hi)) return nullptr;
    return A->host(It->second);
  };
  uint8_t *Env = globalHost(::support::global::kEnvReg, 128);
  uint8_t *PrintfGlobal = globalHost(::support::global::kPrintfBuffer, 8);
  uint8_t *HeapGlobal = globalHost(::support::global::kHeap, 8);
  const uint64_t PrintfCap = Opts.printfBufferBytes;
  uint64_t CoopWS = 0;
  if (Cfg.cooperative && Env) {
    auto WS = A->alloc(256, 256);
    if (!WS) return WS.takeError();
    CoopWS = *WS;
    uint32_t Hdr[2] = {8, 0}; // grid_workspace { wsSize; barrier }
    std::memcpy(A->host(CoopWS), Hdr, 8);
  }
  struct FreeWS {
    Arena *A;
    uint64_t X;
    ~FreeWS() { if (X) consumeError(A->free(X)); }
  } FreeCoop{A.get(), CoopWS};

  // ---- schedule
  const uint64_t NumWG = Cfg.grid.count();
  const uint32_t WGLanes = L.wgSize[0] * L.wgSize[1] * L.wgSize[2];
  const unsigned NumWaves = (WGLanes + L.W - 1) / L.W;
  unsigned Threads = unsigned(std::min<uint64_t>(Opts.threads, NumWG));
  // resident state of one workgroup: the kernel frame's registers per wave + LDS
  const uint64_t WGBytes = uint64_t(NumWaves) * L.kernel->numSlots * L.W * 8 + L.ldsBytes + 4096;
  uint64_t Cap = Cfg.cooperative ? (NumWG + Threads - 1) / Threads
                                 : std::max<uint64_t>(1, std::min<uint64_t>(std::max(1u, Opts.residentPerThread),
                                                                            Opts.residentBytesPerThread / WGBytes));
  if (Cfg.cooperative && (NumWG * NumWaves > 65536 || NumWG * WGBytes > (16ull << 30)))
    return limitErr(::support::Resource::CooperativeGrid, "cooperative launch of '" + Name + "': " + Twine(NumWG) + " workgroups cannot all be resident");

  // ---- in flight (one cooperative launch of the module at a time: the envreg holds one workspace)
  std::unique_lock<std::mutex> CoopTurn(Img.cooperative, std::defer_lock);
  if (Cfg.cooperative) CoopTurn.lock();
  {
    std::lock_guard<std::mutex> G(Img.launchMu);
    if (PrintfGlobal && !Img.printfBuf) {
      auto B = A->alloc(PrintfCap + 16, 256);
      if (!B) return B.takeError();
      Img.printfBuf = *B;
      Img.allocations.push_back(*B);
    }
    if (HeapGlobal && !Img.heapHdr) {
      auto H = A->alloc(Opts.heapBytes, 256);
      if (!H) return H.takeError();
      auto Hd = A->alloc(24, 256);
      if (!Hd) return Hd.takeError();
      uint64_t Hdr[3] = {*H, Opts.heapBytes, 0};
      std::memcpy(A->host(*Hd), Hdr, 24);
      Img.heapHdr = *Hd;
      Img.allocations.push_back(*H);
      Img.allocations.push_back(*Hd);
    }
    if (Img.inFlight++ == 0) { // the first launch of the module now running
      if (Env) std::memset(Env, 0, 128);
      if (PrintfGlobal) {
        uint64_t Hdr[2] = {PrintfCap, 0};
        std::memcpy(A->host(Img.printfBuf), Hdr, 16);
        std::memcpy(PrintfGlobal, &Img.printfBuf, 8);
      }
      if (HeapGlobal) std::memcpy(HeapGlobal, &Img.heapHdr, 8);
    }
    if (CoopWS) { // this module's only cooperative launch now: the envreg is this launch's
      // CUDA's load_env_reg64<1, 2>: %envreg1 holds the high, %envreg2 the low half
      uint32_t Lo = uint32_t(CoopWS), Hi = uint32_t(CoopWS >> 32);
      std::memcpy(Env + 4, &Hi, 4);
      std::memcpy(Env + 8, &Lo, 4);
    }
  }
  std::atomic<uint64_t> NextWG{0};
  const unsigned Slice = std::max(16u, Opts.sliceInstructions);

  auto Worker = [&]() {
    std::vector<std::unique_ptr<WorkGroup>> Resident, Pool;
    auto admit = [&]() {
      while (Resident.size() < Cap) {
        uint64_t Id = NextWG.fetch_add(1);
        if (Id >= NumWG) return;
        std::unique_ptr<WorkGroup> G;
        if (!Pool.empty()) { G = std::move(Pool.back()); Pool.pop_back(); }
        else G = std::make_unique<WorkGroup>();
        G->linear = Id;
        G->id[0] = uint32_t(Id % L.gridWG[0]);
        G->id[1] = uint32_t((Id / L.gridWG[0]) % L.gridWG[1]);
        G->id[2] = uint32_t(Id / (uint64_t(L.gridWG[0]) * L.gridWG[1]));
        G->lds.assign(L.ldsBytes, 0);
        G->waves.resize(NumWaves);
        for (unsigned w = 0; w < NumWaves; ++w) {
          if (!G->waves[w]) G->waves[w] = std::make_unique<Wave>();
          Wave &Wv = *G->waves[w];
          Wv.index = w;
          unsigned Lanes = std::min<unsigned>(L.W, WGLanes - w * L.W);
          Wv.initExec = Lanes == 64 ? ~0ull : ((1ull << Lanes) - 1);
          initWave(L, *G, Wv);
        }
        G->live = NumWaves;
        Resident.push_back(std::move(G));
      }
    };
    admit();
    size_t RR = 0;
    while (!Resident.empty() && !L.abort.load(std::memory_order_relaxed)) {
      if (RR >= Resident.size()) RR = 0;
      WorkGroup &G = *Resident[RR];
      unsigned Live = 0, AtBar = 0;
      for (auto &Wp : G.waves) {
        Wave &Wv = *Wp;
        if (Wv.state == WaveState::Running)
          if (!runWave(L, G, Wv, Slice)) return;
        if (Wv.state == WaveState::Done) continue;
        ++Live;
        if (Wv.state == WaveState::AtBarrier) ++AtBar;
      }
      if (Live && AtBar == Live)
        for (auto &Wp : G.waves)
          if (Wp->state == WaveState::AtBarrier) Wp->state = WaveState::Running;
      if (!Live) {
        Pool.push_back(std::move(Resident[RR]));
        Resident.erase(Resident.begin() + long(RR));
        admit();
      } else {
        ++RR;
      }
      if (L.maxWaveInstructions && L.waveInstrs.load(std::memory_order_relaxed) > L.maxWaveInstructions) {
        L.fail("kernel '" + L.kernelName + "' exceeded the limit of " + std::to_string(L.maxWaveInstructions) +
               " wave instructions (hang?)",
               ::support::FaultKind::Timeout);
        return;
      }
    }
  };
  if (Threads <= 1) Worker();
  else {
    std::vector<std::thread> Ts;
    for (unsigned t = 0; t < Threads; ++t) Ts.emplace_back(Worker);
    for (auto &Th : Ts) Th.join();
  }
  {
    std::lock_guard<std::mutex> G(CountMu);
    KernelCounters &C = Counters[Name.str()];
    C.launches++;
    C.laneInstructions += L.laneInstrs.load();
    C.waveInstructions += L.waveInstrs.load();
  }
  // The device library's __assertfail prints a flagged record, then traps.
  bool AssertRecord = false;
  {
    std::lock_guard<std::mutex> G(Img.launchMu);
    if (CoopWS) std::memset(Env, 0, 128); // the next launches see no workspace
    bool Last = --Img.inFlight == 0;
    if (PrintfGlobal && (Last || L.trapped())) AssertRecord = scanPrintf(Img, PrintfCap, Last, *L.printfSink);
  }
  return L.takeError(AssertRecord);
}

bool Device::Impl::scanPrintf(ModuleImage &Img, uint64_t Cap, bool Emit, const std::function<void(StringRef)> &Sink) {
  uint8_t *B = A->host(Img.printfBuf);
  uint64_t Used;
  std::memcpy(&Used, B + 8, 8);
  Used = std::min(Used, Cap);
  const uint8_t *D = B + 16;
  std::string Out;
  bool SawAssert = false;
  auto ReadStr = [&](uint64_t Addr, std::string &S) {
    S.clear();
    for (uint64_t i = 0; i < 65536; ++i) {
      uint64_t Lo, Hi;
      if (!A->lookup(Addr + i, 1, Lo, Hi)) return false;
      char ch = char(*A->host(Addr + i));
      if (!ch) return true;
      S.push_back(ch);
    }
    return true;
  };
  for (uint64_t At = 0; At + 8 <= Used;) {
    uint32_t Rec, FLen;
    std::memcpy(&Rec, D + At, 4);
    std::memcpy(&FLen, D + At + 4, 4);
    const bool Flag = (FLen & ::support::printfrec::kAssertFlag) != 0;
    if (Emit) SawAssert |= Flag; // every writer is done: even a truncated assertion record counts
    FLen &= ::support::printfrec::kLengthMask;
    uint64_t FPad = (uint64_t(FLen) + 7) & ~7ull;
    if (Rec < 8 + FPad || At + Rec > Used || !FLen) break;
    SawAssert |= Flag;
    if (Emit) {
      std::string Fmt(reinterpret_cast<const char *>(D + At + 8), FLen - 1);
      Out += formatVprintf(Fmt, D + At + 8 + FPad, Rec - 8 - FPad, ReadStr);
    }
    At += Rec;
  }
  if (!Emit || Out.empty()) return SawAssert;
  if (Sink) Sink(Out);
  else { fwrite(Out.data(), 1, Out.size(), stdout); fflush(stdout); }
  return SawAssert;
}

} // namespace emu

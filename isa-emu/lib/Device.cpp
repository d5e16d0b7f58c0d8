//===- Device.cpp - isa-emu device: memory, code objects, dispatch --------===//
//
// Device memory is one virtual reservation (GlobalBase + offset, bump
// allocated). A launch lays out what the HIP runtime would: the kernarg
// segment (explicit arguments at their metadata offsets, hidden arguments
// filled by .value_kind), a 64-byte AQL kernel-dispatch packet, a queue
// object and the scratch backing (private segment, swizzled per lane as the
// hardware addresses it), then runs the workgroups on host threads in
// dispatch order (a workgroup only ever waits for earlier ones).
//
//===----------------------------------------------------------------------===//
#include "Dispatch.h"
#include "Image.h"
#include "Loader.h"

#include "llvm/ADT/StringExtras.h"

#include <map>
#include <sys/mman.h>
#include <thread>

using namespace llvm;

namespace isaemu {

struct Device::Impl {
  DeviceOptions opts;
  uint8_t *arena = nullptr;
  uint64_t arenaBytes = 0;
  std::mutex allocMu;
  std::atomic<uint64_t> used{0};
  std::vector<std::unique_ptr<detail::ProgramImage>> programs;
  std::vector<std::unique_ptr<Program>> handles;
  /// Counters summed over launches, which may end at the same time (streams).
  std::atomic<uint64_t> laneInstructions{0}, waveInstructions{0};

  /// Process-memory mode: allocations owned by this device (address -> bytes).
  std::map<uint64_t, uint64_t> own;

  bool processMode() const { return bool(opts.processMemory); }

  Expected<uint64_t> alloc(uint64_t Bytes) {
    std::lock_guard<std::mutex> L(allocMu);
    if (processMode()) {
      uint64_t Size = (std::max<uint64_t>(Bytes, 1) + 4095) & ~uint64_t(4095);
      void *M = mmap(nullptr, Size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (M == MAP_FAILED) return createStringError("isa-emu: out of host memory (" + Twine(Bytes) + " bytes)");
      own[uint64_t(uintptr_t(M))] = Size;
      return uint64_t(uintptr_t(M));
    }
    uint64_t Off = (used.load() + 255) & ~uint64_t(255);
    if (Off + Bytes > arenaBytes)
      return ::support::resourceLimit(::support::Resource::DeviceMemory,
                                    ::support::noLoc("isa-emu: out of device memory (" + std::to_string(Bytes) + " bytes)"));
    used.store(Off + std::max<uint64_t>(Bytes, 1));
    return GlobalBase + Off;
  }
  void release(uint64_t Addr) {
    std::lock_guard<std::mutex> L(allocMu);
    auto It = own.find(Addr);
    if (It == own.end()) return;
    munmap(reinterpret_cast<void *>(uintptr_t(Addr)), It->second);
    own.erase(It);
  }
  uint8_t *host(uint64_t Addr, uint64_t N) {
    if (processMode()) {
      {
        std::lock_guard<std::mutex> L(allocMu);
        auto It = own.upper_bound(Addr);
        if (It != own.begin()) {
          --It;
          if (Addr + N <= It->first + It->second) return reinterpret_cast<uint8_t *>(uintptr_t(Addr));
        }
      }
      return opts.processMemory(Addr, N);
    }
    if (Addr < GlobalBase || Addr - GlobalBase + N > used.load()) return nullptr;
    return arena + (Addr - GlobalBase);
  }
};

// Runs every workgroup of LS on Threads host threads (dispatch order: a
// workgroup only ever waits for earlier ones).
static Error runGrid(Device::Impl &Dev, detail::LaunchState &LS, const detail::DispatchLayout &Layout,
                     unsigned Threads) {
  const LaunchConfig &Cfg = LS.cfg;
  std::atomic<uint64_t> Next{0};
  uint64_t Total = Cfg.grid.count();
  auto Worker = [&](unsigned Slot) {
    detail::Workgroup WG;
    while (!LS.abort.load(std::memory_order_relaxed)) {
      uint64_t L = Next.fetch_add(1);
      if (L >= Total) break;
      uint32_t Id[3] = {uint32_t(L % Cfg.grid.x), uint32_t((L / Cfg.grid.x) % Cfg.grid.y),
                        uint32_t(L / (uint64_t(Cfg.grid.x) * Cfg.grid.y))};
      detail::initWorkgroup(LS, Layout, WG, Id, Slot);
      if (!detail::runWorkgroup(LS, WG)) {
        LS.abort.store(true);
        break;
      }
    }
  };
  if (Threads <= 1) Worker(0);
  else {
    std::vector<std::thread> Pool;
    for (unsigned t = 0; t < Threads; ++t) Pool.emplace_back(Worker, t);
    for (auto &T : Pool) T.join();
  }
  Dev.laneInstructions += LS.laneInstrs.load();
  Dev.waveInstructions += LS.waveInstrs.load();
  if (LS.error.empty()) return Error::success();
  if (!LS.errorConstruct.empty())
    return ::support::unsupported("isa-emu", LS.errorConstruct, ::support::noLoc(LS.error));
  return ::support::deviceFault(LS.errorFault, ::support::noLoc(LS.error));
}

Device::Device(std::unique_ptr<Impl> I) : P(std::move(I)) {}
Device::~Device() {
  if (P && P->arena) munmap(P->arena, P->arenaBytes);
  if (P)
    for (auto &[A, N] : P->own) munmap(reinterpret_cast<void *>(uintptr_t(A)), N);
}

Expected<std::unique_ptr<Device>> Device::create(DeviceOptions Opts) {
  auto I = std::make_unique<Impl>();
  I->opts = Opts;
  if (Opts.processMemory) return std::unique_ptr<Device>(new Device(std::move(I)));
  I->arenaBytes = Opts.arenaBytes;
  void *M = mmap(nullptr, I->arenaBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (M == MAP_FAILED) return createStringError("isa-emu: cannot reserve device memory");
  I->arena = static_cast<uint8_t *>(M);
  return std::unique_ptr<Device>(new Device(std::move(I)));
}

Expected<uint64_t> Device::malloc(uint64_t Bytes) { return P->alloc(Bytes); }

Error Device::copyToDevice(uint64_t Dst, const void *Src, uint64_t Bytes) {
  uint8_t *H = P->host(Dst, Bytes);
  if (!H) return createStringError("isa-emu: copyToDevice outside device memory");
  memcpy(H, Src, Bytes);
  return Error::success();
}
Error Device::copyFromDevice(void *Dst, uint64_t Src, uint64_t Bytes) {
  uint8_t *H = P->host(Src, Bytes);
  if (!H) return createStringError("isa-emu: copyFromDevice outside device memory");
  memcpy(Dst, H, Bytes);
  return Error::success();
}
Error Device::memset(uint64_t Dst, int Value, uint64_t Bytes) {
  uint8_t *H = P->host(Dst, Bytes);
  if (!H) return createStringError("isa-emu: memset outside device memory");
  ::memset(H, Value, Bytes);
  return Error::success();
}

Expected<Program *> Device::loadCodeObject(ArrayRef<char> Elf) {
  return loadCodeObject(Elf, nullptr);
}

Expected<Program *> Device::loadCodeObject(ArrayRef<char> Elf, std::set<std::string> *Missing) {
  detail::DeviceMemory Mem;
  Mem.alloc = [this](uint64_t N) { return P->alloc(N); };
  Mem.host = [this](uint64_t A, uint64_t N) { return P->host(A, N); };
  Mem.missing = Missing;
  auto Img = detail::loadProgram(Elf, Mem);
  if (!Img) return Img.takeError();
  P->programs.push_back(std::move(*Img));
  P->handles.push_back(std::unique_ptr<Program>(new Program(P->programs.back().get())));
  return P->handles.back().get();
}

Expected<Program *> Device::adoptResidentCodeObject(uint64_t LoadBase, StringRef Target) {
  if (!P->processMode()) return createStringError("isa-emu: adoptResidentCodeObject needs process-memory mode");
  detail::DeviceMemory Mem;
  Mem.alloc = [this](uint64_t N) { return P->alloc(N); };
  Mem.host = [this](uint64_t A, uint64_t N) { return P->host(A, N); };
  auto Img = detail::adoptResidentProgram(LoadBase, Target, Mem);
  if (!Img) return Img.takeError();
  std::lock_guard<std::mutex> L(P->allocMu);
  P->programs.push_back(std::move(*Img));
  P->handles.push_back(std::unique_ptr<Program>(new Program(P->programs.back().get())));
  return P->handles.back().get();
}

Expected<Program *> Device::adoptRawKernel(uint64_t KernelObject, uint64_t CodeEnd, StringRef Target) {
  if (!P->processMode()) return createStringError("isa-emu: adoptRawKernel needs process-memory mode");
  detail::DeviceMemory Mem;
  Mem.alloc = [this](uint64_t N) { return P->alloc(N); };
  Mem.host = [this](uint64_t A, uint64_t N) { return P->host(A, N); };
  auto Img = detail::adoptRawKernel(KernelObject, CodeEnd, Target, Mem);
  if (!Img) return Img.takeError();
  std::lock_guard<std::mutex> L(P->allocMu);
  P->programs.push_back(std::move(*Img));
  P->handles.push_back(std::unique_ptr<Program>(new Program(P->programs.back().get())));
  return P->handles.back().get();
}

Program *Device::programContaining(uint64_t Address) const {
  std::lock_guard<std::mutex> L(P->allocMu);
  for (size_t i = 0; i < P->programs.size(); ++i) {
    const detail::ProgramImage &I = *P->programs[i];
    if (Address >= I.base && Address < I.base + I.imageSize) return P->handles[i].get();
  }
  return nullptr;
}

Error Device::launchPacket(Program &Prog, const PacketDispatch &D) {
  if (!P->processMode()) return createStringError("isa-emu: launchPacket needs process-memory mode");
  const detail::ProgramImage &PI = *Prog.Img;
  const detail::KernelImage *K = nullptr;
  for (auto &[N, KI] : PI.kernels)
    if (KI.info.kdAddress == D.kernelObject) K = &KI;
  if (!K) return createStringError("isa-emu: no kernel descriptor at 0x" + utohexstr(D.kernelObject));
  detail::LaunchState LS;
  LS.dev = P.get();
  LS.prog = &PI;
  LS.kernel = K;
  LaunchConfig &Cfg = LS.cfg;
  Cfg.block = D.block;
  if (D.block.count() == 0 || D.block.count() > 1024 || D.gridWorkItems.count() == 0)
    return createStringError("isa-emu: bad dispatch geometry");
  const uint32_t G[3] = {D.gridWorkItems.x, D.gridWorkItems.y, D.gridWorkItems.z};
  const uint32_t B[3] = {D.block.x, D.block.y, D.block.z};
  uint32_t WG[3];
  for (int d = 0; d < 3; ++d) {
    if (G[d] % B[d])
      return createStringError("isa-emu: grid size " + Twine(G[d]) + " is not a multiple of the workgroup size " +
                               Twine(B[d]) + " in dimension " + Twine(d) + " (partial workgroups are not modelled)");
    WG[d] = G[d] / B[d];
  }
  Cfg.grid = {WG[0], WG[1], WG[2]};
  detail::DispatchMemory DM;
  DM.alloc = [this](uint64_t N) { return P->alloc(N); };
  DM.host = [this](uint64_t A, uint64_t N) { return P->host(A, N); };
  unsigned Threads = P->opts.threads ? P->opts.threads : std::max(1u, std::thread::hardware_concurrency());
  Threads = unsigned(std::min<uint64_t>(Threads, Cfg.grid.count()));
  auto Layout = detail::layoutPacketDispatch(LS, DM, D, Threads);
  if (!Layout) return Layout.takeError();
  LS.resolve = [this](uint64_t A, uint64_t N) { return P->host(A, N); };
  LS.maxWaveInstructions = P->opts.maxWaveInstructions;
  LS.sliceInstructions = P->opts.sliceInstructions;
  Error E = runGrid(*P, LS, *Layout, Threads);
  if (Layout->scratchBase) P->release(Layout->scratchBase);
  return E;
}

Counters Device::counters() const { return {P->laneInstructions.load(), P->waveInstructions.load()}; }
void Device::resetCounters() {
  P->laneInstructions = 0;
  P->waveInstructions = 0;
}

Error Device::launch(Program &Prog, StringRef Kernel, const LaunchConfig &Cfg, void **Args) {
  const detail::ProgramImage &PI = *Prog.Img;
  auto It = PI.kernels.find(Kernel);
  if (It == PI.kernels.end()) return createStringError("isa-emu: no kernel '" + Kernel + "'");
  const detail::KernelImage &K = It->second;
  detail::LaunchState LS;
  LS.dev = P.get();
  LS.prog = &PI;
  LS.kernel = &K;
  LS.cfg = Cfg;
  if (Cfg.block.count() == 0 || Cfg.block.count() > 1024 || Cfg.grid.count() == 0)
    return ::support::resourceLimit(::support::Resource::BlockThreads,
                                  ::support::noLoc("isa-emu: bad launch geometry (grid of " +
                                                 std::to_string(Cfg.grid.count()) + " work-groups of " +
                                                 std::to_string(Cfg.block.count()) + " work-items)"));

  detail::DispatchMemory DM;
  DM.alloc = [this](uint64_t N) { return P->alloc(N); };
  DM.host = [this](uint64_t A, uint64_t N) { return P->host(A, N); };
  unsigned Threads = P->opts.threads ? P->opts.threads : std::max(1u, std::thread::hardware_concurrency());
  Threads = unsigned(std::min<uint64_t>(Threads, Cfg.grid.count()));
  auto Layout = detail::buildDispatch(LS, DM, Args, Threads);
  if (!Layout) return Layout.takeError();
  LS.arena = P->arena;
  // A snapshot: allocations never move or shrink (bump allocator), so every
  // byte below it stays valid while this launch runs, whatever other
  // launches (streams) and allocations do meanwhile.
  LS.arenaMapped = P->used.load();
  LS.maxWaveInstructions = P->opts.maxWaveInstructions;
  LS.sliceInstructions = P->opts.sliceInstructions;
  return runGrid(*P, LS, *Layout, Threads);
}

// ---- Program ---------------------------------------------------------------------
std::vector<std::string> Program::kernelNames() const {
  std::vector<std::string> N;
  for (auto &[K, _] : Img->kernels) N.push_back(K);
  return N;
}
Expected<const KernelInfo *> Program::kernel(StringRef Name) const {
  auto It = Img->kernels.find(Name);
  if (It == Img->kernels.end()) return createStringError("isa-emu: no kernel '" + Name + "'");
  return &It->second.info;
}
Expected<uint64_t> Program::symbolAddress(StringRef Name) const {
  auto It = Img->symbols.find(Name);
  if (It == Img->symbols.end()) return createStringError("isa-emu: no symbol '" + Name + "'");
  return It->second;
}
std::string Program::disassembly(StringRef Kernel) const {
  std::string S;
  auto It = Img->kernels.find(Kernel);
  if (It == Img->kernels.end()) return S;
  uint32_t F = Img->func[It->second.entryIndex];
  for (size_t i = It->second.entryIndex; i < Img->code.size() && Img->func[i] == F; ++i)
    S += "  0x" + utohexstr(Img->code[i].addr - Img->base) + ": " + Img->text[i] + "\n";
  return S;
}

} // namespace isaemu

//===- Device.cpp - isa-emu device: memory, code objects, dispatch --------===//
//
// Device memory is one virtual reservation (GlobalBase + offset), handed out
// by ArenaAllocator (Arena.h): free() returns a range for reuse, zeroed (a
// range handed out again reads as fresh memory), and a launch frees its
// kernarg segment, dispatch packet, queue and scratch when it ends;
// unloadProgram() gives back a loaded code object's image. A launch
// lays out what the HIP runtime would: the kernarg segment (explicit
// arguments at their metadata offsets, hidden arguments filled by
// .value_kind), a 64-byte AQL kernel-dispatch packet, a queue object and the
// scratch backing (private segment, swizzled per lane as the hardware
// addresses it), then runs the workgroups on host threads in dispatch order
// (a workgroup only ever waits for earlier ones), or, for a cooperative
// launch, keeps every workgroup resident and interleaves them a scheduling
// round at a time, so a grid-wide barrier completes.
//
//===----------------------------------------------------------------------===//
#include "Arena.h"
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
  detail::ArenaAllocator ranges{0};
  /// The allocator's high-water mark: bytes of the arena that addresses may reach.
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
    std::optional<uint64_t> Off = ranges.allocate(Bytes);
    if (!Off)
      return ::support::resourceLimit(::support::Resource::DeviceMemory,
                                    ::support::noLoc("isa-emu: out of device memory (" + std::to_string(Bytes) + " bytes)"));
    used.store(ranges.top());
    return GlobalBase + *Off;
  }
  /// Takes back an allocation: false when \p Addr is not the start of one.
  bool release(uint64_t Addr) {
    std::lock_guard<std::mutex> L(allocMu);
    if (processMode()) {
      auto It = own.find(Addr);
      if (It == own.end()) return false;
      munmap(reinterpret_cast<void *>(uintptr_t(Addr)), It->second);
      own.erase(It);
      return true;
    }
    if (Addr < GlobalBase) return false;
    uint64_t Off = Addr - GlobalBase;
    std::optional<uint64_t> Size = ranges.release(Off);
    if (!Size) return false;
    zero(Off, *Size);
    // A launch running now keeps its snapshot of the mark (the bytes stay
    // mapped); later host accesses above the new mark fail.
    used.store(ranges.top());
    return true;
  }
  /// Zeroes [Off, Off+Size) of the arena: whole pages are given back to the
  /// host (they read as zeroes), the partial pages at the ends are cleared.
  void zero(uint64_t Off, uint64_t Size) {
    const uint64_t Page = 4096;
    uint64_t Lo = (Off + Page - 1) & ~(Page - 1), Hi = (Off + Size) & ~(Page - 1);
    if (Hi > Lo && Hi - Lo >= 16 * Page) {
      ::memset(arena + Off, 0, Lo - Off);
      madvise(arena + Lo, Hi - Lo, MADV_DONTNEED);
      ::memset(arena + Hi, 0, Off + Size - Hi);
    } else {
      ::memset(arena + Off, 0, Size);
    }
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

// Runs every workgroup of LS on Threads host threads. A normal launch runs
// them in dispatch order, one at a time per thread (a workgroup only ever
// waits for earlier ones). A cooperative launch makes the whole grid
// resident -- each thread takes its share of workgroups (each with its own
// scratch slot, Layout has one per workgroup) and runs them round-robin, one
// scheduling round each -- so waves spinning at a grid barrier give way to
// the workgroups that have not reached it yet.
static Error runGrid(Device::Impl &Dev, detail::LaunchState &LS, const detail::DispatchLayout &Layout,
                     unsigned Threads) {
  const LaunchConfig &Cfg = LS.cfg;
  std::atomic<uint64_t> Next{0};
  uint64_t Total = Cfg.grid.count();
  auto idOf = [&](uint64_t L, uint32_t Id[3]) {
    Id[0] = uint32_t(L % Cfg.grid.x);
    Id[1] = uint32_t((L / Cfg.grid.x) % Cfg.grid.y);
    Id[2] = uint32_t(L / (uint64_t(Cfg.grid.x) * Cfg.grid.y));
  };
  auto Worker = [&](unsigned Slot) {
    if (!Cfg.cooperative) {
      detail::Workgroup WG;
      while (!LS.abort.load(std::memory_order_relaxed)) {
        uint64_t L = Next.fetch_add(1);
        if (L >= Total) break;
        uint32_t Id[3];
        idOf(L, Id);
        detail::initWorkgroup(LS, Layout, WG, Id, Slot, Slot);
        if (!detail::runWorkgroup(LS, WG)) {
          LS.abort.store(true);
          break;
        }
      }
      return;
    }
    const uint64_t Share = (Total + Threads - 1) / Threads;
    std::vector<std::unique_ptr<detail::Workgroup>> Resident;
    for (uint64_t n = 0; n < Share; ++n) {
      uint64_t L = Next.fetch_add(1);
      if (L >= Total) break;
      uint32_t Id[3];
      idOf(L, Id);
      Resident.push_back(std::make_unique<detail::Workgroup>());
      detail::initWorkgroup(LS, Layout, *Resident.back(), Id, Slot, unsigned(L));
    }
    size_t RR = 0;
    while (!Resident.empty()) {
      if (RR >= Resident.size()) RR = 0;
      detail::StepResult R = detail::stepWorkgroup(LS, *Resident[RR]);
      if (R == detail::StepResult::Failed) {
        LS.abort.store(true);
        return;
      }
      if (R == detail::StepResult::Done) Resident.erase(Resident.begin() + long(RR));
      else ++RR;
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
  I->ranges = detail::ArenaAllocator(I->arenaBytes);
  return std::unique_ptr<Device>(new Device(std::move(I)));
}

Expected<uint64_t> Device::malloc(uint64_t Bytes) { return P->alloc(Bytes); }

Error Device::free(uint64_t Addr) {
  if (!P->release(Addr))
    return createStringError("isa-emu: free of 0x" + utohexstr(Addr) + ", which is not the start of an allocation");
  return Error::success();
}

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
  (*Img)->ownsImage = true;
  std::lock_guard<std::mutex> L(P->allocMu);
  P->programs.push_back(std::move(*Img));
  P->handles.push_back(std::unique_ptr<Program>(new Program(P->programs.back().get())));
  return P->handles.back().get();
}

Error Device::unloadProgram(Program *Prog) {
  std::unique_ptr<detail::ProgramImage> Img;
  std::unique_ptr<Program> Handle;
  {
    std::lock_guard<std::mutex> L(P->allocMu);
    size_t i = 0;
    while (i < P->handles.size() && P->handles[i].get() != Prog) ++i;
    if (!Prog || i == P->handles.size()) return createStringError("isa-emu: unloadProgram of a program this device does not hold");
    Img = std::move(P->programs[i]);
    Handle = std::move(P->handles[i]);
    P->programs.erase(P->programs.begin() + long(i));
    P->handles.erase(P->handles.begin() + long(i));
  }
  if (Img->ownsImage && !P->release(Img->base)) // release() takes allocMu itself
    return createStringError("isa-emu: the image of an unloaded program at 0x" + utohexstr(Img->base) +
                             " was not an allocation");
  return Error::success();
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
  for (int d = 0; d < 3; ++d) WG[d] = uint32_t((uint64_t(G[d]) + B[d] - 1) / B[d]); // the last may be partial
  Cfg.grid = {WG[0], WG[1], WG[2]};
  Cfg.gridWorkItems = D.gridWorkItems;
  detail::DispatchMemory DM;
  DM.alloc = [this](uint64_t N) { return P->alloc(N); };
  DM.host = [this](uint64_t A, uint64_t N) { return P->host(A, N); };
  DM.release = [this](uint64_t A) { P->release(A); };
  unsigned Threads = P->opts.threads ? P->opts.threads : std::max(1u, std::thread::hardware_concurrency());
  Threads = unsigned(std::min<uint64_t>(Threads, Cfg.grid.count()));
  auto Layout = detail::layoutPacketDispatch(LS, DM, D, Threads);
  if (!Layout) return Layout.takeError();
  LS.resolve = [this](uint64_t A, uint64_t N) { return P->host(A, N); };
  LS.maxWaveInstructions = P->opts.maxWaveInstructions;
  LS.sliceInstructions = P->opts.sliceInstructions;
  Error E = runGrid(*P, LS, *Layout, Threads);
  for (uint64_t A : Layout->allocations) P->release(A);
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
  if (Error E = detail::checkGridItems(Cfg)) return E;

  detail::DispatchMemory DM;
  DM.alloc = [this](uint64_t N) { return P->alloc(N); };
  DM.host = [this](uint64_t A, uint64_t N) { return P->host(A, N); };
  DM.release = [this](uint64_t A) { P->release(A); };
  unsigned Threads = P->opts.threads ? P->opts.threads : std::max(1u, std::thread::hardware_concurrency());
  Threads = unsigned(std::min<uint64_t>(Threads, Cfg.grid.count()));
  if (Cfg.cooperative) {
    // Every workgroup's registers and LDS are held at once.
    uint64_t W = K.info.waveSize, Waves = (Cfg.block.count() + W - 1) / W;
    uint64_t PerWave = (259 + (PI.gfx9 ? 256 : 0)) * W * 4;
    uint64_t Bytes = Cfg.grid.count() * (Waves * PerWave + K.info.groupSegmentFixedSize + Cfg.dynamicLdsBytes);
    if (Bytes > (16ull << 30))
      return ::support::resourceLimit(::support::Resource::CooperativeGrid,
                                    ::support::noLoc("isa-emu: cooperative launch of '" + Kernel.str() + "': " +
                                                   std::to_string(Cfg.grid.count()) +
                                                   " work-groups cannot all be resident"));
  }
  // Scratch: one region per host thread, or per workgroup when all are resident.
  unsigned Slots = Cfg.cooperative ? unsigned(Cfg.grid.count()) : Threads;
  auto Layout = detail::buildDispatch(LS, DM, Args, Slots);
  if (!Layout) return Layout.takeError();
  LS.arena = P->arena;
  // A snapshot: allocations never move, and the arena stays mapped whole, so
  // every byte below the mark stays addressable while this launch runs,
  // whatever other launches (streams), allocations and frees do meanwhile.
  LS.arenaMapped = P->used.load();
  LS.maxWaveInstructions = P->opts.maxWaveInstructions;
  LS.sliceInstructions = P->opts.sliceInstructions;
  Error E = runGrid(*P, LS, *Layout, Threads);
  for (uint64_t A : Layout->allocations) P->release(A);
  return E;
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

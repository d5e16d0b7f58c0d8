//===- Context.cpp - the primary context (runtime/Context.h) -----------------===//
#include "CaptureImpl.h"
#include "ContextImpl.h"

#include "runtime/Device.h"
#include "runtime/Log.h"
#include "support/Contract.h"

#include <cstdio>
#include <cstdlib>

namespace runtime {

PolicySpec PolicySpec::fromEnvironment() {
  PolicySpec P;
  const char *Env = getenv("PTX2AMD_WARP_POLICY");
  if (!Env || !*Env) return P;
  // Each item through the one spec parser (support::parseWarpPolicySpec), so
  // that a bad item is reported and skipped while the others still apply.
  llvm::SmallVector<llvm::StringRef, 4> Items;
  llvm::StringRef(Env).split(Items, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Item : Items) {
    support::WarpPolicySpec One;
    if (llvm::Error E = support::parseWarpPolicySpec(std::string_view(Item.data(), Item.size()), One,
                                                     "PTX2AMD_WARP_POLICY")) {
      llvm::consumeError(std::move(E));
      logger("runtime")->warn("PTX2AMD_WARP_POLICY entry '{}' is not pack, pad or KERNEL=pack|pad; ignored",
                              Item.str());
      continue;
    }
    if (One.module) P.defaultPolicy = *One.module;
    for (auto &[Name, W] : One.kernels) P.perKernel[Name] = W;
  }
  return P;
}

std::vector<std::shared_ptr<Stream::Impl>> Context::Impl::blockingStreams() {
  std::lock_guard<std::mutex> G(Mu);
  std::vector<std::shared_ptr<Stream::Impl>> V;
  for (auto &S : Streams)
    if (S->kind() == StreamKind::Blocking) V.push_back(S->shared());
  for (auto &[T, S] : PerThread) V.push_back(S->shared());
  return V;
}

std::shared_ptr<Stream::Impl> Context::Impl::legacyImpl() { return Self->legacyStream().shared(); }

std::vector<Stream *> Context::Impl::allStreams() {
  std::lock_guard<std::mutex> G(Mu);
  std::vector<Stream *> V;
  if (Legacy) V.push_back(Legacy.get());
  for (auto &S : Streams) V.push_back(S.get());
  for (auto &[T, S] : PerThread) V.push_back(S.get());
  return V;
}

namespace {
uint64_t nextContextId() {
  static std::atomic<uint64_t> Next{1};
  return Next.fetch_add(1);
}
} // namespace

Context::Context(Device &D) : Dev(&D), Id(nextContextId()), Mem(D.memory()), P(std::make_unique<Impl>()) {
  P->Self = this;
  P->Policy = PolicySpec::fromEnvironment();
}
Context::~Context() {
  llvm::consumeError(reset()); // waits for the work, frees what it owns
  flushPrintf();
}

BackendDevice &Context::backend() const { return Dev->backend(); }
const DeviceProperties &Context::properties() const { return Dev->properties(); }

// ---- memory ----------------------------------------------------------------------
llvm::Expected<uint64_t> Context::allocate(uint64_t Bytes, MemoryKind Kind) {
  if (llvm::Error E = captureUnsafeCheck(*this, "memory allocation")) return E;
  return allocateUnchecked(Bytes, Kind, false);
}

llvm::Expected<uint64_t> Context::allocateGraphMemory(uint64_t Bytes) {
  return allocateUnchecked(Bytes, MemoryKind::Device, true);
}

llvm::Expected<uint64_t> Context::allocateUnchecked(uint64_t Bytes, MemoryKind Kind, bool Graph) {
  uint64_t Total = memInfo().second;
  if (Bytes > Total)
    return makeError(Errc::MemoryAllocation, "cannot allocate " + std::to_string(Bytes) + " bytes (the device has " +
                                                 std::to_string(Total) + ")");
  uint64_t N = std::max<uint64_t>(Bytes, 1);
  auto A = Kind == MemoryKind::Device ? backend().allocDevice(N)
                                      : backend().allocHost(N, Kind == MemoryKind::Pinned ? HostMemKind::Pinned
                                                                                          : HostMemKind::Managed);
  if (!A) {
    std::string Msg;
    takeErrc(A.takeError(), &Msg);
    return makeError(Errc::MemoryAllocation, Msg);
  }
  if (Mem.overlaps(*A, N)) // a backend bug; never hand out overlapping memory
    return makeError(Errc::MemoryAllocation, "backend returned memory overlapping a live allocation");
  Allocation Rec{*A, Bytes, Kind};
  Rec.owner = this;
  Rec.graphMemory = Graph;
  Mem.insert(Rec);
  return *A;
}

llvm::Error Context::free(uint64_t Base, std::optional<MemoryKind> Expect) {
  auto A = Mem.find(Base);
  if (!A || A->base != Base || A->moduleGlobal ||
      (Expect && (*Expect == MemoryKind::Device) != (A->kind == MemoryKind::Device)))
    return makeError(Errc::InvalidValue, "free of 0x" + llvm::utohexstr(Base) + ", which is not a live allocation");
  // CUDA's cudaFree synchronises the device first.
  if (llvm::Error E = waitIdle()) llvm::consumeError(std::move(E));
  if (A->graphMemory) { // freeing a graph allocation ends its lifetime; the graph keeps the address
    if (!A->graphLive)
      return makeError(Errc::InvalidValue, "free of graph memory 0x" + llvm::utohexstr(Base) + ", which is not allocated now");
    Mem.update(Base, [](Allocation &X) { X.graphLive = false; });
    return llvm::Error::success();
  }
  Mem.erase(Base);
  return A->kind == MemoryKind::Device ? backend().freeDevice(Base) : backend().freeHost(Base);
}

void Context::registerGlobal(const GlobalInfo &G) {
  if (G.address && !Mem.find(G.address, std::max<uint64_t>(G.size, 1))) {
    Allocation Rec{G.address, G.size, MemoryKind::Device, true};
    Rec.owner = this;
    Mem.insert(Rec);
  }
}

llvm::Error Context::copySync(uint64_t Dst, uint64_t Src, uint64_t Bytes, MemcpyKind Kind) {
  Stream &S = legacyStream();
  if (llvm::Error E = S.copy(Dst, Src, Bytes, Kind)) return E;
  return S.drain();
}

llvm::Error Context::copyPeer(Context &DstCtx, uint64_t Dst, Context &SrcCtx, uint64_t Src, uint64_t Bytes,
                              Stream *S) {
  if (&DstCtx.device() != &SrcCtx.device() || (S && &S->context().device() != &DstCtx.device()))
    return makeError(Errc::NotSupported, "peer copies between two different devices are not supported "
                                         "(each backend exposes one device)");
  if (S) return S->copy(Dst, Src, Bytes, MemcpyKind::DeviceToDevice);
  if (llvm::Error E = DstCtx.synchronize()) return E;
  if (&SrcCtx != &DstCtx)
    if (llvm::Error E = SrcCtx.synchronize()) return E;
  return DstCtx.copySync(Dst, Src, Bytes, MemcpyKind::DeviceToDevice);
}

llvm::Error Context::memsetSync(uint64_t Dst, int Value, uint64_t Bytes) {
  Stream &S = legacyStream();
  if (llvm::Error E = S.memset(Dst, Value, Bytes)) return E;
  return S.drain();
}

std::pair<uint64_t, uint64_t> Context::memInfo() const { return backend().memInfo(); }

// ---- streams and events ---------------------------------------------------------------
Stream &Context::legacyStream() {
  std::lock_guard<std::mutex> G(P->Mu);
  if (!P->Legacy) P->Legacy = std::make_unique<Stream>(*this, StreamKind::Legacy, 0);
  return *P->Legacy;
}

Stream &Context::perThreadStream() {
  std::lock_guard<std::mutex> G(P->Mu);
  auto &S = P->PerThread[std::this_thread::get_id()];
  if (!S) S = std::make_unique<Stream>(*this, StreamKind::PerThread, 0);
  return *S;
}

llvm::Expected<Stream *> Context::createStream(bool NonBlocking, int Priority) {
  std::lock_guard<std::mutex> G(P->Mu);
  P->Streams.push_back(
      std::make_unique<Stream>(*this, NonBlocking ? StreamKind::NonBlocking : StreamKind::Blocking, Priority));
  return P->Streams.back().get();
}

llvm::Error Context::destroyStream(Stream *S) {
  std::lock_guard<std::mutex> SG(P->SubmitMu);
  std::lock_guard<std::mutex> G(P->Mu);
  for (auto It = P->Streams.begin(); It != P->Streams.end(); ++It)
    if (It->get() == S) {
      P->Streams.erase(It);
      return llvm::Error::success();
    }
  return makeError(Errc::InvalidResourceHandle, "not a live stream");
}

bool Context::isLive(const Stream *S) const {
  std::lock_guard<std::mutex> G(P->Mu);
  if (S == P->Legacy.get()) return S != nullptr;
  for (auto &X : P->Streams)
    if (X.get() == S) return true;
  for (auto &[T, X] : P->PerThread)
    if (X.get() == S) return true;
  return false;
}

llvm::Expected<Event *> Context::createEvent(bool Timing, bool BlockingSync) {
  std::lock_guard<std::mutex> G(P->Mu);
  P->Events.push_back(std::make_unique<Event>(Timing, BlockingSync));
  return P->Events.back().get();
}

llvm::Error Context::destroyEvent(Event *E) {
  std::lock_guard<std::mutex> G(P->Mu);
  for (auto It = P->Events.begin(); It != P->Events.end(); ++It)
    if (It->get() == E) {
      P->Events.erase(It);
      return llvm::Error::success();
    }
  return makeError(Errc::InvalidResourceHandle, "not a live event");
}

bool Context::isLive(const Event *E) const {
  std::lock_guard<std::mutex> G(P->Mu);
  for (auto &X : P->Events)
    if (X.get() == E) return true;
  return false;
}

llvm::Error Context::synchronize() {
  if (llvm::Error E = captureContextSyncCheck(*this)) return E;
  return waitIdle();
}

llvm::Error Context::waitIdle() {
  for (Stream *S : P->allStreams()) {
    uint64_t Seq;
    {
      std::lock_guard<std::mutex> G(S->impl().Mu);
      Seq = S->impl().Submitted;
    }
    S->impl().waitCompleted(Seq);
  }
  flushPrintf();
  if (llvm::Error E = stickyError()) return E;
  return takeAsyncError();
}

// ---- errors, limits, printf -----------------------------------------------------------
llvm::Error Context::stickyError() const {
  Errc C = P->Sticky.load();
  if (C == Errc::Success) return llvm::Error::success();
  return makeError(C, "the context has a sticky error from an earlier kernel fault");
}
Errc Context::stickyCode() const { return P->Sticky.load(); }

void Context::recordFailure(Errc C, const std::string &Msg) {
  logger("runtime")->error("{}", Msg);
  if (isSticky(C)) {
    Errc Expected = Errc::Success;
    P->Sticky.compare_exchange_strong(Expected, C);
    return;
  }
  std::lock_guard<std::mutex> G(P->AsyncMu);
  if (P->Async == Errc::Success) {
    P->Async = C;
    P->AsyncMsg = Msg;
  }
}

llvm::Error Context::takeAsyncError() {
  std::lock_guard<std::mutex> G(P->AsyncMu);
  Errc C = P->Async;
  if (C == Errc::Success) return llvm::Error::success();
  P->Async = Errc::Success;
  return makeError(C, "earlier asynchronous work failed: " + P->AsyncMsg);
}

std::string Context::defaultWarpPolicy() const {
  if (properties().waveSize != 64) return std::string(support::warpPolicyName(support::WarpPolicy::Native));
  return std::string(support::warpPolicyName(P->Policy.defaultPolicy == support::WarpPolicy::Pad
                                                 ? support::WarpPolicy::Pad
                                                 : support::WarpPolicy::Pack));
}

llvm::Error Context::setLimit(Limit L, uint64_t Value) {
  if (L == Limit::StackSize) {
    P->StackBytes = Value;
    return backend().setLimit(L, Value);
  }
  return backend().setLimit(L, Value);
}
uint64_t Context::limit(Limit L) const { return L == Limit::StackSize ? P->StackBytes : backend().limit(L); }

void Context::appendPrintf(llvm::StringRef Text) {
  std::lock_guard<std::mutex> G(P->PrintfMu);
  P->PrintfText.append(Text.data(), Text.size());
}

void Context::flushPrintf() {
  std::string T;
  {
    std::lock_guard<std::mutex> G(P->PrintfMu);
    T.swap(P->PrintfText);
  }
  if (T.empty()) return;
  fwrite(T.data(), 1, T.size(), stdout);
  fflush(stdout);
}

uint64_t Context::generation() const { return P->Generation.load(); }

llvm::Error Context::reset() {
  llvm::consumeError(waitIdle());
  {
    std::lock_guard<std::mutex> SG(P->SubmitMu);
    std::lock_guard<std::mutex> G(P->Mu);
    P->Streams.clear();
    P->Events.clear();
    {
      std::lock_guard<std::mutex> TG(P->TexMu); // their memory goes with every allocation below
      P->Arrays.clear();
      P->Mipmaps.clear();
      P->TexObjects.clear();
    }
    // CUDA destroys the context's modules; the runtime API loads the
    // registered fat binaries again on next use (module variables start
    // from their initial values again).
    // Their device memory (globals, printf FIFO, heap) goes back one reset later: nothing of
    // theirs is pending (waitIdle above) and a retired module never runs again, but a module
    // reloaded right away would otherwise land at the old addresses, and a pointer into the old
    // variables must stay dead (the H200: cudaErrorInvalidValue, device_reset_probe). So the
    // memory of the modules the previous reset retired is released now; at most two
    // generations are held.
    for (Module *Old : P->ReleaseAtNextReset) Old->releaseMemory();
    P->ReleaseAtNextReset.clear();
    for (auto &M : P->Modules) {
      M->Retired = true;
      P->ReleaseAtNextReset.push_back(M.get());
      P->Retired.push_back(std::move(M));
    }
    P->Modules.clear();
    ++P->Generation;
  }
  backend().retireHostAliases(); // their variables went with the modules
  for (const Allocation &A : Mem.all()) {
    if (A.owner != this) continue; // another context's
    Mem.erase(A.base);
    if (A.moduleGlobal) continue; // part of a (retired) backend module
    llvm::consumeError(A.kind == MemoryKind::Device ? backend().freeDevice(A.base) : backend().freeHost(A.base));
  }
  P->Sticky.store(Errc::Success);
  {
    std::lock_guard<std::mutex> G(P->AsyncMu);
    P->Async = Errc::Success;
  }
  P->StackBytes = 1024;
  return llvm::Error::success();
}

} // namespace runtime

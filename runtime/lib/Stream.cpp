//===- Stream.cpp - in-order queues with worker threads (runtime/Stream.h) ---===//
//
// Submission side (any host thread): checks arguments, builds what the
// command needs (kernarg segment, classified copy), adds the implicit
// legacy-stream dependencies and queues it. Worker side: waits for the
// dependencies, skips the command while the context has a sticky error,
// runs it on the stream's BackendQueue, finish()es it, records a failure on
// the context, stamps an event marker, counts the command complete.
//
//===----------------------------------------------------------------------===//
#include "StreamImpl.h"
#include "CaptureImpl.h"
#include "ContextImpl.h"

#include "runtime/Log.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

namespace runtime {

uint64_t Stream::Impl::submit(Command C, const std::shared_ptr<Impl> &Self) {
  std::lock_guard<std::mutex> G(Mu);
  if (!Started) {
    Started = true;
    std::thread(&Impl::worker, this, Self).detach();
  }
  Q.push_back(std::move(C));
  WorkCV.notify_one();
  return ++Submitted;
}

void Stream::Impl::waitCompleted(uint64_t Seq) {
  std::unique_lock<std::mutex> L(Mu);
  DoneCV.wait(L, [&] { return Completed >= Seq; });
}

bool Stream::Impl::idle() {
  std::lock_guard<std::mutex> G(Mu);
  return Completed >= Submitted;
}

void Stream::Impl::stop() {
  std::lock_guard<std::mutex> G(Mu);
  Stop = true;
  WorkCV.notify_one();
}

void Stream::Impl::worker(std::shared_ptr<Impl> Self) {
  for (;;) {
    Command C;
    {
      std::unique_lock<std::mutex> L(Mu);
      WorkCV.wait(L, [&] { return !Q.empty() || Stop; });
      if (Q.empty()) break; // stopped and drained
      C = std::move(Q.front());
      Q.pop_front();
    }
    for (Dep &D : C.Waits)
      if (D.S.get() != this) D.S->waitCompleted(D.Seq);
    if (C.Run && Ctx->stickyCode() == Errc::Success) {
      llvm::Error E = llvm::Error::success();
      if (!BQ) {
        auto Q2 = Ctx->backend().createQueue();
        if (Q2) BQ = std::move(*Q2);
        else E = Q2.takeError();
      }
      if (!E && BQ) {
        E = C.Run(*BQ);
        if (!E) E = BQ->finish();
      }
      if (E) {
        std::string Msg;
        Errc Code = takeErrc(std::move(E), &Msg);
        Ctx->recordFailure(Code, Msg);
      }
    }
    if (C.Host && Ctx->stickyCode() == Errc::Success) {
      Ctx->flushPrintf(); // CUDA flushes device printf before a stream callback
      C.Host();
    }
    if (C.Marker) C.Marker->StampNs.store(nowNs());
    std::lock_guard<std::mutex> G(Mu);
    ++Completed;
    DoneCV.notify_all();
  }
}

// ---- Stream facade -------------------------------------------------------------

Stream::Stream(Context &C, StreamKind K, int Priority) : P(std::make_shared<Impl>()) {
  P->Ctx = &C;
  P->Kind = K;
  P->Priority = Priority;
}
Stream::~Stream() { P->stop(); } // pending work still completes; the worker owns P too
StreamKind Stream::kind() const { return P->Kind; }
int Stream::priority() const { return P->Priority; }
Context &Stream::context() const { return *P->Ctx; }

namespace {
// Queues C on S with the legacy default stream's implicit dependencies.
uint64_t enqueue(Stream &S, Command C) {
  Context::Impl &CI = S.context().impl();
  std::lock_guard<std::mutex> G(CI.SubmitMu);
  Stream::Impl &I = S.impl();
  if (I.Kind == StreamKind::Legacy) {
    for (const std::shared_ptr<Stream::Impl> &O : CI.blockingStreams())
      if (O.get() != &I) {
        std::lock_guard<std::mutex> OG(O->Mu);
        if (O->Submitted > O->Completed) C.Waits.push_back({O, O->Submitted});
      }
  } else if (I.Kind != StreamKind::NonBlocking) {
    std::shared_ptr<Stream::Impl> L = CI.legacyImpl();
    std::lock_guard<std::mutex> LG(L->Mu);
    if (L->Submitted > L->Completed) C.Waits.push_back({L, L->Submitted});
  }
  return I.submit(std::move(C), CI.implOf(S));
}

bool hostMapped(uint64_t P, uint64_t N) {
  // An address range the host can touch: mincore fails with ENOMEM on
  // unmapped pages, so a dead or foreign pointer is an error, not a crash.
  static const uint64_t Page = uint64_t(sysconf(_SC_PAGESIZE));
  uint64_t Lo = P & ~(Page - 1), Hi = (P + N + Page - 1) & ~(Page - 1);
  std::vector<unsigned char> V((Hi - Lo) / Page);
  return mincore(reinterpret_cast<void *>(Lo), Hi - Lo, V.data()) == 0;
}

struct Side {
  bool device = false;   // a device allocation (backend copy)
  bool pageable = false; // host memory the runtime does not own
};

llvm::Expected<Side> classify(Context &C, uint64_t P, uint64_t N, bool StatedDevice, const char *What) {
  if (!P) return makeError(Errc::InvalidValue, std::string(What) + " pointer is null");
  if (N > UINT64_MAX - P) return makeError(Errc::InvalidValue, std::string(What) + " range wraps around");
  if (auto A = C.memory().find(P, N)) return Side{A->kind == MemoryKind::Device, false};
  if (C.memory().overlaps(P, N))
    return makeError(Errc::InvalidValue, std::string(What) + " range [0x" + llvm::utohexstr(P) + ", +" +
                                             std::to_string(N) + ") runs past the end of its allocation");
  if (StatedDevice)
    return makeError(Errc::InvalidValue, std::string(What) + " pointer 0x" + llvm::utohexstr(P) +
                                             " is not a live device allocation");
  if (!hostMapped(P, N))
    return makeError(Errc::InvalidValue, std::string(What) + " pointer 0x" + llvm::utohexstr(P) +
                                             " is neither a live allocation nor mapped host memory");
  return Side{false, true};
}
} // namespace

namespace {
llvm::Error submitLaunch(Stream &S, Function &F, const LaunchConfig &C, llvm::Expected<Kernarg> K,
                         const void *Handle) {
  if (!K) return K.takeError();
  Context &Ctx = S.context();
  if (llvm::Error E = Ctx.stickyError()) return E;
  if (F.module().retired())
    return makeError(Errc::InvalidResourceHandle, "kernel '" + F.properties().name + "' belongs to a module a device reset unloaded");
  const KernelProperties &KP = F.properties();
  if (llvm::Error E = checkLaunch(Ctx.properties(), KP, C, Ctx.limit(Limit::StackSize))) return E;
  if (auto Captured = captureNode(S, GraphNodeKind::Kernel, [&](GraphNode &N) {
        N.kernel.function = &F;
        N.kernel.handle = Handle;
        N.kernel.config = C;
        N.kernel.args.assign(K->bytes.begin(), K->bytes.begin() + K->explicitBytes);
      }))
    return std::move(*Captured);
  Ctx.flushPrintf(); // CUDA flushes device printf at the start of a launch
  LaunchParams LP;
  LP.grid = C.grid;
  LP.block = C.block;
  LP.dynamicLdsBytes = C.dynamicSharedBytes;
  LP.cooperative = C.cooperative;
  LP.stackBytesPerThread = Ctx.limit(Limit::StackSize);
  LP.printfSink = [C = &Ctx](llvm::StringRef T) { C->appendPrintf(T); };
  static auto Log = logger("runtime");
  Log->debug("launch {} grid ({},{},{}) block ({},{},{}) dynamic shared {}{}", KP.name, C.grid.x, C.grid.y, C.grid.z,
             C.block.x, C.block.y, C.block.z, C.dynamicSharedBytes, C.cooperative ? " cooperative" : "");
  Command Cmd;
  BackendModule *Img = &F.image();
  const KernelProperties *KPp = &KP;
  Cmd.Run = [Img, KPp, LP, Args = std::move(*K)](BackendQueue &Q) { return Q.launch(*Img, *KPp, LP, Args); };
  enqueue(S, std::move(Cmd));
  return llvm::Error::success();
}
} // namespace

llvm::Error Stream::launch(Function &F, const LaunchConfig &C, void **Args, const void *Handle) {
  return submitLaunch(*this, F, C, KernargBuilder::fromPointers(F.properties(), C, Args), Handle);
}
llvm::Error Stream::launch(Function &F, const LaunchConfig &C, llvm::ArrayRef<uint8_t> PackedArgs,
                           const void *Handle) {
  return submitLaunch(*this, F, C, KernargBuilder::fromBuffer(F.properties(), C, PackedArgs), Handle);
}

llvm::Error Stream::copy(uint64_t Dst, uint64_t Src, uint64_t Bytes, MemcpyKind Kind) {
  if (Bytes == 0) return llvm::Error::success();
  Context &Ctx = context();
  bool DstDev = Kind == MemcpyKind::HostToDevice || Kind == MemcpyKind::DeviceToDevice;
  bool SrcDev = Kind == MemcpyKind::DeviceToHost || Kind == MemcpyKind::DeviceToDevice;
  auto D = classify(Ctx, Dst, Bytes, DstDev, "destination");
  if (!D) return D.takeError();
  auto Sr = classify(Ctx, Src, Bytes, SrcDev, "source");
  if (!Sr) return Sr.takeError();
  if (llvm::Error E = Ctx.stickyError()) return E;
  if (auto Captured = captureNode(*this, GraphNodeKind::Memcpy, [&](GraphNode &N) {
        N.copy.dst = Dst;
        N.copy.src = Src;
        N.copy.widthBytes = Bytes;
        N.copy.dstPitch = N.copy.srcPitch = Bytes;
        N.copy.dstRows = N.copy.srcRows = 1;
        N.copy.kind = Kind;
      }))
    return std::move(*Captured);
  Command Cmd;
  if (!D->device && !Sr->device) {
    Cmd.Run = [Dst, Src, Bytes](BackendQueue &) {
      std::memmove(reinterpret_cast<void *>(Dst), reinterpret_cast<const void *>(Src), Bytes);
      return llvm::Error::success();
    };
  } else {
    CopyDir Dir = D->device && Sr->device ? CopyDir::DeviceToDevice
                  : D->device             ? CopyDir::HostToDevice
                                          : CopyDir::DeviceToHost;
    Cmd.Run = [Dst, Src, Bytes, Dir](BackendQueue &Q) { return Q.copy(Dst, Src, Bytes, Dir); };
  }
  uint64_t Seq = enqueue(*this, std::move(Cmd));
  if (D->pageable || Sr->pageable) { // pageable memory: done before returning
    P->waitCompleted(Seq);
    return Ctx.stickyError();
  }
  return llvm::Error::success();
}

llvm::Error Stream::copy3D(const CopyNodeParams &C) {
  if (C.widthBytes == 0 || C.height == 0 || C.depth == 0) return llvm::Error::success();
  // Both spans (first to last byte) must be inside one allocation or host memory.
  Context &Ctx = context();
  uint64_t DstSpan = ((C.depth - 1) * C.dstRows + C.height - 1) * C.dstPitch + C.widthBytes;
  uint64_t SrcSpan = ((C.depth - 1) * C.srcRows + C.height - 1) * C.srcPitch + C.widthBytes;
  bool DstDev = C.kind == MemcpyKind::HostToDevice || C.kind == MemcpyKind::DeviceToDevice;
  bool SrcDev = C.kind == MemcpyKind::DeviceToHost || C.kind == MemcpyKind::DeviceToDevice;
  auto D = classify(Ctx, C.dst, DstSpan, DstDev, "destination");
  if (!D) return D.takeError();
  auto Sr = classify(Ctx, C.src, SrcSpan, SrcDev, "source");
  if (!Sr) return Sr.takeError();
  if (auto Captured = captureNode(*this, GraphNodeKind::Memcpy, [&](GraphNode &N) { N.copy = C; }))
    return std::move(*Captured);
  bool Contiguous = C.depth * C.height == 1 ||
                    (C.dstPitch == C.widthBytes && C.srcPitch == C.widthBytes &&
                     (C.depth == 1 || (C.dstRows == C.height && C.srcRows == C.height)));
  if (Contiguous) return copy(C.dst, C.src, C.widthBytes * C.height * C.depth, C.kind);
  for (uint64_t Z = 0; Z < C.depth; ++Z)
    for (uint64_t Y = 0; Y < C.height; ++Y)
      if (llvm::Error E = copy(C.dst + (Z * C.dstRows + Y) * C.dstPitch, C.src + (Z * C.srcRows + Y) * C.srcPitch,
                               C.widthBytes, C.kind))
        return E;
  return llvm::Error::success();
}

namespace {
llvm::Expected<Allocation> fillTarget(Context &Ctx, uint64_t Dst, uint64_t Bytes) {
  if (!Dst) return makeError(Errc::InvalidValue, "memset of a null pointer");
  auto A = Ctx.memory().find(Dst, Bytes);
  if (!A)
    return makeError(Errc::InvalidValue, "memset range 0x" + llvm::utohexstr(Dst) + " +" + std::to_string(Bytes) +
                                             " is not inside a live allocation");
  if (llvm::Error E = Ctx.stickyError()) return E;
  return *A;
}

// Queues Count elements of ElemSize bytes of Pattern (uniform bytes: a memset).
void enqueueFill(Stream &S, const Allocation &A, uint64_t Dst, uint32_t Pattern, unsigned ElemSize, uint64_t Count) {
  uint8_t B[4];
  std::memcpy(B, &Pattern, 4);
  bool Uniform = true;
  for (unsigned I = 1; I < ElemSize; ++I) Uniform &= B[I] == B[0];
  uint64_t Bytes = Count * ElemSize;
  Command Cmd;
  if (Uniform) {
    int Value = B[0];
    if (A.hostAccessible())
      Cmd.Run = [Dst, Value, Bytes](BackendQueue &) {
        std::memset(reinterpret_cast<void *>(Dst), Value, Bytes);
        return llvm::Error::success();
      };
    else
      Cmd.Run = [Dst, Value, Bytes](BackendQueue &Q) { return Q.memset(Dst, Value, Bytes); };
  } else {
    auto Buf = std::make_shared<std::vector<uint8_t>>(Bytes);
    for (uint64_t I = 0; I < Count; ++I) std::memcpy(Buf->data() + I * ElemSize, B, ElemSize);
    if (A.hostAccessible())
      Cmd.Run = [Dst, Buf](BackendQueue &) {
        std::memcpy(reinterpret_cast<void *>(Dst), Buf->data(), Buf->size());
        return llvm::Error::success();
      };
    else
      Cmd.Run = [Dst, Buf](BackendQueue &Q) {
        return Q.copy(Dst, reinterpret_cast<uint64_t>(Buf->data()), Buf->size(), CopyDir::HostToDevice);
      };
  }
  enqueue(S, std::move(Cmd));
}
} // namespace

llvm::Error Stream::memset(uint64_t Dst, int Value, uint64_t Bytes) { return fill(Dst, uint8_t(Value), 1, Bytes); }

llvm::Error Stream::fill(uint64_t Dst, uint32_t Pattern, unsigned ElemSize, uint64_t Count) {
  if (ElemSize != 1 && ElemSize != 2 && ElemSize != 4)
    return makeError(Errc::InvalidValue, "memset element size " + std::to_string(ElemSize) + " (1, 2 or 4)");
  if (Count == 0) return llvm::Error::success();
  auto A = fillTarget(context(), Dst, Count * ElemSize);
  if (!A) return A.takeError();
  if (auto Captured = captureNode(*this, GraphNodeKind::Memset, [&](GraphNode &N) {
        N.fill.dst = Dst;
        N.fill.value = Pattern;
        N.fill.elementSize = ElemSize;
        N.fill.width = Count;
        N.fill.height = 1;
        N.fill.pitch = Count * ElemSize;
      }))
    return std::move(*Captured);
  enqueueFill(*this, *A, Dst, Pattern, ElemSize, Count);
  return llvm::Error::success();
}

llvm::Error Stream::hostFunc(std::function<void()> Fn) {
  if (!Fn) return makeError(Errc::InvalidValue, "host function is null");
  if (auto Captured = captureNode(*this, GraphNodeKind::Host, [&](GraphNode &N) { N.host.call = Fn; }))
    return std::move(*Captured);
  Command Cmd;
  Cmd.Host = std::move(Fn);
  enqueue(*this, std::move(Cmd));
  return llvm::Error::success();
}

llvm::Error Stream::hostFunc(void (*Fn)(void *), void *User) {
  if (!Fn) return makeError(Errc::InvalidValue, "host function is null");
  if (auto Captured = captureNode(*this, GraphNodeKind::Host, [&](GraphNode &N) {
        N.host.fn = Fn;
        N.host.user = User;
      }))
    return std::move(*Captured);
  Command Cmd;
  Cmd.Host = [Fn, User] { Fn(User); };
  enqueue(*this, std::move(Cmd));
  return llvm::Error::success();
}

llvm::Error Stream::waitEvent(Event &E) {
  if (auto Captured = captureWait(*this, E)) return std::move(*Captured);
  std::shared_ptr<Event::State> S = E.snapshot();
  if (!S) return llvm::Error::success(); // never recorded: complete
  Command Cmd;
  Cmd.Waits.push_back({S->S, S->Seq});
  enqueue(*this, std::move(Cmd));
  return llvm::Error::success();
}

llvm::Error Stream::synchronize() {
  if (llvm::Error E = captureSyncCheck(*this)) return E;
  uint64_t Seq;
  {
    std::lock_guard<std::mutex> G(P->Mu);
    Seq = P->Submitted;
  }
  P->waitCompleted(Seq);
  context().flushPrintf();
  if (llvm::Error E = context().stickyError()) return E;
  return context().takeAsyncError();
}

llvm::Error Stream::drain() {
  uint64_t Seq;
  {
    std::lock_guard<std::mutex> G(P->Mu);
    Seq = P->Submitted;
  }
  P->waitCompleted(Seq);
  if (llvm::Error E = context().stickyError()) return E;
  return context().takeAsyncError();
}

llvm::Error Stream::query() {
  if (llvm::Error E = captureSyncCheck(*this)) return E;
  if (llvm::Error E = context().stickyError()) return E;
  return P->idle() ? llvm::Error::success() : makeError(Errc::NotReady, "stream has pending work");
}

// ---- events --------------------------------------------------------------------

Event::Event(bool Timing, bool) : Timing(Timing) {}
Event::~Event() = default;

llvm::Error Event::record(Stream &S) {
  if (auto Captured = captureRecord(S, *this)) return std::move(*Captured);
  auto St = std::make_shared<State>();
  Command Cmd;
  Cmd.Marker = St;
  Context::Impl &CI = S.context().impl();
  St->S = CI.implOf(S);
  // Seq is the marker's own position: known only at submission; the marker
  // reads nothing from St->Seq, so filling it after submit is safe.
  St->Seq = enqueue(S, std::move(Cmd));
  std::atomic_store(&Cur, St);
  return llvm::Error::success();
}

std::shared_ptr<Event::State> Event::snapshot() const { return std::atomic_load(&Cur); }
void Event::setSnapshot(std::shared_ptr<State> S) { std::atomic_store(&Cur, std::move(S)); }

llvm::Error Event::query() {
  if (llvm::Error E = captureEventCheck(*this)) return E;
  auto S = snapshot();
  if (!S) return llvm::Error::success();
  std::lock_guard<std::mutex> G(S->S->Mu);
  return S->S->Completed >= S->Seq ? llvm::Error::success() : makeError(Errc::NotReady, "event not reached yet");
}

llvm::Error Event::synchronize() {
  if (llvm::Error E = captureEventCheck(*this)) return E;
  auto S = snapshot();
  if (!S) return llvm::Error::success();
  S->S->waitCompleted(S->Seq);
  S->S->Ctx->flushPrintf();
  return llvm::Error::success();
}

llvm::Expected<float> Event::elapsed(Event &Start, Event &End) {
  if (!Start.Timing || !End.Timing)
    return makeError(Errc::InvalidResourceHandle, "elapsed time of an event created with cudaEventDisableTiming");
  auto A = Start.snapshot(), B = End.snapshot();
  if (!A || !B) return makeError(Errc::InvalidResourceHandle, "elapsed time of an event never recorded");
  int64_t TA = A->StampNs.load(), TB = B->StampNs.load();
  if (TA < 0 || TB < 0) return makeError(Errc::NotReady, "elapsed time of an event not completed yet");
  return float(double(TB - TA) / 1e6);
}

} // namespace runtime

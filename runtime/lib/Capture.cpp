//===- Capture.cpp - stream capture (runtime/Graph.h, CaptureImpl.h) ---------===//
//
// Begin / end / query of a capture, the hooks the stream and event
// operations call, and CUDA's rules for calls during a capture (a thread's
// interaction mode, cudaThreadExchangeStreamCaptureMode: Global prohibits
// potentially unsafe calls while this thread captures in a non-relaxed mode
// or any thread captures in global mode; ThreadLocal only the former;
// Relaxed never). A refused call invalidates the capture it conflicts with;
// ending an invalidated or unjoined capture discards its graph.
//
//===----------------------------------------------------------------------===//
#include "CaptureImpl.h"
#include "ContextImpl.h"

#include <algorithm>

namespace runtime {

namespace {
thread_local CaptureMode ThreadMode = CaptureMode::Global;

Context::Impl &ctxOf(Stream &S) { return S.context().impl(); }

bool blockingKind(StreamKind K) { return K == StreamKind::Blocking || K == StreamKind::PerThread; }

// Captures of CI with a blocking member stream (caller holds CaptureMu).
std::vector<std::shared_ptr<Capture>> blockingCaptures(Context::Impl &CI) {
  std::vector<std::shared_ptr<Capture>> R;
  for (auto &C : CI.Captures)
    for (auto &W : C->Members)
      if (auto M = W.lock(); M && blockingKind(M->Kind)) {
        R.push_back(C);
        break;
      }
  return R;
}

void leave(Capture &C) {
  for (auto &W : C.Members)
    if (auto M = W.lock()) {
      M->Cap.reset();
      M->CapTail.clear();
    }
  C.Members.clear();
  C.Ended = true;
}

void finish(Context::Impl &CI, const std::shared_ptr<Capture> &C) {
  leave(*C);
  CI.Captures.erase(std::remove(CI.Captures.begin(), CI.Captures.end(), C), CI.Captures.end());
}

llvm::Error invalidated() {
  return makeError(Errc::StreamCaptureInvalidated, "the stream capture was invalidated by an earlier error");
}
} // namespace

CaptureMode exchangeThreadCaptureMode(CaptureMode M) {
  CaptureMode Old = ThreadMode;
  ThreadMode = M;
  return Old;
}

llvm::Error beginCapture(Stream &S, CaptureMode M, Graph *Into, llvm::ArrayRef<GraphNode *> Deps) {
  Stream::Impl &I = S.impl();
  if (I.Kind == StreamKind::Legacy)
    return makeError(Errc::StreamCaptureUnsupported, "the legacy default stream cannot be captured");
  Context::Impl &CI = ctxOf(S);
  std::lock_guard<std::mutex> G(CI.CaptureMu);
  if (I.Cap) return makeError(Errc::IllegalState, "the stream is already capturing");
  auto C = std::make_shared<Capture>();
  C->Ctx = &S.context();
  if (Into) {
    for (GraphNode *D : Deps)
      if (!Into->owns(D)) return makeError(Errc::InvalidValue, "a capture dependency is not a node of the graph");
    C->Into = Into;
  } else {
    C->G = std::make_unique<Graph>();
  }
  C->Mode = M;
  C->Thread = std::this_thread::get_id();
  C->Id = CI.NextCaptureId++;
  C->Origin = &I;
  C->Members.push_back(S.shared());
  I.Cap = C;
  I.CapTail.assign(Deps.begin(), Deps.end());
  CI.Captures.push_back(C);
  return llvm::Error::success();
}

llvm::Expected<Graph *> endCapture(Stream &S) {
  Stream::Impl &I = S.impl();
  Context::Impl &CI = ctxOf(S);
  std::lock_guard<std::mutex> G(CI.CaptureMu);
  std::shared_ptr<Capture> C = I.Cap;
  if (!C) return makeError(Errc::IllegalState, "the stream is not capturing");
  if (C->Origin != &I) {
    C->Invalidated = true;
    return makeError(Errc::StreamCaptureUnmatched, "the capture was not begun on this stream");
  }
  if (C->Mode != CaptureMode::Relaxed && C->Thread != std::this_thread::get_id()) {
    finish(CI, C); // the H200 ends the capture (no graph) as well
    return makeError(Errc::StreamCaptureWrongThread, "the capture was begun by another thread");
  }
  // Every member's tail must be reachable from (joined into) the origin's.
  std::set<const GraphNode *> Joined;
  std::vector<const GraphNode *> Work(I.CapTail.begin(), I.CapTail.end());
  while (!Work.empty()) {
    const GraphNode *N = Work.back();
    Work.pop_back();
    if (!Joined.insert(N).second) continue;
    for (GraphNode *D : N->deps) Work.push_back(D);
  }
  bool Unjoined = false;
  for (auto &W : C->Members)
    if (auto M = W.lock(); M && M.get() != &I)
      for (GraphNode *N : M->CapTail) Unjoined |= !Joined.count(N);
  bool Inval = C->Invalidated;
  finish(CI, C);
  if (Inval) return invalidated();
  if (Unjoined)
    return makeError(Errc::StreamCaptureUnjoined, "a stream forked from the capture did not join back");
  if (C->Into) return C->Into;
  return graphs().adopt(std::move(C->G));
}

llvm::Expected<CaptureInfo> captureInfo(Stream &S) {
  Stream::Impl &I = S.impl();
  Context::Impl &CI = ctxOf(S);
  std::lock_guard<std::mutex> G(CI.CaptureMu);
  CaptureInfo R;
  if (I.Kind == StreamKind::Legacy && !blockingCaptures(CI).empty())
    return makeError(Errc::StreamCaptureImplicit, "the legacy stream synchronises with a capturing stream");
  if (!I.Cap) return R;
  R.status = I.Cap->Invalidated ? CaptureStatus::Invalidated : CaptureStatus::Active;
  R.id = I.Cap->Id;
  R.graph = &I.Cap->graph();
  R.deps = &I.CapTail;
  return R;
}

llvm::Error updateCaptureDependencies(Stream &S, llvm::ArrayRef<GraphNode *> Nodes, bool Set) {
  Stream::Impl &I = S.impl();
  Context::Impl &CI = ctxOf(S);
  std::lock_guard<std::mutex> G(CI.CaptureMu);
  if (!I.Cap) return makeError(Errc::IllegalState, "the stream is not capturing");
  if (I.Cap->Invalidated) return invalidated();
  for (GraphNode *N : Nodes)
    if (!I.Cap->graph().owns(N))
      return makeError(Errc::InvalidValue, "a capture dependency is not a node of the graph being captured");
  if (Set) I.CapTail.clear();
  for (GraphNode *N : Nodes)
    if (std::find(I.CapTail.begin(), I.CapTail.end(), N) == I.CapTail.end()) I.CapTail.push_back(N);
  return llvm::Error::success();
}

std::optional<llvm::Error> captureNode(Stream &S, GraphNodeKind K, const std::function<void(GraphNode &)> &Fill) {
  Stream::Impl &I = S.impl();
  Context::Impl &CI = ctxOf(S);
  std::lock_guard<std::mutex> G(CI.CaptureMu);
  if (!I.Cap) {
    if (I.Kind != StreamKind::Legacy || CI.Captures.empty()) return std::nullopt;
    auto Bs = blockingCaptures(CI);
    if (Bs.empty()) return std::nullopt;
    for (auto &C : Bs) C->Invalidated = true;
    return makeError(Errc::StreamCaptureImplicit,
                     "work on the legacy stream would synchronise with a capturing blocking stream");
  }
  if (I.Cap->Invalidated) return invalidated();
  auto N = I.Cap->graph().add(K, I.CapTail);
  if (!N) return N.takeError();
  Fill(**N);
  I.CapTail.assign(1, *N);
  return llvm::Error::success();
}

std::optional<llvm::Error> captureGraphLaunch(Stream &S) {
  {
    Stream::Impl &I = S.impl();
    std::lock_guard<std::mutex> G(ctxOf(S).CaptureMu);
    if (I.Cap) {
      if (I.Cap->Invalidated) return invalidated();
      I.Cap->Invalidated = true;
      return makeError(Errc::StreamCaptureUnsupported, "launching an executable graph into a stream capture");
    }
  }
  // Not capturing: the legacy stream's implicit synchronisation rule still applies.
  return captureNode(S, GraphNodeKind::Empty, [](GraphNode &) {});
}

std::optional<llvm::Error> captureRecord(Stream &S, Event &E) {
  Stream::Impl &I = S.impl();
  Context::Impl &CI = ctxOf(S);
  {
    std::lock_guard<std::mutex> G(CI.CaptureMu);
    if (I.Cap) {
      if (I.Cap->Invalidated) return invalidated();
      auto St = std::make_shared<Event::State>();
      St->Cap = I.Cap;
      St->CapNodes = I.CapTail;
      E.setSnapshot(St);
      return llvm::Error::success();
    }
  }
  // Not capturing: the legacy stream's implicit synchronisation rule still applies.
  return captureNode(S, GraphNodeKind::Empty, [](GraphNode &) {});
}

std::optional<llvm::Error> captureWait(Stream &S, Event &E) {
  Stream::Impl &I = S.impl();
  Context::Impl &CI = ctxOf(S);
  std::shared_ptr<Event::State> St = E.snapshot();
  std::lock_guard<std::mutex> G(CI.CaptureMu);
  std::shared_ptr<Capture> EC = St ? St->Cap : nullptr;
  if (EC && EC->Ended)
    return makeError(Errc::StreamCaptureIsolation, "the event was recorded in a capture that has ended");
  if (!EC) {
    if (!I.Cap) return std::nullopt;
    if (I.Cap->Invalidated) return invalidated();
    if (!St) return llvm::Error::success(); // never recorded: complete, no dependency
    I.Cap->Invalidated = true;
    return makeError(Errc::StreamCaptureIsolation, "a capturing stream waits on an event recorded outside the capture");
  }
  if (I.Cap && I.Cap != EC) {
    I.Cap->Invalidated = EC->Invalidated = true;
    return makeError(Errc::StreamCaptureIsolation, "the event belongs to another capture");
  }
  if (EC->Invalidated) return invalidated();
  if (!I.Cap) { // joins the capture
    I.Cap = EC;
    I.CapTail.clear();
    EC->Members.push_back(S.shared());
  }
  for (GraphNode *N : St->CapNodes)
    if (std::find(I.CapTail.begin(), I.CapTail.end(), N) == I.CapTail.end()) I.CapTail.push_back(N);
  return llvm::Error::success();
}

llvm::Error captureSyncCheck(Stream &S) {
  Stream::Impl &I = S.impl();
  Context::Impl &CI = ctxOf(S);
  std::lock_guard<std::mutex> G(CI.CaptureMu);
  if (I.Cap) {
    I.Cap->Invalidated = true;
    return makeError(Errc::StreamCaptureUnsupported, "synchronising with or querying a capturing stream");
  }
  if (I.Kind == StreamKind::Legacy && !CI.Captures.empty()) {
    auto Bs = blockingCaptures(CI);
    if (!Bs.empty()) {
      for (auto &C : Bs) C->Invalidated = true;
      return makeError(Errc::StreamCaptureImplicit, "the legacy stream synchronises with a capturing stream");
    }
  }
  return llvm::Error::success();
}

llvm::Error captureContextSyncCheck(Context &C) {
  Context::Impl &CI = C.impl();
  std::lock_guard<std::mutex> G(CI.CaptureMu);
  if (CI.Captures.empty()) return llvm::Error::success();
  for (auto &Cap : CI.Captures) Cap->Invalidated = true;
  return makeError(Errc::StreamCaptureUnsupported, "synchronising the device while a stream captures");
}

llvm::Error captureUnsafeCheck(Context &C, const char *What) {
  if (ThreadMode == CaptureMode::Relaxed) return llvm::Error::success();
  Context::Impl &CI = C.impl();
  std::lock_guard<std::mutex> G(CI.CaptureMu);
  auto Me = std::this_thread::get_id();
  for (auto &Cap : CI.Captures) {
    bool Mine = Cap->Thread == Me;
    bool Prohibited = (Mine && Cap->Mode != CaptureMode::Relaxed) ||
                      (!Mine && ThreadMode == CaptureMode::Global && Cap->Mode == CaptureMode::Global);
    if (Prohibited) {
      Cap->Invalidated = true;
      return makeError(Errc::StreamCaptureUnsupported,
                       std::string(What) + " is not permitted while a stream captures (capture mode rules)");
    }
  }
  return llvm::Error::success();
}

llvm::Error captureEventCheck(Event &E) {
  std::shared_ptr<Event::State> St = E.snapshot();
  if (!St || !St->Cap) return llvm::Error::success();
  std::lock_guard<std::mutex> G(St->Cap->Ctx->impl().CaptureMu);
  if (St->Cap->Ended)
    return makeError(Errc::InvalidValue, "the event was last recorded in a stream capture that has ended");
  St->Cap->Invalidated = true;
  return makeError(Errc::CapturedEvent, "the event was last recorded in a stream capture");
}

} // namespace runtime

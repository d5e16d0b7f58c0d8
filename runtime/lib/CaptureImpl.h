//===- CaptureImpl.h - stream-capture internals shared by Stream.cpp / Graph.cpp -*- C++ -*-===//
//
// A Capture is one capture sequence: the graph being built, its mode, the
// thread and stream that began it, and the streams taking part (the origin
// and every stream that joined by waiting on an event recorded in it). Each
// member stream's Stream::Impl points at it and holds its tail (the nodes
// the stream's next node depends on). All capture state of a context is
// guarded by Context::Impl::CaptureMu. The hooks below are called by the
// stream and event operations before they queue anything: they return
// nullopt when the operation is not captured (and may run), or the result
// of capturing / refusing it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "StreamImpl.h"
#include "runtime/Graph.h"

#include <functional>
#include <optional>
#include <thread>

namespace runtime {

struct Capture {
  Context *Ctx = nullptr; // whose CaptureMu guards this capture
  std::unique_ptr<Graph> G;
  Graph *Into = nullptr; // cudaStreamBeginCaptureToGraph: the caller's graph, used instead of G
  Graph &graph() { return Into ? *Into : *G; }
  CaptureMode Mode = CaptureMode::Global;
  std::thread::id Thread;
  uint64_t Id = 0;
  const void *Origin = nullptr; // the Stream::Impl that began it
  bool Invalidated = false;
  bool Ended = false;
  std::vector<std::weak_ptr<Stream::Impl>> Members; // the origin first
};

// Captures an operation of kind K on S as a node depending on S's tail
// (Fill sets its parameters); refuses it on an invalidated capture; refuses
// an operation on the legacy stream while a blocking stream captures
// (StreamCaptureImplicit, invalidating that capture).
std::optional<llvm::Error> captureNode(Stream &S, GraphNodeKind K, const std::function<void(GraphNode &)> &Fill);
// cudaGraphLaunch on a capturing stream: refused (StreamCaptureUnsupported,
// invalidating the capture), as CUDA 13 does on the H200.
std::optional<llvm::Error> captureGraphLaunch(Stream &S);
// Event record / wait on a capturing stream, or waiting on an event recorded in a capture.
std::optional<llvm::Error> captureRecord(Stream &S, Event &E);
std::optional<llvm::Error> captureWait(Stream &S, Event &E);
// Synchronising with or querying S (StreamCaptureUnsupported while it captures).
llvm::Error captureSyncCheck(Stream &S);
// cudaDeviceSynchronize / cuCtxSynchronize while any stream of C captures.
llvm::Error captureContextSyncCheck(Context &C);
// A potentially unsafe call (allocation) under the calling thread's capture rules.
llvm::Error captureUnsafeCheck(Context &C, const char *What);
// Queries of an event last recorded in a capture: CapturedEvent (invalidating
// the capture) while it runs, InvalidValue after it ended (the H200's answers).
llvm::Error captureEventCheck(Event &E);

} // namespace runtime

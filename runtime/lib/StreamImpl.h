//===- StreamImpl.h - internals shared by Stream, Event and Context -*- C++ -*-===//
//
// A stream is a queue of Commands run in order by one worker thread (started
// on the first submission). Completed counts finished commands; a command's
// sequence number is its position, so "everything submitted before X is
// done" is `Completed >= seq(X)`. Dependencies (events waited on, the legacy
// stream's implicit synchronisation) are (stream, seq) pairs the worker
// waits for before running the command. Submission to any stream of a
// context happens under the context's SubmitMu, so the dependency graph
// follows submission order and cannot cycle.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Context.h"
#include "runtime/Event.h"
#include "runtime/Stream.h"

#include "llvm/ADT/StringExtras.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <thread>

namespace runtime {

struct Capture;
class GraphNode;

struct Dep {
  std::shared_ptr<Stream::Impl> S;
  uint64_t Seq = 0;
};

struct Event::State {
  std::shared_ptr<Stream::Impl> S;
  uint64_t Seq = 0;
  std::atomic<int64_t> StampNs{-1};
  // Recorded in a stream capture: the capture and the recording stream's tail then.
  std::shared_ptr<Capture> Cap;
  std::vector<GraphNode *> CapNodes;
};

struct Command {
  std::function<llvm::Error(BackendQueue &)> Run; // empty: marker / wait only
  std::function<void()> Host;                     // host function (runs even if Run is empty)
  std::vector<Dep> Waits;
  std::shared_ptr<Event::State> Marker;
};

struct Stream::Impl {
  Context *Ctx = nullptr;
  StreamKind Kind = StreamKind::Blocking;
  int Priority = 0;
  std::mutex Mu;
  std::condition_variable WorkCV, DoneCV;
  std::deque<Command> Q;
  uint64_t Submitted = 0, Completed = 0;
  bool Stop = false, Started = false;
  std::unique_ptr<BackendQueue> BQ;
  // Stream capture (guarded by the context's CaptureMu): the capture this
  // stream takes part in, and the nodes its next captured node depends on.
  std::shared_ptr<Capture> Cap;
  std::vector<GraphNode *> CapTail;

  // Caller holds the context's SubmitMu. Returns the command's sequence number.
  uint64_t submit(Command C, const std::shared_ptr<Impl> &Self);
  void waitCompleted(uint64_t Seq);
  bool idle();
  void worker(std::shared_ptr<Impl> Self);
  void stop();
};

inline int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

} // namespace runtime

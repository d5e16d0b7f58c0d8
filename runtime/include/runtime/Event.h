//===- runtime/Event.h - CUDA events over the core's streams ----*- C++ -*-===//
//
// record() enqueues a marker on a stream; the event completes when every
// command submitted to that stream before it has completed, and the marker
// takes a host timestamp then (steady clock). Re-recording replaces the
// captured point; waiters that captured the earlier one are unaffected. An
// event never recorded counts as complete (CUDA); elapsed() needs both
// events recorded, complete and timing-enabled.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Error.h"

#include <memory>

namespace runtime {

class Stream;

class Event {
public:
  explicit Event(bool Timing = true, bool BlockingSync = false);
  ~Event();
  llvm::Error record(Stream &S);
  llvm::Error query();        // Success, NotReady
  llvm::Error synchronize();
  // Milliseconds from Start to End.
  static llvm::Expected<float> elapsed(Event &Start, Event &End);

  struct State;
  std::shared_ptr<State> snapshot() const; // the currently captured point
  void setSnapshot(std::shared_ptr<State> S); // a record inside a stream capture

private:
  bool Timing;
  std::shared_ptr<State> Cur;
};

} // namespace runtime

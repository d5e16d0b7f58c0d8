//===- runtime/Stream.h - in-order work queues with a worker thread -*- C++ -*-===//
//
// A Stream is CUDA's stream: commands (launches, copies, memsets, host
// functions, event records, waits on events) run in submission order on the
// stream's own worker thread, asynchronously to the submitting thread. The
// context's legacy default stream synchronises with every blocking stream
// (work on it waits for all blocking streams' earlier work and vice versa);
// non-blocking streams (cudaStreamNonBlocking) do not. The per-thread default
// stream is a blocking stream per host thread. query() is NotReady while
// anything is pending. A failing command records its error on the context
// (sticky for kernel faults) and later commands of every stream are skipped
// while a sticky error stands. While the stream captures (runtime/Graph.h),
// the operations become graph nodes instead of running.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Launch.h"
#include "runtime/Memory.h"

#include <functional>
#include <memory>

namespace runtime {

class Context;
class Event;
class Function;
struct CopyNodeParams;

enum class StreamKind { Legacy, PerThread, Blocking, NonBlocking };

class Stream {
public:
  ~Stream();
  StreamKind kind() const;
  int priority() const;
  Context &context() const;

  // Handle: the API's function handle, kept by a captured kernel node.
  llvm::Error launch(Function &F, const LaunchConfig &C, void **Args, const void *Handle = nullptr);
  llvm::Error launch(Function &F, const LaunchConfig &C, llvm::ArrayRef<uint8_t> PackedArgs,
                     const void *Handle = nullptr);
  // Unified addresses: Dst/Src are classified by the context's registry.
  // Copies from pageable host memory complete before the call returns (as
  // CUDA's staged copies); pinned / managed / device copies are asynchronous.
  llvm::Error copy(uint64_t Dst, uint64_t Src, uint64_t Bytes, MemcpyKind Kind = MemcpyKind::Default);
  // A pitched 2D / 3D copy (runtime/Graph.h; arrays resolved by
  // runtime/Texture.h resolveCopy): one graph node while capturing.
  llvm::Error copy3D(const CopyNodeParams &C);
  llvm::Error memset(uint64_t Dst, int Value, uint64_t Bytes);
  // Count elements of ElemSize (1, 2 or 4) bytes set to Pattern (little-endian).
  llvm::Error fill(uint64_t Dst, uint32_t Pattern, unsigned ElemSize, uint64_t Count);
  llvm::Error hostFunc(std::function<void()> Fn);
  llvm::Error hostFunc(void (*Fn)(void *), void *User); // cudaLaunchHostFunc / cuLaunchHostFunc
  llvm::Error waitEvent(Event &E);
  // Waits for all submitted work; returns the context's sticky error.
  llvm::Error synchronize();
  // Waits like synchronize() but without CUDA's device-printf flush (what a
  // synchronous cudaMemcpy does).
  llvm::Error drain();
  // Success when idle, NotReady while work is pending, or the sticky error.
  llvm::Error query();

  struct Impl;
  Stream(Context &C, StreamKind K, int Priority);
  Impl &impl() { return *P; }
  const std::shared_ptr<Impl> &shared() const { return P; }

private:
  std::shared_ptr<Impl> P;
};

} // namespace runtime

//===- ContextImpl.h - Context internals shared with Stream / Module -*- C++ -*-===//
#pragma once

#include "StreamImpl.h"

#include "amdgpulower/Lower.h"
#include "runtime/Texture.h"

#include <map>
#include <thread>

namespace runtime {

// PTX2AMD_WARP_POLICY: `pack` | `pad` and `KERNEL=pack|pad` entries.
struct PolicySpec {
  amdgpulower::WarpPolicy defaultPolicy = amdgpulower::WarpPolicy::Pack;
  std::map<std::string, amdgpulower::WarpPolicy> perKernel;
  static PolicySpec fromEnvironment();
};

struct Context::Impl {
  Context *Self = nullptr;
  std::mutex SubmitMu; // every submission to this context's streams
  std::mutex Mu;       // the members below
  std::unique_ptr<Stream> Legacy;
  std::vector<std::unique_ptr<Stream>> Streams;          // created ones
  std::map<std::thread::id, std::unique_ptr<Stream>> PerThread;
  std::vector<std::unique_ptr<Event>> Events;
  std::vector<std::unique_ptr<Module>> Modules;
  // Unloaded by reset() but kept alive: stale handles (the driver's CUmodule /
  // CUfunction) then fail with InvalidResourceHandle instead of dangling. The
  // backend images stay loaded too, until the context ends.
  std::vector<std::unique_ptr<Module>> Retired;
  std::vector<Module *> ReleaseAtNextReset; // retired by the last reset, memory still held
  std::atomic<uint64_t> Generation{0};
  std::atomic<Errc> Sticky{Errc::Success};
  std::string StickyMsg;
  // The first non-sticky failure of queued work (a backend refusing a launch or copy that the
  // checks let through) since the last synchronize took it; guarded by AsyncMu.
  std::mutex AsyncMu;
  Errc Async = Errc::Success;
  std::string AsyncMsg;
  uint64_t StackBytes = 1024;
  std::mutex PrintfMu;
  std::string PrintfText;
  PolicySpec Policy;
  std::mutex CaptureMu; // stream-capture state of this context's streams and events
  std::vector<std::shared_ptr<Capture>> Captures; // active (not ended)
  uint64_t NextCaptureId = 1;
  mutable std::mutex TexMu; // CUDA arrays and texture / surface objects (Texture.cpp)
  std::map<const Array *, std::unique_ptr<Array>> Arrays;
  std::map<const MipmappedArray *, std::unique_ptr<MipmappedArray>> Mipmaps;
  std::map<uint64_t, TextureObject> TexObjects; // descriptor address -> what created it

  // Caller holds SubmitMu.
  std::vector<std::shared_ptr<Stream::Impl>> blockingStreams();
  std::shared_ptr<Stream::Impl> legacyImpl();
  std::shared_ptr<Stream::Impl> implOf(Stream &S) { return S.shared(); }
  std::vector<Stream *> allStreams();
};

} // namespace runtime

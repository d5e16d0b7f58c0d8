//===- runtime/Context.h - a CUDA context of one device ---------*- C++ -*-===//
//
// A device's primary context (Device::primaryContext, shared by the runtime
// and driver APIs) or a further one (Device::createContext, cuCtxCreate): it
// owns its allocations (recorded in the device's registry: one unified
// address space per device, so pointers are valid in every context of the
// device), the loaded modules, the streams and their worker threads, the
// limits (per-thread stack: 1 KiB by default, as CUDA; device heap; printf
// FIFO), the buffered device-printf text (flushed at CUDA's flush points:
// launch, synchronisation, module load, reset, process exit) and the sticky
// error; device printf text of its launches is routed to it (per launch,
// LaunchParams::printfSink). reset() (cudaDeviceReset) waits for all work,
// frees every allocation it owns (pointers are dead afterwards), unloads
// (retires) modules, destroys the streams and clears the sticky error; the
// backend device stays open. Destroying a context does what reset() does.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Event.h"
#include "runtime/Memory.h"
#include "runtime/Module.h"
#include "runtime/Stream.h"

#include <memory>
#include <set>

namespace runtime {

class Array;
class MipmappedArray;
class Device;
struct ArrayDesc;
struct ResourceDesc;
struct TextureDesc;
struct TextureObject;
struct ResourceView;

class Context {
public:
  explicit Context(Device &D); // see Device::primaryContext / createContext
  ~Context();
  Device &device() const { return *Dev; }
  BackendDevice &backend() const;
  const DeviceProperties &properties() const;

  // ---- memory -------------------------------------------------------------
  llvm::Expected<uint64_t> allocate(uint64_t Bytes, MemoryKind Kind);
  // Device memory for a graph allocation node (runtime/Graph.h): recorded as
  // graph memory, allowed while a stream captures.
  llvm::Expected<uint64_t> allocateGraphMemory(uint64_t Bytes);
  llvm::Error free(uint64_t Base, std::optional<MemoryKind> Expect = std::nullopt);
  const MemoryRegistry &memory() const { return Mem; }
  // Records a module variable so copies and launches may use its address.
  void registerGlobal(const GlobalInfo &G);
  // Synchronous copy / memset on the legacy stream semantics (waits).
  llvm::Error copySync(uint64_t Dst, uint64_t Src, uint64_t Bytes, MemcpyKind Kind = MemcpyKind::Default);
  llvm::Error memsetSync(uint64_t Dst, int Value, uint64_t Bytes);
  // A peer copy (cudaMemcpyPeer*, cuMemcpyPeer*): Bytes from Src, memory of
  // SrcCtx's device, to Dst, memory of DstCtx's device; both must be live
  // allocations (pageable host memory is InvalidValue). Contexts of one device
  // share its address space, so the copy is a device-to-device copy; between
  // two devices it is NotSupported by name (the platform has one device per
  // backend). S null: the synchronous form, serialised with all work of both
  // contexts (their streams drain first, the copy runs on DstCtx's legacy
  // stream and completes before returning); else queued on S like
  // Stream::copy (S's context must be on the same device).
  static llvm::Error copyPeer(Context &DstCtx, uint64_t Dst, Context &SrcCtx, uint64_t Src, uint64_t Bytes,
                              Stream *S = nullptr);
  std::pair<uint64_t, uint64_t> memInfo() const;

  // ---- CUDA arrays, texture and surface objects (runtime/Texture.h) ---------
  llvm::Expected<Array *> createArray(const ArrayDesc &D);
  llvm::Error destroyArray(const void *Handle);
  const Array *array(const void *Handle) const; // a live array of this context, or null
  // NumLevels 0 or more than the full chain: the full chain (as CUDA clamps).
  llvm::Expected<MipmappedArray *> createMipmappedArray(const ArrayDesc &D, unsigned NumLevels);
  llvm::Error destroyMipmappedArray(const void *Handle);
  const MipmappedArray *mipmappedArray(const void *Handle) const; // a live one of this context, or null
  // Tex null: a surface object. The handle is the descriptor's device address.
  llvm::Expected<uint64_t> createTextureObject(const ResourceDesc &R, const TextureDesc *Tex,
                                               const ResourceView *View = nullptr);
  llvm::Error destroyTextureObject(uint64_t Handle, bool Surface);
  llvm::Expected<TextureObject> textureObject(uint64_t Handle, bool Surface) const;

  // ---- modules ------------------------------------------------------------
  llvm::Expected<Module *> loadModule(const ModuleSource &Src);
  llvm::Error unloadModule(Module *M);

  // ---- streams and events -----------------------------------------------------
  Stream &legacyStream();
  Stream &perThreadStream();
  llvm::Expected<Stream *> createStream(bool NonBlocking, int Priority = 0);
  llvm::Error destroyStream(Stream *S);
  bool isLive(const Stream *S) const;
  llvm::Expected<Event *> createEvent(bool Timing = true, bool BlockingSync = false);
  llvm::Error destroyEvent(Event *E);
  bool isLive(const Event *E) const;
  // All streams idle; returns the sticky error if any, else a non-sticky failure
  // of queued work since the last synchronize (StreamCaptureUnsupported while a
  // stream captures).
  llvm::Error synchronize();

  // ---- errors, limits, printf ---------------------------------------------------
  // The sticky error (a kernel fault), as an Error; success when none.
  llvm::Error stickyError() const;
  Errc stickyCode() const;
  // Called by stream workers: a sticky code poisons the context; any other failure is kept
  // (the first one) until a synchronize returns it once, so no failed command passes for done.
  void recordFailure(Errc C, const std::string &Msg);
  // The kept non-sticky failure, cleared (success when none).
  llvm::Error takeAsyncError();
  // "pad" or "pack" on wave64 targets (PTX2AMD_WARP_POLICY's default
  // entry), "native" on wave32 ones: what device-wide limits are reported for.
  std::string defaultWarpPolicy() const;
  llvm::Error setLimit(Limit L, uint64_t Value);
  uint64_t limit(Limit L) const;
  void appendPrintf(llvm::StringRef Text);   // from backends (any thread)
  void flushPrintf();                        // to stdout, on the calling thread
  llvm::Error reset();
  // Incremented by every reset(): a module loaded under an older generation
  // is retired (Module::retired()), and its owner reloads it.
  uint64_t generation() const;
  // Unique among the process's contexts, never reused (1, 2, ...): what
  // cuCtxGetId reports, and the key under which the runtime API keeps its
  // per-context state (a destroyed context's address may be reused).
  uint64_t id() const { return Id; }

  struct Impl;
  Impl &impl() { return *P; }

private:
  llvm::Error waitIdle(); // synchronize() without the stream-capture check
  llvm::Expected<uint64_t> allocateUnchecked(uint64_t Bytes, MemoryKind Kind, bool Graph);
  Device *Dev;
  uint64_t Id;
  MemoryRegistry &Mem; // the device's
  std::unique_ptr<Impl> P;
};

} // namespace runtime

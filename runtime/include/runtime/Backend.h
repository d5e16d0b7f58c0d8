//===- runtime/Backend.h - the device-backend interface of the core -*- C++ -*-===//
//
// A backend is one way of executing translated PTX: `emu` (amdgpu-emu running
// the lowered LLVM module on the CPU), `hip` (the ROCm HIP runtime, dlopen'ed,
// running the code object on an AMD GPU) and `isa` (the machine-code
// emulator running the code object). The core (Context, Stream, Module, ...)
// owns every CUDA-level concept -- allocation registry, in-order stream
// queues with worker threads, events, the legacy default stream's implicit
// synchronisation, sticky errors, kernarg layout, co-residency checks -- and
// asks a backend only for these primitives:
//
//   Backend        enumerates devices (deviceCount / openDevice);
//   BackendDevice  memory (device, host-mapped), module loading, queues,
//                  properties, limits, the device-printf sink;
//   BackendModule  a loaded module: kernels' properties, globals' addresses;
//   BackendQueue   one per core stream. The core calls it from that stream's
//                  worker thread only, one command at a time, in order; a
//                  call may return before the work is done (HIP) as long as
//                  finish() waits for it. The core calls finish() after every
//                  command before it marks the command complete.
//
// Contract notes for implementers:
//  * Addresses are uint64_t device addresses in one unified space: device
//    allocations and host-mapped (pinned / managed) allocations never overlap
//    and host-mapped memory is reachable from the host at the same address.
//  * Copies get an explicit direction; host-mapped memory counts as Host.
//  * launch() receives the kernarg segment the core's KernargBuilder built
//    (explicit arguments at the kernel's .param layout, the launcher-filled
//    pad block-dim argument, then the code-object-v5 hidden block). A backend
//    that fills its own hidden block (HIP, amdgpu-emu, isa-emu: by the code
//    object's .value_kind, with its own apertures and queue/dispatch
//    pointers) uses only the explicit part; one that does not would use all
//    of it and patch the backend-specific fields.
//  * Errors are runtime::RuntimeError (Error.h); a kernel fault must be
//    LaunchFailure / IllegalAddress / Assert so the core makes it sticky.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Error.h"
#include "support/Contract.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace runtime {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

// What a device reports (CUDA-style; the shim maps it to cudaDeviceProp).
struct DeviceProperties {
  std::string name;           // human-readable
  std::string arch;           // translation target, "gfx1100", "gfx90a"
  unsigned waveSize = 32;     // of the target
  uint64_t totalGlobalMem = 0;
  unsigned multiProcessorCount = 8;       // CUs
  unsigned maxThreadsPerBlock = 1024;     // under the default warp policy
  unsigned maxThreadsPerMultiProcessor = 2048;
  unsigned maxBlocksPerMultiProcessor = 32;
  uint32_t sharedMemPerBlock = 65536;     // LDS per work-group
  uint32_t sharedMemPerMultiprocessor = 65536;
  unsigned clockRateKHz = 2000000;
  unsigned memoryClockRateKHz = 1000000;
  unsigned memoryBusWidth = 4096;
  unsigned l2CacheBytes = 4u << 20;
  bool cooperativeLaunch = true;
  bool managedMemory = true;
  unsigned pciBusId = 0, pciDeviceId = 0, pciDomainId = 0;
};

// Explicit kernel arguments as the code object lays them out (the PTX
// .param list; byval aggregates inline).
struct KernelArgLayout {
  std::vector<uint32_t> sizes, offsets; // one entry per argument the caller supplies
  uint32_t explicitBytes = 0;           // including the pad block-dim argument
  int32_t blockDimOffset = -1;          // pad policy: launcher-filled <4 x i32> block dims
  uint32_t blockDimBytes = 0;
};

struct KernelProperties {
  std::string name;
  unsigned waveSize = 32;
  std::string warpPolicy;               // "native" | "pack" | "pad" | ""
  KernelArgLayout args;
  uint32_t staticLdsBytes = 0;          // this kernel's own LDS
  uint32_t privateSegmentBytes = 0;     // fixed per-thread scratch
  bool dynamicStack = false;            // recursion / indirect calls: needs the stack limit
  uint32_t maxStackBytes = 0;           // > 0: the largest stack limit the device can give it (a
  std::string stackLimitReason;         //   backend that cannot size stacks), and why
  uint32_t maxThreadsPerBlock = 1024;   // the policy's limit (pad on wave64: 512)
  uint32_t numRegs = 0;                 // reported as cudaFuncAttributes::numRegs
};

struct GlobalInfo {
  uint64_t address = 0;
  uint64_t size = 0;
};

// One translation's products (the ptxjit pipeline driver makes them). A
// backend states which it needs (BackendDevice::imageNeeds()).
struct ModuleImage {
  std::string arch;
  std::unique_ptr<llvm::LLVMContext> context; // owns `lowered`
  std::unique_ptr<llvm::Module> lowered;      // for emu
  std::vector<uint8_t> codeObject;            // ET_DYN HSACO, for hip / isa
  // What `lowered` needs alive when `context` is shared with other images
  // (per-kernel images of one module): the backend keeps it while loaded.
  std::shared_ptr<void> keepAlive;
  ModuleImage();
  ModuleImage(ModuleImage &&) noexcept;
  ModuleImage &operator=(ModuleImage &&) noexcept;
  ~ModuleImage();
};
struct ImageNeeds {
  bool loweredModule = false;
  bool codeObject = false;
  unsigned codeObjectVersion = 0; // 0: the pipeline's default (5)
};

// The kernarg segment (Launch.h builds it).
struct Kernarg {
  std::vector<uint8_t> bytes;  // explicit part, padded to 8, then the hidden block
  uint32_t explicitBytes = 0;
  uint32_t hiddenOffset = 0;   // start of the code-object-v5 hidden block
  const void *arg(size_t i, const KernelArgLayout &L) const { return bytes.data() + L.offsets[i]; }
};

struct LaunchParams {
  Dim3 grid, block;
  uint32_t dynamicLdsBytes = 0;
  bool cooperative = false;
  uint64_t stackBytesPerThread = 1024;  // for kernels with a dynamic stack
  // This launch's device-printf text (the launching context's buffer); when
  // empty, the device's sink (setPrintfSink) receives it.
  std::function<void(llvm::StringRef)> printfSink;
};

enum class CopyDir { HostToDevice, DeviceToHost, DeviceToDevice, HostToHost };
enum class HostMemKind { Pinned, Managed };
enum class Limit { StackSize, MallocHeapSize, PrintfFifoSize };

class BackendModule {
public:
  virtual ~BackendModule();
  virtual std::vector<std::string> kernelNames() const = 0;
  virtual llvm::Expected<KernelProperties> kernel(llvm::StringRef Name) = 0;
  virtual llvm::Expected<GlobalInfo> global(llvm::StringRef Name) = 0;
  // The module was unloaded (a device reset) and none of its work is pending: give back the
  // device memory it holds (globals, printf FIFO, heap). Its handles stay valid objects that the
  // core refuses to use. Default: nothing (a backend that cannot, or frees on destruction).
  virtual void releaseMemory() {}
};

class BackendQueue {
public:
  virtual ~BackendQueue();
  virtual llvm::Error launch(BackendModule &M, const KernelProperties &K, const LaunchParams &P,
                             const Kernarg &Args) = 0;
  virtual llvm::Error copy(uint64_t Dst, uint64_t Src, uint64_t Bytes, CopyDir Dir) = 0;
  virtual llvm::Error memset(uint64_t Dst, int Value, uint64_t Bytes) = 0;
  // Waits for everything submitted so far; returns the first failure.
  virtual llvm::Error finish() = 0;
};

class BackendDevice {
public:
  virtual ~BackendDevice();
  virtual const DeviceProperties &properties() const = 0;
  virtual ImageNeeds imageNeeds() const = 0;
  virtual llvm::Expected<std::unique_ptr<BackendModule>> loadModule(ModuleImage Image) = 0;
  virtual llvm::Expected<uint64_t> allocDevice(uint64_t Bytes) = 0;
  virtual llvm::Error freeDevice(uint64_t Addr) = 0;
  // Host-visible memory kernels can access at the same address.
  virtual llvm::Expected<uint64_t> allocHost(uint64_t Bytes, HostMemKind Kind) = 0;
  virtual llvm::Error freeHost(uint64_t Addr) = 0;
  virtual llvm::Expected<std::unique_ptr<BackendQueue>> createQueue() = 0;
  virtual llvm::Error setLimit(Limit L, uint64_t Value) = 0;
  virtual uint64_t limit(Limit L) const = 0;
  // Where device printf text goes (the core buffers it until CUDA's flush points).
  virtual void setPrintfSink(std::function<void(llvm::StringRef)> Sink) = 0;
  // Free / total device memory in bytes.
  virtual std::pair<uint64_t, uint64_t> memInfo() const = 0;
  // A host address whose bytes are kept coherent with [DeviceAddr, +Bytes)
  // across launches (CUDA __managed__ module variables). The default refuses.
  virtual llvm::Expected<uint64_t> hostAlias(uint64_t DeviceAddr, uint64_t Bytes) {
    return makeError(Errc::NotSupported, "this device cannot alias module variables in host memory");
  }
  // A device reset unloaded every module: the aliases' variables are gone, so
  // they are no longer kept coherent. Their host bytes stay readable: nvcc's
  // host code keeps the address until the module is loaded again, and CUDA
  // keeps a __managed__ variable's value across a reset (the shim copies
  // those bytes into the reloaded variable).
  virtual void retireHostAliases() {}
};

class Backend {
public:
  virtual ~Backend();
  virtual llvm::StringRef name() const = 0; // "emu", "hip"
  virtual unsigned deviceCount() const = 0;
  virtual llvm::Expected<std::unique_ptr<BackendDevice>> openDevice(unsigned Ordinal) = 0;
};

// ---- the backends this library builds -------------------------------------
struct EmuBackendOptions {
  std::string arch{support::kDefaultTarget}; // translation target the emulator pretends to be
  unsigned threads = 0;          // emulator host threads (0 = all)
  uint64_t maxWaveInstructions = 0; // watchdog: a launch running more fails with LaunchTimeout (0 = off)
};
llvm::Expected<std::unique_ptr<Backend>> createEmuBackend(const EmuBackendOptions &O);

struct HipBackendOptions {
  std::string library;           // default: $PTX2AMD_HIP_LIBRARY, else libamdhip64.so(.5/.6)
  std::string arch;              // empty: the agent's; set: must match it
};
// Fails with BackendUnavailable when the library cannot be loaded or lacks a
// required entry point, NoDevice when HIP sees no AMD GPU.
llvm::Expected<std::unique_ptr<Backend>> createHipBackend(const HipBackendOptions &O);

struct IsaBackendOptions {
  std::string arch{support::kDefaultTarget}; // gfx1100 (wave32), gfx90a / gfx942 (wave64)
  unsigned threads = 0;          // isa-emu host threads (0 = all)
  uint64_t maxWaveInstructions = 0; // watchdog: a launch running more fails with LaunchTimeout (0 = off)
};
// isa-emu running the code object (runtime/backends/Isa.cpp).
llvm::Expected<std::unique_ptr<Backend>> createIsaBackend(const IsaBackendOptions &O);

} // namespace runtime

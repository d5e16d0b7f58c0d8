//===- emu/Emu.h - amdgpu-emu host API -------------------------*- C++ -*-===//
//
// Public host API of amdgpu-emu, the CPU emulator that plays the part of an
// AMD GPU for ptx2amd. A Device owns a device address space (global memory
// arena), loaded modules (LLVM IR for triple amdgcn-amd-amdhsa, as the AMDGPU
// backend receives it), and per-kernel counters. Launches marshal `void**`
// arguments by the kernel's LLVM signature into a kernarg segment followed by
// the code-object-v5 hidden-argument block laid out as HIP fills it, and run
// the grid as waves of 32 or 64 lanes on host threads. Every failure (bad
// module, unknown intrinsic, memory fault, trap, assert) is an llvm::Error.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
class LLVMContext;
} // namespace llvm

namespace emu {

/// Apertures of the flat address space (as on AMD: the high dword of a flat
/// address selects LDS or private; everything else is global memory).
inline constexpr uint64_t SharedApertureBase = 0x0001000000000000ull;
inline constexpr uint64_t PrivateApertureBase = 0x0002000000000000ull;
/// Device addresses of global allocations start here.
/// A sanitizer build (PTX2AMD_SANITIZE) moves it above ASan's shadow (x86-64: the shadow gap is
/// [0x8fff7000, 0x2008fff7000), so host-mapped memory, which the runtime maps at the device
/// address itself, could not be mapped at 0x1'0000'0000); 0x2000'0000'0000 is ordinary
/// high memory, below ASan's allocator space (0x6000'0000'0000).
#if defined(PTX2AMD_SANITIZE)
inline constexpr uint64_t GlobalBase = 0x0000200000000000ull;
#else
inline constexpr uint64_t GlobalBase = 0x0000000100000000ull;
#endif
/// Fake addresses of functions (for function pointers / indirect calls).
inline constexpr uint64_t CodeBase = 0x0000C0DE00000000ull;

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

struct DeviceOptions {
  /// Host threads that run workgroups concurrently (0 = hardware threads).
  unsigned threads = 0;
  /// Global memory arena size reserved (virtual) for the device.
  uint64_t arenaBytes = 8ull << 30;
  /// Workgroups kept resident (suspended or running) per host thread in a
  /// normal launch; cooperative launches keep the whole grid resident.
  unsigned residentPerThread = 64;
  /// Memory budget per host thread for resident workgroup state (wave
  /// register files, LDS); limits residentPerThread for large kernels
  /// (never below one workgroup per thread).
  uint64_t residentBytesPerThread = 512ull << 20;
  /// Wave instructions a wave runs before the scheduler moves on.
  unsigned sliceInstructions = 4096;
  /// Sink for device printf output (default: stdout).
  std::function<void(llvm::StringRef)> printfSink;
  /// Capacity of the device printf buffer (`__ptx2amd_printf_buffer`).
  uint64_t printfBufferBytes = 1u << 20;
  /// Size of the device malloc heap (`__ptx2amd_heap`), per module.
  uint64_t heapBytes = 64u << 20;
  /// Abort a launch after this many wave instructions (0 = unlimited);
  /// a guard against kernels that hang.
  uint64_t maxWaveInstructions = 0;
};

struct LaunchConfig {
  Dim3 grid;                 ///< CUDA grid (number of blocks)
  Dim3 block;                ///< CUDA block (threads per block)
  uint32_t dynamicLdsBytes = 0;
  /// The kernel's own static LDS when the caller knows it (the runtime: ptxjit's per-kernel
  /// count). The emulator lays out every kernel's LDS variables module-wide, so its own total
  /// over-counts a module of several kernels; the 64 KiB limit is checked against this one
  /// (UINT32_MAX: the module-wide layout's size).
  uint32_t kernelStaticLdsBytes = UINT32_MAX;
  bool cooperative = false;  ///< keep every workgroup resident (grid sync)
  /// Where this launch's device printf text goes (null: DeviceOptions::printfSink);
  /// lets a runtime route each launch's output to the context that launched it.
  const std::function<void(llvm::StringRef)> *printfSink = nullptr;
};

struct KernelCounters {
  uint64_t launches = 0;
  uint64_t laneInstructions = 0;  ///< sum over wave instructions of active lanes
  uint64_t waveInstructions = 0;
};

/// Description of a kernel as the launcher sees it.
struct KernelInfo {
  std::string name;
  unsigned waveSize = 64;
  std::string warpPolicy; ///< "native", "pack", "pad" or "" if unmarked
  /// Sizes and offsets of the explicit arguments the caller supplies.
  std::vector<uint32_t> argSizes, argOffsets;
  uint32_t explicitKernargBytes = 0; ///< including a pad block-dim argument
  uint32_t staticLdsBytes = 0;
  /// Register slots of the kernel's frame (each holds one 64-bit value per
  /// lane); a wave's register file is registerSlots * waveSize * 8 bytes.
  uint32_t registerSlots = 0;
  uint32_t ssaValues = 0; ///< slots before live-range sharing
};

class Device;
namespace detail {
struct ModuleImage;
}

/// A module loaded on a device. Owned by the Device.
class Module {
public:
  llvm::Expected<KernelInfo> kernel(llvm::StringRef name) const;
  std::vector<std::string> kernelNames() const;
  /// Device address of a global variable (addrspace 1/4/0 globals).
  llvm::Expected<uint64_t> globalAddress(llvm::StringRef name) const;

private:
  friend class Device;
  explicit Module(detail::ModuleImage *I) : Img(I) {}
  detail::ModuleImage *Img;
};

class Device {
public:
  static llvm::Expected<std::unique_ptr<Device>> create(DeviceOptions Opts = {});
  ~Device();
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  /// Load an LLVM module. The module's LLVMContext must outlive the Device
  /// unless it is handed over with \p Ctx.
  llvm::Expected<Module *> loadModule(std::unique_ptr<llvm::Module> M,
                                      std::unique_ptr<llvm::LLVMContext> Ctx = nullptr);
  /// Load bitcode or textual IR.
  llvm::Expected<Module *> loadModule(llvm::MemoryBufferRef Buffer);
  /// Gives back the device memory of a module that will not run again (its globals, printf FIFO
  /// and heap); its code stays loaded (the emulator cannot unload code), but launches and global
  /// lookups of it fail from now on. The caller ensures none of its launches is in flight.
  void releaseModuleMemory(Module &M);

  llvm::Expected<uint64_t> malloc(uint64_t Bytes);
  llvm::Error free(uint64_t Addr);
  llvm::Error copyToDevice(uint64_t Dst, const void *Src, uint64_t Bytes);
  llvm::Error copyFromDevice(void *Dst, uint64_t Src, uint64_t Bytes);
  llvm::Error memset(uint64_t Dst, int Value, uint64_t Bytes);

  /// Launch kernel \p Name. \p Args has one pointer per explicit kernel
  /// parameter (for a "pad" kernel: without the trailing block-dim
  /// parameter, which the launcher fills). Runs the launch to completion.
  /// Thread-safe: launches from several host threads run at the same time
  /// (a kernel may wait for one in another stream); a cooperative launch
  /// waits for the other cooperative launches of its module, and a module's printf
  /// output is emitted when its last running launch ends.
  /// Failures are typed (support/Error.h): a fault is a DeviceFaultError
  /// (FaultKind: MemoryFault, Misaligned, Trap, Assert, Timeout,
  /// IllegalInstruction), an unmodelled case an UnsupportedError("emu", ...),
  /// a limit a ResourceLimitError (BlockThreads, SharedMemory, PrivateMemory,
  /// CooperativeGrid, DeviceMemory).
  llvm::Error launch(Module &M, llvm::StringRef Name, const LaunchConfig &Cfg,
                     void **Args);
  /// Waits for outstanding work (launches are synchronous; kept for the
  /// runtime shim) and returns the first deferred error.
  llvm::Error synchronize();

  KernelCounters counters(llvm::StringRef Kernel) const;
  KernelCounters totalCounters() const;
  void resetCounters();

  struct Impl;

private:
  explicit Device(std::unique_ptr<Impl> I);
  std::unique_ptr<Impl> P;
};

/// Formats one record of the device-printf buffer (CUDA vprintf argument
/// block with natural alignment; ReadStr resolves %s pointers). Shared with
/// other backends that drain the same buffer layout (runtime's isa backend).
std::string formatPrintfRecord(const std::string &Fmt, const uint8_t *Args, size_t N,
                               const std::function<bool(uint64_t, std::string &)> &ReadStr);

} // namespace emu

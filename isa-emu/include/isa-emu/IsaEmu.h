//===- isa-emu/IsaEmu.h - machine-code emulator host API -------*- C++ -*-===//
//
// Public host API of isa-emu, the CPU emulator of the AMDGPU *machine code*
// ptx2amd ships (gfx1100 wave32, gfx90a / gfx942 wave64). Unlike emu/ (which
// runs the LLVM IR before instruction selection), isa-emu loads the code
// object ELF itself: .text, the 64-byte kernel descriptors, dynamic
// relocations and the msgpack metadata note; every instruction is decoded
// once at load by LLVM's AMDGPU MC disassembler into a compact internal form
// (one handler per opcode, isa-emu/lib/Opcodes.def). A launch builds a real
// AQL dispatch packet and a kernarg segment (explicit arguments + the hidden
// block filled by value kind, as the HIP runtime does) in emulated device
// memory and starts each wave in the state AMDGPUUsage "Initial Kernel
// Execution State" specifies for the descriptor's bits. Every failure
// (unknown opcode at load, memory fault, trap) is an llvm::Error.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace isaemu {

/// Apertures of the flat address space as this emulator reports them through
/// src_shared_base / src_private_base (hi dword of a flat address).
inline constexpr uint64_t SharedApertureBase = 0x0001000000000000ull;
inline constexpr uint64_t PrivateApertureBase = 0x0002000000000000ull;
/// Device addresses of global memory start here.
/// A sanitizer build (PTX2AMD_SANITIZE) moves it above ASan's shadow (x86-64: the shadow gap is
/// [0x8fff7000, 0x2008fff7000), so host-mapped memory, which the runtime maps at the device
/// address itself, could not be mapped at 0x1'0000'0000); 0x2000'0000'0000 is ordinary
/// high memory, below ASan's allocator space (0x6000'0000'0000).
#if defined(PTX2AMD_SANITIZE)
inline constexpr uint64_t GlobalBase = 0x0000200000000000ull;
#else
inline constexpr uint64_t GlobalBase = 0x0000000100000000ull;
#endif

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

/// The 64-byte amd_kernel_code_t successor (AMDGPUUsage "Kernel Descriptor").
struct KernelDescriptor {
  uint32_t groupSegmentFixedSize = 0;
  uint32_t privateSegmentFixedSize = 0;
  uint32_t kernargSize = 0;
  int64_t kernelCodeEntryByteOffset = 0;
  uint32_t computePgmRsrc3 = 0, computePgmRsrc1 = 0, computePgmRsrc2 = 0;
  uint16_t kernelCodeProperties = 0;
  uint16_t kernargPreload = 0;
};

struct KernelArg {
  std::string name, valueKind; ///< "by_value", "global_buffer", "hidden_block_count_x", ...
  uint32_t offset = 0, size = 0;
};

struct KernelInfo {
  std::string name;
  std::string target;          ///< "gfx1100", "gfx90a", ...
  unsigned waveSize = 64;
  KernelDescriptor kd;
  uint64_t kdAddress = 0, entryAddress = 0; ///< device addresses
  std::vector<KernelArg> explicitArgs, hiddenArgs;
  uint32_t kernargSegmentSize = 0, kernargSegmentAlign = 8;
  uint32_t groupSegmentFixedSize = 0, privateSegmentFixedSize = 0;
  bool usesDynamicStack = false;
  uint32_t sgprCount = 0, vgprCount = 0, agprCount = 0;
  unsigned instructions = 0; ///< decoded instructions of the kernel's code
};

struct DeviceOptions {
  unsigned threads = 0;              ///< host threads running workgroups (0 = hardware)
  uint64_t arenaBytes = 4ull << 30;  ///< virtual reservation of device memory
  uint64_t maxWaveInstructions = 0;  ///< abort a launch after this many (0 = unlimited)
  unsigned sliceInstructions = 2048; ///< wave instructions before a workgroup switches waves
  /// Process-memory mode (a virtual GPU under a real runtime, vgpu/): device
  /// addresses are host addresses. When set, no arena is reserved; malloc()
  /// returns host allocations the Device owns, and every other address is
  /// resolved by this callback (host pointer of [Addr, Addr+Bytes), or
  /// nullptr: a GPU page fault).
  std::function<uint8_t *(uint64_t Addr, uint64_t Bytes)> processMemory;
};

/// One AQL kernel dispatch as a packet processor sees it (process-memory
/// mode): the packet, its queue and kernarg segment are already in memory,
/// filled by the runtime (hidden arguments included).
struct PacketDispatch {
  uint64_t packetAddress = 0; ///< hsa_kernel_dispatch_packet_t
  uint64_t queueAddress = 0;  ///< hsa_queue_t the packet came from
  uint64_t kernelObject = 0;  ///< kernel descriptor address
  uint64_t kernargAddress = 0;
  Dim3 gridWorkItems;         ///< grid_size_x/y/z
  Dim3 block;                 ///< workgroup_size_x/y/z
  uint32_t groupSegmentBytes = 0, privateSegmentBytes = 0; ///< per workgroup / per work-item
};

struct LaunchConfig {
  Dim3 grid;  ///< workgroups per dimension
  Dim3 block; ///< work-items per workgroup (hardware geometry)
  /// Work-items of the grid per dimension, as an AQL packet's grid_size_x/y/z: {0,0,0} means
  /// grid * block. Otherwise (grid-1)*block < gridWorkItems <= grid*block in each dimension,
  /// and the last workgroup of a dimension that is not a multiple holds the remainder
  /// (a partial workgroup: fewer waves, EXEC of its last wave, its own work-item layout).
  Dim3 gridWorkItems{0, 0, 0};
  uint32_t dynamicLdsBytes = 0;
  uint32_t dynamicPrivateBytes = 16384; ///< per lane, added when the kernel uses a dynamic stack
  /// Every workgroup resident at once, interleaved (a grid-wide barrier completes);
  /// otherwise workgroups run in dispatch order.
  bool cooperative = false;
};

struct Counters {
  uint64_t laneInstructions = 0; ///< sum over executed wave instructions of active lanes (VALU)
  uint64_t waveInstructions = 0;
};

class Device;
namespace detail {
struct ProgramImage;
}

/// A loaded code object. Owned by its Device.
class Program {
public:
  std::vector<std::string> kernelNames() const;
  llvm::Expected<const KernelInfo *> kernel(llvm::StringRef name) const;
  /// Device address of a symbol (STT_OBJECT / STT_FUNC) of the code object.
  llvm::Expected<uint64_t> symbolAddress(llvm::StringRef name) const;
  /// Disassembly of the kernel's code as decoded at load (one line each).
  std::string disassembly(llvm::StringRef kernel) const;

private:
  friend class Device;
  explicit Program(detail::ProgramImage *I) : Img(I) {}
  detail::ProgramImage *Img;
};

class Device {
public:
  static llvm::Expected<std::unique_ptr<Device>> create(DeviceOptions Opts = {});
  ~Device();
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  /// Load an AMDGPU code object (ET_DYN ELF, code object v4/v5/v6).
  llvm::Expected<Program *> loadCodeObject(llvm::ArrayRef<char> Elf);
  /// Same, but opcodes without a handler are collected in \p Missing (their
  /// instructions fault if executed) instead of failing the load; for tools.
  llvm::Expected<Program *> loadCodeObject(llvm::ArrayRef<char> Elf, std::set<std::string> *Missing);

  /// Unloads a program of loadCodeObject() or the adopt calls: its decoded
  /// image is dropped and \p Prog dangles; the memory loadCodeObject() placed
  /// the code object in goes back to the allocator (adopted code stays where
  /// the caller's loader put it). No launch of \p Prog may be running. An
  /// error if \p Prog is not a live program of this device.
  llvm::Error unloadProgram(Program *Prog);

  /// Process-memory mode: adopt the code object a runtime's loader already
  /// placed at \p LoadBase (PT_LOAD segments copied with the ELF header at
  /// the base, relocations applied), as ROCr's loader does. Functions come
  /// from the dynamic symbol table; the executable segment is decoded whole
  /// (local functions included). Kernels are the `<name>.kd` symbols.
  llvm::Expected<Program *> adoptResidentCodeObject(uint64_t LoadBase, llvm::StringRef Target);
  /// Process-memory mode: code with no ELF image around it (an
  /// amd_kernel_code_t / kernel descriptor followed by machine code, as ROCr
  /// 5.2 builds its blit kernels), decoded from the entry up to \p CodeEnd.
  llvm::Expected<Program *> adoptRawKernel(uint64_t KernelObject, uint64_t CodeEnd, llvm::StringRef Target);
  /// Process-memory mode: runs \p D (kernel object of \p P) to completion.
  llvm::Error launchPacket(Program &P, const PacketDispatch &D);
  /// The adopted program whose image contains \p Address, or nullptr.
  Program *programContaining(uint64_t Address) const;

  llvm::Expected<uint64_t> malloc(uint64_t Bytes);
  /// Returns an allocation of malloc() for reuse (its bytes read as zeroes
  /// when handed out again); an error if \p Addr does not start one.
  llvm::Error free(uint64_t Addr);
  llvm::Error copyToDevice(uint64_t Dst, const void *Src, uint64_t Bytes);
  llvm::Error copyFromDevice(void *Dst, uint64_t Src, uint64_t Bytes);
  llvm::Error memset(uint64_t Dst, int Value, uint64_t Bytes);

  /// Launch \p Kernel; \p Args has one pointer per explicit argument of the
  /// metadata (its .size bytes are copied to its .offset). Synchronous;
  /// launches from several host threads (streams) run at the same time.
  /// Failures are typed (support/Error.h): a fault is a DeviceFaultError
  /// (FaultKind: MemoryFault, Misaligned, Trap, IllegalInstruction), an
  /// unmodelled case an UnsupportedError("isa-emu", construct), a limit a
  /// ResourceLimitError (BlockThreads, SharedMemory, DeviceMemory).
  llvm::Error launch(Program &P, llvm::StringRef Kernel, const LaunchConfig &Cfg, void **Args);

  Counters counters() const;
  void resetCounters();

  struct Impl;

private:
  explicit Device(std::unique_ptr<Impl> I);
  std::unique_ptr<Impl> P;
};

} // namespace isaemu

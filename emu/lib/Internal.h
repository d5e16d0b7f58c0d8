//===- Internal.h - amdgpu-emu internal program and state form -*- C++ -*-===//
//
// The compact internal form the emulator executes, and the state of waves,
// workgroups and launches. Each llvm::Function is translated once (at module
// load) into a flat array of pre-decoded instructions (`Inst`) whose operands
// are register slots: an SSA value of a scalar type occupies one slot, a
// vector or aggregate one slot per leaf element. A slot holds one 64-bit
// value per lane (stride = wave size), so every op runs for a whole wave,
// looping over the active lanes of the EXEC mask. Constants live in a
// per-function pool broadcast to 64 lanes (negative operand indices).
// Control flow uses a per-frame SIMT stack (pc, reconvergence pc, mask) with
// reconvergence at immediate post-dominators; calls push explicit frames,
// so a wave can be suspended at any instruction and resumed later.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "emu/Emu.h"
#include "support/Error.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <atomic>
#include <cstring>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

namespace emu::detail {

/// Value kinds a slot can hold.
enum class VK : uint8_t { I1, I8, I16, I32, I64, F16, BF16, F32, F64 };

inline unsigned vkBytes(VK K) {
  switch (K) {
  case VK::I1: case VK::I8: return 1;
  case VK::I16: case VK::F16: case VK::BF16: return 2;
  case VK::I32: case VK::F32: return 4;
  case VK::I64: case VK::F64: return 8;
  }
  return 8;
}
inline unsigned vkBits(VK K) { return K == VK::I1 ? 1 : vkBytes(K) * 8; }

/// Address-space classes of memory operations.
enum class AS : uint8_t { Global, LDS, Private, Flat };

struct Ctx;
struct Inst;
/// What an op asks the wave loop to do next.
enum class St : uint8_t {
  Next,  ///< continue with pc+1
  Jump,  ///< the op changed control flow (pc/stack/frame already updated)
  Yield, ///< suspend the wave after this op (pc already advanced)
  Stop   ///< fault / error / wave finished: c.fault or wave state says which
};
using Handler = St (*)(Ctx &, const Inst &);

struct Inst {
  Handler fn = nullptr;
  int32_t dst = 0;
  int32_t a = 0, b = 0, c = 0;
  uint32_t aux = 0, aux2 = 0;
  int64_t imm = 0;
  uint16_t kind = 0;
  uint8_t vk = 0, vk2 = 0;
  const llvm::Instruction *src = nullptr; ///< for fault reports
};

/// Copy of one slot (phi edge copy or argument move).
struct Copy {
  int32_t dst, src;
};

struct Edge {
  uint32_t targetPc = 0;
  uint32_t copyBegin = 0, copyEnd = 0;
  bool needsTemp = false;
  const llvm::BasicBlock *target = nullptr; // fixup before pcs are known
};

struct FuncCode;

struct CallInfo {
  const FuncCode *callee = nullptr; // null for indirect
  std::vector<int32_t> args;        // flattened argument slots
  unsigned retSlots = 0;
  const llvm::FunctionType *fty = nullptr;
};

/// Sink of printf calls: format slot plus typed argument slots.
struct PrintfInfo {
  bool vprintf = false;          // vprintf(fmt, argbuf) vs printf(fmt, ...)
  std::vector<int32_t> args;     // slots (for printf: one per leaf)
  std::vector<VK> kinds;
};

struct FuncCode {
  const llvm::Function *F = nullptr;
  std::string name;
  std::vector<Inst> code;
  std::vector<Copy> copies;
  std::vector<Edge> edges;
  std::vector<uint32_t> switchTable; // per switch: case values interleaved
  std::vector<uint64_t> switchVals;
  std::vector<CallInfo> calls;
  std::vector<PrintfInfo> printfs;
  std::vector<uint64_t> constPool;   // broadcast to 64 lanes: [i*64 + lane]
  unsigned numSlots = 0;
  unsigned numValueSlots = 0; // sum over SSA values (without sharing)
  unsigned numParamSlots = 0;
  unsigned retSlots = 0;
  uint32_t frameBytes = 0;           // static private frame (allocas)
  uint32_t frameAlign = 16;
  uint32_t exitPc = 0;               // == code.size()
  uint64_t address = 0;              // fake code address
};

/// A loaded module: translated functions, globals in device memory.
struct ModuleImage {
  std::unique_ptr<llvm::LLVMContext> ownedCtx;
  std::unique_ptr<llvm::Module> M;
  std::vector<std::unique_ptr<FuncCode>> funcs;
  llvm::DenseMap<const llvm::Function *, FuncCode *> byFunc;
  llvm::DenseMap<uint64_t, FuncCode *> byAddress;
  llvm::DenseMap<const llvm::GlobalVariable *, uint64_t> globalAddr; // AS1/4/0
  llvm::DenseMap<const llvm::GlobalVariable *, uint32_t> ldsOffset;  // AS3
  uint32_t staticLds = 0;
  uint32_t dynLdsAlign = 16;
  // launcher-filled device runtime state (docs/pipeline.md)
  uint64_t printfBuf = 0, heapHdr = 0;
  std::vector<uint64_t> allocations; // device allocations owned by the module
  bool released = false;             // Device::releaseModuleMemory gave them back
  // Launches of this module run at the same time when their streams do. The
  // printf FIFO (one per module: the devlib reads its address from a module
  // global) is reset when the first in-flight launch starts and drained when
  // the last one ends. A cooperative launch writes its grid-sync workspace
  // into the module's __ptx2amd_envreg, which holds one: it holds
  // `cooperative` while it runs (normal launches do not read the envreg).
  std::mutex launchMu; // guards inFlight and the lazily allocated state above
  unsigned inFlight = 0;
  std::mutex cooperative;
};

class Arena;

/// One level of the SIMT stack.
struct SimtEntry {
  uint32_t pc, rpc;
  uint64_t mask;
};

struct Frame {
  const FuncCode *fn = nullptr;
  std::vector<uint64_t> regs; // numSlots * W
  std::vector<SimtEntry> simt;
  int32_t retDst = -1;        // caller slot for the return value
  uint32_t spBase = 0;        // private stack pointer at entry
  uint32_t spTop = 0;         // after static frame (+ dynamic allocas)
};

enum class WaveState : uint8_t { Running, AtBarrier, Done };

struct WorkGroup;

struct Wave {
  unsigned index = 0;
  uint64_t initExec = 0;
  WaveState state = WaveState::Running;
  std::vector<Frame> frames; // storage reused; depth = active frames
  unsigned depth = 0;
  std::vector<uint8_t> priv; // lanes * privCap
  uint32_t privCap = 0;
  uint32_t sp = 0;
};

struct WorkGroup {
  uint32_t id[3] = {0, 0, 0};
  uint64_t linear = 0;
  std::vector<uint8_t> lds;
  std::vector<std::unique_ptr<Wave>> waves;
  unsigned live = 0;
};

struct LaunchState;

/// Fault details recorded by an op.
struct Fault {
  bool set = false;
  support::FaultKind kind = support::FaultKind::MemoryFault;
  std::string construct; // non-empty: an unmodelled case (UnsupportedError) naming it
  std::string what;     // "invalid global store of 4 bytes", "trap", ...
  uint64_t address = 0;
  unsigned lane = 0;
  bool hasAddress = false;
};

/// Execution context of one wave while it runs.
struct Ctx {
  LaunchState *L = nullptr;
  WorkGroup *wg = nullptr;
  Wave *wave = nullptr;
  Frame *fr = nullptr;
  uint64_t *regs = nullptr;
  const uint64_t *consts = nullptr;
  const Inst *code = nullptr;
  uint64_t exec = 0;
  uint64_t full = 0; // all W lanes
  unsigned W = 64;
  uint32_t pc = 0;
  // global-memory lookup cache: [cacheLo, cacheHi) in device addresses
  uint64_t cacheLo = 1, cacheHi = 0;
  uint64_t cache2Lo = 1, cache2Hi = 0; // second most recent allocation
  uint8_t *arenaHost = nullptr;
  uint64_t laneInstrs = 0;
  uint64_t waveInstrs = 0;
  Fault fault;
};

inline uint64_t *slotPtr(Ctx &c, int32_t i) { return c.regs + size_t(i) * c.W; }
inline const uint64_t *srcPtr(const Ctx &c, int32_t i) {
  return i >= 0 ? c.regs + size_t(i) * c.W : c.consts + size_t(~i) * 64;
}

/// Runs lane function f for every active lane.
template <class F> inline void forLanes(const Ctx &c, F &&f) {
  uint64_t e = c.exec;
  if (e == c.full) {
    for (unsigned l = 0; l < c.W; ++l) f(l);
  } else {
    while (e) {
      unsigned l = __builtin_ctzll(e);
      e &= e - 1;
      f(l);
    }
  }
}

// ---- Shared between translation, ops and the device ------------------------

/// Global memory arena: a reserved host mapping addressed from GlobalBase.
class Arena {
public:
  static llvm::Expected<std::unique_ptr<Arena>> create(uint64_t Bytes);
  ~Arena();
  llvm::Expected<uint64_t> alloc(uint64_t Bytes, uint64_t Align = 256);
  llvm::Error free(uint64_t Addr);
  /// The allocation containing [Addr, Addr+Size), or false.
  bool lookup(uint64_t Addr, uint64_t Size, uint64_t &Lo, uint64_t &Hi) const;
  uint8_t *host(uint64_t Addr) const { return Base + (Addr - GlobalBase); }
  uint8_t *hostBase() const { return Base; }

private:
  uint8_t *Base = nullptr;
  uint64_t Size = 0, Bump = 0;
  mutable std::shared_mutex Mu; // lookups (launch threads) vs alloc/free (host)
  std::vector<std::pair<uint64_t, uint64_t>> Live; // sorted [lo, hi)
  std::vector<std::pair<uint64_t, uint64_t>> FreeList;
};

struct LaunchState {
  ModuleImage *img = nullptr;
  const FuncCode *kernel = nullptr;
  Arena *arena = nullptr;
  std::string kernelName;
  unsigned W = 64;
  uint32_t gridWG[3] = {1, 1, 1};   // workgroups per dim
  uint32_t wgSize[3] = {1, 1, 1};   // AMD workgroup size
  uint32_t ldsBytes = 0;
  uint64_t kernargAddr = 0, hiddenAddr = 0, dispatchAddr = 0;
  uint64_t maxWaveInstructions = 0;
  bool trace = false; ///< EMU_TRACE=1: print every wave instruction to stderr
  /// Kernel parameter slots and their (uniform) initial values.
  std::vector<std::pair<int32_t, uint64_t>> paramInit;
  std::atomic<bool> abort{false};
  std::atomic<uint64_t> laneInstrs{0}, waveInstrs{0};
  std::mutex errMu;
  std::string error; ///< the first failure's report (empty: none)
  // What the first failure was, for the typed error launch() returns.
  enum class ErrorClass : uint8_t { Fault, Unsupported, Limit } errorClass = ErrorClass::Fault;
  support::FaultKind errorFault = support::FaultKind::MemoryFault;
  support::Resource errorResource = support::Resource::Unspecified;
  std::string errorConstruct;
  std::mutex printMu;
  const std::function<void(llvm::StringRef)> *printfSink = nullptr;
  /// Records the first failure and stops the launch.
  void fail(std::string Msg, support::FaultKind K) { record(std::move(Msg), ErrorClass::Fault, K, {}, {}); }
  /// The first failure was a trap (an assertion traps after its printf record).
  bool trapped() {
    std::lock_guard<std::mutex> G(errMu);
    return !error.empty() && errorClass == ErrorClass::Fault && errorFault == support::FaultKind::Trap;
  }
  void failUnsupported(std::string Msg, std::string Construct) {
    record(std::move(Msg), ErrorClass::Unsupported, {}, {}, std::move(Construct));
  }
  void failLimit(std::string Msg, support::Resource R) { record(std::move(Msg), ErrorClass::Limit, {}, R, {}); }
  /// The typed error of the first failure (success when none); a trap after
  /// a failed assertion's printf record (\p AssertRecord) is an Assert.
  llvm::Error takeError(bool AssertRecord);

private:
  void record(std::string Msg, ErrorClass C, support::FaultKind K, support::Resource R, std::string Construct) {
    std::lock_guard<std::mutex> G(errMu);
    if (error.empty()) {
      error = std::move(Msg);
      errorClass = C;
      errorFault = K;
      errorResource = R;
      errorConstruct = std::move(Construct);
    }
    abort.store(true);
  }
};

// Translation (Translate.cpp)
llvm::Error translateModule(ModuleImage &Img, Arena &A);
/// Wave size of a kernel from its attributes.
unsigned kernelWaveSize(const llvm::Function &F);

/// Formats one CUDA-style vprintf record (argument buffer with natural
/// alignment); ReadStr resolves %s pointers.
std::string formatVprintf(const std::string &Fmt, const uint8_t *Args, size_t N,
                          const std::function<bool(uint64_t, std::string &)> &ReadStr);

// Execution (Exec.cpp)
/// Runs a wave for at most Budget wave instructions. Returns false on fault
/// (the launch is failed with a report).
void initWave(LaunchState &L, WorkGroup &G, Wave &Wv);
bool runWave(LaunchState &L, WorkGroup &G, Wave &Wv, unsigned Budget);

// Op selection (Ops.cpp), used by the translator.
namespace ops {
Handler binInt(unsigned Opcode, VK K);     // llvm::Instruction::Add ...
Handler binFP(unsigned Opcode, VK K);
/// i128 ops (WideOps.cpp): operands and result in two consecutive slots (lo, hi).
Handler binWide(unsigned Opcode);
// Odd-width integers (OddInts.cpp): width N in Inst::aux; casts: aux = from bits, aux2 = to bits.
Handler binOdd(unsigned Opcode);
Handler icmpOdd(unsigned Pred);
Handler zextOrTruncOdd();
Handler sextOdd();
Handler icmpWide(unsigned Pred); // result: one i1 slot
Handler fneg(VK K);
Handler icmp(unsigned Pred, VK K);
Handler fcmp(unsigned Pred, VK K);
Handler cast(unsigned Opcode, VK From, VK To);
Handler move();
Handler select();
Handler gepAdd(unsigned IdxBits, bool Ptr32);
Handler addImm(bool Ptr32);
Handler load(AS A, unsigned Bytes);
Handler store(AS A, unsigned Bytes);
/// Whole-vector global/flat load or store of 2/4/8/16 bytes, single-copy
/// atomic per lane when aligned (nullptr for other sizes / address spaces).
Handler wholeAccess(AS A, unsigned Bytes, bool Store);
Handler atomicRMW(unsigned Op, VK K, AS A);  // llvm::AtomicRMWInst::BinOp
Handler cmpxchg(VK K, AS A);
/// atomicrmw on a vector of N elements of kind K packed in 2, 4 or 8 bytes
/// (one compare-and-swap of the whole word); nullptr if unsupported.
Handler atomicRMWVec(unsigned Op, VK K, unsigned N, AS A);
Handler asCast(unsigned FromAS, unsigned ToAS);
Handler fence();
Handler br();
Handler condBr();
Handler switchOp();
Handler ret();
Handler unreachable();
Handler call();
Handler callIndirect();
Handler allocaStatic();
Handler allocaDynamic();
Handler extractDyn();
Handler insertDyn();
Handler repack(); // bitcast between different element layouts
Handler printfOp();
Handler memcpyOp(AS Dst, AS Src, bool Move);
Handler memsetOp(AS Dst);
/// Intrinsic handler for an intrinsic id and overload kind; nullptr if the
/// emulator does not implement it.
Handler intrinsic(unsigned ID, VK K, VK K2, unsigned &Kind);
Handler named(llvm::StringRef Name); // "trap", "assertfail", "barrier", ...
} // namespace ops

} // namespace emu::detail

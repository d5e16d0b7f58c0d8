//===- Core.h - isa-emu internal state: instructions, waves, memory -*- C++ -*-===//
//
// The decoded instruction (Inst: handler pointer + normalised operands, built
// once at load by Decoder.cpp), a wave's architectural state (SGPRs with
// VCC/M0/EXEC at their hardware encodings, VGPRs/AGPRs lane-major per
// register, SCC, MODE) and the per-lane operand accessors every handler uses.
// Handlers live one file per encoding family under ops/ and are listed, one
// row per opcode, in Opcodes.def.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "isa-emu/IsaEmu.h"
#include "support/Error.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace llvm {
class MCInst;
}

namespace isaemu::detail {

struct Wave;
struct Inst;
using Handler = void (*)(Wave &, const Inst &);

// Scalar register file slots (hardware operand encodings; M0/NULL fixed here).
enum : uint16_t {
  SFlatScrLo = 102, SVccLo = 106, SVccHi = 107, STtmp0 = 108, SM0 = 124, SNull = 125,
  SExecLo = 126, SExecHi = 127, SNumRegs = 128
};

enum class OK : uint8_t { None, S, V, A, Imm, Scc, Vccz, Execz };

// Source-modifier bits as the MC layer encodes them (SISrcMods).
enum : uint8_t { ModNeg = 1, ModAbs = 2, ModOpSel0 = 4, ModOpSel1 = 8, ModSext = 16 };

struct Opnd {
  OK kind = OK::None;
  uint8_t count = 0; ///< dwords (registers) of the operand
  uint8_t hi = 0;    ///< 16-bit operand in the high half (true16 .h)
  uint8_t mods = 0;
  uint16_t reg = 0;
  int64_t imm = 0;
};

enum class Family : uint8_t {
#define ISA_FAMILY(F) F,
#include "Families.def"
};
const char *familyName(Family F);

struct OpRow {
  const char *name; ///< LLVM opcode name without encoding suffixes
  Family family;
  Handler fn;
};

// Variant flags derived from the opcode name's suffixes at load.
enum : uint32_t {
  VE64 = 1, VDpp = 2, VDpp8 = 4, VSdwa = 8, VSaddr = 16, VRtn = 32, VOffen = 64, VIdxen = 128,
  VSvs = 256, VSt = 512, VT16 = 1024, VSgprOff = 2048, VImmOff = 4096
};

struct Inst {
  Handler fn = nullptr;
  const OpRow *row = nullptr;
  uint32_t flags = 0;
  uint8_t nd = 0, ns = 0, nc = 0, size = 0;
  Opnd d[2];
  Opnd s[4];
  int64_t c[8] = {};   ///< control immediates in MC order (offsets, cpol, clamp, omod, op_sel, dpp...)
  uint64_t addr = 0;   ///< device address of the instruction
  uint32_t target = 0; ///< branch target (instruction index)
  uint32_t aux = 0;    ///< index of a helper Inst (DPP base, VOPD halves) in the program
  unsigned mcOpcode = 0;
};

struct KernelImage;
struct ProgramImage;
struct Workgroup;
struct LaunchState;

enum class WaveState : uint8_t { Running, Barrier, Done, Fault };

struct Wave {
  unsigned W = 32;      ///< lanes
  unsigned nv = 0;      ///< VGPR rows allocated (plus temporaries)
  uint32_t S[SNumRegs] = {};
  bool scc = false;
  uint32_t mode = 0;
  uint32_t trapsts = 0;
  std::vector<uint32_t> V, A; ///< [reg * W + lane]
  uint32_t pc = 0;      ///< instruction index
  WaveState state = WaveState::Running;
  unsigned id = 0;      ///< wave index within the workgroup
  Workgroup *wg = nullptr;
  LaunchState *ls = nullptr;
  const ProgramImage *prog = nullptr;
  uint64_t laneInstrs = 0, waveInstrs = 0;
  uint64_t flatScr = 0;   ///< FLAT_SCRATCH hwreg (gfx10+; gfx9 keeps it in s[102:103])
  uint64_t privBase = 0;  ///< device address of this wave's scratch (swizzled per lane)
  uint32_t privBytes = 0; ///< private bytes per lane
  std::string fault;            ///< the report (empty until a fault)
  support::FaultKind faultKind = support::FaultKind::MemoryFault;
  std::string faultConstruct;   ///< non-empty: an unsupported construct, not a device fault

  uint64_t exec() const { return W == 32 ? S[SExecLo] : (S[SExecLo] | uint64_t(S[SExecHi]) << 32); }
  void setExec(uint64_t m) {
    S[SExecLo] = uint32_t(m);
    S[SExecHi] = W == 32 ? 0 : uint32_t(m >> 32);
  }
  uint64_t laneMask() const { return W == 32 ? 0xffffffffull : ~0ull; }
  uint64_t vcc() const { return W == 32 ? S[SVccLo] : (S[SVccLo] | uint64_t(S[SVccHi]) << 32); }
  uint32_t *vrow(unsigned r) { return &V[size_t(r) * W]; }
};

// ---- operand access -------------------------------------------------------------
// Scalar (uniform) values: SGPR, immediate, SCC, VCCZ, EXECZ.
inline uint32_t sread32(const Wave &w, const Opnd &o) {
  switch (o.kind) {
  case OK::S: return w.S[o.reg];
  case OK::Imm: return uint32_t(o.imm);
  case OK::Scc: return w.scc;
  case OK::Vccz: return w.vcc() == 0;
  case OK::Execz: return w.exec() == 0;
  default: return 0;
  }
}
inline uint64_t sread64(const Wave &w, const Opnd &o) {
  switch (o.kind) {
  case OK::S: return w.S[o.reg] | uint64_t(w.S[(o.reg + 1) & 127]) << 32;
  case OK::Imm: return uint64_t(o.imm);
  default: return sread32(w, o);
  }
}
inline void swrite32(Wave &w, const Opnd &o, uint32_t v) {
  if (o.kind == OK::S && o.reg != SNull) w.S[o.reg] = v;
}
inline void swrite64(Wave &w, const Opnd &o, uint64_t v) {
  if (o.kind == OK::S && o.reg != SNull) {
    w.S[o.reg] = uint32_t(v);
    w.S[(o.reg + 1) & 127] = uint32_t(v >> 32);
  }
}
// Per-lane values of a VALU source.
inline uint32_t vread32(const Wave &w, const Opnd &o, unsigned l) {
  if (o.kind == OK::V) {
    uint32_t v = w.V[size_t(o.reg) * w.W + l];
    return o.hi ? v >> 16 : v;
  }
  if (o.kind == OK::A) return w.A[size_t(o.reg) * w.W + l];
  return sread32(w, o);
}
inline uint64_t vread64(const Wave &w, const Opnd &o, unsigned l) {
  if (o.kind == OK::V)
    return w.V[size_t(o.reg) * w.W + l] | uint64_t(w.V[size_t(o.reg + 1) * w.W + l]) << 32;
  if (o.kind == OK::A)
    return w.A[size_t(o.reg) * w.W + l] | uint64_t(w.A[size_t(o.reg + 1) * w.W + l]) << 32;
  return sread64(w, o);
}
inline uint32_t vreadN(const Wave &w, const Opnd &o, unsigned l, unsigned k) {
  if (o.kind == OK::V) return w.V[size_t(o.reg + k) * w.W + l];
  if (o.kind == OK::A) return w.A[size_t(o.reg + k) * w.W + l];
  if (o.kind == OK::S) return w.S[(o.reg + k) & 127];
  return k == 0 ? uint32_t(o.imm) : k == 1 ? uint32_t(uint64_t(o.imm) >> 32) : 0;
}
inline void vwrite32(Wave &w, const Opnd &o, unsigned l, uint32_t v) {
  if (o.kind == OK::V) w.V[size_t(o.reg) * w.W + l] = v;
  else if (o.kind == OK::A) w.A[size_t(o.reg) * w.W + l] = v;
}
inline void vwrite16(Wave &w, const Opnd &o, unsigned l, uint32_t v) {
  if (o.kind != OK::V) return;
  uint32_t &r = w.V[size_t(o.reg) * w.W + l];
  r = o.hi ? (r & 0xffffu) | (v << 16) : (r & 0xffff0000u) | (v & 0xffffu);
}
inline void vwrite64(Wave &w, const Opnd &o, unsigned l, uint64_t v) {
  if (o.kind == OK::V) {
    w.V[size_t(o.reg) * w.W + l] = uint32_t(v);
    w.V[size_t(o.reg + 1) * w.W + l] = uint32_t(v >> 32);
  } else if (o.kind == OK::A) {
    w.A[size_t(o.reg) * w.W + l] = uint32_t(v);
    w.A[size_t(o.reg + 1) * w.W + l] = uint32_t(v >> 32);
  }
}
inline void vwriteN(Wave &w, const Opnd &o, unsigned l, unsigned k, uint32_t v) {
  if (o.kind == OK::V) w.V[size_t(o.reg + k) * w.W + l] = v;
  else if (o.kind == OK::A) w.A[size_t(o.reg + k) * w.W + l] = v;
}
// A lane mask destination (VOPC sdst, VCC, EXEC, SGPR pair in wave64).
inline void writeMask(Wave &w, const Opnd &o, uint64_t m) {
  if (o.kind != OK::S || o.reg == SNull) return;
  w.S[o.reg] = uint32_t(m);
  if (w.W == 64) w.S[(o.reg + 1) & 127] = uint32_t(m >> 32);
}
inline uint64_t readMask(const Wave &w, const Opnd &o) {
  uint64_t m = w.W == 32 ? sread32(w, o) : sread64(w, o);
  return m & w.laneMask();
}

#define FOR_ACTIVE_LANES(w, l)                                                                     \
  for (uint64_t _m = (w).exec(); _m; _m &= _m - 1)                                                 \
    for (unsigned l = unsigned(__builtin_ctzll(_m)), _once = 1; _once; _once = 0)

/// DPP / DPP8 wrapper (ops/DPP.cpp): permutes src0 into a temporary row and
/// runs the helper instruction I.aux under the row/bank write mask.
void dppExec(Wave &w, const Inst &I);
/// SDWA wrapper (ops/SDWA.cpp): c[0..3] = dst_sel, dst_unused, src0_sel, src1_sel.
void sdwaExec(Wave &w, const Inst &I);

// ---- reports ----------------------------------------------------------------------
/// Marks the wave faulted with a report naming kernel, workgroup, wave, lane,
/// address and the instruction (filled in by the scheduler).
/// \p kind is what the runtime reports (support::FaultKind -> CUDA's code).
void raiseFault(Wave &w, const Inst &I, support::FaultKind kind, const std::string &what, int lane = -1,
                uint64_t addr = 0, bool hasAddr = false);
/// A case the emulator does not model: the launch fails with an
/// UnsupportedError("isa-emu", construct); an empty construct names the
/// instruction's mnemonic.
void raiseUnsupported(Wave &w, const Inst &I, std::string construct, const std::string &what, int lane = -1,
                      uint64_t addr = 0, bool hasAddr = false);

// ---- memory (Memory.cpp) ----------------------------------------------------------
/// Host pointer of [addr, addr+n) in global memory, or nullptr when unmapped.
uint8_t *globalPtr(LaunchState &ls, uint64_t addr, uint64_t n);
/// Flat address: global, LDS (shared aperture) or the lane's private memory.
uint8_t *flatPtr(Wave &w, unsigned lane, uint64_t addr, uint64_t n);
uint8_t *ldsPtr(Wave &w, uint64_t off, uint64_t n);
uint8_t *privatePtr(Wave &w, unsigned lane, uint64_t off, uint64_t n);

} // namespace isaemu::detail

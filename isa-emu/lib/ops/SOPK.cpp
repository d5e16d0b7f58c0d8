//===- SOPK.cpp - scalar ops with a 16-bit immediate; hardware registers ---===//
//
// s_movk/s_addk/s_mulk/s_cmpk (simm16 in c[0]), s_getreg/s_setreg on MODE
// (round/denorm/IEEE bits the FP handlers honour), TRAPSTS, FLAT_SCRATCH
// (gfx10+ kernels' prologue sets the scratch base through it), HW_ID (gfx9) /
// HW_ID1 (gfx11) and, on gfx11, SHADER_CYCLES (read only). Other hardware
// registers are an explicit fault.
//
//===----------------------------------------------------------------------===//
#include "Ops.h"

namespace isaemu::detail {

static int32_t simm16(const Inst &I, unsigned k = 0) { return int16_t(uint16_t(I.c[k])); }

void s_movk_i32(Wave &w, const Inst &I) { swrite32(w, I.d[0], uint32_t(simm16(I))); }
void s_cmovk_i32(Wave &w, const Inst &I) { if (w.scc) swrite32(w, I.d[0], uint32_t(simm16(I))); }
void s_addk_i32(Wave &w, const Inst &I) {
  if (I.d[0].kind != OK::S) return;
  uint32_t a = w.S[I.d[0].reg], b = uint32_t(simm16(I)), r = a + b;
  w.scc = ((~(a ^ b)) & (a ^ r)) >> 31;
  w.S[I.d[0].reg] = r;
}
void s_mulk_i32(Wave &w, const Inst &I) {
  if (I.d[0].kind == OK::S) w.S[I.d[0].reg] *= uint32_t(simm16(I));
}
#define CK(NAME, T, OP, EXT)                                                                       \
  void NAME(Wave &w, const Inst &I) { w.scc = T(sread32(w, I.s[0])) OP T(EXT); }
CK(s_cmpk_eq_i32, int32_t, ==, simm16(I)) CK(s_cmpk_lg_i32, int32_t, !=, simm16(I))
CK(s_cmpk_gt_i32, int32_t, >, simm16(I)) CK(s_cmpk_ge_i32, int32_t, >=, simm16(I))
CK(s_cmpk_lt_i32, int32_t, <, simm16(I)) CK(s_cmpk_le_i32, int32_t, <=, simm16(I))
CK(s_cmpk_eq_u32, uint32_t, ==, uint16_t(I.c[0])) CK(s_cmpk_lg_u32, uint32_t, !=, uint16_t(I.c[0]))
CK(s_cmpk_gt_u32, uint32_t, >, uint16_t(I.c[0])) CK(s_cmpk_ge_u32, uint32_t, >=, uint16_t(I.c[0]))
CK(s_cmpk_lt_u32, uint32_t, <, uint16_t(I.c[0])) CK(s_cmpk_le_u32, uint32_t, <=, uint16_t(I.c[0]))

namespace {
// Hardware register ids (LLVM SIDefines.h Hwreg::Id). 29 is SHADER_CYCLES on
// gfx10.3 / gfx11 only (a 20-bit free-running clock; gfx9 has no register 29).
enum { HwMode = 1, HwStatus = 2, HwTrapsts = 3, HwHwId = 4, HwFlatScrLo = 20, HwFlatScrHi = 21, HwHwId1 = 23,
       HwShaderCycles = 29 };

// Where the wave runs, as the hardware identification registers say it (read only). The emulated
// device has one shader engine / shader array; its compute units (gfx11: WGPs) are the host workers
// (slot mod 16), a workgroup's waves spread over the 4 SIMDs (wave id mod 4) and are numbered on
// each SIMD in order. Fields (ISA guides, "Hardware ID registers"):
//  gfx9 HW_ID:   WAVE_ID [3:0], SIMD_ID [5:4], PIPE_ID [7:6], CU_ID [11:8], SH_ID [12], SE_ID [14:13],
//                TG_ID [19:16], VM_ID [23:20], QUEUE_ID [26:24], STATE_ID [29:27], ME_ID [31:30];
//  gfx11 HW_ID1: WAVE_ID [4:0], SIMD_ID [9:8], WGP_ID [13:10], SA_ID [16], SE_ID [20:18], DP_RATE [31:29].
uint32_t hwId(const Wave &w) {
  uint32_t Cu = w.wg->slot & 15, Simd = w.id & 3, WaveOnSimd = w.id >> 2;
  if (w.prog->gfx9) return (WaveOnSimd & 15) | Simd << 4 | Cu << 8;
  return (WaveOnSimd & 31) | Simd << 8 | Cu << 10;
}

uint32_t *hwreg(Wave &w, unsigned Id, uint32_t &Tmp) {
  switch (Id) {
  case HwShaderCycles:
    if (w.prog->gfx9) return nullptr;
    Tmp = uint32_t(w.waveInstrs) & 0xfffff; // the wave's executed instructions stand in for cycles
    return &Tmp;
  case HwHwId:
    if (!w.prog->gfx9) return nullptr;
    Tmp = hwId(w);
    return &Tmp;
  case HwHwId1:
    if (w.prog->gfx9) return nullptr;
    Tmp = hwId(w);
    return &Tmp;
  case HwMode: return &w.mode;
  case HwTrapsts: return &w.trapsts;
  case HwFlatScrLo: Tmp = uint32_t(w.flatScr); return &Tmp;
  case HwFlatScrHi: Tmp = uint32_t(w.flatScr >> 32); return &Tmp;
  case HwStatus: Tmp = (w.scc ? 1u : 0u) | (w.exec() == 0 ? 1u << 9 : 0) | (w.vcc() == 0 ? 1u << 10 : 0); return &Tmp;
  default: return nullptr;
  }
}

void setreg(Wave &w, const Inst &I, uint32_t Simm, uint32_t V) {
  unsigned Id = Simm & 63, Off = (Simm >> 6) & 31, Size = ((Simm >> 11) & 31) + 1;
  uint32_t Tmp = 0;
  uint32_t *R = hwreg(w, Id, Tmp);
  if (!R || Id == HwStatus || Id == HwShaderCycles || Id == HwHwId || Id == HwHwId1) {
    raiseUnsupported(w, I, "s_setreg hardware register " + std::to_string(Id),
                     "s_setreg of unsupported hardware register " + std::to_string(Id));
    return;
  }
  uint32_t M = (Size >= 32 ? ~0u : ((1u << Size) - 1)) << Off;
  *R = (*R & ~M) | ((V << Off) & M);
  if (Id == HwFlatScrLo) w.flatScr = (w.flatScr & ~0xffffffffull) | *R;
  if (Id == HwFlatScrHi) w.flatScr = (w.flatScr & 0xffffffffull) | uint64_t(*R) << 32;
}
} // namespace

void s_getreg_b32(Wave &w, const Inst &I) {
  uint32_t Simm = uint32_t(I.c[0]);
  unsigned Id = Simm & 63, Off = (Simm >> 6) & 31, Size = ((Simm >> 11) & 31) + 1;
  uint32_t Tmp = 0;
  uint32_t *R = hwreg(w, Id, Tmp);
  if (!R) {
    raiseUnsupported(w, I, "s_getreg hardware register " + std::to_string(Id),
                     "s_getreg of hardware register " + std::to_string(Id) +
                         (Id == HwShaderCycles ? " (SHADER_CYCLES, which " + w.prog->target + " does not have)"
                                               : " (not modelled)"));
    return;
  }
  swrite32(w, I.d[0], (*R >> Off) & (Size >= 32 ? ~0u : (1u << Size) - 1));
}
void s_setreg_b32(Wave &w, const Inst &I) { setreg(w, I, uint32_t(I.c[0]), sread32(w, I.s[0])); }
void s_setreg_imm32_b32(Wave &w, const Inst &I) { setreg(w, I, uint32_t(I.c[1]), uint32_t(I.c[0])); }
void sopk_nop(Wave &, const Inst &) {} // s_waitcnt_vscnt & co (in-order model)

} // namespace isaemu::detail

//===- SOP1.cpp - scalar ALU, one source (s_mov, saveexec, s_getpc ...) ----===//
//
// Moves, bit counts/scans, sign extension, the *_saveexec family (EXEC
// update with the old EXEC in sdst, SCC = new EXEC != 0) and the program
// counter ops (s_getpc/s_setpc/s_swappc: byte addresses of decoded code).
//
//===----------------------------------------------------------------------===//
#include "Ops.h"

namespace isaemu::detail {

void s_mov_b32(Wave &w, const Inst &I) { swrite32(w, I.d[0], sread32(w, I.s[0])); }
void s_mov_b64(Wave &w, const Inst &I) { swrite64(w, I.d[0], sread64(w, I.s[0])); }
void s_cmov_b32(Wave &w, const Inst &I) { if (w.scc) swrite32(w, I.d[0], sread32(w, I.s[0])); }
void s_cmov_b64(Wave &w, const Inst &I) { if (w.scc) swrite64(w, I.d[0], sread64(w, I.s[0])); }
void s_not_b32(Wave &w, const Inst &I) {
  uint32_t r = ~sread32(w, I.s[0]);
  w.scc = r != 0;
  swrite32(w, I.d[0], r);
}
void s_not_b64(Wave &w, const Inst &I) {
  uint64_t r = ~sread64(w, I.s[0]);
  w.scc = r != 0;
  swrite64(w, I.d[0], r);
}
void s_brev_b32(Wave &w, const Inst &I) { swrite32(w, I.d[0], llvm::reverseBits<uint32_t>(sread32(w, I.s[0]))); }
void s_brev_b64(Wave &w, const Inst &I) { swrite64(w, I.d[0], llvm::reverseBits<uint64_t>(sread64(w, I.s[0]))); }
void s_bcnt1_i32_b32(Wave &w, const Inst &I) {
  uint32_t r = __builtin_popcount(sread32(w, I.s[0]));
  w.scc = r != 0;
  swrite32(w, I.d[0], r);
}
void s_bcnt1_i32_b64(Wave &w, const Inst &I) {
  uint32_t r = __builtin_popcountll(sread64(w, I.s[0]));
  w.scc = r != 0;
  swrite32(w, I.d[0], r);
}
void s_bcnt0_i32_b32(Wave &w, const Inst &I) {
  uint32_t r = 32 - __builtin_popcount(sread32(w, I.s[0]));
  w.scc = r != 0;
  swrite32(w, I.d[0], r);
}
// s_ff1 (s_ctz_i32_*): index of the lowest set bit, -1 if none.
void s_ff1_i32_b32(Wave &w, const Inst &I) {
  uint32_t a = sread32(w, I.s[0]);
  swrite32(w, I.d[0], a ? __builtin_ctz(a) : ~0u);
}
void s_ff1_i32_b64(Wave &w, const Inst &I) {
  uint64_t a = sread64(w, I.s[0]);
  swrite32(w, I.d[0], a ? __builtin_ctzll(a) : ~0u);
}
// s_flbit_i32_b32 (s_clz_i32_u32): leading zeros, -1 if zero.
void s_flbit_i32_b32(Wave &w, const Inst &I) {
  uint32_t a = sread32(w, I.s[0]);
  swrite32(w, I.d[0], a ? __builtin_clz(a) : ~0u);
}
void s_flbit_i32_b64(Wave &w, const Inst &I) {
  uint64_t a = sread64(w, I.s[0]);
  swrite32(w, I.d[0], a ? __builtin_clzll(a) : ~0u);
}
void s_flbit_i32(Wave &w, const Inst &I) { // s_cls_i32: leading sign bits
  int32_t a = int32_t(sread32(w, I.s[0]));
  uint32_t u = a < 0 ? ~uint32_t(a) : uint32_t(a);
  swrite32(w, I.d[0], (a == 0 || a == -1) ? ~0u : __builtin_clz(u));
}
void s_sext_i32_i8(Wave &w, const Inst &I) { swrite32(w, I.d[0], uint32_t(int32_t(int8_t(sread32(w, I.s[0]))))); }
void s_sext_i32_i16(Wave &w, const Inst &I) { swrite32(w, I.d[0], uint32_t(int32_t(int16_t(sread32(w, I.s[0]))))); }
void s_abs_i32(Wave &w, const Inst &I) {
  int32_t a = int32_t(sread32(w, I.s[0]));
  uint32_t r = a < 0 ? 0u - uint32_t(a) : uint32_t(a);
  w.scc = r != 0;
  swrite32(w, I.d[0], r);
}
void s_bitset0_b32(Wave &w, const Inst &I) {
  if (I.d[0].kind == OK::S) w.S[I.d[0].reg] &= ~(1u << (sread32(w, I.s[0]) & 31));
}
void s_bitset1_b32(Wave &w, const Inst &I) {
  if (I.d[0].kind == OK::S) w.S[I.d[0].reg] |= 1u << (sread32(w, I.s[0]) & 31);
}

// EXEC-modifying ops: sdst = EXEC; EXEC = f(src, EXEC); SCC = EXEC != 0.
template <typename F> void saveexec(Wave &w, const Inst &I, F f) {
  uint64_t s = w.W == 32 ? sread32(w, I.s[0]) : sread64(w, I.s[0]);
  uint64_t e = w.exec();
  uint64_t n = f(s, e) & w.laneMask();
  writeMask(w, I.d[0], e);
  w.setExec(n);
  w.scc = n != 0;
}
void s_and_saveexec(Wave &w, const Inst &I) { saveexec(w, I, [](uint64_t s, uint64_t e) { return s & e; }); }
void s_or_saveexec(Wave &w, const Inst &I) { saveexec(w, I, [](uint64_t s, uint64_t e) { return s | e; }); }
void s_xor_saveexec(Wave &w, const Inst &I) { saveexec(w, I, [](uint64_t s, uint64_t e) { return s ^ e; }); }
void s_andn2_saveexec(Wave &w, const Inst &I) { saveexec(w, I, [](uint64_t s, uint64_t e) { return s & ~e; }); }
void s_orn2_saveexec(Wave &w, const Inst &I) { saveexec(w, I, [](uint64_t s, uint64_t e) { return s | ~e; }); }
void s_nand_saveexec(Wave &w, const Inst &I) { saveexec(w, I, [](uint64_t s, uint64_t e) { return ~(s & e); }); }
void s_nor_saveexec(Wave &w, const Inst &I) { saveexec(w, I, [](uint64_t s, uint64_t e) { return ~(s | e); }); }
void s_xnor_saveexec(Wave &w, const Inst &I) { saveexec(w, I, [](uint64_t s, uint64_t e) { return ~(s ^ e); }); }
void s_andn1_saveexec(Wave &w, const Inst &I) { saveexec(w, I, [](uint64_t s, uint64_t e) { return ~s & e; }); }
void s_orn1_saveexec(Wave &w, const Inst &I) { saveexec(w, I, [](uint64_t s, uint64_t e) { return ~s | e; }); }
// s_andn1_wrexec / s_andn2_wrexec: EXEC = ~s0 & EXEC (resp. s0 & ~EXEC), sdst = new EXEC.
void s_andn1_wrexec(Wave &w, const Inst &I) {
  uint64_t s = w.W == 32 ? sread32(w, I.s[0]) : sread64(w, I.s[0]);
  uint64_t n = (~s & w.exec()) & w.laneMask();
  w.setExec(n);
  writeMask(w, I.d[0], n);
  w.scc = n != 0;
}
void s_andn2_wrexec(Wave &w, const Inst &I) {
  uint64_t s = w.W == 32 ? sread32(w, I.s[0]) : sread64(w, I.s[0]);
  uint64_t n = (s & ~w.exec()) & w.laneMask();
  w.setExec(n);
  writeMask(w, I.d[0], n);
  w.scc = n != 0;
}

static bool jumpTo(Wave &w, const Inst &I, uint64_t Addr) {
  auto It = w.prog->byAddr.find(Addr);
  if (It == w.prog->byAddr.end()) {
    raiseFault(w, I, ::support::FaultKind::IllegalInstruction, "jump to 0x" + std::to_string(Addr) + ", which is not decoded code", -1, Addr, true);
    return false;
  }
  w.pc = It->second;
  return true;
}
void s_getpc_b64(Wave &w, const Inst &I) { swrite64(w, I.d[0], I.addr + I.size); }
void s_setpc_b64(Wave &w, const Inst &I) { jumpTo(w, I, sread64(w, I.s[0])); }
void s_swappc_b64(Wave &w, const Inst &I) {
  uint64_t T = sread64(w, I.s[0]);
  swrite64(w, I.d[0], I.addr + I.size);
  jumpTo(w, I, T);
}

} // namespace isaemu::detail

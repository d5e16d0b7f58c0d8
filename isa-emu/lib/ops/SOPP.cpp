//===- SOPP.cpp - program control: branches, s_endpgm, s_barrier, messages ===//
//
// Branch targets are resolved to instruction indices at load. s_barrier
// parks the wave until every live wave of its workgroup arrives (Exec.cpp).
// s_waitcnt/s_delay_alu/s_clause/s_nop are no-ops in this in-order model.
// s_trap and s_sendmsg other than MSG_DEALLOC_VGPRS are reported.
//
//===----------------------------------------------------------------------===//
#include "Ops.h"

namespace isaemu::detail {

void s_nop(Wave &, const Inst &) {}
void s_endpgm(Wave &w, const Inst &) { w.state = WaveState::Done; }
void s_barrier(Wave &w, const Inst &) { w.state = WaveState::Barrier; }
void s_branch(Wave &w, const Inst &I) { w.pc = I.target; }
void s_cbranch_scc0(Wave &w, const Inst &I) { if (!w.scc) w.pc = I.target; }
void s_cbranch_scc1(Wave &w, const Inst &I) { if (w.scc) w.pc = I.target; }
void s_cbranch_vccz(Wave &w, const Inst &I) { if ((w.vcc() & w.laneMask()) == 0) w.pc = I.target; }
void s_cbranch_vccnz(Wave &w, const Inst &I) { if ((w.vcc() & w.laneMask()) != 0) w.pc = I.target; }
void s_cbranch_execz(Wave &w, const Inst &I) { if (w.exec() == 0) w.pc = I.target; }
void s_cbranch_execnz(Wave &w, const Inst &I) { if (w.exec() != 0) w.pc = I.target; }
void s_round_mode(Wave &w, const Inst &I) { w.mode = (w.mode & ~0xfu) | (uint32_t(I.c[0]) & 0xf); }
void s_denorm_mode(Wave &w, const Inst &I) { w.mode = (w.mode & ~0xf0u) | ((uint32_t(I.c[0]) & 0xf) << 4); }
void s_sendmsg(Wave &w, const Inst &I) {
  unsigned Msg = unsigned(I.c[0]) & (w.prog->gfx11 ? 0xff : 0xf);
  if (w.prog->gfx11 && Msg == 3) return; // MSG_DEALLOC_VGPRS
  raiseUnsupported(w, I, "s_sendmsg " + std::to_string(Msg), "s_sendmsg " + std::to_string(I.c[0]) + " (message not modelled)");
}
void s_trap(Wave &w, const Inst &I) {
  raiseFault(w, I, ::support::FaultKind::Trap, "s_trap " + std::to_string(I.c[0] & 0xff) + " (kernel trap: abort/assert)");
}

} // namespace isaemu::detail

namespace isaemu::detail {
// gfx11 s_sendmsg_rtn_b32/b64: only MSG_RTN_GET_REALTIME (0x83) is modelled
// (a per-wave instruction count stands in for the clock).
void s_sendmsg_rtn(Wave &w, const Inst &I) {
  unsigned Msg = unsigned(I.c[0]) & 0xff;
  if (Msg == 0x83) {
    if (I.d[0].count >= 2) swrite64(w, I.d[0], w.waveInstrs);
    else swrite32(w, I.d[0], uint32_t(w.waveInstrs));
    return;
  }
  raiseUnsupported(w, I, "s_sendmsg_rtn " + std::to_string(Msg), "s_sendmsg_rtn " + std::to_string(Msg) + " (message not modelled)");
}
} // namespace isaemu::detail
namespace isaemu::detail {
void s_sethalt(Wave &w, const Inst &I) {
  if (I.c[0] & 1) raiseFault(w, I, ::support::FaultKind::Trap, "s_sethalt 1 (the wave halts; reported as a trap)");
}
} // namespace isaemu::detail

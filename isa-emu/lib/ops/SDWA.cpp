//===- SDWA.cpp - sub-dword addressing (gfx9 VOP1/VOP2 _sdwa forms) ---------===//
//
// src_sel picks BYTE_0..3 (0-3), WORD_0/1 (4, 5) or DWORD (6) of each source,
// zero-extended or, with the SEXT source modifier, sign-extended; the
// operation runs on the selected values; dst_sel writes the result's low
// bits into the selected byte/word of the destination and dst_unused fills
// the other bits: UNUSED_PAD (0) zeroes, UNUSED_SEXT (1) sign-extends,
// UNUSED_PRESERVE (2) keeps them.
//
//===----------------------------------------------------------------------===//
#include "Ops.h"

namespace isaemu::detail {

static uint32_t select(uint32_t v, unsigned sel, bool sext) {
  if (sel >= 6) return v;
  unsigned bits = sel < 4 ? 8 : 16, shift = sel < 4 ? 8 * sel : 16 * (sel - 4);
  uint32_t x = (v >> shift) & ((1u << bits) - 1);
  if (sext && (x >> (bits - 1))) x |= ~((1u << bits) - 1);
  return x;
}

void sdwaExec(Wave &w, const Inst &I) {
  const Inst &B = w.prog->helpers[I.aux];
  unsigned DstSel = unsigned(I.c[0]), Unused = unsigned(I.c[1]);
  unsigned Sel[2] = {unsigned(I.c[2]), unsigned(I.c[3])};
  unsigned NS = B.row->family == Family::VOP1 ? 1 : 2;
  lanes(w, [&](unsigned l) {
    for (unsigned k = 0; k < NS && k < I.ns; ++k)
      w.V[size_t(256 + k) * w.W + l] = select(vread32(w, I.s[k], l), Sel[k], I.s[k].mods & ModSext);
  });
  B.fn(w, B);
  if (w.state == WaveState::Fault || B.row->family == Family::VOPC) return;
  lanes(w, [&](unsigned l) {
    uint32_t r = w.V[size_t(258) * w.W + l];
    uint32_t &d = w.V[size_t(I.d[0].reg) * w.W + l];
    if (DstSel >= 6) { d = r; return; }
    unsigned bits = DstSel < 4 ? 8 : 16, shift = DstSel < 4 ? 8 * DstSel : 16 * (DstSel - 4);
    uint32_t m = ((1u << bits) - 1) << shift, v = (r << shift) & m;
    if (Unused == 2) d = (d & ~m) | v;
    else if (Unused == 1 && ((r >> (bits - 1)) & 1)) d = v | ~(m | ((1u << shift) - 1));
    else d = v;
  });
}

} // namespace isaemu::detail

//===- DPP.cpp - data-parallel primitives: DPP16 and DPP8 lane selects -----===//
//
// dpp_ctrl (quad_perm, row_shl/shr/ror, wave_shl/rol/shr/ror and
// row_bcast15/31 on gfx9, row_mirror, row_half_mirror, row_share/xmask on
// gfx10+) picks each lane's src0 lane; row_mask/bank_mask disable writes;
// a source lane that is out of range or inactive reads 0 with bound_ctrl
// (or fi on gfx10+ for inactive lanes) and otherwise leaves the lane
// unwritten. The helper instruction then runs with src0 from the gathered
// row and EXEC narrowed to the written lanes.
//
//===----------------------------------------------------------------------===//
#include "Ops.h"

namespace isaemu::detail {

static int dppLane(const Wave &w, unsigned Ctrl, unsigned l) {
  unsigned Row = l & ~15u, P = l & 15;
  if (Ctrl <= 0xff) return int((l & ~3u) + ((Ctrl >> (2 * (l & 3))) & 3));
  if (Ctrl >= 0x101 && Ctrl <= 0x10f) { unsigned s = Ctrl & 15; return P + s < 16 ? int(l + s) : -1; }
  if (Ctrl >= 0x111 && Ctrl <= 0x11f) { unsigned s = Ctrl & 15; return P >= s ? int(l - s) : -1; }
  if (Ctrl >= 0x121 && Ctrl <= 0x12f) return int(Row + ((P + (Ctrl & 15)) & 15));
  if (Ctrl == 0x130) return l + 1 < w.W ? int(l + 1) : -1;          // wave_shl
  if (Ctrl == 0x134) return int((l + 1) % w.W);                     // wave_rol
  if (Ctrl == 0x138) return l >= 1 ? int(l - 1) : -1;               // wave_shr
  if (Ctrl == 0x13c) return int((l + w.W - 1) % w.W);               // wave_ror
  if (Ctrl == 0x140) return int(Row + 15 - P);                      // row_mirror
  if (Ctrl == 0x141) return int((l & ~7u) + 7 - (l & 7));           // row_half_mirror
  if (Ctrl == 0x142) return Row == 0 ? -2 : int(Row - 1);           // row_bcast15 (gfx9)
  if (Ctrl == 0x143) return l < 32 ? -2 : 31;                       // row_bcast31 (gfx9)
  if (Ctrl >= 0x150 && Ctrl <= 0x15f) return int(Row + (Ctrl & 15)); // row_share
  if (Ctrl >= 0x160 && Ctrl <= 0x16f) return int(Row + (P ^ (Ctrl & 15))); // row_xmask
  return -3;
}

void dppExec(Wave &w, const Inst &I) {
  const Inst &B = w.prog->helpers[I.aux];
  const Opnd &Src = w.prog->helpers[I.aux].s[0];
  (void)Src;
  // The original src0 register: the DPP instruction keeps it in its own s[0].
  uint64_t Exec = w.exec(), Write = 0;
  uint32_t *T = w.vrow(256);
  uint32_t *T2 = w.vrow(257);
  bool Wide = I.s[0].count >= 2;
  if (I.flags & VDpp8) {
    uint32_t Sel = uint32_t(I.c[0]);
    for (unsigned l = 0; l < w.W; ++l) {
      unsigned From = (l & ~7u) + ((Sel >> (3 * (l & 7))) & 7);
      T[l] = vread32(w, I.s[0], From);
      if (Wide) T2[l] = vreadN(w, I.s[0], From, 1);
      Write |= ((Exec >> From) & 1 || I.c[1]) ? (1ull << l) : 0;
    }
  } else {
    unsigned Ctrl = unsigned(I.c[0]), RowMask = unsigned(I.c[1]), BankMask = unsigned(I.c[2]);
    bool Bound = I.c[3] != 0, Fi = I.nc > 4 && I.c[4] != 0;
    for (unsigned l = 0; l < w.W; ++l) {
      if (!((RowMask >> (l / 16)) & 1) || !((BankMask >> ((l / 4) & 3)) & 1)) continue;
      int From = dppLane(w, Ctrl, l);
      if (From == -3) {
        raiseUnsupported(w, I, "dpp_ctrl 0x" + std::to_string(Ctrl), "unsupported dpp_ctrl 0x" + std::to_string(Ctrl));
        return;
      }
      if (From == -2) { Write |= 0; continue; } // row_bcast: lane keeps its value
      bool Valid = From >= 0 && unsigned(From) < w.W && (((Exec >> From) & 1) || Fi);
      if (Valid) {
        T[l] = vread32(w, I.s[0], unsigned(From));
        if (Wide) T2[l] = vreadN(w, I.s[0], unsigned(From), 1);
        Write |= 1ull << l;
      } else if (Bound) {
        T[l] = 0;
        if (Wide) T2[l] = 0;
        Write |= 1ull << l;
      }
    }
  }
  w.setExec(Exec & Write);
  B.fn(w, B);
  if (w.state != WaveState::Fault) w.setExec(Exec);
}

} // namespace isaemu::detail

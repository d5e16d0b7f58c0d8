//===- SMEM.cpp - scalar memory loads (s_load_*, s_buffer_load_*) ---------===//
//
// Address = sbase (+ SGPR offset) + immediate offset, dword-aligned as the
// hardware forces it; s_buffer_load reads through a V# (base[47:0],
// num_records) and returns 0 past num_records. Faults report the address.
//
//===----------------------------------------------------------------------===//
#include "Ops.h"

namespace isaemu::detail {

static uint64_t smemOffset(const Wave &w, const Inst &I) {
  int64_t Off = 0;
  if (I.flags & VImmOff) Off += I.nc >= 2 ? I.c[0] : 0;
  if (I.flags & VSgprOff) Off += sread32(w, I.s[1]);
  return uint64_t(Off);
}

void s_load(Wave &w, const Inst &I) {
  uint64_t Base = sread64(w, I.s[0]) & 0xffffffffffffull;
  uint64_t A = (Base + smemOffset(w, I)) & ~3ull;
  unsigned N = I.d[0].count;
  const uint8_t *P = globalPtr(*w.ls, A, 4ull * N);
  if (!P) {
    raiseFault(w, I, ::support::FaultKind::MemoryFault, "scalar memory fault", -1, A, true);
    return;
  }
  for (unsigned k = 0; k < N; ++k) {
    uint32_t V;
    memcpy(&V, P + 4 * k, 4);
    if (I.d[0].reg + k != SNull) w.S[(I.d[0].reg + k) & 127] = V;
  }
}

void s_buffer_load(Wave &w, const Inst &I) {
  uint32_t D0 = w.S[I.s[0].reg], D1 = w.S[I.s[0].reg + 1], D2 = w.S[I.s[0].reg + 2];
  uint64_t Base = D0 | uint64_t(D1 & 0xffff) << 32;
  uint64_t Off = smemOffset(w, I) & ~3ull;
  unsigned N = I.d[0].count;
  for (unsigned k = 0; k < N; ++k) {
    uint32_t V = 0;
    uint64_t O = Off + 4 * k;
    if (O + 4 <= D2) {
      const uint8_t *P = globalPtr(*w.ls, Base + O, 4);
      if (!P) {
        raiseFault(w, I, ::support::FaultKind::MemoryFault, "scalar buffer memory fault", -1, Base + O, true);
        return;
      }
      memcpy(&V, P, 4);
    }
    w.S[(I.d[0].reg + k) & 127] = V;
  }
}

void s_dcache_inv(Wave &, const Inst &) {}
void s_memtime(Wave &w, const Inst &I) { swrite64(w, I.d[0], w.waveInstrs); }

} // namespace isaemu::detail

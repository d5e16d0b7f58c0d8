//===- DS.cpp - LDS instructions (ds_read/write/2addr, atomics, permutes) --===//
//
// Addresses are byte offsets into the workgroup's LDS plus the 16-bit
// offset (read2/write2: two 8-bit offsets scaled by the element size).
// ds_bpermute reads data[(addr + offset) / 4 mod W] from active source lanes
// (0 from inactive ones); ds_permute scatters; ds_swizzle implements the
// bit-mask and quad-permute modes. gfx9 ds_cmpst takes (cmp, new), gfx11
// ds_cmpstore (new, cmp).
//
//===----------------------------------------------------------------------===//
#include "MemUtil.h"
#include "Ops.h"

namespace isaemu::detail {
namespace {

template <unsigned Bytes, bool Signed> void dsRead(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    if (w.state == WaveState::Fault) return;
    uint32_t Buf[4] = {};
    uint64_t A = vread32(w, I.s[0], l) + uint64_t(I.c[0]);
    if (!laneAccess(w, I, l, Space::Lds, A, Buf, Bytes, false)) return;
    if (Bytes == 1) Buf[0] = Signed ? uint32_t(int32_t(int8_t(Buf[0]))) : Buf[0] & 0xff;
    if (Bytes == 2) Buf[0] = Signed ? uint32_t(int32_t(int16_t(Buf[0]))) : Buf[0] & 0xffff;
    for (unsigned k = 0; k < (Bytes + 3) / 4; ++k) vwriteN(w, I.d[0], l, k, Buf[k]);
  });
}
template <unsigned Bytes, bool Hi, bool Signed> void dsReadD16(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    if (w.state == WaveState::Fault) return;
    uint32_t V = 0;
    if (!laneAccess(w, I, l, Space::Lds, vread32(w, I.s[0], l) + uint64_t(I.c[0]), &V, Bytes, false)) return;
    uint32_t &D = w.V[size_t(I.d[0].reg) * w.W + l];
    D = mergeD16(D, V, Bytes, Hi, Signed);
  });
}
template <unsigned Bytes> void dsWrite(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    if (w.state == WaveState::Fault) return;
    uint32_t Buf[4];
    for (unsigned k = 0; k < (Bytes + 3) / 4; ++k) Buf[k] = vreadN(w, I.s[1], l, k);
    laneAccess(w, I, l, Space::Lds, vread32(w, I.s[0], l) + uint64_t(I.c[0]), Buf, Bytes, true);
  });
}
template <unsigned Bytes> void dsWriteHi(Wave &w, const Inst &I) { // *_d16_hi: the high half
  lanes(w, [&](unsigned l) {
    if (w.state == WaveState::Fault) return;
    uint32_t V = vread32(w, I.s[1], l) >> 16;
    laneAccess(w, I, l, Space::Lds, vread32(w, I.s[0], l) + uint64_t(I.c[0]), &V, Bytes, true);
  });
}
template <unsigned Bytes, unsigned Stride> void dsRead2(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    if (w.state == WaveState::Fault) return;
    uint32_t A = vread32(w, I.s[0], l);
    for (unsigned h = 0; h < 2; ++h) {
      uint32_t Buf[2] = {};
      if (!laneAccess(w, I, l, Space::Lds, A + uint64_t(I.c[h]) * Bytes * Stride, Buf, Bytes, false)) return;
      for (unsigned k = 0; k < Bytes / 4; ++k) vwriteN(w, I.d[0], l, h * (Bytes / 4) + k, Buf[k]);
    }
  });
}
template <unsigned Bytes, unsigned Stride> void dsWrite2(Wave &w, const Inst &I) {
  lanes(w, [&](unsigned l) {
    if (w.state == WaveState::Fault) return;
    uint32_t A = vread32(w, I.s[0], l);
    for (unsigned h = 0; h < 2; ++h) {
      uint32_t Buf[2];
      for (unsigned k = 0; k < Bytes / 4; ++k) Buf[k] = vreadN(w, I.s[1 + h], l, k);
      if (!laneAccess(w, I, l, Space::Lds, A + uint64_t(I.c[h]) * Bytes * Stride, Buf, Bytes, true)) return;
    }
  });
}
// Atomics: [vdst] addr data0 [data1]; RTN forms have a destination.
template <typename T> void dsAtomic(Wave &w, const Inst &I, AtomicOp Op, bool CmpFirst = false) {
  lanes(w, [&](unsigned l) {
    if (w.state == WaveState::Fault) return;
    uint8_t *P = atomicPtr(w, I, l, Space::Lds, vread32(w, I.s[0], l) + uint64_t(I.c[0]), sizeof(T));
    if (!P) return;
    auto val = [&](unsigned s) -> T {
      if constexpr (sizeof(T) == 4) return vread32(w, I.s[s], l);
      else return vread64(w, I.s[s], l);
    };
    T V = val(1), C = 0;
    if (Op == AtomicOp::CmpSwap) {
      T Second = val(2);
      if (CmpFirst) { C = V; V = Second; }
      else C = Second;
    }
    T Old = atomicRMW(reinterpret_cast<T *>(P), Op, V, C);
    if (I.nd > 0) {
      vwriteN(w, I.d[0], l, 0, uint32_t(Old));
      if (sizeof(T) == 8) vwriteN(w, I.d[0], l, 1, uint32_t(uint64_t(Old) >> 32));
    }
  });
}

} // namespace

void ds_read_u8(Wave &w, const Inst &I) { dsRead<1, false>(w, I); }
void ds_read_i8(Wave &w, const Inst &I) { dsRead<1, true>(w, I); }
void ds_read_u16(Wave &w, const Inst &I) { dsRead<2, false>(w, I); }
void ds_read_i16(Wave &w, const Inst &I) { dsRead<2, true>(w, I); }
void ds_read_b32(Wave &w, const Inst &I) { dsRead<4, false>(w, I); }
void ds_read_b64(Wave &w, const Inst &I) { dsRead<8, false>(w, I); }
void ds_read_b96(Wave &w, const Inst &I) { dsRead<12, false>(w, I); }
void ds_read_b128(Wave &w, const Inst &I) { dsRead<16, false>(w, I); }
void ds_read_d16_u16(Wave &w, const Inst &I) { dsReadD16<2, false, false>(w, I); }
void ds_read_d16_hi_u16(Wave &w, const Inst &I) { dsReadD16<2, true, false>(w, I); }
void ds_read_d16_u8(Wave &w, const Inst &I) { dsReadD16<1, false, false>(w, I); }
void ds_read_d16_hi_u8(Wave &w, const Inst &I) { dsReadD16<1, true, false>(w, I); }
void ds_read_d16_i8(Wave &w, const Inst &I) { dsReadD16<1, false, true>(w, I); }
void ds_read_d16_hi_i8(Wave &w, const Inst &I) { dsReadD16<1, true, true>(w, I); }
void ds_write_b8(Wave &w, const Inst &I) { dsWrite<1>(w, I); }
void ds_write_b8_d16_hi(Wave &w, const Inst &I) { dsWriteHi<1>(w, I); }
void ds_write_b16_d16_hi(Wave &w, const Inst &I) { dsWriteHi<2>(w, I); }
void ds_write_b16(Wave &w, const Inst &I) { dsWrite<2>(w, I); }
void ds_write_b32(Wave &w, const Inst &I) { dsWrite<4>(w, I); }
void ds_write_b64(Wave &w, const Inst &I) { dsWrite<8>(w, I); }
void ds_write_b96(Wave &w, const Inst &I) { dsWrite<12>(w, I); }
void ds_write_b128(Wave &w, const Inst &I) { dsWrite<16>(w, I); }
void ds_read2_b32(Wave &w, const Inst &I) { dsRead2<4, 1>(w, I); }
void ds_read2_b64(Wave &w, const Inst &I) { dsRead2<8, 1>(w, I); }
void ds_read2st64_b32(Wave &w, const Inst &I) { dsRead2<4, 64>(w, I); }
void ds_read2st64_b64(Wave &w, const Inst &I) { dsRead2<8, 64>(w, I); }
void ds_write2_b32(Wave &w, const Inst &I) { dsWrite2<4, 1>(w, I); }
void ds_write2_b64(Wave &w, const Inst &I) { dsWrite2<8, 1>(w, I); }
void ds_write2st64_b32(Wave &w, const Inst &I) { dsWrite2<4, 64>(w, I); }
void ds_write2st64_b64(Wave &w, const Inst &I) { dsWrite2<8, 64>(w, I); }

#define DSATOM(NAME, OP)                                                                           \
  void ds_##NAME##_u32(Wave &w, const Inst &I) { dsAtomic<uint32_t>(w, I, AtomicOp::OP); }         \
  void ds_##NAME##_u64(Wave &w, const Inst &I) { dsAtomic<uint64_t>(w, I, AtomicOp::OP); }
DSATOM(add, Add) DSATOM(sub, Sub) DSATOM(min, SMin) DSATOM(max, SMax) DSATOM(umin, UMin) DSATOM(umax, UMax)
DSATOM(and, And) DSATOM(or, Or) DSATOM(xor, Xor) DSATOM(inc, Inc) DSATOM(dec, Dec) DSATOM(swap, Swap)
void ds_add_f32(Wave &w, const Inst &I) { dsAtomic<uint32_t>(w, I, AtomicOp::FAdd); }
void ds_cmpst_b32(Wave &w, const Inst &I) { dsAtomic<uint32_t>(w, I, AtomicOp::CmpSwap, true); }
void ds_cmpst_b64(Wave &w, const Inst &I) { dsAtomic<uint64_t>(w, I, AtomicOp::CmpSwap, true); }
void ds_cmpstore_b32(Wave &w, const Inst &I) { dsAtomic<uint32_t>(w, I, AtomicOp::CmpSwap, false); }
void ds_cmpstore_b64(Wave &w, const Inst &I) { dsAtomic<uint64_t>(w, I, AtomicOp::CmpSwap, false); }
void ds_add_f64(Wave &w, const Inst &I) { dsAtomic<uint64_t>(w, I, AtomicOp::FAdd); }
void ds_min_f64(Wave &w, const Inst &I) { dsAtomic<uint64_t>(w, I, AtomicOp::FMin); }
void ds_max_f64(Wave &w, const Inst &I) { dsAtomic<uint64_t>(w, I, AtomicOp::FMax); }
void ds_min_f32(Wave &w, const Inst &I) { dsAtomic<uint32_t>(w, I, AtomicOp::FMin); }
void ds_max_f32(Wave &w, const Inst &I) { dsAtomic<uint32_t>(w, I, AtomicOp::FMax); }

void ds_bpermute_b32(Wave &w, const Inst &I) {
  uint64_t Exec = w.exec();
  uint32_t Tmp[64] = {};
  lanes(w, [&](unsigned l) {
    unsigned Src = ((vread32(w, I.s[0], l) + uint32_t(I.c[0])) / 4) % w.W;
    Tmp[l] = ((Exec >> Src) & 1) ? vread32(w, I.s[1], Src) : 0;
  });
  lanes(w, [&](unsigned l) { vwrite32(w, I.d[0], l, Tmp[l]); });
}
void ds_permute_b32(Wave &w, const Inst &I) {
  uint32_t Tmp[64] = {};
  lanes(w, [&](unsigned l) {
    unsigned Dst = ((vread32(w, I.s[0], l) + uint32_t(I.c[0])) / 4) % w.W;
    Tmp[Dst] = vread32(w, I.s[1], l);
  });
  lanes(w, [&](unsigned l) { vwrite32(w, I.d[0], l, Tmp[l]); });
}
void ds_swizzle_b32(Wave &w, const Inst &I) {
  uint32_t Off = uint32_t(I.c[0]) & 0xffff, Tmp[64] = {};
  uint64_t Exec = w.exec();
  lanes(w, [&](unsigned l) {
    unsigned Src;
    if (Off & 0x8000) Src = (l & ~3u) + ((Off >> (2 * (l & 3))) & 3);
    else {
      unsigned And = Off & 31, Or = (Off >> 5) & 31, Xor = (Off >> 10) & 31;
      Src = (l & ~31u) + ((((l & 31) & And) | Or) ^ Xor);
    }
    Tmp[l] = ((Exec >> Src) & 1) ? vread32(w, I.s[0], Src) : 0;
  });
  lanes(w, [&](unsigned l) { vwrite32(w, I.d[0], l, Tmp[l]); });
}
void ds_nop(Wave &, const Inst &) {}

} // namespace isaemu::detail

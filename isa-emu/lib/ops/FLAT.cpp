//===- FLAT.cpp - flat, global and scratch memory instructions -------------===//
//
// Address forms (from the MC operand order): flat/global vaddr64 + offset;
// global SADDR: saddr64 + vaddr32 (zero-extended) + offset; scratch: vaddr
// and/or saddr + offset, a per-lane private offset (swizzled scratch,
// Exec.cpp). Loads of bytes/shorts sign/zero-extend; D16 forms write one
// half and keep the other. Atomics are host atomics; RTN forms return the
// old value.
//
//===----------------------------------------------------------------------===//
#include "MemUtil.h"
#include "Ops.h"

namespace isaemu::detail {
namespace {

Space spaceOf(const Inst &I) {
  switch (I.row->name[0]) {
  case 'G': return Space::Global;
  case 'S': return Space::Private;
  default: return Space::Flat;
  }
}

// The instruction offset: global and scratch forms take a 13-bit signed offset,
// which LLVM's disassembler hands over as the raw field (offset:-16 is 8176).
int64_t instOffset(const Inst &I, Space Sp) {
  int64_t Off = I.nc >= 2 ? I.c[I.nc - 2] : 0;
  if (Sp != Space::Flat) Off = int64_t(uint64_t(Off) << 51) >> 51;
  return Off;
}

// Lane address; \p DataIdx receives the index of the first data source.
uint64_t laneAddr(const Wave &w, const Inst &I, unsigned l, bool Store, Space Sp) {
  int64_t Off = instOffset(I, Sp);
  if (Sp == Space::Private) {
    // Loads: [vaddr] [saddr]; stores: vdata [vaddr] [saddr].
    unsigned k = Store ? 1 : 0;
    uint64_t A = 0;
    if (!(I.flags & VSaddr) && !(I.flags & VSt)) A += vread32(w, I.s[k++], l);
    if ((I.flags & VSaddr) || (I.flags & VSvs)) A += sread32(w, I.s[k++]);
    return uint32_t(A + Off);
  }
  if (I.flags & VSaddr) {
    if (Store) return sread64(w, I.s[2]) + vread32(w, I.s[0], l) + Off;
    return sread64(w, I.s[0]) + vread32(w, I.s[1], l) + Off;
  }
  return vread64(w, I.s[0], l) + Off;
}

const Opnd &storeData(const Inst &I, Space Sp) { return Sp == Space::Private ? I.s[0] : I.s[1]; }

template <unsigned Bytes, bool Signed> void load(Wave &w, const Inst &I) {
  Space Sp = spaceOf(I);
  lanes(w, [&](unsigned l) {
    if (w.state == WaveState::Fault) return;
    uint32_t Buf[4] = {};
    if (!laneAccess(w, I, l, Sp, laneAddr(w, I, l, false, Sp), Buf, Bytes, false)) return;
    if (Bytes == 1) Buf[0] = Signed ? uint32_t(int32_t(int8_t(Buf[0]))) : Buf[0] & 0xff;
    if (Bytes == 2) Buf[0] = Signed ? uint32_t(int32_t(int16_t(Buf[0]))) : Buf[0] & 0xffff;
    for (unsigned k = 0; k < (Bytes + 3) / 4; ++k) vwriteN(w, I.d[0], l, k, Buf[k]);
  });
}
template <unsigned Bytes> void store(Wave &w, const Inst &I) {
  Space Sp = spaceOf(I);
  const Opnd &D = storeData(I, Sp);
  lanes(w, [&](unsigned l) {
    if (w.state == WaveState::Fault) return;
    uint32_t Buf[4];
    for (unsigned k = 0; k < (Bytes + 3) / 4; ++k) Buf[k] = vreadN(w, D, l, k);
    laneAccess(w, I, l, Sp, laneAddr(w, I, l, true, Sp), Buf, Bytes, true);
  });
}
template <unsigned Bytes, bool Hi, int Ext> void loadD16(Wave &w, const Inst &I) {
  Space Sp = spaceOf(I);
  lanes(w, [&](unsigned l) {
    if (w.state == WaveState::Fault) return;
    uint32_t V = 0;
    if (!laneAccess(w, I, l, Sp, laneAddr(w, I, l, false, Sp), &V, Bytes, false)) return;
    uint32_t &D = w.V[size_t(I.d[0].reg) * w.W + l];
    D = mergeD16(D, V, Bytes, Hi, Ext < 0);
  });
}
template <unsigned Bytes> void storeHi(Wave &w, const Inst &I) {
  Space Sp = spaceOf(I);
  const Opnd &D = storeData(I, Sp);
  lanes(w, [&](unsigned l) {
    if (w.state == WaveState::Fault) return;
    uint32_t V = vreadN(w, D, l, 0) >> 16;
    laneAccess(w, I, l, Sp, laneAddr(w, I, l, true, Sp), &V, Bytes, true);
  });
}

template <typename T> void atomic(Wave &w, const Inst &I, AtomicOp Op) {
  Space Sp = spaceOf(I);
  // Operands: [vdst] vaddr vdata [saddr]; with SADDR the address is saddr + vaddr32.
  lanes(w, [&](unsigned l) {
    if (w.state == WaveState::Fault) return;
    int64_t Off = instOffset(I, Sp);
    uint64_t A = (I.flags & VSaddr) ? sread64(w, I.s[2]) + vread32(w, I.s[0], l) + Off
                                    : vread64(w, I.s[0], l) + Off;
    uint8_t *P = atomicPtr(w, I, l, Sp, A, sizeof(T));
    if (!P) return;
    T V, C = 0;
    if constexpr (sizeof(T) == 4) {
      V = vreadN(w, I.s[1], l, 0);
      if (Op == AtomicOp::CmpSwap) C = vreadN(w, I.s[1], l, 1);
    } else {
      V = T(vreadN(w, I.s[1], l, 0)) | T(vreadN(w, I.s[1], l, 1)) << 32;
      if (Op == AtomicOp::CmpSwap) C = T(vreadN(w, I.s[1], l, 2)) | T(vreadN(w, I.s[1], l, 3)) << 32;
    }
    T Old = atomicRMW(reinterpret_cast<T *>(P), Op, V, C);
    if (I.flags & VRtn) {
      vwriteN(w, I.d[0], l, 0, uint32_t(Old));
      if (sizeof(T) == 8) vwriteN(w, I.d[0], l, 1, uint32_t(uint64_t(Old) >> 32));
    }
  });
}

} // namespace

void m_load_u8(Wave &w, const Inst &I) { load<1, false>(w, I); }
void m_load_i8(Wave &w, const Inst &I) { load<1, true>(w, I); }
void m_load_u16(Wave &w, const Inst &I) { load<2, false>(w, I); }
void m_load_i16(Wave &w, const Inst &I) { load<2, true>(w, I); }
void m_load_b32(Wave &w, const Inst &I) { load<4, false>(w, I); }
void m_load_b64(Wave &w, const Inst &I) { load<8, false>(w, I); }
void m_load_b96(Wave &w, const Inst &I) { load<12, false>(w, I); }
void m_load_b128(Wave &w, const Inst &I) { load<16, false>(w, I); }
void m_store_b8(Wave &w, const Inst &I) { store<1>(w, I); }
void m_store_b16(Wave &w, const Inst &I) { store<2>(w, I); }
void m_store_b32(Wave &w, const Inst &I) { store<4>(w, I); }
void m_store_b64(Wave &w, const Inst &I) { store<8>(w, I); }
void m_store_b96(Wave &w, const Inst &I) { store<12>(w, I); }
void m_store_b128(Wave &w, const Inst &I) { store<16>(w, I); }
void m_load_d16_b16(Wave &w, const Inst &I) { loadD16<2, false, 0>(w, I); }
void m_load_d16_hi_b16(Wave &w, const Inst &I) { loadD16<2, true, 0>(w, I); }
void m_load_d16_u8(Wave &w, const Inst &I) { loadD16<1, false, 0>(w, I); }
void m_load_d16_hi_u8(Wave &w, const Inst &I) { loadD16<1, true, 0>(w, I); }
void m_load_d16_i8(Wave &w, const Inst &I) { loadD16<1, false, -1>(w, I); }
void m_load_d16_hi_i8(Wave &w, const Inst &I) { loadD16<1, true, -1>(w, I); }
void m_store_d16_hi_b8(Wave &w, const Inst &I) { storeHi<1>(w, I); }
void m_store_d16_hi_b16(Wave &w, const Inst &I) { storeHi<2>(w, I); }

#define ATOM(NAME, OP)                                                                             \
  void m_atomic_##NAME(Wave &w, const Inst &I) { atomic<uint32_t>(w, I, AtomicOp::OP); }           \
  void m_atomic_##NAME##_x2(Wave &w, const Inst &I) { atomic<uint64_t>(w, I, AtomicOp::OP); }
ATOM(swap, Swap) ATOM(cmpswap, CmpSwap) ATOM(add, Add) ATOM(sub, Sub) ATOM(smin, SMin) ATOM(umin, UMin)
ATOM(smax, SMax) ATOM(umax, UMax) ATOM(and, And) ATOM(or, Or) ATOM(xor, Xor) ATOM(inc, Inc) ATOM(dec, Dec)
ATOM(add_f32, FAdd) ATOM(fmin, FMin) ATOM(fmax, FMax)
void m_atomic_pk_add_f16(Wave &w, const Inst &I) { atomic<uint32_t>(w, I, AtomicOp::PkAddF16); }
void m_atomic_pk_add_bf16(Wave &w, const Inst &I) { atomic<uint32_t>(w, I, AtomicOp::PkAddBF16); }
void m_atomic_add_f64(Wave &w, const Inst &I) { atomic<uint64_t>(w, I, AtomicOp::FAdd); }

void cache_nop(Wave &, const Inst &) {} // buffer_gl0_inv / buffer_wbinvl1 / global_wb... (coherent model)

} // namespace isaemu::detail

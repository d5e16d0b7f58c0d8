//===- MUBUF.cpp - buffer loads/stores through a V# (scratch on gfx9) ------===//
//
// Address = V#.base + soffset + buffer_offset, where with ADD_TID_ENABLE
// the index is the lane id and the swizzle (INDEX_STRIDE lanes, ELEMENT_SIZE
// bytes) applies as the ISA guides define:
//   buffer_offset = (index_msb * stride + offset / esize * esize) * index_stride
//                   + index_lsb * esize + offset % esize
// Without ADD_TID_ENABLE: base + soffset + index * stride + offset (raw
// buffers), with num_records range checking (out-of-range loads return 0,
// stores are dropped).
//
//===----------------------------------------------------------------------===//
#include "MemUtil.h"
#include "Ops.h"

namespace isaemu::detail {
namespace {

struct Rsrc {
  uint64_t base;
  uint32_t stride, numRecords;
  bool addTid, swizzle;
  unsigned esize, istride;
};

Rsrc rsrc(const Wave &w, const Opnd &o) {
  uint32_t D[4];
  for (unsigned k = 0; k < 4; ++k) D[k] = w.S[(o.reg + k) & 127];
  Rsrc R;
  R.base = D[0] | uint64_t(D[1] & 0xffff) << 32;
  R.stride = (D[1] >> 16) & 0x3fff;
  R.swizzle = D[1] >> 31;
  R.numRecords = D[2];
  R.addTid = (D[3] >> 23) & 1;
  R.esize = 2u << ((D[3] >> 19) & 3);
  R.istride = 8u << ((D[3] >> 21) & 3);
  return R;
}

// Operand layout: loads  d0 [vaddr] srsrc soffset; stores vdata [vaddr] srsrc soffset.
template <unsigned Bytes, bool Store, bool Signed = false> void access(Wave &w, const Inst &I) {
  bool HasV = I.flags & (VOffen | VIdxen);
  unsigned k = Store ? 1 : 0;
  const Opnd *VAddr = HasV ? &I.s[k++] : nullptr;
  Rsrc R = rsrc(w, I.s[k++]);
  uint32_t SOff = sread32(w, I.s[k++]);
  int64_t Imm = I.nc >= 1 ? I.c[0] : 0;
  lanes(w, [&](unsigned l) {
    if (w.state == WaveState::Fault) return;
    uint32_t Index = 0, Offset = uint32_t(Imm);
    if (I.flags & VIdxen) Index = vreadN(w, *VAddr, l, 0);
    if (I.flags & VOffen) Offset += vreadN(w, *VAddr, l, (I.flags & VIdxen) ? 1 : 0);
    uint32_t Buf[4] = {};
    if (Store)
      for (unsigned q = 0; q < (Bytes + 3) / 4; ++q) Buf[q] = vreadN(w, I.s[0], l, q);
    for (unsigned b = 0; b < Bytes; b += 4) {
      unsigned n = std::min(4u, Bytes - b);
      uint32_t Off = Offset + b;
      uint64_t A;
      if (R.addTid) {
        uint32_t Idx = Index + l;
        uint64_t BO = (uint64_t(Idx / R.istride) * R.stride + Off / R.esize * R.esize) * R.istride +
                      (Idx % R.istride) * R.esize + Off % R.esize;
        A = R.base + SOff + BO;
        // Scratch through the private segment buffer: only this wave's region.
        if (A < w.privBase || A + n > w.privBase + uint64_t(w.privBytes) * w.W) {
          raiseFault(w, I, ::support::FaultKind::MemoryFault, "scratch (buffer) access outside the wave's private segment", int(l), A, true);
          return;
        }
      } else {
        uint64_t BO = uint64_t(Index) * R.stride + Off;
        bool InRange = R.stride ? Index < R.numRecords : BO + n <= R.numRecords;
        if (!InRange) continue; // out of range: load 0 / store dropped
        A = R.base + SOff + BO;
      }
      if (!laneAccess(w, I, l, Space::Global, A, reinterpret_cast<uint8_t *>(Buf) + b, n, Store)) return;
    }
    if (!Store) {
      if (Bytes == 1) Buf[0] = Signed ? uint32_t(int32_t(int8_t(Buf[0]))) : Buf[0] & 0xff;
      if (Bytes == 2) Buf[0] = Signed ? uint32_t(int32_t(int16_t(Buf[0]))) : Buf[0] & 0xffff;
      for (unsigned q = 0; q < (Bytes + 3) / 4; ++q) vwriteN(w, I.d[0], l, q, Buf[q]);
    }
  });
}

} // namespace

void buf_load_u8(Wave &w, const Inst &I) { access<1, false>(w, I); }
void buf_load_i8(Wave &w, const Inst &I) { access<1, false, true>(w, I); }
void buf_load_u16(Wave &w, const Inst &I) { access<2, false>(w, I); }
void buf_load_i16(Wave &w, const Inst &I) { access<2, false, true>(w, I); }
void buf_load_b32(Wave &w, const Inst &I) { access<4, false>(w, I); }
void buf_load_b64(Wave &w, const Inst &I) { access<8, false>(w, I); }
void buf_load_b96(Wave &w, const Inst &I) { access<12, false>(w, I); }
void buf_load_b128(Wave &w, const Inst &I) { access<16, false>(w, I); }
void buf_store_b8(Wave &w, const Inst &I) { access<1, true>(w, I); }
void buf_store_b16(Wave &w, const Inst &I) { access<2, true>(w, I); }
void buf_store_b32(Wave &w, const Inst &I) { access<4, true>(w, I); }
void buf_store_b64(Wave &w, const Inst &I) { access<8, true>(w, I); }
void buf_store_b96(Wave &w, const Inst &I) { access<12, true>(w, I); }
void buf_store_b128(Wave &w, const Inst &I) { access<16, true>(w, I); }

} // namespace isaemu::detail

//===- SOP2.cpp - scalar ALU, two sources (s_add_u32, s_and_b64, s_cselect...) ===//
//
// Semantics from the RDNA3 / CDNA2 ISA guides: 32/64-bit integer arithmetic,
// logic, shifts, bit-field ops and selects on SGPRs / inline constants /
// literals; SCC is the carry, the borrow, "result != 0" or the compare as
// each opcode defines.
//
//===----------------------------------------------------------------------===//
#include "Ops.h"

namespace isaemu::detail {

#define S32(NAME, EXPR, SCC)                                                                       \
  void NAME(Wave &w, const Inst &I) {                                                              \
    uint32_t a = sread32(w, I.s[0]), b = sread32(w, I.s[1]);                                       \
    (void)a; (void)b;                                                                              \
    uint32_t r = (EXPR);                                                                           \
    SCC;                                                                                           \
    swrite32(w, I.d[0], r);                                                                        \
  }
#define S64(NAME, EXPR, SCC)                                                                       \
  void NAME(Wave &w, const Inst &I) {                                                              \
    uint64_t a = sread64(w, I.s[0]), b = sread64(w, I.s[1]);                                       \
    (void)a; (void)b;                                                                              \
    uint64_t r = (EXPR);                                                                           \
    SCC;                                                                                           \
    swrite64(w, I.d[0], r);                                                                        \
  }
#define NZ w.scc = r != 0

S32(s_add_u32, a + b, w.scc = r < a)
S32(s_addc_u32, a + b + w.scc, w.scc = (uint64_t(a) + b + w.scc) >> 32)
S32(s_sub_u32, a - b, w.scc = b > a)
S32(s_subb_u32, a - b - w.scc, w.scc = uint64_t(b) + w.scc > a)
S32(s_add_i32, a + b, w.scc = ((~(a ^ b)) & (a ^ r)) >> 31)
S32(s_sub_i32, a - b, w.scc = ((a ^ b) & (a ^ r)) >> 31)
S32(s_mul_i32, a * b, (void)0)
S32(s_mul_hi_u32, uint32_t((uint64_t(a) * b) >> 32), (void)0)
S32(s_mul_hi_i32, uint32_t((int64_t(int32_t(a)) * int32_t(b)) >> 32), (void)0)
S32(s_and_b32, a & b, NZ)
S32(s_or_b32, a | b, NZ)
S32(s_xor_b32, a ^ b, NZ)
S32(s_andn2_b32, a & ~b, NZ)
S32(s_orn2_b32, a | ~b, NZ)
S32(s_nand_b32, ~(a & b), NZ)
S32(s_nor_b32, ~(a | b), NZ)
S32(s_xnor_b32, ~(a ^ b), NZ)
S64(s_and_b64, a & b, NZ)
S64(s_or_b64, a | b, NZ)
S64(s_xor_b64, a ^ b, NZ)
S64(s_andn2_b64, a & ~b, NZ)
S64(s_orn2_b64, a | ~b, NZ)
S64(s_nand_b64, ~(a & b), NZ)
S64(s_nor_b64, ~(a | b), NZ)
S64(s_xnor_b64, ~(a ^ b), NZ)
S32(s_lshl_b32, a << (b & 31), NZ)
S32(s_lshr_b32, a >> (b & 31), NZ)
S32(s_ashr_i32, uint32_t(int32_t(a) >> (b & 31)), NZ)
S32(s_lshl1_add_u32, (a << 1) + b, w.scc = ((uint64_t(a) << 1) + b) >> 32)
S32(s_lshl2_add_u32, (a << 2) + b, w.scc = ((uint64_t(a) << 2) + b) >> 32)
S32(s_lshl3_add_u32, (a << 3) + b, w.scc = ((uint64_t(a) << 3) + b) >> 32)
S32(s_lshl4_add_u32, (a << 4) + b, w.scc = ((uint64_t(a) << 4) + b) >> 32)
S32(s_min_i32, int32_t(a) < int32_t(b) ? a : b, w.scc = int32_t(a) < int32_t(b))
S32(s_min_u32, a < b ? a : b, w.scc = a < b)
S32(s_max_i32, int32_t(a) > int32_t(b) ? a : b, w.scc = int32_t(a) > int32_t(b))
S32(s_max_u32, a > b ? a : b, w.scc = a > b)
S32(s_cselect_b32, w.scc ? a : b, (void)0)
S64(s_cselect_b64, w.scc ? a : b, (void)0)
S32(s_bfm_b32, ((1u << (a & 31)) - 1) << (b & 31), (void)0)
S32(s_bfe_u32, ((b >> 16) & 127) == 0 ? 0 : (a >> (b & 31)) & (((b >> 16) & 127) >= 32 ? ~0u : ((1u << ((b >> 16) & 127)) - 1)), NZ)
S32(s_bfe_i32, ((b >> 16) & 127) == 0 ? 0 : uint32_t(int32_t(a << (32 - std::min(32u, ((b >> 16) & 127) + (b & 31)))) >> (32 - std::min(32u, (b >> 16) & 127))), NZ)
S32(s_absdiff_i32, int32_t(a) > int32_t(b) ? a - b : b - a, NZ)
S32(s_pack_ll_b32_b16, (a & 0xffff) | (b << 16), (void)0)
S32(s_pack_lh_b32_b16, (a & 0xffff) | (b & 0xffff0000u), (void)0)
S32(s_pack_hh_b32_b16, (a >> 16) | (b & 0xffff0000u), (void)0)

void s_lshl_b64(Wave &w, const Inst &I) {
  uint64_t r = sread64(w, I.s[0]) << (sread32(w, I.s[1]) & 63);
  w.scc = r != 0;
  swrite64(w, I.d[0], r);
}
void s_lshr_b64(Wave &w, const Inst &I) {
  uint64_t r = sread64(w, I.s[0]) >> (sread32(w, I.s[1]) & 63);
  w.scc = r != 0;
  swrite64(w, I.d[0], r);
}
void s_ashr_i64(Wave &w, const Inst &I) {
  uint64_t r = uint64_t(int64_t(sread64(w, I.s[0])) >> (sread32(w, I.s[1]) & 63));
  w.scc = r != 0;
  swrite64(w, I.d[0], r);
}
void s_bfm_b64(Wave &w, const Inst &I) {
  uint32_t a = sread32(w, I.s[0]) & 63, b = sread32(w, I.s[1]) & 63;
  swrite64(w, I.d[0], ((a == 64 ? ~0ull : (1ull << a) - 1)) << b);
}
void s_bfe_u64(Wave &w, const Inst &I) {
  uint64_t a = sread64(w, I.s[0]);
  uint32_t b = sread32(w, I.s[1]), off = b & 63, wd = (b >> 16) & 127;
  uint64_t r = wd == 0 ? 0 : (a >> off) & (wd >= 64 ? ~0ull : (1ull << wd) - 1);
  w.scc = r != 0;
  swrite64(w, I.d[0], r);
}

// s_bfe_i64: the field of width S1[22:16] at offset S1[5:0], sign-extended from its top bit.
void s_bfe_i64(Wave &w, const Inst &I) {
  uint64_t a = sread64(w, I.s[0]);
  uint32_t b = sread32(w, I.s[1]), off = b & 63, wd = (b >> 16) & 127;
  uint64_t r = 0;
  if (wd != 0) {
    r = uint64_t(int64_t(a) >> off);
    if (wd < 64) {
      uint64_t M = (1ull << wd) - 1;
      r &= M;
      if ((r >> (wd - 1)) & 1) r |= ~M;
    }
  }
  w.scc = r != 0;
  swrite64(w, I.d[0], r);
}

} // namespace isaemu::detail

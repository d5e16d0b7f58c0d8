//===- SOPC.cpp - scalar compares (SCC = s0 op s1) -------------------------===//
#include "Ops.h"

namespace isaemu::detail {

#define C32(NAME, T, OP)                                                                           \
  void NAME(Wave &w, const Inst &I) { w.scc = T(sread32(w, I.s[0])) OP T(sread32(w, I.s[1])); }
#define C64(NAME, OP)                                                                              \
  void NAME(Wave &w, const Inst &I) { w.scc = sread64(w, I.s[0]) OP sread64(w, I.s[1]); }
C32(s_cmp_eq_i32, int32_t, ==) C32(s_cmp_lg_i32, int32_t, !=) C32(s_cmp_gt_i32, int32_t, >)
C32(s_cmp_ge_i32, int32_t, >=) C32(s_cmp_lt_i32, int32_t, <) C32(s_cmp_le_i32, int32_t, <=)
C32(s_cmp_eq_u32, uint32_t, ==) C32(s_cmp_lg_u32, uint32_t, !=) C32(s_cmp_gt_u32, uint32_t, >)
C32(s_cmp_ge_u32, uint32_t, >=) C32(s_cmp_lt_u32, uint32_t, <) C32(s_cmp_le_u32, uint32_t, <=)
C64(s_cmp_eq_u64, ==) C64(s_cmp_lg_u64, !=)
void s_bitcmp0_b32(Wave &w, const Inst &I) { w.scc = !((sread32(w, I.s[0]) >> (sread32(w, I.s[1]) & 31)) & 1); }
void s_bitcmp1_b32(Wave &w, const Inst &I) { w.scc = (sread32(w, I.s[0]) >> (sread32(w, I.s[1]) & 31)) & 1; }
void s_bitcmp0_b64(Wave &w, const Inst &I) { w.scc = !((sread64(w, I.s[0]) >> (sread32(w, I.s[1]) & 63)) & 1); }
void s_bitcmp1_b64(Wave &w, const Inst &I) { w.scc = (sread64(w, I.s[0]) >> (sread32(w, I.s[1]) & 63)) & 1; }

} // namespace isaemu::detail

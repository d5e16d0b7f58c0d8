/*===- warp.c - PTX warp-level operations (shfl/vote/match/redux/elect) ----===*
 *
 * Implements the warp functions of ptx_devlib.h for the three variants. A
 * warp is 32 CUDA lanes: the whole wave32, a half of a wave64 (pack), or the
 * low half of a wave64 whose upper half is idle (pad). Every operation works
 * on CUDA lane masks of that warp (wave.h) and honours membermask: only
 * threads that are both in membermask and active take part. (AMD waves
 * execute in lockstep, so a thread of membermask that is not active at the
 * call cannot be waited for; PTX makes that case undefined.)
 * Cross-lane reads use ds_bpermute, reductions the llvm.amdgcn.wave.reduce
 * intrinsics on values masked per warp (each pack half reduced separately).
 *===----------------------------------------------------------------------===*/
#include "wave.h"

/* ---- shfl.sync ---------------------------------------------------------- */
static inline uint64_t shfl_result(uint32_t a, uint32_t j, int pval) {
  uint32_t lane = lane_id();
  uint32_t src = pval ? (j & 31u) : lane;
  uint32_t d = warp_read(a, src);
  return (uint64_t)d | ((uint64_t)(pval ? 1u : 0u) << 32);
}

uint64_t __ptx_shfl_sync_up(uint32_t membermask, uint32_t a, uint32_t b, uint32_t c) {
  (void)membermask;
  int lane = (int)lane_id();
  int segmask = (int)((c >> 8) & 31u), clamp = (int)(c & 31u);
  int maxLane = (lane & segmask) | (clamp & ~segmask);
  int j = lane - (int)(b & 31u);
  return shfl_result(a, (uint32_t)j, j >= maxLane);
}

uint64_t __ptx_shfl_sync_down(uint32_t membermask, uint32_t a, uint32_t b, uint32_t c) {
  (void)membermask;
  int lane = (int)lane_id();
  int segmask = (int)((c >> 8) & 31u), clamp = (int)(c & 31u);
  int maxLane = (lane & segmask) | (clamp & ~segmask);
  int j = lane + (int)(b & 31u);
  return shfl_result(a, (uint32_t)j, j <= maxLane);
}

uint64_t __ptx_shfl_sync_bfly(uint32_t membermask, uint32_t a, uint32_t b, uint32_t c) {
  (void)membermask;
  int lane = (int)lane_id();
  int segmask = (int)((c >> 8) & 31u), clamp = (int)(c & 31u);
  int maxLane = (lane & segmask) | (clamp & ~segmask);
  int j = lane ^ (int)(b & 31u);
  return shfl_result(a, (uint32_t)j, j <= maxLane);
}

uint64_t __ptx_shfl_sync_idx(uint32_t membermask, uint32_t a, uint32_t b, uint32_t c) {
  (void)membermask;
  int lane = (int)lane_id();
  int segmask = (int)((c >> 8) & 31u), clamp = (int)(c & 31u);
  int maxLane = (lane & segmask) | (clamp & ~segmask);
  int minLane = lane & segmask;
  int j = minLane | ((int)(b & 31u) & ~segmask);
  return shfl_result(a, (uint32_t)j, j <= maxLane);
}

/* ---- vote.sync ---------------------------------------------------------- */
uint32_t __ptx_vote_sync_ballot(uint32_t membermask, uint32_t pred) {
  return warp_ballot(pred) & membermask;
}
uint32_t __ptx_vote_sync_any(uint32_t membermask, uint32_t pred) {
  return (warp_ballot(pred) & membermask) != 0u;
}
uint32_t __ptx_vote_sync_all(uint32_t membermask, uint32_t pred) {
  uint32_t part = warp_active() & membermask;
  return (warp_ballot(pred) & part) == part;
}
uint32_t __ptx_vote_sync_uni(uint32_t membermask, uint32_t pred) {
  uint32_t part = warp_active() & membermask;
  uint32_t t = warp_ballot(pred) & part;
  return t == 0u || t == part;
}

/* ---- activemask / elect / bar.warp.sync --------------------------------- */
uint32_t __ptx_activemask(void) { return warp_active(); }

uint64_t __ptx_elect_sync(uint32_t membermask) {
  uint32_t part = warp_active() & membermask;
  uint32_t leader = part ? ctz32(part) : 0u;
  uint32_t p = (part != 0u) && lane_id() == leader;
  return (uint64_t)leader | ((uint64_t)p << 32);
}

/* Lanes of a warp execute in lockstep on AMD, so the threads of membermask
 * that reach this point together are already converged; what remains is the
 * memory ordering among them (PTX: bar.warp.sync orders memory). */
void __ptx_bar_warp_sync(uint32_t membermask) {
  (void)membermask;
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "wavefront");
  __builtin_amdgcn_wave_barrier();
}

/* ---- match.sync --------------------------------------------------------- */
/* Peel off one distinct value per iteration: the lowest participating lane
 * still unmatched broadcasts its value; every lane holding it records the
 * ballot of equal lanes. Divergent per pack half, hence bpermute (not
 * readlane, whose lane index must be wave-uniform). */
uint32_t __ptx_match_any_sync_b32(uint32_t membermask, uint32_t a) {
  uint32_t part = warp_active() & membermask;
  uint32_t rem = part, result = 0u;
  while (rem) {
    uint32_t v = warp_read(a, ctz32(rem));
    uint32_t eq = warp_ballot(a == v) & part;
    if (a == v) result = eq;
    rem &= ~eq;
  }
  return result;
}

uint32_t __ptx_match_any_sync_b64(uint32_t membermask, uint64_t a) {
  uint32_t part = warp_active() & membermask;
  uint32_t rem = part, result = 0u;
  uint32_t lo = (uint32_t)a, hi = (uint32_t)(a >> 32);
  while (rem) {
    uint32_t src = ctz32(rem);
    uint32_t vlo = warp_read(lo, src), vhi = warp_read(hi, src);
    int same = lo == vlo && hi == vhi;
    uint32_t eq = warp_ballot(same) & part;
    if (same) result = eq;
    rem &= ~eq;
  }
  return result;
}

uint64_t __ptx_match_all_sync_b32(uint32_t membermask, uint32_t a) {
  uint32_t part = warp_active() & membermask;
  uint32_t v = warp_read(a, part ? ctz32(part) : lane_id());
  uint32_t eq = warp_ballot(a == v) & part;
  uint32_t all = eq == part;
  return all ? ((uint64_t)membermask | (1ull << 32)) : 0ull;
}

uint64_t __ptx_match_all_sync_b64(uint32_t membermask, uint64_t a) {
  uint32_t part = warp_active() & membermask;
  uint32_t src = part ? ctz32(part) : lane_id();
  uint32_t lo = (uint32_t)a, hi = (uint32_t)(a >> 32);
  int same = lo == warp_read(lo, src) && hi == warp_read(hi, src);
  uint32_t eq = warp_ballot(same) & part;
  uint32_t all = eq == part;
  return all ? ((uint64_t)membermask | (1ull << 32)) : 0ull;
}

/* ---- redux.sync --------------------------------------------------------- */
/* Each lane contributes `a` if it participates, else the identity; the
 * wave-wide reduction (over active lanes) then equals the warp reduction.
 * Under pack both halves are reduced and each lane takes its own half's. */
#if PTX_WAVE64 && !PTX_PAD
#define REDUX(NAME, INTR, IDENT)                                                 \
  uint32_t __ptx_redux_sync_##NAME(uint32_t membermask, uint32_t a) {            \
    int in = (membermask >> lane_id()) & 1u;                                     \
    uint32_t upper = warp_base() != 0u;                                          \
    uint32_t lo = __builtin_amdgcn_wave_reduce_##INTR((in && !upper) ? a : (IDENT), 0); \
    uint32_t hi = __builtin_amdgcn_wave_reduce_##INTR((in && upper) ? a : (IDENT), 0);  \
    return upper ? hi : lo;                                                      \
  }
#else
#define REDUX(NAME, INTR, IDENT)                                                 \
  uint32_t __ptx_redux_sync_##NAME(uint32_t membermask, uint32_t a) {            \
    int in = (membermask >> lane_id()) & 1u;                                     \
    return __builtin_amdgcn_wave_reduce_##INTR(in ? a : (IDENT), 0);             \
  }
#endif
REDUX(add, add_u32, 0u)
REDUX(min, min_i32, 0x7fffffffu)
REDUX(max, max_i32, 0x80000000u)
REDUX(umin, min_u32, 0xffffffffu)
REDUX(umax, max_u32, 0u)
REDUX(and, and_b32, 0xffffffffu)
REDUX(or, or_b32, 0u)
REDUX(xor, xor_b32, 0u)

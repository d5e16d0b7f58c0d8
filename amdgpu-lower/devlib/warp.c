/*===- warp.c - PTX warp-level operations (shfl/vote/match/redux/elect) ----===*
 *
 * Implements the warp functions of ptx_devlib.h for the three variants. A
 * warp is 32 CUDA lanes: the whole wave32, a half of a wave64 (pack), or the
 * low half of a wave64 whose upper half is idle (pad). Every operation works
 * on CUDA lane masks of that warp (wave.h) and honours membermask: only
 * threads that are both in membermask and active take part. (AMD waves
 * execute in lockstep, so a thread of membermask that is not active at the
 * call cannot be waited for; PTX makes that case undefined.)
 * Cross-lane reads use ds_bpermute (reductions too: a butterfly for a full
 * warp, a fold over the participating lanes otherwise).
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
/* Whole warp participating (the common membermask 0xffffffff, no divergence):
 * a 5-step butterfly of cross-lane reads. Otherwise the participating lanes
 * fold the values of exactly the participating lanes, lowest first (they are
 * all active, so every read is defined). Each pack half runs its own warp. */
#define REDUX(NAME, OP)                                                           \
  uint32_t __ptx_redux_sync_##NAME(uint32_t membermask, uint32_t a) {             \
    uint32_t part = warp_active() & membermask;                                   \
    if (part == 0xffffffffu) {                                                    \
      uint32_t v = a, lane = lane_id();                                           \
      for (uint32_t k = 16; k; k >>= 1) {                                         \
        uint32_t o = warp_read(v, lane ^ k);                                      \
        v = OP(v, o);                                                             \
      }                                                                           \
      return v;                                                                   \
    }                                                                             \
    uint32_t r = warp_read(a, ctz32(part));                                       \
    for (uint32_t rem = part & (part - 1u); rem; rem &= rem - 1u) {               \
      uint32_t o = warp_read(a, ctz32(rem));                                      \
      r = OP(r, o);                                                               \
    }                                                                             \
    return r;                                                                     \
  }
#define OP_ADD(x, y) ((x) + (y))
#define OP_MIN(x, y) ((int32_t)(x) < (int32_t)(y) ? (x) : (y))
#define OP_MAX(x, y) ((int32_t)(x) > (int32_t)(y) ? (x) : (y))
#define OP_UMIN(x, y) ((x) < (y) ? (x) : (y))
#define OP_UMAX(x, y) ((x) > (y) ? (x) : (y))
#define OP_AND(x, y) ((x) & (y))
#define OP_OR(x, y) ((x) | (y))
#define OP_XOR(x, y) ((x) ^ (y))
REDUX(add, OP_ADD)
REDUX(min, OP_MIN)
REDUX(max, OP_MAX)
REDUX(umin, OP_UMIN)
REDUX(umax, OP_UMAX)
REDUX(and, OP_AND)
REDUX(or, OP_OR)
REDUX(xor, OP_XOR)

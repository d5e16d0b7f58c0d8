/*===- barrier.c - PTX CTA barriers: bar/barrier sync, arrive, red ----------===*
 *
 * `bar.sync 0` over the whole CTA (no thread count) is the hardware
 * s_barrier, which counts waves: correct for every policy because the
 * work-group is exactly the CTA's warps (pad adds only idle lanes, never
 * extra waves). Named barriers 1..15, explicit thread counts and
 * bar.arrive have no AMD hardware equivalent; they are software barriers on
 * per-id LDS counters (sense/generation counting, one arrival of 32 per
 * warp, as PTX counts warps). bar.red reduces through an LDS accumulator
 * between two barriers (add, barrier, read, barrier, subtract own part, so
 * the accumulator is back to zero before the next use).
 * LDS is not zeroed at launch: amdgpu-lower inserts a call to
 * __ptx2amd_barrier_init at the entry of every kernel that can reach the
 * software paths (thread 0 zeroes the state, then s_barrier).
 *===----------------------------------------------------------------------===*/
#include "wave.h"
#include "support/DevlibNames.h"

struct sw_barrier_state {
  uint32_t count[16]; /* threads arrived in the current phase */
  uint32_t gen[16];   /* phase generation                     */
  uint32_t red[16];   /* bar.red accumulators                 */
};
static LDS struct sw_barrier_state __ptx2amd_bar;

void PTX2AMD_BARRIER_INIT(void) {
  if (cuda_linear_tid() == 0u) {
    for (int i = 0; i < 16; ++i) {
      __ptx2amd_bar.count[i] = 0u;
      __ptx2amd_bar.gen[i] = 0u;
      __ptx2amd_bar.red[i] = 0u;
    }
  }
  wg_release();
  __builtin_amdgcn_s_barrier();
  wg_acquire();
}

static inline void hw_barrier(void) {
  wg_release();
  __builtin_amdgcn_s_barrier();
  wg_acquire();
}

/* One warp arrives at software barrier `id` expecting `n` threads and, when
 * `wait`, spins until that phase completes. Completion (by the last arriving
 * warp) happens before any waiting and outside the wait branch: under pack
 * the two warp leaders of a wave may be the completer and a waiter, and a
 * wave runs divergent branches one at a time, so a waiter must never hold
 * the completer back. The count drops by n (not to 0) so an early arrival
 * for the next phase (a bar.arrive warp that did not wait) is kept. */
static void sw_arrive(uint32_t id, uint32_t n, int wait) {
  wg_release();
  int leader = is_warp_leader();
  uint32_t g = 0;
  if (leader) {
    g = __scoped_atomic_load_n(&__ptx2amd_bar.gen[id], __ATOMIC_ACQUIRE, __MEMORY_SCOPE_WRKGRP);
    uint32_t old = __scoped_atomic_fetch_add(&__ptx2amd_bar.count[id], 32u, __ATOMIC_ACQ_REL,
                                             __MEMORY_SCOPE_WRKGRP);
    if (old + 32u == n) {
      __scoped_atomic_fetch_sub(&__ptx2amd_bar.count[id], n, __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP);
      __scoped_atomic_fetch_add(&__ptx2amd_bar.gen[id], 1u, __ATOMIC_RELEASE, __MEMORY_SCOPE_WRKGRP);
    }
  }
  if (leader && wait) {
    while (__scoped_atomic_load_n(&__ptx2amd_bar.gen[id], __ATOMIC_ACQUIRE, __MEMORY_SCOPE_WRKGRP) == g)
      __builtin_amdgcn_s_sleep(1);
  }
  __builtin_amdgcn_wave_barrier();
  wg_acquire();
}

static inline int use_hw(uint32_t id, uint32_t n) { return id == 0u && n == 0u; }

/* n == 0 on a named barrier: every thread of the CTA participates. */
static inline uint32_t cta_threads(void) {
  return __ptx_sreg_ntid_x() * __ptx_sreg_ntid_y() * __ptx_sreg_ntid_z();
}
static inline uint32_t expected(uint32_t n) {
  uint32_t t = n ? n : cta_threads();
  return (t + 31u) & ~31u;
}

void __ptx_bar_sync(uint32_t id, uint32_t nthreads) {
  if (use_hw(id, nthreads)) {
    hw_barrier();
    return;
  }
  sw_arrive(id & 15u, expected(nthreads), 1);
}

void __ptx_bar_arrive(uint32_t id, uint32_t nthreads) {
  sw_arrive(id & 15u, expected(nthreads), 0);
}

static uint32_t bar_red_count(uint32_t id, uint32_t nthreads, uint32_t pred) {
  id &= 15u;
  uint32_t mine = popc32(warp_ballot(pred));
  int leader = is_warp_leader();
  if (leader)
    __scoped_atomic_fetch_add(&__ptx2amd_bar.red[id], mine, __ATOMIC_RELAXED,
                           __MEMORY_SCOPE_WRKGRP);
  __ptx_bar_sync(id, nthreads);
  uint32_t total = __scoped_atomic_load_n(&__ptx2amd_bar.red[id], __ATOMIC_RELAXED,
                                     __MEMORY_SCOPE_WRKGRP);
  __ptx_bar_sync(id, nthreads);
  if (leader)
    __scoped_atomic_fetch_sub(&__ptx2amd_bar.red[id], mine, __ATOMIC_RELAXED,
                           __MEMORY_SCOPE_WRKGRP);
  return total;
}


uint32_t __ptx_bar_red_popc(uint32_t id, uint32_t nthreads, uint32_t pred) {
  return bar_red_count(id, nthreads, pred);
}
uint32_t __ptx_bar_red_or(uint32_t id, uint32_t nthreads, uint32_t pred) {
  return bar_red_count(id, nthreads, pred) != 0u;
}
uint32_t __ptx_bar_red_and(uint32_t id, uint32_t nthreads, uint32_t pred) {
  /* and == "no participating thread has p == 0" */
  return bar_red_count(id, nthreads, !pred) == 0u;
}

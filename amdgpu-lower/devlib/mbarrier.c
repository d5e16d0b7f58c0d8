/*===- mbarrier.c - PTX mbarrier objects (phase / arrival / tx-count) -------===*
 *
 * A PTX mbarrier is an opaque 64-bit object in shared memory. ptx2amd keeps
 * its whole state in that one word and updates it with 64-bit LDS
 * compare-and-swap loops, so every operation is one atomic step of the PTX
 * state machine (PTX ISA "Parallel Synchronization and Communication
 * Instructions: mbarrier"):
 *   bits  0..19  pending arrival count of the current phase
 *   bits 20..39  expected arrival count (reloaded into pending at each phase
 *                completion; arrive_drop lowers it)
 *   bits 40..61  tx-count, signed 22-bit (complete_tx may run before expect_tx)
 *   bit  63      parity of the current phase
 * The current phase completes when pending == 0 and tx-count == 0; then the
 * parity flips, pending := expected, tx-count := 0. init sets phase 0,
 * pending = expected = count, tx-count = 0.
 * The opaque `state` returned by arrive is the phase parity before the
 * arrival in bit 63 plus the pending count right after the arrival in bits
 * 0..19 (what pending_count reports). test_wait(state) is true once the
 * current parity differs from the state's; test_wait.parity(p) once it
 * differs from p (the phase with parity p has completed).
 * Arrivals are release operations at CTA scope and waits acquire ones (the
 * PTX defaults); the CAS is acq_rel at workgroup scope and test_wait loads
 * with acquire, which covers both (and the stronger .cluster scope, since a
 * cluster here is always a single CTA).
 * Addresses are generic (flat) addresses of the object in shared memory.
 *===----------------------------------------------------------------------===*/
#include "wave.h"

#define MB_CNT_MASK 0xFFFFFull
#define MB_TX_SHIFT 40
#define MB_TX_MASK 0x3FFFFFull
#define MB_PHASE (1ull << 63)

static inline LDS uint64_t *mb_ptr(uint64_t addr) {
  return (LDS uint64_t *)(__attribute__((address_space(0))) uint64_t *)addr;
}
static inline uint64_t mb_pending(uint64_t w) { return w & MB_CNT_MASK; }
static inline uint64_t mb_expected(uint64_t w) { return (w >> 20) & MB_CNT_MASK; }
static inline int64_t mb_tx(uint64_t w) {
  int64_t t = (int64_t)((w >> MB_TX_SHIFT) & MB_TX_MASK);
  return t >= (1ll << 21) ? t - (1ll << 22) : t;
}
static inline uint64_t mb_make(uint64_t phase, uint64_t pending, uint64_t expected, int64_t tx) {
  return phase | (pending & MB_CNT_MASK) | ((expected & MB_CNT_MASK) << 20) |
         (((uint64_t)tx & MB_TX_MASK) << MB_TX_SHIFT);
}
/* Apply: pending -= arrivals, expected -= drops, tx += dtx; complete the
 * phase when pending and tx-count are both zero. Returns the old word;
 * *after receives the pending count after the arrival (before any reset). */
static uint64_t mb_update(uint64_t addr, uint32_t arrivals, uint32_t drops, int64_t dtx,
                          uint64_t *after) {
  LDS uint64_t *p = mb_ptr(addr);
  uint64_t old = __scoped_atomic_load_n(p, __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP);
  for (;;) {
    uint64_t phase = old & MB_PHASE;
    uint64_t pend = (mb_pending(old) - arrivals) & MB_CNT_MASK;
    uint64_t exp = (mb_expected(old) - drops) & MB_CNT_MASK;
    int64_t tx = mb_tx(old) + dtx;
    uint64_t nw;
    if (pend == 0 && tx == 0)
      nw = mb_make(phase ^ MB_PHASE, exp, exp, 0);
    else
      nw = mb_make(phase, pend, exp, tx);
    if (__scoped_atomic_compare_exchange_n(p, &old, nw, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED,
                                           __MEMORY_SCOPE_WRKGRP)) {
      if (after) *after = pend;
      return old;
    }
  }
}

void __ptx_mbarrier_init(uint64_t addr, uint32_t count) {
  __scoped_atomic_store_n(mb_ptr(addr), mb_make(0, count, count, 0), __ATOMIC_RELAXED,
                          __MEMORY_SCOPE_WRKGRP);
}

void __ptx_mbarrier_inval(uint64_t addr) {
  __scoped_atomic_store_n(mb_ptr(addr), 0ull, __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP);
}

uint64_t __ptx_mbarrier_arrive(uint64_t addr, uint32_t count, uint32_t drop, uint32_t tx) {
  uint64_t after = 0;
  uint64_t old = mb_update(addr, count, drop ? count : 0u, (int64_t)tx, &after);
  return (old & MB_PHASE) | after;
}

void __ptx_mbarrier_expect_tx(uint64_t addr, uint32_t tx) {
  (void)mb_update(addr, 0u, 0u, (int64_t)tx, 0);
}

void __ptx_mbarrier_complete_tx(uint64_t addr, uint32_t tx) {
  (void)mb_update(addr, 0u, 0u, -(int64_t)tx, 0);
}

uint32_t __ptx_mbarrier_test_wait(uint64_t addr, uint64_t state) {
  uint64_t w = __scoped_atomic_load_n(mb_ptr(addr), __ATOMIC_ACQUIRE, __MEMORY_SCOPE_WRKGRP);
  return (w & MB_PHASE) != (state & MB_PHASE) ? 1u : 0u;
}

uint32_t __ptx_mbarrier_test_wait_parity(uint64_t addr, uint32_t parity) {
  uint64_t w = __scoped_atomic_load_n(mb_ptr(addr), __ATOMIC_ACQUIRE, __MEMORY_SCOPE_WRKGRP);
  return (uint32_t)(w >> 63) != (parity & 1u) ? 1u : 0u;
}

/* try_wait: a test_wait that may suspend for a bounded time first; a
 * short bounded spin with s_sleep is within the PTX contract (it may return
 * false before the phase completes; callers loop). */
uint32_t __ptx_mbarrier_try_wait(uint64_t addr, uint64_t state) {
  for (int i = 0; i < 16; ++i) {
    if (__ptx_mbarrier_test_wait(addr, state)) return 1u;
    __builtin_amdgcn_s_sleep(1);
  }
  return __ptx_mbarrier_test_wait(addr, state);
}

uint32_t __ptx_mbarrier_try_wait_parity(uint64_t addr, uint32_t parity) {
  for (int i = 0; i < 16; ++i) {
    if (__ptx_mbarrier_test_wait_parity(addr, parity)) return 1u;
    __builtin_amdgcn_s_sleep(1);
  }
  return __ptx_mbarrier_test_wait_parity(addr, parity);
}

uint32_t __ptx_mbarrier_pending_count(uint64_t state) { return (uint32_t)(state & MB_CNT_MASK); }

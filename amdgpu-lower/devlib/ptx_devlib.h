/*===- ptx_devlib.h - The __ptx_* device library interface ----------------===*
 *
 * Every PTX construct whose meaning depends on the wave size or on the warp
 * policy (wave32 / wave64-pack / wave64-pad) is translated by ptx-to-llvm into
 * a call to one of the functions below; ptx-to-llvm only DECLARES them, and
 * amdgpu-lower links the variant of the device library that matches the
 * kernel's policy. This header is the contract between the two: names,
 * exact C signatures, and the PTX semantics each function must implement.
 *
 * ABI rules (so the LLVM declarations are trivial):
 *  - parameters and results are only uint32_t / uint64_t / float / double
 *    (LLVM i32 / i64 / float / double); no pointers, no structs;
 *  - a predicate is a uint32_t that is 0 or 1;
 *  - a (value, predicate) pair is a uint64_t: value | (uint64_t)pred << 32;
 *  - generic (flat) addresses are uint64_t.
 * "Warp" below means the 32-thread CUDA warp of the calling thread; "lane"
 * is its %laneid (0..31). Under wave64-pack a warp is one 32-lane half of a
 * wave; every warp operation (masks, ballots, shuffles) is confined to it.
 *
 * ptx-to-llvm emits these calls exactly as declared here (ptx2llvm marks them
 * nounwind; barrier/warp-sync ones convergent). Math helpers with exact FP
 * semantics that do not depend on the wave size live in math*.c and are
 * declared at the end of this file.
 *===----------------------------------------------------------------------===*/
#ifndef PTX_DEVLIB_H
#define PTX_DEVLIB_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Special registers (PTX ISA "Special Registers") --------------------
 * %tid.{x,y,z}    thread index in the CTA (CUDA threadIdx)
 * %ntid.{x,y,z}   CTA dimensions (CUDA blockDim)
 * %ctaid.{x,y,z}  CTA index in the grid (blockIdx)
 * %nctaid.{x,y,z} grid dimensions in CTAs (gridDim)                         */
uint32_t __ptx_sreg_tid_x(void);
uint32_t __ptx_sreg_tid_y(void);
uint32_t __ptx_sreg_tid_z(void);
uint32_t __ptx_sreg_ntid_x(void);
uint32_t __ptx_sreg_ntid_y(void);
uint32_t __ptx_sreg_ntid_z(void);
uint32_t __ptx_sreg_ctaid_x(void);
uint32_t __ptx_sreg_ctaid_y(void);
uint32_t __ptx_sreg_ctaid_z(void);
uint32_t __ptx_sreg_nctaid_x(void);
uint32_t __ptx_sreg_nctaid_y(void);
uint32_t __ptx_sreg_nctaid_z(void);
/* %laneid: lane within the 32-thread warp, 0..31 (under pack: lane & 31). */
uint32_t __ptx_sreg_laneid(void);
/* %warpid: identifier of the warp within the CTA (linear tid / 32 is a valid
 * choice; PTX only promises it is the warp's current slot). */
uint32_t __ptx_sreg_warpid(void);
/* %nwarpid: maximum number of warp ids (upper bound of %warpid + 1). */
uint32_t __ptx_sreg_nwarpid(void);
/* %smid / %nsmid: processor (CU) id of the caller and the bound on it. */
uint32_t __ptx_sreg_smid(void);
uint32_t __ptx_sreg_nsmid(void);
/* %gridid: 64-bit launch identifier, unique per launch in a context. */
uint64_t __ptx_sreg_gridid(void);
/* %lanemask_{eq,le,lt,ge,gt}: 32-bit masks relative to %laneid within the warp
 * (eq = 1<<lane, le = bits 0..lane, lt = bits 0..lane-1, ge = bits lane..31,
 * gt = bits lane+1..31). */
uint32_t __ptx_sreg_lanemask_eq(void);
uint32_t __ptx_sreg_lanemask_le(void);
uint32_t __ptx_sreg_lanemask_lt(void);
uint32_t __ptx_sreg_lanemask_ge(void);
uint32_t __ptx_sreg_lanemask_gt(void);
/* %clock (low 32 bits of a per-CU cycle counter), %clock_hi (high 32 bits),
 * %clock64 (all 64 bits). Monotonic within a thread. */
uint32_t __ptx_sreg_clock(void);
uint32_t __ptx_sreg_clock_hi(void);
uint64_t __ptx_sreg_clock64(void);
/* %globaltimer: nanoseconds, 64-bit, global across the device; _lo/_hi halves. */
uint64_t __ptx_sreg_globaltimer(void);
uint32_t __ptx_sreg_globaltimer_lo(void);
uint32_t __ptx_sreg_globaltimer_hi(void);
/* %dynamic_smem_size: bytes of dynamically allocated shared memory of this launch.
 * %total_smem_size: static + dynamic shared memory of the kernel (bytes).
 * %aggr_smem_size: same as total on targets without reserved shared memory. */
uint32_t __ptx_sreg_dynamic_smem_size(void);
uint32_t __ptx_sreg_total_smem_size(void);
uint32_t __ptx_sreg_aggr_smem_size(void);
/* %envreg<idx>, idx 0..31: driver-defined 32-bit environment registers
 * (cooperative groups read the grid workspace from %envreg1/%envreg2). */
uint32_t __ptx_sreg_envreg(uint32_t idx);

/* ---- Warp-level data exchange ---------------------------------------------
 * shfl.sync.{up,down,bfly,idx}.b32 d|p, a, b, c, membermask
 * Semantics (PTX ISA "shfl.sync"): c packs clamp (bits 0..4) and segment mask
 * (bits 8..12): maxLane = (lane & segmask) | (clamp & ~segmask),
 * minLane = lane & segmask. Source lane j:
 *   up:   j = lane - b;        pval = j >= maxLane
 *   down: j = lane + b;        pval = j <= maxLane
 *   bfly: j = lane ^ b;        pval = j <= maxLane
 *   idx:  j = minLane | (b & ~segmask);  pval = j <= maxLane
 * if !pval then j = lane. d = a of lane j (undefined if lane j is inactive or
 * not in membermask). The calling thread must be in membermask; all threads of
 * membermask execute the same shfl.sync before any returns.
 * Result: d | (uint64_t)pval << 32.
 * Non-.sync `shfl` (sm < 70) is translated as the .sync form with
 * membermask = __ptx_activemask(). */
uint64_t __ptx_shfl_sync_up(uint32_t membermask, uint32_t a, uint32_t b, uint32_t c);
uint64_t __ptx_shfl_sync_down(uint32_t membermask, uint32_t a, uint32_t b, uint32_t c);
uint64_t __ptx_shfl_sync_bfly(uint32_t membermask, uint32_t a, uint32_t b, uint32_t c);
uint64_t __ptx_shfl_sync_idx(uint32_t membermask, uint32_t a, uint32_t b, uint32_t c);

/* vote.sync.{all,any,uni}.pred / vote.sync.ballot.b32 (pred is 0/1; only the
 * threads in membermask participate; inactive threads contribute nothing):
 *   all:    1 iff pred is 1 in every participating thread
 *   any:    1 iff pred is 1 in some participating thread
 *   uni:    1 iff pred is the same in all participating threads
 *   ballot: bit i set iff lane i participates and its pred is 1.
 * Non-.sync `vote` (sm < 70): membermask = __ptx_activemask(). */
uint32_t __ptx_vote_sync_all(uint32_t membermask, uint32_t pred);
uint32_t __ptx_vote_sync_any(uint32_t membermask, uint32_t pred);
uint32_t __ptx_vote_sync_uni(uint32_t membermask, uint32_t pred);
uint32_t __ptx_vote_sync_ballot(uint32_t membermask, uint32_t pred);

/* match.any.sync.b32/b64 d, a, membermask: d = mask of threads in membermask
 * whose a equals this thread's a.
 * match.all.sync.b32/b64 d|p, a, membermask: if all threads in membermask have
 * the same a, d = membermask and p = 1, else d = 0 and p = 0.
 * Result of the .all forms: d | (uint64_t)p << 32. */
uint32_t __ptx_match_any_sync_b32(uint32_t membermask, uint32_t a);
uint32_t __ptx_match_any_sync_b64(uint32_t membermask, uint64_t a);
uint64_t __ptx_match_all_sync_b32(uint32_t membermask, uint32_t a);
uint64_t __ptx_match_all_sync_b64(uint32_t membermask, uint64_t a);

/* redux.sync.op.type d, a, membermask: reduction of a over the threads in
 * membermask, result in every one of them.
 * add: .u32/.s32 (wrap-around, same bits for both); min/max: .u32 (umin/umax)
 * and .s32 (min/max); and/or/xor: .b32. */
uint32_t __ptx_redux_sync_add(uint32_t membermask, uint32_t a);
uint32_t __ptx_redux_sync_min(uint32_t membermask, uint32_t a);  /* signed  */
uint32_t __ptx_redux_sync_max(uint32_t membermask, uint32_t a);  /* signed  */
uint32_t __ptx_redux_sync_umin(uint32_t membermask, uint32_t a); /* unsigned */
uint32_t __ptx_redux_sync_umax(uint32_t membermask, uint32_t a); /* unsigned */
uint32_t __ptx_redux_sync_and(uint32_t membermask, uint32_t a);
uint32_t __ptx_redux_sync_or(uint32_t membermask, uint32_t a);
uint32_t __ptx_redux_sync_xor(uint32_t membermask, uint32_t a);

/* activemask.b32 d: mask of the currently active threads of the warp. */
uint32_t __ptx_activemask(void);
/* elect.sync d|p, membermask: elects the lowest-numbered active lane of
 * membermask as leader; d = leader's laneid (in every thread), p = 1 only in
 * the leader. Result: d | (uint64_t)p << 32. */
uint64_t __ptx_elect_sync(uint32_t membermask);
/* bar.warp.sync membermask: wait until every thread in membermask has executed
 * a bar.warp.sync with the same mask; memory ordering among them. */
void __ptx_bar_warp_sync(uint32_t membermask);

/* ---- CTA barriers ----------------------------------------------------------
 * bar{.cta}.sync / barrier{.cta}.sync{.aligned} a{, b}:  __ptx_bar_sync(a, b)
 * bar{.cta}.arrive / barrier{.cta}.arrive{.aligned} a, b: __ptx_bar_arrive(a, b)
 * bar{.cta}.red.{popc,and,or} d, a{, b}, {!}p:  __ptx_bar_red_*(a, b, p)
 * id a is 0..15; b is the number of participating threads (a multiple of 32),
 * and 0 when the instruction has no b operand (= all threads of the CTA).
 * sync/red wait until b threads (counted per warp: a warp counts as 32) have
 * arrived at barrier a; arrive does not wait. Memory accesses before the
 * barrier are visible to the participating threads after it.
 * red.popc returns the number of participating threads with p = 1;
 * red.and / red.or return 0/1. */
void __ptx_bar_sync(uint32_t id, uint32_t nthreads);
void __ptx_bar_arrive(uint32_t id, uint32_t nthreads);
uint32_t __ptx_bar_red_popc(uint32_t id, uint32_t nthreads, uint32_t pred);
uint32_t __ptx_bar_red_and(uint32_t id, uint32_t nthreads, uint32_t pred);
uint32_t __ptx_bar_red_or(uint32_t id, uint32_t nthreads, uint32_t pred);

/* ---- Miscellaneous ---------------------------------------------------------*/
/* nanosleep.u32 t: suspend the thread for approximately t ns (0..1e6). */
void __ptx_nanosleep(uint32_t ns);
/* trap: abort the kernel launch with an error. Never returns. */
void __ptx_trap(void);

/* ---- CUDA device runtime calls -------------------------------------------
 * nvcc declares these as .extern .func in PTX; ptx-to-llvm rewrites calls to
 * them (by name) to the __ptx_ functions below. Addresses are generic.
 *   vprintf(fmt, args): fmt = generic address of the format string, args =
 *     generic address of the packed argument buffer (each argument at its
 *     natural alignment, floats promoted to double) or 0; returns the number
 *     of arguments printed, or a negative value on error.
 *   __assertfail(message, file, line, function, charSize): print an assertion
 *     failure message and trap. Never returns.
 *   malloc(size) / free(ptr): device heap; malloc returns 0 on failure.
 *   cudaGraphSetConditional(handle, value) -> __ptx_graph_set_conditional:
 *     handle = the generic address of the 32-bit condition word the host
 *     runtime allocated for the conditional handle (runtime/Graph.h); stores
 *     value there (the conditional node reads it after the kernel). */
uint32_t __ptx_vprintf(uint64_t fmt, uint64_t args);
void __ptx_assertfail(uint64_t message, uint64_t file, uint32_t line,
                      uint64_t function, uint64_t charSize);
uint64_t __ptx_malloc(uint64_t size);
void __ptx_free(uint64_t ptr);
void __ptx_graph_set_conditional(uint64_t handle, uint32_t value);

/* ---- mbarrier objects (mbarrier.c) -----------------------------------------
 * `addr` is the generic address of the 64-bit mbarrier object in shared
 * memory; the word layout and the phase state machine are described in
 * mbarrier.c. ptx-to-llvm maps:
 *   mbarrier.init [a], n            -> __ptx_mbarrier_init(a, n)
 *   mbarrier.inval [a]              -> __ptx_mbarrier_inval(a)
 *   mbarrier.arrive[_drop][.expect_tx] st, [a]{, n | tx}
 *                                   -> st = __ptx_mbarrier_arrive(a, count, drop, tx)
 *     (count arrivals, default 1; drop: 1 for arrive_drop, which also lowers
 *      the expected count of later phases by count; tx: bytes added to the
 *      tx-count in the same atomic step, before the arrival)
 *   mbarrier.expect_tx / complete_tx [a], tx
 *                                   -> __ptx_mbarrier_expect_tx / _complete_tx
 *   mbarrier.test_wait / try_wait p, [a], st          -> p = _test_wait / _try_wait
 *   mbarrier.test_wait / try_wait .parity p, [a], par -> p = _test_wait_parity / _try_wait_parity
 *   mbarrier.pending_count n, st    -> n = __ptx_mbarrier_pending_count(st)
 * try_wait may return 0 before the phase completes (PTX allows it to time out). */
void __ptx_mbarrier_init(uint64_t addr, uint32_t count);
void __ptx_mbarrier_inval(uint64_t addr);
uint64_t __ptx_mbarrier_arrive(uint64_t addr, uint32_t count, uint32_t drop, uint32_t tx);
void __ptx_mbarrier_expect_tx(uint64_t addr, uint32_t tx);
void __ptx_mbarrier_complete_tx(uint64_t addr, uint32_t tx);
uint32_t __ptx_mbarrier_test_wait(uint64_t addr, uint64_t state);
uint32_t __ptx_mbarrier_test_wait_parity(uint64_t addr, uint32_t parity);
uint32_t __ptx_mbarrier_try_wait(uint64_t addr, uint64_t state);
uint32_t __ptx_mbarrier_try_wait_parity(uint64_t addr, uint32_t parity);
uint32_t __ptx_mbarrier_pending_count(uint64_t state);

/* ---- Textures and surfaces (texture.c; descriptor layout: ptx_texture.h) ---
 * `h` is a texture/surface object handle (the generic address of a
 * ptx_tex_desc). __ptx_tex returns component `comp` (0..3) of
 *   tex.{1d,2d,3d}.v4.{f32|s32|u32}.{f32|s32} at coordinates (x, y, z)
 * (dims 1..3; unused coordinates 0) given as bit patterns: float bits when
 * float_coords, else signed integers. float_result selects float reads
 * (result bits are a float) vs element-type integer reads.
 * __ptx_surf_addr gives the generic address of a `bytes`-wide suld.b/sust.b
 * access at byte offset x, row y, slice z; mode 0 .trap (traps when out of
 * range), 1 .clamp (nearest valid location), 2 .zero (returns 0: the load
 * reads zero / the store is dropped). */
uint32_t __ptx_tex(uint64_t h, uint32_t dims, uint32_t x, uint32_t y, uint32_t z,
                   uint32_t float_coords, uint32_t float_result, uint32_t comp);
/* tex.a1d (dims 1) / tex.a2d (dims 2): layer `layer` (an unsigned index, clamped to the
 * last layer), coordinates x, y as for __ptx_tex. */
uint32_t __ptx_tex_layered(uint64_t h, uint32_t dims, uint32_t layer, uint32_t x, uint32_t y,
                           uint32_t float_coords, uint32_t float_result, uint32_t comp);
/* tex.level (lod as float bits) / tex.grad (gradients dP/dx, dP/dy as float bits; unused 0)
 * on 1d/2d/3d resources, mipmapped or not. */
uint32_t __ptx_tex_lod(uint64_t h, uint32_t dims, uint32_t x, uint32_t y, uint32_t z, uint32_t lod,
                       uint32_t float_coords, uint32_t float_result, uint32_t comp);
uint32_t __ptx_tex_grad(uint64_t h, uint32_t dims, uint32_t x, uint32_t y, uint32_t z, uint32_t dx0, uint32_t dx1,
                        uint32_t dx2, uint32_t dy0, uint32_t dy1, uint32_t dy2, uint32_t float_coords,
                        uint32_t float_result, uint32_t comp);
/* tex.cube (cube 0) / tex.acube: direction (x, y, z) as float bits, cube index `cube`. */
uint32_t __ptx_tex_cube(uint64_t h, uint32_t cube, uint32_t x, uint32_t y, uint32_t z, uint32_t float_result,
                        uint32_t comp);
/* tex.level / tex.grad of arrays (a1d / a2d: gradients of dims components) and cubes (acube /
 * cube: 3-component gradients), as float bits; mipmapped layered / cube-map arrays. */
uint32_t __ptx_tex_layered_lod(uint64_t h, uint32_t dims, uint32_t layer, uint32_t x, uint32_t y, uint32_t lod,
                               uint32_t float_coords, uint32_t float_result, uint32_t comp);
uint32_t __ptx_tex_layered_grad(uint64_t h, uint32_t dims, uint32_t layer, uint32_t x, uint32_t y, uint32_t dx0,
                                uint32_t dx1, uint32_t dy0, uint32_t dy1, uint32_t float_coords, uint32_t float_result,
                                uint32_t comp);
uint32_t __ptx_tex_cube_lod(uint64_t h, uint32_t cube, uint32_t x, uint32_t y, uint32_t z, uint32_t lod,
                            uint32_t float_result, uint32_t comp);
uint32_t __ptx_tex_cube_grad(uint64_t h, uint32_t cube, uint32_t x, uint32_t y, uint32_t z, uint32_t dx0, uint32_t dx1,
                             uint32_t dx2, uint32_t dy0, uint32_t dy1, uint32_t dy2, uint32_t float_result,
                             uint32_t comp);
uint64_t __ptx_surf_addr(uint64_t h, uint32_t dims, uint32_t x, uint32_t y, uint32_t z,
                         uint32_t bytes, uint32_t mode);

/* ---- fp8 conversions (fp8.c) -----------------------------------------------
 * __ptx_cvt_f32_to_fp8: one f32 -> e4m3 (e5m2 = 0) or e5m2 (e5m2 = 1) byte,
 * .rn.satfinite, relu = 1 for .relu. __ptx_cvt_fp8_to_f16: one fp8 byte ->
 * f16 bits (exact), relu = 1 for .relu. Packing of the x2 forms is done by
 * ptx-to-llvm. */
uint32_t __ptx_cvt_f32_to_fp8(float x, uint32_t e5m2, uint32_t relu);
uint32_t __ptx_cvt_fp8_to_f16(uint32_t byte, uint32_t e5m2, uint32_t relu);

/* ---- Tensor-core accumulation (tensor.c) ----------------------------------
 * One mma/wmma k-step of one accumulator element: c (f32 bits, or f16 bits in
 * the low half for __ptx_tc_dot_f16) plus the n <= 16 products a_k * b_k of
 * the factors a0.., b0.. (f16/bf16/tf32 values as doubles, in k order; unused
 * ones 0), added the way the H200's tensor cores do it (tensor_model.h);
 * returns the result's bits. ptx-to-llvm gathers the fragments. */
#define PTX_TC_FACTORS(x) double x##0, double x##1, double x##2, double x##3, double x##4, double x##5, \
  double x##6, double x##7, double x##8, double x##9, double x##10, double x##11, double x##12, double x##13, \
  double x##14, double x##15
uint32_t __ptx_tc_dot_f32(uint32_t c, uint32_t n, PTX_TC_FACTORS(a), PTX_TC_FACTORS(b));
uint32_t __ptx_tc_dot_f16(uint32_t c, uint32_t n, PTX_TC_FACTORS(a), PTX_TC_FACTORS(b));

/* ---- Exact FP helpers -------------------------------------------------------
 * None: ptx-to-llvm emits its exact FP sequences (directed rounding, ftz,
 * canonical NaNs, bf16 single rounding) inline as plain LLVM IR, so there is
 * no math*.c part of the device library. */

#ifdef __cplusplus
}
#endif
#endif /* PTX_DEVLIB_H */

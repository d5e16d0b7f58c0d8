/*===- wave.h - wave/warp geometry helpers shared by the devlib sources ----===*
 *
 * The device library is compiled three times (see amdgpu-lower/CMakeLists.txt):
 *   PTX_WAVE64=0            wave32: one CUDA warp per wave32 (gfx10+);
 *   PTX_WAVE64=1 PTX_PAD=0  wave64-pack: two CUDA warps per wave64, warp w&1
 *                           is the half starting at hardware lane 32*(w&1);
 *   PTX_WAVE64=1 PTX_PAD=1  wave64-pad: one CUDA warp per wave64, hardware
 *                           lanes 32..63 idle (never active).
 * These helpers give every warp operation its view of "the warp": the
 * hardware lane of the caller, the first hardware lane of its warp, the
 * exec/ballot masks restricted to the warp (as 32-bit CUDA lane masks), and
 * a cross-lane read (ds_bpermute, which addresses all lanes of the wave in
 * both wave32 and wave64 mode).
 *===----------------------------------------------------------------------===*/
#ifndef PTX_DEVLIB_WAVE_H
#define PTX_DEVLIB_WAVE_H

#include "ptx_devlib.h"

#ifndef PTX_WAVE64
#error "PTX_WAVE64 must be defined (0 or 1)"
#endif
#ifndef PTX_PAD
#define PTX_PAD 0
#endif

#define DEVLIB_INLINE static inline __attribute__((always_inline))
#define CONSTANT __attribute__((address_space(4)))
#define GLOBAL __attribute__((address_space(1)))
#define LDS __attribute__((address_space(3)))

/* Hardware lane of the caller within its wave (0..31 or 0..63). */
DEVLIB_INLINE uint32_t hw_lane(void) {
#if PTX_WAVE64
  return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
#else
  return __builtin_amdgcn_mbcnt_lo(~0u, 0u);
#endif
}

/* First hardware lane of the caller's warp: 32 for the upper half under pack. */
DEVLIB_INLINE uint32_t warp_base(void) {
#if PTX_WAVE64 && !PTX_PAD
  return hw_lane() & 32u;
#else
  return 0u;
#endif
}

DEVLIB_INLINE uint32_t lane_id(void) { return hw_lane() & 31u; }

/* ballot(pred) restricted to the caller's warp, as a CUDA lane mask. */
DEVLIB_INLINE uint32_t warp_ballot(uint32_t pred) {
#if PTX_WAVE64
  uint64_t b = __builtin_amdgcn_ballot_w64(pred != 0);
  return (uint32_t)(b >> warp_base());
#else
  return __builtin_amdgcn_ballot_w32(pred != 0);
#endif
}

/* Currently active lanes of the caller's warp. */
DEVLIB_INLINE uint32_t warp_active(void) { return warp_ballot(1u); }

/* Value of `v` in CUDA lane `src` (0..31) of the caller's warp. Reading an
 * inactive lane yields that lane's stale register, as PTX leaves it undefined. */
DEVLIB_INLINE uint32_t warp_read(uint32_t v, uint32_t src) {
  uint32_t hw = warp_base() + (src & 31u);
  return (uint32_t)__builtin_amdgcn_ds_bpermute((int)(hw << 2), (int)v);
}

DEVLIB_INLINE uint32_t ctz32(uint32_t x) { return (uint32_t)__builtin_ctz(x); }
DEVLIB_INLINE uint32_t popc32(uint32_t x) { return (uint32_t)__builtin_popcount(x); }

/* Work-group level fences around barriers (CUDA: bar.sync orders memory among
 * the participating threads). */
DEVLIB_INLINE void wg_release(void) { __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup"); }
DEVLIB_INLINE void wg_acquire(void) { __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup"); }

/* hsa_kernel_dispatch_packet_t fields (same in code object v4, v5, v6). */
DEVLIB_INLINE const CONSTANT uint8_t *dispatch_packet(void) {
  return (const CONSTANT uint8_t *)__builtin_amdgcn_dispatch_ptr();
}
DEVLIB_INLINE uint32_t dp_u16(uint32_t off) {
  return *(const CONSTANT uint16_t *)(dispatch_packet() + off);
}
DEVLIB_INLINE uint32_t dp_u32(uint32_t off) {
  return *(const CONSTANT uint32_t *)(dispatch_packet() + off);
}
/* The module's code object version (4, 5 or 6): amdgpu-lower defines this
 * constant when it links the library (Devlib.cpp), so the tests below fold. */
extern const CONSTANT uint32_t __ptx2amd_code_object_version;
DEVLIB_INLINE int has_cov5_hidden_args(void) { return __ptx2amd_code_object_version >= 5u; }
/* Code object v5/v6 hidden kernel arguments (at llvm.amdgcn.implicitarg.ptr):
 * hidden_block_count_{x,y,z} (u32) at 0, hidden_group_size_{x,y,z} (u16) at 12. */
DEVLIB_INLINE const CONSTANT uint8_t *hidden_args(void) {
  return (const CONSTANT uint8_t *)__builtin_amdgcn_implicitarg_ptr();
}
/* Hardware work-group size and grid size (work-items) per dimension. The
 * work-group size is the hidden argument under v5+ (one kernarg load, no
 * dispatch pointer) and the dispatch packet's under v4. */
DEVLIB_INLINE uint32_t hw_wg_size(uint32_t d) {
  uint32_t v = has_cov5_hidden_args() ? *(const CONSTANT uint16_t *)(hidden_args() + 12u + 2u * d)
                                      : dp_u16(4u + 2u * d);
  __builtin_assume(v >= 1u && v <= 1024u);
  return v;
}
DEVLIB_INLINE uint32_t hw_grid_size(uint32_t d) { return dp_u32(12u + 4u * d); }
/* Grid size in work-groups (== CUDA blocks under every warp policy). */
DEVLIB_INLINE uint32_t hw_block_count(uint32_t d) {
  if (has_cov5_hidden_args()) return *(const CONSTANT uint32_t *)(hidden_args() + 4u * d);
  uint32_t wg = hw_wg_size(d);
  return (hw_grid_size(d) + wg - 1u) / wg;
}
/* Total LDS of the dispatch (static + dynamic), bytes: hsa_kernel_dispatch_packet_t
 * group_segment_size at byte 28 (24 is private_segment_size). */
DEVLIB_INLINE uint32_t dispatch_lds_size(void) { return dp_u32(28u); }

/* Linear hardware work-item id in the work-group. */
DEVLIB_INLINE uint32_t hw_linear_tid(void) {
  uint32_t x = __builtin_amdgcn_workitem_id_x();
  uint32_t y = __builtin_amdgcn_workitem_id_y();
  uint32_t z = __builtin_amdgcn_workitem_id_z();
  return x + hw_wg_size(0) * (y + hw_wg_size(1) * z);
}

#if PTX_PAD
/* wave64-pad: the CUDA block dims are the trailing explicit kernarg
 * `__ptx2amd_block_dim` (<4 x i32>: x, y, z, 0). It is 16-byte aligned and
 * 16 bytes long, so it ends 8-aligned and the hidden arguments (which start
 * at the explicit size rounded up to 8) begin right after it. */
DEVLIB_INLINE uint32_t pad_block_dim(uint32_t d) {
  const CONSTANT uint32_t *p =
      (const CONSTANT uint32_t *)((const CONSTANT uint8_t *)__builtin_amdgcn_implicitarg_ptr() - 16);
  uint32_t v = p[d];
  __builtin_assume(v >= 1u && v <= 1024u);
  return v;
}
/* Linear CUDA thread index: wave w (64 hardware lanes) holds CUDA threads
 * 32w..32w+31 in its lanes 0..31. */
DEVLIB_INLINE uint32_t pad_linear_tid(void) {
  uint32_t x = __builtin_amdgcn_workitem_id_x();
  return (x >> 6) * 32u + (x & 63u);
}
#endif

/* CUDA linear thread index in the block (x fastest). */
DEVLIB_INLINE uint32_t cuda_linear_tid(void) {
#if PTX_PAD
  return pad_linear_tid();
#else
  return hw_linear_tid();
#endif
}

/* Lowest active lane of the caller's warp == the caller? */
DEVLIB_INLINE int is_warp_leader(void) {
  return lane_id() == ctz32(warp_active());
}

#endif /* PTX_DEVLIB_WAVE_H */

/*===- sreg.c - PTX special registers for wave32 / wave64-pack / wave64-pad -===*
 *
 * Implements the __ptx_sreg_* functions of ptx_devlib.h. Thread and block
 * geometry come from the hardware work-item/work-group ids and the code
 * object v5/v6 hidden arguments (block count, group size; the HSA dispatch
 * packet under v4); under
 * wave64-pad the CUDA block dims come from the trailing `__ptx2amd_block_dim`
 * kernarg and %tid is recomputed from the padded hardware id (see wave.h).
 * Lane masks, %laneid and %warpid follow the warp policy. %clock* uses the
 * shader cycle counter (llvm.readcyclecounter), %globaltimer the constant
 * 100 MHz "real time" counter (llvm.readsteadycounter) scaled to ns.
 * %envreg0..31 are read from the device global `__ptx2amd_envreg`, which the
 * launcher fills (cooperative launches put the grid-sync workspace address
 * in %envreg1/%envreg2); it is zero otherwise, as on a plain CUDA launch.
 *===----------------------------------------------------------------------===*/
#include "wave.h"
#include "support/DevlibNames.h"

/* Launcher-provided environment registers (docs/pipeline.md). */
GLOBAL uint32_t PTX2AMD_ENVREG[32] __attribute__((visibility("protected")));

#if PTX_PAD
static uint32_t tid_dim(uint32_t d) {
  uint32_t lin = pad_linear_tid();
  uint32_t bx = pad_block_dim(0), by = pad_block_dim(1);
  if (d == 0) return lin % bx;
  if (d == 1) return (lin / bx) % by;
  return lin / (bx * by);
}
uint32_t __ptx_sreg_tid_x(void) { return tid_dim(0); }
uint32_t __ptx_sreg_tid_y(void) { return tid_dim(1); }
uint32_t __ptx_sreg_tid_z(void) { return tid_dim(2); }
uint32_t __ptx_sreg_ntid_x(void) { return pad_block_dim(0); }
uint32_t __ptx_sreg_ntid_y(void) { return pad_block_dim(1); }
uint32_t __ptx_sreg_ntid_z(void) { return pad_block_dim(2); }
#else
uint32_t __ptx_sreg_tid_x(void) { return __builtin_amdgcn_workitem_id_x(); }
uint32_t __ptx_sreg_tid_y(void) { return __builtin_amdgcn_workitem_id_y(); }
uint32_t __ptx_sreg_tid_z(void) { return __builtin_amdgcn_workitem_id_z(); }
uint32_t __ptx_sreg_ntid_x(void) { return hw_wg_size(0); }
uint32_t __ptx_sreg_ntid_y(void) { return hw_wg_size(1); }
uint32_t __ptx_sreg_ntid_z(void) { return hw_wg_size(2); }
#endif

uint32_t __ptx_sreg_ctaid_x(void) { return __builtin_amdgcn_workgroup_id_x(); }
uint32_t __ptx_sreg_ctaid_y(void) { return __builtin_amdgcn_workgroup_id_y(); }
uint32_t __ptx_sreg_ctaid_z(void) { return __builtin_amdgcn_workgroup_id_z(); }

/* Grid size in work-groups: hidden_block_count_* under code object v5+,
 * ceil(grid work-items / work-group size) under v4 (the padded geometry
 * divides out the same way). */
uint32_t __ptx_sreg_nctaid_x(void) { return hw_block_count(0); }
uint32_t __ptx_sreg_nctaid_y(void) { return hw_block_count(1); }
uint32_t __ptx_sreg_nctaid_z(void) { return hw_block_count(2); }

uint32_t __ptx_sreg_laneid(void) { return lane_id(); }

uint32_t __ptx_sreg_warpid(void) { return cuda_linear_tid() >> 5; }

uint32_t __ptx_sreg_nwarpid(void) {
#if PTX_PAD
  uint32_t t = pad_block_dim(0) * pad_block_dim(1) * pad_block_dim(2);
#else
  uint32_t t = hw_wg_size(0) * hw_wg_size(1) * hw_wg_size(2);
#endif
  return (t + 31u) >> 5;
}

/* %smid: the compute unit executing the wave, from the HW_ID register.
 * gfx9 (all wave64 targets): HW_REG_HW_ID (id 4): CU_ID [11:8], SH_ID [12],
 * SE_ID [14:13] -> bits [14:8] form a unique id < 128.
 * gfx10+ (all wave32 targets): HW_REG_HW_ID1 (id 23): WGP_ID [13:10],
 * SA_ID [16], SE_ID [20:18] -> (SE << 5 | SA << 4 | WGP) < 256. */
#define HWREG(id, off, size) ((id) | ((off) << 6) | (((size) - 1) << 11))
uint32_t __ptx_sreg_smid(void) {
#if PTX_WAVE64
  return __builtin_amdgcn_s_getreg(HWREG(4, 8, 7));
#else
  uint32_t wgp = __builtin_amdgcn_s_getreg(HWREG(23, 10, 4));
  uint32_t sa = __builtin_amdgcn_s_getreg(HWREG(23, 16, 1));
  uint32_t se = __builtin_amdgcn_s_getreg(HWREG(23, 18, 3));
  return (se << 5) | (sa << 4) | wgp;
#endif
}
uint32_t __ptx_sreg_nsmid(void) {
#if PTX_WAVE64
  return 128u;
#else
  return 256u;
#endif
}

/* %gridid: the dispatch id of this launch (unique per queue, 64-bit). */
/* (clang has no builtin for it; the LLVM intrinsic is called by name.) */
extern uint64_t amdgcn_dispatch_id(void) __asm("llvm.amdgcn.dispatch.id");
uint64_t __ptx_sreg_gridid(void) { return amdgcn_dispatch_id(); }

uint32_t __ptx_sreg_lanemask_eq(void) { return 1u << lane_id(); }
uint32_t __ptx_sreg_lanemask_le(void) { return (uint32_t)((2ull << lane_id()) - 1u); }
uint32_t __ptx_sreg_lanemask_lt(void) { return (1u << lane_id()) - 1u; }
uint32_t __ptx_sreg_lanemask_ge(void) { return ~0u << lane_id(); }
uint32_t __ptx_sreg_lanemask_gt(void) { return (uint32_t)((~0ull << lane_id()) << 1); }

uint64_t __ptx_sreg_clock64(void) { return __builtin_readcyclecounter(); }
uint32_t __ptx_sreg_clock(void) { return (uint32_t)__builtin_readcyclecounter(); }
uint32_t __ptx_sreg_clock_hi(void) { return (uint32_t)(__builtin_readcyclecounter() >> 32); }

/* The steady counter runs at 100 MHz on every supported target (AMD's
 * "REALTIME" / s_memrealtime clock): 10 ns per tick. */
uint64_t __ptx_sreg_globaltimer(void) { return __builtin_readsteadycounter() * 10u; }
uint32_t __ptx_sreg_globaltimer_lo(void) { return (uint32_t)__ptx_sreg_globaltimer(); }
uint32_t __ptx_sreg_globaltimer_hi(void) { return (uint32_t)(__ptx_sreg_globaltimer() >> 32); }

/* The dispatch packet's group_segment_size is static + dynamic LDS; the static
 * part is known after LDS lowering (llvm.amdgcn.groupstaticsize). */
uint32_t __ptx_sreg_total_smem_size(void) { return dispatch_lds_size(); }
uint32_t __ptx_sreg_aggr_smem_size(void) { return dispatch_lds_size(); }
uint32_t __ptx_sreg_dynamic_smem_size(void) {
  return dispatch_lds_size() - __builtin_amdgcn_groupstaticsize();
}

uint32_t __ptx_sreg_envreg(uint32_t idx) { return PTX2AMD_ENVREG[idx & 31u]; }

// isa-emu unit kernels for gfx1100 (wave32). Assembled with llvm-mc-22 and
// linked with ld.lld-22 -shared; isa_unit_tests.cpp checks every slot.
// Convention: kernarg 0 = out pointer (s[0:1] -> s[2:3]); result j of lane l
// is stored at out[j * 64 + l] (ST j, vN); v1 = 4 * l.
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
.macro KBEGIN name
  .text
  .globl \name
  .p2align 8
  .type \name,@function
\name:
  s_load_b64 s[2:3], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
.endm
.macro KEND name, lds=0, priv=0
  s_endpgm
  .size \name, .-\name
  .rodata
  .p2align 6
  .amdhsa_kernel \name
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_next_free_vgpr 32
    .amdhsa_next_free_sgpr 40
    .amdhsa_wavefront_size32 1
    .amdhsa_kernarg_size 16
    .amdhsa_group_segment_fixed_size \lds
    .amdhsa_private_segment_fixed_size \priv
  .end_amdhsa_kernel
.endm
.macro ST j, v
  global_store_b32 v1, \v, s[2:3] offset:\j*256
.endm
.macro STS j, s
  v_mov_b32 v31, \s
  ST \j, v31
.endm

// ---- SOP1 / SOP2 / SOPC / SOPK
KBEGIN k_salu
  s_mov_b32 s4, 0xfffffff0
  s_add_u32 s5, s4, 0x20          // 0x10, SCC = carry = 1
  s_cselect_b32 s6, 7, 9          // 7
  s_addc_u32 s7, 1, 2             // 1 + 2 + SCC(1) = 4
  s_mul_i32 s8, -3, 5             // -15
  s_lshl_b32 s9, 3, 4             // 48
  s_mov_b32 s10, 0x40008
  s_bfe_u32 s10, 0xabcd, s10      // (0xabcd >> 8) & 0xf = 0xb
  s_ctz_i32_b32 s11, 0x100        // 8
  s_bcnt1_i32_b32 s12, 0xf0f0     // 8
  s_cmp_lt_i32 -1, 1              // SCC = 1
  s_cselect_b32 s13, 1, 0         // 1
  s_movk_i32 s14, 0x8000          // 0xffff8000
  s_brev_b32 s15, 1               // 0x80000000
  s_mul_hi_u32 s16, 0x80000000, 4 // 2
  s_min_i32 s17, -5, 3            // -5
  s_mov_b32 s18, 0
  s_mov_b32 s19, 1
  s_lshr_b64 s[18:19], s[18:19], 4 // 0x10000000
  STS 0, s5
  STS 1, s6
  STS 2, s7
  STS 3, s8
  STS 4, s9
  STS 5, s10
  STS 6, s11
  STS 7, s12
  STS 8, s13
  STS 9, s14
  STS 10, s15
  STS 11, s16
  STS 12, s17
  STS 13, s18
KEND k_salu

// ---- VOP1 / VOP2 / VOP3 / VOPC
KBEGIN k_valu
  v_add_nc_u32 v2, v0, 10          // l + 10
  ST 0, v2
  v_sub_nc_u32 v2, 100, v0         // 100 - l
  ST 1, v2
  v_lshlrev_b32 v2, 3, v0          // l << 3
  ST 2, v2
  v_cvt_f32_u32 v3, v0
  v_mul_f32 v2, 0.5, v3            // l * 0.5f
  ST 3, v2
  v_fma_f32 v2, v3, v3, 1.0        // l * l + 1
  ST 4, v2
  s_mov_b32 s20, 0x80000000
  v_mov_b32 v6, v0
  v_mov_b32 v7, 0
  v_mad_u64_u32 v[4:5], null, v0, s20, v[6:7]  // l * 2^31 + l
  ST 5, v4
  ST 6, v5
  v_bfe_u32 v2, v0, 1, 3           // (l >> 1) & 7
  ST 7, v2
  v_mov_b32 v8, 9
  v_cmp_gt_u32_e32 vcc_lo, 16, v0  // l < 16
  v_cndmask_b32 v2, 5, v8, vcc_lo  // l < 16 ? 9 : 5
  ST 8, v2
  v_mbcnt_lo_u32_b32 v2, -1, 0     // l
  ST 9, v2
  v_readlane_b32 s21, v0, 7        // 7
  STS 10, s21
  v_mov_b32 v9, 0xc0200000         // -2.5
  v_cvt_i32_f32 v2, v9             // -2
  ST 11, v2
  v_rcp_f32 v2, 4.0                // 0.25
  ST 12, v2
  s_mov_b32 s22, 0x12345678
  s_mov_b32 s23, 0x9abcdef0
  v_alignbit_b32 v2, s22, s23, 8   // 0x789abcde
  ST 13, v2
  v_add_co_u32 v4, vcc_lo, v0, -1  // l - 1, carry = (l != 0)
  v_add_co_ci_u32_e32 v5, vcc_lo, 0, v8, vcc_lo // 9 + carry
  ST 14, v5
  v_max_f32 v2, -v3, -4.0          // max(-l, -4)
  ST 15, v2
KEND k_valu

// ---- EXEC: saveexec, v_cmpx, execz branch
KBEGIN k_exec
  v_mov_b32 v2, 0
  v_cmp_gt_u32_e32 vcc_lo, 10, v0  // l < 10
  s_and_saveexec_b32 s4, vcc_lo
  v_mov_b32 v2, 1
  s_or_b32 exec_lo, exec_lo, s4
  ST 0, v2                         // l < 10
  v_mov_b32 v3, vcc_lo
  ST 1, v3                         // 0x3ff
  v_mov_b32 v4, 0
  s_mov_b32 s5, exec_lo
  v_cmpx_lt_u32_e32 20, v0         // exec = l > 20
  s_cbranch_execz 1f
  v_mov_b32 v4, 2
1:
  s_mov_b32 exec_lo, 0
  s_cbranch_execz 2f
  v_mov_b32 v4, 3                  // skipped
2:
  s_mov_b32 exec_lo, s5
  ST 2, v4                         // l > 20 ? 2 : 0
KEND k_exec

// ---- DS, s_barrier across the workgroup's waves (launch 64 lanes = 2 waves)
KBEGIN k_ds
  v_mul_u32_u24 v2, v0, 3
  ds_store_b32 v1, v2              // lds[l] = 3l
  v_mov_b32 v3, 0
  v_mov_b32 v5, 512
  v_cmp_eq_u32_e32 vcc_lo, 0, v0
  s_and_saveexec_b32 s4, vcc_lo
  ds_store_b32 v5, v3              // lds[128] = 0 (lane 0)
  s_mov_b32 exec_lo, s4
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_add_nc_u32 v4, 1, v0
  v_and_b32 v4, 63, v4
  v_lshlrev_b32 v4, 2, v4
  ds_load_b32 v2, v4               // lds[(l + 1) % 64]
  ST 0, v2
  v_mov_b32 v6, 1
  ds_add_u32 v5, v6
  s_waitcnt lgkmcnt(0)
  s_barrier
  ds_load_b32 v2, v5               // 64
  ST 1, v2
  v_xor_b32 v4, 1, v0
  v_lshlrev_b32 v4, 2, v4
  ds_bpermute_b32 v2, v4, v0       // l ^ 1
  ST 2, v2
  ds_load_2addr_b32 v[6:7], v1 offset0:1 offset1:2  // lds[l+1], lds[l+2] (l < 62)
  ST 3, v7
KEND k_ds, 1024

// ---- DPP16 / DPP8
KBEGIN k_dpp
  v_mov_b32 v2, 77
  v_mov_b32_dpp v2, v0 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
  ST 0, v2                         // l % 16 == 0 ? 0 : l - 1
  v_mov_b32_dpp v2, v0 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf
  ST 1, v2                         // (l & ~3) + 3 - (l & 3)
  v_mov_b32_dpp v2, v0 row_mirror row_mask:0xf bank_mask:0xf
  ST 2, v2                         // (l & ~15) + 15 - (l & 15)
  v_mov_b32 v3, 1000
  v_add_nc_u32_dpp v3, v0, v3 row_shl:2 row_mask:0xf bank_mask:0x5
  ST 3, v3                         // bank (l/4)&3 in {0,2}: l%16 < 14 ? l + 2 + 1000 : 1000; else 1000
  v_mov_b32_dpp v2, v0 dpp8:[7,6,5,4,3,2,1,0]
  ST 4, v2                         // (l & ~7) + 7 - (l & 7)
KEND k_dpp

// ---- VOPD dual issue: both halves read before either writes
KBEGIN k_vopd
  v_mov_b32 v4, v0
  v_add_nc_u32 v5, 100, v0
  v_dual_mov_b32 v4, v5 :: v_dual_mov_b32 v5, v4   // swap
  ST 0, v4                         // 100 + l
  ST 1, v5                         // l
  v_cvt_f32_u32 v6, v0
  v_cvt_f32_u32 v7, v0
  v_dual_add_f32 v8, 1.0, v6 :: v_dual_mul_f32 v9, 2.0, v7
  ST 2, v8                         // l + 1.0f
  ST 3, v9                         // 2.0f * l
KEND k_vopd

// ---- SMEM (kernarg scalars), FLAT, global atomics
KBEGIN k_mem
  s_load_b64 s[4:5], s[0:1], 0x8   // 7, 9
  s_waitcnt lgkmcnt(0)
  s_add_u32 s6, s4, s5
  STS 0, s6                        // 16
  v_add_nc_u32 v2, 5, v0
  ST 1, v2
  v_add_co_u32 v10, vcc_lo, s2, v1
  v_add_co_ci_u32_e32 v11, vcc_lo, s3, v3, vcc_lo  // v3 = 0 below
  s_nop 0
  v_mov_b32 v3, 0
  v_add_co_u32 v10, vcc_lo, s2, v1
  v_add_co_ci_u32_e32 v11, vcc_lo, s3, v3, vcc_lo
  flat_load_b32 v12, v[10:11] offset:256   // slot 1 = l + 5
  s_waitcnt vmcnt(0) lgkmcnt(0)
  v_add_nc_u32 v12, 1, v12
  flat_store_b32 v[10:11], v12 offset:512  // slot 2 = l + 6
  v_mov_b32 v13, 1
  v_mov_b32 v14, 0
  global_atomic_add_u32 v14, v13, s[2:3] offset:768   // slot 3 lane 0 = lanes
KEND k_mem

// ---- private segment through flat scratch (architected: the dispatcher sets FLAT_SCRATCH)
.text
.globl k_scratch
.p2align 8
.type k_scratch,@function
k_scratch:
  s_load_b64 s[2:3], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  v_mul_u32_u24 v2, v0, 7
  scratch_store_b32 off, v2, off offset:16
  v_mov_b32 v3, 24
  scratch_store_b32 v3, v0, off
  v_mov_b32 v2, 0
  scratch_load_b32 v2, off, off offset:16
  s_waitcnt vmcnt(0)
  ST 0, v2                         // 7l
  scratch_load_b32 v4, v3, off offset:0
  s_waitcnt vmcnt(0)
  ST 1, v4                         // l
  s_endpgm
  .size k_scratch, .-k_scratch
  .rodata
  .p2align 6
  .amdhsa_kernel k_scratch
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_enable_private_segment 1
    .amdhsa_next_free_vgpr 32
    .amdhsa_next_free_sgpr 40
    .amdhsa_wavefront_size32 1
    .amdhsa_kernarg_size 16
    .amdhsa_private_segment_fixed_size 32
  .end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - {.name: k_salu, .symbol: k_salu.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_valu, .symbol: k_valu.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_exec, .symbol: k_exec.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_ds, .symbol: k_ds.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 1024, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_dpp, .symbol: k_dpp.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_vopd, .symbol: k_vopd.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_mem, .symbol: k_mem.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_scratch, .symbol: k_scratch.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 32, .wavefront_size: 32, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
...
.end_amdgpu_metadata

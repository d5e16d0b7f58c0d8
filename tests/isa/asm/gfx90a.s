// isa-emu unit kernels for gfx90a (wave64). Same conventions as gfx1100.s:
// kernarg 0 = out pointer; result j of work-item l at out[j * 64 + l]; v1 = 4 * l.
.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
.macro KBEGIN name
  .text
  .globl \name
  .p2align 8
  .type \name,@function
\name:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
.endm
.macro KEND name, lds=0
  s_endpgm
  .size \name, .-\name
  .rodata
  .p2align 6
  .amdhsa_kernel \name
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_next_free_vgpr 32
    .amdhsa_next_free_sgpr 40
    .amdhsa_accum_offset 32
    .amdhsa_kernarg_size 16
    .amdhsa_group_segment_fixed_size \lds
  .end_amdhsa_kernel
.endm
.macro ST j, v
  global_store_dword v1, \v, s[2:3] offset:\j*256
.endm
.macro STS j, s
  v_mov_b32 v31, \s
  ST \j, v31
.endm

// ---- SALU with 64-bit masks
KBEGIN k_salu
  s_mov_b32 s4, 0xfffffff0
  s_add_u32 s5, s4, 0x20          // 0x10, SCC = 1
  s_addc_u32 s7, 1, 2             // 4
  s_ff1_i32_b64 s8, s[10:11]      // placeholder, overwritten below
  s_mov_b32 s10, 0
  s_mov_b32 s11, 0x10
  s_ff1_i32_b64 s8, s[10:11]      // 36
  s_bcnt1_i32_b64 s9, -1          // 64
  s_andn2_b64 s[12:13], -1, s[10:11] // ~0x1000000000
  s_cmp_eq_u64 s[10:11], 0        // SCC = 0
  s_cselect_b32 s14, 1, 2         // 2
  s_movk_i32 s15, 0x7fff          // 0x7fff
  STS 0, s5
  STS 1, s7
  STS 2, s8
  STS 3, s9
  STS 4, s12
  STS 5, s13
  STS 6, s14
  STS 7, s15
KEND k_salu

// ---- VALU (gfx9 encodings: VOP2 carry ops write VCC)
KBEGIN k_valu
  v_add_u32 v2, v0, 10             // l + 10
  ST 0, v2
  v_sub_u32 v2, 100, v0            // 100 - l
  ST 1, v2
  v_add_co_u32 v4, vcc, -1, v0     // l - 1, carry = l != 0
  v_mov_b32 v8, 9
  v_addc_co_u32 v5, vcc, 0, v8, vcc // 9 + carry
  ST 2, v5
  v_mbcnt_lo_u32_b32 v2, -1, 0
  v_mbcnt_hi_u32_b32 v2, -1, v2    // l
  ST 3, v2
  v_cvt_f32_u32 v3, v0
  v_fma_f32 v2, v3, v3, 1.0        // l * l + 1
  ST 4, v2
  s_mov_b32 s20, 0x80000000
  v_mov_b32 v6, v0
  v_mov_b32 v7, 0
  v_mad_u64_u32 v[4:5], s[24:25], v0, s20, v[6:7]
  ST 5, v4
  ST 6, v5
  v_cmp_gt_u32_e32 vcc, 40, v0     // l < 40
  v_mov_b32 v9, vcc_hi
  ST 7, v9                         // 0xff
  v_readlane_b32 s21, v0, 50
  STS 8, s21                       // 50
  v_cvt_f64_u32 v[10:11], v0
  v_add_f64 v[10:11], v[10:11], 0.5
  v_cvt_f32_f64 v2, v[10:11]       // l + 0.5
  ST 9, v2
KEND k_valu

// ---- packed f32 (VOP3P) and AGPRs
KBEGIN k_vop3p
  v_cvt_f32_u32 v2, v0             // x = l
  v_mov_b32 v3, 2.0                // y = 2
  v_mov_b32 v4, 1.0
  v_mov_b32 v5, 0.5
  v_pk_fma_f32 v[6:7], v[2:3], v[4:5], v[4:5]   // (l*1+1, 2*0.5+0.5)
  ST 0, v6
  ST 1, v7
  v_pk_fma_f32 v[2:3], v[2:3], v[2:3], v[4:5] op_sel_hi:[0,1,1] // hi uses x: (l*l+1, l*2+0.5); d overlaps srcs
  ST 2, v2
  ST 3, v3
  v_pk_mov_b32 v[8:9], v[4:5], v[6:7] op_sel:[1,0]   // (v5, v6)
  ST 4, v8
  ST 5, v9
  v_accvgpr_write_b32 a3, v0
  v_accvgpr_read_b32 v10, a3
  ST 6, v10
KEND k_vop3p

// ---- DS and s_barrier over two waves (launch 128)
KBEGIN k_ds
  v_mul_u32_u24 v2, v0, 3
  ds_write_b32 v1, v2
  s_waitcnt lgkmcnt(0)
  s_barrier
  v_add_u32 v4, 64, v0
  v_and_b32 v4, 127, v4
  v_lshlrev_b32 v4, 2, v4
  ds_read_b32 v2, v4               // lds[(l + 64) % 128]: the other wave's data
  s_waitcnt lgkmcnt(0)
  v_and_b32 v5, 63, v0
  v_lshlrev_b32 v5, 2, v5
  v_cmp_gt_u32_e32 vcc, 64, v0
  s_and_saveexec_b64 s[4:5], vcc
  ST 0, v2
  s_or_b64 exec, exec, s[4:5]
  v_xor_b32 v4, 33, v0
  v_lshlrev_b32 v4, 2, v4
  ds_bpermute_b32 v2, v4, v0       // (l ^ 33) within the wave
  s_waitcnt lgkmcnt(0)
  s_and_saveexec_b64 s[4:5], vcc
  ST 1, v2
  s_or_b64 exec, exec, s[4:5]
KEND k_ds, 512

// ---- DPP (gfx9 controls)
KBEGIN k_dpp
  v_mov_b32 v2, 77
  v_mov_b32_dpp v2, v0 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
  ST 0, v2                         // l % 16 ? l - 1 : 0
  v_mov_b32 v3, 5
  v_mov_b32_dpp v3, v0 wave_shr:1 row_mask:0xf bank_mask:0xf
  ST 1, v3                         // l ? l - 1 : 5
  v_mov_b32 v4, 9
  v_mov_b32_dpp v4, v0 row_bcast:15 row_mask:0xa bank_mask:0xf
  ST 2, v4                         // rows 1, 3 get lane 15 of the previous row
KEND k_dpp

// ---- scratch through the private segment buffer (MUBUF, swizzled)
.text
.globl k_scratch
.p2align 8
.type k_scratch,@function
k_scratch:
  s_load_dwordx2 s[8:9], s[4:5], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  v_mul_u32_u24 v2, v0, 7
  buffer_store_dword v2, off, s[0:3], s6 offset:16
  v_mov_b32 v3, 8
  buffer_store_dword v0, v3, s[0:3], s6 offen offset:4
  v_mov_b32 v2, 0
  buffer_load_dword v2, off, s[0:3], s6 offset:16
  s_waitcnt vmcnt(0)
  global_store_dword v1, v2, s[8:9]
  buffer_load_dword v4, v3, s[0:3], s6 offen offset:4
  s_waitcnt vmcnt(0)
  global_store_dword v1, v4, s[8:9] offset:256
  s_endpgm
  .size k_scratch, .-k_scratch
  .rodata
  .p2align 6
  .amdhsa_kernel k_scratch
    .amdhsa_user_sgpr_private_segment_buffer 1
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 0
    .amdhsa_system_sgpr_private_segment_wavefront_offset 1
    .amdhsa_next_free_vgpr 32
    .amdhsa_next_free_sgpr 40
    .amdhsa_accum_offset 32
    .amdhsa_kernarg_size 16
    .amdhsa_private_segment_fixed_size 32
  .end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.target: amdgcn-amd-amdhsa--gfx90a
amdhsa.kernels:
  - {.name: k_salu, .symbol: k_salu.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_valu, .symbol: k_valu.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_vop3p, .symbol: k_vop3p.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_ds, .symbol: k_ds.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 512, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_dpp, .symbol: k_dpp.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_scratch, .symbol: k_scratch.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 32, .wavefront_size: 64, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
...
.end_amdgpu_metadata

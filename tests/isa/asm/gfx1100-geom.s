// isa-emu unit kernel for gfx1100 (wave32): dispatch geometry, partial workgroups included
// (an AQL grid need not be a multiple of the workgroup size; the last workgroup of a
// dimension is smaller). Every work-item writes one 8-word record at
// out[(gy * 48 + gx) * 8], gx = wg_x * wsize_x + tid_x, gy = wg_y * wsize_y + tid_y:
//   0: tid_x | tid_y << 8 | wg_x << 16 | wg_y << 24 | 1 << 31
//   1: work-items of its workgroup (LDS[0] += 1 per active lane, s_barrier, read back)
//   2: hidden_remainder_x | hidden_remainder_y << 16
//   3: active lanes of its wave | hidden_block_count_x << 8 | hidden_block_count_y << 16
//   4, 5: the dispatch packet's grid_size_x, grid_size_y
//   6: the packet's workgroup_size_x | workgroup_size_y << 16
//   7: 0x600d
// Registers at entry: s[0:1] dispatch ptr, s[2:3] kernarg ptr, s4 / s5 workgroup id x / y,
// v0 = tid_x | tid_y << 10 (packed work-item IDs).
.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"
  .text
  .globl k_geom
  .p2align 8
  .type k_geom,@function
k_geom:
  s_load_b64 s[6:7], s[2:3], 0x0                     // out
  s_load_b64 s[8:9], s[2:3], 0x8                     // hidden_block_count_x, _y
  s_load_b32 s10, s[2:3], 0x10                       // hidden_remainder_x | _y << 16
  s_load_b32 s11, s[0:1], 0x4                        // packet workgroup_size_x | _y << 16
  s_load_b64 s[12:13], s[0:1], 0xc                   // packet grid_size_x, _y
  v_and_b32 v1, 0x3ff, v0                            // tid_x
  v_bfe_u32 v2, v0, 10, 10                           // tid_y
  v_mov_b32 v3, 1
  v_mov_b32 v4, 0
  ds_add_u32 v4, v3
  s_waitcnt lgkmcnt(0)
  s_barrier
  ds_load_b32 v5, v4                                 // work-items of this workgroup
  s_and_b32 s14, s11, 0xffff                         // wsize_x
  s_lshr_b32 s15, s11, 16                            // wsize_y
  s_mul_i32 s14, s14, s4
  s_mul_i32 s15, s15, s5
  v_add_nc_u32 v6, s14, v1                           // gx
  v_add_nc_u32 v7, s15, v2                           // gy
  v_mad_u32_u24 v8, v7, 48, v6
  v_lshlrev_b32 v8, 5, v8                            // record byte offset
  v_lshlrev_b32 v9, 8, v2
  v_or_b32 v9, v9, v1
  s_lshl_b32 s16, s4, 16
  s_lshl_b32 s17, s5, 24
  s_or_b32 s16, s16, s17
  s_bitset1_b32 s16, 31
  v_or_b32 v12, s16, v9                              // word 0
  s_bcnt1_i32_b32 s18, exec_lo
  s_lshl_b32 s19, s8, 8
  s_or_b32 s18, s18, s19
  s_lshl_b32 s19, s9, 16
  s_or_b32 s18, s18, s19
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v13, v5                                  // word 1
  v_mov_b32 v14, s10                                 // word 2
  v_mov_b32 v15, s18                                 // word 3
  v_mov_b32 v16, s12
  v_mov_b32 v17, s13
  v_mov_b32 v18, s11
  v_mov_b32 v19, 0x600d
  global_store_b128 v8, v[12:15], s[6:7]
  global_store_b128 v8, v[16:19], s[6:7] offset:16
  s_endpgm
  .size k_geom, .-k_geom
  .rodata
  .p2align 6
  .amdhsa_kernel k_geom
    .amdhsa_user_sgpr_dispatch_ptr 1
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_sgpr_workgroup_id_y 1
    .amdhsa_system_vgpr_workitem_id 1
    .amdhsa_next_free_vgpr 32
    .amdhsa_next_free_sgpr 40
    .amdhsa_wavefront_size32 1
    .amdhsa_kernarg_size 24
    .amdhsa_group_segment_fixed_size 4
  .end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - {.name: k_geom, .symbol: k_geom.kd, .kernarg_segment_size: 24, .kernarg_segment_align: 8, .group_segment_fixed_size: 4, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 1024, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.offset: 8, .size: 4, .value_kind: hidden_block_count_x}, {.offset: 12, .size: 4, .value_kind: hidden_block_count_y}, {.offset: 16, .size: 2, .value_kind: hidden_remainder_x}, {.offset: 18, .size: 2, .value_kind: hidden_remainder_y}]}
...
.end_amdgpu_metadata

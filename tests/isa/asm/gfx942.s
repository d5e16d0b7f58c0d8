// isa-emu unit kernels for gfx942 (wave64, architected flat scratch):
// v_mov_b64, v_lshl_add_u64, scratch with vaddr only (the SVE-bit "_VE"
// encoding) and vaddr + saddr, buffer_inv / buffer_wbl2 (no-ops in the
// coherent model), global packed-f16 atomic add. Conventions as in
// gfx90a.s: result j of work-item l at out[j * 64 + l]; v1 = 4 * l.
.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
.text
.globl k_942
.p2align 8
.type k_942,@function
k_942:
  s_load_dwordx2 s[2:3], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v4, v0
  v_add_u32 v5, 1, v0
  v_mov_b64 v[2:3], v[4:5]                           // (l, l + 1)
  global_store_dword v1, v2, s[2:3]
  global_store_dword v1, v3, s[2:3] offset:256
  v_lshl_add_u64 v[6:7], v[4:5], 2, v[4:5]           // 5 * (l + (l+1) 2^32)
  global_store_dword v1, v6, s[2:3] offset:512
  global_store_dword v1, v7, s[2:3] offset:768
  v_mov_b32 v8, 8
  v_mul_u32_u24 v9, 7, v0
  scratch_store_dword v8, v9, off                    // private[8] = 7 l (vaddr only)
  s_mov_b32 s6, 4
  scratch_store_dword v8, v0, s6 offset:8            // private[20] = l (vaddr + saddr)
  buffer_wbl2 sc1
  buffer_inv sc0 sc1
  scratch_load_dword v10, v8, off
  v_mov_b32 v11, 16
  scratch_load_dword v12, v11, off offset:4
  s_waitcnt vmcnt(0)
  global_store_dword v1, v10, s[2:3] offset:1024     // 7 l
  global_store_dword v1, v12, s[2:3] offset:1280     // l
  v_cvt_f32_u32 v13, v0
  v_cvt_f16_f32 v13, v13
  v_or_b32 v13, 0x3e000000, v13                      // (1.5, l) as packed f16
  v_add_u32 v14, 0x600, v1                           // out slot 6
  v_mov_b32 v15, 0
  global_atomic_pk_add_f16 v14, v13, s[2:3]          // 0 + (1.5, l)
  global_atomic_pk_add_f16 v14, v13, s[2:3]          // (3.0, 2l)
  s_endpgm
  .size k_942, .-k_942
  .rodata
  .p2align 6
  .amdhsa_kernel k_942
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_enable_private_segment 1
    .amdhsa_next_free_vgpr 32
    .amdhsa_next_free_sgpr 40
    .amdhsa_accum_offset 32
    .amdhsa_kernarg_size 16
    .amdhsa_private_segment_fixed_size 32
  .end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.target: amdgcn-amd-amdhsa--gfx942
amdhsa.kernels:
  - {.name: k_942, .symbol: k_942.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 32, .wavefront_size: 64, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
...
.end_amdgpu_metadata

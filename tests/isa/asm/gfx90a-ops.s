// isa-emu unit kernels for gfx90a (wave64), second file: opcodes that real
// code objects use (fma_mix*, v_mac_f32, v_sub_i16, LDS f64
// atomics and D16 loads, SDWA carry forms, s_bfe_i64, negative global offsets),
// HW_ID, the clamp bit of float results (k_clamp), and the explicit refusal
// of hardware register 29. Conventions as in gfx90a.s: kernarg 0 = out
// pointer; result j of work-item l at out[j * 64 + l]; v1 = 4 * l.
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

// ---- v_fma_mix* (f16 sources by op_sel_hi, high halves by op_sel), v_mac_f32, v_sub_i16
KBEGIN k_mix
  v_cvt_f32_u32 v2, v0                               // x = l (f32)
  v_cvt_f16_f32 v3, v2                               // h = l (f16, low half)
  v_mov_b32 v20, 1.0                                 // (an inline constant in a mix source is the
  v_fma_mix_f32 v4, v3, v3, v20 op_sel_hi:[1,1,0]    //  f16 encoding, 0x3c00, even for an f32 source)
  ST 0, v4
  v_mov_b32 v5, 0xabcd0000
  v_fma_mixlo_f16 v5, v2, v2, v2                     // low = f16(l*l + l), high kept
  ST 1, v5
  v_mov_b32 v6, 0x1234
  v_fma_mixhi_f16 v6, v2, v2, v2                     // high = f16(l*l + l), low kept
  ST 2, v6
  v_mov_b32 v7, 0x3f801000                           // 1 + 2^-11: an f16 tie
  v_mov_b32 v8, 1.0
  v_mov_b32 v9, 0x30800000                           // 2^-30 breaks the tie upward
  v_mov_b32 v10, 0
  v_fma_mixlo_f16 v10, v7, v8, v9                    // one rounding: 0x3c01 (via f32: 0x3c00)
  ST 3, v10
  v_fma_mix_f32 v11, v2, v2, 0 clamp                 // min(l*l, 1)
  ST 4, v11
  v_lshlrev_b32 v12, 16, v3                          // h in the high half
  v_fma_mix_f32 v13, v12, v12, v2 op_sel:[1,1,0] op_sel_hi:[1,1,0] // l*l + l
  ST 5, v13
  v_mov_b32 v14, -2.0
  v_fma_mix_f32 v15, -v2, |v14|, v2                  // -2l + l
  ST 6, v15
  v_mov_b32 v16, 0.5
  v_mac_f32 v16, v2, v2                              // l*l + 0.5
  ST 7, v16
  v_mov_b32 v17, 0xffff8300                          // -32000
  v_mul_u32_u24 v18, 100, v0
  v_sub_i16 v19, v17, v18 clamp                      // sat16(-32000 - 100 l)
  ST 8, v19
KEND k_mix

// ---- LDS: f64 atomics (with and without return), D16 loads / d16_hi store
KBEGIN k_lds
  v_mov_b32 v2, 0
  v_mov_b32 v3, 0
  v_mov_b32 v20, 0
  ds_write_b64 v20, v[2:3]                           // lds[0] = 0.0
  v_cvt_f64_u32 v[10:11], v0
  v_lshlrev_b32 v12, 3, v0
  ds_write_b64 v12, v[10:11] offset:8                // lds[8 + 8l] = l
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v4, 0
  v_mov_b32 v5, 0x3ff00000                           // 1.0
  ds_add_f64 v20, v[4:5]                             // 64 lanes: lds[0] = 64
  v_mov_b32 v14, 0
  v_mov_b32 v15, 0x3fe00000                          // 0.5
  ds_add_rtn_f64 v[16:17], v12, v[14:15] offset:8    // returns l, leaves l + 0.5
  s_waitcnt lgkmcnt(0)
  ds_read_b64 v[18:19], v12 offset:8
  ds_read_b64 v[22:23], v20
  s_waitcnt lgkmcnt(0)
  v_cvt_f32_f64 v24, v[16:17]
  ST 0, v24                                          // l
  v_cvt_f32_f64 v24, v[18:19]
  ST 1, v24                                          // l + 0.5
  v_cvt_f32_f64 v24, v[22:23]
  ST 2, v24                                          // 64
  // p_l = (0x80 + l) << 24 | l << 16 | (0x1100 + l) at 1024 + 4 l
  v_lshlrev_b32 v2, 16, v0
  s_movk_i32 s10, 0x1100
  v_add3_u32 v2, v2, v0, s10
  v_add_u32 v5, 0x80, v0
  v_lshlrev_b32 v5, 24, v5
  v_or_b32 v2, v2, v5
  ds_write_b32 v1, v2 offset:1024
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v3, 0xdeadbeef
  ds_read_u16_d16 v3, v1 offset:1026                 // low = bits 31:16 of p_l
  v_mov_b32 v4, 0x12345678
  ds_read_u16_d16_hi v4, v1 offset:1024              // high = bits 15:0 of p_l
  v_mov_b32 v6, 0x77770000
  ds_read_i8_d16 v6, v1 offset:1027                  // low = sext16(0x80 + l)
  v_mov_b32 v7, 0x4321
  ds_read_u8_d16_hi v7, v1 offset:1025               // high = 0x11
  s_waitcnt lgkmcnt(0)
  ST 3, v3
  ST 4, v4
  ST 5, v6
  ST 6, v7
  v_lshlrev_b32 v8, 1, v0
  ds_write_b16_d16_hi v8, v4 offset:1536             // the high half of v4
  s_waitcnt lgkmcnt(0)
  ds_read_u16 v9, v8 offset:1536
  s_waitcnt lgkmcnt(0)
  ST 7, v9                                           // 0x1100 + l
KEND k_lds, 2048

// ---- SDWA forms of the carry ops (carry / borrow out in VCC) and s_bfe_i64
KBEGIN k_sdwa
  v_lshlrev_b32 v21, 8, v0
  v_or_b32 v21, 0xff, v21                            // BYTE_1 = l
  v_mov_b32 v22, 0x1234fffa                          // WORD_0 = 0xfffa
  v_add_co_u32_sdwa v20, vcc, v21, v22 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:WORD_0
  ST 0, v20                                          // (0xfffa + l) & 0xffff in the high word
  v_mov_b32 v24, 0xffffffe0
  v_mov_b32 v23, 0xabcd0000
  v_add_co_u32_sdwa v23, vcc, v24, v0 dst_sel:WORD_0 dst_unused:UNUSED_PRESERVE src0_sel:DWORD src1_sel:DWORD
  v_cndmask_b32 v26, 0, 1, vcc                       // carry: l >= 32
  ST 1, v23
  ST 2, v26
  v_mov_b32 v28, 0x0014ffff                          // WORD_1 = 20
  v_sub_co_u32_sdwa v27, vcc, v28, v0 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:BYTE_0
  v_cndmask_b32 v30, 0, 1, vcc                       // borrow: l > 20
  ST 3, v27
  ST 4, v30
  s_mov_b32 s4, 0x80000000
  s_mov_b32 s5, 0x80000001                           // a = 0x80000001_80000000
  s_bfe_i64 s[6:7], s[4:5], 0x2001f                  // bits 32:31 = 0b11 -> -1
  s_bfe_i64 s[8:9], s[4:5], 0x2001e                  // bits 31:30 = 0b10 -> -2
  s_bfe_i64 s[10:11], s[4:5], 0x400021               // width 64 at 33: a >> 33 (arithmetic)
  s_bfe_i64 s[12:13], s[4:5], 0x3001f                // bits 33:31 = 0b011 -> 3
  STS 5, s6
  STS 6, s7
  STS 7, s8
  STS 8, s9
  STS 9, s10
  STS 10, s11
  STS 11, s12
  STS 12, s13
  ST 13, v0                                          // slot 13 = l
  s_waitcnt vmcnt(0)
  v_add_u32 v23, 14*256, v1
  global_load_dword v22, v23, s[2:3] offset:-256     // 13-bit signed offset: slot 13
  v_mov_b32 v24, s2
  v_mov_b32 v25, s3
  v_add_co_u32 v24, vcc, v24, v23
  v_addc_co_u32 v25, vcc, 0, v25, vcc
  global_load_dword v26, v[24:25], off offset:-252   // vaddr64 form: slot 13, word l + 1
  s_waitcnt vmcnt(0)
  ST 14, v22                                         // l
  ST 15, v26                                         // l + 1 (0 for the last lane: slot 14 is still 0)
KEND k_sdwa

// ---- hardware register 29 is SHADER_CYCLES on gfx10.3/gfx11 only: a named fault here
KBEGIN k_hwreg29
  s_getreg_b32 s4, hwreg(29)
  STS 0, s4
KEND k_hwreg29

// ---- HW_ID (register 4, read only): the device library's %smid. isa-emu's placement: WAVE_ID
// [3:0] = the wave's index in the work-group, CU_ID [11:8] = (x + 3y + 5z) & 15 of the group id.
KBEGIN k_hwid
  s_getreg_b32 s4, hwreg(HW_REG_HW_ID)
  STS 0, s4
  s_getreg_b32 s5, hwreg(HW_REG_HW_ID, 8, 7)
  STS 2, s5
KEND k_hwid

// ---- the clamp bit of float results ([+0, 1], NaN -> +0, -0 -> +0), f16, f32, f64, packed f16 /
// f32; omod on f16; v_pk_add_u16 clamp (unsigned saturation). x = (l - 8) / 4 in [-2, 13.75].
KBEGIN k_clamp
  v_cvt_f32_u32 v2, v0
  v_subrev_f32 v2, 0x41000000, v2                    // l - 8
  v_mul_f32 v2, 0.25, v2                             // x (f32, exact)
  v_cvt_f16_f32 v3, v2                               // h = x (f16, high half zeroed)
  v_trunc_f16_e64 v4, v3 clamp                       // clamp(trunc(x))
  ST 0, v4
  v_add_f16_e64 v5, v3, 0.5 clamp                    // clamp(x + 0.5)
  ST 1, v5
  v_fma_f16 v6, v3, v3, -0.5 clamp                   // clamp(x * x - 0.5)
  ST 2, v6
  v_cvt_f16_f32_e64 v7, v2 clamp                     // clamp(x) as f16
  ST 3, v7
  v_mul_f16_e64 v8, -1.0, v3                         // -x (a -0 for x = +0)
  v_lshl_or_b32 v9, v3, 16, v8                       // packed (lo -x, hi x)
  v_pk_add_f16 v10, v9, 0 clamp                      // (clamp(-x), clamp(x))
  ST 4, v10
  v_add_f32_e64 v11, v2, 0 clamp                     // clamp(x) f32
  ST 5, v11
  v_cvt_f64_f32 v[12:13], v2
  v_add_f64 v[14:15], v[12:13], 0 clamp              // clamp(x) f64 (high word)
  ST 6, v15
  v_mul_f16_e64 v16, v8, 1.0 clamp                   // clamp(-x): +0 for -0 and negatives
  ST 7, v16
  v_mul_f16_e64 v17, v8, 1.0                         // -x without clamp: 0x8000 for x = 0
  ST 8, v17
  v_mov_b32 v18, 0x7e00                              // f16 NaN
  v_add_f16_e64 v19, v18, v3 clamp                   // NaN -> +0
  ST 9, v19
  v_add_f16_e64 v20, v3, 0 mul:2                     // omod: 2x
  ST 10, v20
  v_cvt_f32_ubyte0_e64 v21, v0 clamp                 // clamp(float(l))
  ST 11, v21
  v_sub_f32 v22, 0, v2                               // -x (f32)
  v_mov_b32 v23, v2                                  // v[22:23] = (-x, x)
  v_cvt_pkrtz_f16_f32 v24, v22, v2 clamp             // (clamp(-x), clamp(x))
  ST 12, v24
  v_lshl_or_b32 v25, v0, 16, v0                      // (l, l)
  v_mov_b32 v26, 0xfff0fff0
  v_pk_add_u16 v27, v26, v25 clamp                   // min(0xfff0 + l, 0xffff) per half
  ST 13, v27
  v_pk_add_f32 v[28:29], v[22:23], 0 clamp           // (clamp(-x), clamp(x)) f32
  ST 14, v29
  v_pk_fma_f32 v[28:29], v[22:23], 1.0, 0 clamp      // (clamp(-x), clamp(x)) f32, fused
  ST 15, v28
KEND k_clamp

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.target: amdgcn-amd-amdhsa--gfx90a
amdhsa.kernels:
  - {.name: k_mix, .symbol: k_mix.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_clamp, .symbol: k_clamp.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_lds, .symbol: k_lds.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 2048, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_sdwa, .symbol: k_sdwa.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_hwid, .symbol: k_hwid.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_hwreg29, .symbol: k_hwreg29.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 64, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
...
.end_amdgpu_metadata

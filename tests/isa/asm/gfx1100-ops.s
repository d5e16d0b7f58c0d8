// isa-emu unit kernels for gfx1100 (wave32), second file: opcodes that real
// code objects use (v_fmamk/fmaak_f16, v_fma_mixlo_f16 with one rounding,
// f16 rounding under MODE, v_sub_nc_i16 clamp, LDS D16 loads) and
// s_getreg of SHADER_CYCLES (hardware register 29), negative global offsets,
// v_maxmin_f32 / v_minmax_f32; k_spin never ends (the watchdog's test); k_gridsync waits
// for every workgroup of the grid (cooperative launches); k_call calls a function without .size;
// k_clamp: the clamp bit (and omod) of f16 / f32 / f64 / packed results.
// Conventions as in
// gfx1100.s: result j of work-item l at out[j * 64 + l]; v1 = 4 * l.
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
.macro KEND name, lds=0
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
  .end_amdhsa_kernel
.endm
.macro ST j, v
  global_store_b32 v1, \v, s[2:3] offset:\j*256
.endm
.macro STS j, s
  v_mov_b32 v31, \s
  ST \j, v31
.endm

// ---- 16-bit float: fmamk/fmaak, mixlo, MODE's f16 round mode; v_sub_nc_i16 clamp
KBEGIN k_f16
  v_cvt_f32_u32 v2, v0                               // x = l (f32)
  v_mov_b32 v3, 0
  v_cvt_f16_f32 v3, v2                               // h = l (f16, low half)
  v_mov_b32 v4, 0
  v_fmamk_f16 v4, v3, 0x4000, v3                     // 2l + l
  ST 0, v4
  v_mov_b32 v5, 0
  v_fmaak_f16 v5, v3, v3, 0x3c00                     // f16(l*l + 1), nearest-even
  ST 1, v5
  s_round_mode 0x4                                   // f16/f64 round toward +inf
  v_mov_b32 v6, 0
  v_fmaak_f16 v6, v3, v3, 0x3c00                     // f16(l*l + 1), upward
  s_round_mode 0x0
  ST 2, v6
  v_mov_b32 v7, 0x55550000
  v_fma_mixlo_f16 v7, v2, v2, v2                     // low = f16(l*l + l), high kept
  ST 3, v7
  v_mov_b32 v8, 0x3f801000                           // 1 + 2^-11: an f16 tie
  v_mov_b32 v9, 1.0
  v_mov_b32 v10, 0x30800000                          // 2^-30 breaks the tie upward
  v_mov_b32 v11, 0
  v_fma_mixlo_f16 v11, v8, v9, v10                   // one rounding: 0x3c01
  ST 4, v11
  v_mov_b32 v12, 0xffff8300                          // -32000
  v_mul_u32_u24 v13, 100, v0
  v_mov_b32 v14, 0
  v_sub_nc_i16 v14, v12, v13 clamp                   // sat16(-32000 - 100 l)
  ST 5, v14
  v_mov_b32 v15, 0
  v_cvt_f16_f32 v15, v10                             // 2^-30 is below the f16 range: +0
  s_round_mode 0x4
  v_cvt_f16_f32 v16, v10                             // upward: the smallest denormal 0x0001
  s_round_mode 0x0
  v_and_b32 v16, 0xffff, v16
  ST 6, v15
  ST 7, v16
KEND k_f16

// ---- LDS D16 loads; s_getreg of SHADER_CYCLES (a 20-bit clock that advances)
KBEGIN k_lds
  v_lshlrev_b32 v2, 16, v0
  s_movk_i32 s10, 0x1100
  v_add3_u32 v2, v2, v0, s10
  v_add_nc_u32 v5, 0x80, v0
  v_lshlrev_b32 v5, 24, v5
  v_or_b32 v2, v2, v5                                // p_l = (0x80 + l) << 24 | l << 16 | (0x1100 + l)
  ds_store_b32 v1, v2
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v3, 0xdeadbeef
  ds_load_u16_d16 v3, v1 offset:2
  v_mov_b32 v4, 0x12345678
  ds_load_u16_d16_hi v4, v1
  v_mov_b32 v6, 0x77770000
  ds_load_i8_d16 v6, v1 offset:3
  v_mov_b32 v7, 0x4321
  ds_load_u8_d16_hi v7, v1 offset:1
  s_waitcnt lgkmcnt(0)
  ST 0, v3
  ST 1, v4
  ST 2, v6
  ST 3, v7
  s_getreg_b32 s4, hwreg(HW_REG_SHADER_CYCLES, 0, 20)
  s_nop 0
  s_nop 0
  s_getreg_b32 s5, hwreg(HW_REG_SHADER_CYCLES, 0, 20)
  s_sub_u32 s6, s5, s4
  s_cmp_gt_u32 s6, 0
  s_cselect_b32 s7, 1, 0
  s_lshr_b32 s8, s5, 20                              // a 20-bit field
  STS 4, s7
  STS 5, s8
  ST 6, v0                                           // slot 6 = l
  s_waitcnt vmcnt(0)
  v_add_nc_u32 v20, 7*256, v1
  global_load_b32 v21, v20, s[2:3] offset:-256       // 13-bit signed offset: slot 6
  s_waitcnt vmcnt(0)
  ST 7, v21                                          // l
KEND k_lds, 256

// ---- v_maxmin_f32 / v_minmax_f32 (clamps as clang emits them: fminf(fmaxf(x, lo), hi))
KBEGIN k_minmax
  v_cvt_f32_u32 v2, v0                               // x = l
  v_mov_b32 v3, 0x41200000                           // 10.0
  v_maxmin_f32 v4, v2, 4.0, v3                       // min(max(l, 4), 10)
  v_minmax_f32 v5, v2, v3, 4.0                       // max(min(l, 10), 4)
  v_mov_b32 v6, 0x7fc00000                           // NaN
  v_maxmin_f32 v7, v6, v2, v3                        // max(NaN, l) = l, then min(l, 10)
  v_cvt_u32_f32 v4, v4
  v_cvt_u32_f32 v5, v5
  v_cvt_u32_f32 v7, v7
  ST 0, v4
  ST 1, v5
  ST 2, v7
KEND k_minmax

// ---- an endless loop: the watchdog (DeviceOptions::maxWaveInstructions) must end it
KBEGIN k_spin
  s_mov_b32 s4, 0
.Lspin:
  s_add_u32 s4, s4, 1
  s_branch .Lspin
KEND k_spin

// ---- a grid barrier (cooperative launches): lane 0 of every workgroup adds 1 to out[1023],
// then every wave spins until the count reaches a (the number of workgroups) and stores it
KBEGIN k_gridsync
  s_load_b32 s6, s[0:1], 0x8                         // a = workgroups in the grid
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v2, 1
  v_mov_b32 v3, 0xffc                                // byte offset of out[1023]
  v_cmp_eq_u32 vcc_lo, 0, v0
  s_and_saveexec_b32 s7, vcc_lo
  global_atomic_add_u32 v3, v2, s[2:3]
  s_or_b32 exec_lo, exec_lo, s7
.Lgs_wait:
  global_load_b32 v4, v3, s[2:3] glc
  s_waitcnt vmcnt(0)
  v_cmp_ne_u32 vcc_lo, s6, v4
  s_cbranch_vccnz .Lgs_wait
  ST 0, v4                                           // a
KEND k_gridsync

// ---- a call into a function symbol without .size (decoded up to the next function / .text end)
KBEGIN k_call
  s_getpc_b64 s[4:5]
  s_add_u32 s4, s4, f_nosize@rel32@lo+4
  s_addc_u32 s5, s5, f_nosize@rel32@hi+12
  s_swappc_b64 s[30:31], s[4:5]
  ST 0, v2                                           // 3 * l + 7 (computed in f_nosize)
KEND k_call

  .text
  .p2align 8
  .type f_nosize,@function                           // no .size directive
f_nosize:
  v_mul_u32_u24 v2, 3, v0
  v_add_nc_u32 v2, 7, v2
  s_setpc_b64 s[30:31]

// ---- the clamp bit of float results ([+0, 1], NaN -> +0, -0 -> +0), f16 (true16), f32, f64,
// packed; omod on f16; v_pk_add_u16 clamp (unsigned saturation). x = (l - 8) / 4 in [-2, 13.75].
KBEGIN k_clamp
  v_cvt_f32_u32 v2, v0
  v_subrev_f32 v2, 0x41000000, v2                    // l - 8
  v_mul_f32 v2, 0.25, v2                             // x (f32, exact)
  v_mov_b32 v3, 0
  v_cvt_f16_f32 v3.l, v2                             // h = x (f16, exact)
  v_mov_b32 v4, 0
  v_trunc_f16_e64 v4.l, v3.l clamp                   // clamp(trunc(x))
  ST 0, v4
  v_mov_b32 v5, 0
  v_add_f16_e64 v5.l, v3.l, 0.5 clamp                // clamp(x + 0.5)
  ST 1, v5
  v_mov_b32 v6, 0
  v_fma_f16 v6.l, v3.l, v3.l, -0.5 clamp             // clamp(x * x - 0.5)
  ST 2, v6
  v_mov_b32 v7, 0
  v_cvt_f16_f32_e64 v7.l, v2 clamp                   // clamp(x) as f16
  ST 3, v7
  v_mul_f16_e64 v8.l, -1.0, v3.l                     // -x (a -0 for x = +0)
  v_mov_b16 v8.h, v3.l                               // packed (lo -x, hi x)
  v_pk_add_f16 v9, v8, 0 clamp                       // (clamp(-x), clamp(x))
  ST 4, v9
  v_add_f32_e64 v10, v2, 0 clamp                     // clamp(x) f32
  ST 5, v10
  v_cvt_f64_f32 v[12:13], v2
  v_add_f64 v[14:15], v[12:13], 0 clamp              // clamp(x) f64 (high word)
  ST 6, v15
  v_mov_b32 v16, 0
  v_mul_f16_e64 v16.l, v8.l, 1.0 clamp               // clamp(-x): +0 for -0 and negatives
  ST 7, v16
  v_mov_b32 v17, 0
  v_mul_f16_e64 v17.l, v8.l, 1.0                     // -x without clamp: 0x8000 for x = 0
  ST 8, v17
  v_mov_b32 v18, 0x7e00                              // f16 NaN
  v_mov_b32 v19, 0
  v_add_f16_e64 v19.l, v18.l, v3.l clamp             // NaN -> +0
  ST 9, v19
  v_mov_b32 v20, 0
  v_add_f16_e64 v20.l, v3.l, 0 mul:2                 // omod: 2x
  ST 10, v20
  v_cvt_f32_ubyte0_e64 v21, v0 clamp                 // clamp(float(l))
  ST 11, v21
  v_sub_f32 v22, 0, v2                               // -x (f32)
  v_cvt_pk_rtz_f16_f32_e64 v23, v22, v2 clamp        // (clamp(-x), clamp(x))
  ST 12, v23
  v_lshl_or_b32 v24, v0, 16, v0                      // (l, l)
  v_mov_b32 v25, 0xfff0fff0
  v_pk_add_u16 v26, v25, v24 clamp                   // min(0xfff0 + l, 0xffff) per half
  ST 13, v26
  v_mov_b32 v27, 0
  v_max_f16_e64 v27.l, v3.l, v3.l clamp              // LLVM's clamp idiom: v_max x, x clamp
  ST 14, v27
KEND k_clamp

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.target: amdgcn-amd-amdhsa--gfx1100
amdhsa.kernels:
  - {.name: k_f16, .symbol: k_f16.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_lds, .symbol: k_lds.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 256, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_minmax, .symbol: k_minmax.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_spin, .symbol: k_spin.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_gridsync, .symbol: k_gridsync.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_call, .symbol: k_call.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
  - {.name: k_clamp, .symbol: k_clamp.kd, .kernarg_segment_size: 16, .kernarg_segment_align: 8, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .wavefront_size: 32, .sgpr_count: 40, .vgpr_count: 32, .max_flat_workgroup_size: 256, .args: [{.name: out, .offset: 0, .size: 8, .value_kind: global_buffer, .address_space: global}, {.name: a, .offset: 8, .size: 4, .value_kind: by_value}, {.name: b, .offset: 12, .size: 4, .value_kind: by_value}]}
...
.end_amdgpu_metadata

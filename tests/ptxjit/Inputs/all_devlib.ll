; Generated from amdgpu-lower/devlib/ptx_devlib.h: one kernel calling every
; __ptx_* function of the interface (trap/assertfail excepted: they never
; return), so the whole device library is compiled for every target.
target triple = "amdgcn-amd-amdhsa"

declare i32 @__ptx_sreg_tid_x()
declare i32 @__ptx_sreg_tid_y()
declare i32 @__ptx_sreg_tid_z()
declare i32 @__ptx_sreg_ntid_x()
declare i32 @__ptx_sreg_ntid_y()
declare i32 @__ptx_sreg_ntid_z()
declare i32 @__ptx_sreg_ctaid_x()
declare i32 @__ptx_sreg_ctaid_y()
declare i32 @__ptx_sreg_ctaid_z()
declare i32 @__ptx_sreg_nctaid_x()
declare i32 @__ptx_sreg_nctaid_y()
declare i32 @__ptx_sreg_nctaid_z()
declare i32 @__ptx_sreg_laneid()
declare i32 @__ptx_sreg_warpid()
declare i32 @__ptx_sreg_nwarpid()
declare i32 @__ptx_sreg_smid()
declare i32 @__ptx_sreg_nsmid()
declare i64 @__ptx_sreg_gridid()
declare i32 @__ptx_sreg_lanemask_eq()
declare i32 @__ptx_sreg_lanemask_le()
declare i32 @__ptx_sreg_lanemask_lt()
declare i32 @__ptx_sreg_lanemask_ge()
declare i32 @__ptx_sreg_lanemask_gt()
declare i32 @__ptx_sreg_clock()
declare i32 @__ptx_sreg_clock_hi()
declare i64 @__ptx_sreg_clock64()
declare i64 @__ptx_sreg_globaltimer()
declare i32 @__ptx_sreg_globaltimer_lo()
declare i32 @__ptx_sreg_globaltimer_hi()
declare i32 @__ptx_sreg_dynamic_smem_size()
declare i32 @__ptx_sreg_total_smem_size()
declare i32 @__ptx_sreg_aggr_smem_size()
declare i32 @__ptx_sreg_envreg(i32)
declare i64 @__ptx_shfl_sync_up(i32, i32, i32, i32)
declare i64 @__ptx_shfl_sync_down(i32, i32, i32, i32)
declare i64 @__ptx_shfl_sync_bfly(i32, i32, i32, i32)
declare i64 @__ptx_shfl_sync_idx(i32, i32, i32, i32)
declare i32 @__ptx_vote_sync_all(i32, i32)
declare i32 @__ptx_vote_sync_any(i32, i32)
declare i32 @__ptx_vote_sync_uni(i32, i32)
declare i32 @__ptx_vote_sync_ballot(i32, i32)
declare i32 @__ptx_match_any_sync_b32(i32, i32)
declare i32 @__ptx_match_any_sync_b64(i32, i64)
declare i64 @__ptx_match_all_sync_b32(i32, i32)
declare i64 @__ptx_match_all_sync_b64(i32, i64)
declare i32 @__ptx_redux_sync_add(i32, i32)
declare i32 @__ptx_redux_sync_min(i32, i32)
declare i32 @__ptx_redux_sync_max(i32, i32)
declare i32 @__ptx_redux_sync_umin(i32, i32)
declare i32 @__ptx_redux_sync_umax(i32, i32)
declare i32 @__ptx_redux_sync_and(i32, i32)
declare i32 @__ptx_redux_sync_or(i32, i32)
declare i32 @__ptx_redux_sync_xor(i32, i32)
declare i32 @__ptx_activemask()
declare i64 @__ptx_elect_sync(i32)
declare void @__ptx_bar_warp_sync(i32)
declare void @__ptx_bar_sync(i32, i32)
declare void @__ptx_bar_arrive(i32, i32)
declare i32 @__ptx_bar_red_popc(i32, i32, i32)
declare i32 @__ptx_bar_red_and(i32, i32, i32)
declare i32 @__ptx_bar_red_or(i32, i32, i32)
declare void @__ptx_nanosleep(i32)
declare void @__ptx_trap()
declare i32 @__ptx_vprintf(i64, i64)
declare void @__ptx_assertfail(i64, i64, i32, i64, i64)
declare i64 @__ptx_malloc(i64)
declare void @__ptx_free(i64)

define amdgpu_kernel void @all_devlib(i64 %out, i32 %x32, i64 %x64) {
entry:
  %v0 = call i32 @__ptx_sreg_tid_x()
  %z0 = zext i32 %v0 to i64
  %v1 = call i32 @__ptx_sreg_tid_y()
  %z1 = zext i32 %v1 to i64
  %v2 = call i32 @__ptx_sreg_tid_z()
  %z2 = zext i32 %v2 to i64
  %v3 = call i32 @__ptx_sreg_ntid_x()
  %z3 = zext i32 %v3 to i64
  %v4 = call i32 @__ptx_sreg_ntid_y()
  %z4 = zext i32 %v4 to i64
  %v5 = call i32 @__ptx_sreg_ntid_z()
  %z5 = zext i32 %v5 to i64
  %v6 = call i32 @__ptx_sreg_ctaid_x()
  %z6 = zext i32 %v6 to i64
  %v7 = call i32 @__ptx_sreg_ctaid_y()
  %z7 = zext i32 %v7 to i64
  %v8 = call i32 @__ptx_sreg_ctaid_z()
  %z8 = zext i32 %v8 to i64
  %v9 = call i32 @__ptx_sreg_nctaid_x()
  %z9 = zext i32 %v9 to i64
  %v10 = call i32 @__ptx_sreg_nctaid_y()
  %z10 = zext i32 %v10 to i64
  %v11 = call i32 @__ptx_sreg_nctaid_z()
  %z11 = zext i32 %v11 to i64
  %v12 = call i32 @__ptx_sreg_laneid()
  %z12 = zext i32 %v12 to i64
  %v13 = call i32 @__ptx_sreg_warpid()
  %z13 = zext i32 %v13 to i64
  %v14 = call i32 @__ptx_sreg_nwarpid()
  %z14 = zext i32 %v14 to i64
  %v15 = call i32 @__ptx_sreg_smid()
  %z15 = zext i32 %v15 to i64
  %v16 = call i32 @__ptx_sreg_nsmid()
  %z16 = zext i32 %v16 to i64
  %v17 = call i64 @__ptx_sreg_gridid()
  %z17 = add i64 %v17, 0
  %v18 = call i32 @__ptx_sreg_lanemask_eq()
  %z18 = zext i32 %v18 to i64
  %v19 = call i32 @__ptx_sreg_lanemask_le()
  %z19 = zext i32 %v19 to i64
  %v20 = call i32 @__ptx_sreg_lanemask_lt()
  %z20 = zext i32 %v20 to i64
  %v21 = call i32 @__ptx_sreg_lanemask_ge()
  %z21 = zext i32 %v21 to i64
  %v22 = call i32 @__ptx_sreg_lanemask_gt()
  %z22 = zext i32 %v22 to i64
  %v23 = call i32 @__ptx_sreg_clock()
  %z23 = zext i32 %v23 to i64
  %v24 = call i32 @__ptx_sreg_clock_hi()
  %z24 = zext i32 %v24 to i64
  %v25 = call i64 @__ptx_sreg_clock64()
  %z25 = add i64 %v25, 0
  %v26 = call i64 @__ptx_sreg_globaltimer()
  %z26 = add i64 %v26, 0
  %v27 = call i32 @__ptx_sreg_globaltimer_lo()
  %z27 = zext i32 %v27 to i64
  %v28 = call i32 @__ptx_sreg_globaltimer_hi()
  %z28 = zext i32 %v28 to i64
  %v29 = call i32 @__ptx_sreg_dynamic_smem_size()
  %z29 = zext i32 %v29 to i64
  %v30 = call i32 @__ptx_sreg_total_smem_size()
  %z30 = zext i32 %v30 to i64
  %v31 = call i32 @__ptx_sreg_aggr_smem_size()
  %z31 = zext i32 %v31 to i64
  %v32 = call i32 @__ptx_sreg_envreg(i32 %x32)
  %z32 = zext i32 %v32 to i64
  %v33 = call i64 @__ptx_shfl_sync_up(i32 %x32, i32 %x32, i32 %x32, i32 %x32)
  %z33 = add i64 %v33, 0
  %v34 = call i64 @__ptx_shfl_sync_down(i32 %x32, i32 %x32, i32 %x32, i32 %x32)
  %z34 = add i64 %v34, 0
  %v35 = call i64 @__ptx_shfl_sync_bfly(i32 %x32, i32 %x32, i32 %x32, i32 %x32)
  %z35 = add i64 %v35, 0
  %v36 = call i64 @__ptx_shfl_sync_idx(i32 %x32, i32 %x32, i32 %x32, i32 %x32)
  %z36 = add i64 %v36, 0
  %v37 = call i32 @__ptx_vote_sync_all(i32 %x32, i32 %x32)
  %z37 = zext i32 %v37 to i64
  %v38 = call i32 @__ptx_vote_sync_any(i32 %x32, i32 %x32)
  %z38 = zext i32 %v38 to i64
  %v39 = call i32 @__ptx_vote_sync_uni(i32 %x32, i32 %x32)
  %z39 = zext i32 %v39 to i64
  %v40 = call i32 @__ptx_vote_sync_ballot(i32 %x32, i32 %x32)
  %z40 = zext i32 %v40 to i64
  %v41 = call i32 @__ptx_match_any_sync_b32(i32 %x32, i32 %x32)
  %z41 = zext i32 %v41 to i64
  %v42 = call i32 @__ptx_match_any_sync_b64(i32 %x32, i64 %x64)
  %z42 = zext i32 %v42 to i64
  %v43 = call i64 @__ptx_match_all_sync_b32(i32 %x32, i32 %x32)
  %z43 = add i64 %v43, 0
  %v44 = call i64 @__ptx_match_all_sync_b64(i32 %x32, i64 %x64)
  %z44 = add i64 %v44, 0
  %v45 = call i32 @__ptx_redux_sync_add(i32 %x32, i32 %x32)
  %z45 = zext i32 %v45 to i64
  %v46 = call i32 @__ptx_redux_sync_min(i32 %x32, i32 %x32)
  %z46 = zext i32 %v46 to i64
  %v47 = call i32 @__ptx_redux_sync_max(i32 %x32, i32 %x32)
  %z47 = zext i32 %v47 to i64
  %v48 = call i32 @__ptx_redux_sync_umin(i32 %x32, i32 %x32)
  %z48 = zext i32 %v48 to i64
  %v49 = call i32 @__ptx_redux_sync_umax(i32 %x32, i32 %x32)
  %z49 = zext i32 %v49 to i64
  %v50 = call i32 @__ptx_redux_sync_and(i32 %x32, i32 %x32)
  %z50 = zext i32 %v50 to i64
  %v51 = call i32 @__ptx_redux_sync_or(i32 %x32, i32 %x32)
  %z51 = zext i32 %v51 to i64
  %v52 = call i32 @__ptx_redux_sync_xor(i32 %x32, i32 %x32)
  %z52 = zext i32 %v52 to i64
  %v53 = call i32 @__ptx_activemask()
  %z53 = zext i32 %v53 to i64
  %v54 = call i64 @__ptx_elect_sync(i32 %x32)
  %z54 = add i64 %v54, 0
  call void @__ptx_bar_warp_sync(i32 %x32)
  call void @__ptx_bar_sync(i32 1, i32 64)
  call void @__ptx_bar_arrive(i32 1, i32 64)
  %v55 = call i32 @__ptx_bar_red_popc(i32 1, i32 64, i32 %x32)
  %z55 = zext i32 %v55 to i64
  %v56 = call i32 @__ptx_bar_red_and(i32 1, i32 64, i32 %x32)
  %z56 = zext i32 %v56 to i64
  %v57 = call i32 @__ptx_bar_red_or(i32 1, i32 64, i32 %x32)
  %z57 = zext i32 %v57 to i64
  call void @__ptx_nanosleep(i32 %x32)
  %v58 = call i32 @__ptx_vprintf(i64 %x64, i64 %x64)
  %z58 = zext i32 %v58 to i64
  %v59 = call i64 @__ptx_malloc(i64 %x64)
  %z59 = add i64 %v59, 0
  call void @__ptx_free(i64 %x64)
  %s0 = add i64 0, %z0
  %s1 = add i64 %s0, %z1
  %s2 = add i64 %s1, %z2
  %s3 = add i64 %s2, %z3
  %s4 = add i64 %s3, %z4
  %s5 = add i64 %s4, %z5
  %s6 = add i64 %s5, %z6
  %s7 = add i64 %s6, %z7
  %s8 = add i64 %s7, %z8
  %s9 = add i64 %s8, %z9
  %s10 = add i64 %s9, %z10
  %s11 = add i64 %s10, %z11
  %s12 = add i64 %s11, %z12
  %s13 = add i64 %s12, %z13
  %s14 = add i64 %s13, %z14
  %s15 = add i64 %s14, %z15
  %s16 = add i64 %s15, %z16
  %s17 = add i64 %s16, %z17
  %s18 = add i64 %s17, %z18
  %s19 = add i64 %s18, %z19
  %s20 = add i64 %s19, %z20
  %s21 = add i64 %s20, %z21
  %s22 = add i64 %s21, %z22
  %s23 = add i64 %s22, %z23
  %s24 = add i64 %s23, %z24
  %s25 = add i64 %s24, %z25
  %s26 = add i64 %s25, %z26
  %s27 = add i64 %s26, %z27
  %s28 = add i64 %s27, %z28
  %s29 = add i64 %s28, %z29
  %s30 = add i64 %s29, %z30
  %s31 = add i64 %s30, %z31
  %s32 = add i64 %s31, %z32
  %s33 = add i64 %s32, %z33
  %s34 = add i64 %s33, %z34
  %s35 = add i64 %s34, %z35
  %s36 = add i64 %s35, %z36
  %s37 = add i64 %s36, %z37
  %s38 = add i64 %s37, %z38
  %s39 = add i64 %s38, %z39
  %s40 = add i64 %s39, %z40
  %s41 = add i64 %s40, %z41
  %s42 = add i64 %s41, %z42
  %s43 = add i64 %s42, %z43
  %s44 = add i64 %s43, %z44
  %s45 = add i64 %s44, %z45
  %s46 = add i64 %s45, %z46
  %s47 = add i64 %s46, %z47
  %s48 = add i64 %s47, %z48
  %s49 = add i64 %s48, %z49
  %s50 = add i64 %s49, %z50
  %s51 = add i64 %s50, %z51
  %s52 = add i64 %s51, %z52
  %s53 = add i64 %s52, %z53
  %s54 = add i64 %s53, %z54
  %s55 = add i64 %s54, %z55
  %s56 = add i64 %s55, %z56
  %s57 = add i64 %s56, %z57
  %s58 = add i64 %s57, %z58
  %s59 = add i64 %s58, %z59
  %p = inttoptr i64 %out to ptr addrspace(1)
  store i64 %s59, ptr addrspace(1) %p, align 8
  ret void
}

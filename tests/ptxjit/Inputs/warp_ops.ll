; Hand-written module in ptx-to-llvm's output contract (docs/pipeline.md):
; warp operations and special registers as __ptx_* device-library calls.
target triple = "amdgcn-amd-amdhsa"

declare i32 @__ptx_sreg_tid_x()
declare i32 @__ptx_sreg_ntid_x()
declare i32 @__ptx_sreg_laneid()
declare i32 @__ptx_sreg_warpid()
declare i64 @__ptx_shfl_sync_bfly(i32, i32, i32, i32)
declare i64 @__ptx_shfl_sync_idx(i32, i32, i32, i32)
declare i32 @__ptx_vote_sync_ballot(i32, i32)
declare i32 @__ptx_redux_sync_add(i32, i32)
declare void @__ptx_bar_sync(i32, i32)
declare i32 @__ptx_bar_red_or(i32, i32, i32)

@tile = internal addrspace(3) global [256 x i32] undef, align 4

define amdgpu_kernel void @warp_ops(i64 %out, i32 %n) #0 {
entry:
  %tid = call i32 @__ptx_sreg_tid_x()
  %lane = call i32 @__ptx_sreg_laneid()
  %warp = call i32 @__ptx_sreg_warpid()
  %s = call i64 @__ptx_shfl_sync_bfly(i32 -1, i32 %tid, i32 1, i32 31)
  %v = trunc i64 %s to i32
  %i = call i64 @__ptx_shfl_sync_idx(i32 -1, i32 %tid, i32 0, i32 31)
  %iv = trunc i64 %i to i32
  %b = call i32 @__ptx_vote_sync_ballot(i32 -1, i32 1)
  %r = call i32 @__ptx_redux_sync_add(i32 -1, i32 %lane)
  %slot = getelementptr [256 x i32], ptr addrspace(3) @tile, i32 0, i32 %tid
  store i32 %v, ptr addrspace(3) %slot, align 4
  call void @__ptx_bar_sync(i32 0, i32 0)
  %nt = call i32 @__ptx_sreg_ntid_x()
  %last = sub i32 %nt, 1
  %j = sub i32 %last, %tid
  %slot2 = getelementptr [256 x i32], ptr addrspace(3) @tile, i32 0, i32 %j
  %w = load i32, ptr addrspace(3) %slot2, align 4
  %p = icmp slt i32 %w, %n
  %pi = zext i1 %p to i32
  %any = call i32 @__ptx_bar_red_or(i32 0, i32 0, i32 %pi)
  %a1 = add i32 %w, %b
  %a2 = add i32 %a1, %r
  %a3 = add i32 %a2, %iv
  %a4 = add i32 %a3, %warp
  %a5 = add i32 %a4, %any
  %idx = zext i32 %tid to i64
  %off = shl i64 %idx, 2
  %addr = add i64 %out, %off
  %ptr = inttoptr i64 %addr to ptr addrspace(1)
  store i32 %a5, ptr addrspace(1) %ptr, align 4
  ret void
}

attributes #0 = { "ptx.maxntid"="256,1,1" "ptx.minnctapersm"="2" }

; Six kernels sharing a device global (@counter), two LDS arrays and an
; internal helper: exercises the per-kernel split + parallel codegen + lld
; link + metadata-note merge.
target triple = "amdgcn-amd-amdhsa"

declare i32 @__ptx_sreg_tid_x()
declare i32 @__ptx_sreg_laneid()
declare i64 @__ptx_shfl_sync_down(i32, i32, i32, i32)
declare void @__ptx_bar_sync(i32, i32)

@counter = addrspace(1) global i32 0, align 4
@shared0 = internal addrspace(3) global [64 x i32] undef, align 4
@shared1 = internal addrspace(3) global [64 x i32] undef, align 4

define internal i32 @helper(i32 %a, i32 %b) noinline {
  %x = xor i32 %a, %b
  %y = mul i32 %x, 2654435761
  %z = lshr i32 %y, 7
  %r = add i32 %z, %a
  ret i32 %r
}

define amdgpu_kernel void @k0(i64 %out, i32 %n) {
entry:
  %tid = call i32 @__ptx_sreg_tid_x()
  %lane = call i32 @__ptx_sreg_laneid()
  %slot = getelementptr [64 x i32], ptr addrspace(3) @shared0, i32 0, i32 %lane
  store i32 %tid, ptr addrspace(3) %slot, align 4
  call void @__ptx_bar_sync(i32 0, i32 0)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %loop ]
  %s = call i64 @__ptx_shfl_sync_down(i32 -1, i32 %acc, i32 %i, i32 31)
  %sv = trunc i64 %s to i32
  %h = call i32 @helper(i32 %sv, i32 %i)
  %acc1 = mul i32 %h, 3
  %g = load i32, ptr addrspace(1) @counter, align 4
  %acc2 = add i32 %acc1, %g
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %w = load i32, ptr addrspace(3) %slot, align 4
  %r = add i32 %acc2, %w
  %old = atomicrmw add ptr addrspace(1) @counter, i32 %r syncscope("agent") monotonic, align 4
  %idx = zext i32 %tid to i64
  %off = shl i64 %idx, 2
  %addr = add i64 %out, %off
  %p = inttoptr i64 %addr to ptr addrspace(1)
  store i32 %r, ptr addrspace(1) %p, align 4
  ret void
}
define amdgpu_kernel void @k1(i64 %out, i32 %n) {
entry:
  %tid = call i32 @__ptx_sreg_tid_x()
  %lane = call i32 @__ptx_sreg_laneid()
  %slot = getelementptr [64 x i32], ptr addrspace(3) @shared1, i32 0, i32 %lane
  store i32 %tid, ptr addrspace(3) %slot, align 4
  call void @__ptx_bar_sync(i32 0, i32 0)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 1, %entry ], [ %acc2, %loop ]
  %s = call i64 @__ptx_shfl_sync_down(i32 -1, i32 %acc, i32 %i, i32 31)
  %sv = trunc i64 %s to i32
  %h = call i32 @helper(i32 %sv, i32 %i)
  %acc1 = mul i32 %h, 5
  %g = load i32, ptr addrspace(1) @counter, align 4
  %acc2 = add i32 %acc1, %g
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %w = load i32, ptr addrspace(3) %slot, align 4
  %r = add i32 %acc2, %w
  %old = atomicrmw add ptr addrspace(1) @counter, i32 %r syncscope("agent") monotonic, align 4
  %idx = zext i32 %tid to i64
  %off = shl i64 %idx, 2
  %addr = add i64 %out, %off
  %p = inttoptr i64 %addr to ptr addrspace(1)
  store i32 %r, ptr addrspace(1) %p, align 4
  ret void
}
define amdgpu_kernel void @k2(i64 %out, i32 %n) {
entry:
  %tid = call i32 @__ptx_sreg_tid_x()
  %lane = call i32 @__ptx_sreg_laneid()
  %slot = getelementptr [64 x i32], ptr addrspace(3) @shared0, i32 0, i32 %lane
  store i32 %tid, ptr addrspace(3) %slot, align 4
  call void @__ptx_bar_sync(i32 0, i32 0)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 2, %entry ], [ %acc2, %loop ]
  %s = call i64 @__ptx_shfl_sync_down(i32 -1, i32 %acc, i32 %i, i32 31)
  %sv = trunc i64 %s to i32
  %h = call i32 @helper(i32 %sv, i32 %i)
  %acc1 = mul i32 %h, 7
  %g = load i32, ptr addrspace(1) @counter, align 4
  %acc2 = add i32 %acc1, %g
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %w = load i32, ptr addrspace(3) %slot, align 4
  %r = add i32 %acc2, %w
  %old = atomicrmw add ptr addrspace(1) @counter, i32 %r syncscope("agent") monotonic, align 4
  %idx = zext i32 %tid to i64
  %off = shl i64 %idx, 2
  %addr = add i64 %out, %off
  %p = inttoptr i64 %addr to ptr addrspace(1)
  store i32 %r, ptr addrspace(1) %p, align 4
  ret void
}
define amdgpu_kernel void @k3(i64 %out, i32 %n) {
entry:
  %tid = call i32 @__ptx_sreg_tid_x()
  %lane = call i32 @__ptx_sreg_laneid()
  %slot = getelementptr [64 x i32], ptr addrspace(3) @shared1, i32 0, i32 %lane
  store i32 %tid, ptr addrspace(3) %slot, align 4
  call void @__ptx_bar_sync(i32 0, i32 0)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 3, %entry ], [ %acc2, %loop ]
  %s = call i64 @__ptx_shfl_sync_down(i32 -1, i32 %acc, i32 %i, i32 31)
  %sv = trunc i64 %s to i32
  %h = call i32 @helper(i32 %sv, i32 %i)
  %acc1 = mul i32 %h, 9
  %g = load i32, ptr addrspace(1) @counter, align 4
  %acc2 = add i32 %acc1, %g
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %w = load i32, ptr addrspace(3) %slot, align 4
  %r = add i32 %acc2, %w
  %old = atomicrmw add ptr addrspace(1) @counter, i32 %r syncscope("agent") monotonic, align 4
  %idx = zext i32 %tid to i64
  %off = shl i64 %idx, 2
  %addr = add i64 %out, %off
  %p = inttoptr i64 %addr to ptr addrspace(1)
  store i32 %r, ptr addrspace(1) %p, align 4
  ret void
}
define amdgpu_kernel void @k4(i64 %out, i32 %n) {
entry:
  %tid = call i32 @__ptx_sreg_tid_x()
  %lane = call i32 @__ptx_sreg_laneid()
  %slot = getelementptr [64 x i32], ptr addrspace(3) @shared0, i32 0, i32 %lane
  store i32 %tid, ptr addrspace(3) %slot, align 4
  call void @__ptx_bar_sync(i32 0, i32 0)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 4, %entry ], [ %acc2, %loop ]
  %s = call i64 @__ptx_shfl_sync_down(i32 -1, i32 %acc, i32 %i, i32 31)
  %sv = trunc i64 %s to i32
  %h = call i32 @helper(i32 %sv, i32 %i)
  %acc1 = mul i32 %h, 11
  %g = load i32, ptr addrspace(1) @counter, align 4
  %acc2 = add i32 %acc1, %g
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %w = load i32, ptr addrspace(3) %slot, align 4
  %r = add i32 %acc2, %w
  %old = atomicrmw add ptr addrspace(1) @counter, i32 %r syncscope("agent") monotonic, align 4
  %idx = zext i32 %tid to i64
  %off = shl i64 %idx, 2
  %addr = add i64 %out, %off
  %p = inttoptr i64 %addr to ptr addrspace(1)
  store i32 %r, ptr addrspace(1) %p, align 4
  ret void
}
define amdgpu_kernel void @k5(i64 %out, i32 %n) {
entry:
  %tid = call i32 @__ptx_sreg_tid_x()
  %lane = call i32 @__ptx_sreg_laneid()
  %slot = getelementptr [64 x i32], ptr addrspace(3) @shared1, i32 0, i32 %lane
  store i32 %tid, ptr addrspace(3) %slot, align 4
  call void @__ptx_bar_sync(i32 0, i32 0)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi i32 [ 5, %entry ], [ %acc2, %loop ]
  %s = call i64 @__ptx_shfl_sync_down(i32 -1, i32 %acc, i32 %i, i32 31)
  %sv = trunc i64 %s to i32
  %h = call i32 @helper(i32 %sv, i32 %i)
  %acc1 = mul i32 %h, 13
  %g = load i32, ptr addrspace(1) @counter, align 4
  %acc2 = add i32 %acc1, %g
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  %w = load i32, ptr addrspace(3) %slot, align 4
  %r = add i32 %acc2, %w
  %old = atomicrmw add ptr addrspace(1) @counter, i32 %r syncscope("agent") monotonic, align 4
  %idx = zext i32 %tid to i64
  %off = shl i64 %idx, 2
  %addr = add i64 %out, %off
  %p = inttoptr i64 %addr to ptr addrspace(1)
  store i32 %r, ptr addrspace(1) %p, align 4
  ret void
}

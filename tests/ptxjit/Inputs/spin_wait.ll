; A kernel that spin-waits on a flag another warp sets (the shape of a
; hand-written lock / CUB look-back): -Wwarp-size must flag it under pack.
target triple = "amdgcn-amd-amdhsa"

declare i32 @__ptx_sreg_tid_x()
declare void @__ptx_nanosleep(i32)

define amdgpu_kernel void @spin(i64 %flag, i64 %out) {
entry:
  %tid = call i32 @__ptx_sreg_tid_x()
  %fp = inttoptr i64 %flag to ptr addrspace(1)
  %is0 = icmp eq i32 %tid, 32
  br i1 %is0, label %set, label %wait
set:
  store atomic i32 1, ptr addrspace(1) %fp syncscope("agent") release, align 4
  br label %done
wait:
  %v = load atomic i32, ptr addrspace(1) %fp syncscope("agent") acquire, align 4
  %z = icmp eq i32 %v, 0
  br i1 %z, label %wait, label %done
done:
  %op = inttoptr i64 %out to ptr addrspace(1)
  store i32 %tid, ptr addrspace(1) %op, align 4
  ret void
}

define amdgpu_kernel void @plain(i64 %out) {
entry:
  %tid = call i32 @__ptx_sreg_tid_x()
  %op = inttoptr i64 %out to ptr addrspace(1)
  store i32 %tid, ptr addrspace(1) %op, align 4
  ret void
}

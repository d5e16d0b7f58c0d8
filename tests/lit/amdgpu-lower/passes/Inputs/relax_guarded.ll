; Guarded bit reads for ptx2amd-relax-nan-canonicalization (relax-nan-guarded.test),
; hand-written in the shape of the translator's output after SROA.
; Each function canonicalises s = a + 1 (tagged select), reads its bits with
; integer work z and stores a phi/select of z. Only @guarded's z arrives on an
; edge where `bits <u 0x7f800000` said "not NaN".
target triple = "amdgcn-amd-amdhsa"

define void @guarded(float %a, ptr addrspace(1) %p) {
entry:
  %x = fadd float %a, 1.0
  %u = fcmp uno float %x, %x
  %s = select i1 %u, float 0x7FFFFFFFE0000000, float %x, !ptx2amd.canon !0
  %b = bitcast float %s to i32
  %m = and i32 %b, 8388607
  %z = sitofp i32 %m to float
  %ok = icmp ult i32 %b, 2139095040
  br i1 %ok, label %then, label %join
then:
  br label %join
join:
  %r = phi float [ %z, %then ], [ 0.0, %entry ]
  store float %r, ptr addrspace(1) %p
  ret void
}

; The same with the arms swapped: z arrives when the test said "NaN, inf or negative".
define void @wrong_edge(float %a, ptr addrspace(1) %p) {
entry:
  %x = fadd float %a, 1.0
  %u = fcmp uno float %x, %x
  %s = select i1 %u, float 0x7FFFFFFFE0000000, float %x, !ptx2amd.canon !0
  %b = bitcast float %s to i32
  %m = and i32 %b, 8388607
  %z = sitofp i32 %m to float
  %ok = icmp ult i32 %b, 2139095040
  br i1 %ok, label %join, label %else
else:
  br label %join
join:
  %r = phi float [ %z, %else ], [ 0.0, %entry ]
  store float %r, ptr addrspace(1) %p
  ret void
}

; The test is of another value.
define void @other_value(float %a, float %c, ptr addrspace(1) %p) {
entry:
  %x = fadd float %a, 1.0
  %u = fcmp uno float %x, %x
  %s = select i1 %u, float 0x7FFFFFFFE0000000, float %x, !ptx2amd.canon !0
  %b = bitcast float %s to i32
  %m = and i32 %b, 8388607
  %z = sitofp i32 %m to float
  %ok = fcmp olt float %c, 1.0
  %r = select i1 %ok, float %z, float 0.0
  store float %r, ptr addrspace(1) %p
  ret void
}

; An ordered fcmp of s guards a select arm: the select stops the slice.
define void @fcmp_select(float %a, ptr addrspace(1) %p) {
entry:
  %x = fadd float %a, 1.0
  %u = fcmp uno float %x, %x
  %s = select i1 %u, float 0x7FFFFFFFE0000000, float %x, !ptx2amd.canon !0
  %b = bitcast float %s to i32
  %m = and i32 %b, 8388607
  %z = sitofp i32 %m to float
  %ok = fcmp oge float %s, 0.0
  %r = select i1 %ok, float %z, float 0.0
  store float %r, ptr addrspace(1) %p
  ret void
}

; z also reaches a store directly.
define void @escapes_too(float %a, ptr addrspace(1) %p, ptr addrspace(1) %q) {
entry:
  %x = fadd float %a, 1.0
  %u = fcmp uno float %x, %x
  %s = select i1 %u, float 0x7FFFFFFFE0000000, float %x, !ptx2amd.canon !0
  %b = bitcast float %s to i32
  %m = and i32 %b, 8388607
  store i32 %m, ptr addrspace(1) %q
  %z = sitofp i32 %m to float
  %ok = fcmp oge float %s, 0.0
  %r = select i1 %ok, float %z, float 0.0
  store float %r, ptr addrspace(1) %p
  ret void
}

; A loop phi inside the slice: a value of an earlier iteration could arrive.
define void @loop_phi(float %a, i32 %n, ptr addrspace(1) %p) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %prev = phi i32 [ 0, %entry ], [ %m, %latch ]
  %x = fadd float %a, 1.0
  %u = fcmp uno float %x, %x
  %s = select i1 %u, float 0x7FFFFFFFE0000000, float %x, !ptx2amd.canon !0
  %b = bitcast float %s to i32
  %m = and i32 %b, 8388607
  %z = sitofp i32 %prev to float
  %ok = icmp ult i32 %b, 2139095040
  br i1 %ok, label %then, label %latch
then:
  store float %z, ptr addrspace(1) %p
  br label %latch
latch:
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

!0 = !{}

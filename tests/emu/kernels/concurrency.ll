; Hand-written AMDGPU IR for amdgpu-emu tests of what workgroups on different
; host threads (or time slices) see of each other's memory accesses.
; @publish: workgroup 0 publishes {i, ~i} for i = 1..n in one 16-byte slot
;   with one volatile <2 x i64> store each (as CUB's decoupled look-back
;   publishes {status, value} tile descriptors); workgroup 1 polls the slot
;   with one volatile <2 x i64> load until it sees i = n and counts reads
;   whose halves do not belong together (torn). out = {torn, reads, ready};
;   the writer starts once the reader has set ready.
;   @publish32 is the same with one 8-byte <2 x i32> slot {i, ~i}.
; @pk_atomics: every lane adds <0.25, 1.0> (half) and <1.0, 4.0> (bfloat)
;   with one atomicrmw fadd each, and folds its lane value into fmin/fmax
;   <2 x half> words; the old values it got back go to %old.
; @pk_round: lane 0 applies one atomicrmw fadd per <2 x half>/<2 x bfloat>
;   word of %acc with the operand in the matching word of %val (rounding).
;   (its old values go to %old)
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()

define amdgpu_kernel void @publish(ptr addrspace(1) %slot, ptr addrspace(1) %out, i64 %n) #0 {
entry:
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %isw = icmp eq i32 %wg, 0
  %flag = getelementptr i64, ptr addrspace(1) %out, i64 2
  br i1 %isw, label %wait, label %ready
wait:
  %rd = load atomic i64, ptr addrspace(1) %flag syncscope("agent") monotonic, align 8
  %go = icmp eq i64 %rd, 1
  br i1 %go, label %wloop, label %wait
ready:
  store atomic i64 1, ptr addrspace(1) %flag syncscope("agent") monotonic, align 8
  br label %rloop
wloop:
  %i = phi i64 [ 1, %wait ], [ %i1, %wnext ]
  %ni = xor i64 %i, -1
  %v0 = insertelement <2 x i64> poison, i64 %i, i32 0
  %v1 = insertelement <2 x i64> %v0, i64 %ni, i32 1
  store volatile <2 x i64> %v1, ptr addrspace(1) %slot, align 16
  ; a delay of i % 5 iterations moves the time-slice boundary around the loop
  %d = urem i64 %i, 5
  br label %delay
delay:
  %k = phi i64 [ 0, %wloop ], [ %k1, %delay ]
  %k1 = add i64 %k, 1
  %dc = icmp ult i64 %k, %d
  br i1 %dc, label %delay, label %wnext
wnext:
  %i1 = add i64 %i, 1
  %wc = icmp ule i64 %i1, %n
  br i1 %wc, label %wloop, label %done
rloop:
  %bad = phi i64 [ 0, %ready ], [ %bad1, %rloop ]
  %seen = phi i64 [ 0, %ready ], [ %seen1, %rloop ]
  %r = load volatile <2 x i64>, ptr addrspace(1) %slot, align 16
  %lo = extractelement <2 x i64> %r, i32 0
  %hi = extractelement <2 x i64> %r, i32 1
  %x = xor i64 %lo, %hi
  %ok = icmp eq i64 %x, -1
  %inc = select i1 %ok, i64 0, i64 1
  %bad1 = add i64 %bad, %inc
  %seen1 = add i64 %seen, 1
  %fin = icmp eq i64 %lo, %n
  br i1 %fin, label %rdone, label %rloop
rdone:
  store i64 %bad1, ptr addrspace(1) %out
  %o1 = getelementptr i64, ptr addrspace(1) %out, i64 1
  store i64 %seen1, ptr addrspace(1) %o1
  br label %done
done:
  ret void
}

define amdgpu_kernel void @publish32(ptr addrspace(1) %slot, ptr addrspace(1) %out, i32 %n) #0 {
entry:
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %isw = icmp eq i32 %wg, 0
  %flag = getelementptr i64, ptr addrspace(1) %out, i64 2
  br i1 %isw, label %wait, label %ready
wait:
  %rd = load atomic i64, ptr addrspace(1) %flag syncscope("agent") monotonic, align 8
  %go = icmp eq i64 %rd, 1
  br i1 %go, label %wloop, label %wait
ready:
  store atomic i64 1, ptr addrspace(1) %flag syncscope("agent") monotonic, align 8
  br label %rloop
wloop:
  %i = phi i32 [ 1, %wait ], [ %i1, %wnext ]
  %ni = xor i32 %i, -1
  %v0 = insertelement <2 x i32> poison, i32 %i, i32 0
  %v1 = insertelement <2 x i32> %v0, i32 %ni, i32 1
  store volatile <2 x i32> %v1, ptr addrspace(1) %slot, align 8
  %d = urem i32 %i, 5
  br label %delay
delay:
  %k = phi i32 [ 0, %wloop ], [ %k1, %delay ]
  %k1 = add i32 %k, 1
  %dc = icmp ult i32 %k, %d
  br i1 %dc, label %delay, label %wnext
wnext:
  %i1 = add i32 %i, 1
  %wc = icmp ule i32 %i1, %n
  br i1 %wc, label %wloop, label %done
rloop:
  %bad = phi i64 [ 0, %ready ], [ %bad1, %rloop ]
  %seen = phi i64 [ 0, %ready ], [ %seen1, %rloop ]
  %r = load volatile <2 x i32>, ptr addrspace(1) %slot, align 8
  %lo = extractelement <2 x i32> %r, i32 0
  %hi = extractelement <2 x i32> %r, i32 1
  %x = xor i32 %lo, %hi
  %ok = icmp eq i32 %x, -1
  %inc = select i1 %ok, i64 0, i64 1
  %bad1 = add i64 %bad, %inc
  %seen1 = add i64 %seen, 1
  %fin = icmp eq i32 %lo, %n
  br i1 %fin, label %rdone, label %rloop
rdone:
  store i64 %bad1, ptr addrspace(1) %out
  %o1 = getelementptr i64, ptr addrspace(1) %out, i64 1
  store i64 %seen1, ptr addrspace(1) %o1
  br label %done
done:
  ret void
}

define amdgpu_kernel void @pk_atomics(ptr addrspace(1) %acc, ptr addrspace(1) %old) #0 {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %wg = call i32 @llvm.amdgcn.workgroup.id.x()
  %b = mul i32 %wg, 64
  %gid = add i32 %b, %id
  %a0 = getelementptr <2 x half>, ptr addrspace(1) %acc, i32 0
  %o0 = atomicrmw fadd ptr addrspace(1) %a0, <2 x half> <half 0xH3400, half 0xH3C00> syncscope("agent") monotonic, align 4
  %a1 = getelementptr <2 x bfloat>, ptr addrspace(1) %acc, i32 1
  %o1 = atomicrmw fadd ptr addrspace(1) %a1, <2 x bfloat> <bfloat 0xR3F80, bfloat 0xR4080> syncscope("agent") monotonic, align 4
  ; lane value v = gid - 100 (exact in half); fmin/fmax of <v, -v>
  %s = sub i32 %gid, 100
  %f = sitofp i32 %s to half
  %nf = fneg half %f
  %p0 = insertelement <2 x half> poison, half %f, i32 0
  %p1 = insertelement <2 x half> %p0, half %nf, i32 1
  %a2 = getelementptr <2 x half>, ptr addrspace(1) %acc, i32 2
  %o2 = atomicrmw fmin ptr addrspace(1) %a2, <2 x half> %p1 syncscope("agent") monotonic, align 4
  %a3 = getelementptr <2 x half>, ptr addrspace(1) %acc, i32 3
  %o3 = atomicrmw fmax ptr addrspace(1) %a3, <2 x half> %p1 syncscope("agent") monotonic, align 4
  %ob = mul i32 %gid, 2
  %g0 = getelementptr <2 x half>, ptr addrspace(1) %old, i32 %ob
  store <2 x half> %o0, ptr addrspace(1) %g0, align 4
  %ob1 = add i32 %ob, 1
  %g1 = getelementptr <2 x bfloat>, ptr addrspace(1) %old, i32 %ob1
  store <2 x bfloat> %o1, ptr addrspace(1) %g1, align 4
  ret void
}

define amdgpu_kernel void @pk_round(ptr addrspace(1) %acc, ptr addrspace(1) %val, ptr addrspace(1) %old) #0 {
  %h0 = getelementptr <2 x half>, ptr addrspace(1) %acc, i32 0
  %hv0 = load <2 x half>, ptr addrspace(1) %val, align 4
  %r0 = atomicrmw fadd ptr addrspace(1) %h0, <2 x half> %hv0 monotonic, align 4
  store <2 x half> %r0, ptr addrspace(1) %old, align 4
  %h1 = getelementptr <2 x half>, ptr addrspace(1) %acc, i32 1
  %vp1 = getelementptr <2 x half>, ptr addrspace(1) %val, i32 1
  %hv1 = load <2 x half>, ptr addrspace(1) %vp1, align 4
  %r1 = atomicrmw fadd ptr addrspace(1) %h1, <2 x half> %hv1 monotonic, align 4
  %op1 = getelementptr <2 x half>, ptr addrspace(1) %old, i32 1
  store <2 x half> %r1, ptr addrspace(1) %op1, align 4
  %b2 = getelementptr <2 x bfloat>, ptr addrspace(1) %acc, i32 2
  %vp2 = getelementptr <2 x bfloat>, ptr addrspace(1) %val, i32 2
  %bv2 = load <2 x bfloat>, ptr addrspace(1) %vp2, align 4
  %r2 = atomicrmw fadd ptr addrspace(1) %b2, <2 x bfloat> %bv2 monotonic, align 4
  %op2 = getelementptr <2 x bfloat>, ptr addrspace(1) %old, i32 2
  store <2 x bfloat> %r2, ptr addrspace(1) %op2, align 4
  %b3 = getelementptr <2 x bfloat>, ptr addrspace(1) %acc, i32 3
  %vp3 = getelementptr <2 x bfloat>, ptr addrspace(1) %val, i32 3
  %bv3 = load <2 x bfloat>, ptr addrspace(1) %vp3, align 4
  %r3 = atomicrmw fadd ptr addrspace(1) %b3, <2 x bfloat> %bv3 monotonic, align 4
  %op3 = getelementptr <2 x bfloat>, ptr addrspace(1) %old, i32 3
  store <2 x bfloat> %r3, ptr addrspace(1) %op3, align 4
  ret void
}

attributes #0 = { "target-cpu"="gfx1100" }

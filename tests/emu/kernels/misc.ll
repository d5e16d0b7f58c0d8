; Hand-written AMDGPU IR for amdgpu-emu tests: recursion, indirect calls,
; switch, vectors, flat/LDS apertures, pad warp policy, byref kernel
; arguments, vprintf.
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

%struct.P = type { i32, float, i64 }

@lds = internal addrspace(3) global [64 x i32] poison, align 4
@fmt = private addrspace(1) constant [16 x i8] c"v=%d f=%.2f %s\0A\00"
@str = private addrspace(1) constant [3 x i8] c"hi\00"

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare void @llvm.amdgcn.s.barrier()
declare i1 @llvm.amdgcn.is.shared(ptr)
declare i32 @vprintf(ptr, ptr)
declare i32 @printf(ptr addrspace(4), ...)
@fmt2 = private addrspace(4) constant [25 x i8] c"lane %d: %d %ld %.3f %x\0A\00"

define internal i32 @fib(i32 %n) {
entry:
  %c = icmp slt i32 %n, 2
  br i1 %c, label %base, label %rec
base:
  ret i32 %n
rec:
  %a = sub i32 %n, 1
  %fa = call i32 @fib(i32 %a)
  %b = sub i32 %n, 2
  %fb = call i32 @fib(i32 %b)
  %s = add i32 %fa, %fb
  ret i32 %s
}

define internal i32 @twice(i32 %x) {
  %r = mul i32 %x, 2
  ret i32 %r
}

define internal i32 @square(i32 %x) {
  %r = mul i32 %x, %x
  ret i32 %r
}

define amdgpu_kernel void @recurse(ptr addrspace(1) %out) #0 {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %n = and i32 %id, 15
  %f = call i32 @fib(i32 %n)
  %odd = and i32 %id, 1
  %isodd = icmp ne i32 %odd, 0
  %fp = select i1 %isodd, ptr @twice, ptr @square
  %g = call i32 %fp(i32 %id)
  %sw = urem i32 %id, 4
  switch i32 %sw, label %d [ i32 0, label %s0
                             i32 1, label %s1 ]
s0:
  br label %join
s1:
  br label %join
d:
  br label %join
join:
  %k = phi i32 [ 100, %s0 ], [ 200, %s1 ], [ 300, %d ]
  %v0 = add i32 %f, %k
  %idx = zext i32 %id to i64
  %p = getelementptr inbounds <2 x i32>, ptr addrspace(1) %out, i64 %idx
  %vec0 = insertelement <2 x i32> poison, i32 %v0, i32 0
  %vec = insertelement <2 x i32> %vec0, i32 %g, i32 1
  store <2 x i32> %vec, ptr addrspace(1) %p, align 8
  ret void
}

define amdgpu_kernel void @flat_lds(ptr addrspace(1) %out) #0 {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %p3 = getelementptr inbounds [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %id
  %pf = addrspacecast ptr addrspace(3) %p3 to ptr
  %sh = call i1 @llvm.amdgcn.is.shared(ptr %pf)
  %v = zext i1 %sh to i32
  %v2 = add i32 %v, %id
  store i32 %v2, ptr %pf, align 4
  call void @llvm.amdgcn.s.barrier()
  %rid = xor i32 %id, 1
  %q = getelementptr inbounds [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %rid
  %x = load i32, ptr addrspace(3) %q, align 4
  %idx = zext i32 %id to i64
  %o = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  store i32 %x, ptr addrspace(1) %o, align 4
  ret void
}

define amdgpu_kernel void @pad_ids(ptr addrspace(1) %out, <4 x i32> %bd) #1 {
entry:
  %lid = call i32 @llvm.amdgcn.workitem.id.x()
  %w = lshr i32 %lid, 6
  %l = and i32 %lid, 63
  %active = icmp ult i32 %l, 32
  br i1 %active, label %a, label %e
a:
  %bx = extractelement <4 x i32> %bd, i32 0
  %by = extractelement <4 x i32> %bd, i32 1
  %t0 = shl i32 %w, 5
  %t = add i32 %t0, %l
  %n = mul i32 %bx, %by
  %in = icmp ult i32 %t, %n
  br i1 %in, label %st, label %e
st:
  %g = call i32 @llvm.amdgcn.workgroup.id.x()
  %gn = mul i32 %g, %n
  %gi = add i32 %gn, %t
  %idx = zext i32 %gi to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %idx
  %v = add i32 %t, 1000
  store i32 %v, ptr addrspace(1) %p, align 4
  br label %e
e:
  ret void
}

define amdgpu_kernel void @byref_arg(ptr addrspace(1) %out, ptr addrspace(4) byref(%struct.P) align 8 %p) #0 {
  %a = load i32, ptr addrspace(4) %p, align 8
  %bp = getelementptr inbounds %struct.P, ptr addrspace(4) %p, i32 0, i32 2
  %b = load i64, ptr addrspace(4) %bp, align 8
  %bt = trunc i64 %b to i32
  %s = add i32 %a, %bt
  store i32 %s, ptr addrspace(1) %out, align 4
  ret void
}

define amdgpu_kernel void @vp(i32 %x) #0 {
entry:
  %buf = alloca { i32, double, ptr }, align 8, addrspace(5)
  store i32 %x, ptr addrspace(5) %buf, align 8
  %d = getelementptr inbounds { i32, double, ptr }, ptr addrspace(5) %buf, i32 0, i32 1
  store double 2.5, ptr addrspace(5) %d, align 8
  %sp = getelementptr inbounds { i32, double, ptr }, ptr addrspace(5) %buf, i32 0, i32 2
  store ptr addrspacecast (ptr addrspace(1) @str to ptr), ptr addrspace(5) %sp, align 8
  %fb = addrspacecast ptr addrspace(5) %buf to ptr
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %z = icmp eq i32 %id, 0
  br i1 %z, label %p, label %e
p:
  %r = call i32 @vprintf(ptr addrspacecast (ptr addrspace(1) @fmt to ptr), ptr %fb)
  %r2 = call i32 (ptr addrspace(4), ...) @printf(ptr addrspace(4) @fmt2, i32 %id, i32 %x, i64 -3, double 2.5, i32 255)
  br label %e
e:
  ret void
}

define amdgpu_kernel void @consts(ptr addrspace(1) %out, i64 %x) #0 {
  %a = add i64 %x, -1
  %b = add i64 %x, -2
  %c = xor i64 %x, -1
  store i64 %a, ptr addrspace(1) %out, align 8
  %p1 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 1
  store i64 %b, ptr addrspace(1) %p1, align 8
  %p2 = getelementptr inbounds i64, ptr addrspace(1) %out, i64 2
  store i64 %c, ptr addrspace(1) %p2, align 8
  ret void
}

declare float @llvm.experimental.constrained.fadd.f32(float, float, metadata, metadata)

define amdgpu_kernel void @rounding(ptr addrspace(1) %out) #2 {
  %up = call float @llvm.experimental.constrained.fadd.f32(float 1.0, float 0x3E70000000000000, metadata !"round.upward", metadata !"fpexcept.ignore") #2
  %dn = call float @llvm.experimental.constrained.fadd.f32(float 1.0, float 0x3E70000000000000, metadata !"round.downward", metadata !"fpexcept.ignore") #2
  %ne = call float @llvm.experimental.constrained.fadd.f32(float 1.0, float 0x3E70000000000000, metadata !"round.tonearest", metadata !"fpexcept.ignore") #2
  %tz = call float @llvm.experimental.constrained.fadd.f32(float -1.0, float 0xBE70000000000000, metadata !"round.towardzero", metadata !"fpexcept.ignore") #2
  store float %up, ptr addrspace(1) %out, align 4
  %p1 = getelementptr inbounds float, ptr addrspace(1) %out, i64 1
  store float %dn, ptr addrspace(1) %p1, align 4
  %p2 = getelementptr inbounds float, ptr addrspace(1) %out, i64 2
  store float %ne, ptr addrspace(1) %p2, align 4
  %p3 = getelementptr inbounds float, ptr addrspace(1) %out, i64 3
  store float %tz, ptr addrspace(1) %p3, align 4
  ret void
}

attributes #0 = { "target-cpu"="gfx1100" }
attributes #2 = { strictfp "target-cpu"="gfx1100" }
attributes #1 = { "target-cpu"="gfx90a" "ptx2amd.wave-size"="64" "ptx2amd.warp-policy"="pad" }

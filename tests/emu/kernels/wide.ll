; Hand-written AMDGPU IR for amdgpu-emu i128 tests: the forms LLVM's
; optimiser produces for PTX mul.hi/mad.hi of 64-bit operands (mul i128 of
; zext/sext operands, lshr/ashr, trunc), plus i128 add with a 128-bit
; constant, shifts, logic, comparisons, udiv/srem, select, phi, and i128
; loads/stores. Per lane: out[i*10 + 0..9] (u64).
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @wide(ptr addrspace(1) %pa, ptr addrspace(1) %pb, ptr addrspace(1) %out) #0 {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %i = zext i32 %id to i64
  %ga = getelementptr i64, ptr addrspace(1) %pa, i64 %i
  %gb = getelementptr i64, ptr addrspace(1) %pb, i64 %i
  %a = load i64, ptr addrspace(1) %ga
  %b = load i64, ptr addrspace(1) %gb
  %o = mul i64 %i, 10
  %go = getelementptr i64, ptr addrspace(1) %out, i64 %o
  ; mul.hi.u64
  %za = zext i64 %a to i128
  %zb = zext i64 %b to i128
  %pu = mul i128 %za, %zb
  %hu = lshr i128 %pu, 64
  %ru = trunc i128 %hu to i64
  store i64 %ru, ptr addrspace(1) %go
  ; mul.hi.s64
  %sa = sext i64 %a to i128
  %sb = sext i64 %b to i128
  %ps = mul nsw i128 %sa, %sb
  %hs = ashr i128 %ps, 64
  %rs = trunc i128 %hs to i64
  %g1 = getelementptr i64, ptr addrspace(1) %go, i64 1
  store i64 %rs, ptr addrspace(1) %g1
  ; (a:b) + 0x00000000000000010000000000000001, stored as i128 (lo at 2, hi at 3)
  %ah = shl i128 %za, 64
  %ab = or i128 %ah, %zb
  %sum = add i128 %ab, 18446744073709551617
  %g2 = getelementptr i64, ptr addrspace(1) %go, i64 2
  store i128 %sum, ptr addrspace(1) %g2, align 8
  ; signed compare of the full products, i128 load back
  %c = icmp slt i128 %ps, %sum
  %cz = zext i1 %c to i64
  %g4 = getelementptr i64, ptr addrspace(1) %go, i64 4
  store i64 %cz, ptr addrspace(1) %g4
  ; udiv of (a:b) by (zext b | 1), srem of the signed product by 1000003
  %bo = or i128 %zb, 1
  %q = udiv i128 %ab, %bo
  %g5 = getelementptr i64, ptr addrspace(1) %go, i64 5
  store i128 %q, ptr addrspace(1) %g5, align 8
  %r = srem i128 %ps, 1000003
  %rt = trunc i128 %r to i32
  %rx = sext i32 %rt to i64
  %g7 = getelementptr i64, ptr addrspace(1) %go, i64 7
  store i64 %rx, ptr addrspace(1) %g7
  ; divergent phi / select of i128 values: odd lanes take xor, even lanes sub
  %odd = and i32 %id, 1
  %isodd = icmp ne i32 %odd, 0
  br i1 %isodd, label %then, label %else
then:
  %x1 = xor i128 %ab, %pu
  br label %join
else:
  %x2 = sub i128 %pu, %ab
  br label %join
join:
  %x = phi i128 [ %x1, %then ], [ %x2, %else ]
  %ld = load i128, ptr addrspace(1) %g2, align 8
  %eq = icmp eq i128 %ld, %sum
  %sel = select i1 %eq, i128 %x, i128 0
  %g8 = getelementptr i64, ptr addrspace(1) %go, i64 8
  store i128 %sel, ptr addrspace(1) %g8, align 8
  ret void
}

attributes #0 = { "target-cpu"="gfx1100" }

; Hand-written AMDGPU IR for amdgpu-emu cross-lane tests (gfx1100, wave32):
; permlane16 / permlanex16 with a non-trivial lane selection, ds.swizzle in
; bitmask and quad-permute modes. Per lane: out[i*4 + 0..3] =
; permlane16, permlanex16, swizzle(and 0x1c, or 1, xor 2), swizzle(quad 2,0,3,1).
; @xlane_inactive: permlane16 without fetch-inactive reading an inactive lane.
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.permlane16.i32(i32, i32, i32, i32, i1, i1)
declare i32 @llvm.amdgcn.permlanex16.i32(i32, i32, i32, i32, i1, i1)
declare i32 @llvm.amdgcn.ds.swizzle(i32, i32)

define amdgpu_kernel void @xlane(ptr addrspace(1) %out, i32 %s1, i32 %s2) #0 {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %v = mul i32 %id, 7
  %v1 = add i32 %v, 100
  %p = call i32 @llvm.amdgcn.permlane16.i32(i32 0, i32 %v1, i32 %s1, i32 %s2, i1 false, i1 false)
  %x = call i32 @llvm.amdgcn.permlanex16.i32(i32 0, i32 %v1, i32 %s1, i32 %s2, i1 false, i1 false)
  ; and = 0x1c, or = 1, xor = 2: (0x1c) | (1 << 5) | (2 << 10) = 0x83c
  %w = call i32 @llvm.amdgcn.ds.swizzle(i32 %v1, i32 2108)
  ; quad perm [2, 0, 3, 1]: 0x8000 | 2 | 0 << 2 | 3 << 4 | 1 << 6 = 0x8072
  %q = call i32 @llvm.amdgcn.ds.swizzle(i32 %v1, i32 32882)
  %b = mul i32 %id, 4
  %g0 = getelementptr i32, ptr addrspace(1) %out, i32 %b
  store i32 %p, ptr addrspace(1) %g0
  %g1 = getelementptr i32, ptr addrspace(1) %g0, i32 1
  store i32 %x, ptr addrspace(1) %g1
  %g2 = getelementptr i32, ptr addrspace(1) %g0, i32 2
  store i32 %w, ptr addrspace(1) %g2
  %g3 = getelementptr i32, ptr addrspace(1) %g0, i32 3
  store i32 %q, ptr addrspace(1) %g3
  ret void
}

define amdgpu_kernel void @xlane_inactive(ptr addrspace(1) %out) #0 {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %c = icmp ult i32 %id, 8
  br i1 %c, label %t, label %e
t:
  ; lane i reads lane 15 - i of its row, inactive for i < 8
  %p = call i32 @llvm.amdgcn.permlane16.i32(i32 0, i32 %id, i32 -1985229329, i32 19088743, i1 false, i1 false)
  %g = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %p, ptr addrspace(1) %g
  br label %e
e:
  ret void
}

attributes #0 = { "target-cpu"="gfx1100" }

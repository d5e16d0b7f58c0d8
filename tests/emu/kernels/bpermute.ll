; Hand-written AMDGPU IR for amdgpu-emu ds_bpermute / ds_permute tests. Lane l
; has value 1000 + 3l and uses byte address 4 * ((7l + 5) mod 64): bpermute
; reads that lane, permute writes its value there. out[2l] = bpermute,
; out[2l + 1] = permute. The same body for gfx1100 wave64 (ds_(b)permute
; works within 32-lane halves), gfx90a wave64 (all 64 lanes) and gfx1100
; wave32.
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)
declare i32 @llvm.amdgcn.ds.permute(i32, i32)

define amdgpu_kernel void @bperm_gfx1100_w64(ptr addrspace(1) %out) #0 {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %v3 = mul i32 %id, 3
  %v = add i32 %v3, 1000
  %i7 = mul i32 %id, 7
  %i75 = add i32 %i7, 5
  %idx = and i32 %i75, 63
  %addr = shl i32 %idx, 2
  %b = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %v)
  %p = call i32 @llvm.amdgcn.ds.permute(i32 %addr, i32 %v)
  %o = mul i32 %id, 2
  %g0 = getelementptr i32, ptr addrspace(1) %out, i32 %o
  store i32 %b, ptr addrspace(1) %g0
  %g1 = getelementptr i32, ptr addrspace(1) %g0, i32 1
  store i32 %p, ptr addrspace(1) %g1
  ret void
}

define amdgpu_kernel void @bperm_gfx90a(ptr addrspace(1) %out) #1 {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %v3 = mul i32 %id, 3
  %v = add i32 %v3, 1000
  %i7 = mul i32 %id, 7
  %i75 = add i32 %i7, 5
  %idx = and i32 %i75, 63
  %addr = shl i32 %idx, 2
  %b = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %v)
  %p = call i32 @llvm.amdgcn.ds.permute(i32 %addr, i32 %v)
  %o = mul i32 %id, 2
  %g0 = getelementptr i32, ptr addrspace(1) %out, i32 %o
  store i32 %b, ptr addrspace(1) %g0
  %g1 = getelementptr i32, ptr addrspace(1) %g0, i32 1
  store i32 %p, ptr addrspace(1) %g1
  ret void
}

define amdgpu_kernel void @bperm_gfx1100_w32(ptr addrspace(1) %out) #2 {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %v3 = mul i32 %id, 3
  %v = add i32 %v3, 1000
  %i7 = mul i32 %id, 7
  %i75 = add i32 %i7, 5
  %idx = and i32 %i75, 63
  %addr = shl i32 %idx, 2
  %b = call i32 @llvm.amdgcn.ds.bpermute(i32 %addr, i32 %v)
  %p = call i32 @llvm.amdgcn.ds.permute(i32 %addr, i32 %v)
  %o = mul i32 %id, 2
  %g0 = getelementptr i32, ptr addrspace(1) %out, i32 %o
  store i32 %b, ptr addrspace(1) %g0
  %g1 = getelementptr i32, ptr addrspace(1) %g0, i32 1
  store i32 %p, ptr addrspace(1) %g1
  ret void
}

attributes #0 = { "target-cpu"="gfx1100" "target-features"="+wavefrontsize64" }
attributes #1 = { "target-cpu"="gfx90a" }
attributes #2 = { "target-cpu"="gfx1100" }

; Hand-written AMDGPU IR: a kernel whose f32 denormal mode flushes
; (as clang emits for -fgpu-flush-denormals-to-zero / -cl-denorms-are-zero).
; amdgpu-emu does not model flushing and must refuse it at load; @ieee_mul
; ("dynamic", the default mode) comes first and is accepted.
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @ieee_mul(ptr addrspace(1) %p, float %a, float %b) #1 {
  %m = fmul float %a, %b
  store float %m, ptr addrspace(1) %p
  ret void
}

define amdgpu_kernel void @ftz_mul(ptr addrspace(1) %p, float %a, float %b) #0 {
  %m = fmul float %a, %b
  store float %m, ptr addrspace(1) %p
  ret void
}

attributes #0 = { "target-cpu"="gfx1100" "denormal-fp-math-f32"="preserve-sign,preserve-sign" }
attributes #1 = { "target-cpu"="gfx1100" "denormal-fp-math-f32"="dynamic,dynamic" }

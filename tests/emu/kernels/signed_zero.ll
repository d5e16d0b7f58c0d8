; Hand-written AMDGPU IR: operations whose IEEE result is a negative zero
; (the emulator must keep the sign through arithmetic, fneg, constants,
; select, copysign, bitcasts, conversions and constrained round-toward-zero
; multiplication). %a = +0.0, %b = -2.5; out[0..8] (u64 bit patterns).
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

declare double @llvm.copysign.f64(double, double)
declare double @llvm.fma.f64(double, double, double)
declare double @llvm.experimental.constrained.fmul.f64(double, double, metadata, metadata)

define amdgpu_kernel void @szero(ptr addrspace(1) %out, double %a, double %b) #0 {
  %m = fmul double %a, %b
  store double %m, ptr addrspace(1) %out
  %n = fneg double %a
  %g1 = getelementptr double, ptr addrspace(1) %out, i32 1
  store double %n, ptr addrspace(1) %g1
  %c = fcmp oeq double %m, 0.0
  %s = select i1 %c, double -0.0, double 1.0
  %g2 = getelementptr double, ptr addrspace(1) %out, i32 2
  store double %s, ptr addrspace(1) %g2
  %cs = call double @llvm.copysign.f64(double %a, double %b)
  %g3 = getelementptr double, ptr addrspace(1) %out, i32 3
  store double %cs, ptr addrspace(1) %g3
  %ad = fadd double %m, %n
  %g4 = getelementptr double, ptr addrspace(1) %out, i32 4
  store double %ad, ptr addrspace(1) %g4
  %rz = call double @llvm.experimental.constrained.fmul.f64(double %a, double %b, metadata !"round.towardzero", metadata !"fpexcept.ignore") #1
  %g5 = getelementptr double, ptr addrspace(1) %out, i32 5
  store double %rz, ptr addrspace(1) %g5
  %t = fptrunc double %m to float
  %e = fpext float %t to double
  %g6 = getelementptr double, ptr addrspace(1) %out, i32 6
  store double %e, ptr addrspace(1) %g6
  %nb = fneg double %m
  %f = call double @llvm.fma.f64(double %a, double %b, double %nb)
  %g7 = getelementptr double, ptr addrspace(1) %out, i32 7
  store double %f, ptr addrspace(1) %g7
  %bi = bitcast double %m to i64
  %bx = xor i64 %bi, 0
  %bd = bitcast i64 %bx to double
  %sub = fsub double %bd, %a
  %g8 = getelementptr double, ptr addrspace(1) %out, i32 8
  store double %sub, ptr addrspace(1) %g8
  ret void
}

attributes #0 = { strictfp "target-cpu"="gfx1100" }
attributes #1 = { strictfp }

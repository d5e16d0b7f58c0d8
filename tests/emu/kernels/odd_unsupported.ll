; An intrinsic on an odd-width integer that the emulator does not model (ctlz.i4 would count
; the container's zero bits): a load error naming it, never a wrong value.
target triple = "amdgcn-amd-amdhsa"
declare i4 @llvm.ctlz.i4(i4, i1)
define amdgpu_kernel void @k(ptr addrspace(1) %p) #0 {
  %v = load i8, ptr addrspace(1) %p
  %t = trunc i8 %v to i4
  %c = call i4 @llvm.ctlz.i4(i4 %t, i1 false)
  %z = zext i4 %c to i8
  store i8 %z, ptr addrspace(1) %p
  ret void
}
attributes #0 = { "target-cpu"="gfx1100" }

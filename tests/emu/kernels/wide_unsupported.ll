; i128 operations the emulator does not implement are load errors.
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr addrspace(1) %p, i64 %x) {
  %w = zext i64 %x to i128
  %f = uitofp i128 %w to double
  store double %f, ptr addrspace(1) %p, align 8
  ret void
}

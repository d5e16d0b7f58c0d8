; Integers wider than 128 bits are load errors.
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr addrspace(1) %p, i64 %x) {
  %w = zext i64 %x to i256
  %m = mul i256 %w, %w
  %t = trunc i256 %m to i64
  store i64 %t, ptr addrspace(1) %p, align 8
  ret void
}

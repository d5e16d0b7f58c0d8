; A translated-style kernel: two PTX registers (%r1, %r2) as entry-block
; allocas, and a .local array indexed at run time (not promotable).
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %n) {
entry:
  %r1 = alloca i32, align 4, addrspace(5)
  %r2 = alloca i32, align 4, addrspace(5)
  %buf = alloca [4 x i32], align 4, addrspace(5)
  store i32 0, ptr addrspace(5) %r1, align 4
  br label %loop

loop:
  %v = load i32, ptr addrspace(5) %r1, align 4
  %slot = getelementptr inbounds [4 x i32], ptr addrspace(5) %buf, i32 0, i32 %v
  store i32 %v, ptr addrspace(5) %slot, align 4
  %next = add i32 %v, 1
  store i32 %next, ptr addrspace(5) %r1, align 4
  %done = icmp sge i32 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  %idx = and i32 %n, 3
  %at = getelementptr inbounds [4 x i32], ptr addrspace(5) %buf, i32 0, i32 %idx
  %x = load i32, ptr addrspace(5) %at, align 4
  store i32 %x, ptr addrspace(5) %r2, align 4
  %y = load i32, ptr addrspace(5) %r2, align 4
  store i32 %y, ptr addrspace(1) %out, align 4
  ret void
}

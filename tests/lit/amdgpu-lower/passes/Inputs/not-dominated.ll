; A module that parses but does not verify: %a uses %b before its definition.
; (The error cases of check-input.test and verify-lowered.test.)
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k() {
entry:
  %a = add i32 %b, 1
  %b = add i32 %a, 1
  ret void
}

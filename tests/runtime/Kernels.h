//===- Kernels.h - hand-written PTX the runtime tests share ----*- C++ -*-===//
//
// oob(int *p): one store 64 GiB past p (an illegal address on every device).
//
//===----------------------------------------------------------------------===//
#pragma once

inline constexpr const char *kOobEntryPtx = R"(
.visible .entry oob(.param .u64 p)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  add.s64 %rd2, %rd2, 68719476736;
  mov.u32 %r1, 7;
  st.global.u32 [%rd2], %r1;
  ret;
}
)";

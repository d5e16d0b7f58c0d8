//===- hsa_check.h - CHECK() for the HSA-only vgpu test programs ----------===//
//
// The HSA-only programs (hsa_dispatch.cpp, sdma_copy.cpp) stop at the first
// failing HSA call: CHECK(call) prints file:line, the call, the status and
// ROCr's text for it, and makes the enclosing int-returning function return 1.
//
//===----------------------------------------------------------------------===//
#ifndef PTX2AMD_TESTS_VGPU_HSA_CHECK_H
#define PTX2AMD_TESTS_VGPU_HSA_CHECK_H

#include <hsa/hsa.h>

#include <cstdio>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    hsa_status_t s_ = (call);                                                                      \
    if (s_ != HSA_STATUS_SUCCESS) {                                                                \
      const char *m_ = nullptr;                                                                    \
      hsa_status_string(s_, &m_);                                                                  \
      fprintf(stderr, "%s:%d: %s failed: 0x%x %s\n", __FILE__, __LINE__, #call, s_, m_ ? m_ : ""); \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

#endif

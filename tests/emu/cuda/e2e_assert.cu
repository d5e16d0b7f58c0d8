// CUDA assert() for amdgpu-emu end-to-end tests (separate module so that a
// problem with __assertfail does not hide the other kernels).
#include <cassert>
extern "C" __global__ void check_assert(const int *p) {
  assert(p[threadIdx.x] == 0);
}


// NaN canonicalisation through guarded bit reads and warp shuffles, for the
// nan-guarded test. nvcc's logf reads its argument's bits with integer
// operations only on the path where `bits < 0x7f800000` (not NaN, not
// negative, finite), and a warp reduction passes each partial sum through
// shfl.sync into more arithmetic: neither needs the canonical NaN of the
// intermediate values, only the stored results do. `low_bits` stores
// integer work on the bits without a NaN test: its canonical select stays.
// `f32_as_half2` adds the bits of an f32 sum as two f16 lanes: a NaN f32 of
// another payload has non-NaN f16 lanes, so the f32's select stays too.
// Regenerate nan_guarded.ptx with:
//   nvcc -ptx -arch=sm_90 -O3 nan_guarded.cu -o nan_guarded.ptx
#include <cuda_fp16.h>

extern "C" __global__ void logf_of_sum(const float *a, float *out) {
  int i = threadIdx.x;
  out[i] = logf(a[i] + 2.0f);
}

extern "C" __global__ void warp_sum(const float *a, float *out) {
  int i = threadIdx.x;
  float v = a[i] * 2.0f;
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  out[i] = v;
}

extern "C" __global__ void low_bits(const float *a, unsigned *out) {
  int i = threadIdx.x;
  out[i] = __float_as_uint(a[i] + 2.0f) & 0xffffu;
}

extern "C" __global__ void f32_as_half2(const float *a, unsigned *out) {
  int i = threadIdx.x;
  float s = a[i] + 1.0f;
  __half2 h = *reinterpret_cast<__half2 *>(&s);
  h = __hadd2(h, h);
  out[i] = *reinterpret_cast<unsigned *>(&h);
}

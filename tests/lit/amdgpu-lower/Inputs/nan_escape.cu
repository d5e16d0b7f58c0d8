// NaN canonicalisation points for the nan-canonical test: intermediate f32
// results that only feed arithmetic or comparisons, and results whose bits
// escape through a store, a bit move (__float_as_uint) and a warp shuffle.
// Regenerate nan_escape.ptx with:
//   nvcc -ptx -arch=sm_90 nan_escape.cu -o nan_escape.ptx
extern "C" __global__ void chain(const float *a, float *out, unsigned *bits, int *flag) {
  int i = threadIdx.x;
  float x = a[i], y = a[i + 32];
  float t = x * y + 1.0f;      // feeds arithmetic only
  float u = t * t - x;         // stored
  out[i] = u;
  float v = x + y;             // bits escape through a bit move
  bits[i] = __float_as_uint(v);
  float w = x - y;             // leaves the thread through a shuffle
  out[i + 32] = __shfl_xor_sync(0xffffffffu, w, 1);
  flag[i] = (x * 3.0f) > y;    // feeds a comparison only
}

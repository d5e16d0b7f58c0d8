// Warp intrinsics, inline PTX with scoped registers and predicates, and
// modifier orders that differ from nvcc's (checked by the parser tests).
#include <cstdint>
__device__ __forceinline__ unsigned lane_id() {
  unsigned r;
  asm volatile("{ .reg .u32 %%t; mov.u32 %%t, %%laneid; mov.u32 %0, %%t; }" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned ballot_any_order(int p) {
  unsigned r;
  asm volatile("{ .reg .pred q; setp.ne.s32 q, %1, 0; vote.ballot.sync.b32 %0, q, 0xffffffff; }"
               : "=r"(r) : "r"(p));
  return r;
}
__device__ __forceinline__ float fma_rn(float a, float b, float c) {
  float d;
  asm("fma.rn.ftz.f32 %0, %1, %2, %3;" : "=f"(d) : "f"(a), "f"(b), "f"(c));
  return d;
}
__global__ void warp_kernel(const float *in, float *out, unsigned *mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.f;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  unsigned m = __match_any_sync(0xffffffffu, (int)v);
  unsigned b = ballot_any_order(v > 0.f) ^ __activemask() ^ m;
  if (lane_id() == 0 && i < n) {
    out[i / 32] = fma_rn(v, 2.f, 1.f);
    atomicOr(mask, b);
  }
  __syncwarp();
  if (__all_sync(0xffffffffu, v > 0.f)) atomicAdd(out + n, 1.0f);
}

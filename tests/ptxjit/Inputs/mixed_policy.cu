// Regenerate: nvcc -arch=sm_75 -ptx mixed_policy.cu -o mixed_policy.ptx
// Mixed warp policies in one wave64 module with indirect calls: the kernel
// `k_pad` runs under pad, `k_pack` under pack, and both call the same
// device functions through a function-pointer table. Every callee reads
// thread geometry (%tid, %laneid, %warpid) and uses a warp shuffle, so a pad
// caller that reached the pack version of a callee computes wrong values.
typedef unsigned (*op_t)(unsigned);

__device__ __noinline__ unsigned geom(unsigned x) {
  unsigned lane, warp;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
  return (threadIdx.x << 16) | (warp << 8) | (lane << 1) | (x & 1);
}

__device__ __noinline__ unsigned rotate(unsigned x) {
  return __shfl_sync(0xffffffffu, x + threadIdx.x, (threadIdx.x + 1) & 31);
}

__device__ op_t table[2] = {geom, rotate};

__global__ void k_pad(const int *sel, unsigned *out) {
  op_t f = table[sel[threadIdx.x]];
  out[blockIdx.x * blockDim.x + threadIdx.x] = f(1u);
}

__global__ void k_pack(const int *sel, unsigned *out) {
  op_t f = table[sel[threadIdx.x]];
  out[blockIdx.x * blockDim.x + threadIdx.x] = f(0u);
}

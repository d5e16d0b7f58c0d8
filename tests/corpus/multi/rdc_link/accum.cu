// rdc_link/accum.cu: a kernel launched from main.cu, an accumulator variable main.cu reads.
#include "common.cuh"
#include <cstdio>

__device__ unsigned long long g_sum = 0;

__device__ void accumulate(unsigned int v) { atomicAdd(&g_sum, (unsigned long long)v); }

__global__ void accum_kernel(const uint32_t *in, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n) accumulate(mix32(in[i]) & 0xffffu);
  if (i == 0) accumulate((unsigned)clamp_weak<int>(fib_rec(12), 0, 1000)); // 144
}

void set_scale_from_accum_tu(int s) {
  if (cudaMemcpyToSymbol(c_scale, &s, sizeof s) != cudaSuccess) printf("set_scale FAIL\n");
}

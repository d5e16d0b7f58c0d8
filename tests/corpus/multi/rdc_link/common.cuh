// rdc_link: shared declarations of the three translation units (nvcc -rdc=true).
#pragma once
#include <cstdint>

#define TABLE_N 64

// Defined in table.cu.
extern __device__ float g_table[TABLE_N];
extern __device__ unsigned int g_calls;
extern __constant__ int c_scale;
__device__ float table_lookup(float x);
__device__ uint32_t mix32(uint32_t v);
__device__ int fib_rec(int n); // recursive, across files

// Defined in accum.cu.
extern __device__ unsigned long long g_sum;
__device__ void accumulate(unsigned int v);
__global__ void accum_kernel(const uint32_t *in, int n);
void set_scale_from_accum_tu(int s); // host helper: cudaMemcpyToSymbol inside accum.cu

// An inline template used by two TUs: nvcc emits it .weak in both PTX modules.
template <typename T> __device__ __noinline__ T clamp_weak(T v, T lo, T hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

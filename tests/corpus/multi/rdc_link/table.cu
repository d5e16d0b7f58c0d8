// rdc_link/table.cu: device variables and functions other translation units use.
#include "common.cuh"

__device__ float g_table[TABLE_N];
__device__ unsigned int g_calls = 0;
__constant__ int c_scale = 3;

__global__ void table_init() {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < TABLE_N) g_table[i] = 1.0f / (1.0f + (float)i) + clamp_weak<float>((float)i * 0.25f, 0.0f, 8.0f);
}

__device__ float table_lookup(float x) {
  atomicAdd(&g_calls, 1u);
  int i = clamp_weak<int>((int)x, 0, TABLE_N - 2);
  float f = x - (float)i;
  return g_table[i] * (1.0f - f) + g_table[i + 1] * f;
}

__device__ uint32_t mix32(uint32_t v) {
  v ^= v >> 16; v *= 0x7feb352du; v ^= v >> 15; v *= 0x846ca68bu; v ^= v >> 16;
  return v * (uint32_t)c_scale;
}

__device__ int fib_rec(int n) { return n < 2 ? n : fib_rec(n - 1) + fib_rec(n - 2); }

void launch_table_init() { table_init<<<1, TABLE_N>>>(); }

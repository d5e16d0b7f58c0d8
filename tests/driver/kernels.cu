// kernels.cu: device code for the driver-API programs of tests/driver (vector add, a kernel with
// mixed-alignment by-value parameters for cuLaunchKernel's `extra` buffer, a grid-synchronizing
// cooperative kernel, and kernels using module-scope __device__ / __constant__ globals). Built by
// nvcc into PTX, fat binaries and cubins; the host programs load those images themselves.
#include <cooperative_groups.h>

extern "C" __global__ void vector_add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// Parameters of sizes 8, 4, 1, 8, 2, 4: offsets 0, 8, 12, 16, 24, 28 in the parameter buffer.
extern "C" __global__ void mixed_params(long long *out, int n, char c, double d, short s, float f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (long long)(d * i) + c * 1000 + s * 100000LL + (long long)(f * 7.0f) + i;
}

// Each block writes its partial sum, the grid synchronizes, block 0 adds the partials.
extern "C" __global__ void coop_sum(const int *in, int *partial, int *total, int n) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  __shared__ int acc;
  if (threadIdx.x == 0) acc = 0;
  __syncthreads();
  int local = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) local += in[i];
  atomicAdd(&acc, local);
  __syncthreads();
  if (threadIdx.x == 0) partial[blockIdx.x] = acc;
  grid.sync();
  if (grid.thread_rank() == 0) {
    int t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    *total = t;
  }
}

__device__ int counters[16];
__device__ unsigned long long launches = 5;
__constant__ float coef[4];

extern "C" __global__ void use_globals(float *out) {
  int i = threadIdx.x;
  if (i < 16) {
    out[i] = coef[i % 4] * (float)counters[i];
    counters[i] += i;
  }
  if (i == 0) launches += 1;
}

// CUDA's error model for bad arguments, through ptx2amd's runtime (not a corpus program): null and
// unknown pointers to copies and memsets, impossible allocation sizes, pointers after
// cudaDeviceReset, too much dynamic shared memory (an error, not sticky), cudaMemGetInfo with null
// outputs, profiler control, the default stack limit, a kernel's own static shared memory, and host
// access to a __managed__ variable. Each line prints the error name CUDA returns; the expected
// output is the H200's (tests/shim/runtime_errors.stdout). Nothing here may crash the process.
#include <cstdint>
#include <cstdio>
#include <cuda_profiler_api.h>

__managed__ int counter = 5;
__global__ void bump(int k) { if (threadIdx.x == 0 && blockIdx.x == 0) counter += k; }
__global__ void with_static_smem(int* out) {
  __shared__ int tile[1024];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}
__global__ void with_dynamic_smem(int* out) {
  extern __shared__ int dyn[];
  dyn[threadIdx.x] = threadIdx.x * 2;
  __syncthreads();
  out[threadIdx.x] = dyn[threadIdx.x];
}

static void show(const char* what, cudaError_t e) { printf("%-48s %s\n", what, cudaGetErrorName(e)); }

int main() {
  int host[64] = {0};
  int* d = nullptr;
  show("cudaMalloc 256 B", cudaMalloc(&d, 256));
  show("cudaMemcpy H2D to null", cudaMemcpy(nullptr, host, 64, cudaMemcpyHostToDevice));
  cudaGetLastError();
  show("cudaMemcpy D2H from null", cudaMemcpy(host, nullptr, 64, cudaMemcpyDeviceToHost));
  cudaGetLastError();
  show("cudaMemcpy H2D to an unknown device pointer",
       cudaMemcpy(reinterpret_cast<void*>(uintptr_t(0x10)), host, 64, cudaMemcpyHostToDevice));
  cudaGetLastError();
  show("cudaMemset of null", cudaMemset(nullptr, 0, 64));
  cudaGetLastError();
  show("cudaMemGetInfo(NULL, NULL)", cudaMemGetInfo(nullptr, nullptr));
  void* huge = nullptr;
  cudaError_t e = cudaMalloc(&huge, size_t(0) - 1280);
  show("cudaMalloc of 2^64-1280 bytes", e);
  cudaGetLastError();
  show("cudaMalloc 256 B after the failed one", cudaMalloc(&huge, 256));
  printf("%-48s %s\n", "allocations distinct", huge != d ? "yes" : "no");
  show("cudaFree of a pointer never allocated", cudaFree(reinterpret_cast<void*>(uintptr_t(d) + 8)));
  cudaGetLastError();
  show("cudaFree", cudaFree(huge));

  int* out = nullptr;
  show("cudaMalloc out", cudaMalloc(&out, 1024 * sizeof(int)));
  cudaFuncAttributes fa;
  show("cudaFuncGetAttributes", cudaFuncGetAttributes(&fa, with_static_smem));
  printf("%-48s %zu\n", "static shared bytes of with_static_smem", fa.sharedSizeBytes);
  printf("%-48s %s\n", "maxThreadsPerBlock >= 256", fa.maxThreadsPerBlock >= 256 ? "yes" : "no");
  with_dynamic_smem<<<1, 64, 1 << 20>>>(out);
  show("launch with 1 MiB of dynamic shared memory", cudaGetLastError());
  show("cudaDeviceSynchronize after it", cudaDeviceSynchronize());
  with_dynamic_smem<<<1, 64, 64 * sizeof(int)>>>(out);
  show("launch with 256 B of dynamic shared memory", cudaGetLastError());
  show("cudaDeviceSynchronize", cudaDeviceSynchronize());
  show("cudaMemcpy D2H", cudaMemcpy(host, out, 64 * sizeof(int), cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < 64; ++i) wrong += host[i] != 2 * i;
  printf("%-48s %d\n", "wrong elements", wrong);

  size_t stack = 0;
  show("cudaDeviceGetLimit stack", cudaDeviceGetLimit(&stack, cudaLimitStackSize));
  printf("%-48s %zu\n", "default stack bytes per thread", stack);
  show("cudaDeviceSetLimit stack 4096", cudaDeviceSetLimit(cudaLimitStackSize, 4096));
  show("cudaDeviceGetLimit stack", cudaDeviceGetLimit(&stack, cudaLimitStackSize));
  printf("%-48s %s\n", "stack limit at least 4096", stack >= 4096 ? "yes" : "no");
  show("cudaProfilerStart", cudaProfilerStart());
  show("cudaProfilerStop", cudaProfilerStop());

  printf("%-48s %d\n", "__managed__ counter before", counter);
  bump<<<1, 32>>>(37);
  show("cudaDeviceSynchronize after bump", cudaDeviceSynchronize());
  printf("%-48s %d\n", "__managed__ counter after", counter);
  counter = 100;
  bump<<<1, 32>>>(1);
  show("cudaDeviceSynchronize after bump", cudaDeviceSynchronize());
  printf("%-48s %d\n", "__managed__ counter after host write", counter);

  show("cudaDeviceReset", cudaDeviceReset());
  show("cudaMemcpy H2D to a pointer from before the reset", cudaMemcpy(d, host, 64, cudaMemcpyHostToDevice));
  cudaGetLastError();
  show("cudaFree of a pointer from before the reset", cudaFree(d));
  cudaGetLastError();
  show("cudaMalloc after the reset", cudaMalloc(&d, 256));
  show("cudaMemcpy H2D after the reset", cudaMemcpy(d, host, 64, cudaMemcpyHostToDevice));
  show("cudaFree", cudaFree(d));
  printf("runtime_errors: done PASS\n");
  return 0;
}

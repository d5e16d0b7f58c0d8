// cudaLimitStackSize on HIP before ROCm 5.3 (no hipDeviceSetLimit): HIP 5.2 gives a kernel the
// private segment its code object states (for a recursive kernel LLVM states its frame plus 16 KiB
// for the calls it cannot bound), so the hip backend records the limit and checks each launch of
// a kernel with a dynamic stack against that size. Within it the recursive kernel runs and is
// checked against the CPU; a limit beyond it is refused at launch with cudaErrorNotSupported
// (a CUDA device would run it: this program checks ptx2amd's documented refusal, not CUDA's
// behaviour) and the error is not sticky.
#include <cstdio>
#include <cuda_runtime.h>

__host__ __device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__global__ void fibs(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fib(i % 16);
}

static int run(int* d, int n) {
  fibs<<<(n + 63) / 64, 64>>>(d, n);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  printf("launch: %s\n", cudaGetErrorName(e));
  return e;
}

int main() {
  const int n = 256;
  int *d, h[n];
  int bad = 0;
  if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess) return 2;
  bad += cudaDeviceSetLimit(cudaLimitStackSize, 8192) != cudaSuccess;
  bad += run(d, n) != cudaSuccess;
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += h[i] != fib(i % 16);
  printf("fib results wrong: %d\n", wrong);
  bad += wrong != 0;
  bad += cudaDeviceSetLimit(cudaLimitStackSize, 1 << 20) != cudaSuccess;
  bad += run(d, n) != cudaErrorNotSupported;
  bad += cudaDeviceSetLimit(cudaLimitStackSize, 4096) != cudaSuccess;
  bad += run(d, n) != cudaSuccess; // not sticky
  printf("stack_limit: %s\n", bad ? "FAIL" : "PASS");
  return bad ? 1 : 0;
}

// Device printf with the common conversions (%d %i %u %x %X %o %c %s %f %e %g %G, flags, widths,
// precisions, %lld %llu %ld, %%), printed by one thread so the output order is deterministic, plus
// device assert() on conditions that hold (the kernel must complete). The host checks the values
// the kernel computed (Collatz step counts) against a CPU reference.
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

__device__ const char* kNames[] = {"alpha", "beta", "gamma", "delta"};

__device__ int collatz_steps(unsigned long long v) {
  int s = 0;
  while (v != 1) { v = (v & 1) ? 3 * v + 1 : v / 2; ++s; }
  return s;
}

__global__ void report(const int* data, int n, int* steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(blockDim.x == 64);
  if (i < n) {
    assert(data[i] > 0);
    steps[i] = collatz_steps((unsigned long long)data[i]);
    assert(steps[i] >= 0 && steps[i] < 1000);
  }
  __syncthreads();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    printf("printf_assert: device says hello from block %d thread %d of %d\n", blockIdx.x, threadIdx.x, blockDim.x);
    for (int k = 0; k < 8; ++k) {
      int v = data[k];
      printf("  [%d] v=%5d hex=%#x HEX=%08X oct=%o steps=%-4d| name=%s chr=%c\n", k, v, (unsigned)v, (unsigned)v, v,
             steps[k], kNames[k & 3], 'A' + k);
    }
    double d = 3.141592653589793;
    float f = 2.718281828f;
    long long big = -1234567890123LL;
    unsigned long long ubig = 18446744073709551557ULL;
    printf("  floats: %f %.3f %10.4e %g %G\n", d, (double)f, d * 1e10, 1e-5, 1e20);
    printf("  ints: %lld %llu %i %u %ld 100%%\n", big, ubig, -42, 42u, 7L);
    printf("  str: [%8s] [%-8s] [%.3s]\n", "ab", "cd", "truncate");
  }
}

int main() {
  const int n = 256;
  int h[n];
  srand(77);
  for (int i = 0; i < n; ++i) h[i] = 1 + rand() % 10000;
  int *d, *ds;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMalloc(&ds, n * sizeof(int)));
  CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
  report<<<n / 64, 64>>>(d, n, ds);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());  // flushes the device printf buffer before the host prints
  int steps[n];
  CHECK(cudaMemcpy(steps, ds, n * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  long long total = 0;
  for (int i = 0; i < n; ++i) {
    unsigned long long v = h[i];
    int s = 0;
    while (v != 1) { v = (v & 1) ? 3 * v + 1 : v / 2; ++s; }
    if (s != steps[i]) ++bad;
    total += steps[i];
  }
  printf("printf_assert: total_steps=%lld mismatches=%d %s\n", total, bad, bad ? "FAIL" : "PASS");
  cudaFree(d); cudaFree(ds);
  return bad ? 1 : 0;
}

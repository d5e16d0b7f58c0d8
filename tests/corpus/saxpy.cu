// saxpy: y = a*x + y over 1M floats, grid-stride loop, checked against a CPU reference.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 20;
  const float a = 2.5f;
  std::vector<float> x(n), y(n), ref(n);
  srand(12345);
  for (int i = 0; i < n; ++i) {
    x[i] = (float)(rand() % 2001 - 1000) / 100.0f;
    y[i] = (float)(rand() % 2001 - 1000) / 100.0f;
    ref[i] = a * x[i] + y[i];
  }
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  saxpy<<<256, 256>>>(n, a, dx, dy);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    // fma contraction on the device may differ from the CPU by one rounding.
    if (std::fabs(y[i] - ref[i]) > 1e-4f * (1.0f + std::fabs(ref[i]))) ++bad;
    sum += y[i];
  }
  printf("saxpy: n=%d checksum=%.6f mismatches=%d %s\n", n, sum, bad, bad ? "FAIL" : "PASS");
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  return bad ? 1 : 0;
}

// st_vectoradd.cu: static-cudart vectorAdd (cudaMalloc, cudaMemcpy both ways, one <<<>>> launch,
// cudaDeviceSynchronize, cudaFree). Built with plain `nvcc` (static cudart) to observe and replay
// the driver traffic that the static runtime produces.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void vector_add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 1000;
  float a[n], b[n], c[n];
  for (int i = 0; i < n; ++i) { a[i] = i * 0.5f; b[i] = 2.0f * i + 1.0f; }
  float *da, *db, *dc;
  cudaMalloc(&da, sizeof a);
  cudaMalloc(&db, sizeof b);
  cudaMalloc(&dc, sizeof c);
  cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
  vector_add<<<(n + 255) / 256, 256>>>(da, db, dc, n);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += c[i] != a[i] + b[i];
  printf("launch %s, sync %s, c[1]=%g c[999]=%g, %d mismatches\n", cudaGetErrorName(launch),
         cudaGetErrorName(sync), c[1], c[999], bad);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}

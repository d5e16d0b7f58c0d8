// st_stream.cu: static-cudart streams and events: cudaStreamCreate, cudaMemcpyAsync, a launch on
// the stream, cudaEventRecord / Synchronize / Query / ElapsedTime, cudaStreamSynchronize.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void twice(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= 2;
}

int main() {
  const int n = 4096;
  static int h[n];
  for (int i = 0; i < n; ++i) h[i] = i;
  cudaStream_t s;
  cudaEvent_t start, stop;
  cudaError_t e0 = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  int *d;
  cudaMalloc(&d, sizeof h);
  cudaEventRecord(start, s);
  cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, s);
  twice<<<n / 128, 128, 0, s>>>(d, n);
  cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s);
  cudaEventRecord(stop, s);
  cudaError_t e1 = cudaEventSynchronize(stop);
  cudaError_t e2 = cudaEventQuery(stop);
  float ms = -1;
  cudaError_t e3 = cudaEventElapsedTime(&ms, start, stop);
  cudaError_t e4 = cudaStreamSynchronize(s);
  long sum = 0;
  for (int i = 0; i < n; ++i) sum += h[i];
  printf("%s %s %s %s %s elapsed>=0=%d sum=%ld\n", cudaGetErrorName(e0), cudaGetErrorName(e1),
         cudaGetErrorName(e2), cudaGetErrorName(e3), cudaGetErrorName(e4), ms >= 0, sum);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(s);
  cudaFree(d);
  return 0;
}

// Streams created and destroyed without end, as a long-running CUDA program (or the conditional
// graph nodes' private streams) does: each of 1100 streams runs one kernel and is destroyed, so
// under the hip backend each is a hip stream, a ROCclr virtual device and an HSA queue that ROCr
// destroys again (~AqlQueue's handshake with ROCr's async-events thread on the queues' shared KFD
// event, the wait that lost its wake-up before vgpu's events followed amdkfd; and one KFD queue id
// and doorbell each, 1100 > the 1024 doorbells of the page, so the ids must be reused). Self-checking
// (the kernels' sum); not a CUDA-behaviour test, a virtual-GPU one (tests/vgpu).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add(int* p, int v) { atomicAdd(p, v); }

int main() {
  const int N = 1100;
  int* d = nullptr;
  if (cudaMalloc(&d, sizeof(int)) != cudaSuccess || cudaMemset(d, 0, sizeof(int)) != cudaSuccess) {
    printf("setup FAIL\n");
    return 1;
  }
  long long want = 0;
  for (int i = 0; i < N; ++i) {
    cudaStream_t s;
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) {
      printf("stream %d: create FAIL\n", i);
      return 1;
    }
    add<<<1, 1, 0, s>>>(d, i % 7 + 1);
    want += i % 7 + 1;
    cudaError_t e = cudaStreamSynchronize(s);
    cudaError_t e2 = cudaStreamDestroy(s);
    if (e != cudaSuccess || e2 != cudaSuccess) {
      printf("stream %d: %s / %s FAIL\n", i, cudaGetErrorName(e), cudaGetErrorName(e2));
      return 1;
    }
  }
  int got = 0;
  cudaMemcpy(&got, d, sizeof got, cudaMemcpyDeviceToHost);
  printf("stream_churn: %d streams, sum %d (want %lld) %s\n", N, got, want, got == want ? "PASS" : "FAIL");
  return got != want;
}

#include <cstdio>
__global__ void k(int* p) { p[threadIdx.x] = 1; }
int main() {
  int* d; cudaMalloc(&d, 256);
  cudaIpcMemHandle_t h;
  printf("ipc: %s\n", cudaGetErrorName(cudaIpcGetMemHandle(&h, d)));
  k<<<1, 32>>>(reinterpret_cast<int*>(0x1000));
  cudaError_t e = cudaDeviceSynchronize();
  printf("oob: %s\n", cudaGetErrorName(e));
  return 0;
}

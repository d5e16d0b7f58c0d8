// st_symbol.cu: static-cudart __device__ / __constant__ globals: cudaMemcpyToSymbol,
// cudaGetSymbolAddress, a kernel reading both, cudaMemcpyFromSymbol.
#include <cstdio>
#include <cuda_runtime.h>

__device__ int table[8];
__constant__ int scale;

__global__ void apply(int *out) {
  int i = threadIdx.x;
  out[i] = table[i] * scale;
  table[i] += 1;
}

int main() {
  int h[8], out[8], back[8];
  for (int i = 0; i < 8; ++i) h[i] = 10 * i + 3;
  int s = 7;
  cudaError_t e1 = cudaMemcpyToSymbol(table, h, sizeof h);
  cudaError_t e2 = cudaMemcpyToSymbol(scale, &s, sizeof s);
  int *dout;
  cudaMalloc(&dout, sizeof out);
  void *addr = nullptr;
  cudaError_t e3 = cudaGetSymbolAddress(&addr, table);
  size_t size = 0;
  cudaGetSymbolSize(&size, table);
  apply<<<1, 8>>>(dout);
  cudaDeviceSynchronize();
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  cudaError_t e4 = cudaMemcpyFromSymbol(back, table, sizeof back);
  printf("%s %s %s %s size=%zu addr_nonnull=%d\n", cudaGetErrorName(e1), cudaGetErrorName(e2),
         cudaGetErrorName(e3), cudaGetErrorName(e4), size, addr != nullptr);
  for (int i = 0; i < 8; ++i) printf("%d:%d/%d ", i, out[i], back[i]);
  printf("\n");
  cudaFree(dout);
  return 0;
}

// Host access to module-scope variables that are internal to the PTX module
// (non-rdc nvcc output: `.const` / `.global` without `.visible`):
//  * an initialised __constant__ table that the kernel only reads, rewritten by
//    cudaMemcpyToSymbol between launches (its loads must not be folded to the
//    initializer);
//  * an initialised __device__ scalar read with cudaMemcpyFromSymbol before any
//    launch;
//  * a __device__ counter the kernel increments, read back with
//    cudaMemcpyFromSymbol and through cudaGetSymbolAddress + cudaMemcpy;
//  * a __constant__ and a __device__ array no kernel references at all (-O3
//    would delete them): round trip through To/FromSymbol with an offset;
//  * cudaGetSymbolSize.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); return 2; } } while (0)

__constant__ int c_table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__constant__ float c_unused[16];
__device__ long long d_init = 0x123456789abcLL;
__device__ unsigned d_counter;
__device__ double d_unused[5];

__global__ void apply(int* out) {
  int i = threadIdx.x;
  out[i] = c_table[i & 7] * 10 + i;
  atomicAdd(&d_counter, 1u);
}

int main() {
  int bad = 0;
  long long init = 0;
  CHECK(cudaMemcpyFromSymbol(&init, d_init, sizeof init));
  if (init != 0x123456789abcLL) { printf("d_init = %llx\n", init); ++bad; }

  int* dout;
  CHECK(cudaMalloc(&dout, 64 * sizeof(int)));
  int out[64];
  apply<<<1, 64>>>(dout);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 64; ++i) if (out[i] != (i % 8 + 1) * 10 + i) ++bad;

  int table[8];
  for (int i = 0; i < 8; ++i) table[i] = 100 - i;
  CHECK(cudaMemcpyToSymbol(c_table, table, sizeof table));
  apply<<<1, 64>>>(dout);
  CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 64; ++i) if (out[i] != (100 - i % 8) * 10 + i) { if (bad < 4) printf("out[%d] = %d\n", i, out[i]); ++bad; }
  // Partial rewrite with an offset: entries 2..3 only.
  int two[2] = {-5, -6};
  CHECK(cudaMemcpyToSymbol(c_table, two, sizeof two, 2 * sizeof(int)));
  apply<<<1, 8>>>(dout);
  CHECK(cudaMemcpy(out, dout, 8 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 8; ++i) {
    int w = i == 2 ? -5 : i == 3 ? -6 : 100 - i;
    if (out[i] != w * 10 + i) ++bad;
  }

  unsigned counter = 0;
  CHECK(cudaMemcpyFromSymbol(&counter, d_counter, sizeof counter));
  if (counter != 64 + 64 + 8) { printf("d_counter = %u\n", counter); ++bad; }
  void* pc = nullptr;
  CHECK(cudaGetSymbolAddress(&pc, d_counter));
  unsigned zero = 0, viaPtr = 1;
  CHECK(cudaMemcpy(&viaPtr, pc, sizeof viaPtr, cudaMemcpyDeviceToHost));
  if (viaPtr != counter) ++bad;
  CHECK(cudaMemcpy(pc, &zero, sizeof zero, cudaMemcpyHostToDevice));
  apply<<<1, 32>>>(dout);
  CHECK(cudaMemcpyFromSymbol(&counter, d_counter, sizeof counter));
  if (counter != 32) { printf("d_counter after reset = %u\n", counter); ++bad; }

  float fin[16], fout[16];
  for (int i = 0; i < 16; ++i) fin[i] = 0.5f * i - 3.0f;
  CHECK(cudaMemcpyToSymbol(c_unused, fin, sizeof fin));
  CHECK(cudaMemcpyFromSymbol(fout, c_unused, 8 * sizeof(float), 8 * sizeof(float)));
  if (memcmp(fout, fin + 8, 8 * sizeof(float))) ++bad;
  double din[5] = {1.5, -2.25, 3e300, 0.0, -0.0}, dout5[5];
  CHECK(cudaMemcpyToSymbol(d_unused, din, sizeof din));
  CHECK(cudaMemcpyFromSymbol(dout5, d_unused, sizeof dout5));
  if (memcmp(dout5, din, sizeof din)) ++bad;

  size_t sz = 0;
  CHECK(cudaGetSymbolSize(&sz, c_table));
  if (sz != sizeof table) ++bad;
  // Past the end of the symbol: an error, not a write into the neighbour.
  if (cudaMemcpyToSymbol(c_table, table, sizeof table, 4) != cudaErrorInvalidValue) ++bad;
  cudaGetLastError();

  printf("symbols: counter=%u mismatches=%d %s\n", counter, bad, bad ? "FAIL" : "PASS");
  cudaFree(dout);
  return bad ? 1 : 0;
}

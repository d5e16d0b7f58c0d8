// Module variables across cudaDeviceReset (not a corpus program). CUDA unloads every module at a
// reset and loads it again on next use, so __device__ / __constant__ variables start from their
// initial values again, and pointers from before the reset are dead. The program changes a
// __device__ counter, a __device__ table, a __constant__ scale and a __managed__ value (from
// kernels and with cudaMemcpyToSymbol), resets, and prints what the variables hold afterwards,
// as symbol reads and as a kernel sees them. Run with the argument `probe` it also reads the
// __managed__ variable from the host after the reset (before and after the module is used again)
// and copies from the counter's address from before the reset (what CUDA does there is not
// documented; those lines are informational).
// The expected stdout is the H200's (tests/golden/programs/); stdout is unbuffered, so a crash
// still leaves the lines before it.
#include <cstdio>
#include <cstring>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d FAIL\n", cudaGetErrorName(e_), __LINE__); return 1; } } while (0)

__device__ int dev_counter = 7;
__device__ int dev_table[4] = {1, 2, 3, 4};
__constant__ int c_scale = 3;
__managed__ int m_value = 5;

__global__ void bump(int* out) {
  dev_counter += 1;
  dev_table[0] += 10;
  out[0] = dev_counter;
  out[1] = dev_table[0] * c_scale;
  out[2] = m_value;
  m_value += 100;
}

// One launch of bump; prints what it saw and the variables read back as symbols.
static int round_trip(const char* label) {
  int* out;
  CHECK(cudaMalloc(&out, 4 * sizeof(int)));
  bump<<<1, 1>>>(out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int h[3];
  CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  printf("%s: kernel saw counter %d, table[0]*scale %d, managed %d\n", label, h[0], h[1], h[2]);
  int counter, scale, table[4];
  CHECK(cudaMemcpyFromSymbol(&counter, dev_counter, sizeof counter));
  CHECK(cudaMemcpyFromSymbol(&scale, c_scale, sizeof scale));
  CHECK(cudaMemcpyFromSymbol(table, dev_table, sizeof table));
  printf("%s: symbols counter %d, scale %d, table {%d, %d, %d, %d}\n", label, counter, scale, table[0], table[1],
         table[2], table[3]);
  CHECK(cudaFree(out));
  return 0;
}

int main(int argc, char** argv) {
  setvbuf(stdout, nullptr, _IONBF, 0);
  const bool probe = argc > 1 && strcmp(argv[1], "probe") == 0;
  int wrong = 0;
  if (round_trip("first launch")) return 1;
  printf("host reads managed: %d\n", m_value);
  const int scale4 = 4, table50[4] = {50, 60, 70, 80};
  CHECK(cudaMemcpyToSymbol(c_scale, &scale4, sizeof scale4));
  CHECK(cudaMemcpyToSymbol(dev_table, table50, sizeof table50));
  m_value = 1000;
  if (round_trip("second launch")) return 1;
  printf("host reads managed: %d\n", m_value);
  int* old;
  CHECK(cudaMalloc(&old, 64));
  void* old_counter;
  CHECK(cudaGetSymbolAddress(&old_counter, dev_counter));

  printf("cudaDeviceReset: %s\n", cudaGetErrorName(cudaDeviceReset()));
  if (probe) printf("after reset, host reads managed before any other call: %d\n", m_value);
  int h[16] = {};
  cudaError_t e = cudaMemcpy(h, old, 64, cudaMemcpyDeviceToHost);
  printf("cudaMemcpy from a pointer from before the reset: %s\n", cudaGetErrorName(e));
  wrong += e == cudaSuccess;
  cudaGetLastError(); // the failed copy is the last error
  int counter, scale, table[4];
  CHECK(cudaMemcpyFromSymbol(&counter, dev_counter, sizeof counter));
  CHECK(cudaMemcpyFromSymbol(&scale, c_scale, sizeof scale));
  CHECK(cudaMemcpyFromSymbol(table, dev_table, sizeof table));
  if (probe) {
    e = cudaMemcpy(h, old_counter, sizeof(int), cudaMemcpyDeviceToHost);
    printf("after reset, cudaMemcpy from the counter's address from before the reset: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
  }
  printf("after reset: symbols counter %d, scale %d, table {%d, %d, %d, %d}\n", counter, scale, table[0], table[1],
         table[2], table[3]);
  // CUDA documents the reload: the initial values again.
  wrong += counter != 7 || scale != 3 || table[0] != 1 || table[3] != 4;
  if (probe) printf("after reset, host reads managed after a symbol read: %d\n", m_value);
  if (round_trip("after reset")) return 1;
  if (probe) printf("after reset, host reads managed after a launch: %d\n", m_value);
  printf("%d wrong: %s\n", wrong, wrong ? "FAIL" : "PASS");
  return wrong ? 1 : 0;
}

// WARP_SZ (issue 15 item 1): CUDA's `warpSize` compiles to PTX's predefined identifier WARP_SZ
// (`mov.u32 %r, WARP_SZ;`), and inline PTX may use it as an operand, in an operand expression
// (`WARP_SZ-1`) and in comparisons. Covers: lane/warp ids from threadIdx.x % warpSize and
// / warpSize, a warpSize-bounded shuffle reduction, per-warp partials sized by blockDim/warpSize,
// a rounding-up helper, and inline asm reading WARP_SZ directly. The CUDA warp size is 32 on every
// target, also when the AMD wave has 64 lanes (pack and pad policies); every printed value is an
// exact integer.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

__device__ unsigned asm_warp_sz() {
  unsigned w;
  asm volatile("mov.u32 %0, WARP_SZ;" : "=r"(w));
  return w;
}

// (v + WARP_SZ - 1) & ~(WARP_SZ - 1), written in PTX with WARP_SZ in operand expressions.
__device__ unsigned asm_round_up(unsigned v) {
  unsigned r;
  asm("{\n\t.reg .u32 t;\n\t"
      "add.u32 t, %1, WARP_SZ-1;\n\t"
      "and.b32 %0, t, -WARP_SZ;\n\t}"
      : "=r"(r) : "r"(v));
  return r;
}

// 1 when v < WARP_SZ (setp with the identifier as the second source).
__device__ unsigned asm_below(unsigned v) {
  unsigned r;
  asm("{\n\t.reg .pred p;\n\t"
      "setp.lt.u32 p, %1, WARP_SZ;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t}"
      : "=r"(r) : "r"(v));
  return r;
}

struct Out {
  unsigned ws, asm_ws, lane, warp, nwarps, round_up, below, warp_sum, block_sum;
};

__global__ void warp_size_users(const int* in, Out* out, int n) {
  extern __shared__ int partial[]; // blockDim.x / warpSize entries
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  unsigned lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  unsigned nwarps = (blockDim.x + warpSize - 1) / warpSize;
  int s = v;
  for (int off = warpSize / 2; off > 0; off /= 2) s += __shfl_xor_sync(0xffffffffu, s, off, warpSize);
  if (lane == 0) partial[warp] = s;
  __syncthreads();
  int b = 0;
  for (unsigned w = 0; w < nwarps; ++w) b += partial[w];
  Out o;
  o.ws = warpSize;
  o.asm_ws = asm_warp_sz();
  o.lane = lane;
  o.warp = warp;
  o.nwarps = nwarps;
  o.round_up = asm_round_up((unsigned)v & 1023u);
  o.below = asm_below((unsigned)v & 63u);
  o.warp_sum = (unsigned)s;
  o.block_sum = (unsigned)b;
  if (i < n) out[i] = o;
}

int main() {
  const int n = 1000;
  std::vector<int> h(n);
  unsigned st = 2024u;
  for (int& x : h) { st = st * 1103515245u + 12345u; x = (int)((st >> 10) % 2001u) - 1000; }
  int* din;
  Out* dout;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, n * sizeof(Out)));
  CHECK(cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  int dev_ws = 0;
  CHECK(cudaDeviceGetAttribute(&dev_ws, cudaDevAttrWarpSize, 0));
  printf("cudaDevAttrWarpSize %d\n", dev_ws);
  bool ok = dev_ws == 32;
  const int blocks[] = {32, 64, 96, 256};
  for (int bs : blocks) {
    CHECK(cudaMemset(dout, 0, n * sizeof(Out)));
    int grid = (n + bs - 1) / bs;
    warp_size_users<<<grid, bs, (bs / 32) * sizeof(int)>>>(din, dout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<Out> o(n);
    CHECK(cudaMemcpy(o.data(), dout, n * sizeof(Out), cudaMemcpyDeviceToHost));
    long long chk = 0;
    int bad = 0;
    for (int i = 0; i < n; ++i) {
      int t = i % bs, w0 = (i / 32) * 32, b0 = (i / bs) * bs;
      int ws = 0, bsum = 0;
      for (int j = w0; j < w0 + 32; ++j) ws += j < n ? h[j] : 0;
      for (int j = b0; j < b0 + bs; ++j) bsum += j < n ? h[j] : 0;
      unsigned m = (unsigned)h[i] & 1023u;
      Out e{32u, 32u, (unsigned)(t % 32), (unsigned)(t / 32), (unsigned)((bs + 31) / 32), (m + 31u) & ~31u,
            ((unsigned)h[i] & 63u) < 32u ? 1u : 0u, (unsigned)ws, (unsigned)bsum};
      const unsigned* a = &o[i].ws;
      const unsigned* r = &e.ws;
      for (int k = 0; k < 9; ++k) {
        if (a[k] != r[k]) {
          if (bad++ < 5) fprintf(stderr, "block %d i=%d field %d: got %u want %u\n", bs, i, k, a[k], r[k]);
        }
        chk = chk * 31 + a[k];
        chk &= 0xffffffffffffll;
      }
    }
    printf("block=%3d checksum=%012llx mismatches=%d\n", bs, chk, bad);
    ok = ok && bad == 0;
  }
  cudaFree(din);
  cudaFree(dout);
  printf("warp_sz: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

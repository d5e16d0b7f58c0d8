// Prefix sums over 1M ints: a three-phase multi-block scan (per-block scan with warp shuffles
// (__shfl_up_sync) + shared memory, scan of block totals, uniform add), plus a work-efficient
// Blelloch (up-sweep/down-sweep) exclusive scan of one 1024-element tile per block.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

constexpr int kBlock = 512;

__device__ int warp_inclusive_scan(int v) {
  int lane = threadIdx.x & 31;
  for (int off = 1; off < 32; off <<= 1) {
    int t = __shfl_up_sync(0xffffffffu, v, off);
    if (lane >= off) v += t;
  }
  return v;
}

// Inclusive scan of each block's chunk; writes the block total to sums[blockIdx.x].
__global__ void block_scan(const int* in, int* out, int* sums, int n) {
  __shared__ int warp_tot[kBlock / 32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int v = i < n ? in[i] : 0;
  v = warp_inclusive_scan(v);
  if (lane == 31) warp_tot[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int t = lane < kBlock / 32 ? warp_tot[lane] : 0;
    t = warp_inclusive_scan(t);
    if (lane < kBlock / 32) warp_tot[lane] = t;
  }
  __syncthreads();
  if (warp > 0) v += warp_tot[warp - 1];
  if (i < n) out[i] = v;
  if (threadIdx.x == blockDim.x - 1) sums[blockIdx.x] = v;
}

// Single-block sequential-per-thread scan of the block totals (exclusive).
__global__ void scan_sums(int* sums, int nblocks) {
  __shared__ int s[2048];
  for (int i = threadIdx.x; i < nblocks; i += blockDim.x) s[i] = sums[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    int acc = 0;
    for (int i = 0; i < nblocks; ++i) { int t = s[i]; s[i] = acc; acc += t; }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < nblocks; i += blockDim.x) sums[i] = s[i];
}

__global__ void uniform_add(int* out, const int* sums, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += sums[blockIdx.x];
}

// Blelloch exclusive scan of 2*blockDim.x elements per block, in shared memory.
__global__ void blelloch(const int* in, int* out, int n) {
  __shared__ int t[2 * kBlock];
  int base = blockIdx.x * 2 * kBlock;
  int a = threadIdx.x, b = threadIdx.x + kBlock;
  t[a] = base + a < n ? in[base + a] : 0;
  t[b] = base + b < n ? in[base + b] : 0;
  int offset = 1;
  for (int d = kBlock; d > 0; d >>= 1) {
    __syncthreads();
    if ((int)threadIdx.x < d) {
      int ai = offset * (2 * threadIdx.x + 1) - 1, bi = offset * (2 * threadIdx.x + 2) - 1;
      t[bi] += t[ai];
    }
    offset <<= 1;
  }
  if (threadIdx.x == 0) t[2 * kBlock - 1] = 0;
  for (int d = 1; d < 2 * kBlock; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if ((int)threadIdx.x < d) {
      int ai = offset * (2 * threadIdx.x + 1) - 1, bi = offset * (2 * threadIdx.x + 2) - 1;
      int x = t[ai];
      t[ai] = t[bi];
      t[bi] += x;
    }
  }
  __syncthreads();
  if (base + a < n) out[base + a] = t[a];
  if (base + b < n) out[base + b] = t[b];
}

int main() {
  const int n = 1000000;  // not a multiple of the block size on purpose
  const int nblocks = (n + kBlock - 1) / kBlock;
  std::vector<int> h(n), out(n), out2(n);
  srand(7);
  for (int i = 0; i < n; ++i) h[i] = rand() % 201 - 100;
  int *din, *dout, *dsums, *dout2;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, n * sizeof(int)));
  CHECK(cudaMalloc(&dout2, n * sizeof(int)));
  CHECK(cudaMalloc(&dsums, nblocks * sizeof(int)));
  CHECK(cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  block_scan<<<nblocks, kBlock>>>(din, dout, dsums, n);
  scan_sums<<<1, 1024>>>(dsums, nblocks);
  uniform_add<<<nblocks, kBlock>>>(dout, dsums, n);
  blelloch<<<(n + 2 * kBlock - 1) / (2 * kBlock), kBlock>>>(din, dout2, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(out2.data(), dout2, n * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0, bad2 = 0;
  long long acc = 0, tile = 0;
  for (int i = 0; i < n; ++i) {
    if (i % (2 * kBlock) == 0) tile = 0;
    if (out2[i] != tile) ++bad2;
    tile += h[i];
    acc += h[i];
    if (out[i] != acc) ++bad;
  }
  printf("scan: n=%d total=%d last_tile_excl=%d inclusive_mismatches=%d blelloch_mismatches=%d %s\n", n, out[n - 1],
         out2[n - 1], bad, bad2, (bad || bad2) ? "FAIL" : "PASS");
  cudaFree(din); cudaFree(dout); cudaFree(dout2); cudaFree(dsums);
  return (bad || bad2) ? 1 : 0;
}

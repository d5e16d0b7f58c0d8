// Reductions: shared-memory tree reduction, warp-shuffle reductions (__shfl_down_sync,
// __shfl_xor_sync), warp votes (__ballot_sync/__any_sync/__all_sync/__activemask), __match_any_sync
// and, on sm_80+, the __reduce_*_sync (redux.sync) intrinsics. Integer results are exact; the float
// sum is checked with a tolerance.
#include <cstdio>
#include <cstdlib>
#include <climits>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

constexpr int kBlock = 256;

// Classic shared-memory tree reduction, one partial sum per block.
__global__ void reduce_shared(const int* in, long long* partial, int n) {
  __shared__ long long s[kBlock];
  int tid = threadIdx.x;
  long long v = 0;
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) v += in[i];
  s[tid] = v;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = s[0];
}

__device__ float warp_sum(float v) {
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

__device__ int warp_max(int v) {
  for (int off = 16; off > 0; off >>= 1) v = max(v, __shfl_xor_sync(0xffffffffu, v, off));
  return v;
}

// Shuffle reduction: warp sums combined through shared memory, then one atomic per block.
__global__ void reduce_shuffle(const float* in, float* out_sum, int* out_max, const int* iin, int n) {
  __shared__ float wsum[kBlock / 32];
  __shared__ int wmax[kBlock / 32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float v = 0.f;
  int m = INT_MIN;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    v += in[i];
    m = max(m, iin[i]);
  }
  v = warp_sum(v);
  m = warp_max(m);
  if (lane == 0) { wsum[warp] = v; wmax[warp] = m; }
  __syncthreads();
  if (warp == 0) {
    v = lane < (int)(blockDim.x / 32) ? wsum[lane] : 0.f;
    m = lane < (int)(blockDim.x / 32) ? wmax[lane] : INT_MIN;
    v = warp_sum(v);
    m = warp_max(m);
    if (lane == 0) { atomicAdd(out_sum, v); atomicMax(out_max, m); }
  }
}

// Warp votes and match: counts of positive elements, warps with any/all positive, distinct values.
__global__ void votes(const int* in, int n, unsigned* counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  unsigned active = __activemask();
  unsigned b = __ballot_sync(0xffffffffu, v > 0);
  int any = __any_sync(0xffffffffu, v > 0);
  int all = __all_sync(0xffffffffu, v > 0);
  unsigned same = __match_any_sync(0xffffffffu, v & 7);
  int lane = threadIdx.x & 31;
  // Leader of each (v & 7) group counts one group.
  if ((__ffs(same) - 1) == lane) atomicAdd(&counts[3], 1u);
  if (lane == 0) {
    atomicAdd(&counts[0], (unsigned)__popc(b));
    atomicAdd(&counts[1], (unsigned)any);
    atomicAdd(&counts[2], (unsigned)all);
    atomicAdd(&counts[4], (unsigned)__popc(active));
  }
}

// redux.sync on sm_80+, shuffle fallback elsewhere: xor and min/max of unsigned values per warp.
__global__ void redux(const int* in, int n, unsigned* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = i < n ? (unsigned)in[i] & 0xffffu : 0u;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  unsigned s = __reduce_add_sync(0xffffffffu, v);
  unsigned x = __reduce_xor_sync(0xffffffffu, v);
  unsigned mn = __reduce_min_sync(0xffffffffu, v);
  unsigned mx = __reduce_max_sync(0xffffffffu, v);
#else
  unsigned s = v, x = v, mn = v, mx = v;
  for (int off = 16; off > 0; off >>= 1) {
    s += __shfl_xor_sync(0xffffffffu, s, off);
    x ^= __shfl_xor_sync(0xffffffffu, x, off);
    mn = min(mn, __shfl_xor_sync(0xffffffffu, mn, off));
    mx = max(mx, __shfl_xor_sync(0xffffffffu, mx, off));
  }
#endif
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(&out[0], s);
    atomicXor(&out[1], x);
    atomicMin(&out[2], mn);
    atomicMax(&out[3], mx);
  }
}

int main() {
  const int n = 1 << 20;
  std::vector<int> h(n);
  std::vector<float> hf(n);
  srand(2024);
  for (int i = 0; i < n; ++i) {
    h[i] = rand() % 20001 - 10000;
    hf[i] = (float)(rand() % 1000) / 1000.0f;
  }
  int *d, *dmax;
  float *df, *dsum;
  long long* dpart;
  unsigned *dcounts, *dredux;
  const int blocks = 128;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMalloc(&df, n * sizeof(float)));
  CHECK(cudaMalloc(&dpart, blocks * sizeof(long long)));
  CHECK(cudaMalloc(&dsum, sizeof(float)));
  CHECK(cudaMalloc(&dmax, sizeof(int)));
  CHECK(cudaMalloc(&dcounts, 5 * sizeof(unsigned)));
  CHECK(cudaMalloc(&dredux, 4 * sizeof(unsigned)));
  CHECK(cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(df, hf.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dsum, 0, sizeof(float)));
  int imin = INT_MIN;
  CHECK(cudaMemcpy(dmax, &imin, sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dcounts, 0, 5 * sizeof(unsigned)));
  unsigned rinit[4] = {0u, 0u, 0xffffffffu, 0u};
  CHECK(cudaMemcpy(dredux, rinit, sizeof rinit, cudaMemcpyHostToDevice));

  reduce_shared<<<blocks, kBlock>>>(d, dpart, n);
  reduce_shuffle<<<blocks, kBlock>>>(df, dsum, dmax, d, n);
  votes<<<(n + kBlock - 1) / kBlock, kBlock>>>(d, n, dcounts);
  redux<<<(n + kBlock - 1) / kBlock, kBlock>>>(d, n, dredux);
  CHECK(cudaGetLastError());

  std::vector<long long> part(blocks);
  float gsum;
  int gmax;
  unsigned counts[5], rx[4];
  CHECK(cudaMemcpy(part.data(), dpart, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&gsum, dsum, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&gmax, dmax, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(counts, dcounts, sizeof counts, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rx, dredux, sizeof rx, cudaMemcpyDeviceToHost));

  long long isum = 0, ref_isum = 0;
  for (long long p : part) isum += p;
  double ref_fsum = 0;
  int ref_max = INT_MIN;
  unsigned ref_counts[5] = {0, 0, 0, 0, 0};
  unsigned ref_rx[4] = {0u, 0u, 0xffffffffu, 0u};
  for (int i = 0; i < n; ++i) {
    ref_isum += h[i];
    ref_fsum += hf[i];
    ref_max = h[i] > ref_max ? h[i] : ref_max;
    unsigned v = (unsigned)h[i] & 0xffffu;
    ref_rx[0] += v;
    ref_rx[1] ^= v;
    ref_rx[2] = v < ref_rx[2] ? v : ref_rx[2];
    ref_rx[3] = v > ref_rx[3] ? v : ref_rx[3];
  }
  for (int w = 0; w < n / 32; ++w) {
    int pos = 0, groups = 0;
    bool seen[8] = {};
    for (int l = 0; l < 32; ++l) {
      int v = h[w * 32 + l];
      pos += v > 0;
      if (!seen[v & 7]) { seen[v & 7] = true; ++groups; }
    }
    ref_counts[0] += pos;
    ref_counts[1] += pos > 0;
    ref_counts[2] += pos == 32;
    ref_counts[3] += groups;
    ref_counts[4] += 32;
  }
  int bad = 0;
  if (isum != ref_isum) { ++bad; printf("int sum %lld != %lld\n", isum, ref_isum); }
  if (std::fabs(gsum - ref_fsum) > 1e-3 * std::fabs(ref_fsum)) { ++bad; printf("float sum %f != %f\n", gsum, ref_fsum); }
  if (gmax != ref_max) { ++bad; printf("max %d != %d\n", gmax, ref_max); }
  for (int k = 0; k < 5; ++k)
    if (counts[k] != ref_counts[k]) { ++bad; printf("vote count[%d] %u != %u\n", k, counts[k], ref_counts[k]); }
  for (int k = 0; k < 4; ++k)
    if (rx[k] != ref_rx[k]) { ++bad; printf("redux[%d] %u != %u\n", k, rx[k], ref_rx[k]); }
  // The float sum depends on atomic ordering, so only exact results are printed.
  printf("reduction: isum=%lld max=%d ballot=%u groups=%u redux=%u/%u/%u/%u %s\n", isum, gmax,
         counts[0], counts[3], rx[0], rx[1], rx[2], rx[3], bad ? "FAIL" : "PASS");
  cudaFree(d); cudaFree(df); cudaFree(dpart); cudaFree(dsum); cudaFree(dmax); cudaFree(dcounts); cudaFree(dredux);
  return bad ? 1 : 0;
}

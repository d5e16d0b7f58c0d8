// Bitonic sort of 2^16 unsigned keys with int payloads: a shared-memory kernel sorts 1024-element
// chunks, then global-memory merge steps (one launch per (k, j) stage) finish the network; a second
// pass sorts floats descending with a shared-memory-only merge for small j. Checked against std::sort.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

constexpr int kChunk = 1024;

template <typename K>
__device__ __forceinline__ void cmp_swap(K& a, K& b, int& pa, int& pb, bool up) {
  if ((a > b) == up) {
    K t = a; a = b; b = t;
    int p = pa; pa = pb; pb = p;
  }
}

// Sorts each kChunk-element chunk; direction alternates with the chunk index so the result is a
// sequence of bitonic runs ready for the global merge.
template <typename K>
__global__ void sort_chunks(K* keys, int* vals, bool ascending) {
  __shared__ K sk[kChunk];
  __shared__ int sv[kChunk];
  int base = blockIdx.x * kChunk;
  for (int i = threadIdx.x; i < kChunk; i += blockDim.x) { sk[i] = keys[base + i]; sv[i] = vals[base + i]; }
  __syncthreads();
  for (int k = 2; k <= kChunk; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int i = threadIdx.x; i < kChunk; i += blockDim.x) {
        int ixj = i ^ j;
        if (ixj > i) {
          int gi = base + i;
          bool up = ((gi & k) == 0) == ascending;
          cmp_swap(sk[i], sk[ixj], sv[i], sv[ixj], up);
        }
      }
      __syncthreads();
    }
  }
  for (int i = threadIdx.x; i < kChunk; i += blockDim.x) { keys[base + i] = sk[i]; vals[base + i] = sv[i]; }
}

template <typename K>
__global__ void merge_step(K* keys, int* vals, int j, int k, bool ascending) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int ixj = i ^ j;
  if (ixj > i) {
    bool up = ((i & k) == 0) == ascending;
    cmp_swap(keys[i], keys[ixj], vals[i], vals[ixj], up);
  }
}

// Finishes stage k for all j < kChunk inside shared memory.
template <typename K>
__global__ void merge_shared(K* keys, int* vals, int k, bool ascending) {
  __shared__ K sk[kChunk];
  __shared__ int sv[kChunk];
  int base = blockIdx.x * kChunk;
  for (int i = threadIdx.x; i < kChunk; i += blockDim.x) { sk[i] = keys[base + i]; sv[i] = vals[base + i]; }
  __syncthreads();
  for (int j = kChunk >> 1; j > 0; j >>= 1) {
    for (int i = threadIdx.x; i < kChunk; i += blockDim.x) {
      int ixj = i ^ j;
      if (ixj > i) {
        bool up = (((base + i) & k) == 0) == ascending;
        cmp_swap(sk[i], sk[ixj], sv[i], sv[ixj], up);
      }
    }
    __syncthreads();
  }
  for (int i = threadIdx.x; i < kChunk; i += blockDim.x) { keys[base + i] = sk[i]; vals[base + i] = sv[i]; }
}

template <typename K>
static void bitonic(K* dk, int* dv, int n, bool ascending, bool use_shared_merge) {
  sort_chunks<K><<<n / kChunk, 256>>>(dk, dv, ascending);
  for (int k = 2 * kChunk; k <= n; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      if (use_shared_merge && j < kChunk) {
        merge_shared<K><<<n / kChunk, 256>>>(dk, dv, k, ascending);
        break;
      }
      merge_step<K><<<n / 256, 256>>>(dk, dv, j, k, ascending);
    }
  }
  CHECK(cudaGetLastError());
}

int main() {
  const int n = 1 << 16;
  std::vector<unsigned> keys(n);
  std::vector<float> fkeys(n);
  std::vector<int> vals(n);
  srand(555);
  for (int i = 0; i < n; ++i) {
    keys[i] = ((unsigned)rand() << 8) ^ (unsigned)rand();
    fkeys[i] = (float)(rand() % 100000) / 7.0f - 5000.0f;
    vals[i] = i;
  }
  unsigned* dk;
  float* dfk;
  int* dv;
  CHECK(cudaMalloc(&dk, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dfk, n * sizeof(float)));
  CHECK(cudaMalloc(&dv, n * sizeof(int)));
  CHECK(cudaMemcpy(dk, keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, vals.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  bitonic(dk, dv, n, true, false);
  std::vector<unsigned> ok(n);
  std::vector<int> ov(n);
  CHECK(cudaMemcpy(ok.data(), dk, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ov.data(), dv, n * sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<unsigned> ref = keys;
  std::sort(ref.begin(), ref.end());
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    if (ok[i] != ref[i]) ++bad;
    if (ov[i] < 0 || ov[i] >= n || keys[ov[i]] != ok[i]) ++bad;  // payload follows its key
  }
  CHECK(cudaMemcpy(dfk, fkeys.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, vals.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  bitonic(dfk, dv, n, false, true);
  std::vector<float> of(n);
  CHECK(cudaMemcpy(of.data(), dfk, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(ov.data(), dv, n * sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<float> fref = fkeys;
  std::sort(fref.begin(), fref.end(), [](float a, float b) { return a > b; });
  int badf = 0;
  for (int i = 0; i < n; ++i) {
    if (of[i] != fref[i]) ++badf;
    if (ov[i] < 0 || ov[i] >= n || fkeys[ov[i]] != of[i]) ++badf;
  }
  printf("bitonic_sort: n=%d first=%u last=%u fmax=%.4f fmin=%.4f mismatches=%d/%d %s\n", n, ok[0], ok[n - 1], of[0],
         of[n - 1], bad, badf, (bad || badf) ? "FAIL" : "PASS");
  cudaFree(dk); cudaFree(dfk); cudaFree(dv);
  return (bad || badf) ? 1 : 0;
}

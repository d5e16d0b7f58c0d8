// 1D 9-point stencil with a halo staged in dynamic shared memory (extern __shared__), templated on
// the element type so float and double kernels share one aligned extern buffer reinterpreted per
// type; a second kernel carves two differently typed arrays out of one dynamic allocation, and a
// third uses more than 48 KB of dynamic shared memory after cudaFuncSetAttribute raises the limit.
// The stencil weights live in __constant__ memory. Checked against the CPU.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

constexpr int R = 4;
__constant__ float c_wf[2 * R + 1];
__constant__ double c_wd[2 * R + 1];

template <typename T> __device__ T weight(int k);
template <> __device__ float weight<float>(int k) { return c_wf[k]; }
template <> __device__ double weight<double>(int k) { return c_wd[k]; }

template <typename T>
__global__ void stencil(const T* in, T* out, int n) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* s = reinterpret_cast<T*>(smem_raw);
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + R;
  s[l] = g < n ? in[g] : T(0);
  if (threadIdx.x < R) {
    int left = g - R, right = g + blockDim.x;
    s[threadIdx.x] = left >= 0 ? in[left] : T(0);
    s[l + blockDim.x] = right < n ? in[right] : T(0);
  }
  __syncthreads();
  if (g < n) {
    T acc = 0;
    for (int k = -R; k <= R; ++k) acc += weight<T>(k + R) * s[l + k];
    out[g] = acc;
  }
}

// Two arrays of different types in one dynamic allocation: counts (int) then sums (double).
__global__ void bucket_stats(const int* keys, const double* vals, int n, int nb, int* counts, double* sums) {
  extern __shared__ __align__(8) unsigned char raw[];
  double* ssum = reinterpret_cast<double*>(raw);
  int* scount = reinterpret_cast<int*>(raw + nb * sizeof(double));
  for (int b = threadIdx.x; b < nb; b += blockDim.x) { scount[b] = 0; ssum[b] = 0.0; }
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int b = keys[i] % nb;
    atomicAdd(&scount[b], 1);
    atomicAdd(&ssum[b], vals[i]);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < nb; b += blockDim.x) {
    atomicAdd(&counts[b], scount[b]);
    atomicAdd(&sums[b], ssum[b]);
  }
}

// Reverses each 16384-float (64 KB) chunk through shared memory.
__global__ void big_reverse(const float* in, float* out, int chunk) {
  extern __shared__ float buf[];
  const float* src = in + (size_t)blockIdx.x * chunk;
  for (int i = threadIdx.x; i < chunk; i += blockDim.x) buf[i] = src[i];
  __syncthreads();
  float* dst = out + (size_t)blockIdx.x * chunk;
  for (int i = threadIdx.x; i < chunk; i += blockDim.x) dst[i] = buf[chunk - 1 - i];
}

int main() {
  const int n = 100000, block = 256;
  float wf[2 * R + 1];
  double wd[2 * R + 1];
  for (int k = 0; k <= 2 * R; ++k) { wf[k] = 1.0f / (1 + std::abs(k - R)); wd[k] = 1.0 / (1 + std::abs(k - R)); }
  CHECK(cudaMemcpyToSymbol(c_wf, wf, sizeof wf));
  CHECK(cudaMemcpyToSymbol(c_wd, wd, sizeof wd));
  std::vector<float> hf(n);
  std::vector<double> hd(n);
  std::vector<int> keys(n);
  srand(9);
  for (int i = 0; i < n; ++i) {
    hf[i] = (float)(rand() % 1000) / 100.0f;
    hd[i] = (double)(rand() % 100000) / 1000.0;
    keys[i] = rand();
  }
  float *dfi, *dfo;
  double *ddi, *ddo, *dsums;
  int *dkeys, *dcounts;
  CHECK(cudaMalloc(&dfi, n * sizeof(float)));
  CHECK(cudaMalloc(&dfo, n * sizeof(float)));
  CHECK(cudaMalloc(&ddi, n * sizeof(double)));
  CHECK(cudaMalloc(&ddo, n * sizeof(double)));
  CHECK(cudaMalloc(&dkeys, n * sizeof(int)));
  const int nb = 100;
  CHECK(cudaMalloc(&dcounts, nb * sizeof(int)));
  CHECK(cudaMalloc(&dsums, nb * sizeof(double)));
  CHECK(cudaMemcpy(dfi, hf.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(ddi, hd.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dkeys, keys.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dcounts, 0, nb * sizeof(int)));
  CHECK(cudaMemset(dsums, 0, nb * sizeof(double)));
  int grid = (n + block - 1) / block;
  stencil<float><<<grid, block, (block + 2 * R) * sizeof(float)>>>(dfi, dfo, n);
  stencil<double><<<grid, block, (block + 2 * R) * sizeof(double)>>>(ddi, ddo, n);
  bucket_stats<<<32, block, nb * (sizeof(double) + sizeof(int))>>>(dkeys, ddi, n, nb, dcounts, dsums);
  const int chunk = 16384, chunks = 6;  // 6 * 16384 <= n: stays inside the input
  const int big = chunk * (int)sizeof(float);
  CHECK(cudaFuncSetAttribute(big_reverse, cudaFuncAttributeMaxDynamicSharedMemorySize, big));
  float* drev;
  CHECK(cudaMalloc(&drev, chunk * chunks * sizeof(float)));
  big_reverse<<<chunks, 512, big>>>(dfi, drev, chunk);
  CHECK(cudaGetLastError());
  std::vector<float> of(n), rev(chunk * chunks);
  std::vector<double> od(n), sums(nb);
  std::vector<int> counts(nb);
  CHECK(cudaMemcpy(of.data(), dfo, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(od.data(), ddo, n * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(counts.data(), dcounts, nb * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(sums.data(), dsums, nb * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(rev.data(), drev, rev.size() * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  double cs = 0;
  for (int i = 0; i < n; ++i) {
    double rf = 0, rd = 0;
    for (int k = -R; k <= R; ++k) {
      int j = i + k;
      if (j >= 0 && j < n) { rf += (double)wf[k + R] * hf[j]; rd += wd[k + R] * hd[j]; }
    }
    if (std::fabs(of[i] - rf) > 1e-4 * (1 + std::fabs(rf))) ++bad;
    if (std::fabs(od[i] - rd) > 1e-10 * (1 + std::fabs(rd))) ++bad;
    cs += of[i] + od[i];
  }
  std::vector<int> rc(nb, 0);
  std::vector<double> rs(nb, 0.0);
  for (int i = 0; i < n; ++i) { rc[keys[i] % nb]++; rs[keys[i] % nb] += hd[i]; }
  for (int b = 0; b < nb; ++b) {
    if (counts[b] != rc[b]) ++bad;
    if (std::fabs(sums[b] - rs[b]) > 1e-9 * (1 + rs[b])) ++bad;  // values are multiples of 1/1000: tiny drift only
  }
  for (int c = 0; c < chunks; ++c)
    for (int i = 0; i < chunk; ++i)
      if (rev[c * chunk + i] != hf[c * chunk + chunk - 1 - i]) ++bad;
  printf("stencil_dynsmem: n=%d checksum=%.4f mismatches=%d %s\n", n, cs, bad, bad ? "FAIL" : "PASS");
  cudaFree(dfi); cudaFree(dfo); cudaFree(ddi); cudaFree(ddo); cudaFree(dkeys); cudaFree(dcounts); cudaFree(dsums);
  cudaFree(drev);
  return bad ? 1 : 0;
}

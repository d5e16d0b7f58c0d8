// Tiled matrix multiply C = A*B (float, 384x320 * 320x448) three ways: a static-shared-memory tiled
// kernel with __launch_bounds__(256, 2), a templated tile size using dynamic shared memory
// (extern __shared__, size passed at launch), and a register-blocked kernel computing 4 outputs per
// thread. Inputs are small integers so all products and sums are exact in float.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

constexpr int T = 16;

__global__ void __launch_bounds__(256, 2) matmul_static(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[T][T];
  __shared__ float Bs[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float acc = 0.f;
  for (int t = 0; t < K; t += T) {
    As[threadIdx.y][threadIdx.x] = (row < M && t + threadIdx.x < K) ? A[row * K + t + threadIdx.x] : 0.f;
    Bs[threadIdx.y][threadIdx.x] = (col < N && t + threadIdx.y < K) ? B[(t + threadIdx.y) * N + col] : 0.f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < T; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

template <int TS>
__global__ void __launch_bounds__(TS * TS) matmul_dynamic(const float* A, const float* B, float* C, int M, int N, int K) {
  extern __shared__ float smem[];
  float* As = smem;
  float* Bs = smem + TS * TS;
  int ty = threadIdx.y, tx = threadIdx.x;
  int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
  float acc = 0.f;
  for (int t = 0; t < K; t += TS) {
    As[ty * TS + tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.f;
    Bs[ty * TS + tx] = (col < N && t + ty < K) ? B[(t + ty) * N + col] : 0.f;
    __syncthreads();
    for (int k = 0; k < TS; ++k) acc = fmaf(As[ty * TS + k], Bs[k * TS + tx], acc);
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}

// Each thread computes a 1x4 strip of C; B tile is 16x64.
__global__ void __launch_bounds__(256) matmul_regblock(const float* __restrict__ A, const float* __restrict__ B,
                                                      float* __restrict__ C, int M, int N, int K) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][64];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty;
  int col0 = blockIdx.x * 64 + tx;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int t = 0; t < K; t += 16) {
    As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.f;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      int c = col0 + 16 * j;
      Bs[ty][tx + 16 * j] = (c < N && t + ty < K) ? B[(t + ty) * N + c] : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 16; ++k) {
      float a = As[ty][k];
#pragma unroll
      for (int j = 0; j < 4; ++j) acc[j] += a * Bs[k][tx + 16 * j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    int c = col0 + 16 * j;
    if (row < M && c < N) C[row * N + c] = acc[j];
  }
}

int main() {
  const int M = 384, K = 320, N = 448;
  std::vector<float> A(M * K), B(K * N), C(M * N), ref(M * N);
  srand(4242);
  for (auto& v : A) v = (float)(rand() % 9 - 4);
  for (auto& v : B) v = (float)(rand() % 7 - 3);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0.f;
      for (int k = 0; k < K; ++k) s += A[i * K + k] * B[k * N + j];
      ref[i * N + j] = s;
    }
  float *dA, *dB, *dC;
  CHECK(cudaMalloc(&dA, A.size() * sizeof(float)));
  CHECK(cudaMalloc(&dB, B.size() * sizeof(float)));
  CHECK(cudaMalloc(&dC, C.size() * sizeof(float)));
  CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
  int bad[3] = {0, 0, 0};
  double cs = 0;
  for (int variant = 0; variant < 3; ++variant) {
    CHECK(cudaMemset(dC, 0, C.size() * sizeof(float)));
    if (variant == 0) {
      matmul_static<<<dim3((N + T - 1) / T, (M + T - 1) / T), dim3(T, T)>>>(dA, dB, dC, M, N, K);
    } else if (variant == 1) {
      constexpr int TS = 32;
      size_t smem = 2 * TS * TS * sizeof(float);
      matmul_dynamic<TS><<<dim3((N + TS - 1) / TS, (M + TS - 1) / TS), dim3(TS, TS), smem>>>(dA, dB, dC, M, N, K);
    } else {
      matmul_regblock<<<dim3((N + 63) / 64, (M + 15) / 16), dim3(16, 16)>>>(dA, dB, dC, M, N, K);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < M * N; ++i) {
      if (C[i] != ref[i]) ++bad[variant];
      if (variant == 0) cs += C[i] * ((i % 13) - 6);
    }
  }
  int tot = bad[0] + bad[1] + bad[2];
  printf("matmul: %dx%dx%d checksum=%.1f mismatches=%d/%d/%d %s\n", M, K, N, cs, bad[0], bad[1], bad[2],
         tot ? "FAIL" : "PASS");
  cudaFree(dA); cudaFree(dB); cudaFree(dC);
  return tot ? 1 : 0;
}

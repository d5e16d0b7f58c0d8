// Matrix transpose of a non-square 1000x1500 float matrix: naive, shared-memory tiled without and
// with bank-conflict padding (32x33 tile), and a double-precision variant using 2D blocks of 32x8
// threads that each move several elements. Exact check against the CPU.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

constexpr int TILE = 32;
constexpr int ROWS = 8;

__global__ void transpose_naive(float* out, const float* in, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

template <int PAD, typename T>
__global__ void transpose_tiled(T* out, const T* in, int rows, int cols) {
  __shared__ T tile[TILE][TILE + PAD];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < rows && y + j < cols) out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

template <typename T>
static int check(const std::vector<T>& out, const std::vector<T>& in, int rows, int cols) {
  int bad = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      if (out[(size_t)c * rows + r] != in[(size_t)r * cols + c]) ++bad;
  return bad;
}

int main() {
  const int rows = 1000, cols = 1500, n = rows * cols;
  std::vector<float> h(n), o(n);
  std::vector<double> hd(n), od(n);
  srand(31337);
  for (int i = 0; i < n; ++i) {
    h[i] = (float)rand() / RAND_MAX;
    hd[i] = (double)rand() / RAND_MAX + 1.0;
  }
  float *din, *dout;
  double *ddin, *ddout;
  CHECK(cudaMalloc(&din, n * sizeof(float)));
  CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CHECK(cudaMalloc(&ddin, n * sizeof(double)));
  CHECK(cudaMalloc(&ddout, n * sizeof(double)));
  CHECK(cudaMemcpy(din, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(ddin, hd.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  int bad[4];
  dim3 nb(16, 16), ng((cols + 15) / 16, (rows + 15) / 16);
  transpose_naive<<<ng, nb>>>(dout, din, rows, cols);
  CHECK(cudaMemcpy(o.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  bad[0] = check(o, h, rows, cols);
  dim3 tb(TILE, ROWS), tg((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
  CHECK(cudaMemset(dout, 0, n * sizeof(float)));
  transpose_tiled<0><<<tg, tb>>>(dout, din, rows, cols);
  CHECK(cudaMemcpy(o.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  bad[1] = check(o, h, rows, cols);
  CHECK(cudaMemset(dout, 0, n * sizeof(float)));
  transpose_tiled<1><<<tg, tb>>>(dout, din, rows, cols);
  CHECK(cudaMemcpy(o.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  bad[2] = check(o, h, rows, cols);
  transpose_tiled<1><<<tg, tb>>>(ddout, ddin, rows, cols);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(od.data(), ddout, n * sizeof(double), cudaMemcpyDeviceToHost));
  bad[3] = check(od, hd, rows, cols);
  double cs = 0;
  for (int i = 0; i < n; i += 997) cs += o[i] * (i % 7) + od[i];
  int tot = bad[0] + bad[1] + bad[2] + bad[3];
  printf("transpose: %dx%d checksum=%.6f mismatches=%d/%d/%d/%d %s\n", rows, cols, cs, bad[0], bad[1], bad[2], bad[3],
         tot ? "FAIL" : "PASS");
  cudaFree(din); cudaFree(dout); cudaFree(ddin); cudaFree(ddout);
  return tot ? 1 : 0;
}

// nvcc-flags: --use_fast_math
// All-pairs n-body step (2048 bodies, shared-memory tiles of 256) written with the fast-math
// intrinsics rsqrtf, __fdividef, __expf, __sinf/__cosf, __powf and __saturatef; the corpus compiles it
// with --use_fast_math as well (ftz/approx PTX forms). Checked against a double-precision CPU
// reference with a relative tolerance suited to approximate math.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

constexpr int kTile = 256;
constexpr float kSoft = 0.01f;

__global__ void accelerations(const float4* __restrict__ pos, float3* __restrict__ acc, int n) {
  __shared__ float4 tile[kTile];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 pi = pos[i];
  float ax = 0.f, ay = 0.f, az = 0.f;
  for (int t = 0; t < n; t += kTile) {
    tile[threadIdx.x] = pos[t + threadIdx.x];
    __syncthreads();
#pragma unroll 8
    for (int j = 0; j < kTile; ++j) {
      float4 pj = tile[j];
      float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
      float r2 = dx * dx + dy * dy + dz * dz + kSoft;
      float inv = rsqrtf(r2);
      float s = pj.w * inv * inv * inv;
      ax += dx * s; ay += dy * s; az += dz * s;
    }
    __syncthreads();
  }
  acc[i] = make_float3(ax, ay, az);
}

// Per-body "energy-like" scalar using the remaining fast intrinsics.
__global__ void scalars(const float4* __restrict__ pos, const float3* __restrict__ acc, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 p = pos[i];
  float3 a = acc[i];
  float amag = sqrtf(a.x * a.x + a.y * a.y + a.z * a.z);
  float damp = __expf(-0.1f * p.w);
  float ang = __sinf(p.x) * __cosf(p.y);
  float ratio = __fdividef(amag, 1.0f + p.w);
  float pw = __powf(1.0f + fabsf(p.z), 0.5f);
  out[i] = ratio * damp + ang + pw + __saturatef(p.x);
}

int main() {
  const int n = 2048;
  std::vector<float4> pos(n);
  srand(1);
  for (int i = 0; i < n; ++i)
    pos[i] = make_float4((float)rand() / RAND_MAX * 2 - 1, (float)rand() / RAND_MAX * 2 - 1,
                         (float)rand() / RAND_MAX * 2 - 1, 0.5f + (float)rand() / RAND_MAX);
  float4* dpos;
  float3* dacc;
  float* dout;
  CHECK(cudaMalloc(&dpos, n * sizeof(float4)));
  CHECK(cudaMalloc(&dacc, n * sizeof(float3)));
  CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CHECK(cudaMemcpy(dpos, pos.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  accelerations<<<n / kTile, kTile>>>(dpos, dacc, n);
  scalars<<<(n + 127) / 128, 128>>>(dpos, dacc, dout, n);
  CHECK(cudaGetLastError());
  std::vector<float3> acc(n);
  std::vector<float> out(n);
  CHECK(cudaMemcpy(acc.data(), dacc, n * sizeof(float3), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  double cs = 0, maxrel = 0;
  for (int i = 0; i < n; ++i) {
    double ax = 0, ay = 0, az = 0;
    for (int j = 0; j < n; ++j) {
      double dx = pos[j].x - pos[i].x, dy = pos[j].y - pos[i].y, dz = pos[j].z - pos[i].z;
      double r2 = dx * dx + dy * dy + dz * dz + kSoft;
      double s = pos[j].w / (r2 * std::sqrt(r2));
      ax += dx * s; ay += dy * s; az += dz * s;
    }
    double mag = std::sqrt(ax * ax + ay * ay + az * az);
    double dmag = std::sqrt((double)acc[i].x * acc[i].x + (double)acc[i].y * acc[i].y + (double)acc[i].z * acc[i].z);
    double err = std::fabs(dmag - mag) / (mag + 1.0);
    if (err > maxrel) maxrel = err;
    if (err > 1e-3) ++bad;
    double p_w = pos[i].w;
    double sat = pos[i].x < 0 ? 0.0 : (pos[i].x > 1 ? 1.0 : pos[i].x);
    double s = mag / (1.0 + p_w) * std::exp(-0.1 * p_w) + std::sin(pos[i].x) * std::cos(pos[i].y) +
               std::pow(1.0 + std::fabs(pos[i].z), 0.5) + sat;
    if (std::fabs(out[i] - s) > 2e-3 * (std::fabs(s) + 1.0)) ++bad;
    cs += out[i];
  }
  // Approximate intrinsics differ between devices in the last bits: print only the verdict.
  printf("nbody: n=%d mismatches=%d %s\n", n, bad, bad ? "FAIL" : "PASS");
  fprintf(stderr, "nbody: scalar_sum=%.4f max_rel_err=%.2e\n", cs, maxrel);
  cudaFree(dpos); cudaFree(dacc); cudaFree(dout);
  return bad ? 1 : 0;
}

/*===- kernels.cu - the bench/codegen kernel suite (CUDA and HIP alike) ----===*
 *
 * Everyday kernels written once; compat.h makes the file compile both as CUDA
 * (nvcc -> PTX -> ptx2amd) and as native HIP (clang -x hip). Every kernel is
 * extern "C" so both code objects name it the same. The suite covers the
 * shapes where translated code historically differed from native: warp
 * shuffles, LDS tiles, atomics, transcendental math, fp16, launch geometry.
 *===----------------------------------------------------------------------===*/
#include "compat.h"

#define TILE 16
#define BLOCK 256

CG_KERNEL void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

/* One sum per 32-lane warp with xor shuffles. */
CG_KERNEL void warp_reduce(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int off = 16; off > 0; off >>= 1) v += CG_SHFL_XOR(v, off);
  if ((threadIdx.x & 31) == 0) out[i >> 5] = v;
}

/* Shared-memory tree reduction, one partial sum per block. */
CG_KERNEL void block_reduce(const float *in, float *out, int n) {
  __shared__ float s[BLOCK];
  int t = threadIdx.x, i = blockIdx.x * BLOCK + t;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int st = BLOCK / 2; st > 0; st >>= 1) {
    if (t < st) s[t] += s[t + st];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

/* C = A * B, square n x n (n a multiple of TILE), TILE x TILE blocks. */
CG_KERNEL void gemm_tiled(const float *A, const float *B, float *C, int n) {
  __shared__ float as[TILE][TILE], bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    as[ty][tx] = A[row * n + k0 + tx];
    bs[ty][tx] = B[(k0 + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

/* 32 x 32 tile transpose through a padded LDS tile, 32 x 8 threads. */
CG_KERNEL void transpose_padded(const float *in, float *out, int w, int h) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

/* 256-bin byte histogram: LDS atomics, then one global atomic per bin. */
CG_KERNEL void histogram_shared(const unsigned char *data, unsigned *bins, int n) {
  __shared__ unsigned h[256];
  h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&h[data[i]], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

/* Inclusive Hillis-Steele scan of one 256-element block. */
CG_KERNEL void block_scan(const int *in, int *out) {
  __shared__ int s[2][BLOCK];
  int t = threadIdx.x, base = blockIdx.x * BLOCK;
  int cur = 0;
  s[0][t] = in[base + t];
  __syncthreads();
  for (int off = 1; off < BLOCK; off <<= 1) {
    int v = s[cur][t];
    if (t >= off) v += s[cur][t - off];
    s[cur ^ 1][t] = v;
    cur ^= 1;
    __syncthreads();
  }
  out[base + t] = s[cur][t];
}

/* All-pairs gravitational acceleration, shared tiles of bodies. The inner loop's
 * unroll factor is pinned to nvcc's own choice (8; its PTX is the same with and
 * without the pragma but for a `.pragma "nounroll"` on the remainder): clang picks 4
 * for gfx1100 and 8 for gfx90a by itself, and the comparison is of the code for the
 * same loop, not of the two front ends' unroll heuristics (unpinned: 162/98 on gfx1100,
 * 13.75 vs 13.25 instructions per body and 46 vs 45 around the loop). */
CG_KERNEL void nbody(const float4 *pos, float4 *acc, int n, float eps2) {
  __shared__ float4 sh[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 p = pos[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int t0 = 0; t0 < n; t0 += BLOCK) {
    sh[threadIdx.x] = pos[t0 + threadIdx.x];
    __syncthreads();
#pragma unroll 8
    for (int j = 0; j < BLOCK; ++j) {
      float4 q = sh[j];
      float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      float r2 = dx * dx + dy * dy + dz * dz + eps2;
      float inv = rsqrtf(r2);
      float s = q.w * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }
  acc[i] = make_float4(ax, ay, az, 0.0f);
}

/* Block-wide max and sum through warp shuffles and a 32-entry LDS array. */
__device__ float block_max(float v, float *red) {
  for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, CG_SHFL_XOR(v, off));
  int w = threadIdx.x >> 5, l = threadIdx.x & 31;
  if (l == 0) red[w] = v;
  __syncthreads();
  v = l < (int)(blockDim.x >> 5) ? red[l] : -INFINITY;
  for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, CG_SHFL_XOR(v, off));
  __syncthreads();
  return v;
}
__device__ float block_sum(float v, float *red) {
  for (int off = 16; off > 0; off >>= 1) v += CG_SHFL_XOR(v, off);
  int w = threadIdx.x >> 5, l = threadIdx.x & 31;
  if (l == 0) red[w] = v;
  __syncthreads();
  v = l < (int)(blockDim.x >> 5) ? red[l] : 0.0f;
  for (int off = 16; off > 0; off >>= 1) v += CG_SHFL_XOR(v, off);
  __syncthreads();
  return v;
}

/* Numerically stable softmax of one row per block (expf). */
CG_KERNEL void softmax_row(const float *in, float *out, int cols) {
  __shared__ float red[32];
  const float *r = in + (size_t)blockIdx.x * cols;
  float *o = out + (size_t)blockIdx.x * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, r[c]);
  m = block_max(m, red);
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += expf(r[c] - m);
  s = block_sum(s, red);
  float inv = 1.0f / s;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) o[c] = expf(r[c] - m) * inv;
}

/* Layer normalisation of one row per block with gain and bias. */
CG_KERNEL void layernorm(const float *in, const float *gamma, const float *beta, float *out,
                         int cols, float eps) {
  __shared__ float red[32];
  const float *r = in + (size_t)blockIdx.x * cols;
  float *o = out + (size_t)blockIdx.x * cols;
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += r[c];
  float mean = block_sum(s, red) / cols;
  float v = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    float d = r[c] - mean;
    v += d * d;
  }
  float rstd = rsqrtf(block_sum(v, red) / cols + eps);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) o[c] = (r[c] - mean) * rstd * gamma[c] + beta[c];
}

/* 5-point Jacobi stencil on a w x h grid (interior points). */
CG_KERNEL void stencil5(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) return;
  int i = y * w + x;
  out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
}

/* One compare-exchange pass (j, k) of a global bitonic sort. */
CG_KERNEL void bitonic_pass(unsigned *keys, int j, int k) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned p = i ^ j;
  if (p > i) {
    unsigned a = keys[i], b = keys[p];
    bool up = (i & k) == 0;
    if ((a > b) == up) {
      keys[i] = b;
      keys[p] = a;
    }
  }
}

/* Radix-sort counting pass: 4-bit digit histogram in LDS. */
CG_KERNEL void radix_count(const unsigned *keys, unsigned *counts, int n, int shift) {
  __shared__ unsigned c[16];
  if (threadIdx.x < 16) c[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&c[(keys[i] >> shift) & 15u], 1u);
  __syncthreads();
  if (threadIdx.x < 16) counts[blockIdx.x * 16 + threadIdx.x] = c[threadIdx.x];
}

/* Global atomics: integer max/min and float add. */
CG_KERNEL void atomics_minmax(const int *v, const float *f, int *mx, int *mn, float *sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicMax(mx, v[i]);
    atomicMin(mn, v[i]);
    atomicAdd(sum, f[i]);
  }
}

/* Transcendental-heavy elementwise kernel (expf, logf, __expf). */
CG_KERNEL void exp_log(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float a = x[i];
    float b = expf(a) + logf(a + 2.0f);
    float c = logf(1.0f + expf(-fabsf(b)));
    y[i] = c + CG_EXPF(0.5f * a);
  }
}

/* Half-precision axpy on packed pairs. */
CG_KERNEL void hfma_axpy(int n, __half a, const __half2 *x, __half2 *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __hfma2(__halves2half2(a, a), x[i], y[i]);
}

/* Grid-stride loop (gridDim.x * blockDim.x) with a polynomial per element. */
CG_KERNEL void grid_stride(const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    float v = x[i];
    y[i] = ((0.25f * v + 0.5f) * v + 1.0f) * v;
  }
}

/* 2D launch reading every geometry register (ntid/nctaid in y and z too). */
CG_KERNEL void geometry3d(int *out) {
  int bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  out[bx * blockDim.x * blockDim.y * blockDim.z + t] = gridDim.x * gridDim.y * gridDim.z;
}

// CUDA kernels for amdgpu-emu end-to-end tests: nvcc -> PTX -> ptx2amd
// (ptxjit::lowerPTX) -> emu, on gfx1100 (wave32) and gfx90a (wave64, pack
// and pad warp policies). Results are checked against host references.
#include <cstdio>
#include <cooperative_groups.h>
extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

extern "C" __global__ void block_reduce(const int *in, int *out, int n) {
  __shared__ int tmp[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tmp[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) tmp[t] += tmp[t + s];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, tmp[0]);
}

// warp-level: shuffle reduction, ballot, lane id
extern "C" __global__ void warp_ops(const int *in, int *sums, unsigned *ballots, int *lanes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned b = __ballot_sync(0xffffffffu, in[i] & 1);
  int lane = threadIdx.x & 31;
  int warp = i / 32;
  if (lane == 0) { sums[warp] = v; ballots[warp] = b; }
  lanes[i] = __shfl_sync(0xffffffffu, i, 31 - lane);
}

extern "C" __global__ void transpose2d(const float *in, float *out, int w, int h) {
  __shared__ float tile[16][17];
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  int tx = blockIdx.y * 16 + threadIdx.x, ty = blockIdx.x * 16 + threadIdx.y;
  if (tx < h && ty < w) out[ty * h + tx] = tile[threadIdx.x][threadIdx.y];
}

extern "C" __global__ void divergent(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int acc = 0;
  for (int k = 0; k < (i % 13); ++k) {
    if (k & 1) acc += k * i;
    else acc -= k;
  }
  out[i] = acc;
}

extern "C" __global__ void oob(int *out, long long off) {
  out[threadIdx.x + off] = 1;
}

extern "C" __global__ void hello(int v) {
  if (threadIdx.x < 2) printf("t%d v=%d f=%.1f %s\n", (int)threadIdx.x, v, 0.5 * v, "ok");
}

// grid-wide barrier: every block must be resident (cooperative launch)
extern "C" __global__ void grid_sync(int *data, int *out, int n) {
  auto g = cooperative_groups::this_grid();
  int i = (int)g.thread_rank();
  if (i < n) data[i] = i * 3;
  g.sync();
  if (i < n) out[i] = data[(i + 1) % n] + data[(i + n - 1) % n];
}

// device malloc/free through the launcher-provided heap
extern "C" __global__ void use_malloc(int *out) {
  int *p = (int *)malloc(4 * sizeof(int));
  if (!p) { out[threadIdx.x] = -1; return; }
  for (int k = 0; k < 4; ++k) p[k] = (int)threadIdx.x * 10 + k;
  int s = 0;
  for (int k = 0; k < 4; ++k) s += p[k];
  out[threadIdx.x] = s;
  free(p);
}

// Chained (decoupled look-back style) scan: block g spins on block g-1's flag
// with __nanosleep; needs forward progress between workgroups.
extern "C" __global__ void chained_scan(const int *in, int *out, volatile int *flags, int *agg, int n) {
  __shared__ int total, excl;
  int g = blockIdx.x, t = threadIdx.x, i = g * blockDim.x + t;
  if (t == 0) total = 0;
  __syncthreads();
  atomicAdd(&total, i < n ? in[i] : 0);
  __syncthreads();
  if (t == 0) {
    int e = 0;
    if (g > 0) {
      while (atomicAdd((int *)&flags[g - 1], 0) == 0) __nanosleep(100);
      __threadfence();
      e = agg[g - 1];
    }
    agg[g] = e + total;
    __threadfence();
    atomicExch((int *)&flags[g], 1);
    excl = e;
  }
  __syncthreads();
  if (i < n) out[i] = excl;
}

// Cooperative-groups multi-warp tiles (thread_block_tile<64/128/256>): on sm_80+ their barrier and
// exchange scratch lives in the reserved shared memory that %reserved_smem_offset_1 points to.
// Per tile: shfl from another rank, any/all, cg::reduce (sum, max), sync; checked against a CPU
// model and printed as checksums.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
namespace cg = cooperative_groups;

template <unsigned S>
__global__ void tiles(const int *in, int *out) {
  __shared__ cg::block_tile_memory<1024> scratch;
  cg::thread_block b = cg::this_thread_block(scratch);
  cg::thread_block_tile<S> t = cg::tiled_partition<S>(b);
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[g];
  int sh = t.shfl(v, 7u); // a multi-warp tile shfl needs one source rank for the whole tile
  t.sync();
  int any = t.any(v % 97 == 0), all = t.all(v > -1000000);
  int sum = cg::reduce(t, v, cg::plus<int>());
  int mx = cg::reduce(t, v, cg::greater<int>());
  int *o = out + 6 * g;
  o[0] = sh; o[1] = any; o[2] = all; o[3] = sum; o[4] = mx; o[5] = (int)(t.meta_group_rank() * 1000 + t.thread_rank());
}

template <unsigned S>
static bool check(int blocks, int threads, const std::vector<int> &in) {
  int n = blocks * threads;
  int *din, *dout;
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dout, 6 * n * sizeof(int));
  cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  tiles<S><<<blocks, threads>>>(din, dout);
  std::vector<int> o(6 * n);
  cudaError_t e = cudaMemcpy(o.data(), dout, 6 * n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(din); cudaFree(dout);
  if (e != cudaSuccess) { printf("tile%u block%d: %s\n", S, threads, cudaGetErrorString(e)); return false; }
  int bad = 0;
  uint32_t h = 2166136261u;
  for (int g = 0; g < n; ++g) {
    int base = g - g % S, r = g % S;
    int sum = 0, mx = in[base], any = 0, all = 1;
    for (unsigned k = 0; k < S; ++k) {
      int x = in[base + k];
      sum += x; mx = x > mx ? x : mx; any |= x % 97 == 0; all &= x > -1000000;
    }
    int want[6] = {in[base + 7], any, all, sum, mx, (int)(((g % threads) / S) * 1000 + r)};
    for (int k = 0; k < 6; ++k) {
      if ((o[6 * g + k] != 0) != (want[k] != 0) || (k != 1 && k != 2 && o[6 * g + k] != want[k])) {
        if (bad < 4) printf("  tile%u block%d g=%d field %d = %d want %d\n", S, threads, g, k, o[6 * g + k], want[k]);
        ++bad;
      }
      h = (h ^ (uint32_t)o[6 * g + k]) * 16777619u;
    }
  }
  printf("tile%-3u block%-4d n=%d bad=%d fnv=%08x\n", S, threads, n, bad, h);
  fflush(stdout);
  return bad == 0;
}

int main(int argc, char **argv) {
  // optional argument: the cases (digits 0-5) to run, e.g. "01235" (all but the 1024-thread block)
  const char *only = argc > 1 ? argv[1] : "012345";
  auto on = [&](char c) { for (const char *p = only; *p; ++p) if (*p == c) return true; return false; };
  std::vector<int> in(4096);
  uint32_t s = 12345;
  for (auto &x : in) { s = s * 1103515245u + 12345u; x = (int)(s >> 8) % 20001 - 10000; }
  bool ok = true;
  if (on('0')) ok &= check<64>(2, 128, in);
  if (on('1')) ok &= check<64>(1, 256, in);
  if (on('2')) ok &= check<128>(2, 256, in);
  if (on('3')) ok &= check<128>(1, 512, in);
  if (on('4')) ok &= check<256>(1, 1024, in);
  if (on('5')) ok &= check<256>(3, 256, in);
  printf("cg_multiwarp %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

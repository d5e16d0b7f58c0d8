// Cooperative groups: a grid-synchronised kernel (grid.sync() under cudaLaunchCooperativeKernel) that
// reduces, broadcasts and normalises in one launch; thread_block_tile<32>/<16>/<4> collectives
// (cg::reduce with plus/greater/bit_xor, cg::inclusive_scan/exclusive_scan, shfl_down, ballot, any/all,
// match_any); dynamic tiled_partition, coalesced_threads() in divergent code, labeled_partition.
// Results do not depend on the grid size chosen from the occupancy API.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); exit(2); } } while (0)

constexpr int kBlock = 256;

// out[i] = in[i] * n - sum(in), computed with two grid-wide barriers.
__global__ void grid_normalise(const int* in, long long* out, long long* partial, long long* total, int n) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ long long wsum[kBlock / 32];
  long long v = 0;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) v += in[i];
  v = cg::reduce(warp, v, cg::plus<long long>());
  if (warp.thread_rank() == 0) wsum[warp.meta_group_rank()] = v;
  block.sync();
  if (block.thread_rank() == 0) {
    long long s = 0;
    for (unsigned w = 0; w < warp.meta_group_size(); ++w) s += wsum[w];
    partial[grid.block_rank()] = s;
  }
  grid.sync();
  if (grid.thread_rank() == 0) {
    long long s = 0;
    for (unsigned b = 0; b < grid.num_blocks(); ++b) s += partial[b];
    *total = s;
  }
  grid.sync();
  long long t = *total;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
    out[i] = (long long)in[i] * n - t;
}

struct TileOut {
  int sum32, max16, xor4, incl32, excl16, shfl, ballot_pop, any_all, match, coalesced, dyn8, labeled;
};

__global__ void tiles(const int* in, TileOut* out, int n) {
  cg::thread_block block = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  auto t32 = cg::tiled_partition<32>(block);
  auto t16 = cg::tiled_partition<16>(block);
  auto t4 = cg::tiled_partition<4>(t32);
  TileOut o;
  o.sum32 = cg::reduce(t32, v, cg::plus<int>());
  o.max16 = cg::reduce(t16, v, cg::greater<int>());
  o.xor4 = cg::reduce(t4, v, cg::bit_xor<int>());
  o.incl32 = cg::inclusive_scan(t32, v);
  o.excl16 = cg::exclusive_scan(t16, v, cg::plus<int>());
  o.shfl = t32.shfl_down(v, 3);
  o.ballot_pop = __popc(t32.ballot(v & 1));
  o.any_all = (t16.any(v > 900) ? 1 : 0) | (t16.all(v >= 0) ? 2 : 0);
  o.match = __popc(t32.match_any(v & 3));
  o.coalesced = -1;
  if (v & 1) {
    cg::coalesced_group odd = cg::coalesced_threads();
    o.coalesced = (int)(odd.thread_rank() * 100 + odd.size());
  }
  cg::thread_group dyn = cg::tiled_partition(block, 8);
  o.dyn8 = (int)(dyn.thread_rank() + 10 * dyn.size());
  cg::coalesced_group lab = cg::labeled_partition(cg::coalesced_threads(), v % 3);
  o.labeled = (int)lab.size();
  if (i < n) out[i] = o;
}

int main() {
  const int n = 200000;
  std::vector<int> h(n);
  srand(11);
  for (int i = 0; i < n; ++i) h[i] = rand() % 1000;
  int dev = 0, coop = 0, sms = 0, per_sm = 0;
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_normalise, kBlock, 0));
  if (!coop || per_sm < 1) { printf("coop_groups: cooperative launch unsupported FAIL\n"); return 1; }
  int grid = sms * per_sm < 64 ? sms * per_sm : 64;
  int* din;
  long long *dout, *dpart, *dtot;
  TileOut* dt;
  CHECK(cudaMalloc(&din, n * sizeof(int)));
  CHECK(cudaMalloc(&dout, n * sizeof(long long)));
  CHECK(cudaMalloc(&dpart, grid * sizeof(long long)));
  CHECK(cudaMalloc(&dtot, sizeof(long long)));
  CHECK(cudaMalloc(&dt, n * sizeof(TileOut)));
  CHECK(cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  int nn = n;
  void* args[] = {&din, &dout, &dpart, &dtot, &nn};
  CHECK(cudaLaunchCooperativeKernel((void*)grid_normalise, dim3(grid), dim3(kBlock), args, 0, 0));
  tiles<<<(n + kBlock - 1) / kBlock, kBlock>>>(din, dt, n);
  CHECK(cudaGetLastError());
  std::vector<long long> out(n);
  std::vector<TileOut> t(n);
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(long long), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(t.data(), dt, n * sizeof(TileOut), cudaMemcpyDeviceToHost));
  long long total = 0;
  for (int v : h) total += v;
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (out[i] != (long long)h[i] * n - total) ++bad;
  int badt = 0;
  auto val = [&](int j) { return j < n ? h[j] : 0; };
  for (int i = 0; i < n; ++i) {
    int b32 = i & ~31, b16 = i & ~15, b4 = i & ~3, b8 = i & ~7;
    TileOut r;
    r.sum32 = 0; r.incl32 = 0; r.ballot_pop = 0;
    int odd_rank = 0, odd_size = 0, lab = 0, match = 0;
    for (int j = b32; j < b32 + 32; ++j) {
      int v = val(j);
      r.sum32 += v;
      if (j <= i) r.incl32 += v;
      r.ballot_pop += v & 1;
      if ((v & 3) == (val(i) & 3)) ++match;
      if (v & 1) { if (j < i) ++odd_rank; ++odd_size; }
      if (v % 3 == val(i) % 3) ++lab;
    }
    r.max16 = 0; r.excl16 = 0;
    bool any = false, all = true;
    for (int j = b16; j < b16 + 16; ++j) {
      int v = val(j);
      r.max16 = v > r.max16 ? v : r.max16;
      if (j < i) r.excl16 += v;
      any |= v > 900;
      all &= v >= 0;
    }
    r.xor4 = 0;
    for (int j = b4; j < b4 + 4; ++j) r.xor4 ^= val(j);
    int src = (i & 31) + 3 < 32 ? i + 3 : i;  // shfl_down keeps its own value past the tile end
    r.shfl = val(src);
    r.any_all = (any ? 1 : 0) | (all ? 2 : 0);
    r.match = match;
    r.coalesced = (val(i) & 1) ? odd_rank * 100 + odd_size : -1;
    r.dyn8 = (i - b8) + 10 * 8;
    r.labeled = lab;
    const TileOut& g = t[i];
    if (g.sum32 != r.sum32 || g.max16 != r.max16 || g.xor4 != r.xor4 || g.incl32 != r.incl32 || g.excl16 != r.excl16 ||
        g.shfl != r.shfl || g.ballot_pop != r.ballot_pop || g.any_all != r.any_all || g.match != r.match ||
        g.coalesced != r.coalesced || g.dyn8 != r.dyn8 || g.labeled != r.labeled) {
      if (badt < 5) printf("tile mismatch at %d\n", i);
      ++badt;
    }
  }
  printf("coop_groups: n=%d total=%lld grid_mismatches=%d tile_mismatches=%d %s\n", n, total, bad, badt,
         (bad || badt) ? "FAIL" : "PASS");
  cudaFree(din); cudaFree(dout); cudaFree(dpart); cudaFree(dtot); cudaFree(dt);
  return (bad || badt) ? 1 : 0;
}

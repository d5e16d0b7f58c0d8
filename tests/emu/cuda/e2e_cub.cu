// CUB block-level collectives for amdgpu-emu end-to-end tests: warp
// shuffles, shared-memory staging and barriers as CUB generates them.
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

extern "C" __global__ void cub_block_sum_scan(const int *in, int *sums, int *scan) {
  using Reduce = cub::BlockReduce<int, 128>;
  using Scan = cub::BlockScan<int, 128>;
  __shared__ typename Reduce::TempStorage rtmp;
  __shared__ typename Scan::TempStorage stmp;
  int i = blockIdx.x * 128 + threadIdx.x;
  int v = in[i];
  int s = Reduce(rtmp).Sum(v);
  if (threadIdx.x == 0) sums[blockIdx.x] = s;
  int x;
  Scan(stmp).ExclusiveSum(v, x);
  scan[i] = x;
}

// smem_reserved_init: what a kernel reads in the reserved shared memory (%reserved_smem_offset_begin
// .. %reserved_smem_offset_cap) and in its own static shared memory before writing it: at the first
// launch of a fresh context, after a launch that filled both with a pattern, with several blocks
// per SM, and after a cooperative-groups multi-warp tile kernel (which uses the reserved region).
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdint>
namespace cg = cooperative_groups;

constexpr int kWords = 1024 / 4 + 64; // reserved cap (1024 on sm_90) + 64 static words

__device__ __forceinline__ uint32_t sreg_begin() { uint32_t v; asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(v)); return v; }
__device__ __forceinline__ uint32_t sreg_cap() { uint32_t v; asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(v)); return v; }
__device__ __forceinline__ uint32_t lds(uint32_t a) { uint32_t v; asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(a)); return v; }
__device__ __forceinline__ void sts(uint32_t a, uint32_t v) { asm volatile("st.volatile.shared.u32 [%0], %1;" :: "r"(a), "r"(v)); }

// Reads the reserved words and the static array before any write; optionally fills both.
__global__ void probe(uint32_t *o, uint32_t pattern) {
  __shared__ uint32_t st[64];
  uint32_t b = sreg_begin(), cap = sreg_cap();
  uint32_t sa = (uint32_t)__cvta_generic_to_shared(st);
  uint32_t *ob = o + blockIdx.x * (kWords + 4);
  if (threadIdx.x == 0) { ob[0] = b; ob[1] = cap; ob[2] = sa; }
  for (uint32_t w = threadIdx.x; w < cap / 4 && w < 256; w += blockDim.x) ob[4 + w] = lds(b + 4 * w);
  for (uint32_t w = threadIdx.x; w < 64; w += blockDim.x) ob[4 + 256 + w] = lds(sa + 4 * w);
  __syncthreads();
  if (pattern) {
    for (uint32_t w = threadIdx.x; w < cap / 4 && w < 256; w += blockDim.x) sts(b + 4 * w, pattern ^ w);
    for (uint32_t w = threadIdx.x; w < 64; w += blockDim.x) sts(sa + 4 * w, pattern ^ (w + 256));
    __syncthreads();
    if (threadIdx.x == 0) st[0] += 0; // keep st live
  }
}

template <unsigned S>
__global__ void tiles(int *out) {
  __shared__ cg::block_tile_memory<1024> scratch;
  cg::thread_block blk = cg::this_thread_block(scratch);
  cg::thread_block_tile<S> t = cg::tiled_partition<S>(blk);
  t.sync();
  int v = t.shfl((int)threadIdx.x, 3u);
  t.sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

static void report(const char *what, int blocks, int threads, uint32_t pattern_before, uint32_t write_pattern) {
  uint32_t *d; static uint32_t h[600 * (kWords + 4)];
  size_t bytes = (size_t)blocks * (kWords + 4) * 4;
  cudaMalloc(&d, bytes);
  cudaMemset(d, 0xee, bytes);
  probe<<<blocks, threads>>>(d, write_pattern);
  cudaError_t e = cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d);
  if (e != cudaSuccess) { printf("%s: %s\n", what, cudaGetErrorString(e)); return; }
  int nb = blocks < 4 ? blocks : 4;
  long tz = 0, tp = 0, to = 0, tsz = 0, tsp = 0, tso = 0;
  for (int bl = 0; bl < blocks; ++bl) {
    uint32_t *ob = h + bl * (kWords + 4);
    uint32_t cap = ob[1];
    int rz = 0, rp = 0, ro = 0, sz = 0, sp = 0, so = 0;
    uint32_t fo = 0, fv = 0; bool have = false;
    for (uint32_t w = 0; w < cap / 4 && w < 256; ++w) {
      uint32_t v = ob[4 + w];
      if (v == 0) ++rz; else if (pattern_before && v == (pattern_before ^ w)) ++rp;
      else { ++ro; if (!have) { have = true; fo = 4 * w; fv = v; } }
    }
    for (uint32_t w = 0; w < 64; ++w) {
      uint32_t v = ob[4 + 256 + w];
      if (v == 0) ++sz; else if (pattern_before && v == (pattern_before ^ (w + 256))) ++sp; else ++so;
    }
    tz += rz; tp += rp; to += ro; tsz += sz; tsp += sp; tso += so;
    if (bl < nb)
      printf("%s block=%d begin=%u cap=%u static_at=%u reserved: zero=%d pattern=%d other=%d%s static: zero=%d pattern=%d other=%d\n",
             what, bl, ob[0], cap, ob[2], rz, rp, ro, "", sz, sp, so);
    if (ro && bl < nb) {
      printf("  first other reserved word at +%u = %08x; nonzero words:", fo, fv);
      int k = 0;
      for (uint32_t w = 0; w < cap / 4 && w < 256 && k < 24; ++w) {
        uint32_t v = ob[4 + w];
        if (v && !(pattern_before && v == (pattern_before ^ w))) { printf(" +%u=%08x", 4 * w, v); ++k; }
      }
      printf("\n");
    }
  }
  printf("%s all %d blocks: reserved zero=%ld pattern=%ld other=%ld static zero=%ld pattern=%ld other=%ld\n", what, blocks,
         tz, tp, to, tsz, tsp, tso);
  fflush(stdout);
}

int main() {
  report("fresh", 1, 128, 0, 0);
  report("fill", 1, 128, 0, 0xA5A50000u);
  report("after_fill", 1, 128, 0xA5A50000u, 0);
  report("fill_many", 132 * 4, 256, 0, 0x5A5A0000u);
  report("after_fill_many", 132 * 4, 256, 0x5A5A0000u, 0);
  report("fill_again", 132 * 4, 256, 0, 0x3C3C0000u);
  int *dt; cudaMalloc(&dt, 132 * 4 * 256 * 4);
  tiles<64><<<132 * 4, 256>>>(dt);
  tiles<128><<<132 * 2, 512>>>(dt);
  printf("tiles: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  report("after_tiles", 132 * 4, 256, 0x3C3C0000u, 0);
  cudaFree(dt);
  return 0;
}

// Warp-level operations whose AMDGPU lowering the warp-ops lit test checks.
// Regenerate warps.ptx with: nvcc -ptx -arch=sm_90 warps.cu -o warps.ptx
#include <cooperative_groups.h>

__global__ void shuffles(int *out, int w) {
  int v = threadIdx.x * 3;
  int a = __shfl_up_sync(0xffffffffu, v, 1);
  int b = __shfl_down_sync(0xffffffffu, v, 2, 16);
  int c = __shfl_xor_sync(0xffffffffu, v, 4);
  int d = __shfl_sync(0x0000ffffu, v, w, 8);
  out[threadIdx.x] = a + b + c + d;
}

__global__ void votes(unsigned *out, int n) {
  int p = threadIdx.x < n;
  unsigned b = __ballot_sync(0xffffffffu, p);
  int any = __any_sync(0xffffffffu, p);
  int all = __all_sync(0xffffffffu, p);
  int uni = __uni_sync(0xffffffffu, p);
  unsigned act = __activemask();
  unsigned lt;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  out[threadIdx.x] = b + any + 2 * all + 4 * uni + act + lt + lane;
}

__global__ void matches_and_redux(unsigned *out, const unsigned *in) {
  unsigned v = in[threadIdx.x];
  unsigned m = __match_any_sync(0xffffffffu, v);
  int pred;
  unsigned ma = __match_all_sync(0xffffffffu, v, &pred);
  unsigned s = __reduce_add_sync(0xffffffffu, v);
  unsigned mx = __reduce_max_sync(0xffffffffu, v);
  unsigned o = __reduce_or_sync(0xffffffffu, v);
  out[threadIdx.x] = m + ma + pred + s + mx + o;
}

__global__ void barriers(int *out, int n) {
  __shared__ int s[256];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  int c = __syncthreads_count(s[255 - threadIdx.x] < n);
  if (threadIdx.x < 64) asm volatile("bar.sync 1, 64;");
  __syncwarp();
  out[threadIdx.x] = c + s[threadIdx.x ^ 1];
}

// smem_sregs_probe: the shared-memory special registers of PTX (%reserved_smem_offset_begin/end/
// cap/0/1, %total_smem_size, %aggr_smem_size, %dynamic_smem_size) read by kernels with and
// without static / dynamic shared memory and with 1 and 3 blocks; printed as decimal so the
// H200's values are the reference for the translator's choice of a reserved region.
#include <cstdio>
#include <cstdint>

struct R { uint32_t v[8]; };

__device__ void readAll(R *o, int k) {
  uint32_t b, e, c, r0, r1, tot, ag, dyn;
  asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(b));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(e));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(c));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_0;" : "=r"(r0));
  asm volatile("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(r1));
  asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(tot));
  asm volatile("mov.u32 %0, %%aggr_smem_size;" : "=r"(ag));
  asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn));
  R r = {{b, e, c, r0, r1, tot, ag, dyn}};
  o[k] = r;
}
__global__ void k_none(R *o) { if (threadIdx.x == 0) readAll(o, blockIdx.x); }
__global__ void k_static(R *o) {
  __shared__ uint32_t s[128];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) { readAll(o, blockIdx.x); o[blockIdx.x].v[7] += s[5] - 5; }
}
__global__ void k_dyn(R *o) {
  extern __shared__ uint32_t d[];
  __shared__ uint32_t s[7];
  d[threadIdx.x] = threadIdx.x;
  if (threadIdx.x < 7) s[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0) { readAll(o, blockIdx.x); o[blockIdx.x].v[7] += d[3] - 3 + s[2] - 1; }
  // the shared-window address of the dynamic and static arrays, relative to the reserved region
  if (threadIdx.x == 0) {
    uint32_t pd, ps;
    pd = (uint32_t)__cvta_generic_to_shared(d);
    ps = (uint32_t)__cvta_generic_to_shared(s);
    o[4 + blockIdx.x].v[0] = pd;
    o[4 + blockIdx.x].v[1] = ps;
  }
}

static void show(const char *name, void (*k)(R *), int blocks, int threads, size_t dyn) {
  R *d, h[8] = {};
  cudaMalloc(&d, sizeof h);
  cudaMemset(d, 0, sizeof h);
  k<<<blocks, threads, dyn>>>(d);
  if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess) { printf("%s FAIL\n", name); return; }
  for (int b = 0; b < blocks; ++b)
    printf("%s dyn=%zu block=%d begin=%u end=%u cap=%u off0=%u off1=%u total=%u aggr=%u dynamic=%u\n", name, dyn, b,
           h[b].v[0], h[b].v[1], h[b].v[2], h[b].v[3], h[b].v[4], h[b].v[5], h[b].v[6], h[b].v[7]);
  if (k == k_dyn) printf("%s dyn=%zu dynamic_array_at=%u static_array_at=%u\n", name, dyn, h[4].v[0], h[4].v[1]);
  cudaFree(d);
}

int main() {
  show("none", k_none, 1, 32, 0);
  show("none", k_none, 3, 32, 256);
  show("static", k_static, 1, 128, 0);
  show("dyn", k_dyn, 1, 64, 1000);
  show("dyn", k_dyn, 2, 64, 40000);
  return 0;
}

#include <cstdio>
#include <cassert>
__device__ int counter;
__constant__ float cst[4];
__managed__ int mv;
struct S { double a; int b[5]; float c; };
__device__ __noinline__ int rec(int n){ return n<=1?1:n*rec(n-1); }
typedef int (*fp_t)(int);
__device__ int f1(int x){return x+1;}
__device__ int f2(int x){return x*2;}
__device__ fp_t tbl[2] = {f1, f2};
__device__ int* gp = &counter;
__global__ void __launch_bounds__(256,2) k(float* out, const float* __restrict__ in, S s, int n){
  extern __shared__ float sh[];
  __shared__ int tile[33];
  int i = blockIdx.x*blockDim.x+threadIdx.x;
  if(i<n){ float v = in[i]; sh[threadIdx.x]=v; __syncthreads();
    v += __shfl_down_sync(0xffffffff, v, 1);
    unsigned b = __ballot_sync(0xffffffff, v>0);
    atomicAdd(&counter, b); atomicAdd(out, v); atomicCAS(&counter, 1, 2);
    tile[threadIdx.x%33]=i;
    out[i] = v*s.a + s.b[i%5] + cst[i&3] + tile[(i+1)%33] + rec(i&7) + tbl[i&1](i);
    if (v < -1.0f) printf("v=%f %d\n", v, i);
    assert(v != 3.0f);
    unsigned r; asm volatile("{ .reg .b32 %%temp; mov.u32 %%temp, %%laneid; mov.u32 %0, %%temp; }" : "=r"(r));
    out[i+1] = r + mv + __sinf(v) + sqrtf(v) + __fdividef(v,3.f);
    long long c = clock64(); out[i+2] = (float)c;
  }
}

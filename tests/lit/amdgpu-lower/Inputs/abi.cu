// Kernels whose ABI facts (parameter layout, launch bounds, shared and local
// memory) the metadata test checks in the AMDGPU code object against the PTX
// declarations nvcc emits. Regenerate abi.ptx with:
//   nvcc -ptx -arch=sm_75 abi.cu -o abi.ptx
#include <cstdint>

struct Params {
  double scale;
  int n;
  float bias[4];
  char tag;
  double *extra;
  long long big[2];
};

__global__ void __launch_bounds__(256, 2)
byvalue(float *out, const float *in, Params p, unsigned char flag, short s, float f) {
  __shared__ float tile[1056];
  int t = threadIdx.x;
  tile[t] = in[t] * (float)p.scale + p.bias[t & 3] + f + s;
  __syncthreads();
  out[t] = tile[(t + 1) & 255] + (flag ? p.extra[t] : (double)p.big[t & 1]) + p.tag + p.n;
}

extern __shared__ double dyn[];

__global__ void dynamic_shared(double *out, int n, volatile int *sel) {
  double local[16];
  for (int i = 0; i < 16; ++i) local[i] = out[i] * i;
  dyn[threadIdx.x] = local[*sel & 15];
  __syncthreads();
  if (threadIdx.x < n) out[threadIdx.x] = dyn[(threadIdx.x + 1) % blockDim.x];
}

__global__ void __launch_bounds__(64) small_block(int4 *out, int4 v, uint64_t k) {
  __shared__ int4 buf[64];
  buf[threadIdx.x] = v;
  __syncthreads();
  int4 r = buf[63 - threadIdx.x];
  r.x += (int)k;
  out[threadIdx.x] = r;
}

__global__ void warps(unsigned *out, int n) {
  unsigned v = threadIdx.x;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned b = __ballot_sync(0xffffffffu, threadIdx.x & 1);
  int any = __syncthreads_or(threadIdx.x == n);
  out[threadIdx.x] = v + b + any + __activemask();
}

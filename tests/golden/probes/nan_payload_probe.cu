// H200 probe (session 9, perf): NaN payloads through nvcc's logf, a warp-shuffle
// reduction, bit reads and f32 bits reused as f16x2 lanes -- the cases whose
// canonical-NaN selects amdgpu-lower's RelaxNaNCanonicalization drops or keeps
// (tests/lit/amdgpu-lower/nan-guarded.test has the same kernels). One line per
// kernel and input: "<kernel> <input bits> <output bits>" in hex.
// Build and run: nvcc -O2 -std=c++17 -arch=sm_90 nan_payload_probe.cu -o p && ./p
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>

__global__ void logf_of_sum(const float *a, float *out) {
  int i = threadIdx.x;
  out[i] = logf(a[i] + 2.0f);
}
__global__ void warp_sum(const float *a, float *out) {
  int i = threadIdx.x;
  float v = a[i] * 2.0f;
  for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffffu, v, off);
  out[i] = v;
}
__global__ void low_bits(const float *a, unsigned *out) {
  int i = threadIdx.x;
  out[i] = __float_as_uint(a[i] + 2.0f) & 0xffffu;
}
__global__ void f32_as_half2(const float *a, unsigned *out) {
  int i = threadIdx.x;
  float s = a[i] + 1.0f;
  __half2 h = *reinterpret_cast<__half2 *>(&s);
  h = __hadd2(h, h);
  out[i] = *reinterpret_cast<unsigned *>(&h);
}

int main() {
  const unsigned in[] = {0x7fc01234u, 0xffc01234u, 0x7f800001u, 0x7fffffffu, 0xff800000u,
                         0x7f800000u, 0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u,
                         0x00000001u, 0x007fffffu, 0x7f7fffffu, 0x40490fdbu, 0xc0000000u};
  const int n = sizeof in / sizeof in[0];
  float *da, *dout;
  cudaMalloc(&da, 32 * sizeof(float));
  cudaMalloc(&dout, 32 * sizeof(float));
  for (int k = 0; k < n; ++k) {
    unsigned a[32], o[32];
    // warp_sum: lane 0 holds the input, the others 1.0 (a NaN input must make every sum NaN).
    for (int l = 0; l < 32; ++l) a[l] = in[k];
    cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
    logf_of_sum<<<1, 32>>>(da, dout);
    cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
    printf("logf_of_sum %08x %08x\n", in[k], o[0]);
    low_bits<<<1, 32>>>(da, (unsigned *)dout);
    cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
    printf("low_bits %08x %08x\n", in[k], o[0]);
    f32_as_half2<<<1, 32>>>(da, (unsigned *)dout);
    cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
    printf("f32_as_half2 %08x %08x\n", in[k], o[0]);
    for (int l = 1; l < 32; ++l) a[l] = 0x3f800000u;
    cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
    warp_sum<<<1, 32>>>(da, dout);
    cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
    printf("warp_sum %08x %08x %08x\n", in[k], o[0], o[31]);
  }
  cudaError_t e = cudaDeviceSynchronize();
  printf("status %s\n", cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 1;
}

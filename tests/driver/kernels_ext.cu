// kernels_ext.cu: device code for the driver-API array / texture / surface program (drv_array.cpp)
// and the context program (drv_ctx.cpp): texture-object reads in 1D (linear fetch), 2D (float,
// normalised uchar4, integer uchar4, int, half), 3D and 2D-layered geometries, a surface
// read-modify-write, a mipmap level read, and a printf kernel for per-context output routing.
// Built by nvcc into PTX (kx.ptx); the host programs load it with cuModuleLoadData.
#include <cstdio>
#include <cuda_fp16.h>

extern "C" __global__ void tex2d_f(cudaTextureObject_t t, float *out, int w, int h, float dx, float dy, int norm) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float u = x + dx, v = y + dy;
  if (norm) { u /= w; v /= h; }
  out[y * w + x] = tex2D<float>(t, u, v);
}

extern "C" __global__ void tex2d_f4(cudaTextureObject_t t, float4 *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float4>(t, x + 0.5f, y + 0.5f);
}

extern "C" __global__ void tex2d_u4(cudaTextureObject_t t, uint4 *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    uchar4 v = tex2D<uchar4>(t, x + 0.5f, y + 0.5f);
    out[y * w + x] = make_uint4(v.x, v.y, v.z, v.w);
  }
}

extern "C" __global__ void tex2d_i(cudaTextureObject_t t, int *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<int>(t, x + 0.5f, y + 0.5f);
}

extern "C" __global__ void fetch1d_f(cudaTextureObject_t t, float *out, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, i * stride);
}

extern "C" __global__ void tex3d_f(cudaTextureObject_t t, float *out, int w, int h, int d) {
  int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
  if (x < w && y < h && z < d) out[(z * h + y) * w + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}

extern "C" __global__ void tex2d_layered_f(cudaTextureObject_t t, float *out, int w, int h, int layers) {
  int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
  if (x < w && y < h && l < layers) out[(l * h + y) * w + x] = tex2DLayered<float>(t, x + 0.5f, y + 0.5f, l);
}

extern "C" __global__ void tex2d_lod_f(cudaTextureObject_t t, float *out, int w, int h, float lod) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2DLod<float>(t, (x + 0.5f) / w, (y + 0.5f) / h, lod);
}

// out = 2 * in + k, in place through one surface (byte x coordinates).
extern "C" __global__ void surf2d_scale(cudaSurfaceObject_t s, int w, int h, float k) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float v = surf2Dread<float>(s, x * 4, y);
  surf2Dwrite(2.0f * v + k, s, x * 4, y);
}

extern "C" __global__ void ctx_hello(int tag, int *out) {
  if (threadIdx.x == 0) printf("ctx kernel tag %d block %d\n", tag, (int)blockIdx.x);
  if (threadIdx.x == 0 && blockIdx.x == 0) *out = tag * 10;
}

// Integer reads at (x + dx, y + dy): between texel centres, where point and linear sampling differ.
extern "C" __global__ void tex2d_u4_off(cudaTextureObject_t t, uint4 *out, int w, int h, float dx, float dy) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    uchar4 v = tex2D<uchar4>(t, x + dx, y + dy);
    out[y * w + x] = make_uint4(v.x, v.y, v.z, v.w);
  }
}

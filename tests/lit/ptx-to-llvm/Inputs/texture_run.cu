// Source of tests/lit/ptx-to-llvm/texture-run.ptx (nvcc -ptx -arch=sm_90).
// The kernel builds its own ptx_tex_desc (the layout the runtime shim fills)
// so tex2D / surf2Dread run on the emulator without a host runtime.
#include "ptx_texture.h"
#include <cuda_runtime.h>
extern "C" __global__ void texk(float *data, ptx_tex_desc *d, float *out, unsigned mode) {
  if (threadIdx.x == 0) {
    for (int i = 0; i < 16; ++i) data[i] = (float)i;
    d->magic = PTX_TEX_DESC_MAGIC;
    d->flags = (mode & 4u) ? PTX_TEX_FLAG_NORMALIZED_COORDS : 0u;
    d->base = (unsigned long long)data;
    d->width = 4; d->height = 4; d->depth = 1; d->layers = 1;
    d->pitch = 16;
    d->channels = 1; d->bits = 32; d->kind = PTX_TEX_KIND_FLOAT;
    d->filter = (mode & 1u) ? PTX_TEX_FILTER_LINEAR : PTX_TEX_FILTER_POINT;
    unsigned char am = (mode & 2u) ? PTX_TEX_ADDR_BORDER : (mode & 8u) ? PTX_TEX_ADDR_WRAP : PTX_TEX_ADDR_CLAMP;
    d->address[0] = d->address[1] = d->address[2] = am;
    d->read_mode = PTX_TEX_READ_ELEMENT;
    d->geometry = PTX_TEX_GEOM_2D;
    d->border_color[0] = -7.0f; d->border_color[1] = d->border_color[2] = d->border_color[3] = 0.0f;
  }
  __syncthreads();
  cudaTextureObject_t t = (cudaTextureObject_t)d;
  // 8 sample points per launch, x/y in texel units (scaled by 1/4 when normalized).
  const float xs[8] = {0.5f, 1.5f, 1.25f, 0.5f + 1.0f / 3.0f, -1.0f, 3.9f, 5.5f, 2.0f};
  const float ys[8] = {0.5f, 2.5f, 0.5f, 0.5f, 0.5f, 3.9f, 1.5f, 2.0f};
  unsigned i = threadIdx.x;
  float s = (mode & 4u) ? 0.25f : 1.0f;
  float4 v = tex2D<float4>(t, xs[i] * s, ys[i] * s);
  out[i * 2] = v.x;
  out[i * 2 + 1] = v.y;
}

// surf2Dread / surf2Dwrite with the default .trap and with .zero.
extern "C" __global__ void surfk(unsigned *data, ptx_tex_desc *d, unsigned *out) {
  if (threadIdx.x == 0) {
    for (int i = 0; i < 32; ++i) data[i] = 100u + i;
    d->magic = PTX_TEX_DESC_MAGIC; d->flags = PTX_TEX_FLAG_SURFACE;
    d->base = (unsigned long long)data;
    d->width = 4; d->height = 4; d->depth = 1; d->layers = 1; d->pitch = 32; /* padded rows */
    d->channels = 1; d->bits = 32; d->kind = PTX_TEX_KIND_UNSIGNED; d->geometry = PTX_TEX_GEOM_2D;
  }
  __syncthreads();
  cudaSurfaceObject_t s = (cudaSurfaceObject_t)d;
  unsigned x = threadIdx.x % 4, y = threadIdx.x / 4;
  unsigned v = surf2Dread<unsigned>(s, x * 4, y);
  unsigned z = surf2Dread<unsigned>(s, (x + 2) * 4, y, cudaBoundaryModeZero);
  __syncthreads();
  surf2Dwrite(v + 1000u, s, x * 4, y);
  out[threadIdx.x * 2] = v;
  out[threadIdx.x * 2 + 1] = z;
}

// Source of tests/lit/ptx-to-llvm/txq-tld4-run.ptx (nvcc -ptx -arch=sm_90
// -I amdgpu-lower/devlib). The kernel builds its own ptx_tex_desc (the layout
// the runtime shim fills): a 4x4 two-channel float texture with texel (i, j) =
// (i + 10j, 100 + i + 10j), rows 32 bytes apart. Thread 0 stores txq/suq
// results in q[0..11]; thread t < 5 gathers (tex2Dgather = tld4) channels r
// and g at point t into out[8t..8t+7], and r with texel offset {+1, -1} into
// out[40+4t..40+4t+3].
// mode bit 0: linear filter, bit 1: border address mode (border colour
// (-7, -9, 0, 0)), bit 2: normalized coordinates with wrap; else clamp.
#include "ptx_texture.h"
#include <cuda_runtime.h>
extern "C" __global__ void gather(float *data, ptx_tex_desc *d, float *out, unsigned *q, unsigned mode) {
  if (threadIdx.x == 0) {
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i) {
        data[(j * 4 + i) * 2] = (float)(i + 10 * j);
        data[(j * 4 + i) * 2 + 1] = (float)(100 + i + 10 * j);
      }
    d->magic = PTX_TEX_DESC_MAGIC;
    d->flags = (mode & 4u) ? PTX_TEX_FLAG_NORMALIZED_COORDS : 0u;
    d->base = (unsigned long long)data;
    d->width = 4; d->height = 4; d->depth = 1; d->layers = 1;
    d->pitch = 32;
    d->channels = 2; d->bits = 32; d->kind = PTX_TEX_KIND_FLOAT;
    d->filter = (mode & 1u) ? PTX_TEX_FILTER_LINEAR : PTX_TEX_FILTER_POINT;
    unsigned char am = (mode & 2u) ? PTX_TEX_ADDR_BORDER : (mode & 4u) ? PTX_TEX_ADDR_WRAP : PTX_TEX_ADDR_CLAMP;
    d->address[0] = d->address[1] = d->address[2] = am;
    d->read_mode = PTX_TEX_READ_ELEMENT;
    d->geometry = PTX_TEX_GEOM_2D;
    d->border_color[0] = -7.0f; d->border_color[1] = -9.0f; d->border_color[2] = d->border_color[3] = 0.0f;
  }
  __syncthreads();
  cudaTextureObject_t t = (cudaTextureObject_t)d;
  if (threadIdx.x == 0) {
    unsigned r[12];
    asm volatile("txq.width.b32 %0, [%1];" : "=r"(r[0]) : "l"(t));
    asm volatile("txq.height.b32 %0, [%1];" : "=r"(r[1]) : "l"(t));
    asm volatile("txq.depth.b32 %0, [%1];" : "=r"(r[2]) : "l"(t));
    asm volatile("txq.channel_data_type.b32 %0, [%1];" : "=r"(r[3]) : "l"(t));
    asm volatile("txq.channel_order.b32 %0, [%1];" : "=r"(r[4]) : "l"(t));
    asm volatile("txq.normalized_coords.b32 %0, [%1];" : "=r"(r[5]) : "l"(t));
    asm volatile("txq.filter_mode.b32 %0, [%1];" : "=r"(r[6]) : "l"(t));
    asm volatile("txq.addr_mode_0.b32 %0, [%1];" : "=r"(r[7]) : "l"(t));
    asm volatile("txq.array_size.b32 %0, [%1];" : "=r"(r[8]) : "l"(t));
    asm volatile("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(r[9]) : "l"(t));
    asm volatile("txq.level.width.b32 %0, [%1], %2;" : "=r"(r[10]) : "l"(t), "r"(1));
    asm volatile("suq.height.b32 %0, [%1];" : "=r"(r[11]) : "l"(t));
    for (int k = 0; k < 12; ++k) q[k] = r[k];
  }
  // Points in texel units; normalized mode passes them divided by 4 (exact).
  const float xs[5] = {1.5f, 0.25f, 3.75f, 3.0f, 5.5f};
  const float ys[5] = {1.5f, 0.25f, 3.5f, 0.75f, -2.5f};
  unsigned i = threadIdx.x;
  if (i < 5) {
    float s = (mode & 4u) ? 0.25f : 1.0f;
    float4 r = tex2Dgather<float4>(t, xs[i] * s, ys[i] * s, 0);
    float4 g = tex2Dgather<float4>(t, xs[i] * s, ys[i] * s, 1);
    out[i * 8 + 0] = r.x; out[i * 8 + 1] = r.y; out[i * 8 + 2] = r.z; out[i * 8 + 3] = r.w;
    out[i * 8 + 4] = g.x; out[i * 8 + 5] = g.y; out[i * 8 + 6] = g.z; out[i * 8 + 7] = g.w;
    // tld4 with the texel offset operand {+1, -1} (no CUDA intrinsic: inline PTX).
    float o0, o1, o2, o3;
    asm volatile("tld4.r.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}], {%7, %8};"
                 : "=f"(o0), "=f"(o1), "=f"(o2), "=f"(o3)
                 : "l"(t), "f"(xs[i] * s), "f"(ys[i] * s), "r"(1), "r"(-1));
    out[40 + i * 4 + 0] = o0; out[40 + i * 4 + 1] = o1; out[40 + i * 4 + 2] = o2; out[40 + i * 4 + 3] = o3;
  }
}

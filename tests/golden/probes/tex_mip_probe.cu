// tex_mip_probe: measures how the GPU picks and blends mipmap levels and filters linearly, for the
// translator's tex.level / tex.grad model (devlib texture.c). Every sampled value is printed in
// hex ("group i input... | result"), so the H200's answers are the golden data:
//  - lodw:   levels of constant value L (level L = L), point min filter, linear mip filter:
//            tex2DLod(lod = k/128) = L + w shows the level choice and the blend weight w.
//  - lodp:   the same with a point mip filter: the nearest-level rule.
//  - gradiso/gradx/grady/graddiag/gradmix: tex2DGrad on that texture: the LOD computed from
//            the derivatives (isotropic, one axis, diagonal, unequal axes), as L + w.
//  - clamp:  min/max level clamps and the level bias with fractional values.
//  - lin1d:  1D linear filtering of a 0/1024 step, unnormalized x in 1/512 steps, and
//            normalized x on widths 16 and 5: the bilinear weight quantization.
//  - tri:    trilinear (linear min + mip) on ramp levels.
//  - dims:   the extents of each level of a 20x12 mipmapped array (cudaArrayGetInfo), and
//            point samples of level 2 of it.
//  - mip1d:  tex1DLod on a mipmapped 1D array.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d FAIL\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

struct Q { float x, y, a, b, c, d; }; // coordinates, then lod / gradients

__global__ void k_lod2d(cudaTextureObject_t t, const Q *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DLod<float>(t, q[i].x, q[i].y, q[i].a);
}
__global__ void k_grad2d(cudaTextureObject_t t, const Q *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DGrad<float>(t, q[i].x, q[i].y, make_float2(q[i].a, q[i].b), make_float2(q[i].c, q[i].d));
}
__global__ void k_tex1d(cudaTextureObject_t t, const Q *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex1D<float>(t, q[i].x);
}
__global__ void k_lod1d(cudaTextureObject_t t, const Q *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex1DLod<float>(t, q[i].x, q[i].a);
}

static std::vector<float> run(void (*k)(cudaTextureObject_t, const Q *, float *, int), cudaTextureObject_t t,
                              const std::vector<Q> &q) {
  int n = (int)q.size();
  Q *dq; float *dout;
  CHECK(cudaMalloc(&dq, n * sizeof(Q)));
  CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CHECK(cudaMemcpy(dq, q.data(), n * sizeof(Q), cudaMemcpyHostToDevice));
  k<<<(n + 63) / 64, 64>>>(t, dq, dout, n);
  CHECK(cudaGetLastError());
  std::vector<float> o(n);
  CHECK(cudaMemcpy(o.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  cudaFree(dq); cudaFree(dout);
  return o;
}
static void print(const char *g, const std::vector<Q> &q, const std::vector<float> &o, int nin) {
  for (size_t i = 0; i < q.size(); ++i) {
    const float *p = &q[i].x;
    printf("%s %zu", g, i);
    for (int k = 0; k < nin; ++k) printf(" %08x", fb(p[k]));
    printf(" | %08x\n", fb(o[i]));
  }
}

static cudaTextureObject_t make_tex(cudaResourceDesc rd, cudaTextureFilterMode f, bool norm, cudaTextureFilterMode mipf,
                                    float maxL, float minL = 0, float bias = 0) {
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = f;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = norm;
  td.mipmapFilterMode = mipf;
  td.maxMipmapLevelClamp = maxL;
  td.minMipmapLevelClamp = minL;
  td.mipmapLevelBias = bias;
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  return t;
}

// A W x W mipmapped float array with NL levels, texel(L, x, y) = f(L, x, y).
template <class F> static cudaMipmappedArray_t mip2d(int W, int H, int NL, F f) {
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t m;
  CHECK(cudaMallocMipmappedArray(&m, &cd, make_cudaExtent(W, H, 0), NL));
  for (int l = 0; l < NL; ++l) {
    cudaArray_t a;
    CHECK(cudaGetMipmappedArrayLevel(&a, m, l));
    cudaChannelFormatDesc c2; cudaExtent e; unsigned fl;
    CHECK(cudaArrayGetInfo(&c2, &e, &fl, a));
    int w = (int)e.width, h = (int)(e.height ? e.height : 1);
    std::vector<float> v(w * h);
    for (int y = 0; y < h; ++y) for (int x = 0; x < w; ++x) v[y * w + x] = f(l, x, y);
    CHECK(cudaMemcpy2DToArray(a, 0, 0, v.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
  }
  return m;
}
static cudaResourceDesc mip_res(cudaMipmappedArray_t m) {
  cudaResourceDesc rd; memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeMipmappedArray; rd.res.mipmap.mipmap = m; return rd;
}

int main() {
  const int W = 64, NL = 7;
  // level L: constant L
  cudaMipmappedArray_t mc = mip2d(W, W, NL, [](int l, int, int) { return (float)l; });
  cudaTextureObject_t tpl = make_tex(mip_res(mc), cudaFilterModePoint, true, cudaFilterModeLinear, NL - 1);
  cudaTextureObject_t tpp = make_tex(mip_res(mc), cudaFilterModePoint, true, cudaFilterModePoint, NL - 1);
  {
    std::vector<Q> q;
    for (int k = -64; k <= 128 * NL; k += 3) q.push_back({0.3f, 0.6f, k / 128.f, 0, 0, 0});
    print("lodw", q, run(k_lod2d, tpl, q), 3);
    std::vector<Q> q2;
    for (int k = -64; k <= 128 * NL; k += 8) q2.push_back({0.3f, 0.6f, k / 128.f + 1 / 1024.f, 0, 0, 0});
    for (int L = 0; L < NL; ++L) for (int e = -3; e <= 3; ++e) q2.push_back({0.3f, 0.6f, L + 0.5f + e / 2048.f, 0, 0, 0});
    print("lodp", q2, run(k_lod2d, tpp, q2), 3);
  }
  {
    std::vector<Q> qi, qx, qy, qd, qm;
    for (int k = -32; k <= 64 * NL; k += 2) {
      float g = exp2f(k / 64.f) / W;
      qi.push_back({0.4f, 0.45f, g, 0, 0, g});
      qx.push_back({0.4f, 0.45f, g, 0, 0, 0});
      qy.push_back({0.4f, 0.45f, 0, 0, 0, g});
      qd.push_back({0.4f, 0.45f, g, g, -g, g});
    }
    const float r[] = {1.f, 0.75f, 0.5f, 0.3f, 0.125f, 2.f, 3.f};
    for (int k = 0; k <= 64 * 5; k += 16)
      for (float rr : r) {
        float g = exp2f(k / 64.f) / W;
        qm.push_back({0.55f, 0.3f, g, 0.25f * g, 0, rr * g});
        qm.push_back({0.55f, 0.3f, g * 0.6f, g * 0.8f, rr * g * 0.8f, -rr * g * 0.6f});
      }
    print("gradiso", qi, run(k_grad2d, tpl, qi), 6);
    print("gradx", qx, run(k_grad2d, tpl, qx), 6);
    print("grady", qy, run(k_grad2d, tpl, qy), 6);
    print("graddiag", qd, run(k_grad2d, tpl, qd), 6);
    print("gradmix", qm, run(k_grad2d, tpl, qm), 6);
    print("gradisop", qi, run(k_grad2d, tpp, qi), 6);
  }
  {
    struct C { float maxL, minL, bias; } cs[] = {{2.5f, 0, 0}, {6, 1.25f, 0}, {6, 0, 0.5f}, {6, 0, -1.75f}, {3.75f, 1.5f, 0.3f}};
    std::vector<Q> q;
    for (int k = -128; k <= 128 * NL; k += 23) q.push_back({0.3f, 0.6f, k / 128.f, 0, 0, 0});
    for (int c = 0; c < 5; ++c) {
      char g[32];
      cudaTextureObject_t t1 = make_tex(mip_res(mc), cudaFilterModePoint, true, cudaFilterModeLinear, cs[c].maxL, cs[c].minL, cs[c].bias);
      snprintf(g, sizeof g, "clamp%d.l", c);
      print(g, q, run(k_lod2d, t1, q), 3);
      cudaTextureObject_t t2 = make_tex(mip_res(mc), cudaFilterModePoint, true, cudaFilterModePoint, cs[c].maxL, cs[c].minL, cs[c].bias);
      snprintf(g, sizeof g, "clamp%d.p", c);
      print(g, q, run(k_lod2d, t2, q), 3);
      std::vector<Q> qg;
      for (int k = -32; k <= 64 * NL; k += 29) { float gg = exp2f(k / 64.f) / W; qg.push_back({0.3f, 0.6f, gg, 0, 0, gg}); }
      snprintf(g, sizeof g, "clamp%d.g", c);
      print(g, qg, run(k_grad2d, t1, qg), 6);
      cudaDestroyTextureObject(t1); cudaDestroyTextureObject(t2);
    }
  }
  cudaDestroyTextureObject(tpl); cudaDestroyTextureObject(tpp); cudaFreeMipmappedArray(mc);
  // 1D linear filtering of a step: texels 0 0 1024 1024 ... (width 16 and 5)
  for (int Wd : {16, 5}) {
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &cd, Wd, 0));
    std::vector<float> h(Wd);
    for (int x = 0; x < Wd; ++x) h[x] = x < 2 ? 0.f : 1024.f;
    CHECK(cudaMemcpy2DToArray(a, 0, 0, h.data(), Wd * 4, Wd * 4, 1, cudaMemcpyHostToDevice));
    cudaResourceDesc rd; memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray; rd.res.array.array = a;
    cudaTextureObject_t tu = make_tex(rd, cudaFilterModeLinear, false, cudaFilterModePoint, 0);
    cudaTextureObject_t tn = make_tex(rd, cudaFilterModeLinear, true, cudaFilterModePoint, 0);
    std::vector<Q> qu, qn;
    for (int k = 0; k <= 512; k += 3) qu.push_back({1.5f + k / 512.f, 0, 0, 0, 0, 0});
    for (int k = 0; k <= 512; k += 3) qn.push_back({(1.5f + k / 512.f) / Wd, 0, 0, 0, 0, 0});
    char g[32];
    snprintf(g, sizeof g, "lin1d.u%d", Wd); print(g, qu, run(k_tex1d, tu, qu), 1);
    snprintf(g, sizeof g, "lin1d.n%d", Wd); print(g, qn, run(k_tex1d, tn, qn), 1);
    cudaDestroyTextureObject(tu); cudaDestroyTextureObject(tn); cudaFreeArray(a);
  }
  // trilinear on ramps: level L texel = 100 L + 7 x + 3 y (16x16, 5 levels)
  {
    cudaMipmappedArray_t m = mip2d(16, 16, 5, [](int l, int x, int y) { return 100.f * l + 7.f * x + 3.f * y; });
    cudaTextureObject_t tll = make_tex(mip_res(m), cudaFilterModeLinear, true, cudaFilterModeLinear, 4);
    cudaTextureObject_t tlp = make_tex(mip_res(m), cudaFilterModeLinear, true, cudaFilterModePoint, 4);
    std::vector<Q> q;
    for (int i = 0; i < 96; ++i) q.push_back({(i * 0.37f + 0.21f) / 16, (15.3f - i * 0.29f) / 16, (i % 48) * 0.0917f - 0.2f, 0, 0, 0});
    print("tri.ll", q, run(k_lod2d, tll, q), 3);
    print("tri.lp", q, run(k_lod2d, tlp, q), 3);
    std::vector<Q> qg;
    for (int i = 0; i < 64; ++i) { float g = exp2f(i * 0.07f) / 16; qg.push_back({(i * 0.41f + 0.3f) / 16, (i * 0.23f + 2.2f) / 16, g, 0.1f * g, -0.2f * g, g * 0.9f}); }
    print("tri.grad", qg, run(k_grad2d, tll, qg), 6);
    cudaDestroyTextureObject(tll); cudaDestroyTextureObject(tlp); cudaFreeMipmappedArray(m);
  }
  // level extents of a 20x12 mipmapped array; point samples of it at lods 0..5
  {
    cudaMipmappedArray_t m = mip2d(20, 12, 5, [](int l, int x, int y) { return 1000.f * l + 32.f * y + x; });
    for (int l = 0; l < 5; ++l) {
      cudaArray_t a; cudaChannelFormatDesc c2; cudaExtent e; unsigned fl;
      CHECK(cudaGetMipmappedArrayLevel(&a, m, l));
      CHECK(cudaArrayGetInfo(&c2, &e, &fl, a));
      printf("dims %d %zu %zu %zu\n", l, e.width, e.height, e.depth);
    }
    cudaArray_t bad;
    printf("dims level5 %d\n", (int)cudaGetMipmappedArrayLevel(&bad, m, 5));
    cudaGetLastError();
    cudaTextureObject_t tp = make_tex(mip_res(m), cudaFilterModePoint, true, cudaFilterModePoint, 4);
    std::vector<Q> q;
    for (int L = 0; L <= 5; ++L) for (int i = 0; i < 6; ++i) q.push_back({(i * 3.3f + 0.5f) / 20, (i * 1.9f + 0.7f) / 12, (float)L, 0, 0, 0});
    print("dims.pt", q, run(k_lod2d, tp, q), 3);
    cudaDestroyTextureObject(tp); cudaFreeMipmappedArray(m);
  }
  // mipmapped 1D
  {
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t m;
    CHECK(cudaMallocMipmappedArray(&m, &cd, make_cudaExtent(32, 0, 0), 6));
    for (int l = 0; l < 6; ++l) {
      cudaArray_t a; CHECK(cudaGetMipmappedArrayLevel(&a, m, l));
      int w = 32 >> l; std::vector<float> h(w);
      for (int x = 0; x < w; ++x) h[x] = 100.f * l + x;
      CHECK(cudaMemcpy2DToArray(a, 0, 0, h.data(), w * 4, w * 4, 1, cudaMemcpyHostToDevice));
    }
    cudaTextureObject_t tp = make_tex(mip_res(m), cudaFilterModePoint, true, cudaFilterModeLinear, 5);
    cudaTextureObject_t tl = make_tex(mip_res(m), cudaFilterModeLinear, true, cudaFilterModeLinear, 5);
    std::vector<Q> q;
    for (int i = 0; i < 48; ++i) q.push_back({(i * 0.63f + 0.1f) / 32, 0, i * 0.137f - 0.3f, 0, 0, 0});
    print("mip1d.pl", q, run(k_lod1d, tp, q), 3);
    print("mip1d.ll", q, run(k_lod1d, tl, q), 3);
    cudaDestroyTextureObject(tp); cudaDestroyTextureObject(tl); cudaFreeMipmappedArray(m);
  }
  printf("tex_mip_probe done\n");
  return 0;
}

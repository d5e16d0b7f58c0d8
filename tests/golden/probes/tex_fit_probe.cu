// tex_fit_probe: isolates each step of the GPU's texture filtering so that the devlib's model
// (amdgpu-lower/devlib/texture.c) can be fitted bit for bit. Every line is
// "group i input-hex... | result-hex". Argument: a seed (default 1); the random groups depend on it,
// so a second run with another seed is an independent check of a model fitted on the first.
//  - lodf / lodfp:  explicit LOD, fine sweep (1/8192 steps) and k/256 +- 1 ulp, linear / point mip
//                   filter on a 64x64 7-level texture whose level L is the constant L (result L + w).
//  - lodb:          the same with mipmapLevelBias 0.3 and min/max clamps 0.7 / 4.3.
//  - gax.E:         tex2DGrad with dx = (t/64, 0): for each k the smallest fp32 t in [2^E, 2^E+1)
//                   whose LOD bin (result * 256) reaches 256 E + k (binary search on the GPU).
//  - gay:           the same with dy = (0, t/64), E = 2.
//  - gaxs:          grid: t = 2^(2 + i/4096), 4096 samples of one octave.
//  - gvec.T:        one vector dx = s (1, r)/64, r = j/512: smallest s in [2,8) reaching bin T.
//  - gvecs:         the same with the components swapped and signs flipped, T = 640.
//  - gpair.A:       dx = s (1, 0)/64, dy = s q (cos A, sin A)/64, q = j/256: threshold s for 640.
//  - grand:         random (dx, dy) pairs: the LOD bin (independent check).
//  - grandnp:       random gradients on a 40x24 6-level array (non-power-of-two scaling).
//  - norm.W:        1D ramp texture t[i] = i, linear filter, random normalized x (result i0 + w).
//  - unorm.W:       the same with unnormalized random x.
//  - bil / biln / bila: 2D bilinear filtering of random float texels at random coordinates
//                   (unnormalized, normalized, and a normalized 2-layer layered array).
//  - lramp:         layered 2D ramp (texel x + 16 y + 256 layer), random normalized coordinates.
//  - wrap.13 / mirror.13 / clampneg.13: 1D ramp, linear filter, normalized x in [-2, 3).
//  - tex3:          3D linear filtering of random texels, normalized coordinates.
//  - lin1:          1D linear filtering of random float texels.
//  - mipb:          linear mip blend of random per-level constants (point min filter), random LOD.
//  - tri:           trilinear (linear min + mip) on random texels, random coordinates and LOD.
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
static float bf(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

static uint64_t rng_state = 1;
static uint32_t rnd() { // xorshift64*
  rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 2685821657736338717ull) >> 32);
}
static float urand() { return (rnd() >> 8) * (1.0f / 16777216.0f); } // [0,1), 24 bits

struct Q { float v[8]; };

// ---- kernels
__global__ void k_lod2d(cudaTextureObject_t t, const Q *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DLod<float>(t, q[i].v[0], q[i].v[1], q[i].v[2]);
}
__global__ void k_grad2d(cudaTextureObject_t t, const Q *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DGrad<float>(t, q[i].v[0], q[i].v[1], make_float2(q[i].v[2], q[i].v[3]),
                                     make_float2(q[i].v[4], q[i].v[5]));
}
__global__ void k_tex1d(cudaTextureObject_t t, const Q *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex1D<float>(t, q[i].v[0]);
}
__global__ void k_tex2d(cudaTextureObject_t t, const Q *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2D<float>(t, q[i].v[0], q[i].v[1]);
}
__global__ void k_tex2dl(cudaTextureObject_t t, const Q *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DLayered<float>(t, q[i].v[0], q[i].v[1], (int)q[i].v[2]);
}
__global__ void k_tex3d(cudaTextureObject_t t, const Q *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex3D<float>(t, q[i].v[0], q[i].v[1], q[i].v[2]);
}
// LOD bin of a gradient sample on the constant-level texture: round(result * 256)
__device__ int gbin(cudaTextureObject_t t, float2 dx, float2 dy) {
  return __float2int_rn(tex2DGrad<float>(t, 0.4f, 0.45f, dx, dy) * 256.0f);
}
// smallest fp32 s in [lo, hi) with bin(s) >= target, where dx = s * (ax, ay), dy = s * (bx, by);
// returns hi's bits when none
__device__ uint32_t search(cudaTextureObject_t t, float lo, float hi, float ax, float ay, float bx, float by,
                           int target) {
  uint32_t a = __float_as_uint(lo), b = __float_as_uint(hi);
  while (a < b) {
    uint32_t m = a + (b - a) / 2;
    float s = __uint_as_float(m);
    if (gbin(t, make_float2(s * ax, s * ay), make_float2(s * bx, s * by)) >= target) b = m; else a = m + 1;
  }
  return a;
}
// q: lo hi ax ay bx by target
__global__ void k_search(cudaTextureObject_t t, const Q *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = __uint_as_float(search(t, q[i].v[0], q[i].v[1], q[i].v[2], q[i].v[3], q[i].v[4], q[i].v[5],
                                           (int)q[i].v[6]));
}

typedef void (*Kern)(cudaTextureObject_t, const Q *, float *, int);
static std::vector<float> run(Kern k, cudaTextureObject_t t, const std::vector<Q> &q) {
  int n = (int)q.size();
  Q *dq; float *dout;
  CHECK(cudaMalloc(&dq, n * sizeof(Q)));
  CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CHECK(cudaMemcpy(dq, q.data(), n * sizeof(Q), cudaMemcpyHostToDevice));
  k<<<(n + 127) / 128, 128>>>(t, dq, dout, n);
  CHECK(cudaGetLastError());
  std::vector<float> o(n);
  CHECK(cudaMemcpy(o.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  cudaFree(dq); cudaFree(dout);
  return o;
}
static void print(const char *g, const std::vector<Q> &q, const std::vector<float> &o, int nin) {
  for (size_t i = 0; i < q.size(); ++i) {
    printf("%s %zu", g, i);
    for (int k = 0; k < nin; ++k) printf(" %08x", fb(q[i].v[k]));
    printf(" | %08x\n", fb(o[i]));
  }
}
static void go(const char *g, Kern k, cudaTextureObject_t t, const std::vector<Q> &q, int nin) {
  print(g, q, run(k, t, q), nin);
}
static Q mk(float a = 0, float b = 0, float c = 0, float d = 0, float e = 0, float f = 0, float g = 0) {
  Q q; memset(&q, 0, sizeof q); q.v[0] = a; q.v[1] = b; q.v[2] = c; q.v[3] = d; q.v[4] = e; q.v[5] = f; q.v[6] = g;
  return q;
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
static cudaResourceDesc arr_res(cudaArray_t a) {
  cudaResourceDesc rd; memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeArray; rd.res.array.array = a; return rd;
}
// texel values for the random-value groups: 24-bit mantissa values in [0, 1000)
static float rval() { return (float)(rnd() % 1000) + urand(); }

int main(int argc, char **argv) {
  uint64_t seed = argc > 1 ? strtoull(argv[1], nullptr, 10) : 1;
  rng_state = 0x9e3779b97f4a7c15ull ^ (seed * 0x100000001b3ull);
  for (int i = 0; i < 8; ++i) rnd();
  printf("seed %llu\n", (unsigned long long)seed);
  const int W = 64, NL = 7;
  cudaMipmappedArray_t mc = mip2d(W, W, NL, [](int l, int, int) { return (float)l; });
  cudaTextureObject_t tpl = make_tex(mip_res(mc), cudaFilterModePoint, true, cudaFilterModeLinear, NL - 1);
  cudaTextureObject_t tpp = make_tex(mip_res(mc), cudaFilterModePoint, true, cudaFilterModePoint, NL - 1);
  if (seed == 1) {
    std::vector<Q> q;
    for (int j = 0; j < 8192; ++j) q.push_back(mk(0.3f, 0.6f, 1.0f + j / 8192.f));
    for (int k = 0; k < 256; ++k) {
      float l = 2.0f + k / 256.f;
      q.push_back(mk(0.3f, 0.6f, nextafterf(l, 0.f)));
      q.push_back(mk(0.3f, 0.6f, nextafterf(l, 10.f)));
    }
    for (int j = -40; j <= 40; ++j) q.push_back(mk(0.3f, 0.6f, j / 8192.f));
    go("lodf", k_lod2d, tpl, q, 3);
    go("lodfp", k_lod2d, tpp, q, 3);
    cudaTextureObject_t tb = make_tex(mip_res(mc), cudaFilterModePoint, true, cudaFilterModeLinear, 4.3f, 0.7f, 0.3f);
    std::vector<Q> qb;
    for (int j = 0; j < 2048; ++j) qb.push_back(mk(0.3f, 0.6f, -0.5f + j * (6.0f / 2048)));
    go("lodb", k_lod2d, tb, qb, 3);
    cudaDestroyTextureObject(tb);
  }
  // ---- gradient LOD: thresholds by binary search
  if (seed == 1) {
    std::vector<Q> q;
    for (int e = 0; e < 6; ++e)
      for (int k = 0; k < 256; ++k)
        q.push_back(mk(ldexpf(1.f, e), ldexpf(1.f, e + 1), 1 / 64.f, 0, 0, 0, (float)(256 * e + k)));
    go("gax", k_search, tpl, q, 7);
    std::vector<Q> qy;
    for (int k = 0; k < 256; ++k) qy.push_back(mk(4.f, 8.f, 0, 0, 0, 1 / 64.f, (float)(512 + k)));
    go("gay", k_search, tpl, qy, 7);
    std::vector<Q> qs;
    for (int i = 0; i < 4096; ++i) { float t = (float)exp2(2.0 + i / 4096.0); qs.push_back(mk(0.4f, 0.45f, t / 64, 0, 0, 0)); }
    go("gaxs", k_grad2d, tpl, qs, 6);
    std::vector<Q> qv;
    const int targets[] = {512, 550, 640, 700};
    for (int T : targets)
      for (int j = 0; j <= 512; ++j) qv.push_back(mk(2.f, 16.f, 1 / 64.f, j / 512.f / 64.f, 0, 0, (float)T));
    go("gvec", k_search, tpl, qv, 7);
    std::vector<Q> qw;
    for (int j = 0; j <= 512; ++j) qw.push_back(mk(2.f, 16.f, -(j / 512.f) / 64.f, 1 / 64.f, 0, 0, 640.f));
    for (int j = 0; j <= 512; ++j) qw.push_back(mk(2.f, 16.f, -1 / 64.f, -(j / 512.f) / 64.f, 0, 0, 640.f));
    go("gvecs", k_search, tpl, qw, 7);
    std::vector<Q> qp;
    const float ang[] = {0.f, 90.f, 45.f, 30.f, 60.f};
    for (float A : ang)
      for (int j = 0; j <= 320; ++j) {
        float c = cosf(A * 3.14159265f / 180), s = sinf(A * 3.14159265f / 180), qq = j / 256.f;
        qp.push_back(mk(2.f, 16.f, 1 / 64.f, 0, qq * c / 64, qq * s / 64, 640.f));
      }
    go("gpair", k_search, tpl, qp, 7);
  }
  {
    std::vector<Q> q;
    for (int i = 0; i < 4096; ++i) {
      float l1 = 0.2f + 5.6f * urand(), l2 = l1 - 3.0f * urand();
      float a1 = 6.2831853f * urand(), a2 = 6.2831853f * urand();
      float r1 = exp2f(l1) / 64, r2 = exp2f(l2) / 64;
      if (i % 4 == 0) a1 = 0; // some axis-aligned major vectors
      q.push_back(mk(0.4f, 0.45f, r1 * cosf(a1), r1 * sinf(a1), r2 * cosf(a2), r2 * sinf(a2)));
      if (i % 2) std::swap(q.back().v[2], q.back().v[4]), std::swap(q.back().v[3], q.back().v[5]);
    }
    go("grand", k_grad2d, tpl, q, 6);
  }
  cudaDestroyTextureObject(tpl); cudaDestroyTextureObject(tpp); cudaFreeMipmappedArray(mc);
  {
    // gradients on a non-square, non-power-of-two 40x24 mipmapped array (levels 40x24 .. 1x1), level L = L
    cudaMipmappedArray_t mn = mip2d(40, 24, 6, [](int l, int, int) { return (float)l; });
    cudaTextureObject_t tn = make_tex(mip_res(mn), cudaFilterModePoint, true, cudaFilterModeLinear, 5);
    std::vector<Q> q;
    for (int i = 0; i < 1024; ++i) {
      float l1 = 0.2f + 4.6f * urand(), l2 = l1 - 3.0f * urand();
      float a1 = 6.2831853f * urand(), a2 = 6.2831853f * urand();
      if (i % 4 == 0) a1 = 0;
      if (i % 4 == 1) a1 = 1.5707963f;
      float r1 = exp2f(l1), r2 = exp2f(l2);
      q.push_back(mk(0.4f, 0.45f, r1 * cosf(a1) / 40, r1 * sinf(a1) / 24, r2 * cosf(a2) / 40, r2 * sinf(a2) / 24));
    }
    go("grandnp", k_grad2d, tn, q, 6);
    cudaDestroyTextureObject(tn); cudaFreeMipmappedArray(mn);
  }
  // ---- normalized / unnormalized coordinates -> weights: ramp texels t[i] = i
  {
    const int widths[] = {5, 7, 13, 100, 1000, 4093, 4096};
    for (int Wd : widths) {
      cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
      cudaArray_t a;
      CHECK(cudaMallocArray(&a, &cd, Wd, 0));
      std::vector<float> h(Wd);
      for (int x = 0; x < Wd; ++x) h[x] = (float)x;
      CHECK(cudaMemcpy2DToArray(a, 0, 0, h.data(), Wd * 4, Wd * 4, 1, cudaMemcpyHostToDevice));
      cudaTextureObject_t tn = make_tex(arr_res(a), cudaFilterModeLinear, true, cudaFilterModePoint, 0);
      cudaTextureObject_t tu = make_tex(arr_res(a), cudaFilterModeLinear, false, cudaFilterModePoint, 0);
      std::vector<Q> qn, qu;
      for (int i = 0; i < 1536; ++i) qn.push_back(mk(urand()));
      // near weight-rounding boundaries: (i + 0.5 + (2m+1)/512) / W, nudged by a few ulps
      for (int i = 0; i < 512; ++i) {
        double x = ((rnd() % Wd) + 0.5 + (2 * (rnd() % 256) + 1) / 512.0) / Wd;
        float f = (float)x;
        int nud = (int)(rnd() % 9) - 4;
        uint32_t b = fb(f) + nud;
        qn.push_back(mk(bf(b)));
      }
      for (int i = 0; i < 1024; ++i) qu.push_back(mk(urand() * Wd));
      for (int i = 0; i < 512; ++i) {
        float f = (float)((rnd() % Wd) + 0.5 + (2 * (rnd() % 256) + 1) / 512.0);
        int nud = (int)(rnd() % 9) - 4;
        qu.push_back(mk(bf(fb(f) + nud)));
      }
      char g[32];
      snprintf(g, sizeof g, "norm.%d", Wd); go(g, k_tex1d, tn, qn, 1);
      snprintf(g, sizeof g, "unorm.%d", Wd); go(g, k_tex1d, tu, qu, 1);
      cudaDestroyTextureObject(tn); cudaDestroyTextureObject(tu); cudaFreeArray(a);
    }
  }
  // ---- wrap / mirror / clamp with coordinates outside [0,1): 1D ramp of width 13
  {
    const int Wd = 13;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &cd, Wd, 0));
    std::vector<float> h(Wd);
    for (int x = 0; x < Wd; ++x) h[x] = (float)x;
    CHECK(cudaMemcpy2DToArray(a, 0, 0, h.data(), Wd * 4, Wd * 4, 1, cudaMemcpyHostToDevice));
    const cudaTextureAddressMode modes[] = {cudaAddressModeWrap, cudaAddressModeMirror, cudaAddressModeClamp};
    const char *names[] = {"wrap.13", "mirror.13", "clampneg.13"};
    for (int m = 0; m < 3; ++m) {
      cudaTextureDesc td; memset(&td, 0, sizeof td);
      td.addressMode[0] = modes[m]; td.filterMode = cudaFilterModeLinear; td.readMode = cudaReadModeElementType;
      td.normalizedCoords = 1;
      cudaResourceDesc rd = arr_res(a);
      cudaTextureObject_t t; CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
      std::vector<Q> q;
      for (int i = 0; i < 1024; ++i) q.push_back(mk(urand() * 5.0f - 2.0f));
      go(names[m], k_tex1d, t, q, 1);
      cudaDestroyTextureObject(t);
    }
    cudaFreeArray(a);
  }
  // ---- filtering arithmetic on random texels
  {
    const int WX = 24, WY = 20;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &cd, WX, WY));
    std::vector<float> h(WX * WY);
    for (auto &v : h) v = rval();
    CHECK(cudaMemcpy2DToArray(a, 0, 0, h.data(), WX * 4, WX * 4, WY, cudaMemcpyHostToDevice));
    for (int i = 0; i < WX * WY; ++i) printf("bil.texel %d | %08x\n", i, fb(h[i]));
    cudaTextureObject_t tu = make_tex(arr_res(a), cudaFilterModeLinear, false, cudaFilterModePoint, 0);
    cudaTextureObject_t tn = make_tex(arr_res(a), cudaFilterModeLinear, true, cudaFilterModePoint, 0);
    std::vector<Q> qu, qn;
    for (int i = 0; i < 2048; ++i) qu.push_back(mk(urand() * WX, urand() * WY));
    for (int i = 0; i < 2048; ++i) qn.push_back(mk(urand(), urand()));
    go("bil", k_tex2d, tu, qu, 2);
    go("biln", k_tex2d, tn, qn, 2);
    cudaDestroyTextureObject(tu); cudaDestroyTextureObject(tn); cudaFreeArray(a);
    // layered 2D, 2 layers of 24x20, normalized coordinates
    cudaArray_t la;
    CHECK(cudaMalloc3DArray(&la, &cd, make_cudaExtent(WX, WY, 2), cudaArrayLayered));
    std::vector<float> hl(WX * WY * 2);
    for (auto &v : hl) v = rval();
    cudaMemcpy3DParms p; memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(hl.data(), WX * 4, WX, WY);
    p.dstArray = la; p.extent = make_cudaExtent(WX, WY, 2); p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    for (int i = 0; i < WX * WY * 2; ++i) printf("bila.texel %d | %08x\n", i, fb(hl[i]));
    cudaTextureObject_t tl = make_tex(arr_res(la), cudaFilterModeLinear, true, cudaFilterModePoint, 0);
    std::vector<Q> ql;
    for (int i = 0; i < 1024; ++i) ql.push_back(mk(urand(), urand(), (float)(i & 1)));
    go("bila", k_tex2dl, tl, ql, 3);
    cudaDestroyTextureObject(tl); cudaFreeArray(la);
    // layered 2D ramp, 13x7, 2 layers, texel = x + 16 y + 256 layer: normalized coordinates -> (i0+wx, j0+wy)
    {
      const int LX = 13, LY = 7;
      cudaArray_t ra;
      CHECK(cudaMalloc3DArray(&ra, &cd, make_cudaExtent(LX, LY, 2), cudaArrayLayered));
      std::vector<float> hr(LX * LY * 2);
      for (int l = 0; l < 2; ++l) for (int y = 0; y < LY; ++y) for (int x = 0; x < LX; ++x) hr[(l * LY + y) * LX + x] = x + 16.f * y + 256.f * l;
      cudaMemcpy3DParms pr; memset(&pr, 0, sizeof pr);
      pr.srcPtr = make_cudaPitchedPtr(hr.data(), LX * 4, LX, LY);
      pr.dstArray = ra; pr.extent = make_cudaExtent(LX, LY, 2); pr.kind = cudaMemcpyHostToDevice;
      CHECK(cudaMemcpy3D(&pr));
      cudaTextureObject_t tr = make_tex(arr_res(ra), cudaFilterModeLinear, true, cudaFilterModePoint, 0);
      std::vector<Q> qr;
      for (int i = 0; i < 1024; ++i) qr.push_back(mk(urand(), urand(), (float)(i & 1)));
      go("lramp", k_tex2dl, tr, qr, 3);
      cudaDestroyTextureObject(tr); cudaFreeArray(ra);
    }
    // 3D random texels, 8x6x5, normalized coordinates
    {
      cudaArray_t a3;
      CHECK(cudaMalloc3DArray(&a3, &cd, make_cudaExtent(8, 6, 5), 0));
      std::vector<float> h3(8 * 6 * 5);
      for (auto &v : h3) v = rval();
      cudaMemcpy3DParms p3; memset(&p3, 0, sizeof p3);
      p3.srcPtr = make_cudaPitchedPtr(h3.data(), 8 * 4, 8, 6);
      p3.dstArray = a3; p3.extent = make_cudaExtent(8, 6, 5); p3.kind = cudaMemcpyHostToDevice;
      CHECK(cudaMemcpy3D(&p3));
      for (size_t i = 0; i < h3.size(); ++i) printf("tex3.texel %zu | %08x\n", i, fb(h3[i]));
      cudaTextureObject_t t3 = make_tex(arr_res(a3), cudaFilterModeLinear, true, cudaFilterModePoint, 0);
      std::vector<Q> q3;
      for (int i = 0; i < 1024; ++i) q3.push_back(mk(urand(), urand(), urand()));
      go("tex3", k_tex3d, t3, q3, 3);
      cudaDestroyTextureObject(t3); cudaFreeArray(a3);
    }
    // 1D random texels
    const int W1 = 40;
    cudaArray_t a1;
    CHECK(cudaMallocArray(&a1, &cd, W1, 0));
    std::vector<float> h1(W1);
    for (auto &v : h1) v = rval();
    CHECK(cudaMemcpy2DToArray(a1, 0, 0, h1.data(), W1 * 4, W1 * 4, 1, cudaMemcpyHostToDevice));
    for (int i = 0; i < W1; ++i) printf("lin1.texel %d | %08x\n", i, fb(h1[i]));
    cudaTextureObject_t t1 = make_tex(arr_res(a1), cudaFilterModeLinear, false, cudaFilterModePoint, 0);
    std::vector<Q> q1;
    for (int i = 0; i < 1024; ++i) q1.push_back(mk(urand() * W1));
    go("lin1", k_tex1d, t1, q1, 1);
    cudaDestroyTextureObject(t1); cudaFreeArray(a1);
  }
  // ---- mip blend arithmetic and trilinear on random texels: 32x32, 6 levels
  {
    std::vector<float> lc(6);
    for (auto &v : lc) v = rval();
    for (int l = 0; l < 6; ++l) printf("mipb.level %d | %08x\n", l, fb(lc[l]));
    cudaMipmappedArray_t m = mip2d(32, 32, 6, [&](int l, int, int) { return lc[l]; });
    cudaTextureObject_t tb = make_tex(mip_res(m), cudaFilterModePoint, true, cudaFilterModeLinear, 5);
    std::vector<Q> q;
    for (int i = 0; i < 2048; ++i) q.push_back(mk(0.3f, 0.6f, urand() * 5.5f - 0.25f));
    go("mipb", k_lod2d, tb, q, 3);
    cudaDestroyTextureObject(tb); cudaFreeMipmappedArray(m);
    std::vector<std::vector<float>> tv(6);
    for (int l = 0; l < 6; ++l) { tv[l].resize((32 >> l) * (32 >> l)); for (auto &v : tv[l]) v = rval(); }
    for (int l = 0; l < 6; ++l) for (size_t i = 0; i < tv[l].size(); ++i) printf("tri.texel %d %zu | %08x\n", l, i, fb(tv[l][i]));
    cudaMipmappedArray_t m2 = mip2d(32, 32, 6, [&](int l, int x, int y) { return tv[l][y * (32 >> l) + x]; });
    cudaTextureObject_t tt = make_tex(mip_res(m2), cudaFilterModeLinear, true, cudaFilterModeLinear, 5);
    std::vector<Q> q2;
    for (int i = 0; i < 2048; ++i) q2.push_back(mk(urand(), urand(), urand() * 5.5f - 0.25f));
    go("tri", k_lod2d, tt, q2, 3);
    cudaDestroyTextureObject(tt); cudaFreeMipmappedArray(m2);
  }
  printf("tex_fit_probe done\n");
  return 0;
}

// tex_weights2_probe (session 7, not yet run on the H200): what tex_weights_probe's one-hot
// recording could not separate. Session 7 fitted every one-hot weight of tex_weights_probe exactly
// (3D 2x2x2 and 2D 4x4 / 2x2 trilinear), yet tex_fit_probe's random-texel tex3 (8x6x5) and tri
// (32x32, 6 levels) samples still differ in ~12% / ~6% of lines by one 1/256 moved between y
// neighbours. These groups tell whether that comes from the extents / levels (one-hot weights
// at the same extents) or from the texel values (the same coordinates on random texels), and
// measure the forms no recording covers yet. Lines: "group i inputs(hex fp32)... | outputs".
//  - w3dx:  3D 8x6x5 one-hot, clamp, normalized random (x, y, z): "texel:weight*256" for every
//           texel of nonzero weight (x fastest; "texel:x<bits>" if not a multiple of 1/256).
//  - v3dx:  the same coordinates on random texels (printed as v3dx.texel): result bits.
//  - wtrix: 2D 32x32, 6 levels, linear/linear, random (x, y) and LOD in [-0.25, 5.25]:
//           "level.texel:weight*256" for every texel of nonzero weight.
//  - vtrix: the same coordinates on random texels (vtrix.texel): result bits.
//  - g3:    tex3DGrad on a 3D 16x16x16 5-level array whose level L is the constant L (point min,
//           linear mip filter): random 3-component dx, dy; result = the LOD (x256 an integer).
//  - gcube: texCubemapGrad on a 16x16 5-level cube map, level L = L: random direction and 3D
//           gradients; result = the LOD. gcubel: texCubemapLod with random LOD, same texture.
//  - u8 / u16: 2D 7x5 uchar1 / ushort1, cudaReadModeNormalizedFloat, linear, random texels and
//           coordinates: result bits. h16: the same with half texels (cudaReadModeElementType).
// Argument: a seed (default 1). Build: nvcc -O2 -std=c++17 -arch=sm_90 tex_weights2_probe.cu
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d FAIL\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

static uint32_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t rng_state = 1;
static uint32_t rnd() {
  rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 2685821657736338717ull) >> 32);
}
static float urand() { return (rnd() >> 8) * (1.0f / 16777216.0f); }
static float rval() { return (float)(rnd() % 1000) + urand(); }

struct Q { float v[8]; };
__global__ void k_3d(cudaTextureObject_t t, const Q *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex3D<float>(t, q[i].v[0], q[i].v[1], q[i].v[2]);
}
__global__ void k_lod2d(cudaTextureObject_t t, const Q *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DLod<float>(t, q[i].v[0], q[i].v[1], q[i].v[2]);
}
__global__ void k_2d(cudaTextureObject_t t, const Q *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2D<float>(t, q[i].v[0], q[i].v[1]);
}
__global__ void k_grad3d(cudaTextureObject_t t, const Q *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex3DGrad<float>(t, q[i].v[0], q[i].v[1], q[i].v[2], make_float4(q[i].v[3], q[i].v[4], q[i].v[5], 0),
                                     make_float4(q[i].v[6], q[i].v[7], 0.1f * q[i].v[3], 0));
}
__global__ void k_gradcube(cudaTextureObject_t t, const Q *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = texCubemapGrad<float>(t, q[i].v[0], q[i].v[1], q[i].v[2], make_float4(q[i].v[3], q[i].v[4], q[i].v[5], 0),
                                          make_float4(q[i].v[6], q[i].v[7], 0.1f * q[i].v[3], 0));
}
__global__ void k_lodcube(cudaTextureObject_t t, const Q *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = texCubemapLod<float>(t, q[i].v[0], q[i].v[1], q[i].v[2], q[i].v[3]);
}
typedef void (*Kern)(cudaTextureObject_t, const Q *, float *, int);

static std::vector<float> run(Kern k, cudaTextureObject_t t, const std::vector<Q> &q) {
  int n = (int)q.size();
  Q *dq; float *d;
  CHECK(cudaMalloc(&dq, n * sizeof(Q))); CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMemcpy(dq, q.data(), n * sizeof(Q), cudaMemcpyHostToDevice));
  k<<<(n + 127) / 128, 128>>>(t, dq, d, n);
  CHECK(cudaGetLastError());
  std::vector<float> o(n);
  CHECK(cudaMemcpy(o.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  cudaFree(dq); cudaFree(d);
  return o;
}
static cudaTextureObject_t tex(cudaResourceDesc rd, cudaTextureFilterMode f, cudaTextureFilterMode mipf, float maxL,
                               cudaTextureReadMode rm = cudaReadModeElementType) {
  cudaTextureDesc td; memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = f; td.readMode = rm; td.normalizedCoords = 1;
  td.mipmapFilterMode = mipf; td.maxMipmapLevelClamp = maxL;
  cudaTextureObject_t t; CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  return t;
}
static cudaResourceDesc arr(cudaArray_t a) {
  cudaResourceDesc rd; memset(&rd, 0, sizeof rd); rd.resType = cudaResourceTypeArray; rd.res.array.array = a; return rd;
}
static cudaResourceDesc mip(cudaMipmappedArray_t m) {
  cudaResourceDesc rd; memset(&rd, 0, sizeof rd); rd.resType = cudaResourceTypeMipmappedArray; rd.res.mipmap.mipmap = m; return rd;
}
static void inputs(const char *g, size_t i, const Q &q, int nin) {
  printf("%s %zu", g, i);
  for (int k = 0; k < nin; ++k) printf(" %08x", fb(q.v[k]));
  printf(" |");
}
static void wt(const char *pre, float v) {
  float s = v * 256.0f;
  if (s == floorf(s)) printf(" %s:%d", pre, (int)s); else printf(" %s:x%08x", pre, fb(v));
}

// 3D 8x6x5 array of values v
static cudaArray_t arr3(const std::vector<float> &v) {
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t a; CHECK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(8, 6, 5), 0));
  cudaMemcpy3DParms p; memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr((void *)v.data(), 8 * 4, 8, 6); p.dstArray = a;
  p.extent = make_cudaExtent(8, 6, 5); p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  return a;
}
// 2D 32x32 6-level mipmapped array; val(level, index)
template <class F> static cudaMipmappedArray_t mip2(F val) {
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t m; CHECK(cudaMallocMipmappedArray(&m, &cd, make_cudaExtent(32, 32, 0), 6));
  for (int l = 0; l < 6; ++l) {
    cudaArray_t a; CHECK(cudaGetMipmappedArrayLevel(&a, m, l));
    int w = 32 >> l;
    std::vector<float> v(w * w);
    for (int i = 0; i < w * w; ++i) v[i] = val(l, i);
    CHECK(cudaMemcpy2DToArray(a, 0, 0, v.data(), w * 4, w * 4, w, cudaMemcpyHostToDevice));
  }
  return m;
}

int main(int argc, char **argv) {
  uint64_t seed = argc > 1 ? strtoull(argv[1], nullptr, 10) : 1;
  rng_state = 0x9e3779b97f4a7c15ull ^ (seed * 0x100000001b3ull);
  for (int i = 0; i < 8; ++i) rnd();
  printf("seed %llu\n", (unsigned long long)seed);
  { // w3dx / v3dx
    const int N = 1024, NT = 8 * 6 * 5;
    std::vector<Q> q(N);
    for (auto &x : q) { memset(&x, 0, sizeof x); x.v[0] = urand(); x.v[1] = urand(); x.v[2] = urand(); }
    std::vector<std::vector<float>> w(NT);
    for (int t = 0; t < NT; ++t) {
      std::vector<float> v(NT, 0.0f); v[t] = 1.0f;
      cudaArray_t a = arr3(v);
      cudaTextureObject_t to = tex(arr(a), cudaFilterModeLinear, cudaFilterModePoint, 0);
      w[t] = run(k_3d, to, q);
      cudaDestroyTextureObject(to); cudaFreeArray(a);
    }
    for (int i = 0; i < N; ++i) {
      inputs("w3dx", i, q[i], 3);
      for (int t = 0; t < NT; ++t) if (w[t][i] != 0.0f) { char b[16]; snprintf(b, sizeof b, "%d", t); wt(b, w[t][i]); }
      printf("\n");
    }
    std::vector<float> v(NT);
    for (auto &x : v) x = rval();
    for (int t = 0; t < NT; ++t) printf("v3dx.texel %d | %08x\n", t, fb(v[t]));
    cudaArray_t a = arr3(v);
    cudaTextureObject_t to = tex(arr(a), cudaFilterModeLinear, cudaFilterModePoint, 0);
    std::vector<float> o = run(k_3d, to, q);
    for (int i = 0; i < N; ++i) { inputs("v3dx", i, q[i], 3); printf(" %08x\n", fb(o[i])); }
    cudaDestroyTextureObject(to); cudaFreeArray(a);
  }
  { // wtrix / vtrix
    const int N = 1024;
    std::vector<Q> q(N);
    for (auto &x : q) { memset(&x, 0, sizeof x); x.v[0] = urand(); x.v[1] = urand(); x.v[2] = urand() * 5.5f - 0.25f; }
    struct Hit { int l, i; float w; };
    std::vector<std::vector<Hit>> hits(N);
    for (int l = 0; l < 6; ++l)
      for (int t = 0; t < (32 >> l) * (32 >> l); ++t) {
        cudaMipmappedArray_t m = mip2([&](int ll, int ii) { return ll == l && ii == t ? 1.0f : 0.0f; });
        cudaTextureObject_t to = tex(mip(m), cudaFilterModeLinear, cudaFilterModeLinear, 5);
        std::vector<float> o = run(k_lod2d, to, q);
        for (int i = 0; i < N; ++i) if (o[i] != 0.0f) hits[i].push_back({l, t, o[i]});
        cudaDestroyTextureObject(to); cudaFreeMipmappedArray(m);
      }
    for (int i = 0; i < N; ++i) {
      inputs("wtrix", i, q[i], 3);
      for (auto &h : hits[i]) { char b[24]; snprintf(b, sizeof b, "%d.%d", h.l, h.i); wt(b, h.w); }
      printf("\n");
    }
    std::vector<std::vector<float>> tv(6);
    for (int l = 0; l < 6; ++l) { tv[l].resize((32 >> l) * (32 >> l)); for (auto &v : tv[l]) v = rval(); }
    for (int l = 0; l < 6; ++l) for (size_t i = 0; i < tv[l].size(); ++i) printf("vtrix.texel %d %zu | %08x\n", l, i, fb(tv[l][i]));
    cudaMipmappedArray_t m = mip2([&](int l, int i) { return tv[l][i]; });
    cudaTextureObject_t to = tex(mip(m), cudaFilterModeLinear, cudaFilterModeLinear, 5);
    std::vector<float> o = run(k_lod2d, to, q);
    for (int i = 0; i < N; ++i) { inputs("vtrix", i, q[i], 3); printf(" %08x\n", fb(o[i])); }
    cudaDestroyTextureObject(to); cudaFreeMipmappedArray(m);
  }
  { // g3: 3D 16^3, 5 levels, level L = L
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t m; CHECK(cudaMallocMipmappedArray(&m, &cd, make_cudaExtent(16, 16, 16), 5));
    for (int l = 0; l < 5; ++l) {
      cudaArray_t a; CHECK(cudaGetMipmappedArrayLevel(&a, m, l));
      int w = 16 >> l;
      std::vector<float> v(w * w * w, (float)l);
      cudaMemcpy3DParms p; memset(&p, 0, sizeof p);
      p.srcPtr = make_cudaPitchedPtr(v.data(), w * 4, w, w); p.dstArray = a;
      p.extent = make_cudaExtent(w, w, w); p.kind = cudaMemcpyHostToDevice;
      CHECK(cudaMemcpy3D(&p));
    }
    cudaTextureObject_t to = tex(mip(m), cudaFilterModePoint, cudaFilterModeLinear, 4);
    std::vector<Q> q(2048);
    for (auto &x : q) {
      memset(&x, 0, sizeof x); x.v[0] = 0.4f; x.v[1] = 0.45f; x.v[2] = 0.5f;
      for (int k = 3; k < 8; ++k) x.v[k] = (urand() * 2 - 1) * exp2f(urand() * 5) / 16;
    }
    std::vector<float> o = run(k_grad3d, to, q);
    for (size_t i = 0; i < q.size(); ++i) { inputs("g3", i, q[i], 8); printf(" %08x\n", fb(o[i])); }
    cudaDestroyTextureObject(to); cudaFreeMipmappedArray(m);
  }
  { // gcube / gcubel: 16x16 cube map, 5 levels, level L = L
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t m;
    CHECK(cudaMallocMipmappedArray(&m, &cd, make_cudaExtent(16, 16, 6), 5, cudaArrayCubemap));
    for (int l = 0; l < 5; ++l) {
      cudaArray_t a; CHECK(cudaGetMipmappedArrayLevel(&a, m, l));
      int w = 16 >> l;
      std::vector<float> v(w * w * 6, (float)l);
      cudaMemcpy3DParms p; memset(&p, 0, sizeof p);
      p.srcPtr = make_cudaPitchedPtr(v.data(), w * 4, w, w); p.dstArray = a;
      p.extent = make_cudaExtent(w, w, 6); p.kind = cudaMemcpyHostToDevice;
      CHECK(cudaMemcpy3D(&p));
    }
    cudaTextureObject_t to = tex(mip(m), cudaFilterModePoint, cudaFilterModeLinear, 4);
    std::vector<Q> q(2048);
    for (auto &x : q) {
      memset(&x, 0, sizeof x);
      for (int k = 0; k < 3; ++k) x.v[k] = urand() * 2 - 1;
      for (int k = 3; k < 8; ++k) x.v[k] = (urand() * 2 - 1) * exp2f(urand() * 5) / 16;
    }
    std::vector<float> o = run(k_gradcube, to, q);
    for (size_t i = 0; i < q.size(); ++i) { inputs("gcube", i, q[i], 8); printf(" %08x\n", fb(o[i])); }
    for (auto &x : q) x.v[3] = urand() * 4.5f - 0.25f;
    o = run(k_lodcube, to, q);
    for (size_t i = 0; i < q.size(); ++i) { inputs("gcubel", i, q[i], 4); printf(" %08x\n", fb(o[i])); }
    cudaDestroyTextureObject(to); cudaFreeMipmappedArray(m);
  }
  { // u8 / u16 / h16: 2D 7x5, linear
    const int W = 7, H = 5;
    std::vector<Q> q(2048);
    for (auto &x : q) { memset(&x, 0, sizeof x); x.v[0] = urand() * 1.2f - 0.1f; x.v[1] = urand() * 1.2f - 0.1f; }
    for (int kind = 0; kind < 3; ++kind) {
      const char *g = kind == 0 ? "u8" : kind == 1 ? "u16" : "h16";
      cudaChannelFormatDesc cd = kind == 0 ? cudaCreateChannelDesc<unsigned char>()
                                 : kind == 1 ? cudaCreateChannelDesc<unsigned short>() : cudaCreateChannelDescHalf();
      size_t es = kind == 0 ? 1 : 2;
      std::vector<uint16_t> v(W * H);
      for (auto &x : v) {
        x = (uint16_t)(kind == 0 ? rnd() & 0xff : kind == 1 ? rnd() & 0xffff : 0);
        if (kind == 2) { __half h = __float2half(rval() / 100.0f); memcpy(&x, &h, 2); }
      }
      std::vector<uint8_t> bytes(W * H * es);
      for (int i = 0; i < W * H; ++i) {
        if (es == 1) bytes[i] = (uint8_t)v[i]; else memcpy(&bytes[2 * i], &v[i], 2);
        printf("%s.texel %d | %04x\n", g, i, v[i]);
      }
      cudaArray_t a; CHECK(cudaMallocArray(&a, &cd, W, H));
      CHECK(cudaMemcpy2DToArray(a, 0, 0, bytes.data(), W * es, W * es, H, cudaMemcpyHostToDevice));
      cudaTextureObject_t to = tex(arr(a), cudaFilterModeLinear, cudaFilterModePoint, 0,
                                   kind == 2 ? cudaReadModeElementType : cudaReadModeNormalizedFloat);
      std::vector<float> o = run(k_2d, to, q);
      for (size_t i = 0; i < q.size(); ++i) { inputs(g, i, q[i], 2); printf(" %08x\n", fb(o[i])); }
      cudaDestroyTextureObject(to); cudaFreeArray(a);
    }
  }
  printf("tex_weights2_probe done\n");
  return 0;
}

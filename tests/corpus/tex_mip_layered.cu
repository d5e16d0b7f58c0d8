// Mipmapped layered arrays and mipmapped cube maps, used the way renderers use them: a texture
// atlas of 4 layers with a 6-level mip chain (cudaMallocMipmappedArray + cudaArrayLayered, every
// level uploaded through cudaGetMipmappedArrayLevel + cudaMemcpy3D), a float4 environment cube map
// with 5 prefiltered levels (cudaArrayCubemap), a layered cube map (cudaArrayCubemap |
// cudaArrayLayered) and a layered 1D mip chain. It samples them at explicit LODs (tex.level:
// tex1DLayeredLod, tex2DLayeredLod, texCubemapLod, texCubemapLayeredLod) and from derivatives
// (tex.grad: tex2DLayeredGrad, texCubemapGrad, and tex.grad.acube through inline PTX, which CUDA
// has no intrinsic for), with point filtering (checked exactly) and with linear filtering and
// linear mip blending (checked against a double-precision CPU reference within 0.006: the texture
// unit's 8-bit weights and LOD fraction move these texels' results by up to ~0.003). A reflection kernel computes
// mirror directions on the device and looks them up with a roughness-dependent LOD.
// Every texel is k + 0.125 L + 0.0625 h (k the layer / face, L the level, h a hash in [0,1)), so
// a wrong layer, face or level is far outside the tolerance. Point samples sit at least 0.15
// texel from a texel edge at level 0 (so at every level), LODs at least 0.15 from a rounding
// point; linear cube lookups stay inside a face (no edge filtering) and at LOD <= 2.95; cube
// gradients are along one face axis at a direction whose major component is 1 (dPdy = 0), where
// the H200's LOD is log2(|g| W / 2) (tex_weights3_probe gcubea). Output: one line per group
// (samples, wrong ones, and for exact groups an FNV hash of the results), the level extents
// cudaArrayGetInfo reports, and PASS / FAIL.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("CUDA error %s at line %d FAIL\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint32_t rnd() { rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27; return (uint32_t)((rng * 2685821657736338717ull) >> 32); }
static float urand() { return (rnd() >> 8) * (1.0f / 16777216.0f); }
static float hashv(int a, int b, int c, int d) { // in [0,1), a multiple of 1/256
  uint32_t h = 2166136261u;
  for (int v : {a, b, c, d}) { h ^= (uint32_t)v; h *= 16777619u; h ^= h >> 13; }
  return (float)(h & 255u) / 256.0f;
}

// One query: coordinates / direction, LOD, two derivative vectors, the layer (or cube) index.
struct Q { float x, y, z, lod; float4 dx, dy; int layer, pad[3]; };
struct Res { float4 v; float4 r; }; // the sample (and, for the reflection kernel, the direction used)

__global__ void k_l2d_lod(cudaTextureObject_t t, const Q *q, Res *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i].v.x = tex2DLayeredLod<float>(t, q[i].x, q[i].y, q[i].layer, q[i].lod);
}
__global__ void k_l2d_grad(cudaTextureObject_t t, const Q *q, Res *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i].v.x = tex2DLayeredGrad<float>(t, q[i].x, q[i].y, q[i].layer, make_float2(q[i].dx.x, q[i].dx.y),
                                                make_float2(q[i].dy.x, q[i].dy.y));
}
__global__ void k_l1d_lod(cudaTextureObject_t t, const Q *q, Res *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i].v.x = tex1DLayeredLod<float>(t, q[i].x, q[i].layer, q[i].lod);
}
__global__ void k_cube_lod(cudaTextureObject_t t, const Q *q, Res *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i].v = texCubemapLod<float4>(t, q[i].x, q[i].y, q[i].z, q[i].lod);
}
__global__ void k_cube_grad(cudaTextureObject_t t, const Q *q, Res *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i].v = texCubemapGrad<float4>(t, q[i].x, q[i].y, q[i].z, q[i].dx, q[i].dy);
}
__global__ void k_acube_lod(cudaTextureObject_t t, const Q *q, Res *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i].v.x = texCubemapLayeredLod<float>(t, q[i].x, q[i].y, q[i].z, q[i].layer, q[i].lod);
}
__device__ float acube_grad(cudaTextureObject_t t, float x, float y, float z, int cube, float4 dx, float4 dy) {
  float r0, r1, r2, r3;
  asm volatile("tex.grad.acube.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6, %7, %8}], {%9, %10, %11, %12}, {%13, %14, %15, %16};"
               : "=f"(r0), "=f"(r1), "=f"(r2), "=f"(r3)
               : "l"(t), "r"(cube), "f"(x), "f"(y), "f"(z), "f"(dx.x), "f"(dx.y), "f"(dx.z), "f"(dx.w), "f"(dy.x),
                 "f"(dy.y), "f"(dy.z), "f"(dy.w));
  (void)r1; (void)r2; (void)r3;
  return r0;
}
__global__ void k_acube_grad(cudaTextureObject_t t, const Q *q, Res *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i].v.x = acube_grad(t, q[i].x, q[i].y, q[i].z, q[i].layer, q[i].dx, q[i].dy);
}
// Environment reflection: R = V - 2 (N.V) N / |N|^2, looked up at LOD = roughness * 2.95.
__global__ void k_reflect(cudaTextureObject_t env, const Q *q, Res *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float3 nv = make_float3(q[i].dx.x, q[i].dx.y, q[i].dx.z), v = make_float3(q[i].x, q[i].y, q[i].z);
  float k = 2.0f * (nv.x * v.x + nv.y * v.y + nv.z * v.z) / (nv.x * nv.x + nv.y * nv.y + nv.z * nv.z);
  float3 r = make_float3(v.x - k * nv.x, v.y - k * nv.y, v.z - k * nv.z);
  o[i].r = make_float4(r.x, r.y, r.z, 0.f);
  o[i].v = texCubemapLod<float4>(env, r.x, r.y, r.z, q[i].lod * 2.95f);
}
typedef void (*Kern)(cudaTextureObject_t, const Q *, Res *, int);

static std::vector<Res> run(Kern k, cudaTextureObject_t t, const std::vector<Q> &q) {
  int n = (int)q.size();
  Q *dq; Res *d;
  CHECK(cudaMalloc(&dq, n * sizeof(Q))); CHECK(cudaMalloc(&d, n * sizeof(Res)));
  CHECK(cudaMemcpy(dq, q.data(), n * sizeof(Q), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d, 0, n * sizeof(Res)));
  k<<<(n + 127) / 128, 128>>>(t, dq, d, n);
  CHECK(cudaGetLastError());
  std::vector<Res> o(n);
  CHECK(cudaMemcpy(o.data(), d, n * sizeof(Res), cudaMemcpyDeviceToHost));
  cudaFree(dq); cudaFree(d);
  return o;
}

static cudaTextureObject_t make_tex(cudaMipmappedArray_t m, cudaTextureFilterMode f, cudaTextureFilterMode mipf,
                                    float maxLevel) {
  cudaResourceDesc rd; memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeMipmappedArray; rd.res.mipmap.mipmap = m;
  cudaTextureDesc td; memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = f; td.readMode = cudaReadModeElementType; td.normalizedCoords = 1;
  td.mipmapFilterMode = mipf; td.maxMipmapLevelClamp = maxLevel; td.minMipmapLevelClamp = 0;
  cudaTextureObject_t t; CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  return t;
}

// ---- CPU reference. A level holds `layers` images of w x h texels of nc channels.
struct Level { int w, h, layers, nc; std::vector<float> v; };
static float fetch(const Level &L, int k, int x, int y, int c) {
  x = std::min(std::max(x, 0), L.w - 1); y = std::min(std::max(y, 0), L.h - 1);
  return L.v[(((size_t)k * L.h + y) * L.w + x) * L.nc + c];
}
static double texel_point(const Level &L, int k, double u, double v, int c) {
  return fetch(L, k, (int)floor(u * L.w), (int)floor(v * L.h), c);
}
static double texel_linear(const Level &L, int k, double u, double v, int c) {
  double x = u * L.w - 0.5, y = v * L.h - 0.5;
  int i = (int)floor(x), j = (int)floor(y);
  double a = x - i, b = y - j;
  return (1 - a) * (1 - b) * fetch(L, k, i, j, c) + a * (1 - b) * fetch(L, k, i + 1, j, c) +
         (1 - a) * b * fetch(L, k, i, j + 1, c) + a * b * fetch(L, k, i + 1, j + 1, c);
}
// A mip sample: LOD clamped to [0, top]; point mip = nearest level, linear = blend of two.
static double sample_mip(const std::vector<Level> &lv, int top, int k, double u, double v, double lod, bool linear,
                         bool linear_mip, int c) {
  lod = std::min(std::max(lod, 0.0), (double)top);
  auto at = [&](int l) { return linear ? texel_linear(lv[l], k, u, v, c) : texel_point(lv[l], k, u, v, c); };
  if (!linear_mip) return at((int)floor(lod + 0.5));
  int l0 = (int)floor(lod);
  double f = lod - l0;
  if (l0 >= top || f == 0) return at(l0);
  return (1 - f) * at(l0) + f * at(l0 + 1);
}
// Cube face and face coordinates (the CUDA programming guide's table).
static int cube_face(double x, double y, double z, double &s, double &t) {
  double ax = fabs(x), ay = fabs(y), az = fabs(z), sc, tc, m;
  int f;
  if (ax >= ay && ax >= az) { m = ax; if (x > 0) { f = 0; sc = -z; tc = -y; } else { f = 1; sc = z; tc = -y; } }
  else if (ay >= az) { m = ay; if (y > 0) { f = 2; sc = x; tc = z; } else { f = 3; sc = x; tc = -z; } }
  else { m = az; if (z > 0) { f = 4; sc = x; tc = -y; } else { f = 5; sc = -x; tc = -y; } }
  s = (sc / m + 1) * 0.5; t = (tc / m + 1) * 0.5;
  return f;
}
// The direction with face-f coordinates (s, t), major component 1, and the world axes of s and t.
static float3 cube_dir(int f, float s, float t, int *sax = nullptr, int *tax = nullptr) {
  float a = 2 * s - 1, b = 2 * t - 1;
  static const int SA[6] = {2, 2, 0, 0, 0, 0}, TA[6] = {1, 1, 2, 2, 1, 1};
  if (sax) { *sax = SA[f]; *tax = TA[f]; }
  switch (f) {
  case 0: return make_float3(1, -b, -a);
  case 1: return make_float3(-1, -b, a);
  case 2: return make_float3(a, 1, b);
  case 3: return make_float3(a, -1, -b);
  case 4: return make_float3(a, -b, 1);
  default: return make_float3(-a, -b, -1);
  }
}
// A coordinate in [lo, hi] at least 0.15 texel from a texel edge of an n-texel level 0.
static float safe_coord(int n, float lo = 0.0f, float hi = 1.0f) {
  for (;;) {
    float u = lo + (hi - lo) * urand(), fr = u * n - floorf(u * n);
    if (fr >= 0.15f && fr <= 0.85f) return u;
  }
}
// A LOD near L, at least 0.15 from L +- 0.5.
static float safe_lod(int L) { return (float)L + (urand() * 0.7f - 0.35f); }

static bool g_ok = true;
static uint32_t fnv(uint32_t h, float f) {
  uint32_t b; memcpy(&b, &f, 4);
  for (int k = 0; k < 4; ++k) { h ^= (b >> (8 * k)) & 0xff; h *= 16777619u; }
  return h;
}
// Exact group: every sample must equal the reference bit for bit.
static void report_exact(const char *g, const std::vector<float> &got, const std::vector<float> &want) {
  int bad = 0;
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < got.size(); ++i) {
    h = fnv(h, got[i]);
    if (memcmp(&got[i], &want[i], 4) != 0) {
      if (bad < 3) printf("  %s[%zu] = %.6f want %.6f\n", g, i, got[i], want[i]);
      ++bad;
    }
  }
  if (bad) g_ok = false;
  printf("%-16s n=%zu bad=%d fnv=%08x\n", g, got.size(), bad, h);
}
// Filtered group: every sample within tol of the reference.
static void report_tol(const char *g, const std::vector<float> &got, const std::vector<double> &want, double tol) {
  int bad = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (!(fabs(got[i] - want[i]) <= tol)) {
      if (bad < 3) printf("  %s[%zu] = %.6f want %.6f\n", g, i, got[i], want[i]);
      ++bad;
    }
  if (bad) g_ok = false;
  printf("%-16s n=%zu bad=%d\n", g, got.size(), bad);
}
static const double TOL = 0.006;

// Allocates a mipmapped array and uploads each level (cudaGetMipmappedArrayLevel + cudaMemcpy3D);
// prints the extent and flags cudaArrayGetInfo reports for each level.
static cudaMipmappedArray_t upload(const char *name, const std::vector<Level> &lv, cudaChannelFormatDesc cd,
                                   cudaExtent ext, unsigned flags) {
  cudaMipmappedArray_t m;
  CHECK(cudaMallocMipmappedArray(&m, &cd, ext, (unsigned)lv.size(), flags));
  for (size_t l = 0; l < lv.size(); ++l) {
    cudaArray_t a;
    CHECK(cudaGetMipmappedArrayLevel(&a, m, (unsigned)l));
    cudaChannelFormatDesc d; cudaExtent e; unsigned fl = 0;
    CHECK(cudaArrayGetInfo(&d, &e, &fl, a));
    printf("%s.level %zu extent %zu %zu %zu flags %u bits %d %d %d %d\n", name, l, e.width, e.height, e.depth, fl,
           d.x, d.y, d.z, d.w);
    const Level &L = lv[l];
    cudaMemcpy3DParms p; memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr((void *)L.v.data(), (size_t)L.w * L.nc * 4, L.w, L.h);
    p.dstArray = a;
    p.extent = make_cudaExtent(L.w, L.h, L.layers);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
  }
  return m;
}

static std::vector<float> xs(const std::vector<Res> &o) {
  std::vector<float> r(o.size());
  for (size_t i = 0; i < o.size(); ++i) r[i] = o[i].v.x;
  return r;
}

int main() {
  const int N = 384;
  // ---- the atlas: 32 x 16, 4 layers, 6 levels (32x16 .. 1x1)
  {
    const int W = 32, H = 16, K = 4, NL = 6;
    std::vector<Level> lv;
    for (int l = 0; l < NL; ++l) {
      Level L{std::max(W >> l, 1), std::max(H >> l, 1), K, 1, {}};
      for (int k = 0; k < K; ++k) for (int y = 0; y < L.h; ++y) for (int x = 0; x < L.w; ++x)
        L.v.push_back(k + 0.125f * l + 0.0625f * hashv(k, l, x, y));
      lv.push_back(L);
    }
    cudaMipmappedArray_t m = upload("atlas", lv, cudaCreateChannelDesc<float>(), make_cudaExtent(W, H, K), cudaArrayLayered);
    cudaTextureObject_t tpp = make_tex(m, cudaFilterModePoint, cudaFilterModePoint, NL - 1);
    cudaTextureObject_t tll = make_tex(m, cudaFilterModeLinear, cudaFilterModeLinear, NL - 1);
    cudaTextureObject_t tpl = make_tex(m, cudaFilterModePoint, cudaFilterModeLinear, NL - 1);
    cudaTextureObject_t tcl = make_tex(m, cudaFilterModePoint, cudaFilterModePoint, 2); // maxMipmapLevelClamp 2
    // explicit LODs, point / point: every level, below 0 and past the last
    std::vector<Q> q(N);
    std::vector<float> want(N), wantc(N);
    for (int i = 0; i < N; ++i) {
      Q &x = q[i]; memset(&x, 0, sizeof x);
      x.x = safe_coord(W); x.y = safe_coord(H); x.layer = (int)(rnd() % K);
      x.lod = i % 8 == 7 ? -1.5f - urand() : safe_lod((int)(rnd() % (NL + 1)));
      want[i] = (float)sample_mip(lv, NL - 1, x.layer, x.x, x.y, x.lod, false, false, 0);
      wantc[i] = (float)sample_mip(lv, 2, x.layer, x.x, x.y, x.lod, false, false, 0);
    }
    report_exact("atlas.lod.pp", xs(run(k_l2d_lod, tpp, q)), want);
    report_exact("atlas.lod.clamp", xs(run(k_l2d_lod, tcl, q)), wantc);
    // explicit LODs, linear / linear and point / linear mip, anywhere in the layer
    std::vector<Q> ql(N);
    std::vector<double> wll(N), wpl(N);
    for (int i = 0; i < N; ++i) {
      Q &x = ql[i]; memset(&x, 0, sizeof x);
      x.x = urand(); x.y = urand(); x.layer = (int)(rnd() % K); x.lod = urand() * 6.0f - 0.5f;
      wll[i] = sample_mip(lv, NL - 1, x.layer, x.x, x.y, x.lod, true, true, 0);
    }
    report_tol("atlas.lod.ll", xs(run(k_l2d_lod, tll, ql)), wll, TOL);
    for (int i = 0; i < N; ++i) {
      Q &x = ql[i]; x.x = safe_coord(W); x.y = safe_coord(H);
      wpl[i] = sample_mip(lv, NL - 1, x.layer, x.x, x.y, x.lod, false, true, 0);
    }
    report_tol("atlas.lod.pl", xs(run(k_l2d_lod, tpl, ql)), wpl, TOL);
    // derivatives: dPdx along u of |g| W = 2^lod texels, dPdy along v four times shorter
    std::vector<Q> qg(N);
    std::vector<float> wg(N);
    std::vector<double> wgl(N);
    for (int i = 0; i < N; ++i) {
      Q &x = qg[i]; memset(&x, 0, sizeof x);
      x.x = safe_coord(W); x.y = safe_coord(H); x.layer = (int)(rnd() % K);
      float lod = i % 8 == 7 ? -1.0f - 2 * urand() : safe_lod((int)(rnd() % NL));
      float g = exp2f(lod) / W;
      x.dx = make_float4(g, 0, 0, 0); x.dy = make_float4(0, g * W / H / 4, 0, 0);
      wg[i] = (float)sample_mip(lv, NL - 1, x.layer, x.x, x.y, lod, false, false, 0);
    }
    report_exact("atlas.grad.pp", xs(run(k_l2d_grad, tpp, qg)), wg);
    for (int i = 0; i < N; ++i) {
      Q &x = qg[i];
      float lod = urand() * 6.0f - 0.5f, g = exp2f(lod) / W;
      x.x = urand(); x.y = urand();
      x.dx = make_float4(0, 0, 0, 0); x.dy = make_float4(0, 0, 0, 0);
      if (i & 1) { x.dx.x = g / 4; x.dy.y = g * W / H; } else { x.dx.x = g; x.dy.y = g * W / H / 4; }
      wgl[i] = sample_mip(lv, NL - 1, x.layer, x.x, x.y, lod, true, true, 0);
    }
    report_tol("atlas.grad.ll", xs(run(k_l2d_grad, tll, qg)), wgl, TOL);
    cudaDestroyTextureObject(tpp); cudaDestroyTextureObject(tll); cudaDestroyTextureObject(tpl);
    cudaDestroyTextureObject(tcl);
    CHECK(cudaFreeMipmappedArray(m));
  }
  // ---- the environment: float4 cube map 16 x 16 x 6, 5 levels; channel 0 names the face
  {
    const int W = 16, NL = 5;
    std::vector<Level> lv;
    for (int l = 0; l < NL; ++l) {
      Level L{W >> l, W >> l, 6, 4, {}};
      for (int f = 0; f < 6; ++f) for (int y = 0; y < L.h; ++y) for (int x = 0; x < L.w; ++x) {
        L.v.push_back(f + 0.125f * l + 0.0625f * hashv(f, l, x, y));
        L.v.push_back(0.125f * l + 0.0625f * hashv(f + 6, l, x, y));
        L.v.push_back(0.75f - 0.125f * l + 0.0625f * hashv(f + 12, l, x, y));
        L.v.push_back(1.0f);
      }
      lv.push_back(L);
    }
    cudaMipmappedArray_t m = upload("env", lv, cudaCreateChannelDesc<float4>(), make_cudaExtent(W, W, 6), cudaArrayCubemap);
    cudaTextureObject_t tpp = make_tex(m, cudaFilterModePoint, cudaFilterModePoint, NL - 1);
    cudaTextureObject_t tll = make_tex(m, cudaFilterModeLinear, cudaFilterModeLinear, NL - 1);
    // texCubemapLod, point / point: directions of every face, scaled
    std::vector<Q> q(N);
    std::vector<float> want[4];
    for (auto &w : want) w.resize(N);
    for (int i = 0; i < N; ++i) {
      Q &x = q[i]; memset(&x, 0, sizeof x);
      int f = i % 6;
      float3 d = cube_dir(f, safe_coord(W), safe_coord(W));
      float sc = 0.5f + 1.5f * urand();
      x.x = d.x * sc; x.y = d.y * sc; x.z = d.z * sc;
      x.lod = i % 8 == 7 ? 4.6f + urand() : safe_lod((int)(rnd() % NL));
      double s, t;
      int ff = cube_face(x.x, x.y, x.z, s, t);
      for (int c = 0; c < 4; ++c) want[c][i] = (float)sample_mip(lv, NL - 1, ff, s, t, x.lod, false, false, c);
    }
    std::vector<Res> o = run(k_cube_lod, tpp, q);
    for (int c = 0; c < 4; ++c) {
      std::vector<float> got(N);
      for (int i = 0; i < N; ++i) got[i] = (&o[i].v.x)[c];
      char g[32]; snprintf(g, sizeof g, "env.lod.pp.%c", "rgba"[c]);
      report_exact(g, got, want[c]);
    }
    // texCubemapLod, linear / linear, inside the faces (face coordinates 0.3 .. 0.7), LOD <= 2.95
    std::vector<double> wl[4];
    for (auto &w : wl) w.resize(N);
    for (int i = 0; i < N; ++i) {
      Q &x = q[i]; memset(&x, 0, sizeof x);
      float3 d = cube_dir(i % 6, 0.3f + 0.4f * urand(), 0.3f + 0.4f * urand());
      x.x = d.x; x.y = d.y; x.z = d.z; x.lod = urand() * 3.45f - 0.5f;
      double s, t;
      int ff = cube_face(x.x, x.y, x.z, s, t);
      for (int c = 0; c < 4; ++c) wl[c][i] = sample_mip(lv, NL - 1, ff, s, t, x.lod, true, true, c);
    }
    o = run(k_cube_lod, tll, q);
    for (int c = 0; c < 4; ++c) {
      std::vector<float> got(N);
      for (int i = 0; i < N; ++i) got[i] = (&o[i].v.x)[c];
      char g[32]; snprintf(g, sizeof g, "env.lod.ll.%c", "rgba"[c]);
      report_tol(g, got, wl[c], TOL);
    }
    // reflections: normals and view vectors of a sphere seen from +z, roughness 0 .. 1; the
    // lookups whose direction lands inside a face (0.3 .. 0.7) are checked
    for (int i = 0; i < N; ++i) {
      Q &x = q[i]; memset(&x, 0, sizeof x);
      float a = urand() * 6.2831853f, r = sqrtf(urand()) * 0.95f;
      float nx = r * cosf(a), ny = r * sinf(a), nz = sqrtf(1.0f - r * r);
      x.dx = make_float4(nx * 2.0f, ny * 2.0f, nz * 2.0f, 0); // unnormalized normal
      x.x = 0.1f * (urand() - 0.5f); x.y = 0.1f * (urand() - 0.5f); x.z = -1.0f; // view direction
      x.lod = urand();
    }
    o = run(k_reflect, tll, q);
    int nchk = 0, bad = 0;
    for (int i = 0; i < N; ++i) {
      double s, t;
      int ff = cube_face(o[i].r.x, o[i].r.y, o[i].r.z, s, t);
      if (s < 0.3 || s > 0.7 || t < 0.3 || t > 0.7) continue;
      ++nchk;
      double lod = (double)(q[i].lod * 2.95f);
      for (int c = 0; c < 4; ++c)
        if (!(fabs((&o[i].v.x)[c] - sample_mip(lv, NL - 1, ff, s, t, lod, true, true, c)) <= TOL)) ++bad;
    }
    if (bad || nchk < N / 20) g_ok = false;
    printf("%-16s n=%d bad=%d\n", "env.reflect", N, bad);
    // texCubemapGrad, point / point: dPdx along one face axis, |g| W / 2 = 2^lod texels, dPdy = 0
    for (int i = 0; i < N; ++i) {
      Q &x = q[i]; memset(&x, 0, sizeof x);
      int f = i % 6, sax, tax;
      float3 d = cube_dir(f, safe_coord(W, 0.35f, 0.65f), safe_coord(W, 0.35f, 0.65f), &sax, &tax);
      x.x = d.x; x.y = d.y; x.z = d.z;
      float lod = i % 8 == 7 ? -1.0f - 2 * urand() : std::min(safe_lod((int)(rnd() % 4)), 3.0f);
      float g = exp2f(lod) * 2 / W * ((rnd() & 1) ? 1.f : -1.f);
      (&x.dx.x)[(i / 6) % 2 ? sax : tax] = g;
      double s, t;
      int ff = cube_face(x.x, x.y, x.z, s, t);
      for (int c = 0; c < 4; ++c) want[c][i] = (float)sample_mip(lv, NL - 1, ff, s, t, lod, false, false, c);
    }
    o = run(k_cube_grad, tpp, q);
    for (int c = 0; c < 4; ++c) {
      std::vector<float> got(N);
      for (int i = 0; i < N; ++i) got[i] = (&o[i].v.x)[c];
      char g[32]; snprintf(g, sizeof g, "env.grad.pp.%c", "rgba"[c]);
      report_exact(g, got, want[c]);
    }
    cudaDestroyTextureObject(tpp); cudaDestroyTextureObject(tll);
    CHECK(cudaFreeMipmappedArray(m));
  }
  // ---- a layered cube map: 2 cubes of 8 x 8 faces, 4 levels; texel = 10 cube + face + ...
  {
    const int W = 8, C = 2, NL = 4;
    std::vector<Level> lv;
    for (int l = 0; l < NL; ++l) {
      Level L{W >> l, W >> l, 6 * C, 1, {}};
      for (int k = 0; k < 6 * C; ++k) for (int y = 0; y < L.h; ++y) for (int x = 0; x < L.w; ++x)
        L.v.push_back(10.0f * (k / 6) + (k % 6) + 0.125f * l + 0.0625f * hashv(k, l, x, y));
      lv.push_back(L);
    }
    cudaMipmappedArray_t m = upload("cubes", lv, cudaCreateChannelDesc<float>(), make_cudaExtent(W, W, 6 * C),
                                    cudaArrayCubemap | cudaArrayLayered);
    cudaTextureObject_t tpp = make_tex(m, cudaFilterModePoint, cudaFilterModePoint, NL - 1);
    std::vector<Q> q(N);
    std::vector<float> want(N);
    for (int i = 0; i < N; ++i) {
      Q &x = q[i]; memset(&x, 0, sizeof x);
      float3 d = cube_dir(i % 6, safe_coord(W), safe_coord(W));
      float sc = 0.5f + urand();
      x.x = d.x * sc; x.y = d.y * sc; x.z = d.z * sc; x.layer = (int)(rnd() % C);
      x.lod = safe_lod((int)(rnd() % (NL + 1)) - 1);
      double s, t;
      int ff = cube_face(x.x, x.y, x.z, s, t);
      want[i] = (float)sample_mip(lv, NL - 1, 6 * x.layer + ff, s, t, x.lod, false, false, 0);
    }
    report_exact("cubes.lod.pp", xs(run(k_acube_lod, tpp, q)), want);
    for (int i = 0; i < N; ++i) {
      Q &x = q[i]; memset(&x, 0, sizeof x);
      int f = i % 6, sax, tax;
      float3 d = cube_dir(f, safe_coord(W, 0.35f, 0.65f), safe_coord(W, 0.35f, 0.65f), &sax, &tax);
      x.x = d.x; x.y = d.y; x.z = d.z; x.layer = (int)(rnd() % C);
      float lod = i % 8 == 7 ? -1.0f - 2 * urand() : std::min(safe_lod((int)(rnd() % 3)), 2.0f);
      float g = exp2f(lod) * 2 / W * ((rnd() & 1) ? 1.f : -1.f);
      (&x.dx.x)[(i / 6) % 2 ? sax : tax] = g;
      double s, t;
      int ff = cube_face(x.x, x.y, x.z, s, t);
      want[i] = (float)sample_mip(lv, NL - 1, 6 * x.layer + ff, s, t, lod, false, false, 0);
    }
    report_exact("cubes.grad.pp", xs(run(k_acube_grad, tpp, q)), want);
    cudaDestroyTextureObject(tpp);
    CHECK(cudaFreeMipmappedArray(m));
  }
  // ---- a layered 1D mip chain: 64 texels, 3 layers, 7 levels
  {
    const int W = 64, K = 3, NL = 7;
    std::vector<Level> lv;
    for (int l = 0; l < NL; ++l) {
      Level L{W >> l, 1, K, 1, {}};
      for (int k = 0; k < K; ++k) for (int x = 0; x < L.w; ++x) L.v.push_back(k + 0.125f * l + 0.0625f * hashv(k, l, x, 0));
      lv.push_back(L);
    }
    cudaMipmappedArray_t m = upload("rows", lv, cudaCreateChannelDesc<float>(), make_cudaExtent(W, 0, K), cudaArrayLayered);
    cudaTextureObject_t tpp = make_tex(m, cudaFilterModePoint, cudaFilterModePoint, NL - 1);
    std::vector<Q> q(N);
    std::vector<float> want(N);
    for (int i = 0; i < N; ++i) {
      Q &x = q[i]; memset(&x, 0, sizeof x);
      x.x = safe_coord(W); x.layer = (int)(rnd() % K); x.lod = safe_lod((int)(rnd() % (NL + 1)) - 1);
      want[i] = (float)sample_mip(lv, NL - 1, x.layer, x.x, 0.5, x.lod, false, false, 0);
    }
    report_exact("rows.lod.pp", xs(run(k_l1d_lod, tpp, q)), want);
    cudaDestroyTextureObject(tpp);
    CHECK(cudaFreeMipmappedArray(m));
  }
  printf("tex_mip_layered %s\n", g_ok ? "PASS" : "FAIL");
  return g_ok ? 0 : 1;
}

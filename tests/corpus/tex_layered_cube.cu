// Texture forms beyond 1D/2D/3D: layered 1D and 2D (tex.a1d / tex.a2d), cube maps (tex.cube),
// layered cube maps (tex.acube), explicit LOD (tex.level) and gradients (tex.grad) on a
// mipmapped 2D array (cudaMallocMipmappedArray), and LOD/gradient forms on a plain (one-level)
// array. Point-filtered results are checked exactly against a CPU model of the CUDA programming
// guide's rules (cube face selection table, layer index, mip level = clamp(lod), nearest level
// rounding); linearly filtered ones are printed (exact hex) for comparison with the H200 only.
// Output: per group "name n bad fnv" and a few values as hex.
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

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static bool g_ok = true;
static void report(const char *name, const std::vector<float> &got, const std::vector<float> *want) {
  uint32_t h = 2166136261u;
  int bad = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    uint32_t b = fbits(got[i]);
    for (int k = 0; k < 4; ++k) { h ^= (b >> (8 * k)) & 0xff; h *= 16777619u; }
    if (want && fbits((*want)[i]) != b) {
      if (bad < 3) printf("  %s[%zu] = %08x want %08x\n", name, i, b, fbits((*want)[i]));
      ++bad;
    }
  }
  if (bad) g_ok = false;
  printf("%-14s n=%zu bad=%d fnv=%08x", name, got.size(), bad, h);
  size_t step = std::max<size_t>(1, got.size() / 4);
  for (size_t i = 0; i < got.size(); i += step) printf(" %08x", fbits(got[i]));
  printf("\n");
}

static cudaTextureObject_t make_tex(cudaResourceDesc rd, cudaTextureFilterMode f, bool norm,
                                    cudaTextureFilterMode mipf = cudaFilterModePoint, float maxLevel = 0) {
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = f;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = norm;
  td.mipmapFilterMode = mipf;
  td.maxMipmapLevelClamp = maxLevel;
  td.minMipmapLevelClamp = 0;
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  return t;
}
static cudaResourceDesc arr_res(cudaArray_t a) {
  cudaResourceDesc rd; memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeArray; rd.res.array.array = a; return rd;
}

// ---- kernels: one thread per query, inputs in float4 (x, y, z, w = layer / lod)
__global__ void k_l1d(cudaTextureObject_t t, const float4 *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex1DLayered<float>(t, q[i].x, (int)q[i].w);
}
__global__ void k_l2d(cudaTextureObject_t t, const float4 *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DLayered<float>(t, q[i].x, q[i].y, (int)q[i].w);
}
__global__ void k_cube(cudaTextureObject_t t, const float4 *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = texCubemap<float>(t, q[i].x, q[i].y, q[i].z);
}
__global__ void k_lcube(cudaTextureObject_t t, const float4 *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = texCubemapLayered<float>(t, q[i].x, q[i].y, q[i].z, (int)q[i].w);
}
__global__ void k_lod2d(cudaTextureObject_t t, const float4 *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DLod<float>(t, q[i].x, q[i].y, q[i].w);
}
__global__ void k_grad2d(cudaTextureObject_t t, const float4 *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // isotropic gradient of length w along x and y
  if (i < n) o[i] = tex2DGrad<float>(t, q[i].x, q[i].y, make_float2(q[i].w, 0.f), make_float2(0.f, q[i].w));
}
__global__ void k_lod1d(cudaTextureObject_t t, const float4 *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex1DLod<float>(t, q[i].x, q[i].w);
}
__global__ void k_lodl2d(cudaTextureObject_t t, const float4 *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DLayeredLod<float>(t, q[i].x, q[i].y, 1, q[i].w);
}

static std::vector<float> run(void (*k)(cudaTextureObject_t, const float4 *, float *, int), cudaTextureObject_t t,
                              const std::vector<float4> &q) {
  int n = (int)q.size();
  float4 *dq; float *dout;
  CHECK(cudaMalloc(&dq, n * sizeof(float4)));
  CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CHECK(cudaMemcpy(dq, q.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  k<<<(n + 63) / 64, 64>>>(t, dq, dout, n);
  CHECK(cudaGetLastError());
  std::vector<float> o(n);
  CHECK(cudaMemcpy(o.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  cudaFree(dq); cudaFree(dout);
  return o;
}

// Cube face and face coordinates (s, t in [0,1]) of a direction: the CUDA programming guide's table.
static int cube_face(float x, float y, float z, float &s, float &t) {
  float ax = fabsf(x), ay = fabsf(y), az = fabsf(z);
  int f; float sc, tc, m;
  if (ax >= ay && ax >= az) { m = ax; if (x > 0) { f = 0; sc = -z; tc = -y; } else { f = 1; sc = z; tc = -y; } }
  else if (ay >= az) { m = ay; if (y > 0) { f = 2; sc = x; tc = z; } else { f = 3; sc = x; tc = -z; } }
  else { m = az; if (z > 0) { f = 4; sc = x; tc = -y; } else { f = 5; sc = -x; tc = -y; } }
  s = (sc / m + 1) * 0.5f; t = (tc / m + 1) * 0.5f;
  return f;
}
// Direction whose face-f coordinates are (s, t) (inverse of the table; magnitude 1 on the major axis).
static float4 cube_dir(int f, float s, float t, float layer = 0) {
  float a = 2 * s - 1, b = 2 * t - 1;
  switch (f) {
  case 0: return make_float4(1, -b, -a, layer);
  case 1: return make_float4(-1, -b, a, layer);
  case 2: return make_float4(a, 1, b, layer);
  case 3: return make_float4(a, -1, -b, layer);
  case 4: return make_float4(a, -b, 1, layer);
  default: return make_float4(-a, -b, -1, layer);
  }
}

int main() {
  // ---- layered 1D: width 8, 3 layers, texel = 100*layer + x
  {
    const int W = 8, L = 3;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(W, 0, L), cudaArrayLayered));
    std::vector<float> h(W * L);
    for (int l = 0; l < L; ++l) for (int x = 0; x < W; ++x) h[l * W + x] = 100.f * l + x;
    cudaMemcpy3DParms p; memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(h.data(), W * 4, W, 1); p.dstArray = a;
    p.extent = make_cudaExtent(W, 1, L); p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    std::vector<float4> q; std::vector<float> want;
    for (int l = 0; l < L; ++l) for (int i = 0; i < 20; ++i) {
      float x = -1.47f + i * 0.55f;
      q.push_back(make_float4(x, 0, 0, (float)l));
      want.push_back(100.f * l + std::min(std::max((int)floorf(x), 0), W - 1));
    }
    cudaTextureObject_t tp = make_tex(arr_res(a), cudaFilterModePoint, false);
    std::vector<float> o = run(k_l1d, tp, q);
    report("layered1d", o, &want);
    cudaTextureObject_t tl = make_tex(arr_res(a), cudaFilterModeLinear, false);
    report("layered1d.lin", run(k_l1d, tl, q), nullptr);
    // out-of-range layers (recorded, not modelled)
    std::vector<float4> qo = {make_float4(2.5f, 0, 0, -1), make_float4(2.5f, 0, 0, 3), make_float4(2.5f, 0, 0, 7)};
    report("layered1d.oob", run(k_l1d, tp, qo), nullptr);
    cudaDestroyTextureObject(tp); cudaDestroyTextureObject(tl); cudaFreeArray(a);
  }
  // ---- layered 2D: 8x4, 5 layers, texel = 1000*layer + 10*y + x
  {
    const int W = 8, H = 4, L = 5;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(W, H, L), cudaArrayLayered));
    std::vector<float> h(W * H * L);
    for (int l = 0; l < L; ++l) for (int y = 0; y < H; ++y) for (int x = 0; x < W; ++x)
      h[(l * H + y) * W + x] = 1000.f * l + 10.f * y + x;
    cudaMemcpy3DParms p; memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(h.data(), W * 4, W, H); p.dstArray = a;
    p.extent = make_cudaExtent(W, H, L); p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    std::vector<float4> q; std::vector<float> want;
    for (int l = 0; l < L; ++l) for (int i = 0; i < 24; ++i) {
      float x = (i % 6) * 1.7f - 0.9f, y = (i / 6) * 1.3f - 0.4f;
      q.push_back(make_float4(x / W, y / H, 0, (float)l)); // normalised coordinates
      int xi = std::min(std::max((int)floorf(x), 0), W - 1), yi = std::min(std::max((int)floorf(y), 0), H - 1);
      want.push_back(1000.f * l + 10.f * yi + xi);
    }
    cudaTextureObject_t tp = make_tex(arr_res(a), cudaFilterModePoint, true);
    report("layered2d", run(k_l2d, tp, q), &want);
    cudaTextureObject_t tl = make_tex(arr_res(a), cudaFilterModeLinear, true);
    report("layered2d.lin", run(k_l2d, tl, q), nullptr);
    // LOD form on a one-level layered array: level 0 whatever the lod
    std::vector<float4> ql; std::vector<float> wl;
    for (int i = 0; i < 8; ++i) {
      ql.push_back(make_float4((i + 0.5f) / W, 2.5f / H, 0, i * 0.75f - 1.0f));
      wl.push_back(1000.f + 20.f + i);
    }
    report("layered2d.lod", run(k_lodl2d, tp, ql), &wl);
    cudaDestroyTextureObject(tp); cudaDestroyTextureObject(tl); cudaFreeArray(a);
  }
  // ---- cube map 4x4x6 and layered cube map (2 cubes), texel = 1000*cube + 100*face + 4*y + x
  for (int layered = 0; layered < 2; ++layered) {
    const int W = 4, C = layered ? 2 : 1;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(W, W, 6 * C), cudaArrayCubemap | (layered ? cudaArrayLayered : 0)));
    std::vector<float> h(W * W * 6 * C);
    for (int c = 0; c < C; ++c) for (int f = 0; f < 6; ++f) for (int y = 0; y < W; ++y) for (int x = 0; x < W; ++x)
      h[((c * 6 + f) * W + y) * W + x] = 1000.f * c + 100.f * f + 4.f * y + x;
    cudaMemcpy3DParms p; memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(h.data(), W * 4, W, W); p.dstArray = a;
    p.extent = make_cudaExtent(W, W, 6 * C); p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    std::vector<float4> q; std::vector<float> want;
    for (int c = 0; c < C; ++c) for (int f = 0; f < 6; ++f) for (int i = 0; i < 16; ++i) {
      float s = ((i % 4) + 0.3f + 0.1f * (i / 4)) / W, t = ((i / 4) + 0.6f - 0.1f * (i % 4)) / W;
      float4 d = cube_dir(f, s, t, (float)c);
      float sc = 0.7f + 0.2f * i; // scale the direction: only its direction matters
      d.x *= sc; d.y *= sc; d.z *= sc;
      q.push_back(d);
      float ss, tt;
      int ff = cube_face(d.x, d.y, d.z, ss, tt);
      int xi = std::min(std::max((int)floorf(ss * W), 0), W - 1), yi = std::min(std::max((int)floorf(tt * W), 0), W - 1);
      want.push_back(1000.f * c + 100.f * ff + 4.f * yi + xi);
    }
    cudaTextureObject_t tp = make_tex(arr_res(a), cudaFilterModePoint, true);
    cudaTextureObject_t tl = make_tex(arr_res(a), cudaFilterModeLinear, true);
    auto k = layered ? k_lcube : k_cube;
    report(layered ? "cubelayered" : "cube", run(k, tp, q), &want);
    // linear filtering away from the face edges
    std::vector<float4> qc;
    for (int f = 0; f < 6; ++f) for (int i = 0; i < 4; ++i)
      qc.push_back(cube_dir(f, 0.3f + 0.13f * i, 0.62f - 0.07f * i, (float)(C - 1)));
    report(layered ? "cubelayered.lin" : "cube.lin", run(k, tl, qc), nullptr);
    // edges and corners (ties between axes), recorded
    std::vector<float4> qe = {make_float4(1, 1, 0, 0), make_float4(-1, 1, 0, 0), make_float4(0, 1, -1, 0),
                              make_float4(1, 0, 1, 0), make_float4(1, 1, 1, 0), make_float4(-1, -1, -1, 0),
                              make_float4(0, 0, 0, 0), make_float4(1, -1, 0.5f, 0)};
    report(layered ? "cubelayered.edge" : "cube.edge", run(k, tp, qe), nullptr);
    cudaDestroyTextureObject(tp); cudaDestroyTextureObject(tl); cudaFreeArray(a);
  }
  // ---- mipmapped 2D: 16x16, 5 levels, texel(level L) = 1000*L + 16*y + x
  {
    const int W = 16, NL = 5;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t m;
    CHECK(cudaMallocMipmappedArray(&m, &cd, make_cudaExtent(W, W, 0), NL));
    for (int l = 0; l < NL; ++l) {
      cudaArray_t a;
      CHECK(cudaGetMipmappedArrayLevel(&a, m, l));
      int w = W >> l;
      std::vector<float> h(w * w);
      for (int y = 0; y < w; ++y) for (int x = 0; x < w; ++x) h[y * w + x] = 1000.f * l + 16.f * y + x;
      CHECK(cudaMemcpy2DToArray(a, 0, 0, h.data(), w * 4, w * 4, w, cudaMemcpyHostToDevice));
    }
    cudaResourceDesc rd; memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeMipmappedArray; rd.res.mipmap.mipmap = m;
    cudaTextureObject_t tpp = make_tex(rd, cudaFilterModePoint, true, cudaFilterModePoint, NL - 1);
    cudaTextureObject_t tpl = make_tex(rd, cudaFilterModePoint, true, cudaFilterModeLinear, NL - 1);
    cudaTextureObject_t tll = make_tex(rd, cudaFilterModeLinear, true, cudaFilterModeLinear, NL - 1);
    cudaTextureObject_t tcl = make_tex(rd, cudaFilterModePoint, true, cudaFilterModePoint, 2); // maxMipmapLevelClamp 2
    // integer LODs with point mip filter: exactly level clamp(lod, 0, NL-1)
    std::vector<float4> q; std::vector<float> want, wantc;
    const float lods[] = {-2.f, 0.f, 1.f, 2.f, 3.f, 4.f, 6.f};
    for (float lod : lods) for (int i = 0; i < 6; ++i) {
      float u = (i * 2.6f + 0.35f) / W, v = (15.2f - i * 2.9f) / W;
      q.push_back(make_float4(u, v, 0, lod));
      auto texel = [&](int L) { int w = W >> L;
        int xi = std::min(std::max((int)floorf(u * w), 0), w - 1), yi = std::min(std::max((int)floorf(v * w), 0), w - 1);
        return 1000.f * L + 16.f * yi + xi; };
      want.push_back(texel(std::min(std::max((int)lod, 0), NL - 1)));
      wantc.push_back(texel(std::min(std::max((int)lod, 0), 2)));
    }
    report("mip.lod.pp", run(k_lod2d, tpp, q), &want);
    report("mip.lod.clamp", run(k_lod2d, tcl, q), &wantc);
    // fractional LODs, nearest / linear mip filters (recorded)
    std::vector<float4> qf;
    for (int i = 0; i < 16; ++i) qf.push_back(make_float4((i * 0.9f + 0.4f) / W, (i * 0.55f + 3.3f) / W, 0, i * 0.3125f - 0.5f));
    report("mip.lod.ppf", run(k_lod2d, tpp, qf), nullptr);
    report("mip.lod.pl", run(k_lod2d, tpl, qf), nullptr);
    report("mip.lod.ll", run(k_lod2d, tll, qf), nullptr);
    // gradients: |grad| = 2^L / W texels in normalised units gives lod L
    std::vector<float4> qg; std::vector<float> wg;
    for (int L = 0; L < NL; ++L) for (int i = 0; i < 4; ++i) {
      float u = (i * 3.7f + 1.2f) / W, v = (i * 2.1f + 6.6f) / W;
      qg.push_back(make_float4(u, v, 0, (float)(1 << L) / W));
      int w = W >> L;
      int xi = std::min(std::max((int)floorf(u * w), 0), w - 1), yi = std::min(std::max((int)floorf(v * w), 0), w - 1);
      wg.push_back(1000.f * L + 16.f * yi + xi);
    }
    report("mip.grad.pp", run(k_grad2d, tpp, qg), &wg);
    std::vector<float4> qgf;
    for (int i = 0; i < 12; ++i) qgf.push_back(make_float4((i * 1.1f + 0.2f) / W, (i * 0.7f + 5.1f) / W, 0, (0.6f + i * 0.45f) / W));
    report("mip.grad.pl", run(k_grad2d, tpl, qgf), nullptr);
    report("mip.grad.ll", run(k_grad2d, tll, qgf), nullptr);
    cudaDestroyTextureObject(tpp); cudaDestroyTextureObject(tpl); cudaDestroyTextureObject(tll);
    cudaDestroyTextureObject(tcl);
    cudaFreeMipmappedArray(m);
  }
  // ---- LOD form on a plain 1D array: always level 0
  {
    const int W = 8;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &cd, W, 0));
    std::vector<float> h(W);
    for (int x = 0; x < W; ++x) h[x] = 3.f * x + 1;
    CHECK(cudaMemcpy2DToArray(a, 0, 0, h.data(), W * 4, W * 4, 1, cudaMemcpyHostToDevice));
    cudaTextureObject_t tp = make_tex(arr_res(a), cudaFilterModePoint, false);
    std::vector<float4> q; std::vector<float> want;
    for (int i = 0; i < 8; ++i) { q.push_back(make_float4(i + 0.5f, 0, 0, i - 2.f)); want.push_back(3.f * i + 1); }
    report("plain1d.lod", run(k_lod1d, tp, q), &want);
    cudaDestroyTextureObject(tp); cudaFreeArray(a);
  }
  printf("tex_layered_cube %s\n", g_ok ? "PASS" : "FAIL");
  return g_ok ? 0 : 1;
}

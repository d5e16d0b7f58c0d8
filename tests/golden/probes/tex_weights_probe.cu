// tex_weights_probe: reads the GPU's per-texel filter weights directly, for the parts of the
// texture model that tex_fit_probe could not pin (3D filtering, the trilinear level blend, and
// 1D / 2D for reference). Each texture is "one-hot": one texel 1.0, the others 0, so a sample
// returns exactly that texel's weight (if the weights are multiples of 1/256 and the sum exact).
// Lines: "group i coords... | w_0 ... w_n" (weights * 256 as integers, or the float bits when a
// result is not a multiple of 1/256).
//  - w1d:  1D, width 2, normalized x in (0.25, 0.75): weights of texels 0, 1.
//  - w2d:  2D 2x2, the 4 texels.
//  - w3d:  3D 2x2x2, the 8 texels (x fastest).
//  - wtri: mipmapped 2D 4x4 / 2x2 / 1x1, linear min and mip filters, tex2DLod with a random LOD
//          in [0, 1): level-0 texels (1,1) (2,1) (1,2) (2,2) and level-1 texels (0,0) (1,0) (0,1)
//          (1,1), coordinates in the middle cell (3/8, 5/8).
//  - wtri1d: the same for a mipmapped 1D array 4 / 2 / 1.
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
static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static uint32_t rnd() {
  rng_state ^= rng_state >> 12; rng_state ^= rng_state << 25; rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 2685821657736338717ull) >> 32);
}
static float urand() { return (rnd() >> 8) * (1.0f / 16777216.0f); }

__global__ void k_1d(cudaTextureObject_t t, const float4 *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex1D<float>(t, q[i].x);
}
__global__ void k_2d(cudaTextureObject_t t, const float4 *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2D<float>(t, q[i].x, q[i].y);
}
__global__ void k_3d(cudaTextureObject_t t, const float4 *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex3D<float>(t, q[i].x, q[i].y, q[i].z);
}
__global__ void k_lod2d(cudaTextureObject_t t, const float4 *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DLod<float>(t, q[i].x, q[i].y, q[i].w);
}
__global__ void k_lod1d(cudaTextureObject_t t, const float4 *q, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex1DLod<float>(t, q[i].x, q[i].w);
}
typedef void (*Kern)(cudaTextureObject_t, const float4 *, float *, int);
static std::vector<float> run(Kern k, cudaTextureObject_t t, const std::vector<float4> &q) {
  int n = (int)q.size();
  float4 *dq; float *dout;
  CHECK(cudaMalloc(&dq, n * sizeof(float4)));
  CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CHECK(cudaMemcpy(dq, q.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  k<<<(n + 127) / 128, 128>>>(t, dq, dout, n);
  CHECK(cudaGetLastError());
  std::vector<float> o(n);
  CHECK(cudaMemcpy(o.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  cudaFree(dq); cudaFree(dout);
  return o;
}
static cudaTextureObject_t tex_of(cudaResourceDesc rd, bool mip) {
  cudaTextureDesc td; memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear; td.readMode = cudaReadModeElementType; td.normalizedCoords = 1;
  td.mipmapFilterMode = cudaFilterModeLinear; td.maxMipmapLevelClamp = mip ? 2.0f : 0.0f;
  cudaTextureObject_t t; CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  return t;
}
static void print(const char *g, const std::vector<float4> &q, int nin, const std::vector<std::vector<float>> &w) {
  for (size_t i = 0; i < q.size(); ++i) {
    const float *p = &q[i].x;
    printf("%s %zu", g, i);
    for (int k = 0; k < nin; ++k) printf(" %08x", fb(p[k]));
    printf(" |");
    for (auto &v : w) {
      float s = v[i] * 256.0f;
      if (s == floorf(s)) printf(" %d", (int)s); else printf(" x%08x", fb(v[i]));
    }
    printf("\n");
  }
}
// one-hot CUDA array of extent (w, h, d) (h = 0 / d = 0 for 1D / 2D), texel `hot` = 1
static cudaArray_t onehot(int w, int h, int d, int hot) {
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  int n = w * (h ? h : 1) * (d ? d : 1);
  std::vector<float> v(n, 0.0f);
  if (hot >= 0) v[hot] = 1.0f;
  if (d) {
    CHECK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(w, h, d), 0));
    cudaMemcpy3DParms p; memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(v.data(), w * 4, w, h); p.dstArray = a;
    p.extent = make_cudaExtent(w, h, d); p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
  } else {
    CHECK(cudaMallocArray(&a, &cd, w, h));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, v.data(), w * 4, w * 4, h ? h : 1, cudaMemcpyHostToDevice));
  }
  return a;
}
static cudaResourceDesc arr_res(cudaArray_t a) {
  cudaResourceDesc rd; memset(&rd, 0, sizeof rd); rd.resType = cudaResourceTypeArray; rd.res.array.array = a; return rd;
}
static void plain(const char *g, int dims, Kern k, int n) {
  std::vector<float4> q;
  for (int i = 0; i < n; ++i) q.push_back(make_float4(0.25f + 0.5f * urand(), 0.25f + 0.5f * urand(), 0.25f + 0.5f * urand(), 0));
  int texels = 1 << dims;
  std::vector<std::vector<float>> w;
  for (int t = 0; t < texels; ++t) {
    cudaArray_t a = onehot(2, dims > 1 ? 2 : 0, dims > 2 ? 2 : 0, t);
    cudaTextureObject_t to = tex_of(arr_res(a), false);
    w.push_back(run(k, to, q));
    cudaDestroyTextureObject(to); cudaFreeArray(a);
  }
  print(g, q, dims, w);
}
// mipmapped 1D (dims 1) or 2D: level 0 of width 4, level 1 of 2, level 2 of 1; one-hot at
// (level, texel index within the level)
static cudaMipmappedArray_t mip_onehot(int dims, int hotl, int hoti) {
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t m;
  CHECK(cudaMallocMipmappedArray(&m, &cd, make_cudaExtent(4, dims > 1 ? 4 : 0, 0), 3));
  for (int l = 0; l < 3; ++l) {
    cudaArray_t a; CHECK(cudaGetMipmappedArrayLevel(&a, m, l));
    int w = 4 >> l, h = dims > 1 ? w : 1;
    std::vector<float> v(w * h, 0.0f);
    if (l == hotl) v[hoti] = 1.0f;
    CHECK(cudaMemcpy2DToArray(a, 0, 0, v.data(), w * 4, w * 4, h, cudaMemcpyHostToDevice));
  }
  return m;
}
static void trilinear(const char *g, int dims, Kern k, int n) {
  std::vector<float4> q;
  for (int i = 0; i < n; ++i)
    q.push_back(make_float4(0.375f + 0.25f * urand(), 0.375f + 0.25f * urand(), 0, urand()));
  struct H { int l, i; };
  std::vector<H> hots;
  if (dims > 1) hots = {{0, 5}, {0, 6}, {0, 9}, {0, 10}, {1, 0}, {1, 1}, {1, 2}, {1, 3}};
  else hots = {{0, 1}, {0, 2}, {1, 0}, {1, 1}};
  std::vector<std::vector<float>> w;
  for (auto h : hots) {
    cudaMipmappedArray_t m = mip_onehot(dims, h.l, h.i);
    cudaResourceDesc rd; memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeMipmappedArray; rd.res.mipmap.mipmap = m;
    cudaTextureObject_t to = tex_of(rd, true);
    w.push_back(run(k, to, q));
    cudaDestroyTextureObject(to); cudaFreeMipmappedArray(m);
  }
  std::vector<float4> qp = q;
  for (auto &x : qp) { if (dims > 1) x.z = x.w; else x.y = x.w; } // print x, (y,) lod
  print(g, qp, dims > 1 ? 3 : 2, w);
}

int main() {
  plain("w1d", 1, k_1d, 512);
  plain("w2d", 2, k_2d, 1024);
  plain("w3d", 3, k_3d, 2048);
  trilinear("wtri", 2, k_lod2d, 2048);
  trilinear("wtri1d", 1, k_lod1d, 1024);
  printf("tex_weights_probe done\n");
  return 0;
}

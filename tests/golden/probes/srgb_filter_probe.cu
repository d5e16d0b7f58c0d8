// srgb_filter_probe.cu -- how the H200 filters sRGB textures (follow-up of srgb_probe.cu, whose
// l1 group blends texels 47 and 48 as if texel 47 were 0x3ce80000 while a point read of 47 gives
// 0x3ce90000; every other neighbour pair blends the point-read values exactly). One line per
// sample: "<group> <a> <b> <w> <hex bits>" (1D: lower texel a, upper texel b, weight w/256 of the
// upper texel, sampled at x = lower + 0.5 + w/256), 2D: "q2 <c00> <c10> <c01> <c11> <wa> <wb> <hex>".
// Groups (uchar1 sRGB normalized linear unless said):
//   up   pairs (v, v+1), v = 0..254, w in {1,32,64,128,192,224,255}
//   dn   pairs (v+1, v), same weights
//   lo47 pairs (47, u), u = 0..255, w in {32,128,224};  hi47 pairs (u, 47), same
//   w47  pair (47, 48), every w = 0..255;  w47r pair (48, 47), every w
//   lin  pairs (47, 48) and (46, 47) WITHOUT sRGB (the plain normalized filter), every w
//   q2   2D, 2x2 corners from {46,47,48} (all 81), weights (wa, wb) in {64,128,192}^2
//   c4   uchar4 (47,47,47,47) / (48,48,48,48) texel pair, sRGB: .x and .w for w in {32,128,224}
//   c    creation result of each texture object (cudaError name)
#include <cstdio>
#include <cstring>
#include <vector>

__global__ void fetch1(cudaTextureObject_t t, const float* xs, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, xs[i]);
}
__global__ void fetch2(cudaTextureObject_t t, const float2* xs, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, xs[i].x, xs[i].y);
}
__global__ void fetch4(cudaTextureObject_t t, const float* xs, float4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float4>(t, xs[i]);
}
static unsigned bits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }

static cudaTextureObject_t makeTex(const char* name, cudaArray_t a, int srgb) {
  cudaResourceDesc rd{};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeNormalizedFloat;
  td.sRGB = srgb;
  cudaTextureObject_t t = 0;
  cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, nullptr);
  printf("c %s %s\n", name, cudaGetErrorName(e));
  cudaGetLastError();
  return e == cudaSuccess ? t : 0;
}

struct Pair { int a, b; };

// One 1D texture holding the pairs side by side; samples every pair at every weight of ws.
static void run1(const char* name, const std::vector<Pair>& pairs, const std::vector<int>& ws, int srgb) {
  int n = int(pairs.size()) * 2;
  std::vector<unsigned char> tex(n);
  for (size_t k = 0; k < pairs.size(); ++k) { tex[2 * k] = pairs[k].a; tex[2 * k + 1] = pairs[k].b; }
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<unsigned char>();
  cudaArray_t arr;
  cudaMallocArray(&arr, &fd, n, 0);
  cudaMemcpy2DToArray(arr, 0, 0, tex.data(), n, n, 1, cudaMemcpyHostToDevice);
  cudaTextureObject_t t = makeTex(name, arr, srgb);
  if (!t) return;
  std::vector<float> xs;
  for (size_t k = 0; k < pairs.size(); ++k)
    for (int w : ws) xs.push_back(2.0f * k + 0.5f + w / 256.0f);
  int m = int(xs.size());
  float *dx, *dout;
  cudaMalloc(&dx, m * sizeof(float));
  cudaMalloc(&dout, m * sizeof(float));
  cudaMemcpy(dx, xs.data(), m * sizeof(float), cudaMemcpyHostToDevice);
  fetch1<<<(m + 255) / 256, 256>>>(t, dx, dout, m);
  std::vector<float> out(m);
  cudaMemcpy(out.data(), dout, m * sizeof(float), cudaMemcpyDeviceToHost);
  int i = 0;
  for (const Pair& p : pairs)
    for (int w : ws) printf("%s %d %d %d %08x\n", name, p.a, p.b, w, bits(out[i++]));
  cudaDestroyTextureObject(t);
  cudaFreeArray(arr);
  cudaFree(dx);
  cudaFree(dout);
}

int main() {
  std::vector<int> some = {1, 32, 64, 128, 192, 224, 255}, three = {32, 128, 224}, all;
  for (int w = 0; w < 256; ++w) all.push_back(w);
  std::vector<Pair> up, dn, lo, hi;
  for (int v = 0; v < 255; ++v) { up.push_back({v, v + 1}); dn.push_back({v + 1, v}); }
  for (int u = 0; u < 256; ++u) { lo.push_back({47, u}); hi.push_back({u, 47}); }
  run1("up", up, some, 1);
  run1("dn", dn, some, 1);
  run1("lo47", lo, three, 1);
  run1("hi47", hi, three, 1);
  run1("w47", {{47, 48}}, all, 1);
  run1("w47r", {{48, 47}}, all, 1);
  run1("lin", {{47, 48}, {46, 47}}, all, 0);

  // 2D: pattern p occupies columns 2p, 2p+1 of a 162 x 2 array.
  {
    const int vals[3] = {46, 47, 48};
    const int P = 81, Wd = 2 * P;
    std::vector<unsigned char> tex(Wd * 2);
    for (int p = 0; p < P; ++p) {
      int q = p;
      int c00 = vals[q % 3]; q /= 3;
      int c10 = vals[q % 3]; q /= 3;
      int c01 = vals[q % 3]; q /= 3;
      int c11 = vals[q % 3];
      tex[2 * p] = c00; tex[2 * p + 1] = c10; tex[Wd + 2 * p] = c01; tex[Wd + 2 * p + 1] = c11;
    }
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<unsigned char>();
    cudaArray_t arr;
    cudaMallocArray(&arr, &fd, Wd, 2);
    cudaMemcpy2DToArray(arr, 0, 0, tex.data(), Wd, Wd, 2, cudaMemcpyHostToDevice);
    if (cudaTextureObject_t t = makeTex("q2", arr, 1)) {
      const int ws[3] = {64, 128, 192};
      std::vector<float2> xs;
      for (int p = 0; p < P; ++p)
        for (int a : ws)
          for (int b : ws) xs.push_back(make_float2(2.0f * p + 0.5f + a / 256.0f, 0.5f + b / 256.0f));
      int m = int(xs.size());
      float2* dx;
      float* dout;
      cudaMalloc(&dx, m * sizeof(float2));
      cudaMalloc(&dout, m * sizeof(float));
      cudaMemcpy(dx, xs.data(), m * sizeof(float2), cudaMemcpyHostToDevice);
      fetch2<<<(m + 255) / 256, 256>>>(t, dx, dout, m);
      std::vector<float> out(m);
      cudaMemcpy(out.data(), dout, m * sizeof(float), cudaMemcpyDeviceToHost);
      int i = 0;
      for (int p = 0; p < P; ++p)
        for (int a : ws)
          for (int b : ws)
            printf("q2 %d %d %d %d %d %d %08x\n", tex[2 * p], tex[2 * p + 1], tex[Wd + 2 * p], tex[Wd + 2 * p + 1], a, b,
                   bits(out[i++]));
    }
  }
  // uchar4: does the anomaly follow the channel (x converted, w not)?
  {
    uchar4 tex[2] = {make_uchar4(47, 47, 47, 47), make_uchar4(48, 48, 48, 48)};
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<uchar4>();
    cudaArray_t arr;
    cudaMallocArray(&arr, &fd, 2, 0);
    cudaMemcpy2DToArray(arr, 0, 0, tex, sizeof tex, sizeof tex, 1, cudaMemcpyHostToDevice);
    if (cudaTextureObject_t t = makeTex("c4", arr, 1)) {
      std::vector<float> xs;
      for (int w : three) xs.push_back(0.5f + w / 256.0f);
      float* dx;
      float4* dout;
      cudaMalloc(&dx, xs.size() * sizeof(float));
      cudaMalloc(&dout, xs.size() * sizeof(float4));
      cudaMemcpy(dx, xs.data(), xs.size() * sizeof(float), cudaMemcpyHostToDevice);
      fetch4<<<1, 32>>>(t, dx, dout, int(xs.size()));
      float4 out[3];
      cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
      for (int i = 0; i < 3; ++i) printf("c4 47 48 %d %08x %08x\n", three[i], bits(out[i].x), bits(out[i].w));
    }
  }
  printf("last %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}

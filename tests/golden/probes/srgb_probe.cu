// srgb_probe.cu -- what the hardware returns for sRGB textures (H200 ground truth for the runtime's
// sRGB -> linear conversion). Prints one line per sample: "<group> <index> <hex bits of the float(s)>".
// Groups:
//   p1  uchar1 array, normalized read, sRGB, point: texel v = 0..255 (the whole conversion table)
//   p4  uchar4 array (v, 255-v, v^0x5a, v) sRGB point: .x .y .z .w (alpha conversion or not)
//   l1  uchar1 sRGB, linear filter, x = i + 0.5 + f for f in {1/8, 1/4, 1/2, 3/4}: filter after convert?
//   e1  uchar1 array, element-type read with sRGB=1 (does the flag change an integer read?)
//   s1  schar1 array, normalized read, sRGB: texel v = 0..255 as signed
//   u16 ushort1 array, normalized read, sRGB: texel v*257 for v = 0..255
//   c   creation result of each texture object (cudaError name)
#include <cstdio>
#include <cstring>
#include <cstdint>

__global__ void fetch1(cudaTextureObject_t t, float* out, int n, float off) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, i + 0.5f + off);
}
__global__ void fetch4(cudaTextureObject_t t, float4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float4>(t, i + 0.5f);
}
__global__ void fetchu(cudaTextureObject_t t, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<unsigned char>(t, i + 0.5f);
}
static unsigned bits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }

template <class T>
static cudaArray_t makeArray(const T* host, int n) {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<T>();
  cudaArray_t a;
  cudaMallocArray(&a, &fd, n, 0);
  cudaMemcpy2DToArray(a, 0, 0, host, n * sizeof(T), n * sizeof(T), 1, cudaMemcpyHostToDevice);
  return a;
}
static cudaTextureObject_t makeTex(const char* name, cudaArray_t a, cudaTextureReadMode rm, cudaTextureFilterMode fm, int srgb) {
  cudaResourceDesc rd{};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaTextureDesc td{};
  td.addressMode[0] = cudaAddressModeClamp;
  td.filterMode = fm;
  td.readMode = rm;
  td.sRGB = srgb;
  cudaTextureObject_t t = 0;
  cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, nullptr);
  printf("c %s %s\n", name, cudaGetErrorName(e));
  cudaGetLastError();
  return e == cudaSuccess ? t : 0;
}

int main() {
  const int N = 256;
  float* df; float4* d4; unsigned* du;
  cudaMalloc(&df, N * sizeof(float)); cudaMalloc(&d4, N * sizeof(float4)); cudaMalloc(&du, N * sizeof(unsigned));
  float hf[N]; float4 h4[N]; unsigned hu[N];
  unsigned char v1[N]; uchar4 v4[N]; signed char s1[N]; unsigned short u16[N];
  for (int i = 0; i < N; ++i) {
    v1[i] = i; v4[i] = make_uchar4(i, 255 - i, i ^ 0x5a, i); s1[i] = (signed char)i; u16[i] = i * 257;
  }
  cudaArray_t a1 = makeArray(v1, N), a4 = makeArray(v4, N), as = makeArray(s1, N), a16 = makeArray(u16, N);
  if (cudaTextureObject_t t = makeTex("p1", a1, cudaReadModeNormalizedFloat, cudaFilterModePoint, 1)) {
    fetch1<<<1, N>>>(t, df, N, 0.f);
    cudaMemcpy(hf, df, sizeof hf, cudaMemcpyDeviceToHost);
    for (int i = 0; i < N; ++i) printf("p1 %d %08x\n", i, bits(hf[i]));
  }
  if (cudaTextureObject_t t = makeTex("p4", a4, cudaReadModeNormalizedFloat, cudaFilterModePoint, 1)) {
    fetch4<<<1, N>>>(t, d4, N);
    cudaMemcpy(h4, d4, sizeof h4, cudaMemcpyDeviceToHost);
    for (int i = 0; i < N; ++i) printf("p4 %d %08x %08x %08x %08x\n", i, bits(h4[i].x), bits(h4[i].y), bits(h4[i].z), bits(h4[i].w));
  }
  if (cudaTextureObject_t t = makeTex("l1", a1, cudaReadModeNormalizedFloat, cudaFilterModeLinear, 1)) {
    const float fr[4] = {0.125f, 0.25f, 0.5f, 0.75f};
    for (int k = 0; k < 4; ++k) {
      fetch1<<<1, N>>>(t, df, N, fr[k]);
      cudaMemcpy(hf, df, sizeof hf, cudaMemcpyDeviceToHost);
      for (int i = 0; i < N; ++i) printf("l1 %d %d %08x\n", k, i, bits(hf[i]));
    }
  }
  if (cudaTextureObject_t t = makeTex("e1", a1, cudaReadModeElementType, cudaFilterModePoint, 1)) {
    fetchu<<<1, N>>>(t, du, N);
    cudaMemcpy(hu, du, sizeof hu, cudaMemcpyDeviceToHost);
    int diff = 0;
    for (int i = 0; i < N; ++i) diff += hu[i] != (unsigned)i;
    printf("e1 differing %d\n", diff);
  }
  if (cudaTextureObject_t t = makeTex("s1", as, cudaReadModeNormalizedFloat, cudaFilterModePoint, 1)) {
    fetch1<<<1, N>>>(t, df, N, 0.f);
    cudaMemcpy(hf, df, sizeof hf, cudaMemcpyDeviceToHost);
    for (int i = 0; i < N; ++i) printf("s1 %d %08x\n", i, bits(hf[i]));
  }
  if (cudaTextureObject_t t = makeTex("u16", a16, cudaReadModeNormalizedFloat, cudaFilterModePoint, 1)) {
    fetch1<<<1, N>>>(t, df, N, 0.f);
    cudaMemcpy(hf, df, sizeof hf, cudaMemcpyDeviceToHost);
    for (int i = 0; i < N; ++i) printf("u16 %d %08x\n", i, bits(hf[i]));
  }
  printf("last %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}

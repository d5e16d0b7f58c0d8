#include <cstdio>
#include <cuda_runtime.h>
int main() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  cudaMallocArray(&arr, &fd, 64);
  cudaResourceDesc rd{};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = arr;
  cudaTextureDesc td{};
  for (int i = 0; i < 3; ++i) td.addressMode[i] = cudaAddressModeBorder;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  float border[4] = {7.5f, -1.0f, 2.0f, 3.0f};
  for (int i = 0; i < 4; ++i) td.borderColor[i] = border[i];
  cudaTextureObject_t t;
  printf("create %d\n", (int)cudaCreateTextureObject(&t, &rd, &td, nullptr));
  cudaTextureDesc tq;
  printf("getdesc %d\n", (int)cudaGetTextureObjectTextureDesc(&tq, t));
  printf("addr %d %d %d filter %d read %d srgb %d border %g %g %g %g norm %d maxAniso %u mip %d lodbias %g min %g max %g disableTrilinear %d seamless %d\n",
         tq.addressMode[0], tq.addressMode[1], tq.addressMode[2], tq.filterMode, tq.readMode, tq.sRGB,
         tq.borderColor[0], tq.borderColor[1], tq.borderColor[2], tq.borderColor[3], tq.normalizedCoords,
         tq.maxAnisotropy, tq.mipmapFilterMode, tq.mipmapLevelBias, tq.minMipmapLevelClamp, tq.maxMipmapLevelClamp,
         tq.disableTrilinearOptimization, tq.seamlessCubemap);
  cudaResourceDesc rq;
  printf("getres %d type %d arr_eq %d\n", (int)cudaGetTextureObjectResourceDesc(&rq, t), rq.resType, rq.res.array.array == arr);
  // uchar element-type read with linear filtering
  cudaChannelFormatDesc fu = cudaCreateChannelDesc<unsigned char>();
  cudaArray_t au;
  cudaMallocArray(&au, &fu, 16, 16);
  cudaResourceDesc ru{};
  ru.resType = cudaResourceTypeArray;
  ru.res.array.array = au;
  cudaTextureDesc tl{};
  tl.filterMode = cudaFilterModeLinear;
  cudaTextureObject_t bt = 1;
  cudaError_t e = cudaCreateTextureObject(&bt, &ru, &tl, nullptr);
  printf("linear-int: %d (%s) bt=%llu last=%d\n", (int)e, cudaGetErrorName(e), (unsigned long long)bt, (int)cudaGetLastError());
  tl.readMode = cudaReadModeNormalizedFloat;
  e = cudaCreateTextureObject(&bt, &ru, &tl, nullptr);
  printf("linear-uchar-normfloat: %d (%s)\n", (int)e, cudaGetErrorName(e));
  cudaSurfaceObject_t bs = 1;
  e = cudaCreateSurfaceObject(&bs, &ru);
  printf("surf-noflag: %d (%s) bs=%llu last=%d\n", (int)e, cudaGetErrorName(e), (unsigned long long)bs, (int)cudaGetLastError());
  // int32 normalized
  cudaChannelFormatDesc fi = cudaCreateChannelDesc<int>();
  cudaArray_t ai;
  cudaMallocArray(&ai, &fi, 16, 16);
  ru.res.array.array = ai;
  cudaTextureDesc tn{};
  tn.readMode = cudaReadModeNormalizedFloat;
  e = cudaCreateTextureObject(&bt, &ru, &tn, nullptr);
  printf("norm-int32: %d (%s)\n", (int)e, cudaGetErrorName(e));
  cudaGetLastError();
  return 0;
}

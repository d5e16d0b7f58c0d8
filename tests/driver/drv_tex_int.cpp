// drv_tex_int.cpp: linear filtering of textures read as integers (CU_TRSF_READ_AS_INTEGER) through
// the driver API. cuTexObjectCreate accepts linear filtering on 8- and 16-bit integer arrays (H200,
// session 5: drv_array probe) and the texture unit filters the raw integers. This program records
// what it returns: for each format (u8 s8 u16 s16 u32 s32; one channel) the result of
// cuTexObjectCreate, then 1D samples at x = k/32 (k = 0..16*32) over 16 texels and 2D samples at
// (i/8, j/8) over 4x4 texels (clamp addressing, unnormalised coordinates), every value printed, so
// the weight quantisation and rounding of the filter can be read off. The H200's stdout is the golden.
// usage: drv_tex_int TI.ptx [FORMAT]   (FORMAT: one of the six names; default all)
#include "drv_common.h"

static CUmodule mod;

static uint32_t texel(int i, int bytes) {
  uint32_t v = uint32_t(i) * 2654435761u + 12345u;
  v ^= v >> 13;
  return bytes == 1 ? v & 0xffu : bytes == 2 ? v & 0xffffu : v;
}

static const char *only = nullptr;
static void run(const char *name, CUarray_format fmt, int bytes) {
  if (only && strcmp(only, name)) return;
  const int W1 = 16, N1 = 16 * 32 + 1, W2 = 4, N2 = 4 * 8 + 1;
  for (int dims = 1; dims <= 2; ++dims) {
    CUDA_ARRAY_DESCRIPTOR d{};
    d.Format = fmt;
    d.NumChannels = 1;
    d.Width = dims == 1 ? W1 : W2;
    d.Height = dims == 1 ? 0 : W2;
    CUarray a;
    CHECK(cuArrayCreate(&a, &d));
    int count = dims == 1 ? W1 : W2 * W2;
    std::vector<unsigned char> px(count * bytes);
    for (int i = 0; i < count; ++i) {
      uint32_t v = texel(i + dims * 100, bytes);
      memcpy(&px[i * bytes], &v, bytes);
    }
    CUDA_MEMCPY2D c{};
    c.srcMemoryType = CU_MEMORYTYPE_HOST;
    c.srcHost = px.data();
    c.srcPitch = d.Width * bytes;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    c.dstArray = a;
    c.WidthInBytes = d.Width * bytes;
    c.Height = dims == 1 ? 1 : W2;
    CHECK(cuMemcpy2D(&c));
    CUDA_RESOURCE_DESC rd{};
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = a;
    CUDA_TEXTURE_DESC td{};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = CU_TR_ADDRESS_MODE_CLAMP;
    td.filterMode = CU_TR_FILTER_MODE_LINEAR;
    td.flags = CU_TRSF_READ_AS_INTEGER;
    CUtexObject t = 0;
    CUresult r = cuTexObjectCreate(&t, &rd, &td, nullptr);
    printf("%s %dD linear read-as-integer: cuTexObjectCreate %s\n", name, dims, result_name(r));
    if (r == CUDA_SUCCESS) {
      printf("  texels:");
      for (int i = 0; i < count; ++i) {
        uint32_t v = 0;
        memcpy(&v, &px[i * bytes], bytes);
        int s = fmt == CU_AD_FORMAT_SIGNED_INT8 ? int(int8_t(v)) : fmt == CU_AD_FORMAT_SIGNED_INT16 ? int(int16_t(v)) : int(v);
        printf(" %d", s);
      }
      printf("\n");
      int n = dims == 1 ? N1 : N2;
      int total = dims == 1 ? n : n * n;
      CUdeviceptr out;
      CHECK(cuMemAlloc(&out, total * 4));
      CHECK(cuMemsetD32(out, 0x7eadbeef, total));
      char fn[32];
      snprintf(fn, sizeof fn, "f%d_%s", dims, name);
      CUfunction f;
      CHECK(cuModuleGetFunction(&f, mod, fn));
      float step = dims == 1 ? 1.0f / 32 : 1.0f / 8;
      void *args[] = {&t, &out, &n, &step};
      if (dims == 1)
        r = cuLaunchKernel(f, (n + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, args, nullptr);
      else
        r = cuLaunchKernel(f, (n + 7) / 8, (n + 7) / 8, 1, 8, 8, 1, 0, nullptr, args, nullptr);
      if (r == CUDA_SUCCESS) r = cuCtxSynchronize();
      printf("  launch: %s\n", result_name(r));
      if (r != CUDA_SUCCESS) exit(0); // a failed launch leaves the context unusable
      std::vector<int> v(total);
      CHECK(cuMemcpyDtoH(v.data(), out, total * 4));
      for (int k = 0; k < total; ++k) printf("%s%d", k % 33 == 0 ? "  " : " ", v[k]), (k % 33 == 32 || k == total - 1) ? printf("\n") : 0;
      CHECK(cuMemFree(out));
      CHECK(cuTexObjectDestroy(t));
    }
    CHECK(cuArrayDestroy(a));
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    printf("usage: drv_tex_int TI.ptx [FORMAT]\n");
    return 2;
  }
  if (argc > 2) only = argv[2];
  init_primary();
  std::vector<char> ptx = read_file(argv[1]);
  CHECK(cuModuleLoadData(&mod, ptx.data()));
  run("u8", CU_AD_FORMAT_UNSIGNED_INT8, 1);
  run("s8", CU_AD_FORMAT_SIGNED_INT8, 1);
  run("u16", CU_AD_FORMAT_UNSIGNED_INT16, 2);
  run("s16", CU_AD_FORMAT_SIGNED_INT16, 2);
  run("u32", CU_AD_FORMAT_UNSIGNED_INT32, 4);
  run("s32", CU_AD_FORMAT_SIGNED_INT32, 4);
  printf("done\n");
  return 0;
}

// drv_array.cpp: CUDA arrays, texture and surface objects through the driver API, on the kernels of
// kernels_ext.cu (loaded from PTX): cuArrayCreate / cuArray3DCreate (2D, 3D, layered, surface
// load/store) and their descriptors, cuMemcpy2D / cuMemcpy3D (+Async) with array endpoints (host,
// device, array on the other side, offsets), cuMemcpyHtoA / AtoH / AtoD / DtoA / AtoA,
// cuTexObjectCreate over array / linear / pitch2D resources (point and linear filtering, clamp / wrap /
// border addressing, normalised coordinates, CU_TRSF_READ_AS_INTEGER or promotion to [0,1]),
// cuTexObjectGetResourceDesc / GetTextureDesc, cuSurfObjectCreate with a surf2Dread/surf2Dwrite kernel,
// and the error codes of bad descriptors and dead handles. Prints every result; the H200's stdout is
// the golden. With the extra argument "mip": mipmapped arrays (cuMipmappedArrayCreate / GetLevel,
// tex2DLod) instead; with "probe": what a linearly filtered texture of integer reads
// (CU_TRSF_READ_AS_INTEGER, which cuTexObjectCreate accepts) returns between texel centres.
// usage: drv_array KX.ptx [mip|probe]
#include "drv_common.h"

#include <cuda_fp16.h>

static CUmodule mod;
static CUfunction get(const char *name) {
  CUfunction f;
  CHECK(cuModuleGetFunction(&f, mod, name));
  return f;
}
static void launch2d(CUfunction f, int w, int h, void **args, CUstream s = nullptr) {
  CHECK(cuLaunchKernel(f, (w + 7) / 8, (h + 7) / 8, 1, 8, 8, 1, 0, s, args, nullptr));
}
static double sumd(const float *v, size_t n) { double s = 0; for (size_t i = 0; i < n; ++i) s += v[i] * (1 + i % 7); return s; }
#define SHOW(call) printf("%-40s -> %s\n", #call, result_name(call))

static void h2a(CUarray a, const void *src, size_t rowBytes, size_t rows) {
  CUDA_MEMCPY2D c{};
  c.srcMemoryType = CU_MEMORYTYPE_HOST;
  c.srcHost = src;
  c.srcPitch = rowBytes;
  c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  c.dstArray = a;
  c.WidthInBytes = rowBytes;
  c.Height = rows;
  CHECK(cuMemcpy2D(&c));
}
static void a2h(void *dst, CUarray a, size_t rowBytes, size_t rows) {
  CUDA_MEMCPY2D c{};
  c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  c.srcArray = a;
  c.dstMemoryType = CU_MEMORYTYPE_HOST;
  c.dstHost = dst;
  c.dstPitch = rowBytes;
  c.WidthInBytes = rowBytes;
  c.Height = rows;
  CHECK(cuMemcpy2D(&c));
}
static CUarray make2d(CUarray_format f, unsigned ch, size_t w, size_t h) {
  CUDA_ARRAY_DESCRIPTOR d{};
  d.Format = f;
  d.NumChannels = ch;
  d.Width = w;
  d.Height = h;
  CUarray a;
  CHECK(cuArrayCreate(&a, &d));
  return a;
}
static CUtexObject tex_array(CUarray a, CUaddress_mode am, CUfilter_mode fm, unsigned flags, float border = 0) {
  CUDA_RESOURCE_DESC rd{};
  rd.resType = CU_RESOURCE_TYPE_ARRAY;
  rd.res.array.hArray = a;
  CUDA_TEXTURE_DESC td{};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = am;
  td.filterMode = fm;
  td.flags = flags;
  for (float &c : td.borderColor) c = border;
  CUtexObject t;
  CHECK(cuTexObjectCreate(&t, &rd, &td, nullptr));
  return t;
}
static void print_desc(const char *what, CUarray a) {
  CUDA_ARRAY_DESCRIPTOR d;
  CUresult r = cuArrayGetDescriptor(&d, a);
  if (r != CUDA_SUCCESS) printf("%s descriptor: %s\n", what, result_name(r));
  else printf("%s descriptor: format=0x%x channels=%u width=%zu height=%zu\n", what, d.Format, d.NumChannels, d.Width, d.Height);
  CUDA_ARRAY3D_DESCRIPTOR d3;
  r = cuArray3DGetDescriptor(&d3, a);
  if (r != CUDA_SUCCESS) printf("%s 3D descriptor: %s\n", what, result_name(r));
  else printf("%s 3D descriptor: format=0x%x channels=%u %zux%zux%zu flags=0x%x\n", what, d3.Format, d3.NumChannels, d3.Width,
              d3.Height, d3.Depth, d3.Flags);
}

static int mip_main();
static int probe_main();

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  setvbuf(stdout, nullptr, _IOLBF, 0);
  std::vector<char> ptx = read_file(argv[1]);
  init_primary();
  CHECK(cuModuleLoadData(&mod, ptx.data()));
  if (argc > 2 && !strcmp(argv[2], "mip")) return mip_main();
  if (argc > 2 && !strcmp(argv[2], "probe")) return probe_main();
  const int W = 16, H = 8;
  CUstream s;
  CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));

  // ---- a 2D float array: copies in and out -------------------------------------------------
  CUarray a = make2d(CU_AD_FORMAT_FLOAT, 1, W, H);
  print_desc("2D float", a);
  const int HP = W + 3; // host pitch in floats
  std::vector<float> img(HP * H, -1.0f), back(W * H, 0.0f);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) img[y * HP + x] = y * 100 + x;
  CUDA_MEMCPY2D c{};
  c.srcMemoryType = CU_MEMORYTYPE_HOST;
  c.srcHost = img.data();
  c.srcPitch = HP * 4;
  c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  c.dstArray = a;
  c.WidthInBytes = W * 4;
  c.Height = H;
  CHECK(cuMemcpy2D(&c));
  CUDA_MEMCPY2D b{};
  b.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  b.srcArray = a;
  b.dstMemoryType = CU_MEMORYTYPE_HOST;
  b.dstHost = back.data();
  b.dstPitch = W * 4;
  b.WidthInBytes = W * 4;
  b.Height = H;
  CHECK(cuMemcpy2D(&b));
  printf("HtoA/AtoH 2D: [0]=%g [17]=%g [127]=%g weighted=%.1f\n", back[0], back[17], back[127], sumd(back.data(), W * H));
  // A 5x3 block from (x=2,y=1) of a into (x=9,y=4) of a2, via cuMemcpy2DAsync.
  CUarray a2 = make2d(CU_AD_FORMAT_FLOAT, 1, W, H);
  std::vector<float> zeros(W * H, 0.0f);
  h2a(a2, zeros.data(), W * 4, H);
  CUDA_MEMCPY2D aa{};
  aa.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  aa.srcArray = a;
  aa.srcXInBytes = 2 * 4;
  aa.srcY = 1;
  aa.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  aa.dstArray = a2;
  aa.dstXInBytes = 9 * 4;
  aa.dstY = 4;
  aa.WidthInBytes = 5 * 4;
  aa.Height = 3;
  CHECK(cuMemcpy2DAsync(&aa, s));
  CHECK(cuStreamSynchronize(s));
  a2h(back.data(), a2, W * 4, H);
  printf("AtoA block: [4*16+9]=%g [6*16+13]=%g [4*16+8]=%g weighted=%.1f\n", back[4 * W + 9], back[6 * W + 13], back[4 * W + 8],
         sumd(back.data(), W * H));
  // The 1D copy forms (byte offsets) on a 1D array, and on a 2D one.
  CUdeviceptr d;
  CHECK(cuMemAlloc(&d, W * H * 4));
  CHECK(cuMemsetD32(d, 0, W * H));
  {
    CUarray a1 = make2d(CU_AD_FORMAT_FLOAT, 1, 64, 0);
    std::vector<float> v(64), v2(64, 0.0f);
    for (int i = 0; i < 64; ++i) v[i] = 3 * i + 1;
    CHECK(cuMemcpyHtoA(a1, 0, v.data(), 64 * 4));
    CHECK(cuMemcpyAtoH(v2.data(), a1, 8 * 4, 4 * 4));
    printf("1D HtoA/AtoH: %g %g %g %g\n", v2[0], v2[1], v2[2], v2[3]);
    CHECK(cuMemcpyAtoD(d, a1, 4, 10 * 4));
    CHECK(cuMemcpyDtoA(a1, 32 * 4, d, 10 * 4));
    CHECK(cuMemcpyAtoH(v2.data(), a1, 0, 64 * 4));
    printf("1D AtoD/DtoA: [31]=%g [32]=%g [41]=%g [42]=%g\n", v2[31], v2[32], v2[41], v2[42]);
    CUarray a1b = make2d(CU_AD_FORMAT_FLOAT, 1, 64, 0);
    CHECK(cuMemcpyAtoA(a1b, 0, a1, 30 * 4, 34 * 4));
    CHECK(cuMemcpyAtoH(v2.data(), a1b, 0, 64 * 4));
    printf("1D AtoA: [0]=%g [2]=%g [12]=%g\n", v2[0], v2[2], v2[12]);
    SHOW(cuMemcpyHtoA(a1, 60 * 4, v.data(), 8 * 4));
    SHOW(cuMemcpyAtoH(v2.data(), a1, 0, 65 * 4));
    CHECK(cuArrayDestroy(a1b));
    CHECK(cuArrayDestroy(a1));
    std::fill(back.begin(), back.end(), 0.0f);
    printf("2D array, 1D forms:\n");
    SHOW(cuMemcpyAtoH(back.data(), a, 0, W * H * 4));
    printf("  [0]=%g [17]=%g [127]=%g\n", back[0], back[17], back[127]);
    SHOW(cuMemcpyAtoH(back.data(), a, W * 4 + 8, 4 * 4));
    printf("  [0]=%g [3]=%g\n", back[0], back[3]);
    SHOW(cuMemcpyAtoD(d, a, 3 * W * 4 + 8, 2 * W * 4));
    SHOW(cuMemcpyHtoA(a2, 4, img.data(), 4 * 4));
    a2h(back.data(), a2, W * 4, H);
    printf("  a2 [0]=%g [1]=%g [4]=%g\n", back[0], back[1], back[4]);
  }
  // Device pitched memory <-> array through cuMemcpy2D.
  CUdeviceptr pd;
  size_t pitch;
  CHECK(cuMemAllocPitch(&pd, &pitch, W * 4, H, 4));
  CUDA_MEMCPY2D ad{};
  ad.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  ad.srcArray = a;
  ad.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  ad.dstDevice = pd;
  ad.dstPitch = pitch;
  ad.WidthInBytes = W * 4;
  ad.Height = H;
  CHECK(cuMemcpy2D(&ad));
  float pv[2];
  CHECK(cuMemcpyDtoH(&pv[0], pd + 5 * pitch + 7 * 4, 4));
  CHECK(cuMemcpyDtoH(&pv[1], pd + 7 * pitch + 15 * 4, 4));
  printf("AtoD pitched: (7,5)=%g (15,7)=%g\n", pv[0], pv[1]);

  // ---- texture objects over the 2D float array ----------------------------------------------
  CUdeviceptr out;
  CHECK(cuMemAlloc(&out, W * H * 16));
  std::vector<float> o(W * H * 4);
  int w = W, h = H, zero = 0, one = 1;
  CUfunction t2f = get("tex2d_f");
  struct Case { const char *name; CUaddress_mode am; CUfilter_mode fm; unsigned flags; float dx, dy; int norm; float border; };
  Case cases[] = {
      {"clamp point +0.5", CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0, 0.5f, 0.5f, 0, 0},
      {"clamp point shifted", CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0, 5.5f, -2.5f, 0, 0},
      {"border point shifted", CU_TR_ADDRESS_MODE_BORDER, CU_TR_FILTER_MODE_POINT, 0, 5.5f, -2.5f, 0, 7.0f},
      {"clamp linear", CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, 0, 0.75f, 0.25f, 0, 0},
      {"wrap point normalized", CU_TR_ADDRESS_MODE_WRAP, CU_TR_FILTER_MODE_POINT, CU_TRSF_NORMALIZED_COORDINATES, 20.5f,
       9.5f, 1, 0},
      {"mirror point normalized", CU_TR_ADDRESS_MODE_MIRROR, CU_TR_FILTER_MODE_POINT, CU_TRSF_NORMALIZED_COORDINATES,
       20.5f, 9.5f, 1, 0},
  };
  for (const Case &k : cases) {
    CUtexObject t = tex_array(a, k.am, k.fm, k.flags, k.border);
    float dx = k.dx, dy = k.dy;
    int norm = k.norm;
    void *args[] = {&t, &out, &w, &h, &dx, &dy, &norm};
    launch2d(t2f, W, H, args);
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(o.data(), out, W * H * 4));
    printf("tex %-24s: [0]=%g [17]=%g [127]=%g weighted=%.3f\n", k.name, o[0], o[17], o[127], sumd(o.data(), W * H));
    CHECK(cuTexObjectDestroy(t));
  }
  // Descriptors back.
  {
    CUtexObject t = tex_array(a, CU_TR_ADDRESS_MODE_BORDER, CU_TR_FILTER_MODE_LINEAR, CU_TRSF_NORMALIZED_COORDINATES, 0.25f);
    CUDA_RESOURCE_DESC rd;
    memset(&rd, 0x5a, sizeof rd);
    CHECK(cuTexObjectGetResourceDesc(&rd, t));
    printf("resource desc: type=%d same array=%d flags=%u\n", (int)rd.resType, rd.res.array.hArray == a, rd.flags);
    CUDA_TEXTURE_DESC td;
    memset(&td, 0x5a, sizeof td);
    CHECK(cuTexObjectGetTextureDesc(&td, t));
    printf("texture desc: address=%d,%d,%d filter=%d flags=0x%x border=%g aniso=%u mipfilter=%d\n", (int)td.addressMode[0],
           (int)td.addressMode[1], (int)td.addressMode[2], (int)td.filterMode, td.flags, td.borderColor[0], td.maxAnisotropy,
           (int)td.mipmapFilterMode);
    CUDA_RESOURCE_VIEW_DESC vd;
    printf("cuTexObjectGetResourceViewDesc (none)     -> %s\n", result_name(cuTexObjectGetResourceViewDesc(&vd, t)));
    CHECK(cuTexObjectDestroy(t));
  }

  // ---- uchar4: promoted to [0,1] by default, integers with CU_TRSF_READ_AS_INTEGER -----------
  CUarray a4 = make2d(CU_AD_FORMAT_UNSIGNED_INT8, 4, W, H);
  print_desc("2D uchar4", a4);
  std::vector<unsigned char> px(W * H * 4);
  for (int i = 0; i < W * H * 4; ++i) px[i] = (unsigned char)(i * 37 + 11);
  h2a(a4, px.data(), W * 4, H);
  {
    CUtexObject t = tex_array(a4, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
    void *args[] = {&t, &out, &w, &h};
    launch2d(get("tex2d_f4"), W, H, args);
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(o.data(), out, W * H * 16));
    printf("uchar4 promoted: %.6f %.6f %.6f %.6f weighted=%.4f\n", o[0], o[1], o[2], o[3], sumd(o.data(), W * H * 4));
    CHECK(cuTexObjectDestroy(t));
    t = tex_array(a4, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, CU_TRSF_READ_AS_INTEGER);
    void *args2[] = {&t, &out, &w, &h};
    launch2d(get("tex2d_u4"), W, H, args2);
    CHECK(cuCtxSynchronize());
    std::vector<unsigned> u(W * H * 4);
    CHECK(cuMemcpyDtoH(u.data(), out, W * H * 16));
    unsigned long long us = 0;
    for (size_t i = 0; i < u.size(); ++i) us += u[i] * (i % 5 + 1);
    printf("uchar4 as integer: %u %u %u %u weighted=%llu\n", u[4], u[5], u[6], u[7], us);
    CHECK(cuTexObjectDestroy(t));
    // Linear filtering of integer reads.
    CUDA_RESOURCE_DESC rd{};
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = a4;
    CUDA_TEXTURE_DESC td{};
    td.filterMode = CU_TR_FILTER_MODE_LINEAR;
    td.flags = CU_TRSF_READ_AS_INTEGER;
    printf("linear filter + READ_AS_INTEGER (u8)      -> %s\n", result_name(cuTexObjectCreate(&t, &rd, &td, nullptr)));
    if (t) cuTexObjectDestroy(t);
  }
  // ---- int32 without READ_AS_INTEGER (32-bit integers are never promoted) --------------------
  {
    CUarray ai = make2d(CU_AD_FORMAT_SIGNED_INT32, 1, W, H);
    std::vector<int> iv(W * H);
    for (int i = 0; i < W * H; ++i) iv[i] = i * 1001 - 50000;
    h2a(ai, iv.data(), W * 4, H);
    CUtexObject t = tex_array(ai, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
    void *args[] = {&t, &out, &w, &h};
    launch2d(get("tex2d_i"), W, H, args);
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(iv.data(), out, W * H * 4));
    long long is = 0;
    for (int i = 0; i < W * H; ++i) is += (long long)iv[i] * (i % 3 + 1);
    printf("int32 no flag: [0]=%d [77]=%d weighted=%lld\n", iv[0], iv[77], is);
    CHECK(cuTexObjectDestroy(t));
    CHECK(cuArrayDestroy(ai));
  }
  // ---- half floats ------------------------------------------------------------------------
  {
    CUarray ah = make2d(CU_AD_FORMAT_HALF, 1, W, H);
    print_desc("2D half", ah);
    std::vector<__half> hv(W * H);
    for (int i = 0; i < W * H; ++i) hv[i] = __float2half(i * 0.25f - 3.0f);
    h2a(ah, hv.data(), W * 2, H);
    CUtexObject t = tex_array(ah, CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, 0);
    float dx = 0.5f, dy = 0.5f;
    void *args[] = {&t, &out, &w, &h, &dx, &dy, &zero};
    launch2d(t2f, W, H, args);
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(o.data(), out, W * H * 4));
    printf("half linear: [0]=%g [17]=%g [127]=%g weighted=%.3f\n", o[0], o[17], o[127], sumd(o.data(), W * H));
    CHECK(cuTexObjectDestroy(t));
    CHECK(cuArrayDestroy(ah));
  }

  // ---- linear and pitch2D resources -------------------------------------------------------
  {
    const int N = 64;
    std::vector<float> lin(N);
    for (int i = 0; i < N; ++i) lin[i] = i * 1.5f;
    CUdeviceptr ld;
    CHECK(cuMemAlloc(&ld, N * 4));
    CHECK(cuMemcpyHtoD(ld, lin.data(), N * 4));
    CUDA_RESOURCE_DESC rd{};
    rd.resType = CU_RESOURCE_TYPE_LINEAR;
    rd.res.linear.devPtr = ld;
    rd.res.linear.format = CU_AD_FORMAT_FLOAT;
    rd.res.linear.numChannels = 1;
    rd.res.linear.sizeInBytes = N * 4;
    CUDA_TEXTURE_DESC td{};
    CUtexObject t;
    CHECK(cuTexObjectCreate(&t, &rd, &td, nullptr));
    int n = 40, stride = 2;
    void *args[] = {&t, &out, &n, &stride};
    CHECK(cuLaunchKernel(get("fetch1d_f"), 1, 1, 1, 64, 1, 1, 0, nullptr, args, nullptr));
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(o.data(), out, n * 4));
    printf("linear fetch: [0]=%g [10]=%g [31]=%g [32]=%g [39]=%g\n", o[0], o[10], o[31], o[32], o[39]);
    CUDA_RESOURCE_DESC back_rd;
    CHECK(cuTexObjectGetResourceDesc(&back_rd, t));
    printf("linear resource desc: type=%d same ptr=%d format=0x%x channels=%u size=%zu\n", (int)back_rd.resType,
           back_rd.res.linear.devPtr == ld, back_rd.res.linear.format, back_rd.res.linear.numChannels,
           back_rd.res.linear.sizeInBytes);
    CHECK(cuTexObjectDestroy(t));

    rd = CUDA_RESOURCE_DESC{};
    rd.resType = CU_RESOURCE_TYPE_PITCH2D;
    rd.res.pitch2D.devPtr = pd;
    rd.res.pitch2D.format = CU_AD_FORMAT_FLOAT;
    rd.res.pitch2D.numChannels = 1;
    rd.res.pitch2D.width = W;
    rd.res.pitch2D.height = H;
    rd.res.pitch2D.pitchInBytes = pitch;
    td = CUDA_TEXTURE_DESC{};
    td.filterMode = CU_TR_FILTER_MODE_LINEAR;
    CHECK(cuTexObjectCreate(&t, &rd, &td, nullptr));
    float dx = 1.25f, dy = 0.5f;
    void *args2[] = {&t, &out, &w, &h, &dx, &dy, &zero};
    launch2d(t2f, W, H, args2);
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(o.data(), out, W * H * 4));
    printf("pitch2D linear: [0]=%g [17]=%g [127]=%g weighted=%.3f\n", o[0], o[17], o[127], sumd(o.data(), W * H));
    CHECK(cuTexObjectGetResourceDesc(&back_rd, t));
    printf("pitch2D resource desc: type=%d %zux%zu pitch ok=%d\n", (int)back_rd.resType, back_rd.res.pitch2D.width,
           back_rd.res.pitch2D.height, back_rd.res.pitch2D.pitchInBytes == pitch);
    CHECK(cuTexObjectDestroy(t));
    rd.res.pitch2D.pitchInBytes = W * 4 + 4; // not a multiple of the texture pitch alignment
    printf("pitch2D misaligned pitch                  -> %s\n", result_name(cuTexObjectCreate(&t, &rd, &td, nullptr)));
    CHECK(cuMemFree(ld));
  }

  // ---- 3D and layered arrays, cuMemcpy3D ----------------------------------------------------
  {
    const int X = 8, Y = 4, Z = 3;
    CUDA_ARRAY3D_DESCRIPTOR d3{};
    d3.Format = CU_AD_FORMAT_FLOAT;
    d3.NumChannels = 1;
    d3.Width = X;
    d3.Height = Y;
    d3.Depth = Z;
    CUarray a3;
    CHECK(cuArray3DCreate(&a3, &d3));
    print_desc("3D float", a3);
    std::vector<float> vol(X * Y * Z), vb(X * Y * Z, 0.0f);
    for (int i = 0; i < X * Y * Z; ++i) vol[i] = i * 0.5f + 1;
    CUDA_MEMCPY3D m{};
    m.srcMemoryType = CU_MEMORYTYPE_HOST;
    m.srcHost = vol.data();
    m.srcPitch = X * 4;
    m.srcHeight = Y;
    m.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    m.dstArray = a3;
    m.WidthInBytes = X * 4;
    m.Height = Y;
    m.Depth = Z;
    CHECK(cuMemcpy3D(&m));
    // A 3x2x2 box from (2,1,1) back to the host at (0,0,0), async.
    CUDA_MEMCPY3D mb{};
    mb.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    mb.srcArray = a3;
    mb.srcXInBytes = 2 * 4;
    mb.srcY = 1;
    mb.srcZ = 1;
    mb.dstMemoryType = CU_MEMORYTYPE_HOST;
    mb.dstHost = vb.data();
    mb.dstPitch = 3 * 4;
    mb.dstHeight = 2;
    mb.WidthInBytes = 3 * 4;
    mb.Height = 2;
    mb.Depth = 2;
    CHECK(cuMemcpy3DAsync(&mb, s));
    CHECK(cuStreamSynchronize(s));
    printf("3D box:");
    for (int i = 0; i < 12; ++i) printf(" %g", vb[i]);
    printf("\n");
    CUDA_RESOURCE_DESC rd{};
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = a3;
    CUDA_TEXTURE_DESC td{};
    CUtexObject t;
    CHECK(cuTexObjectCreate(&t, &rd, &td, nullptr));
    int x = X, y = Y, z = Z;
    void *args[] = {&t, &out, &x, &y, &z};
    CHECK(cuLaunchKernel(get("tex3d_f"), Z, 1, 1, X, Y, 1, 0, nullptr, args, nullptr));
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(o.data(), out, X * Y * Z * 4));
    printf("tex3D: [0]=%g [45]=%g [95]=%g weighted=%.2f\n", o[0], o[45], o[95], sumd(o.data(), X * Y * Z));
    CHECK(cuTexObjectDestroy(t));
    CHECK(cuArrayDestroy(a3));

    d3.Flags = CUDA_ARRAY3D_LAYERED;
    CUarray al;
    CHECK(cuArray3DCreate(&al, &d3));
    print_desc("layered", al);
    m.dstArray = al;
    CHECK(cuMemcpy3D(&m));
    rd.res.array.hArray = al;
    CHECK(cuTexObjectCreate(&t, &rd, &td, nullptr));
    CHECK(cuLaunchKernel(get("tex2d_layered_f"), Z, 1, 1, X, Y, 1, 0, nullptr, args, nullptr));
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(o.data(), out, X * Y * Z * 4));
    printf("tex2DLayered: [0]=%g [45]=%g [95]=%g weighted=%.2f\n", o[0], o[45], o[95], sumd(o.data(), X * Y * Z));
    CHECK(cuTexObjectDestroy(t));
    CHECK(cuArrayDestroy(al));
  }

  // ---- surfaces ----------------------------------------------------------------------------
  {
    CUDA_ARRAY3D_DESCRIPTOR d3{};
    d3.Format = CU_AD_FORMAT_FLOAT;
    d3.NumChannels = 1;
    d3.Width = W;
    d3.Height = H;
    d3.Flags = CUDA_ARRAY3D_SURFACE_LDST;
    CUarray as;
    CHECK(cuArray3DCreate(&as, &d3));
    print_desc("surface", as);
    CHECK(cuMemcpy2D(&c)); // img -> a (again) ...
    CUDA_MEMCPY2D cs = c;
    cs.dstArray = as;
    CHECK(cuMemcpy2D(&cs));
    CUDA_RESOURCE_DESC rd{};
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = as;
    CUsurfObject so;
    CHECK(cuSurfObjectCreate(&so, &rd));
    float k = 0.5f;
    void *args[] = {&so, &w, &h, &k};
    launch2d(get("surf2d_scale"), W, H, args);
    CHECK(cuCtxSynchronize());
    a2h(back.data(), as, W * 4, H);
    printf("surface 2x+0.5: [0]=%g [17]=%g [127]=%g weighted=%.1f\n", back[0], back[17], back[127], sumd(back.data(), W * H));
    CUDA_RESOURCE_DESC sb;
    CHECK(cuSurfObjectGetResourceDesc(&sb, so));
    printf("surface resource desc: type=%d same array=%d\n", (int)sb.resType, sb.res.array.hArray == as);
    CHECK(cuSurfObjectDestroy(so));
    rd.res.array.hArray = a; // allocated without CUDA_ARRAY3D_SURFACE_LDST
    CUresult r = cuSurfObjectCreate(&so, &rd);
    printf("cuSurfObjectCreate (no SURFACE_LDST)      -> %s\n", result_name(r));
    if (r == CUDA_SUCCESS) CHECK(cuSurfObjectDestroy(so));
    rd.resType = CU_RESOURCE_TYPE_LINEAR;
    rd.res.linear.devPtr = d;
    rd.res.linear.format = CU_AD_FORMAT_FLOAT;
    rd.res.linear.numChannels = 1;
    rd.res.linear.sizeInBytes = W * 4;
    printf("cuSurfObjectCreate (linear)               -> %s\n", result_name(cuSurfObjectCreate(&so, &rd)));
    CHECK(cuArrayDestroy(as));
  }

  // ---- errors ------------------------------------------------------------------------------
  {
    CUDA_ARRAY_DESCRIPTOR bad{};
    bad.Format = CU_AD_FORMAT_FLOAT;
    bad.Width = W;
    bad.Height = H;
    CUarray x = nullptr;
    bad.NumChannels = 3;
    printf("cuArrayCreate 3 channels                  -> %s\n", result_name(cuArrayCreate(&x, &bad)));
    bad.NumChannels = 0;
    printf("cuArrayCreate 0 channels                  -> %s\n", result_name(cuArrayCreate(&x, &bad)));
    bad.NumChannels = 1;
    bad.Width = 0;
    printf("cuArrayCreate width 0                     -> %s\n", result_name(cuArrayCreate(&x, &bad)));
    bad.Width = W;
    bad.Format = (CUarray_format)0x77;
    printf("cuArrayCreate format 0x77                 -> %s\n", result_name(cuArrayCreate(&x, &bad)));
    bad.Format = CU_AD_FORMAT_FLOAT;
    bad.Height = 0;
    CHECK(cuArrayCreate(&x, &bad));
    print_desc("1D float", x);
    CHECK(cuArrayDestroy(x));
    printf("cuArrayCreate null desc                   -> %s\n", result_name(cuArrayCreate(&x, nullptr)));
    CUDA_ARRAY3D_DESCRIPTOR b3{};
    b3.Format = CU_AD_FORMAT_FLOAT;
    b3.NumChannels = 1;
    b3.Width = W;
    b3.Depth = 2;
    printf("cuArray3DCreate depth without height      -> %s\n", result_name(cuArray3DCreate(&x, &b3)));
    b3.Height = 4;
    b3.Flags = 0x1000;
    printf("cuArray3DCreate unknown flag 0x1000       -> %s\n", result_name(cuArray3DCreate(&x, &b3)));
    CUDA_MEMCPY2D over = c;
    over.dstXInBytes = 4;
    printf("cuMemcpy2D HtoA past the row              -> %s\n", result_name(cuMemcpy2D(&over)));
    over = c;
    over.dstY = 1;
    printf("cuMemcpy2D HtoA past the last row         -> %s\n", result_name(cuMemcpy2D(&over)));
    CUDA_RESOURCE_DESC rd{};
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = a;
    CUDA_TEXTURE_DESC td{};
    CUtexObject t = 0;
    printf("cuTexObjectCreate null texture desc       -> %s\n", result_name(cuTexObjectCreate(&t, &rd, nullptr, nullptr)));
    rd.res.array.hArray = nullptr;
    printf("cuTexObjectCreate null array              -> %s\n", result_name(cuTexObjectCreate(&t, &rd, &td, nullptr)));
    rd.resType = (CUresourcetype)9;
    printf("cuTexObjectCreate resource type 9         -> %s\n", result_name(cuTexObjectCreate(&t, &rd, &td, nullptr)));
    printf("cuTexObjectDestroy(0)                     -> %s\n", result_name(cuTexObjectDestroy(0)));
    CUDA_RESOURCE_DESC q;
    printf("cuTexObjectGetResourceDesc(0)             -> %s\n", result_name(cuTexObjectGetResourceDesc(&q, 0)));
    printf("cuArrayDestroy(null)                      -> %s\n", result_name(cuArrayDestroy(nullptr)));
    CHECK(cuArrayDestroy(a2));
    CHECK(cuArrayDestroy(a4));
  }
  CHECK(cuArrayDestroy(a));
  CHECK(cuMemFree(d));
  CHECK(cuMemFree(pd));
  CHECK(cuMemFree(out));
  CHECK(cuStreamDestroy(s));
  printf("done\n");
  return 0;
}

// Mipmapped arrays: a 16x16 float pyramid (5 levels), level l filled with 10*l + x/16, read with
// tex2DLod at integer and fractional levels (point and linear mipmap filtering).
static int mip_main() {
  const int N = 16;
  CUDA_ARRAY3D_DESCRIPTOR d{};
  d.Format = CU_AD_FORMAT_FLOAT;
  d.NumChannels = 1;
  d.Width = N;
  d.Height = N;
  CUmipmappedArray m;
  CUresult r = cuMipmappedArrayCreate(&m, &d, 5);
  printf("cuMipmappedArrayCreate 5 levels           -> %s\n", result_name(r));
  if (r != CUDA_SUCCESS) return 1;
  for (unsigned l = 0; l < 5; ++l) {
    CUarray lv;
    CHECK(cuMipmappedArrayGetLevel(&lv, m, l));
    CUDA_ARRAY3D_DESCRIPTOR ld;
    CHECK(cuArray3DGetDescriptor(&ld, lv));
    size_t w = ld.Width, h = ld.Height;
    printf("level %u: %zux%zu depth=%zu flags=0x%x\n", l, w, h, ld.Depth, ld.Flags);
    std::vector<float> v(w * h);
    for (size_t i = 0; i < w * h; ++i) v[i] = 10.0f * l + float(i % w) / 16;
    h2a(lv, v.data(), w * 4, h);
  }
  CUarray lv;
  printf("cuMipmappedArrayGetLevel 5                -> %s\n", result_name(cuMipmappedArrayGetLevel(&lv, m, 5)));
  CUdeviceptr out;
  CHECK(cuMemAlloc(&out, N * N * 4));
  std::vector<float> o(N * N);
  for (CUfilter_mode mf : {CU_TR_FILTER_MODE_POINT, CU_TR_FILTER_MODE_LINEAR}) {
    CUDA_RESOURCE_DESC rd{};
    rd.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
    rd.res.mipmap.hMipmappedArray = m;
    CUDA_TEXTURE_DESC td{};
    td.flags = CU_TRSF_NORMALIZED_COORDINATES;
    td.mipmapFilterMode = mf;
    td.maxMipmapLevelClamp = 4;
    CUtexObject t;
    CHECK(cuTexObjectCreate(&t, &rd, &td, nullptr));
    for (float lod : {0.0f, 1.0f, 2.0f, 1.5f, 7.0f}) {
      int w = N, h = N;
      void *args[] = {&t, &out, &w, &h, &lod};
      launch2d(get("tex2d_lod_f"), N, N, args);
      CHECK(cuCtxSynchronize());
      CHECK(cuMemcpyDtoH(o.data(), out, N * N * 4));
      printf("mipfilter %d lod %g: [0]=%g [5]=%g [255]=%g weighted=%.3f\n", (int)mf, lod, o[0], o[5], o[255],
             sumd(o.data(), N * N));
    }
    CHECK(cuTexObjectDestroy(t));
  }
  CHECK(cuMipmappedArrayDestroy(m));
  CHECK(cuMemFree(out));
  printf("done\n");
  return 0;
}

// uchar4 texels, linear filter + CU_TRSF_READ_AS_INTEGER, read at +0.25 / +0.75 / +1.0 offsets.
static int probe_main() {
  const int W = 8, H = 4;
  CUarray a = make2d(CU_AD_FORMAT_UNSIGNED_INT8, 4, W, H);
  std::vector<unsigned char> px(W * H * 4);
  for (int i = 0; i < W * H * 4; ++i) px[i] = (unsigned char)(i * 37 + 11);
  h2a(a, px.data(), W * 4, H);
  CUdeviceptr out;
  CHECK(cuMemAlloc(&out, W * H * 16));
  std::vector<unsigned> u(W * H * 4);
  for (CUfilter_mode fm : {CU_TR_FILTER_MODE_POINT, CU_TR_FILTER_MODE_LINEAR}) {
    CUtexObject t = tex_array(a, CU_TR_ADDRESS_MODE_CLAMP, fm, CU_TRSF_READ_AS_INTEGER);
    for (float off : {0.25f, 0.75f, 1.0f}) {
      int w = W, h = H;
      void *args[] = {&t, &out, &w, &h, &off, &off};
      launch2d(get("tex2d_u4_off"), W, H, args);
      CHECK(cuCtxSynchronize());
      CHECK(cuMemcpyDtoH(u.data(), out, W * H * 16));
      unsigned long long us = 0;
      for (size_t i = 0; i < u.size(); ++i) us += u[i] * (i % 5 + 1);
      printf("filter %d offset %g: %u %u %u %u | %u %u %u %u weighted=%llu\n", (int)fm, off, u[0], u[1], u[2], u[3],
             u[36], u[37], u[38], u[39], us);
    }
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    CHECK(cuTexObjectGetTextureDesc(&td, t));
    printf("filter %d: texture desc filter=%d flags=0x%x border=%g\n", (int)fm, (int)td.filterMode, td.flags,
           td.borderColor[0]);
    CHECK(cuTexObjectDestroy(t));
  }
  CHECK(cuArrayDestroy(a));
  CHECK(cuMemFree(out));
  printf("done\n");
  return 0;
}

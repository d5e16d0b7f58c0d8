// drv_extra.cpp: cuLaunchKernel with `extra` = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf,
// CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END}: the by-value parameters of
// mixed_params (sizes 8,4,1,8,2,4) packed at their natural alignments (offsets 0,8,12,16,24,28),
// compared with the same launch through kernelParams; plus the error for passing both.
// usage: drv_extra KERNELS.ptx
#include "drv_common.h"
#include <cstring>

static long long expect(int i, char c, double d, short s, float f) {
  return (long long)(d * i) + c * 1000 + s * 100000LL + (long long)(f * 7.0f) + i;
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  std::vector<char> ptx = read_file(argv[1]);
  init_primary();
  CUmodule mod;
  CHECK(cuModuleLoadData(&mod, ptx.data()));
  CUfunction fn;
  CHECK(cuModuleGetFunction(&fn, mod, "mixed_params"));
  const int n = 300;
  CUdeviceptr out;
  CHECK(cuMemAlloc(&out, n * sizeof(long long)));
  int count = n;
  char c = 3;
  double d = 2.5;
  short s = -2;
  float f = 1.75f;
  alignas(8) unsigned char buf[32] = {0};
  memcpy(buf + 0, &out, 8);
  memcpy(buf + 8, &count, 4);
  memcpy(buf + 12, &c, 1);
  memcpy(buf + 16, &d, 8);
  memcpy(buf + 24, &s, 2);
  memcpy(buf + 28, &f, 4);
  size_t size = sizeof buf;
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   CU_LAUNCH_PARAM_END};
  CHECK(cuLaunchKernel(fn, 3, 1, 1, 100, 1, 1, 0, nullptr, nullptr, extra));
  CHECK(cuCtxSynchronize());
  std::vector<long long> h(n);
  CHECK(cuMemcpyDtoH(h.data(), out, n * sizeof(long long)));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != expect(i, c, d, s, f);
  printf("extra: out[0]=%lld out[1]=%lld out[299]=%lld mismatches=%d\n", h[0], h[1], h[299], bad);

  c = -5; d = -1.25; s = 7; f = 0.5f;
  void *params[] = {&out, &count, &c, &d, &s, &f};
  CHECK(cuLaunchKernel(fn, 3, 1, 1, 100, 1, 1, 0, nullptr, params, nullptr));
  CHECK(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(h.data(), out, n * sizeof(long long)));
  int bad2 = 0;
  for (int i = 0; i < n; ++i) bad2 += h[i] != expect(i, c, d, s, f);
  printf("kernelParams: out[0]=%lld out[1]=%lld out[299]=%lld mismatches=%d\n", h[0], h[1], h[299], bad2);

  printf("both kernelParams and extra: %s\n",
         result_name(cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, nullptr, params, extra)));
  size_t small = 16;
  void *extra_small[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &small,
                         CU_LAUNCH_PARAM_END};
  CUresult rs = cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, extra_small);
  printf("extra with a 16-byte buffer: %s\n", result_name(rs));
  cuCtxSynchronize();
  CHECK(cuMemFree(out));
  CHECK(cuModuleUnload(mod));
  printf("%s\n", bad || bad2 ? "FAIL" : "PASS");
  return bad || bad2;
}

// drv_common.h: helpers shared by the driver-API test programs: reading a whole file, printing a
// CUresult by name, and a CHECK macro that reports the failing call and exits with status 1.
#pragma once
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static inline const char *result_name(CUresult r) {
  const char *s = nullptr;
  if (cuGetErrorName(r, &s) != CUDA_SUCCESS || !s) return "(unknown CUresult)";
  return s;
}

#define CHECK(call)                                                                   \
  do {                                                                                \
    CUresult check_r_ = (call);                                                       \
    if (check_r_ != CUDA_SUCCESS) {                                                   \
      printf("%s:%d: %s failed: %s\n", strrchr("/" __FILE__, '/') + 1, __LINE__, #call, result_name(check_r_)); \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

// Whole file, plus a terminating NUL so PTX text can be passed as a C string.
static inline std::vector<char> read_file(const char *path) {
  std::vector<char> data;
  FILE *f = fopen(path, "rb");
  if (!f) {
    printf("cannot open %s\n", path);
    exit(1);
  }
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) data.insert(data.end(), buf, buf + n);
  fclose(f);
  data.push_back('\0');
  return data;
}

// cuInit + device 0 + its primary context made current.
static inline CUcontext init_primary(CUdevice *dev_out = nullptr) {
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  if (dev_out) *dev_out = dev;
  return ctx;
}

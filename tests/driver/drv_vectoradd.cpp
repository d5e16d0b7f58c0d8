// drv_vectoradd.cpp: driver-API vectorAdd over one image file. usage: drv_vectoradd MODE FILE
// MODE: data (cuModuleLoadData), dataex (cuModuleLoadDataEx with JIT log options), fatbin
// (cuModuleLoadFatBinary), file (cuModuleLoad on the path), library (cuLibraryLoadData +
// cuLibraryGetKernel + cuKernelGetFunction). Prints the load result by name; when the image
// loads, runs vector_add on 1000 elements with kernelParams and checks every element.
#include "drv_common.h"
#include <cstring>
#include <string>

static CUresult load(const std::string &mode, const char *path, const std::vector<char> &img,
                     CUmodule *mod, CUlibrary *lib, CUfunction *fn) {
  CUresult r;
  if (mode == "data") {
    r = cuModuleLoadData(mod, img.data());
  } else if (mode == "dataex") {
    char log[4096] = {0}, info[4096] = {0};
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                           CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
    void *vals[] = {log, (void *)(size_t)sizeof log, info, (void *)(size_t)sizeof info};
    r = cuModuleLoadDataEx(mod, img.data(), 4, opts, vals);
    printf("error log empty: %d\n", log[0] == 0);
  } else if (mode == "fatbin") {
    r = cuModuleLoadFatBinary(mod, img.data());
  } else if (mode == "file") {
    r = cuModuleLoad(mod, path);
  } else if (mode == "library") {
    r = cuLibraryLoadData(lib, img.data(), nullptr, nullptr, 0, nullptr, nullptr, 0);
    if (r != CUDA_SUCCESS) return r;
    CUkernel k;
    CHECK(cuLibraryGetKernel(&k, *lib, "vector_add"));
    CHECK(cuKernelGetFunction(fn, k));
    CUkernel missing;
    printf("cuLibraryGetKernel(missing): %s\n", result_name(cuLibraryGetKernel(&missing, *lib, "nope")));
    return r;
  } else {
    printf("unknown mode %s\n", mode.c_str());
    exit(2);
  }
  if (r != CUDA_SUCCESS) return r;
  CHECK(cuModuleGetFunction(fn, *mod, "vector_add"));
  CUfunction missing;
  printf("cuModuleGetFunction(missing): %s\n", result_name(cuModuleGetFunction(&missing, *mod, "nope")));
  return r;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    printf("usage: drv_vectoradd MODE FILE\n");
    return 2;
  }
  std::string mode = argv[1];
  std::vector<char> img = read_file(argv[2]);
  init_primary();
  CUmodule mod = nullptr;
  CUlibrary lib = nullptr;
  CUfunction fn = nullptr;
  CUresult r = load(mode, argv[2], img, &mod, &lib, &fn);
  printf("load (%s): %s\n", mode.c_str(), result_name(r));
  if (r != CUDA_SUCCESS) return 0;
  const int n = 1000;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (int i = 0; i < n; ++i) { a[i] = 0.25f * i; b[i] = 1000.0f - i; }
  CUdeviceptr da, db, dc;
  CHECK(cuMemAlloc(&da, n * sizeof(float)));
  CHECK(cuMemAlloc(&db, n * sizeof(float)));
  CHECK(cuMemAlloc(&dc, n * sizeof(float)));
  CHECK(cuMemcpyHtoD(da, a.data(), n * sizeof(float)));
  CHECK(cuMemcpyHtoD(db, b.data(), n * sizeof(float)));
  CHECK(cuMemsetD32(dc, 0, n));
  int count = n;
  void *params[] = {&da, &db, &dc, &count};
  CHECK(cuLaunchKernel(fn, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  CHECK(cuCtxSynchronize());
  CHECK(cuMemcpyDtoH(c.data(), dc, n * sizeof(float)));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += c[i] != a[i] + b[i];
  printf("c[0]=%g c[500]=%g c[999]=%g mismatches=%d\n", c[0], c[500], c[999], bad);
  CHECK(cuMemFree(da));
  CHECK(cuMemFree(db));
  CHECK(cuMemFree(dc));
  if (mod) CHECK(cuModuleUnload(mod));
  if (lib) CHECK(cuLibraryUnload(lib));
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}

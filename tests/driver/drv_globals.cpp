// drv_globals.cpp: module-scope globals through cuModuleGetGlobal: sizes of a __device__ array,
// an initialized __device__ scalar and a __constant__ array; host writes, a kernel that reads and
// updates them, read-back; a missing name. usage: drv_globals KERNELS.ptx
#include "drv_common.h"

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  std::vector<char> ptx = read_file(argv[1]);
  init_primary();
  CUmodule mod;
  CHECK(cuModuleLoadData(&mod, ptx.data()));
  CUdeviceptr counters, launches, coef;
  size_t sc = 0, sl = 0, sf = 0;
  CHECK(cuModuleGetGlobal(&counters, &sc, mod, "counters"));
  CHECK(cuModuleGetGlobal(&launches, &sl, mod, "launches"));
  CHECK(cuModuleGetGlobal(&coef, &sf, mod, "coef"));
  CUdeviceptr none;
  size_t sn = 0;
  printf("sizes: counters=%zu launches=%zu coef=%zu; missing: %s\n", sc, sl, sf,
         result_name(cuModuleGetGlobal(&none, &sn, mod, "not_there")));
  CUdeviceptr only_ptr;
  CHECK(cuModuleGetGlobal(&only_ptr, nullptr, mod, "counters"));
  printf("same address without size: %d\n", only_ptr == counters);
  unsigned long long l0 = 0;
  CHECK(cuMemcpyDtoH(&l0, launches, sizeof l0));
  int hc[16];
  for (int i = 0; i < 16; ++i) hc[i] = i * i - 10;
  float hf[4] = {0.5f, -2.0f, 3.0f, 10.0f};
  CHECK(cuMemcpyHtoD(counters, hc, sizeof hc));
  CHECK(cuMemcpyHtoD(coef, hf, sizeof hf));
  CUfunction fn;
  CHECK(cuModuleGetFunction(&fn, mod, "use_globals"));
  CUdeviceptr out;
  CHECK(cuMemAlloc(&out, 16 * sizeof(float)));
  void *params[] = {&out};
  for (int k = 0; k < 2; ++k)
    CHECK(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr));
  CHECK(cuCtxSynchronize());
  float ho[16];
  CHECK(cuMemcpyDtoH(ho, out, sizeof ho));
  CHECK(cuMemcpyDtoH(hc, counters, sizeof hc));
  unsigned long long l1 = 0;
  CHECK(cuMemcpyDtoH(&l1, launches, sizeof l1));
  printf("launches: %llu -> %llu\n", l0, l1);
  for (int i = 0; i < 16; ++i) printf("%g/%d ", ho[i], hc[i]);
  printf("\n");
  CHECK(cuMemFree(out));
  CHECK(cuModuleUnload(mod));
  return 0;
}

// drv_coop.cpp: cooperative launches of coop_sum (grid.sync between a per-block phase and a final
// reduction): cuLaunchCooperativeKernel, then cuLaunchKernelEx with CU_LAUNCH_ATTRIBUTE_COOPERATIVE.
// Also queries CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH and occupancy (printed as "> 0" only, since
// the numbers are device-specific). usage: drv_coop KERNELS.ptx
#include "drv_common.h"

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  std::vector<char> ptx = read_file(argv[1]);
  CUdevice dev;
  init_primary(&dev);
  int coop = 0;
  CHECK(cuDeviceGetAttribute(&coop, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, dev));
  CUmodule mod;
  CHECK(cuModuleLoadData(&mod, ptx.data()));
  CUfunction fn;
  CHECK(cuModuleGetFunction(&fn, mod, "coop_sum"));
  int per_sm = 0;
  CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, 64, 0));
  printf("cooperative attribute: %d, blocks per SM > 0: %d\n", coop, per_sm > 0);
  const int n = 5000, blocks = 8;
  std::vector<int> h(n);
  long long want = 0;
  for (int i = 0; i < n; ++i) { h[i] = (i * 37) % 101 - 50; want += h[i]; }
  CUdeviceptr in, partial, total;
  CHECK(cuMemAlloc(&in, n * sizeof(int)));
  CHECK(cuMemAlloc(&partial, blocks * sizeof(int)));
  CHECK(cuMemAlloc(&total, sizeof(int)));
  CHECK(cuMemcpyHtoD(in, h.data(), n * sizeof(int)));
  int count = n;
  void *params[] = {&in, &partial, &total, &count};
  CHECK(cuMemsetD32(total, 0xdead, 1));
  CHECK(cuLaunchCooperativeKernel(fn, blocks, 1, 1, 64, 1, 1, 0, nullptr, params));
  CHECK(cuCtxSynchronize());
  int got = 0;
  CHECK(cuMemcpyDtoH(&got, total, sizeof got));
  std::vector<int> parts(blocks);
  CHECK(cuMemcpyDtoH(parts.data(), partial, blocks * sizeof(int)));
  printf("cuLaunchCooperativeKernel: total=%d want=%lld partial[0]=%d partial[7]=%d\n", got, want,
         parts[0], parts[7]);

  CHECK(cuMemsetD32(total, 0xdead, 1));
  CUlaunchAttribute attr{};
  attr.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
  attr.value.cooperative = 1;
  CUlaunchConfig cfg{};
  cfg.gridDimX = blocks; cfg.gridDimY = 1; cfg.gridDimZ = 1;
  cfg.blockDimX = 64; cfg.blockDimY = 1; cfg.blockDimZ = 1;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  CHECK(cuLaunchKernelEx(&cfg, fn, params, nullptr));
  CHECK(cuCtxSynchronize());
  int got2 = 0;
  CHECK(cuMemcpyDtoH(&got2, total, sizeof got2));
  printf("cuLaunchKernelEx(cooperative): total=%d\n", got2);
  CHECK(cuMemFree(in));
  CHECK(cuMemFree(partial));
  CHECK(cuMemFree(total));
  CHECK(cuModuleUnload(mod));
  bool ok = got == want && got2 == want;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}

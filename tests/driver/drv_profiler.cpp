// drv_profiler.cpp: the driver's profiler-control entry points (issue 15 item 7) with no profiler
// attached: cuProfilerStart / cuProfilerStop before cuInit, before any context is current and with
// the primary context current (repeated, nested, stop-first), and the deprecated cuProfilerInitialize
// with null and with named (nonexistent) files. Prints each CUresult; the H200's stdout is the golden.
// usage: drv_profiler
#include "drv_common.h"
#include <cudaProfiler.h>

#define SHOW(call) printf("%-64s -> %s\n", #call, result_name(call))

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  // before cuInit: cuGetErrorName works without it, the profiler calls must say so
  printf("%-64s -> %d\n", "cuProfilerStart() before cuInit", (int)cuProfilerStart());
  printf("%-64s -> %d\n", "cuProfilerStop() before cuInit", (int)cuProfilerStop());
  CHECK(cuInit(0));
  SHOW(cuProfilerStart());
  SHOW(cuProfilerStop());
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  SHOW(cuProfilerStop());
  SHOW(cuProfilerStart());
  SHOW(cuProfilerStart());
  SHOW(cuProfilerStop());
  SHOW(cuProfilerStop());
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  SHOW(cuProfilerInitialize(nullptr, nullptr, CU_OUT_KEY_VALUE_PAIR));
  SHOW(cuProfilerInitialize("/nonexistent/profiler.cfg", "/nonexistent/profiler.out", CU_OUT_CSV));
  SHOW(cuProfilerInitialize("/nonexistent/profiler.cfg", nullptr, CU_OUT_KEY_VALUE_PAIR));
  SHOW(cuProfilerInitialize(nullptr, "/nonexistent/profiler.out", (CUoutput_mode)7));
#pragma GCC diagnostic pop
  SHOW(cuProfilerStart());
  SHOW(cuCtxSynchronize());
  SHOW(cuProfilerStop());
  CHECK(cuCtxSetCurrent(nullptr));
  SHOW(cuProfilerStart());
  SHOW(cuProfilerStop());
  CHECK(cuDevicePrimaryCtxRelease(dev));
  printf("done\n");
  return 0;
}

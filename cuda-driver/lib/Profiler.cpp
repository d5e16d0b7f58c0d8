//===- cuda-driver/lib/Profiler.cpp - profiler control (cuProfiler*) ------===//
//
// No profiling tool can attach to ptx2amd, which is what CUDA sees when none is attached:
// cuProfilerStart / cuProfilerStop act on the current context and do nothing (CUDA_SUCCESS,
// or the context error when none is current / before cuInit), and the deprecated
// cuProfilerInitialize returns CUDA_ERROR_NOT_SUPPORTED, as it always does since CUDA 12.0
// (cudaProfiler.h). Programs bracket their work with these calls (static cudart's
// cudaProfilerStart/Stop land here), so they must succeed quietly.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include <cudaProfiler.h>

using namespace cudadrv;

CUresult cuProfilerStart() {
  DrvContext *C;
  return currentContext(&C);
}

CUresult cuProfilerStop() {
  DrvContext *C;
  return currentContext(&C);
}

CUresult cuProfilerInitialize(const char *, const char *, CUoutput_mode) { return CUDA_ERROR_NOT_SUPPORTED; }

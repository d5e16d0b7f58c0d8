// nvrtc_saxpy.cpp: run-time compilation. libnvrtc compiles CUDA C++ (a templated saxpy, named
// through nvrtcAddNameExpression / nvrtcGetLoweredName) to PTX for the device's compute
// capability; the PTX is loaded with cuModuleLoadDataEx and launched with cuLaunchKernel.
#include "drv_common.h"
#include <nvrtc.h>
#include <string>

static const char *source = R"(
template <typename T>
__global__ void saxpy(T a, const T *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void fill(float *p, float v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = v;
}
)";

#define NVRTC_CHECK(call)                                                 \
  do {                                                                    \
    nvrtcResult r_ = (call);                                              \
    if (r_ != NVRTC_SUCCESS) {                                            \
      printf("%s failed: %s\n", #call, nvrtcGetErrorString(r_));          \
      exit(1);                                                            \
    }                                                                     \
  } while (0)

int main() {
  CUdevice dev;
  init_primary(&dev);
  int major = 0, minor = 0;
  CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  nvrtcProgram prog;
  NVRTC_CHECK(nvrtcCreateProgram(&prog, source, "saxpy.cu", 0, nullptr, nullptr));
  NVRTC_CHECK(nvrtcAddNameExpression(prog, "saxpy<float>"));
  std::string arch = "--gpu-architecture=compute_" + std::to_string(major) + std::to_string(minor);
  const char *opts[] = {arch.c_str(), "--std=c++17"};
  nvrtcResult cr = nvrtcCompileProgram(prog, 2, opts);
  size_t log_size = 0;
  nvrtcGetProgramLogSize(prog, &log_size);
  printf("compile: %s (log %s)\n", nvrtcGetErrorString(cr), log_size > 1 ? "non-empty" : "empty");
  if (cr != NVRTC_SUCCESS) return 1;
  const char *lowered = nullptr;
  NVRTC_CHECK(nvrtcGetLoweredName(prog, "saxpy<float>", &lowered));
  std::string kernel_name = lowered;
  size_t ptx_size = 0;
  NVRTC_CHECK(nvrtcGetPTXSize(prog, &ptx_size));
  std::string ptx(ptx_size, '\0');
  NVRTC_CHECK(nvrtcGetPTX(prog, ptx.data()));
  NVRTC_CHECK(nvrtcDestroyProgram(&prog));
  printf("lowered name: %s, ptx starts with '//': %d\n", kernel_name.c_str(), ptx.rfind("//", 0) == 0);

  char err[2048] = {0};
  CUjit_option o[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *ov[] = {err, (void *)(size_t)sizeof err};
  CUmodule mod;
  CHECK(cuModuleLoadDataEx(&mod, ptx.c_str(), 2, o, ov));
  CUfunction saxpy, fill;
  CHECK(cuModuleGetFunction(&saxpy, mod, kernel_name.c_str()));
  CHECK(cuModuleGetFunction(&fill, mod, "fill"));
  const int n = 2048;
  CUdeviceptr x, y;
  CHECK(cuMemAlloc(&x, n * sizeof(float)));
  CHECK(cuMemAlloc(&y, n * sizeof(float)));
  std::vector<float> hx(n);
  for (int i = 0; i < n; ++i) hx[i] = 0.5f * (i % 97);
  CHECK(cuMemcpyHtoD(x, hx.data(), n * sizeof(float)));
  float v = 3.0f;
  int count = n;
  void *fp[] = {&y, &v, &count};
  CHECK(cuLaunchKernel(fill, 4, 1, 1, 64, 1, 1, 0, nullptr, fp, nullptr));
  float a = 2.0f;
  void *sp[] = {&a, &x, &y, &count};
  CHECK(cuLaunchKernel(saxpy, n / 256, 1, 1, 256, 1, 1, 0, nullptr, sp, nullptr));
  CHECK(cuCtxSynchronize());
  std::vector<float> hy(n);
  CHECK(cuMemcpyDtoH(hy.data(), y, n * sizeof(float)));
  int bad = 0;
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    bad += hy[i] != 2.0f * hx[i] + 3.0f;
    sum += hy[i];
  }
  printf("y[0]=%g y[96]=%g y[2047]=%g sum=%.1f mismatches=%d\n", hy[0], hy[96], hy[2047], sum, bad);
  CHECK(cuMemFree(x));
  CHECK(cuMemFree(y));
  CHECK(cuModuleUnload(mod));
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}

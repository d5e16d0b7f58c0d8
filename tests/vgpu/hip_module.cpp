//===- hip_module.cpp - Debian's HIP 5.2 runtime on the virtual GPU -------===//
//
// vgpu.hip_module: only libamdhip64 (ROCm 5.2), under LD_PRELOAD=libvgpu.so:
// hipModuleLoadData of a ptx2amd gfx90a code object of the corpus saxpy
// (nvcc PTX -> ptx2amd), hipMalloc, hipMemcpy H2D, a stream, two events
// around hipModuleLaunchKernel (HIP fills the hidden kernel arguments from
// the code object's metadata), hipMemcpyAsync D2H on the stream,
// hipStreamSynchronize, hipEventElapsedTime. y = a*x + y is checked against
// the values computed here (same float operations, exact).
// Usage: hip_module CODE_OBJECT KERNEL_NAME.
//
//===----------------------------------------------------------------------===//
#include <hip/hip_runtime_api.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    hipError_t e_ = (call);                                                                        \
    if (e_ != hipSuccess) {                                                                        \
      fprintf(stderr, "%s:%d: %s failed: %d %s\n", __FILE__, __LINE__, #call, int(e_),             \
              hipGetErrorString(e_));                                                              \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: hip_module CODE_OBJECT KERNEL_NAME\n");
    return 2;
  }
  std::ifstream F(argv[1], std::ios::binary);
  std::vector<char> Elf((std::istreambuf_iterator<char>(F)), std::istreambuf_iterator<char>());
  if (Elf.empty()) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  CHECK(hipInit(0));
  int Count = 0;
  CHECK(hipGetDeviceCount(&Count));
  hipDeviceProp_t Prop;
  CHECK(hipGetDeviceProperties(&Prop, 0));
  printf("devices %d: %s (%s), %d CUs, warp size %d\n", Count, Prop.name, Prop.gcnArchName,
         Prop.multiProcessorCount, Prop.warpSize);

  hipModule_t Mod;
  CHECK(hipModuleLoadData(&Mod, Elf.data()));
  hipFunction_t Fn;
  CHECK(hipModuleGetFunction(&Fn, Mod, argv[2]));

  const int N = 5000;
  const float A = 2.5f;
  std::vector<float> X(N), Y(N), Out(N, 0.0f);
  for (int i = 0; i < N; ++i) {
    X[i] = float(i % 97) * 0.25f - 3.0f;
    Y[i] = float(i % 13) + 0.5f;
  }
  float *DX = nullptr, *DY = nullptr;
  CHECK(hipMalloc(reinterpret_cast<void **>(&DX), N * sizeof(float)));
  CHECK(hipMalloc(reinterpret_cast<void **>(&DY), N * sizeof(float)));
  CHECK(hipMemcpy(DX, X.data(), N * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(DY, Y.data(), N * sizeof(float), hipMemcpyHostToDevice));

  hipStream_t S;
  CHECK(hipStreamCreate(&S));
  hipEvent_t E0, E1;
  CHECK(hipEventCreate(&E0));
  CHECK(hipEventCreate(&E1));
  int Nv = N;
  float Av = A;
  void *Params[] = {&Nv, &Av, &DX, &DY};
  CHECK(hipEventRecord(E0, S));
  CHECK(hipModuleLaunchKernel(Fn, 8, 1, 1, 256, 1, 1, 0, S, Params, nullptr)); // grid-stride loop
  CHECK(hipEventRecord(E1, S));
  CHECK(hipMemcpyAsync(Out.data(), DY, N * sizeof(float), hipMemcpyDeviceToHost, S));
  CHECK(hipStreamSynchronize(S));
  float Ms = -1;
  CHECK(hipEventElapsedTime(&Ms, E0, E1));

  int Bad = 0;
  for (int i = 0; i < N; ++i) {
    float Want = A * X[i] + Y[i];
    if (Out[i] != Want && Bad++ < 5) fprintf(stderr, "y[%d] = %g, want %g\n", i, Out[i], Want);
  }
  if (Bad) {
    fprintf(stderr, "%d of %d results wrong\n", Bad, N);
    return 1;
  }
  printf("saxpy via hipModuleLaunchKernel: %d results correct, kernel %.3f ms (events)\n", N, Ms);
  CHECK(hipEventDestroy(E0));
  CHECK(hipEventDestroy(E1));
  CHECK(hipStreamDestroy(S));
  CHECK(hipFree(DX));
  CHECK(hipFree(DY));
  CHECK(hipModuleUnload(Mod));
  return 0;
}

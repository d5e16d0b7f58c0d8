// mixed_ctx.cu: a program using the runtime API and the driver API together, as CUDA allows: after
// cudaSetDevice + cudaFree(0) the current driver context is the device's primary context;
// cudaMalloc'ed memory is usable by cuMemcpy / cuMemsetD32 / cuPointerGetAttribute and cuMemAlloc'ed
// memory by cudaMemcpy and a <<<>>> kernel; a stream created by cuStreamCreate works as a
// cudaStream_t; cuCtxSynchronize waits for runtime-API work. Prints the results; the H200's stdout
// is the golden. Built with -lcuda (and -cudart shared or the default static cudart).
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void twice(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= 2;
}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); return 1; } } while (0)
#define CU(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *s_ = "?"; cuGetErrorName(r_, &s_); \
  printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, s_); return 1; } } while (0)

int main() {
  CUcontext before = (CUcontext)1;
  CU(cuInit(0));
  CU(cuCtxGetCurrent(&before));
  printf("current before runtime: %s\n", before ? "set" : "null");
  CK(cudaSetDevice(0));
  CK(cudaFree(0));
  CUcontext cur = nullptr, prim = nullptr;
  CU(cuCtxGetCurrent(&cur));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CU(cuDevicePrimaryCtxRetain(&prim, dev));
  printf("current is primary: %d\n", cur != nullptr && cur == prim);
  unsigned flags = 0;
  int active = 0;
  CU(cuDevicePrimaryCtxGetState(dev, &flags, &active));
  printf("primary active: %d\n", active);
  CUdevice cdev = -1;
  CU(cuCtxGetDevice(&cdev));
  printf("ctx device: %d\n", (int)cdev);

  const int n = 256;
  static int h[n];
  int *d;
  CK(cudaMalloc(&d, n * sizeof(int)));
  for (int i = 0; i < n; ++i) h[i] = i;
  CU(cuMemcpyHtoD((CUdeviceptr)d, h, sizeof h));
  twice<<<1, n>>>(d, n);
  CU(cuCtxSynchronize());
  static int back[n];
  CU(cuMemcpyDtoH(back, (CUdeviceptr)d, sizeof back));
  printf("cudaMalloc + cuMemcpy: back[1]=%d back[255]=%d\n", back[1], back[255]);
  unsigned mt = 0;
  CU(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)d));
  CUcontext pctx = nullptr;
  CU(cuPointerGetAttribute(&pctx, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)d));
  printf("pointer memory type: %u, context is primary: %d\n", mt, pctx == prim);
  CUdeviceptr base = 0;
  size_t sz = 0;
  CU(cuMemGetAddressRange(&base, &sz, (CUdeviceptr)d + 100));
  printf("address range: base ok=%d size=%zu\n", base == (CUdeviceptr)d, sz);

  CUdeviceptr dd;
  CU(cuMemAlloc(&dd, sizeof h));
  CU(cuMemsetD32(dd, 7, n));
  twice<<<1, n>>>((int *)dd, n);
  CK(cudaMemcpy(back, (void *)dd, sizeof back, cudaMemcpyDeviceToHost));
  printf("cuMemAlloc + kernel + cudaMemcpy: back[0]=%d back[255]=%d\n", back[0], back[255]);
  cudaPointerAttributes pa{};
  CK(cudaPointerGetAttributes(&pa, (void *)dd));
  printf("runtime sees driver allocation: type=%d device=%d\n", (int)pa.type, pa.device);

  CUstream cs;
  CU(cuStreamCreate(&cs, CU_STREAM_NON_BLOCKING));
  twice<<<1, n, 0, (cudaStream_t)cs>>>((int *)dd, n);
  CK(cudaMemcpyAsync(back, (void *)dd, sizeof back, cudaMemcpyDeviceToHost, (cudaStream_t)cs));
  CK(cudaStreamSynchronize((cudaStream_t)cs));
  printf("driver stream as runtime stream: back[0]=%d\n", back[0]);
  CU(cuStreamDestroy(cs));
  CK(cudaFree(d));
  CU(cuMemFree(dd));
  CU(cuDevicePrimaryCtxRelease(dev));
  printf("done\n");
  return 0;
}

// st_props.cu: static-cudart device queries. Prints only what the H200 and an emulated device
// can agree on for the golden data (the raw values go to stderr for the recording).
#include <cstdio>
#include <cuda_runtime.h>

int main() {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  cudaDeviceProp p;
  cudaError_t e2 = cudaGetDeviceProperties(&p, 0);
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  int warp = 0;
  cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0);
  fprintf(stderr, "name=%s cc=%d.%d sms=%d mem=%zu driver=%d runtime=%d\n", p.name, p.major,
          p.minor, p.multiProcessorCount, p.totalGlobalMem, driver, runtime);
  printf("%s %s count>0=%d warpSize=%d attr=%d maxThreads=%d runtime=%d\n", cudaGetErrorName(e),
         cudaGetErrorName(e2), count > 0, p.warpSize, warp, p.maxThreadsPerBlock, runtime);
  return 0;
}

// launch_errors_probe.cu -- the error CUDA returns for each invalid launch configuration, and
// whether it is sticky (H200 ground truth for the runtime's launch checks). One line per case:
//   "<case> launch=<cudaGetLastError after the launch> sync=<cudaDeviceSynchronize> after=<a good launch's error>"
#include <cstdio>
#include <cstdint>

__global__ void k(int* p) { if (p) p[0] = 1; }
__global__ void kdyn(int* p) { extern __shared__ int s[]; s[threadIdx.x] = 1; __syncthreads(); if (p) p[0] = s[0]; }
__global__ void kbig(int* p) { __shared__ int s[12 * 1024]; s[threadIdx.x] = 1; __syncthreads(); if (p) p[0] = s[1]; }

static int* dp;
static void report(const char* name) {
  cudaError_t l = cudaGetLastError();
  cudaError_t s = cudaDeviceSynchronize();
  k<<<1, 1>>>(dp);
  cudaError_t a = cudaGetLastError();
  if (a == cudaSuccess) a = cudaDeviceSynchronize();
  printf("%-28s launch=%s sync=%s after=%s\n", name, cudaGetErrorName(l), cudaGetErrorName(s), cudaGetErrorName(a));
}

int main() {
  cudaMalloc(&dp, 4);
  int maxT, maxX, maxY, maxZ, gX, gY, gZ, smem, smemOptin;
  cudaDeviceGetAttribute(&maxT, cudaDevAttrMaxThreadsPerBlock, 0);
  cudaDeviceGetAttribute(&maxX, cudaDevAttrMaxBlockDimX, 0);
  cudaDeviceGetAttribute(&maxY, cudaDevAttrMaxBlockDimY, 0);
  cudaDeviceGetAttribute(&maxZ, cudaDevAttrMaxBlockDimZ, 0);
  cudaDeviceGetAttribute(&gX, cudaDevAttrMaxGridDimX, 0);
  cudaDeviceGetAttribute(&gY, cudaDevAttrMaxGridDimY, 0);
  cudaDeviceGetAttribute(&gZ, cudaDevAttrMaxGridDimZ, 0);
  cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlock, 0);
  cudaDeviceGetAttribute(&smemOptin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  printf("limits threads=%d block=%d,%d,%d grid=%d,%d,%d smem=%d optin=%d\n", maxT, maxX, maxY, maxZ, gX, gY, gZ, smem, smemOptin);
  k<<<1, maxT>>>(dp); report("threads=max");
  k<<<1, maxT + 1>>>(dp); report("threads=max+1");
  k<<<1, maxT + 32>>>(dp); report("threads=max+32");
  k<<<1, dim3(32, 33)>>>(dp); report("block=32x33 (1056)");
  k<<<1, dim3(64, 64)>>>(dp); report("block=64x64 (4096)");
  k<<<1, dim3(1, maxY + 1)>>>(dp); report("block.y=max+1");
  k<<<1, dim3(1, 1, maxZ + 1)>>>(dp); report("block.z=max+1");
  k<<<1, dim3(2, 2, 64)>>>(dp); report("block=2x2x64 (256)");
  k<<<1, 0>>>(dp); report("threads=0");
  k<<<0, 32>>>(dp); report("grid=0");
  k<<<dim3(1, 0), 32>>>(dp); report("grid.y=0");
  k<<<dim3(1, gY + 1), 1>>>(dp); report("grid.y=max+1");
  k<<<dim3(1, 1, gZ + 1), 1>>>(dp); report("grid.z=max+1");
  k<<<dim3(1, gY, 1), 1>>>(dp); report("grid.y=max");
  k<<<dim3((unsigned)gX + 1u, 1, 1), 1>>>(dp); report("grid.x=max+1");
  kdyn<<<1, 32, smem>>>(dp); report("dynsmem=max");
  kdyn<<<1, 32, smem + 4>>>(dp); report("dynsmem=max+4");
  kdyn<<<1, 32, smemOptin + 4>>>(dp); report("dynsmem=optin+4");
  cudaFuncSetAttribute(kdyn, cudaFuncAttributeMaxDynamicSharedMemorySize, smemOptin);
  report("setattr optin");
  kdyn<<<1, 32, smemOptin>>>(dp); report("dynsmem=optin (attr)");
  kdyn<<<1, 32, smemOptin + 4>>>(dp); report("dynsmem=optin+4 (attr)");
  cudaFuncSetAttribute(kdyn, cudaFuncAttributeMaxDynamicSharedMemorySize, smemOptin + 4);
  report("setattr optin+4");
  kbig<<<1, 32, smem - 48 * 1024 + 4>>>(dp); report("static48K+dyn over");
  void* args[] = {&dp};
  cudaLaunchKernel((void*)k, dim3(1), dim3(maxT + 1), args, 0, 0); report("cudaLaunchKernel max+1");
  int numSm = 0, perSm = 0;
  cudaDeviceGetAttribute(&numSm, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, k, 1024, 0);
  printf("coop numSm=%d perSm@1024=%d\n", numSm, perSm);
  cudaLaunchCooperativeKernel((void*)k, dim3(numSm * perSm), dim3(1024), args, 0, 0); report("coop fits");
  cudaLaunchCooperativeKernel((void*)k, dim3(numSm * perSm + 1), dim3(1024), args, 0, 0); report("coop +1 block");
  cudaLaunchCooperativeKernel((void*)k, dim3(1), dim3(maxT + 1), args, 0, 0); report("coop threads max+1");
  cudaLaunchKernel((void*)nullptr, dim3(1), dim3(1), args, 0, 0); report("cudaLaunchKernel null func");
  return 0;
}

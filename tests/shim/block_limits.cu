// Block-size limits as the device reports them (not a corpus program): whatever the device says
// cudaDevAttrMaxThreadsPerBlock is (1024 on NVIDIA GPUs and ptx2amd's wave32 / pack targets, 512
// under ptx2amd's pad warp policy on wave64), a launch of that many threads must succeed and
// compute, one of more threads must fail at launch with cudaErrorInvalidValue (not sticky: CUDA
// 13 on the H200 answers every invalid launch configuration so, tests/golden/probes/
// launch_errors_probe.stdout; its session-8 run of the old cudaErrorInvalidConfiguration
// expectation printed "1 wrong FAIL"), and cudaFuncGetAttributes must report the same per-kernel limit. Self-checking.
#include <cstdio>

__global__ void iota(int* p) { p[threadIdx.x] = threadIdx.x * 3; }

int main() {
  int bad = 0, maxT = 0, dimX = 0;
  cudaDeviceGetAttribute(&maxT, cudaDevAttrMaxThreadsPerBlock, 0);
  cudaDeviceGetAttribute(&dimX, cudaDevAttrMaxBlockDimX, 0);
  cudaFuncAttributes fa;
  bad += cudaFuncGetAttributes(&fa, iota) != cudaSuccess;
  bad += fa.maxThreadsPerBlock != maxT;
  bad += dimX < maxT;
  int *d, h[1024];
  cudaMalloc(&d, 1024 * sizeof(int));
  iota<<<1, maxT>>>(d);
  bad += cudaGetLastError() != cudaSuccess;
  bad += cudaDeviceSynchronize() != cudaSuccess;
  cudaMemcpy(h, d, maxT * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < maxT; ++i) bad += h[i] != i * 3;
  iota<<<1, maxT + 32>>>(d);  // over the limit (also over 1024 where maxT is 1024)
  cudaError_t e = cudaGetLastError();
  bad += e != cudaErrorInvalidValue;
  bad += cudaDeviceSynchronize() != cudaSuccess;  // not sticky
  bad += cudaGetLastError() != cudaSuccess;
  cudaFree(d);
  printf("block_limits: launch over the limit gives %s; %d wrong %s\n", cudaGetErrorName(e), bad,
         bad ? "FAIL" : "PASS");
  return bad != 0;
}

// tests/shim/multi/cdp_unsupported: dynamic parallelism (a device-side <<<>>> launch, built with
// -rdc=true, so nvcc calls libcudadevrt's __cudaCDP2GetParameterBufferV2 / __cudaCDP2LaunchDeviceV2)
// is refused explicitly: the parent's launch fails with a CUDA error (no kernel ran, nothing
// written) and the shim's note names the feature and the entry point (checked by the test).
#include <cstdio>
__global__ void child(int *o, int base) { o[base + threadIdx.x] = base + threadIdx.x + 1; }
__global__ void parent(int *o) {
  if (threadIdx.x == 0) child<<<1, 4>>>(o, 4 * blockIdx.x);
}
int main() {
  int *d;
  if (cudaMalloc(&d, 8 * sizeof(int)) != cudaSuccess) { printf("FAIL cudaMalloc\n"); return 1; }
  cudaMemset(d, 0, 8 * sizeof(int));
  parent<<<2, 32>>>(d);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  int h[8] = {};
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int written = 0;
  for (int v : h) written += v != 0;
  printf("launch: %s (%d); synchronize: %d; elements written: %d\n", cudaGetErrorName(launch), (int)launch,
         (int)sync, written);
  bool ok = launch != cudaSuccess && written == 0;
  printf("cdp_unsupported %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

// Host-visible memory through ptx2amd's runtime shim (not a corpus program): cudaMallocManaged
// and cudaMallocHost pointers are dereferenced by the host and passed to kernels unchanged (the
// shim maps host memory at the device address and copies it around each launch); every element
// is checked on the host, and the frees must succeed.
#include <cstdio>
__global__ void inc(int* p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] += i; }
int main() {
  int n = 5000, *m, *h;
  if (cudaMallocManaged(&m, n * sizeof(int)) != cudaSuccess || cudaMallocHost(&h, n * sizeof(int)) != cudaSuccess) {
    printf("host_memory: allocation FAIL\n");
    return 1;
  }
  for (int i = 0; i < n; ++i) m[i] = 1, h[i] = 2;
  inc<<<(n + 255) / 256, 256>>>(m, n);
  inc<<<(n + 255) / 256, 256>>>(h, n);
  int bad = cudaDeviceSynchronize() != cudaSuccess;
  for (int i = 0; i < n; ++i) bad += m[i] != 1 + i || h[i] != 2 + i;
  bad += cudaFree(m) != cudaSuccess;
  bad += cudaFreeHost(h) != cudaSuccess;
  printf("host_memory: n=%d bad=%d %s\n", n, bad, bad ? "FAIL" : "PASS");
  return bad != 0;
}

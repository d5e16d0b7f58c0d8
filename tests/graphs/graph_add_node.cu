// graph_add_node.cu: the generic cudaGraphAddNode (CUDA 12.3+) for the node kinds that are not
// conditional: a memset node (one 4-byte element = 2), a kernel node after it (3 threads atomically
// add 5) and an empty node after that; the launched graph leaves 2 + 3 * 5 = 17. Self-checking
// (last line PASS); built with -cudart shared (ptx2amd's cudaGraphAddNode) and with the static
// cudart (NVIDIA's, which calls ptx2amd's cuGraphAddNode).
#include <cstdio>

__global__ void add(int* p, int v) { atomicAdd(p, v); }

int main() {
  int* d;
  if (cudaMalloc(&d, 16) != cudaSuccess || cudaMemset(d, 0, 16) != cudaSuccess) return 1;
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphNode_t a, b, c;
  cudaGraphNodeParams m{};
  m.type = cudaGraphNodeTypeMemset;
  m.memset.dst = d;
  m.memset.value = 2;
  m.memset.elementSize = 4;
  m.memset.width = 1;
  m.memset.height = 1;
  cudaError_t e1 = cudaGraphAddNode(&a, g, nullptr, nullptr, 0, &m);
  int v = 5;
  void* args[] = {&d, &v};
  cudaGraphNodeParams k{};
  k.type = cudaGraphNodeTypeKernel;
  k.kernel.func = (void*)add;
  k.kernel.gridDim = dim3(1);
  k.kernel.blockDim = dim3(3);
  k.kernel.kernelParams = args;
  cudaError_t e2 = cudaGraphAddNode(&b, g, &a, nullptr, 1, &k);
  cudaGraphNodeParams e{};
  e.type = cudaGraphNodeTypeEmpty;
  cudaError_t e3 = cudaGraphAddNode(&c, g, &b, nullptr, 1, &e);
  printf("memset node %s, kernel node %s, empty node %s\n", cudaGetErrorName(e1), cudaGetErrorName(e2),
         cudaGetErrorName(e3));
  cudaGraphNodeType t[3] = {};
  cudaGraphNodeGetType(a, &t[0]);
  cudaGraphNodeGetType(b, &t[1]);
  cudaGraphNodeGetType(c, &t[2]);
  printf("types %d %d %d\n", (int)t[0], (int)t[1], (int)t[2]);
  cudaGraphExec_t x;
  cudaError_t e4 = cudaGraphInstantiate(&x, g, 0);
  cudaError_t e5 = e4 ? e4 : cudaGraphLaunch(x, 0);
  cudaError_t e6 = cudaDeviceSynchronize();
  int h = -1;
  cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost);
  printf("instantiate %s, launch %s, sync %s, value %d (want 17)\n", cudaGetErrorName(e4), cudaGetErrorName(e5),
         cudaGetErrorName(e6), h);
  bool ok = !e1 && !e2 && !e3 && !e4 && !e5 && !e6 && h == 17 && t[0] == cudaGraphNodeTypeMemset &&
            t[1] == cudaGraphNodeTypeKernel && t[2] == cudaGraphNodeTypeEmpty;
  printf(ok ? "PASS\n" : "FAIL\n");
  return ok ? 0 : 1;
}

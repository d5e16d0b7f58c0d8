// graph.cu: CUDA graphs through the runtime API. (1) stream capture of a memset, two kernels, a
// host node and a copy back, across two streams joined by events; instantiate; replay 3 times;
// cudaGraphExecKernelNodeSetParams on the instantiated graph; cudaGraphExecUpdate from a
// re-captured graph with a different scale. (2) an explicitly built graph: kernel and memcpy nodes
// with cudaGraphAddDependencies. Prints every result so the H200's stdout is the golden data.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale_add(int *v, int n, int mul, int add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * mul + add;
}

static int host_calls = 0;
static void CUDART_CB on_host(void *p) { host_calls += *(int *)p; }

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); return 1; } } while (0)

static long sum(const int *h, int n) { long s = 0; for (int i = 0; i < n; ++i) s += h[i]; return s; }

int main() {
  const int n = 1024;
  static int h[n];
  int *d, *d2;
  CK(cudaMalloc(&d, n * sizeof(int)));
  CK(cudaMalloc(&d2, n * sizeof(int)));
  cudaStream_t s, s2;
  CK(cudaStreamCreate(&s));
  CK(cudaStreamCreate(&s2));
  cudaEvent_t fork, join;
  CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  int one = 1;

  // (1) capture
  cudaStreamCaptureStatus st;
  CK(cudaStreamIsCapturing(s, &st));
  printf("capturing before: %d\n", (int)st);
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CK(cudaStreamIsCapturing(s, &st));
  printf("capturing during: %d\n", (int)st);
  CK(cudaMemsetAsync(d, 0, n * sizeof(int), s));
  scale_add<<<n / 256, 256, 0, s>>>(d, n, 1, 5);
  CK(cudaEventRecord(fork, s));
  CK(cudaStreamWaitEvent(s2, fork, 0));
  CK(cudaMemsetAsync(d2, 0, n * sizeof(int), s2));
  scale_add<<<n / 256, 256, 0, s2>>>(d2, n, 1, 2);
  CK(cudaEventRecord(join, s2));
  CK(cudaStreamWaitEvent(s, join, 0));
  scale_add<<<n / 256, 256, 0, s>>>(d, n, 3, 1);
  CK(cudaLaunchHostFunc(s, on_host, &one));
  CK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  cudaGraph_t g;
  CK(cudaStreamEndCapture(s, &g));
  size_t nodes = 0;
  CK(cudaGraphGetNodes(g, nullptr, &nodes));
  printf("captured nodes: %zu, host calls so far: %d\n", nodes, host_calls);
  cudaGraphExec_t ge;
  CK(cudaGraphInstantiate(&ge, g, 0));
  for (int r = 0; r < 3; ++r) {
    CK(cudaGraphLaunch(ge, s));
    CK(cudaStreamSynchronize(s));
    printf("replay %d: h[0]=%d h[1023]=%d sum=%ld host calls=%d\n", r, h[0], h[n - 1], sum(h, n), host_calls);
  }

  // Change the last kernel (mul 3 -> 4) in the instantiated graph.
  cudaGraphNode_t all[16];
  size_t cnt = 16;
  CK(cudaGraphGetNodes(g, all, &cnt));
  int changed = 0;
  for (size_t i = 0; i < cnt; ++i) {
    cudaGraphNodeType t;
    CK(cudaGraphNodeGetType(all[i], &t));
    if (t != cudaGraphNodeTypeKernel) continue;
    cudaKernelNodeParams p;
    CK(cudaGraphKernelNodeGetParams(all[i], &p));
    if (*(int *)p.kernelParams[2] != 3) continue;
    int mul = 4, add = 1;
    int nn = n;
    void *args[] = {&d, &nn, &mul, &add};
    p.kernelParams = args;
    CK(cudaGraphExecKernelNodeSetParams(ge, all[i], &p));
    ++changed;
  }
  CK(cudaGraphLaunch(ge, s));
  CK(cudaStreamSynchronize(s));
  printf("after SetParams (%d node): h[0]=%d h[1023]=%d sum=%ld\n", changed, h[0], h[n - 1], sum(h, n));

  // Re-capture the same topology with add=7 and update the executable graph.
  cudaGraph_t g2;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  CK(cudaMemsetAsync(d, 0, n * sizeof(int), s));
  scale_add<<<n / 256, 256, 0, s>>>(d, n, 1, 7);
  CK(cudaEventRecord(fork, s));
  CK(cudaStreamWaitEvent(s2, fork, 0));
  CK(cudaMemsetAsync(d2, 0, n * sizeof(int), s2));
  scale_add<<<n / 256, 256, 0, s2>>>(d2, n, 1, 2);
  CK(cudaEventRecord(join, s2));
  CK(cudaStreamWaitEvent(s, join, 0));
  scale_add<<<n / 256, 256, 0, s>>>(d, n, 3, 1);
  CK(cudaLaunchHostFunc(s, on_host, &one));
  CK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CK(cudaStreamEndCapture(s, &g2));
  cudaGraphExecUpdateResultInfo info;
  cudaError_t ue = cudaGraphExecUpdate(ge, g2, &info);
  printf("update: %s result=%d\n", cudaGetErrorName(ue), (int)info.result);
  CK(cudaGraphLaunch(ge, s));
  CK(cudaStreamSynchronize(s));
  printf("after update: h[0]=%d h[1023]=%d sum=%ld host calls=%d\n", h[0], h[n - 1], sum(h, n), host_calls);

  // (2) explicit graph: copy-in, kernel, kernel, copy-out in a chain.
  static int in[n], out[n];
  for (int i = 0; i < n; ++i) in[i] = i;
  cudaGraph_t eg;
  CK(cudaGraphCreate(&eg, 0));
  cudaGraphNode_t cin, k1, k2, cout;
  CK(cudaGraphAddMemcpyNode1D(&cin, eg, nullptr, 0, d2, in, n * sizeof(int), cudaMemcpyHostToDevice));
  int nn = n, m1 = 2, a1 = 1, m2 = -1, a2 = 4096;
  void *args1[] = {&d2, &nn, &m1, &a1};
  void *args2[] = {&d2, &nn, &m2, &a2};
  cudaKernelNodeParams kp{};
  kp.func = (void *)scale_add;
  kp.gridDim = dim3(n / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = args1;
  CK(cudaGraphAddKernelNode(&k1, eg, nullptr, 0, &kp));
  kp.kernelParams = args2;
  CK(cudaGraphAddKernelNode(&k2, eg, nullptr, 0, &kp));
  CK(cudaGraphAddMemcpyNode1D(&cout, eg, nullptr, 0, out, d2, n * sizeof(int), cudaMemcpyDeviceToHost));
  cudaGraphNode_t from[] = {cin, k1, k2}, to[] = {k1, k2, cout};
  CK(cudaGraphAddDependencies(eg, from, to, nullptr, 3));
  size_t edges = 0;
  CK(cudaGraphGetEdges(eg, nullptr, nullptr, nullptr, &edges));
  cudaGraphExec_t ege;
  CK(cudaGraphInstantiate(&ege, eg, 0));
  CK(cudaGraphLaunch(ege, s));
  CK(cudaStreamSynchronize(s));
  printf("explicit graph: edges=%zu out[0]=%d out[1]=%d out[1023]=%d sum=%ld\n", edges, out[0], out[1],
         out[n - 1], sum(out, n));

  CK(cudaGraphExecDestroy(ge));
  CK(cudaGraphExecDestroy(ege));
  CK(cudaGraphDestroy(g));
  CK(cudaGraphDestroy(g2));
  CK(cudaGraphDestroy(eg));
  CK(cudaFree(d));
  CK(cudaFree(d2));
  printf("done\n");
  return 0;
}

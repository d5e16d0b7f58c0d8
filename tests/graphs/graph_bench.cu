// graph_bench.cu: the benchmark pattern that motivates CUDA graphs. A time-stepping loop (a 1D
// three-point stencil into a second buffer, a device-to-device copy back, a reduction kernel that
// accumulates a checksum every step) is run ITERS steps directly on a stream, then captured once
// into a graph (ITERS steps per graph) and replayed LAUNCHES times; the replay must reproduce the
// direct run bit for bit (integer arithmetic). Prints the checksums (the H200's stdout is the
// golden), the graph's node count, and PASS / FAIL; timings go to stderr.
// usage: graph_bench [ITERS [LAUNCHES]]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void stencil(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int l = in[(i + n - 1) % n], c = in[i], r = in[(i + 1) % n];
  out[i] = (l + 2 * c + r + i) & 0xffff;
}
__global__ void checksum(const int *v, unsigned long long *acc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(acc, (unsigned long long)(v[i] * (i % 7 + 1)));
}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); return 1; } } while (0)

static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static void step(int *a, int *b, unsigned long long *acc, int n, cudaStream_t s) {
  stencil<<<(n + 127) / 128, 128, 0, s>>>(a, b, n);
  cudaMemcpyAsync(a, b, n * sizeof(int), cudaMemcpyDeviceToDevice, s);
  checksum<<<(n + 127) / 128, 128, 0, s>>>(a, acc, n);
}

int main(int argc, char **argv) {
  const int iters = argc > 1 ? atoi(argv[1]) : 8;
  const int launches = argc > 2 ? atoi(argv[2]) : 6;
  const int n = 2048;
  int *a, *b;
  unsigned long long *acc;
  CK(cudaMalloc(&a, n * sizeof(int)));
  CK(cudaMalloc(&b, n * sizeof(int)));
  CK(cudaMalloc(&acc, sizeof *acc));
  static int h0[n], h[n];
  for (int i = 0; i < n; ++i) h0[i] = (i * 37) % 101;
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  // Direct run: launches * iters steps.
  CK(cudaMemcpy(a, h0, sizeof h0, cudaMemcpyHostToDevice));
  CK(cudaMemset(acc, 0, sizeof *acc));
  double t0 = now();
  for (int l = 0; l < launches; ++l)
    for (int i = 0; i < iters; ++i) step(a, b, acc, n, s);
  CK(cudaGetLastError());
  CK(cudaStreamSynchronize(s));
  double t1 = now();
  unsigned long long direct = 0;
  CK(cudaMemcpy(&direct, acc, sizeof direct, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost));
  long direct_sum = 0;
  for (int i = 0; i < n; ++i) direct_sum += h[i];

  // Graph: capture iters steps once, replay launches times.
  CK(cudaMemcpy(a, h0, sizeof h0, cudaMemcpyHostToDevice));
  CK(cudaMemset(acc, 0, sizeof *acc));
  cudaGraph_t g;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  for (int i = 0; i < iters; ++i) step(a, b, acc, n, s);
  CK(cudaStreamEndCapture(s, &g));
  size_t nodes = 0;
  CK(cudaGraphGetNodes(g, nullptr, &nodes));
  cudaGraphExec_t ge;
  CK(cudaGraphInstantiate(&ge, g, 0));
  double t2 = now();
  for (int l = 0; l < launches; ++l) CK(cudaGraphLaunch(ge, s));
  CK(cudaStreamSynchronize(s));
  double t3 = now();
  unsigned long long graphed = 0;
  CK(cudaMemcpy(&graphed, acc, sizeof graphed, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost));
  long graph_sum = 0;
  for (int i = 0; i < n; ++i) graph_sum += h[i];

  printf("iters=%d launches=%d graph nodes=%zu\n", iters, launches, nodes);
  printf("direct: checksum=%llu final sum=%ld\n", direct, direct_sum);
  printf("graph:  checksum=%llu final sum=%ld\n", graphed, graph_sum);
  fprintf(stderr, "direct %.3f ms, graph %.3f ms (%d kernels+copies each)\n", (t1 - t0) * 1e3, (t3 - t2) * 1e3,
          3 * iters * launches);
  CK(cudaGraphExecDestroy(ge));
  CK(cudaGraphDestroy(g));
  bool ok = direct == graphed && direct_sum == graph_sum && nodes == size_t(3 * iters);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

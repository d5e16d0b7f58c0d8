// A conditional node inside a stream capture (the pattern CUDA's programming guide gives for
// conditional nodes in captured work): cudaStreamGetCaptureInfo names the graph being captured and
// the capturing stream's current dependencies, cudaGraphConditionalHandleCreate + cudaGraphAddNode
// put a WHILE node there, cudaStreamUpdateCaptureDependencies makes the stream continue after it;
// its body is recorded by cudaStreamBeginCaptureToGraph on a second stream. Not a corpus program
// (tests/shim). Self-checking: the captured graph is upstream kernel -> WHILE { count } -> kernel.
#include <cstdio>

#define CHECK(x)                                                                       \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                           \
      printf("%s:%d: %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_));      \
      return 1;                                                                        \
    }                                                                                  \
  } while (0)

__global__ void setTo(int* p, int v) { *p = v; }
__global__ void countTo(cudaGraphConditionalHandle h, int* c, int limit) {
  int n = ++*c;
  cudaGraphSetConditional(h, n < limit ? 1u : 0u);
}
__global__ void addTo(int* p, int v) { *p += v; }

int main() {
  int* d;
  CHECK(cudaMalloc(&d, 4 * sizeof(int)));
  CHECK(cudaMemset(d, 0, 4 * sizeof(int)));
  cudaStream_t s, s2;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));

  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  setTo<<<1, 1, 0, s>>>(d, 0);
  cudaStreamCaptureStatus st;
  cudaGraph_t g = nullptr;
  const cudaGraphNode_t* deps = nullptr;
  size_t nd = 0;
  CHECK(cudaStreamGetCaptureInfo(s, &st, nullptr, &g, &deps, nullptr, &nd));
  printf("capture status %d, dependencies %zu\n", (int)st, nd);
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams p{};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = cudaGraphCondTypeWhile;
  p.conditional.size = 1;
  cudaGraphNode_t wn;
  CHECK(cudaGraphAddNode(&wn, g, deps, nullptr, nd, &p));
  cudaGraph_t body = p.conditional.phGraph_out[0];
  CHECK(cudaStreamUpdateCaptureDependencies(s, &wn, nullptr, 1, cudaStreamSetCaptureDependencies));
  CHECK(cudaStreamBeginCaptureToGraph(s2, body, nullptr, nullptr, 0, cudaStreamCaptureModeRelaxed));
  countTo<<<1, 1, 0, s2>>>(h, d, 4);
  cudaGraph_t out = nullptr;
  CHECK(cudaStreamEndCapture(s2, &out));
  addTo<<<1, 1, 0, s>>>(d, 100);
  cudaGraph_t captured = nullptr;
  CHECK(cudaStreamEndCapture(s, &captured));

  size_t n = 0, nb = 0;
  CHECK(cudaGraphGetNodes(captured, nullptr, &n));
  CHECK(cudaGraphGetNodes(body, nullptr, &nb));
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, captured, 0));
  int h0[2];
  for (int i = 0; i < 2; ++i) {
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(&h0[i], d, sizeof(int), cudaMemcpyDeviceToHost));
  }
  printf("info captured graph is the capture-info graph: %d, body capture returned the body: %d\n", captured == g,
         out == body);
  bool ok = n == 3 && nb == 1 && h0[0] == 104 && h0[1] == 104;
  printf("nodes %zu + body %zu, counter %d then %d (want 3 + 1, 104 104) %s\n", n, nb, h0[0], h0[1],
         ok ? "PASS" : "FAIL");
  cudaGraphExecDestroy(x);
  cudaGraphDestroy(captured);
  return ok ? 0 : 1;
}

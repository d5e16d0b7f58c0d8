// graph_conditional.cu: conditional graph nodes (CUDA 12.3+) are not modelled by ptx2amd; they must
// be refused explicitly with CUDA's code for an unsupported feature, never accepted and ignored:
// cudaGraphConditionalHandleCreate and cudaGraphAddNode(cudaGraphNodeTypeConditional) (runtime API)
// and cuGraphConditionalHandleCreate (driver API) return cudaErrorNotSupported /
// CUDA_ERROR_NOT_SUPPORTED (naming the feature on stderr), and the graph stays usable: an empty node
// and a launch after the refusals succeed. Self-checking (on the H200 the calls succeed instead).
// Built with -lcuda (and -cudart shared or the default static cudart).
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

static int failures = 0;
static void expect(bool ok, const char *what) {
  printf("%-60s %s\n", what, ok ? "ok" : "WRONG");
  failures += !ok;
}

int main() {
  cudaGraph_t g;
  if (cudaGraphCreate(&g, 0) != cudaSuccess) return 1;
  cudaGraphConditionalHandle h = 0;
  expect(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault) == cudaErrorNotSupported,
         "cudaGraphConditionalHandleCreate -> cudaErrorNotSupported");
  cudaGetLastError();
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = cudaGraphCondTypeIf;
  p.conditional.size = 1;
  cudaGraphNode_t n = nullptr;
  expect(cudaGraphAddNode(&n, g, nullptr, nullptr, 0, &p) == cudaErrorNotSupported,
         "cudaGraphAddNode(conditional) -> cudaErrorNotSupported");
  cudaGetLastError();
  CUcontext ctx = nullptr;
  cuCtxGetCurrent(&ctx);
  CUgraphConditionalHandle dh = 0;
  expect(cuGraphConditionalHandleCreate(&dh, (CUgraph)g, ctx, 0, 0) == CUDA_ERROR_NOT_SUPPORTED,
         "cuGraphConditionalHandleCreate -> CUDA_ERROR_NOT_SUPPORTED");
  cudaGraphNode_t e;
  expect(cudaGraphAddEmptyNode(&e, g, nullptr, 0) == cudaSuccess, "cudaGraphAddEmptyNode after the refusals");
  cudaGraphExec_t x;
  expect(cudaGraphInstantiate(&x, g, 0) == cudaSuccess && cudaGraphLaunch(x, 0) == cudaSuccess &&
             cudaStreamSynchronize(0) == cudaSuccess,
         "instantiate + launch of the graph");
  size_t count = 0;
  expect(cudaGraphGetNodes(g, nullptr, &count) == cudaSuccess && count == 1, "the graph holds the empty node only");
  cudaGraphExecDestroy(x);
  cudaGraphDestroy(g);
  printf(failures ? "FAIL\n" : "PASS\n");
  return failures != 0;
}

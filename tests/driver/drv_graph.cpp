// drv_graph.cpp: CUDA graphs through the driver API on kernels.cu's vector_add (loaded from PTX):
// stream capture (cuStreamBeginCapture / cuLaunchKernel / cuMemsetD32Async / cuMemcpyHtoDAsync /
// cuMemcpyDtoHAsync / cuStreamEndCapture), cuStreamIsCapturing, cuGraphInstantiate, cuGraphLaunch
// twice, cuGraphExecKernelNodeSetParams; then an explicitly built graph (cuGraphAddMemsetNode,
// cuGraphAddKernelNode, cuGraphAddMemcpyNode, cuGraphAddHostNode, cuGraphAddDependencies) and the
// capture error codes of the driver API. Prints every result; the H200's stdout is the golden.
// usage: drv_graph KERNELS.ptx
#include "drv_common.h"

static int host_calls = 0;
static void CUDA_CB on_host(void *p) { host_calls += *(int *)p; }

static float sumf(const float *v, int n) { float s = 0; for (int i = 0; i < n; ++i) s += v[i]; return s; }

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  std::vector<char> ptx = read_file(argv[1]);
  CUcontext ctx = init_primary();
  CUmodule mod;
  CHECK(cuModuleLoadData(&mod, ptx.data()));
  CUfunction fn;
  CHECK(cuModuleGetFunction(&fn, mod, "vector_add"));
  const int n = 1024;
  CUdeviceptr a, b, c;
  CHECK(cuMemAlloc(&a, n * 4));
  CHECK(cuMemAlloc(&b, n * 4));
  CHECK(cuMemAlloc(&c, n * 4));
  static float ha[n], hc[n];
  for (int i = 0; i < n; ++i) ha[i] = i * 0.5f;
  CUstream s;
  CHECK(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));

  CUstreamCaptureStatus st;
  CHECK(cuStreamIsCapturing(s, &st));
  printf("before: %d\n", (int)st);
  CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CHECK(cuStreamIsCapturing(s, &st));
  printf("during: %d\n", (int)st);
  float two = 2.0f;
  unsigned bits;
  memcpy(&bits, &two, 4);
  CHECK(cuMemcpyHtoDAsync(a, ha, n * 4, s));
  CHECK(cuMemsetD32Async(b, bits, n, s));
  int nn = n;
  void *params[] = {&a, &b, &c, &nn};
  CHECK(cuLaunchKernel(fn, n / 256, 1, 1, 256, 1, 1, 0, s, params, nullptr));
  CHECK(cuMemcpyDtoHAsync(hc, c, n * 4, s));
  printf("ctx synchronize during capture: %s\n", result_name(cuCtxSynchronize()));
  CHECK(cuStreamIsCapturing(s, &st));
  printf("status after: %d\n", (int)st);
  CUgraph g = nullptr;
  printf("end invalidated: %s graph=%s\n", result_name(cuStreamEndCapture(s, &g)), g ? "yes" : "null");
  // Capture again, properly.
  CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
  CHECK(cuMemcpyHtoDAsync(a, ha, n * 4, s));
  CHECK(cuMemsetD32Async(b, bits, n, s));
  CHECK(cuLaunchKernel(fn, n / 256, 1, 1, 256, 1, 1, 0, s, params, nullptr));
  CHECK(cuMemcpyDtoHAsync(hc, c, n * 4, s));
  CHECK(cuStreamEndCapture(s, &g));
  size_t nodes = 0;
  CHECK(cuGraphGetNodes(g, nullptr, &nodes));
  CUgraphExec ge;
  CHECK(cuGraphInstantiate(&ge, g, 0));
  for (int r = 0; r < 2; ++r) {
    memset(hc, 0, sizeof hc);
    CHECK(cuGraphLaunch(ge, s));
    CHECK(cuStreamSynchronize(s));
    printf("captured graph (%zu nodes) launch %d: c[0]=%g c[1023]=%g sum=%g\n", nodes, r, hc[0], hc[n - 1], sumf(hc, n));
  }
  // Point the kernel at a + a.
  CUgraphNode all[8];
  size_t cnt = 8;
  CHECK(cuGraphGetNodes(g, all, &cnt));
  for (size_t i = 0; i < cnt; ++i) {
    CUgraphNodeType t;
    CHECK(cuGraphNodeGetType(all[i], &t));
    if (t != CU_GRAPH_NODE_TYPE_KERNEL) continue;
    CUDA_KERNEL_NODE_PARAMS kp;
    CHECK(cuGraphKernelNodeGetParams(all[i], &kp));
    printf("kernel node: grid=%u block=%u func same=%d\n", kp.gridDimX, kp.blockDimX, kp.func == fn);
    void *p2[] = {&a, &a, &c, &nn};
    kp.kernelParams = p2;
    kp.extra = nullptr;
    CHECK(cuGraphExecKernelNodeSetParams(ge, all[i], &kp));
  }
  CHECK(cuGraphLaunch(ge, s));
  CHECK(cuStreamSynchronize(s));
  printf("after exec set params: c[0]=%g c[1]=%g c[1023]=%g sum=%g\n", hc[0], hc[1], hc[n - 1], sumf(hc, n));

  // Explicit graph: memset b = 1.0f, kernel c = a + b (a from before), copy c -> b, kernel c = b + b,
  // copy back, host node.
  CUgraph eg;
  CHECK(cuGraphCreate(&eg, 0));
  CUgraphNode ms, k1, cp, k2, back, hst;
  CUDA_MEMSET_NODE_PARAMS mp{};
  float one = 1.0f;
  memcpy(&bits, &one, 4);
  mp.dst = b;
  mp.value = bits;
  mp.elementSize = 4;
  mp.width = n;
  mp.height = 1;
  CHECK(cuGraphAddMemsetNode(&ms, eg, nullptr, 0, &mp, ctx));
  CUDA_KERNEL_NODE_PARAMS kp{};
  kp.func = fn;
  kp.gridDimX = n / 128;
  kp.gridDimY = kp.gridDimZ = 1;
  kp.blockDimX = 128;
  kp.blockDimY = kp.blockDimZ = 1;
  kp.kernelParams = params;
  CHECK(cuGraphAddKernelNode(&k1, eg, &ms, 1, &kp));
  CUDA_MEMCPY3D m3{};
  m3.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  m3.srcDevice = c;
  m3.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  m3.dstDevice = b;
  m3.WidthInBytes = n * 4;
  m3.Height = 1;
  m3.Depth = 1;
  CHECK(cuGraphAddMemcpyNode(&cp, eg, &k1, 1, &m3, ctx));
  void *p3[] = {&b, &b, &c, &nn};
  kp.kernelParams = p3;
  CHECK(cuGraphAddKernelNode(&k2, eg, nullptr, 0, &kp));
  CUDA_MEMCPY3D mb{};
  mb.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  mb.srcDevice = c;
  mb.dstMemoryType = CU_MEMORYTYPE_HOST;
  mb.dstHost = hc;
  mb.WidthInBytes = n * 4;
  mb.Height = 1;
  mb.Depth = 1;
  CHECK(cuGraphAddMemcpyNode(&back, eg, nullptr, 0, &mb, ctx));
  int three = 3;
  CUDA_HOST_NODE_PARAMS hp{on_host, &three};
  CHECK(cuGraphAddHostNode(&hst, eg, nullptr, 0, &hp));
  CUgraphNode from[] = {cp, k2, back}, to[] = {k2, back, hst};
  CHECK(cuGraphAddDependencies(eg, from, to, nullptr, 3));
  size_t edges = 0, roots = 0;
  CHECK(cuGraphGetEdges(eg, nullptr, nullptr, nullptr, &edges));
  CHECK(cuGraphGetRootNodes(eg, nullptr, &roots));
  CUgraphExec ege;
  CHECK(cuGraphInstantiate(&ege, eg, 0));
  CHECK(cuGraphLaunch(ege, s));
  CHECK(cuStreamSynchronize(s));
  printf("explicit graph: edges=%zu roots=%zu c[0]=%g c[1]=%g c[1023]=%g sum=%g host=%d\n", edges, roots, hc[0], hc[1],
         hc[n - 1], sumf(hc, n), host_calls);

  // Driver-API capture errors.
  printf("capture null stream: %s\n", result_name(cuStreamBeginCapture(nullptr, CU_STREAM_CAPTURE_MODE_GLOBAL)));
  printf("end not capturing: %s\n", result_name(cuStreamEndCapture(s, &g)));
  CHECK(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
  CUdeviceptr tmp;
  printf("cuMemAlloc during global capture: %s\n", result_name(cuMemAlloc(&tmp, 64)));
  printf("stream query during capture: %s\n", result_name(cuStreamQuery(s)));
  CUgraph bad = nullptr;
  printf("end: %s graph=%s\n", result_name(cuStreamEndCapture(s, &bad)), bad ? "yes" : "null");
  printf("launch null exec: %s\n", result_name(cuGraphLaunch(nullptr, s)));

  CHECK(cuGraphExecDestroy(ge));
  CHECK(cuGraphExecDestroy(ege));
  CHECK(cuGraphDestroy(g));
  CHECK(cuGraphDestroy(eg));
  CHECK(cuMemFree(a));
  CHECK(cuMemFree(b));
  CHECK(cuMemFree(c));
  CHECK(cuModuleUnload(mod));
  printf("done\n");
  return 0;
}

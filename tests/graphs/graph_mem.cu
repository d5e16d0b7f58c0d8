// graph_mem.cu: graph nodes beyond linear memory: memcpy nodes with CUDA-array endpoints (host ->
// array, array -> array, array -> device, through cudaMemcpy3DParms) and to / from __device__
// symbols (cudaGraphAddMemcpyNodeToSymbol / FromSymbol, and their capture through
// cudaMemcpyToSymbolAsync / cudaMemcpy2DToArrayAsync); memory allocation and free nodes (explicit
// cudaGraphAddMemAllocNode / MemFreeNode, and cudaMallocAsync / cudaFreeAsync captured from a stream),
// relaunch rules of a graph owning an allocation, cudaGraphInstantiateFlagAutoFreeOnLaunch;
// node enable / disable (cudaGraphNodeSetEnabled / GetEnabled) on an executable graph; and
// cudaGraphInstantiateWithParams (upload stream, result codes, a cycle). Prints every result; its
// stdout on the H200 is the golden. With the argument "probe": which node CUDA names as the
// error node of a cycle and of a device-launch instantiation refused for a host node.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); return 1; } } while (0)
#define SHOW(x) printf("%-60s -> %s\n", #x, cudaGetErrorName(x))

__device__ float table[64];
__device__ int counter;

__global__ void scale(float *v, int n, float k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= k;
}
__global__ void add_table(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += table[i % 64];
  if (i == 0) atomicAdd(&counter, 1);
}
__global__ void fill(int *v, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = base + i;
}

static double wsum(const float *v, int n) { double s = 0; for (int i = 0; i < n; ++i) s += v[i] * (1 + i % 5); return s; }
static long isum(const int *v, int n) { long s = 0; for (int i = 0; i < n; ++i) s += (long)v[i] * (1 + i % 3); return s; }

static int typeOf(cudaGraphNode_t nd) {
  cudaGraphNodeType t;
  if (cudaGraphNodeGetType(nd, &t) != cudaSuccess) return -1;
  return (int)t;
}
static void print_types(const char *what, cudaGraph_t g) {
  size_t cnt = 0;
  cudaGraphGetNodes(g, nullptr, &cnt);
  cudaGraphNode_t nodes[32];
  if (cnt > 32) cnt = 32;
  cudaGraphGetNodes(g, nodes, &cnt);
  printf("%s: %zu nodes, types", what, cnt);
  for (size_t i = 0; i < cnt; ++i) printf(" %d", typeOf(nodes[i]));
  size_t edges = 0;
  cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges);
  printf(", %zu edges\n", edges);
}

static int probe_main();

int main(int argc, char **argv) {
  setvbuf(stdout, nullptr, _IOLBF, 0);
  if (argc > 1 && !strcmp(argv[1], "probe")) return probe_main();
  const int W = 32, H = 8, N = W * H;
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  static float img[N], out[N], tab[64];
  for (int i = 0; i < N; ++i) img[i] = i * 0.25f;
  for (int i = 0; i < 64; ++i) tab[i] = 1000.0f + i;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr, arr2;
  CK(cudaMallocArray(&arr, &fd, W, H));
  CK(cudaMallocArray(&arr2, &fd, W, H));
  float *dv;
  CK(cudaMalloc(&dv, N * sizeof(float)));

  // ---- 1. explicit graph: host -> array -> array (sub-box) -> device, symbol, kernels ------
  {
    cudaGraph_t g;
    CK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t toArr, arrArr, arrDev, toSym, k1, k2, back, zero;
    cudaMemcpy3DParms p{};
    p.srcPtr = make_cudaPitchedPtr(img, W * sizeof(float), W, H);
    p.dstArray = arr;
    p.extent = make_cudaExtent(W, H, 1); // elements with an array endpoint
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaGraphAddMemcpyNode(&toArr, g, nullptr, 0, &p));
    cudaMemcpy3DParms z{};
    static float zeros[N];
    z.srcPtr = make_cudaPitchedPtr(zeros, W * sizeof(float), W, H);
    z.dstArray = arr2;
    z.extent = make_cudaExtent(W, H, 1);
    z.kind = cudaMemcpyHostToDevice;
    CK(cudaGraphAddMemcpyNode(&zero, g, nullptr, 0, &z));
    cudaMemcpy3DParms q{};
    q.srcArray = arr;
    q.srcPos = make_cudaPos(4, 2, 0);
    q.dstArray = arr2;
    q.dstPos = make_cudaPos(10, 3, 0);
    q.extent = make_cudaExtent(8, 4, 1);
    q.kind = cudaMemcpyDeviceToDevice;
    cudaGraphNode_t deps2[] = {toArr, zero};
    CK(cudaGraphAddMemcpyNode(&arrArr, g, deps2, 2, &q));
    cudaMemcpy3DParms r{};
    r.srcArray = arr2;
    r.dstPtr = make_cudaPitchedPtr(dv, W * sizeof(float), W, H);
    r.extent = make_cudaExtent(W, H, 1);
    r.kind = cudaMemcpyDeviceToDevice;
    CK(cudaGraphAddMemcpyNode(&arrDev, g, &arrArr, 1, &r));
    CK(cudaGraphAddMemcpyNodeToSymbol(&toSym, g, nullptr, 0, table, tab, sizeof tab, 0, cudaMemcpyHostToDevice));
    int n = N;
    float k = 2.0f;
    void *a1[] = {&dv, &n, &k};
    cudaKernelNodeParams kp{};
    kp.func = (void *)scale;
    kp.gridDim = dim3(N / 64);
    kp.blockDim = dim3(64);
    kp.kernelParams = a1;
    CK(cudaGraphAddKernelNode(&k1, g, &arrDev, 1, &kp));
    void *a2[] = {&dv, &n};
    kp.func = (void *)add_table;
    kp.kernelParams = a2;
    cudaGraphNode_t deps[] = {k1, toSym};
    CK(cudaGraphAddKernelNode(&k2, g, deps, 2, &kp));
    CK(cudaGraphAddMemcpyNode1D(&back, g, &k2, 1, out, dv, N * sizeof(float), cudaMemcpyDeviceToHost));
    print_types("array graph", g);
    cudaMemcpy3DParms gp;
    CK(cudaGraphMemcpyNodeGetParams(arrArr, &gp));
    printf("array->array params: src same=%d pos=%zu,%zu dst same=%d pos=%zu,%zu extent=%zux%zux%zu kind=%d\n",
           gp.srcArray == arr, gp.srcPos.x, gp.srcPos.y, gp.dstArray == arr2, gp.dstPos.x, gp.dstPos.y, gp.extent.width,
           gp.extent.height, gp.extent.depth, (int)gp.kind);
    cudaGraphExec_t ge;
    CK(cudaGraphInstantiate(&ge, g, 0));
    CK(cudaGraphLaunch(ge, s));
    CK(cudaStreamSynchronize(s));
    printf("array graph: out[0]=%g out[3*32+10]=%g out[6*32+17]=%g out[6*32+18]=%g weighted=%.2f\n", out[0], out[3 * W + 10],
           out[6 * W + 17], out[6 * W + 18], wsum(out, N));
    // Symbol node parameter change in the executable graph: a different table.
    static float tab2[64];
    for (int i = 0; i < 64; ++i) tab2[i] = -i;
    CK(cudaGraphExecMemcpyNodeSetParamsToSymbol(ge, toSym, table, tab2, 32 * sizeof(float), 16 * sizeof(float),
                                                cudaMemcpyHostToDevice));
    CK(cudaGraphLaunch(ge, s));
    CK(cudaStreamSynchronize(s));
    printf("after exec symbol params: out[0]=%g out[16]=%g out[47]=%g out[48]=%g weighted=%.2f\n", out[0], out[16], out[47],
           out[48], wsum(out, N));
    // Read the symbol back through a FromSymbol node.
    static float tb[64];
    cudaGraph_t g2;
    CK(cudaGraphCreate(&g2, 0));
    cudaGraphNode_t fromSym;
    CK(cudaGraphAddMemcpyNodeFromSymbol(&fromSym, g2, nullptr, 0, tb, table, 8 * sizeof(float), 12 * sizeof(float),
                                        cudaMemcpyDeviceToHost));
    cudaGraphExec_t ge2;
    CK(cudaGraphInstantiate(&ge2, g2, 0));
    CK(cudaGraphLaunch(ge2, s));
    CK(cudaStreamSynchronize(s));
    printf("from symbol: %g %g %g %g ... %g\n", tb[0], tb[1], tb[3], tb[4], tb[7]);
    int cnt = 0;
    CK(cudaMemcpyFromSymbol(&cnt, counter, sizeof cnt));
    printf("counter after 2 launches: %d\n", cnt);
    CK(cudaGraphExecDestroy(ge2));
    CK(cudaGraphDestroy(g2));
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
  }

  // ---- 2. captured array / symbol copies ---------------------------------------------
  {
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CK(cudaMemcpy2DToArrayAsync(arr, 0, 0, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice, s));
    CK(cudaMemcpyToSymbolAsync(table, tab, sizeof tab, 0, cudaMemcpyHostToDevice, s));
    CK(cudaMemcpy2DFromArrayAsync(dv, W * sizeof(float), arr, 8, 1, 16 * sizeof(float), 2, cudaMemcpyDeviceToDevice, s));
    int n = 32;
    add_table<<<1, 64, 0, s>>>(dv, n);
    CK(cudaMemcpyAsync(out, dv, N * sizeof(float), cudaMemcpyDeviceToHost, s));
    cudaGraph_t g;
    CK(cudaStreamEndCapture(s, &g));
    print_types("captured array/symbol", g);
    cudaGraphExec_t ge;
    CK(cudaGraphInstantiate(&ge, g, 0));
    CK(cudaGraphLaunch(ge, s));
    CK(cudaStreamSynchronize(s));
    printf("captured: out[0]=%g out[15]=%g out[16]=%g out[31]=%g out[40]=%g\n", out[0], out[15], out[16], out[31], out[40]);
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
  }

  // ---- 3. memory nodes ------------------------------------------------------------------
  {
    const int M = 1000;
    static int hi[M];
    cudaGraph_t g;
    CK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams ap{};
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = M * sizeof(int);
    cudaGraphNode_t alloc, k, cp, fr;
    CK(cudaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap));
    int *dp = (int *)ap.dptr;
    printf("alloc node: dptr set=%d\n", dp != nullptr);
    int m = M, base = 7;
    void *ka[] = {&dp, &m, &base};
    cudaKernelNodeParams kp{};
    kp.func = (void *)fill;
    kp.gridDim = dim3((M + 127) / 128);
    kp.blockDim = dim3(128);
    kp.kernelParams = ka;
    CK(cudaGraphAddKernelNode(&k, g, &alloc, 1, &kp));
    CK(cudaGraphAddMemcpyNode1D(&cp, g, &k, 1, hi, dp, M * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaGraphAddMemFreeNode(&fr, g, &cp, 1, dp));
    print_types("alloc/free graph", g);
    cudaMemAllocNodeParams back;
    CK(cudaGraphMemAllocNodeGetParams(alloc, &back));
    printf("alloc params: bytesize=%zu same dptr=%d type=%d loc=%d,%d\n", back.bytesize, back.dptr == dp,
           (int)back.poolProps.allocType, (int)back.poolProps.location.type, back.poolProps.location.id);
    void *fp = nullptr;
    CK(cudaGraphMemFreeNodeGetParams(fr, &fp));
    printf("free params: same dptr=%d\n", fp == dp);
    cudaGraphExec_t ge;
    CK(cudaGraphInstantiate(&ge, g, 0));
    for (int r = 0; r < 2; ++r) {
      memset(hi, 0, sizeof hi);
      CK(cudaGraphLaunch(ge, s));
      CK(cudaStreamSynchronize(s));
      printf("alloc/free launch %d: hi[0]=%d hi[999]=%d weighted=%ld\n", r, hi[0], hi[M - 1], isum(hi, M));
    }
    SHOW(cudaGraphNodeSetEnabled(ge, alloc, 0));
    CK(cudaGraphExecDestroy(ge));
    SHOW(cudaGraphClone(&g, g));
    CK(cudaGraphDestroy(g));

    // Alloc without a free in the graph: the allocation outlives the launch.
    CK(cudaGraphCreate(&g, 0));
    ap.dptr = nullptr;
    CK(cudaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap));
    dp = (int *)ap.dptr;
    CK(cudaGraphAddKernelNode(&k, g, &alloc, 1, &kp)); // kp's arguments point at dp
    CK(cudaGraphInstantiate(&ge, g, 0));
    CK(cudaGraphLaunch(ge, s));
    CK(cudaStreamSynchronize(s));
    memset(hi, 0, sizeof hi);
    SHOW(cudaMemcpy(hi, dp, M * sizeof(int), cudaMemcpyDeviceToHost));
    printf("outliving allocation: hi[5]=%d\n", hi[5]);
    SHOW(cudaGraphLaunch(ge, s));
    SHOW(cudaStreamSynchronize(s));
    SHOW(cudaFreeAsync(dp, s));
    SHOW(cudaStreamSynchronize(s));
    SHOW(cudaGraphLaunch(ge, s));
    SHOW(cudaStreamSynchronize(s));
    SHOW(cudaFree(dp));
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphInstantiate(&ge, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    unsigned long long fl = 0;
    CK(cudaGraphExecGetFlags(ge, &fl));
    printf("auto-free exec flags: %llu\n", fl);
    for (int r = 0; r < 3; ++r) SHOW(cudaGraphLaunch(ge, s));
    SHOW(cudaStreamSynchronize(s));
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
    SHOW(cudaDeviceGraphMemTrim(0));

    // Stream-ordered allocation captured into a graph.
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    int *sp = nullptr;
    CK(cudaMallocAsync((void **)&sp, M * sizeof(int), s));
    fill<<<(M + 127) / 128, 128, 0, s>>>(sp, M, 100);
    CK(cudaMemcpyAsync(hi, sp, M * sizeof(int), cudaMemcpyDeviceToHost, s));
    CK(cudaFreeAsync(sp, s));
    CK(cudaStreamEndCapture(s, &g));
    print_types("captured malloc/free", g);
    CK(cudaGraphInstantiate(&ge, g, 0));
    for (int r = 0; r < 2; ++r) {
      memset(hi, 0, sizeof hi);
      CK(cudaGraphLaunch(ge, s));
      CK(cudaStreamSynchronize(s));
      printf("captured malloc/free launch %d: hi[0]=%d hi[999]=%d weighted=%ld\n", r, hi[0], hi[M - 1], isum(hi, M));
    }
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
    // A plain cudaMalloc during capture is still refused.
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    void *bad = nullptr;
    SHOW(cudaMalloc(&bad, 64));
    SHOW(cudaStreamEndCapture(s, &g));
    cudaGetLastError();
    // cudaMallocAsync outside capture, stream ordered.
    CK(cudaMallocAsync((void **)&sp, M * sizeof(int), s));
    fill<<<(M + 127) / 128, 128, 0, s>>>(sp, M, -3);
    CK(cudaMemcpyAsync(hi, sp, M * sizeof(int), cudaMemcpyDeviceToHost, s));
    CK(cudaFreeAsync(sp, s));
    CK(cudaStreamSynchronize(s));
    printf("stream-ordered: hi[0]=%d hi[999]=%d\n", hi[0], hi[M - 1]);
  }

  // ---- 4. enable / disable ----------------------------------------------------------------
  {
    static int hv[256];
    int *d;
    CK(cudaMalloc(&d, sizeof hv));
    cudaGraph_t g;
    CK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t ms, k1, k2, cp, hn;
    cudaMemsetParams mp{};
    mp.dst = d;
    mp.value = 1;
    mp.elementSize = 4;
    mp.width = 256;
    mp.height = 1;
    CK(cudaGraphAddMemsetNode(&ms, g, nullptr, 0, &mp));
    int n = 256, b1 = 10, b2 = 500;
    void *ka1[] = {&d, &n, &b1}, *ka2[] = {&d, &n, &b2};
    cudaKernelNodeParams kp{};
    kp.func = (void *)fill;
    kp.gridDim = dim3(2);
    kp.blockDim = dim3(128);
    kp.kernelParams = ka1;
    CK(cudaGraphAddKernelNode(&k1, g, &ms, 1, &kp));
    kp.kernelParams = ka2;
    CK(cudaGraphAddKernelNode(&k2, g, &k1, 1, &kp));
    CK(cudaGraphAddMemcpyNode1D(&cp, g, &k2, 1, hv, d, sizeof hv, cudaMemcpyDeviceToHost));
    static int hostCalls = 0;
    cudaHostNodeParams hp{[](void *p) { ++*(int *)p; }, &hostCalls};
    CK(cudaGraphAddHostNode(&hn, g, &cp, 1, &hp));
    cudaGraphExec_t ge;
    CK(cudaGraphInstantiate(&ge, g, 0));
    auto run = [&](const char *what) {
      memset(hv, 0xff, sizeof hv);
      cudaGraphLaunch(ge, s);
      cudaStreamSynchronize(s);
      printf("%-28s hv[0]=%d hv[255]=%d host calls=%d\n", what, hv[0], hv[255], hostCalls);
    };
    run("all enabled:");
    unsigned en = 7;
    CK(cudaGraphNodeGetEnabled(ge, k2, &en));
    printf("k2 enabled: %u\n", en);
    CK(cudaGraphNodeSetEnabled(ge, k2, 0));
    CK(cudaGraphNodeGetEnabled(ge, k2, &en));
    printf("k2 enabled after disable: %u\n", en);
    run("k2 disabled:");
    CK(cudaGraphNodeSetEnabled(ge, k1, 0));
    run("k1, k2 disabled:");
    CK(cudaGraphNodeSetEnabled(ge, cp, 0));
    run("k1, k2, copy disabled:");
    CK(cudaGraphNodeSetEnabled(ge, k1, 1));
    CK(cudaGraphNodeSetEnabled(ge, k2, 1));
    CK(cudaGraphNodeSetEnabled(ge, cp, 1));
    CK(cudaGraphNodeSetEnabled(ge, ms, 0));
    run("memset disabled:");
    CK(cudaGraphNodeSetEnabled(ge, ms, 1));
    SHOW(cudaGraphNodeSetEnabled(ge, hn, 0));
    run("host node disable tried:");
    cudaGraph_t other;
    CK(cudaGraphCreate(&other, 0));
    cudaGraphNode_t e;
    CK(cudaGraphAddEmptyNode(&e, other, nullptr, 0));
    SHOW(cudaGraphNodeSetEnabled(ge, e, 0));
    SHOW(cudaGraphNodeGetEnabled(ge, e, &en));
    // A disabled node stays disabled across cudaGraphExecUpdate? (update keeps exec state)
    CK(cudaGraphNodeSetEnabled(ge, k2, 0));
    cudaGraphExecUpdateResultInfo info;
    SHOW(cudaGraphExecUpdate(ge, g, &info));
    CK(cudaGraphNodeGetEnabled(ge, k2, &en));
    printf("k2 enabled after exec update: %u\n", en);
    run("after update:");
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(other));

    // ---- 5. cudaGraphInstantiateWithParams ---------------------------------------------------
    cudaGraphInstantiateParams ip{};
    ip.flags = cudaGraphInstantiateFlagUpload;
    ip.uploadStream = s;
    ip.result_out = (cudaGraphInstantiateResult)77;
    SHOW(cudaGraphInstantiateWithParams(&ge, g, &ip));
    printf("result_out=%d errNode null=%d\n", (int)ip.result_out, ip.errNode_out == nullptr);
    unsigned long long fl;
    CK(cudaGraphExecGetFlags(ge, &fl));
    printf("exec flags: %llu\n", fl);
    run("instantiated with params:");
    CK(cudaGraphExecDestroy(ge));
    ip = cudaGraphInstantiateParams{};
    ip.flags = 1ull << 40;
    ip.result_out = (cudaGraphInstantiateResult)77;
    SHOW(cudaGraphInstantiateWithParams(&ge, g, &ip));
    printf("bad flags: result_out=%d\n", (int)ip.result_out);
    ip = cudaGraphInstantiateParams{};
    ip.flags = cudaGraphInstantiateFlagDeviceLaunch; // a host node cannot be device-launched
    ip.result_out = (cudaGraphInstantiateResult)77;
    SHOW(cudaGraphInstantiateWithParams(&ge, g, &ip));
    printf("device launch: result_out=%d errNode is host node=%d\n", (int)ip.result_out, ip.errNode_out == hn);
    cudaGetLastError();
    // A cycle.
    SHOW(cudaGraphAddDependencies(g, &hn, &ms, nullptr, 1));
    ip = cudaGraphInstantiateParams{};
    ip.result_out = (cudaGraphInstantiateResult)77;
    SHOW(cudaGraphInstantiateWithParams(&ge, g, &ip));
    printf("cycle: result_out=%d errNode set=%d\n", (int)ip.result_out, ip.errNode_out != nullptr);
    cudaGetLastError();
    SHOW(cudaGraphInstantiateWithParams(&ge, g, nullptr));
    cudaGetLastError();
    CK(cudaGraphDestroy(g));
    CK(cudaFree(d));
  }
  CK(cudaFreeArray(arr));
  CK(cudaFreeArray(arr2));
  CK(cudaFree(dv));
  CK(cudaStreamDestroy(s));
  printf("done\n");
  return 0;
}

// Nodes a (memset) -> b (kernel) -> c (host) -> d (kernel), then an edge d -> b closing a cycle.
static int probe_main() {
  int *d;
  CK(cudaMalloc(&d, 256 * sizeof(int)));
  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  cudaGraphNode_t n[4];
  cudaMemsetParams mp{};
  mp.dst = d;
  mp.elementSize = 4;
  mp.width = 256;
  mp.height = 1;
  CK(cudaGraphAddMemsetNode(&n[0], g, nullptr, 0, &mp));
  int cnt = 256, base = 1;
  void *ka[] = {&d, &cnt, &base};
  cudaKernelNodeParams kp{};
  kp.func = (void *)fill;
  kp.gridDim = dim3(2);
  kp.blockDim = dim3(128);
  kp.kernelParams = ka;
  CK(cudaGraphAddKernelNode(&n[1], g, &n[0], 1, &kp));
  static int calls = 0;
  cudaHostNodeParams hp{[](void *p) { ++*(int *)p; }, &calls};
  CK(cudaGraphAddHostNode(&n[2], g, &n[1], 1, &hp));
  CK(cudaGraphAddKernelNode(&n[3], g, &n[2], 1, &kp));
  auto which = [&](cudaGraphNode_t e) {
    for (int i = 0; i < 4; ++i)
      if (e == n[i]) return i;
    return e ? 9 : -1;
  };
  cudaGraphExec_t ge;
  cudaGraphInstantiateParams ip{};
  ip.flags = cudaGraphInstantiateFlagDeviceLaunch;
  SHOW(cudaGraphInstantiateWithParams(&ge, g, &ip));
  printf("device launch: result_out=%d errNode=%d\n", (int)ip.result_out, which(ip.errNode_out));
  cudaGetLastError();
  CK(cudaGraphInstantiateWithFlags(&ge, g, cudaGraphInstantiateFlagUpload));
  unsigned long long fl = 7;
  CK(cudaGraphExecGetFlags(ge, &fl));
  printf("upload flag kept: %llu\n", fl);
  CK(cudaGraphExecDestroy(ge));
  SHOW(cudaGraphAddDependencies(g, &n[3], &n[1], nullptr, 1));
  ip = cudaGraphInstantiateParams{};
  SHOW(cudaGraphInstantiateWithParams(&ge, g, &ip));
  printf("cycle: result_out=%d errNode=%d\n", (int)ip.result_out, which(ip.errNode_out));
  cudaGetLastError();
  cudaGraphNode_t en = nullptr;
  SHOW(cudaGraphInstantiate(&ge, g, 0));
  cudaGetLastError();
  CK(cudaGraphDestroy(g));
  CK(cudaFree(d));
  (void)en;
  printf("done\n");
  return 0;
}

// graph_nodes.cu: an explicitly built graph with every node kind the runtime supports: memset
// (1D and 2D with a pitch), memcpy (1D and cudaMemcpy3DParms over linear memory), kernel, host,
// empty, event record / event wait, and a child graph; a diamond of dependencies; queries
// (node counts, root nodes, edges, dependencies, dependents, node types, node params); instantiate
// with flags; launch several times; kernel / memset / host node parameter updates in the graph and in
// the executable graph; cloning; removing a dependency; destroying a node. Prints every result; its
// stdout on the H200 is the golden.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void axpb(int *v, int n, int a, int b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * a + b;
}
__global__ void add_into(int *dst, const int *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] += src[i];
}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); return 1; } } while (0)

static long sum(const int *h, int n) { long s = 0; for (int i = 0; i < n; ++i) s += h[i]; return s; }

struct HostLog { int calls; int last; };
static void CUDART_CB host_fn(void *p) {
  HostLog *l = (HostLog *)p;
  l->calls++;
}
static void CUDART_CB host_fn2(void *p) {
  HostLog *l = (HostLog *)p;
  l->calls += 100;
}

static int typeOf(cudaGraphNode_t nd) {
  cudaGraphNodeType t;
  if (cudaGraphNodeGetType(nd, &t) != cudaSuccess) return -1;
  return (int)t;
}

int main() {
  const int n = 512;
  int *a, *b, *p2;
  size_t pitch = 0;
  CK(cudaMalloc(&a, n * sizeof(int)));
  CK(cudaMalloc(&b, n * sizeof(int)));
  CK(cudaMallocPitch((void **)&p2, &pitch, 64 * sizeof(int), 8));
  static int in[n], out[n], outb[n], pout[8 * 64];
  for (int i = 0; i < n; ++i) in[i] = i % 17;
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  cudaEvent_t ev;
  CK(cudaEventCreate(&ev));
  HostLog log{0, 0};

  // Child graph: b = b * 3 + 1.
  cudaGraph_t child;
  CK(cudaGraphCreate(&child, 0));
  int nn = n, c3 = 3, c1 = 1;
  void *cargs[] = {&b, &nn, &c3, &c1};
  cudaKernelNodeParams kp{};
  kp.func = (void *)axpb;
  kp.gridDim = dim3(n / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = cargs;
  cudaGraphNode_t ck;
  CK(cudaGraphAddKernelNode(&ck, child, nullptr, 0, &kp));

  cudaGraph_t g;
  CK(cudaGraphCreate(&g, 0));
  // Roots: copy in -> a; memset b to 0x01010101.
  cudaGraphNode_t cin, msb, ka, kc, join, hst, evr, evw, cout, coutb, ms2, cp2, emp2;
  CK(cudaGraphAddMemcpyNode1D(&cin, g, nullptr, 0, a, in, n * sizeof(int), cudaMemcpyHostToDevice));
  cudaMemsetParams mp{};
  mp.dst = b;
  mp.value = 1;
  mp.elementSize = 1;
  mp.width = n * sizeof(int);
  mp.height = 1;
  mp.pitch = 0;
  CK(cudaGraphAddMemsetNode(&msb, g, nullptr, 0, &mp));
  // a = a * 2 + 5 after the copy.
  int c2 = 2, c5 = 5;
  void *aargs[] = {&a, &nn, &c2, &c5};
  kp.kernelParams = aargs;
  CK(cudaGraphAddKernelNode(&ka, g, &cin, 1, &kp));
  // Child graph after the memset.
  CK(cudaGraphAddChildGraphNode(&kc, g, &msb, 1, child));
  // Join (empty) after both branches, then b += a.
  cudaGraphNode_t jd[] = {ka, kc};
  CK(cudaGraphAddEmptyNode(&join, g, jd, 2));
  cudaGraphNode_t kadd;
  void *addargs[] = {&b, &a, &nn};
  cudaKernelNodeParams kp2{};
  kp2.func = (void *)add_into;
  kp2.gridDim = dim3(n / 64);
  kp2.blockDim = dim3(64);
  kp2.kernelParams = addargs;
  CK(cudaGraphAddKernelNode(&kadd, g, &join, 1, &kp2));
  // Host node, event record, event wait, copies out.
  cudaHostNodeParams hp{};
  hp.fn = host_fn;
  hp.userData = &log;
  CK(cudaGraphAddHostNode(&hst, g, &kadd, 1, &hp));
  CK(cudaGraphAddEventRecordNode(&evr, g, &hst, 1, ev));
  CK(cudaGraphAddEventWaitNode(&evw, g, &evr, 1, ev));
  CK(cudaGraphAddMemcpyNode1D(&cout, g, &evw, 1, out, a, n * sizeof(int), cudaMemcpyDeviceToHost));
  cudaMemcpy3DParms c3p{};
  c3p.srcPtr = make_cudaPitchedPtr(b, n * sizeof(int), n, 1);
  c3p.dstPtr = make_cudaPitchedPtr(outb, n * sizeof(int), n, 1);
  c3p.extent = make_cudaExtent(n * sizeof(int), 1, 1);
  c3p.kind = cudaMemcpyDeviceToHost;
  CK(cudaGraphAddMemcpyNode(&coutb, g, &evw, 1, &c3p));
  // An independent 2D branch: memset a pitched 64x8 int area to 0x02 bytes (4-byte elements), copy out.
  cudaMemsetParams mp2{};
  mp2.dst = p2;
  mp2.value = 0x02020202;
  mp2.elementSize = 4;
  mp2.width = 64;
  mp2.height = 8;
  mp2.pitch = pitch;
  CK(cudaGraphAddMemsetNode(&ms2, g, nullptr, 0, &mp2));
  cudaMemcpy3DParms p3{};
  p3.srcPtr = make_cudaPitchedPtr(p2, pitch, 64, 8);
  p3.dstPtr = make_cudaPitchedPtr(pout, 64 * sizeof(int), 64, 8);
  p3.extent = make_cudaExtent(64 * sizeof(int), 8, 1);
  p3.kind = cudaMemcpyDefault;
  CK(cudaGraphAddMemcpyNode(&cp2, g, &ms2, 1, &p3));
  CK(cudaGraphAddEmptyNode(&emp2, g, nullptr, 0));

  size_t nodes = 0, roots = 0, edges = 0;
  CK(cudaGraphGetNodes(g, nullptr, &nodes));
  CK(cudaGraphGetRootNodes(g, nullptr, &roots));
  CK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges));
  printf("nodes=%zu roots=%zu edges=%zu\n", nodes, roots, edges);
  cudaGraphNode_t all[32];
  size_t cnt = 32;
  CK(cudaGraphGetNodes(g, all, &cnt));
  printf("types:");
  for (size_t i = 0; i < cnt; ++i) printf(" %d", typeOf(all[i]));
  printf("\n");
  size_t nd = 0, ndn = 0;
  CK(cudaGraphNodeGetDependencies(kadd, nullptr, nullptr, &nd));
  CK(cudaGraphNodeGetDependentNodes(evw, nullptr, nullptr, &ndn));
  cudaGraphNode_t deps[4];
  size_t nd2 = 4;
  CK(cudaGraphNodeGetDependencies(join, deps, nullptr, &nd2));
  printf("kadd deps=%zu evw dependents=%zu join deps are ka,kc: %d\n", nd, ndn,
         nd2 == 2 && ((deps[0] == ka && deps[1] == kc) || (deps[0] == kc && deps[1] == ka)));
  cudaGraph_t cgot;
  CK(cudaGraphChildGraphNodeGetGraph(kc, &cgot));
  size_t cn = 0;
  CK(cudaGraphGetNodes(cgot, nullptr, &cn));
  printf("child graph nodes=%zu\n", cn);
  cudaKernelNodeParams got{};
  CK(cudaGraphKernelNodeGetParams(ka, &got));
  printf("ka params: grid=%u block=%u shmem=%u func ok=%d a=%d b=%d\n", got.gridDim.x, got.blockDim.x,
         got.sharedMemBytes, got.func == (void *)axpb, *(int *)got.kernelParams[2], *(int *)got.kernelParams[3]);
  cudaMemsetParams mgot{};
  CK(cudaGraphMemsetNodeGetParams(ms2, &mgot));
  printf("ms2 params: value=%#x elem=%u width=%zu height=%zu pitch ok=%d\n", mgot.value, mgot.elementSize,
         mgot.width, mgot.height, mgot.pitch == pitch);
  cudaHostNodeParams hgot{};
  CK(cudaGraphHostNodeGetParams(hst, &hgot));
  printf("host params ok=%d\n", hgot.fn == host_fn && hgot.userData == &log);

  cudaGraphExec_t ge;
  CK(cudaGraphInstantiateWithFlags(&ge, g, 0));
  unsigned long long fl = 99;
  CK(cudaGraphExecGetFlags(ge, &fl));
  printf("exec flags=%llu\n", fl);
  CK(cudaGraphUpload(ge, s));
  for (int r = 0; r < 2; ++r) {
    memset(out, 0, sizeof out);
    memset(outb, 0, sizeof outb);
    CK(cudaGraphLaunch(ge, s));
    CK(cudaStreamSynchronize(s));
    printf("launch %d: out[0]=%d out[16]=%d sum=%ld outb[0]=%d outb[16]=%d sumb=%ld host=%d\n", r, out[0], out[16],
           sum(out, n), outb[0], outb[16], sum(outb, n), log.calls);
  }
  printf("pitched: pout[0]=%#x pout[511]=%#x sum=%ld\n", pout[0], pout[511], sum(pout, 512));
  printf("event after graph: %s\n", cudaGetErrorName(cudaEventQuery(ev)));

  // Parameter changes in the exec graph: ka becomes a*1+7, memset b value 0, host fn2.
  int c7 = 7, c1b = 1;
  void *aargs2[] = {&a, &nn, &c1b, &c7};
  kp.kernelParams = aargs2;
  CK(cudaGraphExecKernelNodeSetParams(ge, ka, &kp));
  mp.value = 0;
  CK(cudaGraphExecMemsetNodeSetParams(ge, msb, &mp));
  hp.fn = host_fn2;
  CK(cudaGraphExecHostNodeSetParams(ge, hst, &hp));
  CK(cudaGraphLaunch(ge, s));
  CK(cudaStreamSynchronize(s));
  printf("exec params changed: out[0]=%d out[16]=%d sum=%ld outb[0]=%d sumb=%ld host=%d\n", out[0], out[16],
         sum(out, n), outb[0], sum(outb, n), log.calls);
  // The graph itself still has the old parameters: a clone instantiates to the first result.
  cudaGraph_t cl;
  CK(cudaGraphClone(&cl, g));
  cudaGraphNode_t cka;
  CK(cudaGraphNodeFindInClone(&cka, ka, cl));
  printf("clone: found ka=%d type=%d\n", cka != nullptr, typeOf(cka));
  // Set the graph's own kernel params (a*0+9) on the clone only.
  int c0 = 0, c9 = 9;
  void *aargs3[] = {&a, &nn, &c0, &c9};
  kp.kernelParams = aargs3;
  CK(cudaGraphKernelNodeSetParams(cka, &kp));
  cudaGraphExec_t cle;
  CK(cudaGraphInstantiate(&cle, cl, 0));
  CK(cudaGraphLaunch(cle, s));
  CK(cudaStreamSynchronize(s));
  printf("clone launch: out[0]=%d out[16]=%d sum=%ld outb[0]=%d sumb=%ld host=%d\n", out[0], out[16], sum(out, n),
         outb[0], sum(outb, n), log.calls);
  CK(cudaGraphLaunch(ge, s));
  CK(cudaStreamSynchronize(s));
  printf("original exec again: out[0]=%d sum=%ld host=%d\n", out[0], sum(out, n), log.calls);

  // Structure edits on the graph: remove edge ka->join, destroy the unused empty node, add an edge twice.
  CK(cudaGraphRemoveDependencies(g, &ka, &join, nullptr, 1));
  CK(cudaGraphDestroyNode(emp2));
  CK(cudaGraphGetNodes(g, nullptr, &nodes));
  CK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges));
  printf("after edits: nodes=%zu edges=%zu\n", nodes, edges);
  printf("add existing edge: %s\n", cudaGetErrorName(cudaGraphAddDependencies(g, &cin, &ka, nullptr, 1)));
  cudaGetLastError();
  printf("remove missing edge: %s\n", cudaGetErrorName(cudaGraphRemoveDependencies(g, &cin, &evw, nullptr, 1)));
  cudaGetLastError();
  printf("add self edge: %s\n", cudaGetErrorName(cudaGraphAddDependencies(g, &ka, &ka, nullptr, 1)));
  cudaGetLastError();
  // Cycle: cout -> cin.
  CK(cudaGraphAddDependencies(g, &cout, &cin, nullptr, 1));
  cudaGraphExec_t cyc = nullptr;
  printf("instantiate a cycle: %s\n", cudaGetErrorName(cudaGraphInstantiate(&cyc, g, 0)));
  cudaGetLastError();
  printf("memset node elem 3: %s\n", [&] {
    cudaMemsetParams bad = mp;
    bad.elementSize = 3;
    cudaGraphNode_t x;
    return cudaGetErrorName(cudaGraphAddMemsetNode(&x, cl, nullptr, 0, &bad));
  }());
  cudaGetLastError();
  printf("kernel node null func: %s\n", [&] {
    cudaKernelNodeParams bad = kp;
    bad.func = nullptr;
    cudaGraphNode_t x;
    return cudaGetErrorName(cudaGraphAddKernelNode(&x, cl, nullptr, 0, &bad));
  }());
  cudaGetLastError();

  CK(cudaGraphExecDestroy(ge));
  CK(cudaGraphExecDestroy(cle));
  CK(cudaGraphDestroy(cl));
  CK(cudaGraphDestroy(g));
  CK(cudaGraphDestroy(child));
  printf("done\n");
  return 0;
}

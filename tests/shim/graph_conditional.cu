// Conditional graph nodes (CUDA 12.4+ IF / WHILE, 12.8+ IF-ELSE and SWITCH): a kernel sets the
// condition with the device-side cudaGraphSetConditional(handle, value); the graph executor runs
// the chosen body graph(s). Not a corpus program (tests/shim). Self-checking: each case prints its
// observed values and PASS/FAIL; `info` lines print error codes of invalid uses (the H200's golden
// fixes them). Cases:
//   if        upstream kernel copies a flag from memory into the condition; body adds 1 (3 launches)
//   ifelse    size-2 IF: body[0] a kernel adding 10, body[1] a memset node writing 0x01010101
//   while     default 1 with cudaGraphCondAssignDefault: the body kernel counts and sets counter < 5
//   while0    default 0: the body never runs
//   switch    size 3, bodies add 1 / 2 / 4 to a mask; the value comes from memory (0, 2, 1, 7)
//   nested    WHILE (3 rounds) whose body holds a kernel and an IF on the round's parity
//   capture   an IF body recorded by cudaStreamBeginCaptureToGraph
// then invalid uses, each on graphs of its own (so one refused call cannot change the next).
#include <cstdio>
#include <cstring>

#define CHECK(x)                                                                       \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                           \
      printf("%s:%d: %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_));      \
      return 1;                                                                        \
    }                                                                                  \
  } while (0)

__global__ void setFromMem(cudaGraphConditionalHandle h, const unsigned* v) { cudaGraphSetConditional(h, *v); }
__global__ void addTo(int* p, int v) { atomicAdd(p, v); }
__global__ void countTo(cudaGraphConditionalHandle h, int* c, int limit) {
  int n = ++*c;
  cudaGraphSetConditional(h, n < limit ? 1u : 0u);
}
__global__ void roundBody(cudaGraphConditionalHandle loop, cudaGraphConditionalHandle odd, int* round, int rounds) {
  int r = ++*round;
  cudaGraphSetConditional(odd, r & 1);
  cudaGraphSetConditional(loop, r < rounds ? 1u : 0u);
}
__global__ void setConst(cudaGraphConditionalHandle h, unsigned v) { cudaGraphSetConditional(h, v); }

static int bad = 0;
static void verdict(const char* name, bool ok, const char* fmt, long a, long b = 0, long c = 0) {
  printf("%s: ", name);
  printf(fmt, a, b, c);
  printf(" %s\n", ok ? "PASS" : "FAIL");
  bad += !ok;
}

static cudaGraphNode_t addKernel(cudaGraph_t g, const cudaGraphNode_t* deps, size_t nd, void* fn, void** args) {
  cudaKernelNodeParams kp{};
  kp.func = fn;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;
  cudaGraphNode_t n = nullptr;
  cudaError_t e = cudaGraphAddKernelNode(&n, g, deps, nd, &kp);
  if (e != cudaSuccess) printf("cudaGraphAddKernelNode -> %s\n", cudaGetErrorName(e));
  return n;
}
// A conditional node; returns its body graphs in bodies[].
static cudaError_t addCond(cudaGraph_t g, const cudaGraphNode_t* deps, size_t nd, cudaGraphConditionalHandle h,
                           cudaGraphConditionalNodeType type, unsigned size, cudaGraph_t* bodies, cudaGraphNode_t* node) {
  cudaGraphNodeParams p{};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = type;
  p.conditional.size = size;
  cudaError_t e = cudaGraphAddNode(node, g, deps, nullptr, nd, &p);
  if (e == cudaSuccess)
    for (unsigned i = 0; i < size; ++i) bodies[i] = p.conditional.phGraph_out[i];
  return e;
}

int main() {
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int* counters;  // [0] if, [1] ifelse, [2] while, [3] while0, [4] switch, [5] nested rounds, [6] nested odd, [7] capture
  unsigned* flag;
  CHECK(cudaMalloc(&counters, 16 * sizeof(int)));
  CHECK(cudaMalloc(&flag, sizeof(unsigned)));
  CHECK(cudaMemset(counters, 0, 16 * sizeof(int)));
  int h[16];
  auto readBack = [&]() { cudaMemcpy(h, counters, sizeof h, cudaMemcpyDeviceToHost); };
  auto setFlag = [&](unsigned v) { cudaMemcpy(flag, &v, sizeof v, cudaMemcpyHostToDevice); };

  {  // if
    cudaGraph_t g; CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle c; CHECK(cudaGraphConditionalHandleCreate(&c, g, 0, 0));
    void* a0[] = {&c, &flag};
    cudaGraphNode_t k = addKernel(g, nullptr, 0, (void*)setFromMem, a0);
    cudaGraph_t body[1]; cudaGraphNode_t cn;
    CHECK(addCond(g, &k, 1, c, cudaGraphCondTypeIf, 1, body, &cn));
    int* p = counters + 0; int one = 1; void* a1[] = {&p, &one};
    addKernel(body[0], nullptr, 0, (void*)addTo, a1);
    cudaGraphExec_t x; CHECK(cudaGraphInstantiate(&x, g, 0));
    for (unsigned f : {1u, 0u, 7u}) { setFlag(f); CHECK(cudaGraphLaunch(x, s)); CHECK(cudaStreamSynchronize(s)); }
    readBack();
    verdict("if", h[0] == 2, "body ran %ld times for flags 1,0,7 (want 2)", h[0]);
    cudaGraphExecDestroy(x); cudaGraphDestroy(g);
  }
  {  // if / else
    cudaGraph_t g; CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle c; CHECK(cudaGraphConditionalHandleCreate(&c, g, 0, 0));
    void* a0[] = {&c, &flag};
    cudaGraphNode_t k = addKernel(g, nullptr, 0, (void*)setFromMem, a0);
    cudaGraph_t body[2]; cudaGraphNode_t cn;
    cudaError_t e = addCond(g, &k, 1, c, cudaGraphCondTypeIf, 2, body, &cn);
    if (e == cudaSuccess) {
      int* p = counters + 1; int ten = 10; void* a1[] = {&p, &ten};
      addKernel(body[0], nullptr, 0, (void*)addTo, a1);
      cudaMemsetParams mp{};
      mp.dst = counters + 9; mp.value = 1; mp.elementSize = 1; mp.width = 4; mp.height = 1;
      cudaGraphNode_t ms; CHECK(cudaGraphAddMemsetNode(&ms, body[1], nullptr, 0, &mp));
      cudaGraphExec_t x; CHECK(cudaGraphInstantiate(&x, g, 0));
      setFlag(1); CHECK(cudaGraphLaunch(x, s)); CHECK(cudaStreamSynchronize(s));
      readBack();
      int afterThen = h[1], memsetThen = h[9];
      setFlag(0); CHECK(cudaGraphLaunch(x, s)); CHECK(cudaStreamSynchronize(s));
      readBack();
      verdict("ifelse", afterThen == 10 && memsetThen == 0 && h[1] == 10 && h[9] == 0x01010101,
              "then %ld, else memset %#lx, then-count after else %ld", afterThen, h[9], h[1]);
      cudaGraphExecDestroy(x);
    } else {
      verdict("ifelse", false, "size-2 IF refused: %ld", e);
    }
    cudaGraphDestroy(g);
  }
  {  // while, default 1
    cudaGraph_t g; CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle c; CHECK(cudaGraphConditionalHandleCreate(&c, g, 1, cudaGraphCondAssignDefault));
    cudaGraph_t body[1]; cudaGraphNode_t cn;
    CHECK(addCond(g, nullptr, 0, c, cudaGraphCondTypeWhile, 1, body, &cn));
    int* p = counters + 2; int lim = 5; void* a1[] = {&c, &p, &lim};
    addKernel(body[0], nullptr, 0, (void*)countTo, a1);
    cudaGraphExec_t x; CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, s)); CHECK(cudaStreamSynchronize(s));
    readBack(); int first = h[2];
    CHECK(cudaGraphLaunch(x, s)); CHECK(cudaStreamSynchronize(s));
    readBack();
    verdict("while", first == 5 && h[2] == 6, "counter %ld after one launch, %ld after two (want 5, 6)", first, h[2]);
    cudaGraphExecDestroy(x); cudaGraphDestroy(g);
  }
  {  // while, default 0
    cudaGraph_t g; CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle c; CHECK(cudaGraphConditionalHandleCreate(&c, g, 0, cudaGraphCondAssignDefault));
    cudaGraph_t body[1]; cudaGraphNode_t cn;
    CHECK(addCond(g, nullptr, 0, c, cudaGraphCondTypeWhile, 1, body, &cn));
    int* p = counters + 3; int lim = 5; void* a1[] = {&c, &p, &lim};
    addKernel(body[0], nullptr, 0, (void*)countTo, a1);
    cudaGraphExec_t x; CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, s)); CHECK(cudaStreamSynchronize(s));
    readBack();
    verdict("while0", h[3] == 0, "body ran %ld times (want 0)", h[3]);
    cudaGraphExecDestroy(x); cudaGraphDestroy(g);
  }
  {  // switch
    cudaGraph_t g; CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle c; CHECK(cudaGraphConditionalHandleCreate(&c, g, 0, 0));
    void* a0[] = {&c, &flag};
    cudaGraphNode_t k = addKernel(g, nullptr, 0, (void*)setFromMem, a0);
    cudaGraph_t body[3]; cudaGraphNode_t cn;
    cudaError_t e = addCond(g, &k, 1, c, cudaGraphCondTypeSwitch, 3, body, &cn);
    if (e == cudaSuccess) {
      int* p = counters + 4; int bit[3] = {1, 2, 4};
      void* a1[3][2] = {{&p, &bit[0]}, {&p, &bit[1]}, {&p, &bit[2]}};
      for (int i = 0; i < 3; ++i) addKernel(body[i], nullptr, 0, (void*)addTo, a1[i]);
      cudaGraphExec_t x; CHECK(cudaGraphInstantiate(&x, g, 0));
      int seen[4];
      int i = 0;
      for (unsigned f : {0u, 2u, 1u, 7u}) {
        setFlag(f); CHECK(cudaGraphLaunch(x, s)); CHECK(cudaStreamSynchronize(s));
        readBack(); seen[i++] = h[4];
      }
      verdict("switch", seen[0] == 1 && seen[1] == 5 && seen[2] == 7 && seen[3] == 7,
              "mask after values 0,2,1: %ld %ld %ld (want 1 5 7; value 7 runs nothing)", seen[0], seen[1], seen[2]);
      cudaGraphExecDestroy(x);
    } else {
      verdict("switch", false, "SWITCH refused: %ld", e);
    }
    cudaGraphDestroy(g);
  }
  {  // nested: WHILE { roundBody -> IF(odd) { add 1 } }
    cudaGraph_t g; CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle loop, odd;
    CHECK(cudaGraphConditionalHandleCreate(&loop, g, 1, cudaGraphCondAssignDefault));
    CHECK(cudaGraphConditionalHandleCreate(&odd, g, 0, 0));
    cudaGraph_t wb[1]; cudaGraphNode_t wn;
    CHECK(addCond(g, nullptr, 0, loop, cudaGraphCondTypeWhile, 1, wb, &wn));
    int* r = counters + 5; int rounds = 3; void* a0[] = {&loop, &odd, &r, &rounds};
    cudaGraphNode_t k = addKernel(wb[0], nullptr, 0, (void*)roundBody, a0);
    cudaGraph_t ib[1]; cudaGraphNode_t in;
    CHECK(addCond(wb[0], &k, 1, odd, cudaGraphCondTypeIf, 1, ib, &in));
    int* p = counters + 6; int one = 1; void* a1[] = {&p, &one};
    addKernel(ib[0], nullptr, 0, (void*)addTo, a1);
    cudaGraphExec_t x; CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, s)); CHECK(cudaStreamSynchronize(s));
    readBack();
    verdict("nested", h[5] == 3 && h[6] == 2, "rounds %ld, odd rounds %ld (want 3, 2)", h[5], h[6]);
    cudaGraphExecDestroy(x); cudaGraphDestroy(g);
  }
  {  // a body recorded by stream capture
    cudaGraph_t g; CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle c; CHECK(cudaGraphConditionalHandleCreate(&c, g, 1, cudaGraphCondAssignDefault));
    cudaGraph_t body[1]; cudaGraphNode_t cn;
    CHECK(addCond(g, nullptr, 0, c, cudaGraphCondTypeIf, 1, body, &cn));
    cudaStream_t cs; CHECK(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking));
    cudaError_t e = cudaStreamBeginCaptureToGraph(cs, body[0], nullptr, nullptr, 0, cudaStreamCaptureModeGlobal);
    if (e == cudaSuccess) {
      addTo<<<1, 1, 0, cs>>>(counters + 7, 3);
      addTo<<<1, 1, 0, cs>>>(counters + 7, 4);
      cudaGraph_t out = nullptr;
      CHECK(cudaStreamEndCapture(cs, &out));
      cudaGraphExec_t x; CHECK(cudaGraphInstantiate(&x, g, 0));
      CHECK(cudaGraphLaunch(x, s)); CHECK(cudaStreamSynchronize(s));
      readBack();
      verdict("capture", h[7] == 7 && out == body[0], "captured body added %ld (want 7), same graph %ld", h[7], out == body[0]);
      cudaGraphExecDestroy(x);
    } else {
      verdict("capture", false, "cudaStreamBeginCaptureToGraph refused: %ld", e);
    }
    cudaStreamDestroy(cs);
    cudaGraphDestroy(g);
  }
  {  // invalid uses (error codes recorded on the H200): each on fresh graphs, every result printed
    auto name = [](cudaError_t e) { cudaGetLastError(); return cudaGetErrorName(e); };
    cudaGraph_t b[4]; cudaGraphNode_t n; cudaGraphConditionalHandle c, c2;
    {
      cudaGraph_t g; CHECK(cudaGraphCreate(&g, 0));
      printf("info handle null out: %s\n", name(cudaGraphConditionalHandleCreate(nullptr, g, 0, 0)));
      printf("info handle bad flags: %s\n", name(cudaGraphConditionalHandleCreate(&c, g, 0, 2)));
      printf("info handle null graph: %s\n", name(cudaGraphConditionalHandleCreate(&c, nullptr, 0, 0)));
      cudaGraphDestroy(g);
    }
    struct { const char* what; cudaGraphConditionalNodeType type; unsigned size; } bad_shapes[] = {
        {"while size 2", cudaGraphCondTypeWhile, 2}, {"if size 0", cudaGraphCondTypeIf, 0},
        {"if size 3", cudaGraphCondTypeIf, 3},       {"switch size 0", cudaGraphCondTypeSwitch, 0},
        {"bad type", (cudaGraphConditionalNodeType)9, 1}};
    for (auto& t : bad_shapes) {
      cudaGraph_t g; CHECK(cudaGraphCreate(&g, 0));
      CHECK(cudaGraphConditionalHandleCreate(&c, g, 0, 0));
      printf("info %s: %s\n", t.what, name(addCond(g, nullptr, 0, c, t.type, t.size, b, &n)));
      cudaGraphDestroy(g);
    }
    {
      cudaGraph_t g; CHECK(cudaGraphCreate(&g, 0));
      printf("info add node null params: %s\n", name(cudaGraphAddNode(&n, g, nullptr, nullptr, 0, nullptr)));
      cudaGraphDestroy(g);
    }
    {  // a handle created on another graph (g has none of its own)
      cudaGraph_t g, g2; CHECK(cudaGraphCreate(&g, 0)); CHECK(cudaGraphCreate(&g2, 0));
      CHECK(cudaGraphConditionalHandleCreate(&c2, g2, 0, 0));
      cudaError_t e = addCond(g, nullptr, 0, c2, cudaGraphCondTypeIf, 1, b, &n);
      printf("info handle of another graph: %s\n", name(e));
      if (e == cudaSuccess) {
        cudaGraphExec_t x;
        e = cudaGraphInstantiate(&x, g, 0);
        printf("info instantiate with another graph's handle: %s\n", name(e));
        if (e == cudaSuccess) cudaGraphExecDestroy(x);
      }
      cudaGraphDestroy(g); cudaGraphDestroy(g2);
    }
    {  // one handle, two conditional nodes
      cudaGraph_t g; CHECK(cudaGraphCreate(&g, 0));
      CHECK(cudaGraphConditionalHandleCreate(&c, g, 0, 0));
      printf("info first node of a handle: %s\n", name(addCond(g, nullptr, 0, c, cudaGraphCondTypeIf, 1, b, &n)));
      printf("info second node of a handle: %s\n", name(addCond(g, nullptr, 0, c, cudaGraphCondTypeIf, 1, b, &n)));
      cudaGraphDestroy(g);
    }
    {  // a handle no node uses
      cudaGraph_t g; CHECK(cudaGraphCreate(&g, 0));
      CHECK(cudaGraphConditionalHandleCreate(&c, g, 0, 0));
      CHECK(cudaGraphAddEmptyNode(&n, g, nullptr, 0));
      cudaGraphExec_t x;
      cudaError_t e = cudaGraphInstantiate(&x, g, 0);
      printf("info instantiate with an unused handle: %s\n", name(e));
      if (e == cudaSuccess) cudaGraphExecDestroy(x);
      cudaGraphDestroy(g);
    }
    {  // a fresh node: its type, its empty body, instantiation with the body empty
      cudaGraph_t g; CHECK(cudaGraphCreate(&g, 0));
      CHECK(cudaGraphConditionalHandleCreate(&c, g, 0, 0));
      cudaError_t e = addCond(g, nullptr, 0, c, cudaGraphCondTypeIf, 1, b, &n);
      printf("info fresh node: %s\n", name(e));
      if (e == cudaSuccess) {
        cudaGraphNodeType t = cudaGraphNodeTypeKernel;
        cudaGraphNodeGetType(n, &t);
        printf("info node type: %d\n", (int)t);
        size_t nn = 7;
        cudaGraphGetNodes(b[0], nullptr, &nn);
        printf("info fresh body nodes: %zu\n", nn);
        cudaGraphExec_t x;
        e = cudaGraphInstantiate(&x, g, 0);
        printf("info instantiate with empty body: %s\n", name(e));
        if (e == cudaSuccess) {
          printf("info launch with empty body: %s\n", name(cudaGraphLaunch(x, s)));
          printf("info sync after empty body: %s\n", name(cudaStreamSynchronize(s)));
          cudaGraphExecDestroy(x);
        }
      }
      cudaGraphDestroy(g);
    }
  }
  printf("graph_conditional: %d wrong %s\n", bad, bad ? "FAIL" : "PASS");
  return bad != 0;
}

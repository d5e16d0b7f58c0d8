// graph_errors.cu: what CUDA returns for calls that stream capture forbids or that misuse it, one
// line per case (the call's error name, the capture status seen afterwards, and what
// cudaStreamEndCapture then returns). Cases: ending a capture never begun, capturing the legacy
// stream, beginning twice, cudaStreamSynchronize / cudaStreamQuery / cudaDeviceSynchronize /
// cudaMalloc / synchronous cudaMemcpy / cudaEventQuery / cudaEventSynchronize during a capture, the
// three capture modes seen from another thread, an unjoined fork, ending from another thread,
// cudaStreamGetCaptureInfo, waiting on an event recorded outside the capture, cudaGraphLaunch into a
// capture, and cudaGraphExecUpdate refusing a changed topology. Its stdout on the H200 is the golden.
#include <cstdio>
#include <thread>
#include <cuda_runtime.h>

__global__ void inc(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += 1;
}

static const char *st_name(cudaStreamCaptureStatus s) {
  switch (s) {
  case cudaStreamCaptureStatusNone: return "none";
  case cudaStreamCaptureStatusActive: return "active";
  case cudaStreamCaptureStatusInvalidated: return "invalidated";
  }
  return "?";
}

static cudaStream_t s, s2;
static int *d;
static const int n = 256;

static const char *status(cudaStream_t st) {
  cudaStreamCaptureStatus c = cudaStreamCaptureStatusNone;
  cudaError_t e = cudaStreamIsCapturing(st, &c);
  if (e != cudaSuccess) return cudaGetErrorName(e);
  return st_name(c);
}

// Ends the capture on st; prints its result and whether a graph came back.
static void finish(const char *what, cudaStream_t st) {
  cudaGraph_t g = nullptr;
  cudaError_t e = cudaStreamEndCapture(st, &g);
  printf("%s: end=%s graph=%s after=%s last=%s\n", what, cudaGetErrorName(e), g ? "yes" : "null", status(st),
         cudaGetErrorName(cudaGetLastError()));
  if (g) cudaGraphDestroy(g);
}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); return 1; } } while (0)

int main() {
  CK(cudaMalloc(&d, n * sizeof(int)));
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t ev, outside;
  CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
  CK(cudaEventCreateWithFlags(&outside, cudaEventDisableTiming));
  cudaGraph_t g = nullptr;

  printf("end without begin: %s\n", cudaGetErrorName(cudaStreamEndCapture(s, &g)));
  cudaGetLastError();
  printf("begin on legacy stream: %s\n", cudaGetErrorName(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal)));
  cudaGetLastError();
  printf("begin bad mode: %s\n", cudaGetErrorName(cudaStreamBeginCapture(s, (cudaStreamCaptureMode)7)));
  cudaGetLastError();
  printf("is capturing legacy: %s\n", status(0));

  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  printf("begin twice: %s status=%s\n", cudaGetErrorName(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal)),
         status(s));
  finish("begin twice", s);

  // Capture info.
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus cs;
  unsigned long long id1 = 0, id2 = 0;
  const cudaGraphNode_t *deps = nullptr;
  size_t ndeps = 99;
  cudaGraph_t cg = nullptr;
  CK(cudaStreamGetCaptureInfo(s, &cs, &id1, &cg, &deps, nullptr, &ndeps));
  printf("info at begin: status=%s id=%s graph=%s deps=%zu\n", st_name(cs), id1 ? "nonzero" : "zero",
         cg ? "yes" : "null", ndeps);
  inc<<<1, n, 0, s>>>(d, n);
  CK(cudaMemsetAsync(d, 0, 16, s));
  CK(cudaStreamGetCaptureInfo(s, &cs, &id2, &cg, &deps, nullptr, &ndeps));
  size_t gn = 0;
  cudaGraphGetNodes(cg, nullptr, &gn);
  cudaGraphNodeType t0 = cudaGraphNodeTypeCount;
  if (ndeps == 1) cudaGraphNodeGetType(deps[0], &t0);
  printf("info after 2 ops: status=%s same id=%d deps=%zu dep type=%d graph nodes=%zu\n", st_name(cs), id1 == id2,
         ndeps, (int)t0, gn);
  CK(cudaStreamGetCaptureInfo(s2, &cs, &id2));
  printf("info other stream: status=%s\n", st_name(cs));
  finish("info", s);

  // Calls that synchronize or query a capturing stream.
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  inc<<<1, n, 0, s>>>(d, n);
  printf("stream sync during capture: %s status=%s\n", cudaGetErrorName(cudaStreamSynchronize(s)), status(s));
  inc<<<1, n, 0, s>>>(d, n);
  printf("launch after invalidation: %s\n", cudaGetErrorName(cudaGetLastError()));
  finish("stream sync", s);

  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  inc<<<1, n, 0, s>>>(d, n);
  printf("stream query during capture: %s status=%s\n", cudaGetErrorName(cudaStreamQuery(s)), status(s));
  finish("stream query", s);

  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  printf("device sync during capture: %s status=%s\n", cudaGetErrorName(cudaDeviceSynchronize()), status(s));
  finish("device sync", s);

  // Potentially unsafe calls in the three modes, from this thread.
  const cudaStreamCaptureMode modes[] = {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal,
                                          cudaStreamCaptureModeRelaxed};
  const char *mname[] = {"global", "threadlocal", "relaxed"};
  for (int m = 0; m < 3; ++m) {
    CK(cudaStreamBeginCapture(s, modes[m]));
    void *p = nullptr;
    cudaError_t e = cudaMalloc(&p, 64);
    printf("%s: cudaMalloc during capture: %s status=%s\n", mname[m], cudaGetErrorName(e), status(s));
    if (p) cudaFree(p);
    cudaGetLastError();
    finish(mname[m], s);
  }
  // ... and from another thread (whose own interaction mode is the default, global).
  for (int m = 0; m < 3; ++m) {
    CK(cudaStreamBeginCapture(s, modes[m]));
    cudaError_t e = cudaSuccess, e2 = cudaSuccess;
    std::thread th([&] {
      void *p = nullptr;
      e = cudaMalloc(&p, 64);
      if (p) cudaFree(p);
      cudaGetLastError();
      cudaStreamCaptureMode mine = cudaStreamCaptureModeRelaxed;
      cudaThreadExchangeStreamCaptureMode(&mine);
      p = nullptr;
      e2 = cudaMalloc(&p, 64);
      if (p) cudaFree(p);
      cudaThreadExchangeStreamCaptureMode(&mine);
    });
    th.join();
    printf("%s: cudaMalloc from another thread: %s, relaxed there: %s, status=%s\n", mname[m], cudaGetErrorName(e),
           cudaGetErrorName(e2), status(s));
    finish(mname[m], s);
  }
  {
    cudaStreamCaptureMode mine = cudaStreamCaptureModeRelaxed;
    CK(cudaThreadExchangeStreamCaptureMode(&mine));
    printf("exchange returned previous mode: %d\n", (int)mine);
    CK(cudaThreadExchangeStreamCaptureMode(&mine));
  }

  // A synchronous copy (legacy stream) while a blocking stream captures.
  cudaStream_t sb;
  CK(cudaStreamCreate(&sb));
  static int h[n];
  CK(cudaStreamBeginCapture(sb, cudaStreamCaptureModeRelaxed));
  inc<<<1, n, 0, sb>>>(d, n);
  printf("sync memcpy during blocking-stream capture: %s status=%s\n",
         cudaGetErrorName(cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost)), status(sb));
  cudaGetLastError();
  finish("sync memcpy", sb);
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
  inc<<<1, n, 0, s>>>(d, n);
  printf("sync memcpy during non-blocking capture: %s status=%s\n",
         cudaGetErrorName(cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost)), status(s));
  finish("sync memcpy nonblocking", s);
  CK(cudaStreamBeginCapture(sb, cudaStreamCaptureModeRelaxed));
  inc<<<1, n, 0, 0>>>(d, n);
  printf("legacy launch during blocking-stream capture: %s status=%s\n", cudaGetErrorName(cudaGetLastError()),
         status(sb));
  finish("legacy launch", sb);

  // Events recorded in a capture.
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  inc<<<1, n, 0, s>>>(d, n);
  CK(cudaEventRecord(ev, s));
  printf("event query of captured event: %s status=%s\n", cudaGetErrorName(cudaEventQuery(ev)), status(s));
  cudaGetLastError();
  finish("event query", s);
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CK(cudaEventRecord(ev, s));
  printf("event sync of captured event: %s status=%s\n", cudaGetErrorName(cudaEventSynchronize(ev)), status(s));
  cudaGetLastError();
  finish("event sync", s);
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CK(cudaEventRecord(ev, s));
  finish("after record", s);
  printf("event query after capture ended: %s\n", cudaGetErrorName(cudaEventQuery(ev)));
  cudaGetLastError();
  CK(cudaEventRecord(outside, s2));
  CK(cudaStreamSynchronize(s2));
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  printf("wait on event recorded outside: %s status=%s\n", cudaGetErrorName(cudaStreamWaitEvent(s, outside, 0)),
         status(s));
  cudaGetLastError();
  finish("outside event", s);

  // Fork without join.
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  inc<<<1, n, 0, s>>>(d, n);
  CK(cudaEventRecord(ev, s));
  CK(cudaStreamWaitEvent(s2, ev, 0));
  printf("forked stream status: %s\n", status(s2));
  inc<<<1, n, 0, s2>>>(d, n);
  printf("end on the forked stream: %s\n", cudaGetErrorName(cudaStreamEndCapture(s2, &g)));
  cudaGetLastError();
  finish("unjoined", s);
  printf("forked stream after: %s\n", status(s2));

  // Ending from another thread.
  for (int m = 0; m < 2; ++m) {
    CK(cudaStreamBeginCapture(s, modes[m]));
    inc<<<1, n, 0, s>>>(d, n);
    cudaError_t e = cudaSuccess;
    cudaGraph_t tg = nullptr;
    std::thread th([&] { e = cudaStreamEndCapture(s, &tg); });
    th.join();
    printf("%s: end from another thread: %s graph=%s status=%s\n", mname[m], cudaGetErrorName(e),
           tg ? "yes" : "null", status(s));
    cudaGetLastError();
    if (tg) cudaGraphDestroy(tg);
    else finish(mname[m], s);
  }

  // A graph launched into a capture becomes a child graph node.
  cudaGraph_t small;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  inc<<<1, n, 0, s>>>(d, n);
  inc<<<1, n, 0, s>>>(d, n);
  CK(cudaStreamEndCapture(s, &small));
  cudaGraphExec_t se;
  CK(cudaGraphInstantiate(&se, small, 0));
  CK(cudaMemset(d, 0, n * sizeof(int)));
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  printf("graph launch into capture: %s\n", cudaGetErrorName(cudaGraphLaunch(se, s)));
  inc<<<1, n, 0, s>>>(d, n);
  cudaGraph_t outer;
  CK(cudaStreamEndCapture(s, &outer));
  size_t on = 0;
  CK(cudaGraphGetNodes(outer, nullptr, &on));
  cudaGraphNode_t onodes[4];
  size_t on2 = 4;
  CK(cudaGraphGetNodes(outer, onodes, &on2));
  printf("outer nodes: %zu types:", on);
  for (size_t i = 0; i < on2; ++i) {
    cudaGraphNodeType t;
    CK(cudaGraphNodeGetType(onodes[i], &t));
    printf(" %d", (int)t);
  }
  printf("\n");
  cudaGraphExec_t oe;
  CK(cudaGraphInstantiate(&oe, outer, 0));
  CK(cudaGraphLaunch(oe, s));
  CK(cudaGraphLaunch(oe, s));
  CK(cudaStreamSynchronize(s));
  CK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));
  printf("after two outer launches: h[0]=%d h[255]=%d\n", h[0], h[n - 1]);

  // cudaGraphExecUpdate with a different topology / node type.
  cudaGraph_t three;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  inc<<<1, n, 0, s>>>(d, n);
  inc<<<1, n, 0, s>>>(d, n);
  inc<<<1, n, 0, s>>>(d, n);
  CK(cudaStreamEndCapture(s, &three));
  cudaGraphExecUpdateResultInfo info{};
  cudaError_t ue = cudaGraphExecUpdate(se, three, &info);
  printf("update with 3 nodes: %s result=%d\n", cudaGetErrorName(ue), (int)info.result);
  cudaGetLastError();
  cudaGraph_t mixed;
  CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  inc<<<1, n, 0, s>>>(d, n);
  CK(cudaMemsetAsync(d, 0, 16, s));
  CK(cudaStreamEndCapture(s, &mixed));
  info = {};
  ue = cudaGraphExecUpdate(se, mixed, &info);
  printf("update with a memset node: %s result=%d\n", cudaGetErrorName(ue), (int)info.result);
  cudaGetLastError();
  printf("launch on legacy stream: %s\n", cudaGetErrorName(cudaGraphLaunch(se, 0)));
  CK(cudaDeviceSynchronize());
  printf("launch null exec: %s\n", cudaGetErrorName(cudaGraphLaunch(nullptr, s)));
  cudaGetLastError();
  printf("instantiate null graph: %s\n", cudaGetErrorName(cudaGraphInstantiate(&se, nullptr, 0)));
  cudaGetLastError();
  CK(cudaGraphExecDestroy(oe));
  CK(cudaGraphDestroy(outer));
  CK(cudaGraphDestroy(three));
  CK(cudaGraphDestroy(mixed));
  CK(cudaGraphDestroy(small));
  printf("last error at end: %s\n", cudaGetErrorName(cudaGetLastError()));
  printf("done\n");
  return 0;
}

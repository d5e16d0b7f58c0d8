//===- Graphs.cpp - CUDA graphs and stream capture (runtime API) -------------===//
//
// Thin entry points over the core's graphs (runtime/Graph.h): handles are the
// core's objects (cudaGraph_t = runtime::Graph *, cudaGraphNode_t =
// runtime::GraphNode *, cudaGraphExec_t = runtime::GraphExec *), checked
// against the graph registry before use (a dead or foreign handle is
// cudaErrorInvalidValue, as CUDA answers for null ones). Here: converting
// cudaKernelNodeParams / cudaMemcpy3DParms / cudaMemsetParams /
// cudaHostNodeParams / cudaMemAllocNodeParams to the core's node parameters
// and back, the capture calls on the shim's stream handles (also into a
// given graph: cudaStreamBeginCaptureToGraph), conditional nodes
// (cudaGraphConditionalHandleCreate, cudaGraphAddNode), and
// stream-ordered allocation (cudaMallocAsync / cudaFreeAsync: graph
// allocation and free nodes while the stream captures).
//
//===----------------------------------------------------------------------===//
#include "Shim.h"

#include "runtime/Context.h"
#include "runtime/ApiEnum.h"
#include "runtime/Graph.h"
#include "runtime/Module.h"

#include <cstdio>
#include <cstring>
#include <vector>

using namespace cudartshim;

namespace {

runtime::GraphRegistry &R() { return runtime::graphs(); }

runtime::Graph *graphOf(cudaGraph_t G) {
  auto *P = reinterpret_cast<runtime::Graph *>(G);
  return P && R().live(P) ? P : nullptr;
}
runtime::GraphNode *nodeOf(cudaGraphNode_t N) {
  auto *P = reinterpret_cast<runtime::GraphNode *>(N);
  return P && R().live(P) ? P : nullptr;
}
runtime::GraphExec *execOf(cudaGraphExec_t E) {
  auto *P = reinterpret_cast<runtime::GraphExec *>(E);
  return P && R().live(P) ? P : nullptr;
}
cudaGraphNode_t handle(runtime::GraphNode *N) { return reinterpret_cast<cudaGraphNode_t>(N); }

cudaError_t invalid() { return recordError(cudaErrorInvalidValue); }

// Dependencies given as handles: every one a live node of G.
bool depsOf(runtime::Graph &G, const cudaGraphNode_t *D, size_t N, std::vector<runtime::GraphNode *> &Out) {
  if (N && !D) return false;
  for (size_t I = 0; I < N; ++I) {
    runtime::GraphNode *X = nodeOf(D[I]);
    if (!X || !G.owns(X)) return false;
    Out.push_back(X);
  }
  return true;
}

// Adds a node of kind K; Fill sets its parameters (or fails, removing it).
template <class F>
cudaError_t addNode(cudaGraphNode_t *Out, cudaGraph_t Gh, const cudaGraphNode_t *D, size_t N,
                    runtime::GraphNodeKind K, F &&Fill) {
  runtime::Graph *G = graphOf(Gh);
  std::vector<runtime::GraphNode *> Deps;
  if (!Out || !G || !depsOf(*G, D, N, Deps)) return invalid();
  auto Node = G->add(K, Deps);
  if (!Node) return fromError(Node.takeError(), "cudaGraphAddNode");
  if (cudaError_t E = Fill(**Node)) {
    llvm::consumeError(G->destroyNode(*Node));
    return recordError(E);
  }
  *Out = handle(*Node);
  return cudaSuccess;
}

// ---- parameters ----------------------------------------------------------------------
cudaError_t kernelParams(const cudaKernelNodeParams *P, runtime::KernelNodeParams &Out) {
  if (!P) return cudaErrorInvalidValue;
  if (!P->func) return cudaErrorInvalidDeviceFunction; // the H200's answer
  cudaError_t Err = cudaSuccess;
  if (!context(&Err)) return Err;
  runtime::Function *F = nullptr;
  if (cudaError_t E = functionOf(kernelFor(P->func), &F)) return E;
  runtime::LaunchConfig C;
  C.grid = {P->gridDim.x, P->gridDim.y, P->gridDim.z};
  C.block = {P->blockDim.x, P->blockDim.y, P->blockDim.z};
  C.dynamicSharedBytes = P->sharedMemBytes;
  if (P->kernelParams && P->extra) return cudaErrorInvalidValue;
  auto Build = [&]() -> llvm::Expected<runtime::KernelNodeParams> {
    if (!P->extra) return runtime::KernelNodeParams::fromPointers(*F, P->func, C, P->kernelParams);
    const void *Buf = nullptr;
    size_t Size = 0;
    for (size_t I = 0; P->extra[I] != nullptr; I += 2) { // CU_LAUNCH_PARAM_END = 0
      if (P->extra[I] == reinterpret_cast<void *>(1)) Buf = P->extra[I + 1];
      else if (P->extra[I] == reinterpret_cast<void *>(2) && P->extra[I + 1]) Size = *static_cast<size_t *>(P->extra[I + 1]);
      else return runtime::makeError(runtime::Errc::InvalidValue, "kernel node: bad `extra` list");
      if (I > 64) return runtime::makeError(runtime::Errc::InvalidValue, "kernel node: unterminated `extra` list");
    }
    if (!Buf) return runtime::makeError(runtime::Errc::InvalidValue, "kernel node: `extra` without a buffer");
    return runtime::KernelNodeParams::fromBuffer(*F, P->func, C,
                                                 llvm::ArrayRef<uint8_t>(static_cast<const uint8_t *>(Buf), Size));
  };
  auto K = Build();
  if (!K) return fromError(K.takeError(), "kernel node");
  Out = std::move(*K);
  return cudaSuccess;
}

runtime::MemcpyKind kindOf(cudaMemcpyKind K) {
  switch (K) {
  case cudaMemcpyHostToHost: return runtime::MemcpyKind::HostToHost;
  case cudaMemcpyHostToDevice: return runtime::MemcpyKind::HostToDevice;
  case cudaMemcpyDeviceToHost: return runtime::MemcpyKind::DeviceToHost;
  case cudaMemcpyDeviceToDevice: return runtime::MemcpyKind::DeviceToDevice;
  default: return runtime::MemcpyKind::Default;
  }
}

cudaError_t copyParams(const cudaMemcpy3DParms *P, runtime::CopyNodeParams &Out) {
  return memcpy3DParams(P, Out, "cudaGraphMemcpyNode");
}

cudaError_t copy1D(void *Dst, const void *Src, size_t Count, cudaMemcpyKind Kind, runtime::CopyNodeParams &Out) {
  if (!Dst || !Src || !Count) return cudaErrorInvalidValue;
  if (unsigned(Kind) > unsigned(cudaMemcpyDefault)) return cudaErrorInvalidMemcpyDirection;
  Out = {};
  Out.dst = reinterpret_cast<uint64_t>(Dst);
  Out.src = reinterpret_cast<uint64_t>(Src);
  Out.widthBytes = Count;
  Out.dstPitch = Out.srcPitch = Count;
  Out.dstRows = Out.srcRows = 1;
  Out.kind = kindOf(Kind);
  return cudaSuccess;
}

cudaError_t fillParams(const cudaMemsetParams *P, runtime::FillNodeParams &Out) {
  if (!P || !P->dst || !P->width) return cudaErrorInvalidValue;
  if (P->elementSize != 1 && P->elementSize != 2 && P->elementSize != 4) return cudaErrorInvalidValue;
  if (P->height > 1 && P->pitch < P->width * P->elementSize) return cudaErrorInvalidValue;
  Out.dst = reinterpret_cast<uint64_t>(P->dst);
  Out.value = P->value;
  Out.elementSize = P->elementSize;
  Out.width = P->width;
  Out.height = std::max<size_t>(P->height, 1);
  Out.pitch = P->height > 1 ? P->pitch : P->width * P->elementSize;
  return cudaSuccess;
}

cudaError_t hostParams(const cudaHostNodeParams *P, runtime::HostNodeParams &Out) {
  if (!P || !P->fn) return cudaErrorInvalidValue;
  Out = {};
  Out.fn = P->fn;
  Out.user = P->userData;
  return cudaSuccess;
}

runtime::Event *eventOf(cudaEvent_t E) {
  cudaError_t Err = cudaSuccess;
  runtime::Context *C = context(&Err);
  auto *Ev = reinterpret_cast<runtime::Event *>(E);
  return C && Ev && C->isLive(Ev) ? Ev : nullptr;
}

// Node lists: *Count in = room in Out (when given); out = how many exist.
cudaError_t listNodes(const std::vector<runtime::GraphNode *> &L, cudaGraphNode_t *Out, size_t *Count) {
  return runtime::copyNodeList(L, Out, Count, [](runtime::GraphNode *N) { return handle(N); }) ? cudaSuccess : invalid();
}

void zeroEdgeData(cudaGraphEdgeData *E, size_t N) {
  if (E) std::memset(E, 0, N * sizeof(cudaGraphEdgeData));
}

cudaError_t edgeOp(cudaGraph_t Gh, const cudaGraphNode_t *From, const cudaGraphNode_t *To,
                   const cudaGraphEdgeData *Data, size_t N, bool Add) {
  runtime::Graph *G = graphOf(Gh);
  if (!G || (N && (!From || !To))) return invalid();
  if (!runtime::allDefaultEdges(Data, N)) {
    note("cudaGraphAddDependencies: edge data (programmatic dependencies) is not supported");
    return recordError(cudaErrorNotSupported);
  }
  for (size_t I = 0; I < N; ++I) {
    runtime::GraphNode *A = nodeOf(From[I]), *B = nodeOf(To[I]);
    if (!A || !B) return invalid();
    if (llvm::Error E = Add ? G->addEdge(A, B) : G->removeEdge(A, B))
      return fromError(std::move(E), Add ? "cudaGraphAddDependencies" : "cudaGraphRemoveDependencies");
  }
  return cudaSuccess;
}

// ---- capture -------------------------------------------------------------------------
cudaError_t beginCapture(cudaStream_t S, cudaStreamCaptureMode M, bool PT, runtime::Graph *Into = nullptr,
                         llvm::ArrayRef<runtime::GraphNode *> Deps = {}) {
  if (unsigned(M) > unsigned(cudaStreamCaptureModeRelaxed)) return invalid();
  SHIM_CONTEXT(C);
  cudaError_t Err = cudaSuccess;
  runtime::Stream *St = stream(*C, S, PT, &Err);
  if (!St) return recordError(Err);
  return fromError(runtime::beginCapture(*St, runtime::CaptureMode(M), Into, Deps),
                   Into ? "cudaStreamBeginCaptureToGraph" : "cudaStreamBeginCapture");
}
// cudaStreamBeginCaptureToGraph: the captured nodes go into G, after Deps.
cudaError_t beginCaptureToGraph(cudaStream_t S, cudaGraph_t Gh, const cudaGraphNode_t *D, const cudaGraphEdgeData *Ed,
                                size_t N, cudaStreamCaptureMode M, bool PT) {
  runtime::Graph *G = graphOf(Gh);
  std::vector<runtime::GraphNode *> Deps;
  if (!G || !depsOf(*G, D, N, Deps)) return invalid();
  if (!runtime::allDefaultEdges(Ed, N)) {
    note("cudaStreamBeginCaptureToGraph: edge data (programmatic dependencies) is not supported");
    return recordError(cudaErrorNotSupported);
  }
  return beginCapture(S, M, PT, G, Deps);
}
cudaError_t endCapture(cudaStream_t S, cudaGraph_t *G, bool PT) {
  if (!G) return invalid();
  SHIM_CONTEXT(C);
  cudaError_t Err = cudaSuccess;
  runtime::Stream *St = stream(*C, S, PT, &Err);
  if (!St) return recordError(Err);
  auto Gr = runtime::endCapture(*St);
  if (!Gr) {
    *G = nullptr;
    return fromError(Gr.takeError(), "cudaStreamEndCapture");
  }
  *G = reinterpret_cast<cudaGraph_t>(*Gr);
  return cudaSuccess;
}
cudaError_t captureInfo(cudaStream_t S, cudaStreamCaptureStatus *St, unsigned long long *Id, cudaGraph_t *G,
                        const cudaGraphNode_t **Deps, const cudaGraphEdgeData **Edges, size_t *N, bool PT) {
  if (!St || (Edges && !Deps)) return invalid();
  SHIM_CONTEXT(C);
  cudaError_t Err = cudaSuccess;
  runtime::Stream *Sp = stream(*C, S, PT, &Err);
  if (!Sp) return recordError(Err);
  auto I = runtime::captureInfo(*Sp);
  if (!I) return fromError(I.takeError(), "cudaStreamGetCaptureInfo");
  *St = cudaStreamCaptureStatus(I->status);
  if (I->status == runtime::CaptureStatus::None) return cudaSuccess;
  if (Id) *Id = I->id;
  if (G) *G = reinterpret_cast<cudaGraph_t>(I->graph);
  if (Deps) *Deps = I->deps->empty() ? nullptr : reinterpret_cast<const cudaGraphNode_t *>(I->deps->data());
  if (Edges) *Edges = nullptr; // plain edges only
  if (N) *N = I->deps->size();
  return cudaSuccess;
}
cudaError_t updateCaptureDeps(cudaStream_t S, cudaGraphNode_t *D, const cudaGraphEdgeData *Ed, size_t N,
                              unsigned Flags, bool PT) {
  if ((N && !D) || Flags > cudaStreamSetCaptureDependencies) return invalid();
  if (!runtime::allDefaultEdges(Ed, N)) {
    note("cudaStreamUpdateCaptureDependencies: edge data (programmatic dependencies) is not supported");
    return recordError(cudaErrorNotSupported);
  }
  SHIM_CONTEXT(C);
  cudaError_t Err = cudaSuccess;
  runtime::Stream *St = stream(*C, S, PT, &Err);
  if (!St) return recordError(Err);
  std::vector<runtime::GraphNode *> Nodes;
  for (size_t I = 0; I < N; ++I) {
    runtime::GraphNode *X = nodeOf(D[I]);
    if (!X) return invalid();
    Nodes.push_back(X);
  }
  return fromError(runtime::updateCaptureDependencies(*St, Nodes, Flags == cudaStreamSetCaptureDependencies),
                   "cudaStreamUpdateCaptureDependencies");
}
cudaError_t launchGraph(cudaGraphExec_t E, cudaStream_t S, bool PT) {
  runtime::GraphExec *X = execOf(E);
  if (!X) return recordError(cudaErrorInvalidValue);
  SHIM_CONTEXT(C);
  if (cudaError_t Sticky = toCuda(C->stickyCode())) return recordError(Sticky);
  cudaError_t Err = cudaSuccess;
  runtime::Stream *St = stream(*C, S, PT, &Err);
  if (!St) return recordError(Err);
  return fromError(X->launch(*St), "cudaGraphLaunch");
}
cudaError_t upload(cudaGraphExec_t E, cudaStream_t S, bool PT) {
  if (!execOf(E)) return invalid();
  SHIM_CONTEXT(C);
  cudaError_t Err = cudaSuccess;
  if (!stream(*C, S, PT, &Err)) return recordError(Err);
  return cudaSuccess; // nothing to upload ahead: nodes are submitted at launch
}

} // namespace

extern "C" {

cudaError_t cudaStreamBeginCapture(cudaStream_t S, cudaStreamCaptureMode M) { return beginCapture(S, M, false); }
cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t S, cudaStreamCaptureMode M) { return beginCapture(S, M, true); }
cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t S, cudaGraph_t G, const cudaGraphNode_t *D,
                                          const cudaGraphEdgeData *E, size_t N, cudaStreamCaptureMode M) {
  return beginCaptureToGraph(S, G, D, E, N, M, false);
}
cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t S, cudaGraph_t G, const cudaGraphNode_t *D,
                                               const cudaGraphEdgeData *E, size_t N, cudaStreamCaptureMode M) {
  return beginCaptureToGraph(S, G, D, E, N, M, true);
}
cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t S, cudaGraphNode_t *D, const cudaGraphEdgeData *E,
                                                size_t N, unsigned Flags) {
  return updateCaptureDeps(S, D, E, N, Flags, false);
}
cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t S, cudaGraphNode_t *D, const cudaGraphEdgeData *E,
                                                     size_t N, unsigned Flags) {
  return updateCaptureDeps(S, D, E, N, Flags, true);
}
cudaError_t cudaStreamEndCapture(cudaStream_t S, cudaGraph_t *G) { return endCapture(S, G, false); }
cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t S, cudaGraph_t *G) { return endCapture(S, G, true); }
cudaError_t cudaStreamIsCapturing(cudaStream_t S, cudaStreamCaptureStatus *St) {
  return captureInfo(S, St, nullptr, nullptr, nullptr, nullptr, nullptr, false);
}
cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t S, cudaStreamCaptureStatus *St) {
  return captureInfo(S, St, nullptr, nullptr, nullptr, nullptr, nullptr, true);
}
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t S, cudaStreamCaptureStatus *St, unsigned long long *Id,
                                     cudaGraph_t *G, const cudaGraphNode_t **D, const cudaGraphEdgeData **E,
                                     size_t *N) {
  return captureInfo(S, St, Id, G, D, E, N, false);
}
cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t S, cudaStreamCaptureStatus *St, unsigned long long *Id,
                                          cudaGraph_t *G, const cudaGraphNode_t **D, const cudaGraphEdgeData **E,
                                          size_t *N) {
  return captureInfo(S, St, Id, G, D, E, N, true);
}
cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode *M) {
  if (!M || unsigned(*M) > unsigned(cudaStreamCaptureModeRelaxed)) return invalid();
  *M = cudaStreamCaptureMode(runtime::exchangeThreadCaptureMode(runtime::CaptureMode(*M)));
  return cudaSuccess;
}

// ---- graphs and nodes ------------------------------------------------------------------
cudaError_t cudaGraphCreate(cudaGraph_t *G, unsigned Flags) {
  if (!G || Flags) return invalid();
  *G = reinterpret_cast<cudaGraph_t>(R().create());
  return cudaSuccess;
}
cudaError_t cudaGraphDestroy(cudaGraph_t G) {
  if (!graphOf(G)) return invalid();
  return fromError(R().destroy(reinterpret_cast<runtime::Graph *>(G)), "cudaGraphDestroy");
}
cudaError_t cudaGraphClone(cudaGraph_t *Out, cudaGraph_t G) {
  runtime::Graph *Gp = graphOf(G);
  if (!Out || !Gp) return invalid();
  if (Gp->hasMemoryNodes() || Gp->hasConditionalNodes()) { // allocations / handles belong to one graph
    note("cudaGraphClone: a graph with memory allocation / free nodes or conditional nodes cannot be cloned");
    return recordError(cudaErrorNotSupported);
  }
  *Out = reinterpret_cast<cudaGraph_t>(R().adopt(Gp->clone()));
  return cudaSuccess;
}
cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *Out, cudaGraphNode_t Orig, cudaGraph_t Clone) {
  runtime::Graph *G = graphOf(Clone);
  if (!Out || !G || !Orig) return invalid();
  for (auto &N : G->nodes())
    if (N->clonedFrom == reinterpret_cast<runtime::GraphNode *>(Orig)) {
      *Out = handle(N.get());
      return cudaSuccess;
    }
  return invalid();
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *Out, cudaGraph_t G, const cudaGraphNode_t *D, size_t N,
                                   const cudaKernelNodeParams *P) {
  return addNode(Out, G, D, N, runtime::GraphNodeKind::Kernel,
                 [&](runtime::GraphNode &Nd) { return kernelParams(P, Nd.kernel); });
}
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t Nh, cudaKernelNodeParams *P) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || !P || N->kind != runtime::GraphNodeKind::Kernel) return invalid();
  const runtime::LaunchConfig &C = N->kernel.config;
  P->func = const_cast<void *>(N->kernel.handle);
  P->gridDim = dim3(C.grid.x, C.grid.y, C.grid.z);
  P->blockDim = dim3(C.block.x, C.block.y, C.block.z);
  P->sharedMemBytes = C.dynamicSharedBytes;
  P->kernelParams = N->kernelParams();
  P->extra = nullptr;
  return cudaSuccess;
}
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t Nh, const cudaKernelNodeParams *P) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || N->kind != runtime::GraphNodeKind::Kernel) return invalid();
  return recordError(kernelParams(P, N->kernel));
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *Out, cudaGraph_t G, const cudaGraphNode_t *D, size_t N,
                                   const cudaMemcpy3DParms *P) {
  return addNode(Out, G, D, N, runtime::GraphNodeKind::Memcpy,
                 [&](runtime::GraphNode &Nd) { return copyParams(P, Nd.copy); });
}
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *Out, cudaGraph_t G, const cudaGraphNode_t *D, size_t N,
                                     void *Dst, const void *Src, size_t Count, cudaMemcpyKind K) {
  return addNode(Out, G, D, N, runtime::GraphNodeKind::Memcpy,
                 [&](runtime::GraphNode &Nd) { return copy1D(Dst, Src, Count, K, Nd.copy); });
}
cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t Nh, const cudaMemcpy3DParms *P) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || N->kind != runtime::GraphNodeKind::Memcpy) return invalid();
  return recordError(copyParams(P, N->copy));
}
cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t Nh, void *Dst, const void *Src, size_t Count,
                                           cudaMemcpyKind K) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || N->kind != runtime::GraphNodeKind::Memcpy) return invalid();
  return recordError(copy1D(Dst, Src, Count, K, N->copy));
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *Out, cudaGraph_t G, const cudaGraphNode_t *D, size_t N,
                                   const cudaMemsetParams *P) {
  return addNode(Out, G, D, N, runtime::GraphNodeKind::Memset,
                 [&](runtime::GraphNode &Nd) { return fillParams(P, Nd.fill); });
}
cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t Nh, cudaMemsetParams *P) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || !P || N->kind != runtime::GraphNodeKind::Memset) return invalid();
  P->dst = reinterpret_cast<void *>(N->fill.dst);
  P->value = N->fill.value;
  P->elementSize = N->fill.elementSize;
  P->width = N->fill.width;
  P->height = N->fill.height;
  P->pitch = N->fill.height > 1 ? N->fill.pitch : 0;
  return cudaSuccess;
}
cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t Nh, const cudaMemsetParams *P) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || N->kind != runtime::GraphNodeKind::Memset) return invalid();
  return recordError(fillParams(P, N->fill));
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *Out, cudaGraph_t G, const cudaGraphNode_t *D, size_t N,
                                 const cudaHostNodeParams *P) {
  return addNode(Out, G, D, N, runtime::GraphNodeKind::Host,
                 [&](runtime::GraphNode &Nd) { return hostParams(P, Nd.host); });
}
cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t Nh, cudaHostNodeParams *P) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || !P || N->kind != runtime::GraphNodeKind::Host) return invalid();
  P->fn = N->host.fn;
  P->userData = N->host.user;
  return cudaSuccess;
}
cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t Nh, const cudaHostNodeParams *P) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || N->kind != runtime::GraphNodeKind::Host) return invalid();
  return recordError(hostParams(P, N->host));
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *Out, cudaGraph_t G, const cudaGraphNode_t *D, size_t N,
                                       cudaGraph_t Child) {
  runtime::Graph *Gp = graphOf(G), *Cp = graphOf(Child);
  std::vector<runtime::GraphNode *> Deps;
  if (!Out || !Gp || !Cp || Gp == Cp || !depsOf(*Gp, D, N, Deps)) return invalid();
  auto Node = Gp->addChild(*Cp, Deps);
  if (!Node) return fromError(Node.takeError(), "cudaGraphAddChildGraphNode");
  *Out = handle(*Node);
  return cudaSuccess;
}
cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t Nh, cudaGraph_t *G) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || !G || N->kind != runtime::GraphNodeKind::ChildGraph) return invalid();
  *G = reinterpret_cast<cudaGraph_t>(N->child.get());
  return cudaSuccess;
}
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *Out, cudaGraph_t G, const cudaGraphNode_t *D, size_t N) {
  return addNode(Out, G, D, N, runtime::GraphNodeKind::Empty, [](runtime::GraphNode &) { return cudaSuccess; });
}
cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *Out, cudaGraph_t G, const cudaGraphNode_t *D, size_t N,
                                        cudaEvent_t E) {
  return addNode(Out, G, D, N, runtime::GraphNodeKind::EventRecord, [&](runtime::GraphNode &Nd) {
    Nd.event = eventOf(E);
    return Nd.event ? cudaSuccess : cudaErrorInvalidValue;
  });
}
cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *Out, cudaGraph_t G, const cudaGraphNode_t *D, size_t N,
                                      cudaEvent_t E) {
  return addNode(Out, G, D, N, runtime::GraphNodeKind::EventWait, [&](runtime::GraphNode &Nd) {
    Nd.event = eventOf(E);
    return Nd.event ? cudaSuccess : cudaErrorInvalidValue;
  });
}
static cudaError_t nodeEvent(cudaGraphNode_t Nh, runtime::GraphNodeKind K, cudaEvent_t *E) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || !E || N->kind != K) return invalid();
  *E = reinterpret_cast<cudaEvent_t>(N->event);
  return cudaSuccess;
}
static cudaError_t setNodeEvent(cudaGraphNode_t Nh, runtime::GraphNodeKind K, cudaEvent_t E) {
  runtime::GraphNode *N = nodeOf(Nh);
  runtime::Event *Ev = eventOf(E);
  if (!N || !Ev || N->kind != K) return invalid();
  N->event = Ev;
  return cudaSuccess;
}
cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t N, cudaEvent_t *E) {
  return nodeEvent(N, runtime::GraphNodeKind::EventRecord, E);
}
cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t N, cudaEvent_t *E) {
  return nodeEvent(N, runtime::GraphNodeKind::EventWait, E);
}
cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t N, cudaEvent_t E) {
  return setNodeEvent(N, runtime::GraphNodeKind::EventRecord, E);
}
cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t N, cudaEvent_t E) {
  return setNodeEvent(N, runtime::GraphNodeKind::EventWait, E);
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t Nh, cudaGraphNodeType *T) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || !T) return invalid();
  *T = cudaGraphNodeType(N->kind);
  return cudaSuccess;
}
cudaError_t cudaGraphGetNodes(cudaGraph_t G, cudaGraphNode_t *Out, size_t *Count) {
  runtime::Graph *Gp = graphOf(G);
  if (!Gp) return invalid();
  std::vector<runtime::GraphNode *> L;
  for (auto &N : Gp->nodes()) L.push_back(N.get());
  return listNodes(L, Out, Count);
}
cudaError_t cudaGraphGetRootNodes(cudaGraph_t G, cudaGraphNode_t *Out, size_t *Count) {
  runtime::Graph *Gp = graphOf(G);
  if (!Gp) return invalid();
  return listNodes(Gp->roots(), Out, Count);
}
cudaError_t cudaGraphGetEdges(cudaGraph_t G, cudaGraphNode_t *From, cudaGraphNode_t *To, cudaGraphEdgeData *Data,
                              size_t *Count) {
  runtime::Graph *Gp = graphOf(G);
  if (!Gp || !Count || (!From != !To)) return invalid();
  auto E = Gp->edges();
  if (From) {
    for (size_t I = 0; I < *Count; ++I) {
      From[I] = I < E.size() ? handle(E[I].first) : nullptr;
      To[I] = I < E.size() ? handle(E[I].second) : nullptr;
    }
    zeroEdgeData(Data, *Count);
    if (*Count > E.size()) *Count = E.size();
    return cudaSuccess;
  }
  *Count = E.size();
  return cudaSuccess;
}
cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t Nh, cudaGraphNode_t *Out, cudaGraphEdgeData *Data,
                                         size_t *Count) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N) return invalid();
  if (Out && Count) zeroEdgeData(Data, *Count);
  return listNodes(N->deps, Out, Count);
}
cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t Nh, cudaGraphNode_t *Out, cudaGraphEdgeData *Data,
                                           size_t *Count) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N) return invalid();
  if (Out && Count) zeroEdgeData(Data, *Count);
  return listNodes(N->dependents, Out, Count);
}
cudaError_t cudaGraphAddDependencies(cudaGraph_t G, const cudaGraphNode_t *From, const cudaGraphNode_t *To,
                                     const cudaGraphEdgeData *Data, size_t N) {
  return edgeOp(G, From, To, Data, N, true);
}
cudaError_t cudaGraphRemoveDependencies(cudaGraph_t G, const cudaGraphNode_t *From, const cudaGraphNode_t *To,
                                        const cudaGraphEdgeData *Data, size_t N) {
  return edgeOp(G, From, To, Data, N, false);
}
cudaError_t cudaGraphDestroyNode(cudaGraphNode_t Nh) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N) return invalid();
  return fromError(N->owner->destroyNode(N), "cudaGraphDestroyNode");
}

// ---- executable graphs -------------------------------------------------------------------
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *Out, cudaGraph_t G, unsigned long long Flags) {
  runtime::Graph *Gp = graphOf(G);
  if (!Out || !Gp) return invalid();
  if (Flags & cudaGraphInstantiateFlagUpload) return invalid(); // needs a stream: WithParams only (the H200's answer)
  auto E = R().instantiate(*Gp, Flags);
  if (!E) return fromError(E.takeError(), "cudaGraphInstantiate");
  *Out = reinterpret_cast<cudaGraphExec_t>(*E);
  return cudaSuccess;
}
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *Out, cudaGraph_t G, unsigned long long Flags) {
  return cudaGraphInstantiate(Out, G, Flags);
}
cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t E, unsigned long long *Flags) {
  runtime::GraphExec *X = execOf(E);
  if (!X || !Flags) return invalid();
  *Flags = X->flags();
  return cudaSuccess;
}
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t E) {
  if (!execOf(E)) return invalid();
  return fromError(R().destroy(reinterpret_cast<runtime::GraphExec *>(E)), "cudaGraphExecDestroy");
}
cudaError_t cudaGraphLaunch(cudaGraphExec_t E, cudaStream_t S) { return launchGraph(E, S, false); }
cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t E, cudaStream_t S) { return launchGraph(E, S, true); }
cudaError_t cudaGraphUpload(cudaGraphExec_t E, cudaStream_t S) { return upload(E, S, false); }
cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t E, cudaStream_t S) { return upload(E, S, true); }

// The executable graph's copy of node Nh, of kind K.
static runtime::GraphNode *execNode(cudaGraphExec_t E, cudaGraphNode_t Nh, runtime::GraphNodeKind K) {
  runtime::GraphExec *X = execOf(E);
  runtime::GraphNode *N = nodeOf(Nh);
  if (!X || !N || N->kind != K) return nullptr;
  return X->nodeFor(N);
}
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t E, cudaGraphNode_t N, const cudaKernelNodeParams *P) {
  runtime::GraphNode *X = execNode(E, N, runtime::GraphNodeKind::Kernel);
  if (!X) return invalid();
  runtime::KernelNodeParams K;
  if (cudaError_t Err = kernelParams(P, K)) return recordError(Err);
  X->kernel = std::move(K);
  return cudaSuccess;
}
cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t E, cudaGraphNode_t N, const cudaMemcpy3DParms *P) {
  runtime::GraphNode *X = execNode(E, N, runtime::GraphNodeKind::Memcpy);
  if (!X) return invalid();
  return recordError(copyParams(P, X->copy));
}
cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t E, cudaGraphNode_t N, void *Dst, const void *Src,
                                               size_t Count, cudaMemcpyKind K) {
  runtime::GraphNode *X = execNode(E, N, runtime::GraphNodeKind::Memcpy);
  if (!X) return invalid();
  return recordError(copy1D(Dst, Src, Count, K, X->copy));
}
cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t E, cudaGraphNode_t N, const cudaMemsetParams *P) {
  runtime::GraphNode *X = execNode(E, N, runtime::GraphNodeKind::Memset);
  if (!X) return invalid();
  return recordError(fillParams(P, X->fill));
}
cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t E, cudaGraphNode_t N, const cudaHostNodeParams *P) {
  runtime::GraphNode *X = execNode(E, N, runtime::GraphNodeKind::Host);
  if (!X) return invalid();
  return recordError(hostParams(P, X->host));
}
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t E, cudaGraph_t G, cudaGraphExecUpdateResultInfo *Info) {
  runtime::GraphExec *X = execOf(E);
  runtime::Graph *Gp = graphOf(G);
  if (!X || !Gp) return invalid();
  runtime::GraphUpdateResult Res;
  const runtime::GraphNode *ErrNode = nullptr;
  llvm::Error Err = X->update(*Gp, Res, &ErrNode);
  if (Info) {
    Info->result = cudaGraphExecUpdateResult(Res);
    Info->errorNode = ErrNode ? handle(const_cast<runtime::GraphNode *>(ErrNode)) : nullptr;
    Info->errorFromNode = nullptr;
  }
  return fromError(std::move(Err), "cudaGraphExecUpdate");
}


// ---- memcpy nodes: parameters back, __device__ symbols -------------------------------------
cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t Nh, cudaMemcpy3DParms *P) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || !P || N->kind != runtime::GraphNodeKind::Memcpy) return invalid();
  *P = memcpy3DParamsOf(N->copy);
  return cudaSuccess;
}

} // extern "C"

namespace {
// Count bytes at byte Off of a registered __device__ / __constant__ variable and Host memory.
cudaError_t symbolCopy(const void *Sym, size_t Off, size_t Count, void *Other, bool ToSymbol, cudaMemcpyKind K,
                       runtime::CopyNodeParams &Out) {
  uint64_t A;
  size_t Size;
  if (cudaError_t E = symbolAddress(Sym, &A, &Size)) return E;
  if (Off > Size || Count > Size - Off) return cudaErrorInvalidValue;
  if (K != cudaMemcpyDefault && (ToSymbol ? (K != cudaMemcpyHostToDevice && K != cudaMemcpyDeviceToDevice)
                                            : (K != cudaMemcpyDeviceToHost && K != cudaMemcpyDeviceToDevice)))
    return cudaErrorInvalidMemcpyDirection;
  void *Var = reinterpret_cast<void *>(A + Off);
  return ToSymbol ? copy1D(Var, Other, Count, K, Out) : copy1D(Other, Var, Count, K, Out);
}
} // namespace

extern "C" {

cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *Out, cudaGraph_t G, const cudaGraphNode_t *D, size_t N,
                                           const void *Sym, const void *Src, size_t Count, size_t Off,
                                           cudaMemcpyKind K) {
  return addNode(Out, G, D, N, runtime::GraphNodeKind::Memcpy, [&](runtime::GraphNode &Nd) {
    return symbolCopy(Sym, Off, Count, const_cast<void *>(Src), true, K, Nd.copy);
  });
}
cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *Out, cudaGraph_t G, const cudaGraphNode_t *D, size_t N,
                                             void *Dst, const void *Sym, size_t Count, size_t Off, cudaMemcpyKind K) {
  return addNode(Out, G, D, N, runtime::GraphNodeKind::Memcpy,
                 [&](runtime::GraphNode &Nd) { return symbolCopy(Sym, Off, Count, Dst, false, K, Nd.copy); });
}
cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t Nh, const void *Sym, const void *Src, size_t Count,
                                                 size_t Off, cudaMemcpyKind K) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || N->kind != runtime::GraphNodeKind::Memcpy) return invalid();
  return recordError(symbolCopy(Sym, Off, Count, const_cast<void *>(Src), true, K, N->copy));
}
cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t Nh, void *Dst, const void *Sym, size_t Count,
                                                   size_t Off, cudaMemcpyKind K) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || N->kind != runtime::GraphNodeKind::Memcpy) return invalid();
  return recordError(symbolCopy(Sym, Off, Count, Dst, false, K, N->copy));
}
cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t E, cudaGraphNode_t Nh, const void *Sym,
                                                     const void *Src, size_t Count, size_t Off, cudaMemcpyKind K) {
  runtime::GraphNode *X = execNode(E, Nh, runtime::GraphNodeKind::Memcpy);
  if (!X) return invalid();
  return recordError(symbolCopy(Sym, Off, Count, const_cast<void *>(Src), true, K, X->copy));
}
cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t E, cudaGraphNode_t Nh, void *Dst,
                                                       const void *Sym, size_t Count, size_t Off, cudaMemcpyKind K) {
  runtime::GraphNode *X = execNode(E, Nh, runtime::GraphNodeKind::Memcpy);
  if (!X) return invalid();
  return recordError(symbolCopy(Sym, Off, Count, Dst, false, K, X->copy));
}

// ---- memory nodes and stream-ordered allocation --------------------------------------------
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *Out, cudaGraph_t Gh, const cudaGraphNode_t *D, size_t N,
                                     cudaMemAllocNodeParams *P) {
  runtime::Graph *G = graphOf(Gh);
  std::vector<runtime::GraphNode *> Deps;
  if (!Out || !G || !P || !depsOf(*G, D, N, Deps)) return invalid();
  const cudaMemPoolProps &Pp = P->poolProps;
  if (runtime::rawEnum(Pp.allocType) != cudaMemAllocationTypePinned ||
      runtime::rawEnum(Pp.location.type) != cudaMemLocationTypeDevice ||
      Pp.location.id != currentDevice() || P->bytesize == 0)
    return invalid();
  if (P->accessDescCount != 0) {
    note("cudaGraphAddMemAllocNode: peer access descriptors are not supported (one device)");
    return recordError(cudaErrorNotSupported);
  }
  SHIM_CONTEXT(C);
  auto Node = runtime::addAllocNode(*G, *C, P->bytesize, Deps);
  if (!Node) return fromError(Node.takeError(), "cudaGraphAddMemAllocNode");
  P->dptr = reinterpret_cast<void *>((*Node)->alloc->base());
  *Out = handle(*Node);
  return cudaSuccess;
}
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *Out, cudaGraph_t Gh, const cudaGraphNode_t *D, size_t N,
                                    void *Ptr) {
  runtime::Graph *G = graphOf(Gh);
  std::vector<runtime::GraphNode *> Deps;
  if (!Out || !G || !depsOf(*G, D, N, Deps)) return invalid();
  SHIM_CONTEXT(C);
  auto Node = runtime::addFreeNode(*G, *C, reinterpret_cast<uint64_t>(Ptr), Deps);
  if (!Node) return fromError(Node.takeError(), "cudaGraphAddMemFreeNode");
  *Out = handle(*Node);
  return cudaSuccess;
}
cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t Nh, cudaMemAllocNodeParams *P) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || !P || N->kind != runtime::GraphNodeKind::MemAlloc || !N->alloc) return invalid();
  std::memset(P, 0, sizeof *P);
  P->poolProps.allocType = cudaMemAllocationTypePinned;
  P->poolProps.location.type = cudaMemLocationTypeDevice;
  P->poolProps.location.id = N->alloc->device();
  P->bytesize = N->alloc->bytes();
  P->dptr = reinterpret_cast<void *>(N->alloc->base());
  return cudaSuccess;
}
cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t Nh, void *Ptr) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || !Ptr || N->kind != runtime::GraphNodeKind::MemFree) return invalid();
  *static_cast<void **>(Ptr) = reinterpret_cast<void *>(N->freePtr);
  return cudaSuccess;
}
cudaError_t cudaDeviceGraphMemTrim(int Device) {
  if (Device < 0 || Device >= 1) return recordError(cudaErrorInvalidDevice);
  return cudaSuccess; // graph memory is released when its graph goes; nothing is cached
}

static cudaError_t mallocAsync(void **P, size_t N, cudaStream_t S, bool PT) {
  if (!P) return invalid();
  SHIM_CONTEXT(C);
  cudaError_t Err = cudaSuccess;
  runtime::Stream *St = stream(*C, S, PT, &Err);
  if (!St) return recordError(Err);
  auto A = runtime::allocAsync(*St, N);
  if (!A) return fromError(A.takeError(), "cudaMallocAsync");
  *P = reinterpret_cast<void *>(*A);
  return cudaSuccess;
}
static cudaError_t freeAsync(void *P, cudaStream_t S, bool PT) {
  SHIM_CONTEXT(C);
  if (!P) return invalid();
  cudaError_t Err = cudaSuccess;
  runtime::Stream *St = stream(*C, S, PT, &Err);
  if (!St) return recordError(Err);
  return fromError(runtime::freeAsync(*St, reinterpret_cast<uint64_t>(P)), "cudaFreeAsync");
}
cudaError_t cudaMallocAsync(void **P, size_t N, cudaStream_t S) { return mallocAsync(P, N, S, false); }
cudaError_t cudaMallocAsync_ptsz(void **P, size_t N, cudaStream_t S) { return mallocAsync(P, N, S, true); }
cudaError_t cudaFreeAsync(void *P, cudaStream_t S) { return freeAsync(P, S, false); }
cudaError_t cudaFreeAsync_ptsz(void *P, cudaStream_t S) { return freeAsync(P, S, true); }

// ---- node enable / disable, instantiation with parameters ----------------------------------
cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t E, cudaGraphNode_t Nh, unsigned On) {
  runtime::GraphExec *X = execOf(E);
  runtime::GraphNode *N = nodeOf(Nh);
  if (!X || !N) return invalid();
  return fromError(X->setEnabled(N, On != 0), "cudaGraphNodeSetEnabled");
}
cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t E, cudaGraphNode_t Nh, unsigned *On) {
  runtime::GraphExec *X = execOf(E);
  runtime::GraphNode *N = nodeOf(Nh);
  if (!X || !N || !On) return invalid();
  auto R = X->enabled(N);
  if (!R) return fromError(R.takeError(), "cudaGraphNodeGetEnabled");
  *On = *R;
  return cudaSuccess;
}

static cudaError_t instantiateWithParams(cudaGraphExec_t *Out, cudaGraph_t G, cudaGraphInstantiateParams *P, bool PT) {
  runtime::Graph *Gp = graphOf(G);
  if (!Out || !Gp || !P) return invalid();
  P->errNode_out = nullptr;
  constexpr unsigned long long Known = cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUpload |
                                       cudaGraphInstantiateFlagDeviceLaunch | cudaGraphInstantiateFlagUseNodePriority;
  if (P->flags & ~Known) {
    P->result_out = cudaGraphInstantiateError;
    return invalid();
  }
  int Result = 0;
  const runtime::GraphNode *ErrNode = nullptr;
  cudaError_t CErr = cudaSuccess;
  auto E = R().instantiate(*Gp, P->flags, &Result, &ErrNode, context(&CErr));
  if (!E) {
    P->result_out = cudaGraphInstantiateResult(Result ? Result : int(cudaGraphInstantiateError));
    P->errNode_out = ErrNode ? handle(const_cast<runtime::GraphNode *>(ErrNode)) : nullptr;
    return fromError(E.takeError(), "cudaGraphInstantiateWithParams");
  }
  P->result_out = cudaGraphInstantiateSuccess;
  *Out = reinterpret_cast<cudaGraphExec_t>(*E);
  if (P->flags & cudaGraphInstantiateFlagUpload) return upload(*Out, P->uploadStream, PT);
  return cudaSuccess;
}
cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *Out, cudaGraph_t G, cudaGraphInstantiateParams *P) {
  return instantiateWithParams(Out, G, P, false);
}
cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t *Out, cudaGraph_t G, cudaGraphInstantiateParams *P) {
  return instantiateWithParams(Out, G, P, true);
}

// ---- conditional nodes and the generic cudaGraphAddNode ----------------------------------
cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *H, cudaGraph_t Gh, unsigned Default,
                                             unsigned Flags) {
  runtime::Graph *G = graphOf(Gh);
  if (!H || !G || (Flags & ~unsigned(cudaGraphCondAssignDefault))) return invalid();
  SHIM_CONTEXT(C);
  auto V = G->createConditionalHandle(*C, Default, Flags & cudaGraphCondAssignDefault);
  if (!V) return fromError(V.takeError(), "cudaGraphConditionalHandleCreate");
  *H = *V;
  return cudaSuccess;
}

// The node types cudaGraphAddNode builds here: conditional, and those whose parameters are the
// type-specific entry points' (kernel, memset, host, empty, event record / wait); the others
// (memcpy, child graph, memory, external semaphores) are refused by name.
cudaError_t cudaGraphAddNode(cudaGraphNode_t *Out, cudaGraph_t Gh, const cudaGraphNode_t *D,
                             const cudaGraphEdgeData *Ed, size_t N, cudaGraphNodeParams *P) {
  runtime::Graph *G = graphOf(Gh);
  std::vector<runtime::GraphNode *> Deps;
  if (!Out || !G || !P || !depsOf(*G, D, N, Deps)) return invalid();
  if (!runtime::allDefaultEdges(Ed, N)) {
    note("cudaGraphAddNode: edge data (programmatic dependencies) is not supported");
    return recordError(cudaErrorNotSupported);
  }
  switch (runtime::rawEnum(P->type)) {
  case cudaGraphNodeTypeConditional: {
    cudaConditionalNodeParams &Cp = P->conditional;
    auto Node = G->addConditional(Cp.handle, runtime::ConditionalKind(runtime::rawEnum(Cp.type)), Cp.size, Deps);
    if (!Node) return fromError(Node.takeError(), "cudaGraphAddNode");
    Cp.phGraph_out = reinterpret_cast<cudaGraph_t *>((*Node)->bodyHandles.data());
    *Out = handle(*Node);
    return cudaSuccess;
  }
  case cudaGraphNodeTypeKernel: {
    const cudaKernelNodeParamsV2 &K = P->kernel;
    cudaKernelNodeParams Kp{};
    Kp.func = K.func;
    Kp.gridDim = K.gridDim;
    Kp.blockDim = K.blockDim;
    Kp.sharedMemBytes = K.sharedMemBytes;
    Kp.kernelParams = K.kernelParams;
    Kp.extra = K.extra;
    return cudaGraphAddKernelNode(Out, Gh, D, N, &Kp);
  }
  case cudaGraphNodeTypeMemset: {
    const cudaMemsetParamsV2 &M = P->memset;
    cudaMemsetParams Mp{};
    Mp.dst = M.dst;
    Mp.pitch = M.pitch;
    Mp.value = M.value;
    Mp.elementSize = M.elementSize;
    Mp.width = M.width;
    Mp.height = M.height;
    return cudaGraphAddMemsetNode(Out, Gh, D, N, &Mp);
  }
  case cudaGraphNodeTypeHost: {
    cudaHostNodeParams Hp{};
    Hp.fn = P->host.fn;
    Hp.userData = P->host.userData;
    return cudaGraphAddHostNode(Out, Gh, D, N, &Hp);
  }
  case cudaGraphNodeTypeEmpty: return cudaGraphAddEmptyNode(Out, Gh, D, N);
  case cudaGraphNodeTypeEventRecord: return cudaGraphAddEventRecordNode(Out, Gh, D, N, P->eventRecord.event);
  case cudaGraphNodeTypeWaitEvent: return cudaGraphAddEventWaitNode(Out, Gh, D, N, P->eventWait.event);
  default:
    fprintf(stderr, "ptx2amd-shim: unsupported CUDA runtime call 'cudaGraphAddNode' (node type %d; the "
                    "type-specific cudaGraphAdd*Node entry points work)\n", int(runtime::rawEnum(P->type)));
    return recordError(cudaErrorNotSupported);
  }
}

} // extern "C"

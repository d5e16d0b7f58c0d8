//===- cuda-driver/lib/Graphs.cpp - cuGraph*, stream capture (driver API) ------===//
//
// Thin entry points over the core's graphs (runtime/Graph.h), the same objects
// the runtime API uses: CUgraph = runtime::Graph *, CUgraphNode =
// runtime::GraphNode *, CUgraphExec = runtime::GraphExec *, checked against
// the graph registry. Converts CUDA_KERNEL_NODE_PARAMS (v1 and v2; a CUfunction
// or a CUkernel), CUDA_MEMCPY3D (arrays resolved by Texture.cpp), CUDA_MEMSET_NODE_PARAMS,
// CUDA_HOST_NODE_PARAMS and CUDA_MEM_ALLOC_NODE_PARAMS to the core's node parameters and
// back; conditional nodes (cuGraphConditionalHandleCreate, cuGraphAddNode) and capture
// into a given graph (cuStreamBeginCaptureToGraph); stream-ordered allocation (cuMemAllocAsync / cuMemFreeAsync: graph allocation and
// free nodes while the stream captures). Every export
// carries its exact symbol name (DRV below), since cuda.h maps many of the
// names to their newest _vN with macros, and the older versions (cuGraphGetEdges,
// cuGraphInstantiate, cuStreamGetCaptureInfo, cuGraphExecUpdate, ...) still
// need their own definitions for old callers and cuGetProcAddress.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include "runtime/Event.h"
#include "runtime/ApiEnum.h"
#include "runtime/Graph.h"
#include "runtime/Module.h"

#include <cstring>

using namespace cudadrv;

#define DRV(SYM, PARAMS)                                                                                             \
  extern "C" CUresult drv_##SYM PARAMS __asm__(#SYM);                                                              \
  extern "C" CUresult drv_##SYM PARAMS

namespace {

runtime::GraphRegistry &R() { return runtime::graphs(); }

runtime::Graph *graphOf(CUgraph G) {
  auto *P = reinterpret_cast<runtime::Graph *>(G);
  return P && R().live(P) ? P : nullptr;
}
runtime::GraphNode *nodeOf(CUgraphNode N) {
  auto *P = reinterpret_cast<runtime::GraphNode *>(N);
  return P && R().live(P) ? P : nullptr;
}
runtime::GraphExec *execOf(CUgraphExec E) {
  auto *P = reinterpret_cast<runtime::GraphExec *>(E);
  return P && R().live(P) ? P : nullptr;
}
CUgraphNode handle(const runtime::GraphNode *N) {
  return reinterpret_cast<CUgraphNode>(const_cast<runtime::GraphNode *>(N));
}
runtime::Event *eventOf(CUevent E) {
  auto *P = reinterpret_cast<runtime::Event *>(E);
  return P && liveEvent(P) ? P : nullptr;
}

bool depsOf(runtime::Graph &G, const CUgraphNode *D, size_t N, std::vector<runtime::GraphNode *> &Out) {
  if (N && !D) return false;
  for (size_t I = 0; I < N; ++I) {
    runtime::GraphNode *X = nodeOf(D[I]);
    if (!X || !G.owns(X)) return false;
    Out.push_back(X);
  }
  return true;
}

template <class F>
CUresult addNode(CUgraphNode *Out, CUgraph Gh, const CUgraphNode *D, size_t N, runtime::GraphNodeKind K, F &&Fill) {
  runtime::Graph *G = graphOf(Gh);
  std::vector<runtime::GraphNode *> Deps;
  if (!Out || !G || !depsOf(*G, D, N, Deps)) return CUDA_ERROR_INVALID_VALUE;
  auto Node = G->add(K, Deps);
  if (!Node) return fail(Node.takeError(), "cuGraphAddNode");
  if (CUresult E = Fill(**Node)) {
    llvm::consumeError(G->destroyNode(*Node));
    return E;
  }
  *Out = handle(*Node);
  return CUDA_SUCCESS;
}

// ---- parameters ----------------------------------------------------------------------
// The fields CUDA_KERNEL_NODE_PARAMS v1 and v2 share; Handle = the CUfunction or CUkernel given.
// The node keeps the CUfunction (a CUkernel's function in the current context, as CUDA reports it).
CUresult kernelParams(const void *Handle, unsigned GX, unsigned GY, unsigned GZ, unsigned BX, unsigned BY,
                      unsigned BZ, unsigned Shared, void **Params, void **Extra, runtime::KernelNodeParams &Out) {
  if (!Handle || (Params && Extra)) return CUDA_ERROR_INVALID_VALUE;
  DrvFunction *F;
  if (CUresult Rr = resolveFunction(reinterpret_cast<CUfunction>(const_cast<void *>(Handle)), &F)) return Rr;
  runtime::LaunchConfig C;
  C.grid = {GX, GY, GZ};
  C.block = {BX, BY, BZ};
  C.dynamicSharedBytes = Shared;
  if (!Extra) {
    auto K = runtime::KernelNodeParams::fromPointers(*F->core, F, C, Params);
    if (!K) return fail(K.takeError(), "cuGraphAddKernelNode");
    Out = std::move(*K);
    return CUDA_SUCCESS;
  }
  const void *Buf = nullptr;
  size_t Size = 0;
  for (size_t I = 0; Extra[I] != CU_LAUNCH_PARAM_END; I += 2) {
    if (Extra[I] == CU_LAUNCH_PARAM_BUFFER_POINTER) Buf = Extra[I + 1];
    else if (Extra[I] == CU_LAUNCH_PARAM_BUFFER_SIZE && Extra[I + 1]) Size = *static_cast<size_t *>(Extra[I + 1]);
    else return CUDA_ERROR_INVALID_VALUE;
    if (I > 64) return CUDA_ERROR_INVALID_VALUE;
  }
  if (!Buf) return CUDA_ERROR_INVALID_VALUE;
  auto K = runtime::KernelNodeParams::fromBuffer(*F->core, F, C,
                                                 llvm::ArrayRef<uint8_t>(static_cast<const uint8_t *>(Buf), Size));
  if (!K) return fail(K.takeError(), "cuGraphAddKernelNode");
  Out = std::move(*K);
  return CUDA_SUCCESS;
}
CUresult kernelParams(const CUDA_KERNEL_NODE_PARAMS *P, runtime::KernelNodeParams &Out) {
  if (!P) return CUDA_ERROR_INVALID_VALUE;
  const void *H = P->func ? static_cast<const void *>(P->func) : static_cast<const void *>(P->kern);
  return kernelParams(H, P->gridDimX, P->gridDimY, P->gridDimZ, P->blockDimX, P->blockDimY, P->blockDimZ,
                      P->sharedMemBytes, P->kernelParams, P->extra, Out);
}
CUresult kernelParams(const CUDA_KERNEL_NODE_PARAMS_v1 *P, runtime::KernelNodeParams &Out) {
  if (!P) return CUDA_ERROR_INVALID_VALUE;
  return kernelParams(P->func, P->gridDimX, P->gridDimY, P->gridDimZ, P->blockDimX, P->blockDimY, P->blockDimZ,
                      P->sharedMemBytes, P->kernelParams, P->extra, Out);
}
template <class T> void kernelParamsOut(runtime::GraphNode &N, T *P) {
  const runtime::LaunchConfig &C = N.kernel.config;
  P->func = reinterpret_cast<CUfunction>(const_cast<void *>(N.kernel.handle));
  P->gridDimX = C.grid.x;
  P->gridDimY = C.grid.y;
  P->gridDimZ = C.grid.z;
  P->blockDimX = C.block.x;
  P->blockDimY = C.block.y;
  P->blockDimZ = C.block.z;
  P->sharedMemBytes = C.dynamicSharedBytes;
  P->kernelParams = N.kernelParams();
  P->extra = nullptr;
}

CUresult copyParams(const CUDA_MEMCPY3D *P, runtime::CopyNodeParams &Out) {
  if (!P || !P->WidthInBytes) return CUDA_ERROR_INVALID_VALUE;
  return memcpy3DParams(P, Out);
}

CUresult fillParams(const CUDA_MEMSET_NODE_PARAMS *P, runtime::FillNodeParams &Out) {
  if (!P || !P->dst || !P->width) return CUDA_ERROR_INVALID_VALUE;
  if (P->elementSize != 1 && P->elementSize != 2 && P->elementSize != 4) return CUDA_ERROR_INVALID_VALUE;
  if (P->height > 1 && P->pitch < P->width * P->elementSize) return CUDA_ERROR_INVALID_VALUE;
  Out.dst = P->dst;
  Out.value = P->value;
  Out.elementSize = P->elementSize;
  Out.width = P->width;
  Out.height = std::max<size_t>(P->height, 1);
  Out.pitch = P->height > 1 ? P->pitch : P->width * P->elementSize;
  return CUDA_SUCCESS;
}

CUresult hostParams(const CUDA_HOST_NODE_PARAMS *P, runtime::HostNodeParams &Out) {
  if (!P || !P->fn) return CUDA_ERROR_INVALID_VALUE;
  Out = {};
  Out.fn = P->fn;
  Out.user = P->userData;
  return CUDA_SUCCESS;
}

CUresult listNodes(const std::vector<runtime::GraphNode *> &L, CUgraphNode *Out, size_t *Count) {
  return runtime::copyNodeList(L, Out, Count, [](runtime::GraphNode *N) { return handle(N); }) ? CUDA_SUCCESS
                                                                                              : CUDA_ERROR_INVALID_VALUE;
}
void zeroEdges(CUgraphEdgeData *E, size_t N) {
  if (E) std::memset(E, 0, N * sizeof(CUgraphEdgeData));
}
CUresult edgeOp(CUgraph Gh, const CUgraphNode *From, const CUgraphNode *To, const CUgraphEdgeData *Data, size_t N,
                bool Add) {
  runtime::Graph *G = graphOf(Gh);
  if (!G || (N && (!From || !To))) return CUDA_ERROR_INVALID_VALUE;
  if (!runtime::allDefaultEdges(Data, N)) return unsupported("cuGraphAddDependencies (edge data)");
  for (size_t I = 0; I < N; ++I) {
    runtime::GraphNode *A = nodeOf(From[I]), *B = nodeOf(To[I]);
    if (!A || !B) return CUDA_ERROR_INVALID_VALUE;
    if (llvm::Error E = Add ? G->addEdge(A, B) : G->removeEdge(A, B))
      return fail(std::move(E), Add ? "cuGraphAddDependencies" : "cuGraphRemoveDependencies");
  }
  return CUDA_SUCCESS;
}
CUresult edges(CUgraph Gh, CUgraphNode *From, CUgraphNode *To, CUgraphEdgeData *Data, size_t *Count) {
  runtime::Graph *G = graphOf(Gh);
  if (!G || !Count || (!From != !To)) return CUDA_ERROR_INVALID_VALUE;
  auto E = G->edges();
  if (From) {
    for (size_t I = 0; I < *Count; ++I) {
      From[I] = I < E.size() ? handle(E[I].first) : nullptr;
      To[I] = I < E.size() ? handle(E[I].second) : nullptr;
    }
    zeroEdges(Data, *Count);
    if (*Count > E.size()) *Count = E.size();
    return CUDA_SUCCESS;
  }
  *Count = E.size();
  return CUDA_SUCCESS;
}
CUresult neighbours(CUgraphNode Nh, bool Deps, CUgraphNode *Out, CUgraphEdgeData *Data, size_t *Count) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N) return CUDA_ERROR_INVALID_VALUE;
  if (Out && Count) zeroEdges(Data, *Count);
  return listNodes(Deps ? N->deps : N->dependents, Out, Count);
}

// ---- capture -------------------------------------------------------------------------
CUresult beginCapture(CUstream H, unsigned Mode, bool PT, runtime::Graph *Into = nullptr,
                      llvm::ArrayRef<runtime::GraphNode *> Deps = {}) {
  if (Mode > CU_STREAM_CAPTURE_MODE_RELAXED) return CUDA_ERROR_INVALID_VALUE;
  runtime::Stream *S;
  if (CUresult Rr = resolveStream(H, PT, &S)) return Rr;
  return fail(runtime::beginCapture(*S, runtime::CaptureMode(Mode), Into, Deps),
              Into ? "cuStreamBeginCaptureToGraph" : "cuStreamBeginCapture");
}
// cuStreamBeginCaptureToGraph: the captured nodes go into G, after Deps.
CUresult beginCaptureToGraph(CUstream H, CUgraph Gh, const CUgraphNode *D, const CUgraphEdgeData *Ed, size_t N,
                             CUstreamCaptureMode Mode, bool PT) {
  runtime::Graph *G = graphOf(Gh);
  std::vector<runtime::GraphNode *> Deps;
  if (!G || !depsOf(*G, D, N, Deps)) return CUDA_ERROR_INVALID_VALUE;
  if (!runtime::allDefaultEdges(Ed, N)) return unsupported("cuStreamBeginCaptureToGraph (edge data)");
  return beginCapture(H, Mode, PT, G, Deps);
}
CUresult updateCaptureDeps(CUstream H, CUgraphNode *D, const CUgraphEdgeData *Ed, size_t N, unsigned Flags,
                           bool PT) {
  if ((N && !D) || Flags > CU_STREAM_SET_CAPTURE_DEPENDENCIES) return CUDA_ERROR_INVALID_VALUE;
  if (!runtime::allDefaultEdges(Ed, N)) return unsupported("cuStreamUpdateCaptureDependencies (edge data)");
  runtime::Stream *S;
  if (CUresult Rr = resolveStream(H, PT, &S)) return Rr;
  std::vector<runtime::GraphNode *> Nodes;
  for (size_t I = 0; I < N; ++I) {
    runtime::GraphNode *X = nodeOf(D[I]);
    if (!X) return CUDA_ERROR_INVALID_VALUE;
    Nodes.push_back(X);
  }
  return fail(runtime::updateCaptureDependencies(*S, Nodes, Flags == CU_STREAM_SET_CAPTURE_DEPENDENCIES),
              "cuStreamUpdateCaptureDependencies");
}
CUresult endCapture(CUstream H, CUgraph *G, bool PT) {
  if (!G) return CUDA_ERROR_INVALID_VALUE;
  runtime::Stream *S;
  if (CUresult Rr = resolveStream(H, PT, &S)) return Rr;
  auto Gr = runtime::endCapture(*S);
  if (!Gr) {
    *G = nullptr;
    return fail(Gr.takeError(), "cuStreamEndCapture");
  }
  *G = reinterpret_cast<CUgraph>(*Gr);
  return CUDA_SUCCESS;
}
CUresult captureInfo(CUstream H, CUstreamCaptureStatus *St, cuuint64_t *Id, CUgraph *G, const CUgraphNode **Deps,
                     const CUgraphEdgeData **Edges, size_t *N, bool PT) {
  if (!St || (Edges && !Deps)) return CUDA_ERROR_INVALID_VALUE;
  runtime::Stream *S;
  if (CUresult Rr = resolveStream(H, PT, &S)) return Rr;
  auto I = runtime::captureInfo(*S);
  if (!I) return fail(I.takeError(), "cuStreamGetCaptureInfo");
  *St = CUstreamCaptureStatus(I->status);
  if (I->status == runtime::CaptureStatus::None) return CUDA_SUCCESS;
  if (Id) *Id = I->id;
  if (G) *G = reinterpret_cast<CUgraph>(I->graph);
  if (Deps) *Deps = I->deps->empty() ? nullptr : reinterpret_cast<const CUgraphNode *>(I->deps->data());
  if (Edges) *Edges = nullptr;
  if (N) *N = I->deps->size();
  return CUDA_SUCCESS;
}
CUresult launchGraph(CUgraphExec E, CUstream H, bool PT) {
  runtime::GraphExec *X = execOf(E);
  if (!X) return CUDA_ERROR_INVALID_VALUE;
  runtime::Stream *S;
  if (CUresult Rr = resolveStream(H, PT, &S)) return Rr;
  return fail(X->launch(*S), "cuGraphLaunch");
}
CUresult upload(CUgraphExec E, CUstream H, bool PT) {
  if (!execOf(E)) return CUDA_ERROR_INVALID_VALUE;
  runtime::Stream *S;
  return resolveStream(H, PT, &S); // nodes are submitted at launch; nothing to upload ahead
}
CUresult instantiate(CUgraphExec *Out, CUgraph G, unsigned long long Flags, int *Result = nullptr,
                     const runtime::GraphNode **ErrNode = nullptr, bool WithParams = false) {
  runtime::Graph *Gp = graphOf(G);
  if (!Out || !Gp) return CUDA_ERROR_INVALID_VALUE;
  // The upload flag needs a stream: cuGraphInstantiateWithParams only (the H200's answer).
  if (!WithParams && (Flags & CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD)) return CUDA_ERROR_INVALID_VALUE;
  DrvContext *C = nullptr;
  (void)currentContext(&C);
  auto E = R().instantiate(*Gp, Flags, Result, ErrNode, C ? C->core : nullptr);
  if (!E) return fail(E.takeError(), "cuGraphInstantiate");
  *Out = reinterpret_cast<CUgraphExec>(*E);
  return CUDA_SUCCESS;
}
runtime::GraphNode *execNode(CUgraphExec E, CUgraphNode Nh, runtime::GraphNodeKind K) {
  runtime::GraphExec *X = execOf(E);
  runtime::GraphNode *N = nodeOf(Nh);
  if (!X || !N || N->kind != K) return nullptr;
  return X->nodeFor(N);
}
CUresult update(CUgraphExec E, CUgraph G, runtime::GraphUpdateResult &Res, const runtime::GraphNode **ErrNode) {
  runtime::GraphExec *X = execOf(E);
  runtime::Graph *Gp = graphOf(G);
  Res = runtime::GraphUpdateResult::Error;
  *ErrNode = nullptr;
  if (!X || !Gp) return CUDA_ERROR_INVALID_VALUE;
  return fail(X->update(*Gp, Res, ErrNode), "cuGraphExecUpdate");
}
CUresult nodeEvent(CUgraphNode Nh, runtime::GraphNodeKind K, CUevent *E) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || !E || N->kind != K) return CUDA_ERROR_INVALID_VALUE;
  *E = reinterpret_cast<CUevent>(N->event);
  return CUDA_SUCCESS;
}
CUresult setNodeEvent(runtime::GraphNode *N, runtime::GraphNodeKind K, CUevent E) {
  runtime::Event *Ev = eventOf(E);
  if (!N || !Ev || N->kind != K) return CUDA_ERROR_INVALID_VALUE;
  N->event = Ev;
  return CUDA_SUCCESS;
}

} // namespace

// ---- capture ---------------------------------------------------------------------------
DRV(cuStreamBeginCapture, (CUstream H)) { return beginCapture(H, CU_STREAM_CAPTURE_MODE_GLOBAL, false); }
DRV(cuStreamBeginCapture_ptsz, (CUstream H)) { return beginCapture(H, CU_STREAM_CAPTURE_MODE_GLOBAL, true); }
DRV(cuStreamBeginCapture_v2, (CUstream H, CUstreamCaptureMode M)) { return beginCapture(H, M, false); }
DRV(cuStreamBeginCapture_v2_ptsz, (CUstream H, CUstreamCaptureMode M)) { return beginCapture(H, M, true); }
DRV(cuStreamUpdateCaptureDependencies, (CUstream H, CUgraphNode *D, size_t N, unsigned F)) {
  return updateCaptureDeps(H, D, nullptr, N, F, false);
}
DRV(cuStreamUpdateCaptureDependencies_ptsz, (CUstream H, CUgraphNode *D, size_t N, unsigned F)) {
  return updateCaptureDeps(H, D, nullptr, N, F, true);
}
DRV(cuStreamUpdateCaptureDependencies_v2, (CUstream H, CUgraphNode *D, const CUgraphEdgeData *E, size_t N,
                                           unsigned F)) {
  return updateCaptureDeps(H, D, E, N, F, false);
}
DRV(cuStreamUpdateCaptureDependencies_v2_ptsz, (CUstream H, CUgraphNode *D, const CUgraphEdgeData *E, size_t N,
                                                unsigned F)) {
  return updateCaptureDeps(H, D, E, N, F, true);
}
DRV(cuStreamBeginCaptureToGraph, (CUstream H, CUgraph G, const CUgraphNode *D, const CUgraphEdgeData *E, size_t N,
                                  CUstreamCaptureMode M)) {
  return beginCaptureToGraph(H, G, D, E, N, M, false);
}
DRV(cuStreamBeginCaptureToGraph_ptsz, (CUstream H, CUgraph G, const CUgraphNode *D, const CUgraphEdgeData *E,
                                       size_t N, CUstreamCaptureMode M)) {
  return beginCaptureToGraph(H, G, D, E, N, M, true);
}
DRV(cuStreamEndCapture, (CUstream H, CUgraph *G)) { return endCapture(H, G, false); }
DRV(cuStreamEndCapture_ptsz, (CUstream H, CUgraph *G)) { return endCapture(H, G, true); }
DRV(cuStreamIsCapturing, (CUstream H, CUstreamCaptureStatus *S)) {
  return captureInfo(H, S, nullptr, nullptr, nullptr, nullptr, nullptr, false);
}
DRV(cuStreamIsCapturing_ptsz, (CUstream H, CUstreamCaptureStatus *S)) {
  return captureInfo(H, S, nullptr, nullptr, nullptr, nullptr, nullptr, true);
}
DRV(cuStreamGetCaptureInfo, (CUstream H, CUstreamCaptureStatus *S, cuuint64_t *Id)) {
  return captureInfo(H, S, Id, nullptr, nullptr, nullptr, nullptr, false);
}
DRV(cuStreamGetCaptureInfo_ptsz, (CUstream H, CUstreamCaptureStatus *S, cuuint64_t *Id)) {
  return captureInfo(H, S, Id, nullptr, nullptr, nullptr, nullptr, true);
}
DRV(cuStreamGetCaptureInfo_v2,
    (CUstream H, CUstreamCaptureStatus *S, cuuint64_t *Id, CUgraph *G, const CUgraphNode **D, size_t *N)) {
  return captureInfo(H, S, Id, G, D, nullptr, N, false);
}
DRV(cuStreamGetCaptureInfo_v2_ptsz,
    (CUstream H, CUstreamCaptureStatus *S, cuuint64_t *Id, CUgraph *G, const CUgraphNode **D, size_t *N)) {
  return captureInfo(H, S, Id, G, D, nullptr, N, true);
}
DRV(cuStreamGetCaptureInfo_v3, (CUstream H, CUstreamCaptureStatus *S, cuuint64_t *Id, CUgraph *G,
                                const CUgraphNode **D, const CUgraphEdgeData **E, size_t *N)) {
  return captureInfo(H, S, Id, G, D, E, N, false);
}
DRV(cuStreamGetCaptureInfo_v3_ptsz, (CUstream H, CUstreamCaptureStatus *S, cuuint64_t *Id, CUgraph *G,
                                     const CUgraphNode **D, const CUgraphEdgeData **E, size_t *N)) {
  return captureInfo(H, S, Id, G, D, E, N, true);
}
DRV(cuThreadExchangeStreamCaptureMode, (CUstreamCaptureMode * M)) {
  if (!M || unsigned(*M) > CU_STREAM_CAPTURE_MODE_RELAXED) return CUDA_ERROR_INVALID_VALUE;
  *M = CUstreamCaptureMode(runtime::exchangeThreadCaptureMode(runtime::CaptureMode(*M)));
  return CUDA_SUCCESS;
}

// ---- graphs and nodes --------------------------------------------------------------------
DRV(cuGraphCreate, (CUgraph * G, unsigned Flags)) {
  if (!G || Flags) return CUDA_ERROR_INVALID_VALUE;
  *G = reinterpret_cast<CUgraph>(R().create());
  return CUDA_SUCCESS;
}
DRV(cuGraphDestroy, (CUgraph G)) {
  if (!graphOf(G)) return CUDA_ERROR_INVALID_VALUE;
  return fail(R().destroy(reinterpret_cast<runtime::Graph *>(G)), "cuGraphDestroy");
}
DRV(cuGraphClone, (CUgraph * Out, CUgraph G)) {
  runtime::Graph *Gp = graphOf(G);
  if (!Out || !Gp) return CUDA_ERROR_INVALID_VALUE;
  if (Gp->hasMemoryNodes()) return unsupported("cuGraphClone (a graph with memory allocation / free nodes)");
  if (Gp->hasConditionalNodes()) return unsupported("cuGraphClone (a graph with conditional nodes)");
  *Out = reinterpret_cast<CUgraph>(R().adopt(Gp->clone()));
  return CUDA_SUCCESS;
}
DRV(cuGraphNodeFindInClone, (CUgraphNode * Out, CUgraphNode Orig, CUgraph Clone)) {
  runtime::Graph *G = graphOf(Clone);
  if (!Out || !G || !Orig) return CUDA_ERROR_INVALID_VALUE;
  for (auto &N : G->nodes())
    if (N->clonedFrom == reinterpret_cast<runtime::GraphNode *>(Orig)) {
      *Out = handle(N.get());
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_VALUE;
}

DRV(cuGraphAddKernelNode, (CUgraphNode * Out, CUgraph G, const CUgraphNode *D, size_t N,
                           const CUDA_KERNEL_NODE_PARAMS_v1 *P)) {
  return addNode(Out, G, D, N, runtime::GraphNodeKind::Kernel,
                 [&](runtime::GraphNode &Nd) { return kernelParams(P, Nd.kernel); });
}
DRV(cuGraphAddKernelNode_v2, (CUgraphNode * Out, CUgraph G, const CUgraphNode *D, size_t N,
                              const CUDA_KERNEL_NODE_PARAMS *P)) {
  return addNode(Out, G, D, N, runtime::GraphNodeKind::Kernel,
                 [&](runtime::GraphNode &Nd) { return kernelParams(P, Nd.kernel); });
}
DRV(cuGraphKernelNodeGetParams, (CUgraphNode Nh, CUDA_KERNEL_NODE_PARAMS_v1 *P)) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || !P || N->kind != runtime::GraphNodeKind::Kernel) return CUDA_ERROR_INVALID_VALUE;
  kernelParamsOut(*N, P);
  return CUDA_SUCCESS;
}
DRV(cuGraphKernelNodeGetParams_v2, (CUgraphNode Nh, CUDA_KERNEL_NODE_PARAMS *P)) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || !P || N->kind != runtime::GraphNodeKind::Kernel) return CUDA_ERROR_INVALID_VALUE;
  kernelParamsOut(*N, P);
  // CUDA reports the CUkernel too (static cudart maps it back to the host stub).
  auto *F = static_cast<const DrvFunction *>(N->kernel.handle);
  P->kern = F && HandleTable::get().live<DrvFunction>(F) ? reinterpret_cast<CUkernel>(F->kernel) : nullptr;
  P->ctx = F && HandleTable::get().live<DrvFunction>(F) && F->module ? reinterpret_cast<CUcontext>(F->module->ctx)
                                                                       : nullptr;
  return CUDA_SUCCESS;
}
DRV(cuGraphKernelNodeSetParams, (CUgraphNode Nh, const CUDA_KERNEL_NODE_PARAMS_v1 *P)) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || N->kind != runtime::GraphNodeKind::Kernel) return CUDA_ERROR_INVALID_VALUE;
  return kernelParams(P, N->kernel);
}
DRV(cuGraphKernelNodeSetParams_v2, (CUgraphNode Nh, const CUDA_KERNEL_NODE_PARAMS *P)) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || N->kind != runtime::GraphNodeKind::Kernel) return CUDA_ERROR_INVALID_VALUE;
  return kernelParams(P, N->kernel);
}

DRV(cuGraphAddMemcpyNode, (CUgraphNode * Out, CUgraph G, const CUgraphNode *D, size_t N, const CUDA_MEMCPY3D *P,
                           CUcontext)) {
  return addNode(Out, G, D, N, runtime::GraphNodeKind::Memcpy,
                 [&](runtime::GraphNode &Nd) { return copyParams(P, Nd.copy); });
}
DRV(cuGraphMemcpyNodeSetParams, (CUgraphNode Nh, const CUDA_MEMCPY3D *P)) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || N->kind != runtime::GraphNodeKind::Memcpy) return CUDA_ERROR_INVALID_VALUE;
  return copyParams(P, N->copy);
}
DRV(cuGraphAddMemsetNode, (CUgraphNode * Out, CUgraph G, const CUgraphNode *D, size_t N,
                           const CUDA_MEMSET_NODE_PARAMS *P, CUcontext)) {
  return addNode(Out, G, D, N, runtime::GraphNodeKind::Memset,
                 [&](runtime::GraphNode &Nd) { return fillParams(P, Nd.fill); });
}
DRV(cuGraphMemsetNodeGetParams, (CUgraphNode Nh, CUDA_MEMSET_NODE_PARAMS *P)) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || !P || N->kind != runtime::GraphNodeKind::Memset) return CUDA_ERROR_INVALID_VALUE;
  P->dst = N->fill.dst;
  P->value = N->fill.value;
  P->elementSize = N->fill.elementSize;
  P->width = N->fill.width;
  P->height = N->fill.height;
  P->pitch = N->fill.height > 1 ? N->fill.pitch : 0;
  return CUDA_SUCCESS;
}
DRV(cuGraphMemsetNodeSetParams, (CUgraphNode Nh, const CUDA_MEMSET_NODE_PARAMS *P)) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || N->kind != runtime::GraphNodeKind::Memset) return CUDA_ERROR_INVALID_VALUE;
  return fillParams(P, N->fill);
}
DRV(cuGraphAddHostNode, (CUgraphNode * Out, CUgraph G, const CUgraphNode *D, size_t N,
                         const CUDA_HOST_NODE_PARAMS *P)) {
  return addNode(Out, G, D, N, runtime::GraphNodeKind::Host,
                 [&](runtime::GraphNode &Nd) { return hostParams(P, Nd.host); });
}
DRV(cuGraphHostNodeGetParams, (CUgraphNode Nh, CUDA_HOST_NODE_PARAMS *P)) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || !P || N->kind != runtime::GraphNodeKind::Host) return CUDA_ERROR_INVALID_VALUE;
  P->fn = N->host.fn;
  P->userData = N->host.user;
  return CUDA_SUCCESS;
}
DRV(cuGraphHostNodeSetParams, (CUgraphNode Nh, const CUDA_HOST_NODE_PARAMS *P)) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || N->kind != runtime::GraphNodeKind::Host) return CUDA_ERROR_INVALID_VALUE;
  return hostParams(P, N->host);
}
DRV(cuGraphAddChildGraphNode, (CUgraphNode * Out, CUgraph G, const CUgraphNode *D, size_t N, CUgraph Child)) {
  runtime::Graph *Gp = graphOf(G), *Cp = graphOf(Child);
  std::vector<runtime::GraphNode *> Deps;
  if (!Out || !Gp || !Cp || Gp == Cp || !depsOf(*Gp, D, N, Deps)) return CUDA_ERROR_INVALID_VALUE;
  auto Node = Gp->addChild(*Cp, Deps);
  if (!Node) return fail(Node.takeError(), "cuGraphAddChildGraphNode");
  *Out = handle(*Node);
  return CUDA_SUCCESS;
}
DRV(cuGraphChildGraphNodeGetGraph, (CUgraphNode Nh, CUgraph *G)) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || !G || N->kind != runtime::GraphNodeKind::ChildGraph) return CUDA_ERROR_INVALID_VALUE;
  *G = reinterpret_cast<CUgraph>(N->child.get());
  return CUDA_SUCCESS;
}
// Conditional nodes (runtime/Graph.h): the handle is a condition word of Ctx (null: the current
// context); cuGraphAddNode builds conditional nodes and the kinds whose parameters the
// type-specific entry points take (kernel, memset, host, empty, event record / wait); the other
// kinds are refused by name.
DRV(cuGraphConditionalHandleCreate, (CUgraphConditionalHandle * H, CUgraph Gh, CUcontext Ctx, unsigned Default,
                                     unsigned Flags)) {
  runtime::Graph *G = graphOf(Gh);
  if (!H || !G || (Flags & ~unsigned(CU_GRAPH_COND_ASSIGN_DEFAULT))) return CUDA_ERROR_INVALID_VALUE;
  DrvContext *C = reinterpret_cast<DrvContext *>(Ctx);
  if (!C) {
    if (CUresult Rr = currentContext(&C)) return Rr;
  } else if (!HandleTable::get().live<DrvContext>(C)) {
    return CUDA_ERROR_INVALID_CONTEXT;
  }
  auto V = G->createConditionalHandle(*C->core, Default, Flags & CU_GRAPH_COND_ASSIGN_DEFAULT);
  if (!V) return fail(V.takeError(), "cuGraphConditionalHandleCreate");
  *H = *V;
  return CUDA_SUCCESS;
}
DRV(cuGraphAddEmptyNode, (CUgraphNode * Out, CUgraph G, const CUgraphNode *D, size_t N));
DRV(cuGraphAddEventRecordNode, (CUgraphNode * Out, CUgraph G, const CUgraphNode *D, size_t N, CUevent E));
DRV(cuGraphAddEventWaitNode, (CUgraphNode * Out, CUgraph G, const CUgraphNode *D, size_t N, CUevent E));
static CUresult addGenericNode(CUgraphNode *Out, CUgraph Gh, const CUgraphNode *D, const CUgraphEdgeData *Ed,
                               size_t N, CUgraphNodeParams *P) {
  runtime::Graph *G = graphOf(Gh);
  std::vector<runtime::GraphNode *> Deps;
  if (!Out || !G || !P || !depsOf(*G, D, N, Deps)) return CUDA_ERROR_INVALID_VALUE;
  if (!runtime::allDefaultEdges(Ed, N)) return unsupported("cuGraphAddNode (edge data)");
  switch (runtime::rawEnum(P->type)) {
  case CU_GRAPH_NODE_TYPE_CONDITIONAL: {
    CUDA_CONDITIONAL_NODE_PARAMS &Cp = P->conditional;
    auto Node = G->addConditional(Cp.handle, runtime::ConditionalKind(runtime::rawEnum(Cp.type)), Cp.size, Deps);
    if (!Node) return fail(Node.takeError(), "cuGraphAddNode");
    Cp.phGraph_out = reinterpret_cast<CUgraph *>((*Node)->bodyHandles.data());
    *Out = handle(*Node);
    return CUDA_SUCCESS;
  }
  case CU_GRAPH_NODE_TYPE_KERNEL: {
    const CUDA_KERNEL_NODE_PARAMS_v3 &K = P->kernel;
    CUDA_KERNEL_NODE_PARAMS Kp{};
    Kp.func = K.func;
    Kp.gridDimX = K.gridDimX, Kp.gridDimY = K.gridDimY, Kp.gridDimZ = K.gridDimZ;
    Kp.blockDimX = K.blockDimX, Kp.blockDimY = K.blockDimY, Kp.blockDimZ = K.blockDimZ;
    Kp.sharedMemBytes = K.sharedMemBytes;
    Kp.kernelParams = K.kernelParams;
    Kp.extra = K.extra;
    Kp.kern = K.kern;
    Kp.ctx = K.ctx;
    return drv_cuGraphAddKernelNode_v2(Out, Gh, D, N, &Kp);
  }
  case CU_GRAPH_NODE_TYPE_MEMSET: {
    const CUDA_MEMSET_NODE_PARAMS_v2 &M = P->memset;
    CUDA_MEMSET_NODE_PARAMS Mp{};
    Mp.dst = M.dst;
    Mp.pitch = M.pitch;
    Mp.value = M.value;
    Mp.elementSize = M.elementSize;
    Mp.width = M.width;
    Mp.height = M.height;
    return drv_cuGraphAddMemsetNode(Out, Gh, D, N, &Mp, M.ctx);
  }
  case CU_GRAPH_NODE_TYPE_HOST: {
    CUDA_HOST_NODE_PARAMS Hp{};
    Hp.fn = P->host.fn;
    Hp.userData = P->host.userData;
    return drv_cuGraphAddHostNode(Out, Gh, D, N, &Hp);
  }
  case CU_GRAPH_NODE_TYPE_EMPTY: return drv_cuGraphAddEmptyNode(Out, Gh, D, N);
  case CU_GRAPH_NODE_TYPE_EVENT_RECORD: return drv_cuGraphAddEventRecordNode(Out, Gh, D, N, P->eventRecord.event);
  case CU_GRAPH_NODE_TYPE_WAIT_EVENT: return drv_cuGraphAddEventWaitNode(Out, Gh, D, N, P->eventWait.event);
  default:
    return unsupported(("cuGraphAddNode (node type " + std::to_string(int(runtime::rawEnum(P->type))) +
                        "; the type-specific cuGraphAdd*Node entry points are supported)")
                           .c_str());
  }
}
DRV(cuGraphAddNode, (CUgraphNode * Out, CUgraph G, const CUgraphNode *D, size_t N, CUgraphNodeParams *P)) {
  return addGenericNode(Out, G, D, nullptr, N, P);
}
DRV(cuGraphAddNode_v2, (CUgraphNode * Out, CUgraph G, const CUgraphNode *D, const CUgraphEdgeData *E, size_t N,
                        CUgraphNodeParams *P)) {
  return addGenericNode(Out, G, D, E, N, P);
}
DRV(cuGraphAddEmptyNode, (CUgraphNode * Out, CUgraph G, const CUgraphNode *D, size_t N)) {
  return addNode(Out, G, D, N, runtime::GraphNodeKind::Empty, [](runtime::GraphNode &) { return CUDA_SUCCESS; });
}
DRV(cuGraphAddEventRecordNode, (CUgraphNode * Out, CUgraph G, const CUgraphNode *D, size_t N, CUevent E)) {
  return addNode(Out, G, D, N, runtime::GraphNodeKind::EventRecord,
                 [&](runtime::GraphNode &Nd) { return setNodeEvent(&Nd, runtime::GraphNodeKind::EventRecord, E); });
}
DRV(cuGraphAddEventWaitNode, (CUgraphNode * Out, CUgraph G, const CUgraphNode *D, size_t N, CUevent E)) {
  return addNode(Out, G, D, N, runtime::GraphNodeKind::EventWait,
                 [&](runtime::GraphNode &Nd) { return setNodeEvent(&Nd, runtime::GraphNodeKind::EventWait, E); });
}
DRV(cuGraphEventRecordNodeGetEvent, (CUgraphNode N, CUevent *E)) {
  return nodeEvent(N, runtime::GraphNodeKind::EventRecord, E);
}
DRV(cuGraphEventWaitNodeGetEvent, (CUgraphNode N, CUevent *E)) {
  return nodeEvent(N, runtime::GraphNodeKind::EventWait, E);
}
DRV(cuGraphEventRecordNodeSetEvent, (CUgraphNode N, CUevent E)) {
  return setNodeEvent(nodeOf(N), runtime::GraphNodeKind::EventRecord, E);
}
DRV(cuGraphEventWaitNodeSetEvent, (CUgraphNode N, CUevent E)) {
  return setNodeEvent(nodeOf(N), runtime::GraphNodeKind::EventWait, E);
}

DRV(cuGraphNodeGetType, (CUgraphNode Nh, CUgraphNodeType *T)) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || !T) return CUDA_ERROR_INVALID_VALUE;
  *T = CUgraphNodeType(N->kind);
  return CUDA_SUCCESS;
}
DRV(cuGraphGetNodes, (CUgraph G, CUgraphNode *Out, size_t *Count)) {
  runtime::Graph *Gp = graphOf(G);
  if (!Gp) return CUDA_ERROR_INVALID_VALUE;
  std::vector<runtime::GraphNode *> L;
  for (auto &N : Gp->nodes()) L.push_back(N.get());
  return listNodes(L, Out, Count);
}
DRV(cuGraphGetRootNodes, (CUgraph G, CUgraphNode *Out, size_t *Count)) {
  runtime::Graph *Gp = graphOf(G);
  if (!Gp) return CUDA_ERROR_INVALID_VALUE;
  return listNodes(Gp->roots(), Out, Count);
}
DRV(cuGraphGetEdges, (CUgraph G, CUgraphNode *From, CUgraphNode *To, size_t *Count)) {
  return edges(G, From, To, nullptr, Count);
}
DRV(cuGraphGetEdges_v2, (CUgraph G, CUgraphNode *From, CUgraphNode *To, CUgraphEdgeData *E, size_t *Count)) {
  return edges(G, From, To, E, Count);
}
DRV(cuGraphNodeGetDependencies, (CUgraphNode N, CUgraphNode *Out, size_t *Count)) {
  return neighbours(N, true, Out, nullptr, Count);
}
DRV(cuGraphNodeGetDependencies_v2, (CUgraphNode N, CUgraphNode *Out, CUgraphEdgeData *E, size_t *Count)) {
  return neighbours(N, true, Out, E, Count);
}
DRV(cuGraphNodeGetDependentNodes, (CUgraphNode N, CUgraphNode *Out, size_t *Count)) {
  return neighbours(N, false, Out, nullptr, Count);
}
DRV(cuGraphNodeGetDependentNodes_v2, (CUgraphNode N, CUgraphNode *Out, CUgraphEdgeData *E, size_t *Count)) {
  return neighbours(N, false, Out, E, Count);
}
DRV(cuGraphAddDependencies, (CUgraph G, const CUgraphNode *From, const CUgraphNode *To, size_t N)) {
  return edgeOp(G, From, To, nullptr, N, true);
}
DRV(cuGraphAddDependencies_v2,
    (CUgraph G, const CUgraphNode *From, const CUgraphNode *To, const CUgraphEdgeData *E, size_t N)) {
  return edgeOp(G, From, To, E, N, true);
}
DRV(cuGraphRemoveDependencies, (CUgraph G, const CUgraphNode *From, const CUgraphNode *To, size_t N)) {
  return edgeOp(G, From, To, nullptr, N, false);
}
DRV(cuGraphRemoveDependencies_v2,
    (CUgraph G, const CUgraphNode *From, const CUgraphNode *To, const CUgraphEdgeData *E, size_t N)) {
  return edgeOp(G, From, To, E, N, false);
}
DRV(cuGraphDestroyNode, (CUgraphNode Nh)) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N) return CUDA_ERROR_INVALID_VALUE;
  return fail(N->owner->destroyNode(N), "cuGraphDestroyNode");
}

// ---- executable graphs -------------------------------------------------------------------
DRV(cuGraphInstantiate, (CUgraphExec * Out, CUgraph G, CUgraphNode *ErrNode, char *Log, size_t LogSize)) {
  if (ErrNode) *ErrNode = nullptr;
  if (Log && LogSize) Log[0] = 0;
  return instantiate(Out, G, 0);
}
DRV(cuGraphInstantiate_v2, (CUgraphExec * Out, CUgraph G, CUgraphNode *ErrNode, char *Log, size_t LogSize)) {
  if (ErrNode) *ErrNode = nullptr;
  if (Log && LogSize) Log[0] = 0;
  return instantiate(Out, G, 0);
}
DRV(cuGraphInstantiateWithFlags, (CUgraphExec * Out, CUgraph G, unsigned long long Flags)) {
  return instantiate(Out, G, Flags);
}
DRV(cuGraphExecGetFlags, (CUgraphExec E, cuuint64_t *Flags)) {
  runtime::GraphExec *X = execOf(E);
  if (!X || !Flags) return CUDA_ERROR_INVALID_VALUE;
  *Flags = X->flags();
  return CUDA_SUCCESS;
}
DRV(cuGraphExecDestroy, (CUgraphExec E)) {
  if (!execOf(E)) return CUDA_ERROR_INVALID_VALUE;
  return fail(R().destroy(reinterpret_cast<runtime::GraphExec *>(E)), "cuGraphExecDestroy");
}
DRV(cuGraphLaunch, (CUgraphExec E, CUstream H)) { return launchGraph(E, H, false); }
DRV(cuGraphLaunch_ptsz, (CUgraphExec E, CUstream H)) { return launchGraph(E, H, true); }
DRV(cuGraphUpload, (CUgraphExec E, CUstream H)) { return upload(E, H, false); }
DRV(cuGraphUpload_ptsz, (CUgraphExec E, CUstream H)) { return upload(E, H, true); }

DRV(cuGraphExecKernelNodeSetParams, (CUgraphExec E, CUgraphNode N, const CUDA_KERNEL_NODE_PARAMS_v1 *P)) {
  runtime::GraphNode *X = execNode(E, N, runtime::GraphNodeKind::Kernel);
  if (!X) return CUDA_ERROR_INVALID_VALUE;
  return kernelParams(P, X->kernel);
}
DRV(cuGraphExecKernelNodeSetParams_v2, (CUgraphExec E, CUgraphNode N, const CUDA_KERNEL_NODE_PARAMS *P)) {
  runtime::GraphNode *X = execNode(E, N, runtime::GraphNodeKind::Kernel);
  if (!X) return CUDA_ERROR_INVALID_VALUE;
  return kernelParams(P, X->kernel);
}
DRV(cuGraphExecMemcpyNodeSetParams, (CUgraphExec E, CUgraphNode N, const CUDA_MEMCPY3D *P, CUcontext)) {
  runtime::GraphNode *X = execNode(E, N, runtime::GraphNodeKind::Memcpy);
  if (!X) return CUDA_ERROR_INVALID_VALUE;
  return copyParams(P, X->copy);
}
DRV(cuGraphExecMemsetNodeSetParams, (CUgraphExec E, CUgraphNode N, const CUDA_MEMSET_NODE_PARAMS *P, CUcontext)) {
  runtime::GraphNode *X = execNode(E, N, runtime::GraphNodeKind::Memset);
  if (!X) return CUDA_ERROR_INVALID_VALUE;
  return fillParams(P, X->fill);
}
DRV(cuGraphExecHostNodeSetParams, (CUgraphExec E, CUgraphNode N, const CUDA_HOST_NODE_PARAMS *P)) {
  runtime::GraphNode *X = execNode(E, N, runtime::GraphNodeKind::Host);
  if (!X) return CUDA_ERROR_INVALID_VALUE;
  return hostParams(P, X->host);
}
DRV(cuGraphExecEventRecordNodeSetEvent, (CUgraphExec E, CUgraphNode N, CUevent Ev)) {
  return setNodeEvent(execNode(E, N, runtime::GraphNodeKind::EventRecord), runtime::GraphNodeKind::EventRecord, Ev);
}
DRV(cuGraphExecEventWaitNodeSetEvent, (CUgraphExec E, CUgraphNode N, CUevent Ev)) {
  return setNodeEvent(execNode(E, N, runtime::GraphNodeKind::EventWait), runtime::GraphNodeKind::EventWait, Ev);
}
DRV(cuGraphExecUpdate, (CUgraphExec E, CUgraph G, CUgraphNode *ErrNode, CUgraphExecUpdateResult *Result)) {
  runtime::GraphUpdateResult Res;
  const runtime::GraphNode *Err;
  CUresult Rr = update(E, G, Res, &Err);
  if (ErrNode) *ErrNode = handle(Err);
  if (Result) *Result = CUgraphExecUpdateResult(Res);
  return Rr;
}
DRV(cuGraphExecUpdate_v2, (CUgraphExec E, CUgraph G, CUgraphExecUpdateResultInfo *Info)) {
  runtime::GraphUpdateResult Res;
  const runtime::GraphNode *Err;
  CUresult Rr = update(E, G, Res, &Err);
  if (Info) {
    Info->result = CUgraphExecUpdateResult(Res);
    Info->errorNode = handle(Err);
    Info->errorFromNode = nullptr;
  }
  return Rr;
}

// ---- memcpy parameters back, memory nodes, stream-ordered allocation ------------------------
DRV(cuGraphMemcpyNodeGetParams, (CUgraphNode Nh, CUDA_MEMCPY3D *P)) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || !P || N->kind != runtime::GraphNodeKind::Memcpy) return CUDA_ERROR_INVALID_VALUE;
  *P = memcpy3DOf(N->copy);
  return CUDA_SUCCESS;
}

DRV(cuGraphAddMemAllocNode, (CUgraphNode * Out, CUgraph Gh, const CUgraphNode *D, size_t N,
                             CUDA_MEM_ALLOC_NODE_PARAMS *P)) {
  runtime::Graph *G = graphOf(Gh);
  std::vector<runtime::GraphNode *> Deps;
  if (!Out || !G || !P || !depsOf(*G, D, N, Deps)) return CUDA_ERROR_INVALID_VALUE;
  DrvContext *C;
  if (CUresult Rr = currentContext(&C)) return Rr;
  const CUmemPoolProps &Pp = P->poolProps;
  if (runtime::rawEnum(Pp.allocType) != CU_MEM_ALLOCATION_TYPE_PINNED ||
      runtime::rawEnum(Pp.location.type) != CU_MEM_LOCATION_TYPE_DEVICE ||
      Pp.location.id != C->device || P->bytesize == 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (P->accessDescCount != 0) return unsupported("cuGraphAddMemAllocNode (peer access descriptors)");
  auto Node = runtime::addAllocNode(*G, *C->core, P->bytesize, Deps);
  if (!Node) return fail(Node.takeError(), "cuGraphAddMemAllocNode");
  P->dptr = (*Node)->alloc->base();
  *Out = handle(*Node);
  return CUDA_SUCCESS;
}
DRV(cuGraphAddMemFreeNode, (CUgraphNode * Out, CUgraph Gh, const CUgraphNode *D, size_t N, CUdeviceptr Ptr)) {
  runtime::Graph *G = graphOf(Gh);
  std::vector<runtime::GraphNode *> Deps;
  if (!Out || !G || !depsOf(*G, D, N, Deps)) return CUDA_ERROR_INVALID_VALUE;
  DrvContext *C;
  if (CUresult Rr = currentContext(&C)) return Rr;
  auto Node = runtime::addFreeNode(*G, *C->core, Ptr, Deps);
  if (!Node) return fail(Node.takeError(), "cuGraphAddMemFreeNode");
  *Out = handle(*Node);
  return CUDA_SUCCESS;
}
DRV(cuGraphMemAllocNodeGetParams, (CUgraphNode Nh, CUDA_MEM_ALLOC_NODE_PARAMS *P)) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || !P || N->kind != runtime::GraphNodeKind::MemAlloc || !N->alloc) return CUDA_ERROR_INVALID_VALUE;
  std::memset(P, 0, sizeof *P);
  P->poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  P->poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  P->poolProps.location.id = N->alloc->device();
  P->bytesize = N->alloc->bytes();
  P->dptr = N->alloc->base();
  return CUDA_SUCCESS;
}
DRV(cuGraphMemFreeNodeGetParams, (CUgraphNode Nh, CUdeviceptr *Ptr)) {
  runtime::GraphNode *N = nodeOf(Nh);
  if (!N || !Ptr || N->kind != runtime::GraphNodeKind::MemFree) return CUDA_ERROR_INVALID_VALUE;
  *Ptr = N->freePtr;
  return CUDA_SUCCESS;
}
DRV(cuDeviceGraphMemTrim, (CUdevice Dev)) {
  runtime::Device *D;
  return device(Dev, &D); // graph memory is released with its graph; nothing is cached
}

namespace {
CUresult allocAsync(CUdeviceptr *P, size_t Bytes, CUstream H, bool PT) {
  if (!P) return CUDA_ERROR_INVALID_VALUE;
  runtime::Stream *S;
  if (CUresult Rr = resolveStream(H, PT, &S)) return Rr;
  auto A = runtime::allocAsync(*S, Bytes);
  if (!A) return fail(A.takeError(), "cuMemAllocAsync");
  *P = *A;
  return CUDA_SUCCESS;
}
CUresult freeAsync(CUdeviceptr P, CUstream H, bool PT) {
  if (!P) return CUDA_ERROR_INVALID_VALUE;
  runtime::Stream *S;
  if (CUresult Rr = resolveStream(H, PT, &S)) return Rr;
  return fail(runtime::freeAsync(*S, P), "cuMemFreeAsync");
}
} // namespace
DRV(cuMemAllocAsync, (CUdeviceptr * P, size_t Bytes, CUstream H)) { return allocAsync(P, Bytes, H, false); }
DRV(cuMemAllocAsync_ptsz, (CUdeviceptr * P, size_t Bytes, CUstream H)) { return allocAsync(P, Bytes, H, true); }
DRV(cuMemFreeAsync, (CUdeviceptr P, CUstream H)) { return freeAsync(P, H, false); }
DRV(cuMemFreeAsync_ptsz, (CUdeviceptr P, CUstream H)) { return freeAsync(P, H, true); }

// ---- node enable / disable, instantiation with parameters ----------------------------------
DRV(cuGraphNodeSetEnabled, (CUgraphExec E, CUgraphNode Nh, unsigned On)) {
  runtime::GraphExec *X = execOf(E);
  runtime::GraphNode *N = nodeOf(Nh);
  if (!X || !N) return CUDA_ERROR_INVALID_VALUE;
  return fail(X->setEnabled(N, On != 0), "cuGraphNodeSetEnabled");
}
DRV(cuGraphNodeGetEnabled, (CUgraphExec E, CUgraphNode Nh, unsigned *On)) {
  runtime::GraphExec *X = execOf(E);
  runtime::GraphNode *N = nodeOf(Nh);
  if (!X || !N || !On) return CUDA_ERROR_INVALID_VALUE;
  auto Rr = X->enabled(N);
  if (!Rr) return fail(Rr.takeError(), "cuGraphNodeGetEnabled");
  *On = *Rr;
  return CUDA_SUCCESS;
}

namespace {
CUresult instantiateWithParams(CUgraphExec *Out, CUgraph G, CUDA_GRAPH_INSTANTIATE_PARAMS *P, bool PT) {
  if (!Out || !graphOf(G) || !P) return CUDA_ERROR_INVALID_VALUE;
  P->hErrNode_out = nullptr;
  constexpr cuuint64_t Known = CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH | CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD |
                               CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH | CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY;
  if (P->flags & ~Known) {
    P->result_out = CUDA_GRAPH_INSTANTIATE_ERROR;
    return CUDA_ERROR_INVALID_VALUE;
  }
  int Result = 0;
  const runtime::GraphNode *ErrNode = nullptr;
  CUresult Rr = instantiate(Out, G, P->flags, &Result, &ErrNode, true);
  if (Rr) {
    P->result_out = CUgraphInstantiateResult(Result ? Result : int(CUDA_GRAPH_INSTANTIATE_ERROR));
    P->hErrNode_out = ErrNode ? handle(ErrNode) : nullptr;
    return Rr;
  }
  P->result_out = CUDA_GRAPH_INSTANTIATE_SUCCESS;
  if (P->flags & CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD) return upload(*Out, P->hUploadStream, PT);
  return CUDA_SUCCESS;
}
} // namespace
DRV(cuGraphInstantiateWithParams, (CUgraphExec * Out, CUgraph G, CUDA_GRAPH_INSTANTIATE_PARAMS *P)) {
  return instantiateWithParams(Out, G, P, false);
}
DRV(cuGraphInstantiateWithParams_ptsz, (CUgraphExec * Out, CUgraph G, CUDA_GRAPH_INSTANTIATE_PARAMS *P)) {
  return instantiateWithParams(Out, G, P, true);
}

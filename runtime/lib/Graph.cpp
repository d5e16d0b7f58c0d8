//===- Graph.cpp - graphs, the graph registry, executable graphs (runtime/Graph.h) ===//
//
// Graph structure (nodes, edges, copies), instantiation (cycle check, a copy
// of the graph, child graphs flattened into one topological order: Kahn's
// algorithm, ties broken by creation order so replay order is stable;
// conditional nodes stay nodes, each body flattened on its own), launch (the
// order submitted to one in-order stream, or one child-graph node of a
// capture; conditional nodes: GraphConditional.cpp) and cudaGraphExecUpdate's
// structural comparison.
//
//===----------------------------------------------------------------------===//
#include "runtime/Graph.h"
#include "runtime/Device.h"
#include "runtime/Event.h"
#include "runtime/Module.h"
#include "runtime/Stream.h"

#include "CaptureImpl.h"
#include "GraphImpl.h"

#include <algorithm>
#include <cstring>

namespace runtime {

GraphRegistry &graphs() {
  static GraphRegistry *R = new GraphRegistry; // outlives static destructors of user programs
  return *R;
}

// ---- kernel node parameters ----------------------------------------------------------
namespace {
uint32_t packedBytes(const KernelArgLayout &L) {
  uint32_t Need = 0;
  for (size_t I = 0; I < L.sizes.size(); ++I) Need = std::max(Need, L.offsets[I] + L.sizes[I]);
  return std::max(Need, L.explicitBytes);
}
} // namespace

llvm::Expected<KernelNodeParams> KernelNodeParams::fromPointers(Function &F, const void *Handle,
                                                                const LaunchConfig &C, void **Args) {
  const KernelProperties &K = F.properties();
  KernelNodeParams P;
  P.function = &F;
  P.handle = Handle;
  P.config = C;
  P.args.assign(packedBytes(K.args), 0);
  for (size_t I = 0; I < K.args.sizes.size(); ++I) {
    if (!Args || !Args[I])
      return makeError(Errc::InvalidValue, "kernel node '" + K.name + "': argument " + std::to_string(I) + " is null");
    std::memcpy(P.args.data() + K.args.offsets[I], Args[I], K.args.sizes[I]);
  }
  return P;
}

llvm::Expected<KernelNodeParams> KernelNodeParams::fromBuffer(Function &F, const void *Handle,
                                                              const LaunchConfig &C, llvm::ArrayRef<uint8_t> Packed) {
  const KernelProperties &K = F.properties();
  KernelNodeParams P;
  P.function = &F;
  P.handle = Handle;
  P.config = C;
  P.args.assign(packedBytes(K.args), 0);
  uint32_t Need = 0;
  for (size_t I = 0; I < K.args.sizes.size(); ++I) Need = std::max(Need, K.args.offsets[I] + K.args.sizes[I]);
  if (Packed.size() < Need)
    return makeError(Errc::InvalidValue, "kernel node '" + K.name + "': argument buffer of " +
                                             std::to_string(Packed.size()) + " bytes, the kernel needs " +
                                             std::to_string(Need));
  std::memcpy(P.args.data(), Packed.data(), Need);
  return P;
}

void **GraphNode::kernelParams() {
  ParamPtrs.clear();
  if (kind != GraphNodeKind::Kernel || !kernel.function) return nullptr;
  const KernelArgLayout &L = kernel.function->properties().args;
  for (size_t I = 0; I < L.sizes.size(); ++I) ParamPtrs.push_back(kernel.args.data() + L.offsets[I]);
  return ParamPtrs.data();
}

// ---- graphs -----------------------------------------------------------------------------
Graph::Graph() {
  GraphRegistry &R = graphs();
  std::lock_guard<std::mutex> G(R.Mu);
  R.Graphs.insert(this);
}

Graph::~Graph() {
  {
    GraphRegistry &R = graphs();
    std::lock_guard<std::mutex> G(R.Mu);
    R.Graphs.erase(this);
    for (auto &N : Nodes) R.Nodes.erase(N.get());
  }
  for (auto &N : Nodes)
    if (N->cond && N->cond->user == N.get()) N->cond->user = nullptr;
  Nodes.clear(); // child graphs unregister themselves
}

bool Graph::owns(const GraphNode *N) const { return N && N->owner == this && graphs().live(N); }

llvm::Expected<GraphNode *> Graph::add(GraphNodeKind K, llvm::ArrayRef<GraphNode *> Deps) {
  for (GraphNode *D : Deps)
    if (!owns(D)) return makeError(Errc::InvalidValue, "a dependency is not a node of this graph");
  for (size_t I = 0; I < Deps.size(); ++I)
    for (size_t J = I + 1; J < Deps.size(); ++J)
      if (Deps[I] == Deps[J]) return makeError(Errc::InvalidValue, "a dependency is listed twice");
  auto N = std::make_unique<GraphNode>();
  N->kind = K;
  N->owner = this;
  for (GraphNode *D : Deps) {
    N->deps.push_back(D);
    D->dependents.push_back(N.get());
  }
  GraphNode *Raw = N.get();
  Nodes.push_back(std::move(N));
  GraphRegistry &R = graphs();
  std::lock_guard<std::mutex> G(R.Mu);
  R.Nodes.insert(Raw);
  return Raw;
}

llvm::Expected<GraphNode *> Graph::addChild(const Graph &Child, llvm::ArrayRef<GraphNode *> Deps) {
  if (Child.hasConditionalNodes()) // cudaGraphAddChildGraphNode's documented restriction
    return makeError(Errc::InvalidValue, "a child graph may not hold conditional nodes");
  auto N = add(GraphNodeKind::ChildGraph, Deps);
  if (!N) return N.takeError();
  (*N)->child = Child.clone();
  return *N;
}

llvm::Error Graph::addEdge(GraphNode *From, GraphNode *To) {
  if (!owns(From) || !owns(To)) return makeError(Errc::InvalidValue, "an edge's node is not a node of this graph");
  if (From == To) return makeError(Errc::InvalidValue, "an edge from a node to itself");
  if (std::find(To->deps.begin(), To->deps.end(), From) != To->deps.end())
    return makeError(Errc::InvalidValue, "the edge exists already");
  To->deps.push_back(From);
  From->dependents.push_back(To);
  return llvm::Error::success();
}

llvm::Error Graph::removeEdge(GraphNode *From, GraphNode *To) {
  if (!owns(From) || !owns(To)) return makeError(Errc::InvalidValue, "an edge's node is not a node of this graph");
  auto It = std::find(To->deps.begin(), To->deps.end(), From);
  if (It == To->deps.end()) return makeError(Errc::InvalidValue, "no such edge");
  To->deps.erase(It);
  From->dependents.erase(std::find(From->dependents.begin(), From->dependents.end(), To));
  return llvm::Error::success();
}

llvm::Error Graph::destroyNode(GraphNode *N) {
  if (!owns(N)) return makeError(Errc::InvalidValue, "not a node of this graph");
  for (GraphNode *D : N->deps) D->dependents.erase(std::find(D->dependents.begin(), D->dependents.end(), N));
  for (GraphNode *D : N->dependents) D->deps.erase(std::find(D->deps.begin(), D->deps.end(), N));
  {
    GraphRegistry &R = graphs();
    std::lock_guard<std::mutex> G(R.Mu);
    R.Nodes.erase(N);
  }
  if (N->cond && N->cond->user == N) N->cond->user = nullptr; // the handle may get another node
  auto It = std::find_if(Nodes.begin(), Nodes.end(), [&](auto &P) { return P.get() == N; });
  std::unique_ptr<GraphNode> Dead = std::move(*It);
  Nodes.erase(It);
  return llvm::Error::success();
}

std::vector<GraphNode *> Graph::roots() const {
  std::vector<GraphNode *> R;
  for (auto &N : Nodes)
    if (N->deps.empty()) R.push_back(N.get());
  return R;
}

std::vector<std::pair<GraphNode *, GraphNode *>> Graph::edges() const {
  std::vector<std::pair<GraphNode *, GraphNode *>> R;
  for (auto &N : Nodes)
    for (GraphNode *D : N->deps) R.push_back({D, N.get()});
  return R;
}

std::unique_ptr<Graph> Graph::clone(std::map<const GraphNode *, GraphNode *> *Map) const {
  std::unique_ptr<Graph> C(new Graph);
  std::map<const GraphNode *, GraphNode *> M;
  for (auto &N : Nodes) {
    auto Copy = std::make_unique<GraphNode>();
    Copy->kind = N->kind;
    Copy->owner = C.get();
    Copy->kernel = N->kernel;
    Copy->copy = N->copy;
    Copy->fill = N->fill;
    Copy->host = N->host;
    Copy->event = N->event;
    Copy->alloc = N->alloc;
    Copy->freePtr = N->freePtr;
    Copy->enabled = N->enabled;
    Copy->clonedFrom = N.get();
    if (N->child) Copy->child = N->child->clone();
    Copy->cond = N->cond;
    Copy->condKind = N->condKind;
    for (auto &B : N->bodies) { // body nodes are mapped too: exec-side updates reach them
      std::map<const GraphNode *, GraphNode *> Sub;
      Copy->bodies.push_back(B->clone(&Sub));
      M.insert(Sub.begin(), Sub.end());
      Copy->bodies.back()->Parent = Copy.get();
      Copy->bodyHandles.push_back(Copy->bodies.back().get());
    }
    M[N.get()] = Copy.get();
    C->Nodes.push_back(std::move(Copy));
  }
  for (auto &N : Nodes) {
    GraphNode *Copy = M[N.get()];
    for (GraphNode *D : N->deps) Copy->deps.push_back(M[D]);
    for (GraphNode *D : N->dependents) Copy->dependents.push_back(M[D]);
  }
  {
    GraphRegistry &R = graphs();
    std::lock_guard<std::mutex> G(R.Mu);
    for (auto &N : C->Nodes) R.Nodes.insert(N.get());
  }
  C->Handles = Handles;
  if (Map) *Map = std::move(M);
  return C;
}

bool Graph::hasMemoryNodes() const {
  for (auto &N : Nodes) {
    if (N->kind == GraphNodeKind::MemAlloc || N->kind == GraphNodeKind::MemFree ||
        (N->child && N->child->hasMemoryNodes()))
      return true;
    for (auto &B : N->bodies)
      if (B->hasMemoryNodes()) return true;
  }
  return false;
}

// ---- registry -------------------------------------------------------------------------
Graph *GraphRegistry::create() { return adopt(std::unique_ptr<Graph>(new Graph)); }

Graph *GraphRegistry::adopt(std::unique_ptr<Graph> G) {
  Graph *Raw = G.get();
  std::lock_guard<std::mutex> L(Mu);
  Owned[Raw] = std::move(G);
  return Raw;
}

llvm::Error GraphRegistry::destroy(Graph *G) {
  std::unique_ptr<Graph> Dead;
  {
    std::lock_guard<std::mutex> L(Mu);
    auto It = Owned.find(G);
    if (It == Owned.end())
      return makeError(Errc::InvalidValue, Graphs.count(G) ? "a child graph belongs to its node" : "not a live graph");
    Dead = std::move(It->second);
    Owned.erase(It);
  }
  return llvm::Error::success(); // Dead unregisters itself outside the lock
}

bool GraphRegistry::live(const Graph *G) const {
  std::lock_guard<std::mutex> L(Mu);
  return Graphs.count(G) != 0;
}
bool GraphRegistry::live(const GraphNode *N) const {
  std::lock_guard<std::mutex> L(Mu);
  return Nodes.count(N) != 0;
}
bool GraphRegistry::live(const GraphExec *E) const {
  std::lock_guard<std::mutex> L(Mu);
  return Execs.count(E) != 0;
}

namespace {
// Kahn's algorithm over G; child graphs expanded in place. False on a cycle.
bool flatten(const Graph &G, std::vector<GraphNode *> &Out) {
  std::map<const GraphNode *, size_t> Pending;
  for (auto &N : G.nodes()) Pending[N.get()] = N->deps.size();
  std::vector<GraphNode *> Ready;
  for (auto &N : G.nodes())
    if (N->deps.empty()) Ready.push_back(N.get());
  size_t Done = 0;
  // Creation order among ready nodes: index of each node.
  std::map<const GraphNode *, size_t> Index;
  for (size_t I = 0; I < G.nodes().size(); ++I) Index[G.nodes()[I].get()] = I;
  while (!Ready.empty()) {
    auto It = std::min_element(Ready.begin(), Ready.end(),
                               [&](GraphNode *A, GraphNode *B) { return Index[A] < Index[B]; });
    GraphNode *N = *It;
    Ready.erase(It);
    ++Done;
    if (N->kind == GraphNodeKind::ChildGraph) {
      if (!N->child || !flatten(*N->child, Out)) return false;
    } else if (N->kind == GraphNodeKind::Conditional) { // each body its own order
      N->bodyOrder.assign(N->bodies.size(), {});
      for (size_t I = 0; I < N->bodies.size(); ++I)
        if (!flatten(*N->bodies[I], N->bodyOrder[I])) return false;
      Out.push_back(N);
    } else if (N->kind != GraphNodeKind::Empty) {
      Out.push_back(N);
    }
    for (GraphNode *D : N->dependents)
      if (--Pending[D] == 0) Ready.push_back(D);
  }
  return Done == G.nodes().size();
}
} // namespace

llvm::Expected<GraphExec *> GraphRegistry::instantiate(const Graph &G, uint64_t Flags, int *Result,
                                                       const GraphNode **ErrNode, const Context *Ctx) {
  if (Result) *Result = 0;
  if (ErrNode) *ErrNode = nullptr;
  std::unique_ptr<GraphExec> E(new GraphExec);
  E->Flags = Flags & ~uint64_t(GraphUpload); // the H200 does not report the upload flag back
  E->Copy = G.clone(&E->FromOrig);
  if (!flatten(*E->Copy, E->Order)) {
    if (Result) *Result = 2; // cudaGraphInstantiateInvalidStructure
    if (ErrNode) { // a node on or after the cycle: the first (in creation order) never ordered
      std::set<const GraphNode *> Ordered(E->Order.begin(), E->Order.end());
      for (auto &N : E->Copy->nodes())
        if (N->kind != GraphNodeKind::Empty && N->kind != GraphNodeKind::ChildGraph && !Ordered.count(N.get())) {
          *ErrNode = N->clonedFrom;
          break;
        }
    }
    return makeError(Errc::InvalidValue, "the graph has a cycle");
  }
  if (llvm::Error Unused = E->Copy->checkConditionalHandlesUsed()) return Unused;
  // Conditional bodies hold kernel, copy, memset, empty, child-graph and conditional nodes only
  // (cudaConditionalNodeParams); the first other node decides.
  if (const GraphNode *Bad = firstNodeNotAllowedInBodies(E->Order)) {
    if (Result) *Result = 3; // cudaGraphInstantiateNodeOperationNotSupported
    if (ErrNode) *ErrNode = Bad->clonedFrom;
    return makeError(Errc::InvalidValue, "a conditional node's body holds a node of type " +
                                             std::to_string(int(Bad->kind)) +
                                             " (bodies may hold kernel, memcpy, memset, empty, child-graph and "
                                             "conditional nodes)");
  }
  if (Flags & GraphDeviceLaunch) // device-launchable graphs run on one device: kernel, copy and memset nodes
    for (GraphNode *N : E->Order) {
      // The H200's answers (tests/graphs/golden/graph_mem*.out): a copy touching host memory is
      // cudaGraphInstantiateMultipleDevicesNotSupported (4), any other node but kernel / copy /
      // memset cudaGraphInstantiateNodeOperationNotSupported (3) naming it; the first decides.
      auto Device = [&](uint64_t P) {
        auto A = Ctx ? Ctx->memory().find(P) : std::optional<Allocation>(Allocation{});
        return A && A->kind == MemoryKind::Device;
      };
      int Why = 0;
      if (N->kind == GraphNodeKind::Memcpy && (!Device(N->copy.dst) || !Device(N->copy.src))) Why = 4;
      else if (N->kind != GraphNodeKind::Kernel && N->kind != GraphNodeKind::Memcpy && N->kind != GraphNodeKind::Memset)
        Why = 3;
      if (!Why) continue;
      if (Result) *Result = Why;
      if (ErrNode && Why == 3) *ErrNode = N->clonedFrom;
      return makeError(Errc::InvalidValue, Why == 4 ? "a graph for device launch copies to or from host memory"
                                                    : "a graph for device launch holds a node that cannot run on the device");
    }
  GraphExec *Raw = E.get();
  std::lock_guard<std::mutex> L(Mu);
  Execs[Raw] = std::move(E);
  return Raw;
}

llvm::Error GraphRegistry::destroy(GraphExec *E) {
  std::unique_ptr<GraphExec> Dead;
  {
    std::lock_guard<std::mutex> L(Mu);
    auto It = Execs.find(E);
    if (It == Execs.end()) return makeError(Errc::InvalidValue, "not a live executable graph");
    Dead = std::move(It->second);
    Execs.erase(It);
  }
  return llvm::Error::success();
}

// ---- executable graphs ---------------------------------------------------------------
GraphExec::~GraphExec() = default;

GraphNode *GraphExec::nodeFor(const GraphNode *Orig) const {
  auto It = FromOrig.find(Orig);
  return It == FromOrig.end() ? nullptr : It->second;
}

namespace {
llvm::Error runFill(Stream &S, const FillNodeParams &F) {
  uint64_t RowBytes = F.width * F.elementSize;
  if (F.height <= 1 || F.pitch == RowBytes) return S.fill(F.dst, F.value, F.elementSize, F.width * F.height);
  for (uint64_t Y = 0; Y < F.height; ++Y)
    if (llvm::Error E = S.fill(F.dst + Y * F.pitch, F.value, F.elementSize, F.width)) return E;
  return llvm::Error::success();
}
} // namespace

llvm::Error runGraphNode(Stream &S, const GraphNode &N, const std::shared_ptr<const Graph> &Keep) {
  if (!N.enabled) return llvm::Error::success(); // a disabled node runs as an empty one
  switch (N.kind) {
  case GraphNodeKind::Kernel:
    return S.launch(*N.kernel.function, N.kernel.config, llvm::ArrayRef<uint8_t>(N.kernel.args));
  case GraphNodeKind::Memcpy: return S.copy3D(N.copy);
  case GraphNodeKind::Memset: return runFill(S, N.fill);
  case GraphNodeKind::Host:
    if (N.host.call) return S.hostFunc(N.host.call);
    return S.hostFunc([Fn = N.host.fn, U = N.host.user] { Fn(U); });
  case GraphNodeKind::EventRecord: return N.event->record(S);
  case GraphNodeKind::EventWait: return S.waitEvent(*N.event);
  case GraphNodeKind::Conditional: return runConditional(S, N, Keep);
  case GraphNodeKind::ChildGraph:
  case GraphNodeKind::Empty:
  case GraphNodeKind::MemAlloc: // the memory is reserved; its live state changes at submission
  case GraphNodeKind::MemFree: return llvm::Error::success();
  }
  return llvm::Error::success();
}

llvm::Error GraphExec::launch(Stream &S) {
  if (auto Refused = captureGraphLaunch(S)) return std::move(*Refused);
  // Graph memory: a launch that would allocate what an earlier launch allocated and nobody
  // freed is refused, unless the executable graph frees on launch; the states change in
  // submission order (the host's order of launches and frees).
  MemoryRegistry &Mem = S.context().device().memory();
  if (!(Flags & GraphAutoFreeOnLaunch))
    for (GraphNode *N : Order)
      if (N->kind == GraphNodeKind::MemAlloc && N->alloc) {
        auto A = Mem.find(N->alloc->base());
        if (A && A->graphLive)
          return makeError(Errc::InvalidValue, "the graph's allocation at 0x" + llvm::utohexstr(A->base) +
                                                   " from an earlier launch is not freed");
      }
  for (GraphNode *N : Order) {
    if (N->kind == GraphNodeKind::MemAlloc && N->alloc)
      Mem.update(N->alloc->base(), [](Allocation &A) { A.graphLive = true; });
    if (N->kind == GraphNodeKind::MemFree) Mem.update(N->freePtr, [](Allocation &A) { A.graphLive = false; });
  }
  if (llvm::Error E = assignConditionDefaults(S, Order)) return E;
  for (GraphNode *N : Order)
    if (llvm::Error E = runGraphNode(S, *N, Copy)) return E;
  return llvm::Error::success();
}

namespace {
// Same node count, kinds and edges (by creation index), recursively.
bool sameShape(const Graph &A, const Graph &B, GraphUpdateResult &R, const GraphNode **Err) {
  if (A.nodes().size() != B.nodes().size()) {
    R = GraphUpdateResult::TopologyChanged;
    return false;
  }
  std::map<const GraphNode *, size_t> IA, IB;
  for (size_t I = 0; I < A.nodes().size(); ++I) IA[A.nodes()[I].get()] = I, IB[B.nodes()[I].get()] = I;
  for (size_t I = 0; I < A.nodes().size(); ++I) {
    const GraphNode &X = *A.nodes()[I], &Y = *B.nodes()[I];
    if (Err) *Err = &Y;
    if (X.kind != Y.kind) {
      R = GraphUpdateResult::NodeTypeChanged;
      return false;
    }
    std::vector<size_t> DX, DY;
    for (GraphNode *D : X.deps) DX.push_back(IA[D]);
    for (GraphNode *D : Y.deps) DY.push_back(IB[D]);
    std::sort(DX.begin(), DX.end());
    std::sort(DY.begin(), DY.end());
    if (DX != DY) {
      R = GraphUpdateResult::TopologyChanged;
      return false;
    }
    if (X.kind == GraphNodeKind::ChildGraph && !sameShape(*X.child, *Y.child, R, Err)) return false;
    if (X.kind == GraphNodeKind::Conditional) { // conditional parameters cannot change; bodies may
      if (X.condKind != Y.condKind || X.bodies.size() != Y.bodies.size() || X.cond != Y.cond) {
        R = GraphUpdateResult::ParametersChanged;
        return false;
      }
      for (size_t B = 0; B < X.bodies.size(); ++B)
        if (!sameShape(*X.bodies[B], *Y.bodies[B], R, Err)) return false;
    }
    if (X.kind == GraphNodeKind::Kernel && &X.kernel.function->module().context() !=
                                               &Y.kernel.function->module().context()) {
      R = GraphUpdateResult::FunctionChanged;
      return false;
    }
  }
  if (Err) *Err = nullptr;
  return true;
}

void takeParams(Graph &Dst, const Graph &Src) {
  for (size_t I = 0; I < Dst.nodes().size(); ++I) {
    GraphNode &D = *Dst.nodes()[I];
    const GraphNode &S = *Src.nodes()[I];
    D.kernel = S.kernel;
    D.copy = S.copy;
    D.fill = S.fill;
    D.host = S.host;
    D.event = S.event;
    if (D.child) takeParams(*D.child, *S.child);
    for (size_t B = 0; B < D.bodies.size(); ++B) takeParams(*D.bodies[B], *S.bodies[B]);
  }
}
} // namespace

llvm::Error GraphExec::setEnabled(const GraphNode *Orig, bool On) {
  GraphNode *N = nodeFor(Orig);
  if (!N) return makeError(Errc::InvalidValue, "not a node of the graph the executable graph was made from");
  if (N->kind != GraphNodeKind::Kernel && N->kind != GraphNodeKind::Memcpy && N->kind != GraphNodeKind::Memset)
    return makeError(Errc::InvalidValue, "only kernel, memcpy and memset nodes can be disabled");
  N->enabled = On;
  return llvm::Error::success();
}

llvm::Expected<bool> GraphExec::enabled(const GraphNode *Orig) const {
  GraphNode *N = nodeFor(Orig);
  if (!N) return makeError(Errc::InvalidValue, "not a node of the graph the executable graph was made from");
  if (N->kind != GraphNodeKind::Kernel && N->kind != GraphNodeKind::Memcpy && N->kind != GraphNodeKind::Memset)
    return makeError(Errc::InvalidValue, "only kernel, memcpy and memset nodes can be disabled");
  return N->enabled;
}

llvm::Error GraphExec::update(const Graph &G, GraphUpdateResult &R, const GraphNode **ErrorNode) {
  R = GraphUpdateResult::Success;
  if (ErrorNode) *ErrorNode = nullptr;
  if (!sameShape(*Copy, G, R, ErrorNode))
    return makeError(Errc::GraphExecUpdateFailure, "the graph's topology or node kinds differ from the executable's");
  takeParams(*Copy, G);
  return llvm::Error::success();
}

} // namespace runtime

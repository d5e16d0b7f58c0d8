//===- runtime/Graph.h - CUDA graphs and stream capture ---------*- C++ -*-===//
//
// CUDA graphs in the core, shared by the runtime API (cudaGraph*) and the
// driver API (cuGraph*). A Graph is a DAG of nodes (kernel, copy, memset,
// host function, child graph, empty, event wait, event record, memory
// allocation / free, conditional; the kinds carry cudaGraphNodeType's numbers); nodes keep their parameters by value
// (kernel arguments copied at the .param layout) so the caller's buffers may
// change after the node is added. A GraphExec is an instantiated graph: a
// private copy of the graph with child graphs flattened into one
// dependency-respecting order; launch() submits that order to a stream (an
// in-order queue, so every dependency holds); launching into a capturing
// stream is refused (StreamCaptureUnsupported, as CUDA 13 answers on the
// H200; child graphs are added explicitly instead). Stream capture turns
// the operations submitted to a capturing stream into nodes instead of
// running them: each capturing stream has a set of "tail" nodes the next
// node depends on; an event recorded in a capture carries the recording
// stream's tail, and a stream that waits on it joins the capture with that
// tail. Calls a capture forbids (synchronising or querying a capturing
// stream, querying an event recorded in it, the legacy stream's implicit
// synchronisation with a capturing blocking stream, potentially unsafe calls
// such as allocation under the global / thread-local modes) fail with CUDA's
// capture errors and invalidate the capture; the answers follow the H200's
// (tests/graphs/golden/graph_errors.out).
//
// Conditional nodes (IF with one body or two (else), WHILE, SWITCH with n
// bodies) own their body graphs; a ConditionalHandle names the 32-bit
// condition word a kernel sets with the device-side cudaGraphSetConditional
// (GraphConditional.cpp describes the execution).
//
// Handles (Graph *, GraphNode *, GraphExec *) are owned by the process's
// graph registry (graphs()), which tells live handles from dead ones.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Launch.h"
#include "runtime/Memory.h"

#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

namespace runtime {

class Array;
class Context;
class Device;
class Event;
class Function;
class Graph;
class GraphNode;
class Stream;

// cudaGraphNodeType / CUgraphNodeType numbering.
enum class GraphNodeKind { Kernel = 0, Memcpy = 1, Memset = 2, Host = 3, ChildGraph = 4, Empty = 5,
                           EventWait = 6, EventRecord = 7, MemAlloc = 10, MemFree = 11, Conditional = 13 };

// cudaGraphConditionalNodeType / CUgraphConditionalNodeType numbering.
enum class ConditionalKind { If = 0, While = 1, Switch = 2 };

// cudaGraphInstantiateFlags / CUgraphInstantiate_flags.
enum GraphInstantiateFlag : uint64_t {
  GraphAutoFreeOnLaunch = 1, GraphUpload = 2, GraphDeviceLaunch = 4, GraphUseNodePriority = 8,
};

// The memory of a graph allocation node (explicit, or cudaMallocAsync in a
// capture): reserved when the node is made, at one address for the life of
// the node and its copies (clones, executable graphs), released when the last
// of them goes. It is "live" from a launch that runs its allocation node to
// the free (a free node, cudaFree / cudaFreeAsync / cuMemFree); a launch while
// it is live fails unless the executable graph frees it on launch
// (GraphAutoFreeOnLaunch). The state is kept in the device's registry.
class GraphAllocation {
public:
  // Reserves Bytes of device memory owned by C (no capture-safety check: the
  // allocation is part of a graph).
  static llvm::Expected<std::shared_ptr<GraphAllocation>> create(Context &C, uint64_t Bytes);
  ~GraphAllocation(); // releases the memory unless its context released it first
  uint64_t base() const { return Base; }
  uint64_t bytes() const { return Bytes; }
  int device() const;

private:
  GraphAllocation(Device &D, const Context *Owner, uint64_t Base, uint64_t Bytes)
      : Dev(&D), Owner(Owner), Base(Base), Bytes(Bytes) {}
  Device *Dev; // devices outlive every graph; a destroyed context may not
  const Context *Owner;
  uint64_t Base, Bytes;
};

// A conditional handle (cudaGraphConditionalHandleCreate): a 32-bit word of
// device memory of the creating context; the handle's value (what kernels
// receive and pass to cudaGraphSetConditional) is the word's device address.
// The word starts at the default value; with assignDefault set every launch
// of an executable graph holding a node of the handle stores the default
// first. Owned by the graph it was created for (and shared by that graph's
// copies: clones, executable graphs); one conditional node may use it.
class ConditionalHandle {
public:
  static llvm::Expected<std::shared_ptr<ConditionalHandle>> create(Context &C, uint32_t Default, bool AssignDefault);
  uint64_t value() const { return Word->base(); }
  uint32_t defaultValue() const { return Default; }
  bool assignDefault() const { return AssignDefault; }
  const GraphNode *user = nullptr; // the node of the creating graph (tree) that uses it

private:
  ConditionalHandle(std::shared_ptr<GraphAllocation> W, uint32_t D, bool A)
      : Word(std::move(W)), Default(D), AssignDefault(A) {}
  std::shared_ptr<GraphAllocation> Word;
  uint32_t Default;
  bool AssignDefault;
};

struct KernelNodeParams {
  Function *function = nullptr;
  const void *handle = nullptr;   // the API's function handle, returned by GetParams
  LaunchConfig config;
  std::vector<uint8_t> args;      // explicit arguments at the kernel's .param layout
  // Copies the arguments (one pointer per argument, CUDA's kernelParams).
  static llvm::Expected<KernelNodeParams> fromPointers(Function &F, const void *Handle, const LaunchConfig &C,
                                                       void **Args);
  // The arguments already packed (cuLaunchKernel's `extra` buffer).
  static llvm::Expected<KernelNodeParams> fromBuffer(Function &F, const void *Handle, const LaunchConfig &C,
                                                     llvm::ArrayRef<uint8_t> Packed);
};

// A copy of depth x height rows of widthBytes (unified addresses; pitches in
// bytes, rows = rows per slice). A 1-D copy has height = depth = 1.
struct CopyNodeParams {
  uint64_t dst = 0, src = 0;
  uint64_t widthBytes = 0, height = 1, depth = 1;
  uint64_t dstPitch = 0, srcPitch = 0, dstRows = 0, srcRows = 0;
  MemcpyKind kind = MemcpyKind::Default;
  // Array endpoints as given (runtime/Texture.h resolveCopy), for the
  // parameter queries; dst / src above are already their addresses.
  const Array *dstArray = nullptr, *srcArray = nullptr;
  uint64_t dstPos[3] = {0, 0, 0}, srcPos[3] = {0, 0, 0}; // x in bytes, y rows, z slices
};

// height rows of width elements (1, 2 or 4 bytes each) set to value.
struct FillNodeParams {
  uint64_t dst = 0;
  uint32_t value = 0;
  unsigned elementSize = 1;
  uint64_t width = 0, height = 1, pitch = 0;
};

struct HostNodeParams {
  void (*fn)(void *) = nullptr;
  void *user = nullptr;
  std::function<void()> call; // instead of fn(user) when set (cudaStreamAddCallback)
};

class GraphNode {
public:
  GraphNodeKind kind;
  Graph *owner = nullptr;
  std::vector<GraphNode *> deps, dependents; // edges, in insertion order
  KernelNodeParams kernel;
  CopyNodeParams copy;
  FillNodeParams fill;
  HostNodeParams host;
  Event *event = nullptr;        // EventRecord / EventWait
  std::shared_ptr<GraphAllocation> alloc; // MemAlloc
  uint64_t freePtr = 0;          // MemFree: the graph allocation it frees
  bool enabled = true;           // cudaGraphNodeSetEnabled (executable graphs' copies)
  std::unique_ptr<Graph> child;  // ChildGraph: the node's own copy
  // Conditional: the handle, the kind and the body graphs (size() of them);
  // in an executable graph, bodyOrder[i] is body i flattened.
  std::shared_ptr<ConditionalHandle> cond;
  ConditionalKind condKind = ConditionalKind::If;
  std::vector<std::unique_ptr<Graph>> bodies;
  std::vector<std::vector<GraphNode *>> bodyOrder;
  std::vector<Graph *> bodyHandles; // the bodies again, as the APIs' phGraph_out array
  const GraphNode *clonedFrom = nullptr; // the node this one is a copy of (compared, never read)
  // Pointers to each kernel argument inside kernel.args (GetParams' kernelParams),
  // valid until the node's parameters change.
  void **kernelParams();

private:
  std::vector<void *> ParamPtrs;
};

class Graph {
public:
  ~Graph();
  const std::vector<std::unique_ptr<GraphNode>> &nodes() const { return Nodes; }
  // A node of kind K depending on Deps (each a live node of this graph).
  llvm::Expected<GraphNode *> add(GraphNodeKind K, llvm::ArrayRef<GraphNode *> Deps);
  // A child-graph node holding a copy of Child (InvalidValue when Child
  // holds conditional nodes, as CUDA documents).
  llvm::Expected<GraphNode *> addChild(const Graph &Child, llvm::ArrayRef<GraphNode *> Deps);
  // A conditional node of kind K with Size empty body graphs, using the
  // handle whose value is Handle (created for this graph or a graph this one
  // is a body of, and not used by another node). InvalidValue for a kind
  // other than If / While / Switch, a size other than 1-2 (If), 1 (While),
  // >= 1 (Switch), an unknown or used handle. GraphConditional.cpp.
  llvm::Expected<GraphNode *> addConditional(uint64_t Handle, ConditionalKind K, unsigned Size,
                                             llvm::ArrayRef<GraphNode *> Deps);
  // cudaGraphConditionalHandleCreate on this graph.
  llvm::Expected<uint64_t> createConditionalHandle(Context &C, uint32_t Default, bool AssignDefault);
  // The conditional node whose body this graph is (null for other graphs).
  GraphNode *parent() const { return Parent; }
  // Whether it (or a child / body graph) holds conditional nodes.
  bool hasConditionalNodes() const;
  // InvalidValue when a conditional handle created for it (or a child / body
  // graph) is used by no conditional node of it: what the H200 answers at
  // instantiation.
  llvm::Error checkConditionalHandlesUsed() const;
  llvm::Error addEdge(GraphNode *From, GraphNode *To);
  llvm::Error removeEdge(GraphNode *From, GraphNode *To);
  llvm::Error destroyNode(GraphNode *N);
  std::vector<GraphNode *> roots() const;
  std::vector<std::pair<GraphNode *, GraphNode *>> edges() const;
  bool owns(const GraphNode *N) const;
  // A copy; Map, when given, receives original -> copy for every node (and
  // for the nodes of conditional bodies; child graphs' nodes are not mapped).
  std::unique_ptr<Graph> clone(std::map<const GraphNode *, GraphNode *> *Map = nullptr) const;
  // Whether it (or a child graph) holds allocation / free nodes.
  bool hasMemoryNodes() const;

  Graph(); // registers the graph as live; the destructor unregisters it and its nodes

private:
  std::vector<std::unique_ptr<GraphNode>> Nodes;
  std::vector<std::shared_ptr<ConditionalHandle>> Handles; // created for this graph
  GraphNode *Parent = nullptr;
};

// cudaGraphExecUpdateResult numbering.
enum class GraphUpdateResult { Success = 0, Error = 1, TopologyChanged = 2, NodeTypeChanged = 3,
                               FunctionChanged = 4, ParametersChanged = 5, NotSupported = 6 };

class GraphExec {
public:
  ~GraphExec();
  uint64_t flags() const { return Flags; }
  // Submits the graph's operations to S in dependency order
  // (StreamCaptureUnsupported when S captures, invalidating the capture).
  llvm::Error launch(Stream &S);
  // The executable graph's copy of a node of the graph it was instantiated
  // from; null when Orig is not one of them.
  GraphNode *nodeFor(const GraphNode *Orig) const;
  // cudaGraphNodeSetEnabled / GetEnabled on the copy of Orig (kernel, copy
  // and memset nodes only: InvalidValue otherwise); a disabled node runs as
  // an empty node.
  llvm::Error setEnabled(const GraphNode *Orig, bool On);
  llvm::Expected<bool> enabled(const GraphNode *Orig) const;
  // cudaGraphExecUpdate: G must have this graph's topology and node kinds;
  // then every node's parameters are taken from G's.
  llvm::Error update(const Graph &G, GraphUpdateResult &R, const GraphNode **ErrorNode);
  const Graph &graph() const { return *Copy; }

private:
  friend class GraphRegistry;
  GraphExec() = default;
  uint64_t Flags = 0;
  std::shared_ptr<Graph> Copy;                       // shared with work in flight (GraphImpl.h)
  std::vector<GraphNode *> Order;                   // flattened, dependency order
  std::map<const GraphNode *, GraphNode *> FromOrig; // instantiated-from node -> copy
};

// The process's graphs, nodes and executable graphs. Graphs made by create()
// and endCapture() are the caller's to destroy(); child graphs belong to
// their node (live, but not destroyable), executable graphs to destroy(E).
class GraphRegistry {
public:
  Graph *create();
  Graph *adopt(std::unique_ptr<Graph> G);
  llvm::Error destroy(Graph *G);
  bool live(const Graph *G) const;
  bool live(const GraphNode *N) const; // a node of a live graph
  // Checks G is acyclic, copies and flattens it. On failure *Result (when
  // given) is cudaGraphInstantiateResult's number (2: a cycle, 3: a node
  // the flags do not allow, e.g. a host node for device launch) and *ErrNode
  // the offending node of G (null when none).
  // Ctx (when given) classifies copy nodes' memory for GraphDeviceLaunch.
  llvm::Expected<GraphExec *> instantiate(const Graph &G, uint64_t Flags, int *Result = nullptr,
                                          const GraphNode **ErrNode = nullptr, const Context *Ctx = nullptr);
  llvm::Error destroy(GraphExec *E);
  bool live(const GraphExec *E) const;

private:
  friend class Graph;
  mutable std::mutex Mu;
  std::set<const Graph *> Graphs;     // every live graph, child graphs included
  std::set<const GraphNode *> Nodes;  // every live node
  std::map<const Graph *, std::unique_ptr<Graph>> Owned;
  std::map<const GraphExec *, std::unique_ptr<GraphExec>> Execs;
};
GraphRegistry &graphs();

// ---- stream capture ---------------------------------------------------------------
// cudaStreamCaptureMode / CUstreamCaptureMode numbering.
enum class CaptureMode { Global = 0, ThreadLocal = 1, Relaxed = 2 };
enum class CaptureStatus { None = 0, Active = 1, Invalidated = 2 };

struct CaptureInfo {
  CaptureStatus status = CaptureStatus::None;
  uint64_t id = 0;
  Graph *graph = nullptr;
  const std::vector<GraphNode *> *deps = nullptr; // valid until the next call on the stream
};

// IllegalState when S already captures; StreamCaptureUnsupported for the legacy stream.
// Into (cudaStreamBeginCaptureToGraph): nodes are added to that graph, the
// first ones depending on Deps (nodes of Into), and endCapture returns it.
llvm::Error beginCapture(Stream &S, CaptureMode M, Graph *Into = nullptr, llvm::ArrayRef<GraphNode *> Deps = {});
// The captured graph (registry-owned): IllegalState when S does not capture,
// StreamCaptureUnmatched when it did not begin the capture, WrongThread,
// Invalidated or Unjoined (the capture then ends without a graph).
llvm::Expected<Graph *> endCapture(Stream &S);
llvm::Expected<CaptureInfo> captureInfo(Stream &S);
// cudaStreamUpdateCaptureDependencies: the nodes S's next captured node
// depends on become Nodes (Set) or gain them (nodes of the graph being
// captured, e.g. a conditional node added with cudaGraphAddNode).
llvm::Error updateCaptureDependencies(Stream &S, llvm::ArrayRef<GraphNode *> Nodes, bool Set);
// cudaThreadExchangeStreamCaptureMode: the calling thread's interaction mode.
CaptureMode exchangeThreadCaptureMode(CaptureMode M);

// ---- graph memory (stream-ordered allocation) --------------------------------------
// cudaMallocAsync / cuMemAllocAsync: a MemAlloc node while S captures, else a
// plain device allocation. cudaFreeAsync / cuMemFreeAsync: a MemFree node of
// a graph allocation while S captures, else the allocation is freed.
llvm::Expected<uint64_t> allocAsync(Stream &S, uint64_t Bytes);
llvm::Error freeAsync(Stream &S, uint64_t Ptr);
// An explicit allocation node (cudaGraphAddMemAllocNode) of Bytes in C.
llvm::Expected<GraphNode *> addAllocNode(Graph &G, Context &C, uint64_t Bytes, llvm::ArrayRef<GraphNode *> Deps);
// A free node of the graph allocation at Ptr (InvalidValue otherwise).
llvm::Expected<GraphNode *> addFreeNode(Graph &G, Context &C, uint64_t Ptr, llvm::ArrayRef<GraphNode *> Deps);

// ---- conventions shared by the runtime- and driver-API graph entry points ----

/// Node lists (cudaGraphGetNodes / cuGraphGetNodes and the dependency
/// queries): with Out, *Count in is the room there; it is filled with handles
/// (null past the end of the list) and *Count lowered to how many exist;
/// without Out, *Count = how many exist. False when Count is null.
template <typename Handle, typename ToHandle>
bool copyNodeList(const std::vector<GraphNode *> &L, Handle *Out, size_t *Count, ToHandle toHandle) {
  if (!Count) return false;
  if (Out) {
    for (size_t I = 0; I < *Count; ++I) Out[I] = I < L.size() ? toHandle(L[I]) : nullptr;
    if (*Count > L.size()) *Count = L.size();
  } else {
    *Count = L.size();
  }
  return true;
}

/// True when every edge-data record (cudaGraphEdgeData / CUgraphEdgeData) is
/// all zero: the default edge, the only kind the core's graphs have.
template <typename EdgeData> bool allDefaultEdges(const EdgeData *E, size_t N) {
  static const EdgeData Zero{};
  for (size_t I = 0; E && I < N; ++I)
    if (std::memcmp(&E[I], &Zero, sizeof Zero) != 0) return false;
  return true;
}

} // namespace runtime

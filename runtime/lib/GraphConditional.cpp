//===- GraphConditional.cpp - conditional graph nodes (runtime/Graph.h) ------===//
//
// CUDA's conditional nodes (cudaConditionalNodeParams / CUDA_CONDITIONAL_NODE_PARAMS):
// IF runs body 0 when the condition is non-zero and, with size 2, body 1 when
// it is zero; WHILE runs body 0 as long as the condition is non-zero (tested
// before every round); SWITCH runs body n when the condition equals n and
// nothing when it is >= size. The condition is a 32-bit word of device memory
// named by a ConditionalHandle; device code sets it with
// cudaGraphSetConditional(handle, value), which ptx-to-llvm routes to the
// device library's __ptx_graph_set_conditional (a store of value to the
// word at the handle's address).
//
// Execution: the conditional node is one host function queued on the launch
// stream, so it runs on the stream's worker after every earlier node (the
// stream is in order). It reads the word back and submits the chosen body's
// flattened nodes to a private non-blocking stream of the same context (no
// implicit synchronisation with the legacy stream, never captured), waits for
// them, and for WHILE reads the word again. A nested conditional node does
// the same on the body's stream. Errors of body nodes are recorded on the
// context like any stream failure (a kernel fault is sticky and ends the
// evaluation). Known difference: the word belongs to the handle, not to an
// executable graph, so two executable graphs of one graph launched at the
// same time share their conditions.
//
//===----------------------------------------------------------------------===//
#include "GraphImpl.h"

#include "runtime/Context.h"

#include "llvm/ADT/StringExtras.h"

#include <set>

namespace runtime {

namespace {
// Writes V to the word at Addr and waits (pageable source: done on return), on a private
// non-blocking stream so neither the legacy stream nor a capture is involved.
llvm::Error writeWord(Context &C, uint64_t Addr, uint32_t V) {
  Stream S(C, StreamKind::NonBlocking, 0);
  return S.copy(Addr, reinterpret_cast<uint64_t>(&V), sizeof V, MemcpyKind::HostToDevice);
}
} // namespace

llvm::Expected<std::shared_ptr<ConditionalHandle>> ConditionalHandle::create(Context &C, uint32_t Default,
                                                                             bool AssignDefault) {
  auto W = GraphAllocation::create(C, sizeof(uint32_t));
  if (!W) return W.takeError();
  if (llvm::Error E = writeWord(C, (*W)->base(), Default)) return E;
  return std::shared_ptr<ConditionalHandle>(new ConditionalHandle(std::move(*W), Default, AssignDefault));
}

llvm::Expected<uint64_t> Graph::createConditionalHandle(Context &C, uint32_t Default, bool AssignDefault) {
  auto H = ConditionalHandle::create(C, Default, AssignDefault);
  if (!H) return H.takeError();
  Handles.push_back(*H);
  return (*H)->value();
}

llvm::Expected<GraphNode *> Graph::addConditional(uint64_t Handle, ConditionalKind K, unsigned Size,
                                                  llvm::ArrayRef<GraphNode *> Deps) {
  switch (K) {
  case ConditionalKind::If:
    if (Size != 1 && Size != 2)
      return makeError(Errc::InvalidValue, "an IF conditional node has 1 or 2 bodies, not " + std::to_string(Size));
    break;
  case ConditionalKind::While:
    if (Size != 1)
      return makeError(Errc::InvalidValue, "a WHILE conditional node has 1 body, not " + std::to_string(Size));
    break;
  case ConditionalKind::Switch:
    if (Size == 0) return makeError(Errc::InvalidValue, "a SWITCH conditional node needs at least 1 body");
    break;
  default:
    return makeError(Errc::InvalidValue, "conditional node type " + std::to_string(int(K)) +
                                             " (0 IF, 1 WHILE, 2 SWITCH)");
  }
  // The handle: created for this graph or for a graph this one is (recursively) a body of.
  std::shared_ptr<ConditionalHandle> H;
  for (const Graph *G = this; G && !H; G = G->Parent ? G->Parent->owner : nullptr)
    for (auto &X : G->Handles)
      if (X->value() == Handle) H = X;
  if (!H)
    return makeError(Errc::InvalidValue, "0x" + llvm::utohexstr(Handle) +
                                             " is not a conditional handle of this graph or of a graph it is a body of");
  if (H->user && graphs().live(H->user))
    return makeError(Errc::InvalidValue, "the conditional handle 0x" + llvm::utohexstr(Handle) +
                                             " is used by another conditional node");
  auto N = add(GraphNodeKind::Conditional, Deps);
  if (!N) return N.takeError();
  (*N)->cond = H;
  (*N)->condKind = K;
  for (unsigned I = 0; I < Size; ++I) {
    (*N)->bodies.push_back(std::make_unique<Graph>());
    (*N)->bodies.back()->Parent = *N;
    (*N)->bodyHandles.push_back((*N)->bodies.back().get());
  }
  H->user = *N;
  return *N;
}

bool Graph::hasConditionalNodes() const {
  for (auto &N : Nodes)
    if (N->kind == GraphNodeKind::Conditional || (N->child && N->child->hasConditionalNodes())) return true;
  return false;
}

namespace {
void handlesOf(const Graph &G, std::set<const ConditionalHandle *> &Used) {
  for (auto &N : G.nodes()) {
    if (N->cond) Used.insert(N->cond.get());
    if (N->child) handlesOf(*N->child, Used);
    for (auto &B : N->bodies) handlesOf(*B, Used);
  }
}
} // namespace

llvm::Error Graph::checkConditionalHandlesUsed() const {
  std::set<const ConditionalHandle *> Used;
  handlesOf(*this, Used);
  std::vector<const Graph *> Work{this};
  while (!Work.empty()) {
    const Graph *G = Work.back();
    Work.pop_back();
    for (auto &H : G->Handles)
      if (!Used.count(H.get()))
        return makeError(Errc::InvalidValue, "the conditional handle 0x" + llvm::utohexstr(H->value()) +
                                                 " is used by no conditional node of the graph");
    for (auto &N : G->Nodes) {
      if (N->child) Work.push_back(N->child.get());
      for (auto &B : N->bodies) Work.push_back(B.get());
    }
  }
  return llvm::Error::success();
}

namespace {
void collectNodes(llvm::ArrayRef<GraphNode *> Order, std::vector<const GraphNode *> &Out) {
  for (const GraphNode *N : Order) {
    Out.push_back(N);
    for (auto &B : N->bodyOrder) collectNodes(B, Out);
  }
}

// Runs N's body chosen by its word, on Body (WHILE: while the word is non-zero).
llvm::Error evaluate(Stream &Body, const GraphNode &N, const std::shared_ptr<const Graph> &Keep) {
  for (;;) {
    uint32_t V = 0;
    if (llvm::Error E = Body.copy(reinterpret_cast<uint64_t>(&V), N.cond->value(), sizeof V, MemcpyKind::DeviceToHost))
      return E;
    size_t Pick = N.bodyOrder.size(); // none
    switch (N.condKind) {
    case ConditionalKind::If: Pick = V ? 0 : 1; break; // body 1 exists only for size 2
    case ConditionalKind::While: Pick = V ? 0 : Pick; break;
    case ConditionalKind::Switch: Pick = V; break;
    }
    if (Pick >= N.bodyOrder.size()) return llvm::Error::success();
    for (GraphNode *B : N.bodyOrder[Pick])
      if (llvm::Error E = runGraphNode(Body, *B, Keep)) return E;
    if (llvm::Error E = Body.drain()) return E;
    if (N.condKind != ConditionalKind::While) return llvm::Error::success();
  }
}
} // namespace

llvm::Error runConditional(Stream &S, const GraphNode &N, const std::shared_ptr<const Graph> &Keep) {
  Context *C = &S.context();
  const GraphNode *Np = &N;
  return S.hostFunc([C, Np, Keep] {
    Stream Body(*C, StreamKind::NonBlocking, 0);
    if (llvm::Error E = evaluate(Body, *Np, Keep)) {
      std::string Msg;
      Errc Code = takeErrc(std::move(E), &Msg);
      if (C->stickyCode() == Errc::Success) // a body's kernel fault is recorded already
        C->recordFailure(Code, "conditional graph node: " + Msg);
    }
  });
}

llvm::Error assignConditionDefaults(Stream &S, llvm::ArrayRef<GraphNode *> Order) {
  std::vector<const GraphNode *> All;
  collectNodes(Order, All);
  std::set<const ConditionalHandle *> Done;
  for (const GraphNode *N : All)
    if (N->cond && N->cond->assignDefault() && Done.insert(N->cond.get()).second)
      if (llvm::Error E = S.fill(N->cond->value(), N->cond->defaultValue(), sizeof(uint32_t), 1)) return E;
  return llvm::Error::success();
}

const GraphNode *firstNodeNotAllowedInBodies(llvm::ArrayRef<GraphNode *> Order) {
  for (const GraphNode *N : Order)
    for (auto &B : N->bodyOrder) {
      std::vector<const GraphNode *> All;
      collectNodes(B, All);
      for (const GraphNode *X : All)
        if (X->kind != GraphNodeKind::Kernel && X->kind != GraphNodeKind::Memcpy &&
            X->kind != GraphNodeKind::Memset && X->kind != GraphNodeKind::Conditional)
          return X;
    }
  return nullptr;
}

} // namespace runtime

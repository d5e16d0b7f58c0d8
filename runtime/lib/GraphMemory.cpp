//===- GraphMemory.cpp - graph allocation / free nodes (runtime/Graph.h) -----------===//
//
// A graph allocation is ordinary device memory of the owning context, marked
// as graph memory in the device's registry with its live state; the launch
// rules (GraphExec::launch) and the frees (Context::free, free nodes) only
// flip that state, so the address stays the graph's until the last node
// holding the allocation is destroyed.
//
//===----------------------------------------------------------------------===//
#include "CaptureImpl.h"
#include "ContextImpl.h"

#include "runtime/Device.h"

namespace runtime {

llvm::Expected<std::shared_ptr<GraphAllocation>> GraphAllocation::create(Context &C, uint64_t Bytes) {
  if (Bytes == 0) return makeError(Errc::InvalidValue, "a graph allocation of 0 bytes");
  auto B = C.allocateGraphMemory(Bytes);
  if (!B) return B.takeError();
  return std::shared_ptr<GraphAllocation>(new GraphAllocation(C.device(), &C, *B, Bytes));
}

GraphAllocation::~GraphAllocation() {
  // Only the record this allocation made (its context may have freed it on reset / destroy).
  auto A = Dev->memory().find(Base);
  if (!A || A->base != Base || !A->graphMemory || A->owner != Owner) return;
  Dev->memory().erase(Base);
  llvm::consumeError(Dev->backend().freeDevice(Base));
}

int GraphAllocation::device() const { return int(Dev->ordinal()); }

llvm::Expected<GraphNode *> addAllocNode(Graph &G, Context &C, uint64_t Bytes, llvm::ArrayRef<GraphNode *> Deps) {
  auto A = GraphAllocation::create(C, Bytes);
  if (!A) return A.takeError();
  auto N = G.add(GraphNodeKind::MemAlloc, Deps);
  if (!N) return N.takeError();
  (*N)->alloc = std::move(*A);
  return *N;
}

namespace {
llvm::Error checkGraphPointer(Context &C, uint64_t Ptr) {
  auto A = C.memory().find(Ptr);
  if (!A || A->base != Ptr || !A->graphMemory)
    return makeError(Errc::InvalidValue, "0x" + llvm::utohexstr(Ptr) + " is not the address of a graph allocation");
  return llvm::Error::success();
}
} // namespace

llvm::Expected<GraphNode *> addFreeNode(Graph &G, Context &C, uint64_t Ptr, llvm::ArrayRef<GraphNode *> Deps) {
  if (llvm::Error E = checkGraphPointer(C, Ptr)) return E;
  auto N = G.add(GraphNodeKind::MemFree, Deps);
  if (!N) return N.takeError();
  (*N)->freePtr = Ptr;
  return *N;
}

llvm::Expected<uint64_t> allocAsync(Stream &S, uint64_t Bytes) {
  auto Info = captureInfo(S);
  if (!Info) return Info.takeError();
  if (Info->status != CaptureStatus::Active) {
    if (Bytes == 0) return makeError(Errc::InvalidValue, "an allocation of 0 bytes");
    return S.context().allocate(Bytes, MemoryKind::Device);
  }
  auto A = GraphAllocation::create(S.context(), Bytes);
  if (!A) return A.takeError();
  uint64_t Base = (*A)->base();
  if (auto Captured = captureNode(S, GraphNodeKind::MemAlloc, [&](GraphNode &N) { N.alloc = *A; }))
    if (*Captured) return std::move(*Captured);
  return Base;
}

llvm::Error freeAsync(Stream &S, uint64_t Ptr) {
  auto Info = captureInfo(S);
  if (!Info) return Info.takeError();
  if (Info->status != CaptureStatus::Active) return S.context().free(Ptr, MemoryKind::Device);
  if (llvm::Error E = checkGraphPointer(S.context(), Ptr)) return E;
  if (auto Captured = captureNode(S, GraphNodeKind::MemFree, [&](GraphNode &N) { N.freePtr = Ptr; }))
    return std::move(*Captured);
  return llvm::Error::success();
}

} // namespace runtime

//===- GraphImpl.h - graph execution internals shared by Graph.cpp / GraphConditional.cpp -*- C++ -*-===//
//
// The executor's pieces: submitting one node of an executable graph to a
// stream (Keep holds the executable graph's copy alive until work that still
// reads its nodes has run: a conditional node is evaluated on the stream's
// worker after the launch returned, perhaps after cudaGraphExecDestroy), the
// evaluation of a conditional node, the default values of the condition
// words stored at the start of a launch, and the check of the node kinds a
// conditional body may hold.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "runtime/Graph.h"
#include "runtime/Stream.h"

namespace runtime {

llvm::Error runGraphNode(Stream &S, const GraphNode &N, const std::shared_ptr<const Graph> &Keep);
// Queues N's evaluation on S: after S's earlier work, the condition word is
// read back and the chosen body runs (WHILE: again while the word is non-zero).
llvm::Error runConditional(Stream &S, const GraphNode &N, const std::shared_ptr<const Graph> &Keep);
// Stores the default of every handle with assignDefault that a conditional
// node of Order (or of its bodies, recursively) uses, in S's order.
llvm::Error assignConditionDefaults(Stream &S, llvm::ArrayRef<GraphNode *> Order);
// The first node of a flattened conditional body (recursively) that bodies
// may not hold, or null.
const GraphNode *firstNodeNotAllowedInBodies(llvm::ArrayRef<GraphNode *> Order);

} // namespace runtime

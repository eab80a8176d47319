// TF's grappler, as TF 2.21 runs it on every function graph before the function runs (tf.function
// calls, SavedModel signatures, control-flow branches): the graph its meta-optimizer makes, for the
// rewrites that change what a graph computes or how it rounds. The Executor runs this graph; the
// traced graph (what as_graph_def, export and the reports show) stays as traced, as in TF.
//
// Passes, in TF's order, two iterations: pruning (trivial Identity nodes, dead nodes), common
// subgraph elimination (duplicates merged, inputs of commutative ops sorted by name), constant
// folding (BroadcastGradientArgs of shapes whose broadcast the symbolic shapes decide
// materialized, nodes of constants, one constant per output of a multi-output node, reductions
// over no axes as Identities, division by a constant as a product with its reciprocal,
// ConstantPushDown, an AddN's constants summed apart), the arithmetic optimizer's stages
// (AddOpsRewrite, FoldTransposeIntoMatMul, MinimizeBroadcasts, RemoveRedundantReshapeOrBroadcastTo,
// ReplaceMulWithSquare, SqrtDivToRsqrtMul, ConvertPow, ConvertLog1p, LogSoftmax, ConvertExpm1,
// FuseSquaredDiff), the dependency optimizer (Identities with control inputs bypassed, nodes only
// control edges leave removed, control edges a data path implies dropped).
// Node names are grappler's: a node rewritten in place keeps its name, a new one is named as TF
// names it ("ArithmeticOptimizer/AddOpsRewrite_add_1", "ConstantFolding/truediv_recip",
// "ConstantFolding/<node>-bcastargs-0", "ConstantFolding/<node>-folded-1",
// "ConstantFolding/AddN_partial_split_2").
#pragma once

#include <memory>
#include <vector>

#include "tfscope/graph.h"

namespace tfs::grappler {

struct Item {
  std::shared_ptr<const Graph> graph;
  std::vector<Node*> feeds;     // in the order given
  std::vector<Output> fetches;  // in the order given
  std::vector<Node*> targets;
};

// The graph TF's meta-optimizer makes of `graph` for these feeds, fetches and targets; `graph`
// itself (and the same pointers) when no pass changes anything.
Item optimize(std::shared_ptr<const Graph> graph, std::vector<Node*> feeds,
              std::vector<Output> fetches, std::vector<Node*> targets);

// Whether the Executor optimizes graphs (on unless TFSCOPE_GRAPPLER=0; for tests and diagnosis).
bool enabled();

}  // namespace tfs::grappler

// The grappler passes tfscope reproduces, each over an MGraph, in the meta-optimizer's order.
#pragma once

#include "mgraph.h"

namespace tfs::grappler {

// ModelPruner: forwards trivial Identity nodes to their input and drops what no fetch reaches.
void model_pruner(MGraph& g);
// CommonSubgraphElimination: sorts the inputs of commutative ops by name (grappler's
// CanonicalizeNode), then merges stateless nodes with equal op, attrs and inputs into the first.
void common_subgraph_elimination(MGraph& g);
// ConstantFolding: materializes BroadcastGradientArgs whose reduction indices the symbolic shapes
// decide, folds stateless nodes whose inputs are all constants (TF's kernels, so tfscope's; one
// constant per read output of a multi-output node), then simplifies: reductions over no axes
// become Identities, trivial arithmetic forwards its operand, division by a constant becomes a
// product with its reciprocal, constants are pushed down Add/Mul trees, and an AddN's constants
// are summed in an AddN of their own.
void constant_folding(MGraph& g);
// ArithmeticOptimizer: its stage pipeline over a queue of nodes, last node first.
void arithmetic_optimizer(MGraph& g);

// Remapper: where TF runs oneDNN, Mul(x, Sigmoid(x)) -> _MklSwish(x).
void remapper(MGraph& g);
// DependencyOptimizer, the part that matters here: control edges from constants are dropped
// (a Const runs whenever it is needed), Identity nodes a stage left are bypassed (their control
// inputs passed on to their consumers), stateless nodes that only control edges leave are
// removed (their consumers wait for their inputs), and control edges that a path of other
// inputs already implies are dropped.
void dependency_optimizer(MGraph& g);

// Not a grappler pass: which input of each AddN TF's kernel sums first at run time. The kernel
// takes over the buffer of the first input that only it holds (an intermediate result whose
// other consumers are all ancestors of the AddN, so they have run and dropped their references;
// not an argument, a constant, a variable or a fetched value) and swaps that input with input 0;
// the attr "_forward_input" tells tfscope's kernel.
void annotate_add_n_forwarding(MGraph& g);

// Helpers shared by the passes.
const OpDef& op_def(const std::string& name);
// Gives node `n` TF's op `op` (tfscope's definition of the same computation where it has no
// `op` of its own).
void set_op(MGraph& g, int n, const std::string& op);
// Makes node `n` a Const holding `value` (control inputs kept).
void make_const(MGraph& g, int n, const Tensor& value);

}  // namespace tfs::grappler

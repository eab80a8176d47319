// Graph passes over a function body: dead-code elimination, constant folding and common-
// subexpression elimination. Each returns how many nodes it removed or replaced and keeps the
// function's outputs computing the same values.
#pragma once

#include "tfscope/graph.h"

namespace tfs {

// Removes nodes that neither the outputs nor the control outputs reach. Arguments stay.
int dead_code_elimination(GraphFunction& fn);
// Evaluates stateless nodes whose inputs are all constants and replaces them with Const nodes.
int constant_folding(GraphFunction& fn);
// Whether constant folding may evaluate `n` once its inputs are known constants: stateless, with
// inputs and no control inputs, not a Const/Placeholder/Identity, no control flow or call.
bool is_foldable_op(const Node& n);
// Merges stateless nodes with the same op, attrs and inputs.
int common_subexpression_elimination(GraphFunction& fn);
// All three, to a fixed point.
void optimize(GraphFunction& fn);

}  // namespace tfs

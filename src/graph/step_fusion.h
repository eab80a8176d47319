// Plan steps that run several nodes at once (executor.cc), where what the nodes compute between
// them is seen by nothing else: no other input, fetch, target or control edge reads it. The step
// takes the place (and the output slots) of the chain's last node and reads the chain's outside
// inputs. Its kernel computes in one pass what the nodes' kernels compute, with their bits; where
// its inputs are not what it expects, and while an OpProfile records (which times each node),
// it runs the nodes' kernels in turn, as their steps would. The graph and its GraphReport are
// unchanged. Internal to src/graph.
//   - A dense layer: BiasAdd(MatMul(a, w), b) [-> Relu], float32 (src/ops/dense_step.h).
//   - A weight's SGD update at batch 1: AssignSubVariableOp(v, Mul(s, MatMul(x, dy))) with k = 1
//     in the MatMul and a scalar s (src/ops/sgd_update.h), where the MatMul is the rank-1 loop.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "tfscope/graph.h"

namespace tfs::detail {

struct StepFusion {
  std::vector<Output> inputs;         // the step's inputs, in the order its kernel reads them
  std::vector<const Node*> absorbed;  // the chain's other nodes, which get no step of their own
  Kernel kernel;
};

// The fusions of the nodes a plan runs (`needed`, less `fed`), keyed by the node whose place
// each takes; `function` names the plan in profile events.
std::map<const Node*, StepFusion> find_step_fusions(const std::set<const Node*>& needed,
                                                    const std::set<const Node*>& fed,
                                                    const std::vector<Output>& fetches,
                                                    const std::vector<Node*>& targets,
                                                    const std::string& function);

}  // namespace tfs::detail

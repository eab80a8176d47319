// tf.cond and tf.while_loop. Eagerly they run the Python-level control flow directly; while a
// graph is being built they trace each branch/body into a library function and emit
// If/StatelessIf or While/StatelessWhile (stateless when no body holds a stateful op), as TF's
// cond_v2 and while_v2 do, with TF's error texts for mismatched branches and loop variables.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tfscope/tensor.h"

namespace tfs {

using BranchFn = std::function<std::vector<Tensor>()>;
using LoopCondFn = std::function<Tensor(const std::vector<Tensor>&)>;
using LoopBodyFn = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

std::vector<Tensor> cond(const Tensor& pred, const BranchFn& true_fn, const BranchFn& false_fn,
                         const std::string& name = "cond");

// maximum_iterations < 0: unbounded. shape_invariants (empty, or one entry per loop variable,
// nullopt = the variable's own shape) is the less specific shape a variable may take across
// iterations: the loop functions see it and the While op outputs it, as in TF's while_v2.
std::vector<Tensor> while_loop(const LoopCondFn& cond_fn, const LoopBodyFn& body_fn,
                               const std::vector<Tensor>& loop_vars,
                               int64_t maximum_iterations = -1, const std::string& name = "while",
                               const std::vector<std::optional<PartialShape>>& shape_invariants = {});

}  // namespace tfs

// Sparse reads and updates of variables, and the segment sum that densifies a tf.IndexedSlices
// (kernels in src/ops/sparse_update.cc).
#pragma once

#include <memory>
#include <string>

#include "tfscope/tensor.h"
#include "tfscope/value.h"
#include "tfscope/variable_state.h"

namespace tfs {

// tf.gather(variable, indices) (ResourceVariable.sparse_read): ResourceGather in the name scope
// `name` ("Gather"), the handle captured there as "Gather/resource"; in a graph its output has
// the static shape indices.shape + variable.shape[1:].
Tensor resource_gather(const std::shared_ptr<VariableState>& var, const Value& indices,
                       const std::string& name = "Gather");
// variable.scatter_add/sub/update: `op` is ResourceScatterAdd, ResourceScatterSub or
// ResourceScatterUpdate, the node named `name`.
void resource_scatter(const std::string& op, const std::shared_ptr<VariableState>& var,
                      const Tensor& indices, const Tensor& updates, const std::string& name);
// tf.math.unsorted_segment_sum: rows of `data` summed into num_segments rows by segment id
// (negative ids dropped), in the ids' order.
Tensor unsorted_segment_sum(const Tensor& data, const Tensor& segment_ids,
                            const Tensor& num_segments,
                            const std::string& name = "UnsortedSegmentSum");

}  // namespace tfs

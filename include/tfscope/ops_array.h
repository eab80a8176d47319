// Front-end functions for array ops that ops.h does not declare, mirroring TF's Python wrappers
// (node names, constant conversion of host operands).
#pragma once

#include <cstdint>
#include <vector>

#include "tfscope/tensor.h"

namespace tfs {

// tf.strided_slice: StridedSlice with begin/end/strides as constants (int32 when every value
// fits, else int64) and TF's five masks. An empty `strides` means all ones, as TF's default.
Tensor strided_slice(const Tensor& x, std::vector<int64_t> begin, std::vector<int64_t> end,
                     std::vector<int64_t> strides, int64_t begin_mask = 0, int64_t end_mask = 0,
                     int64_t ellipsis_mask = 0, int64_t new_axis_mask = 0,
                     int64_t shrink_axis_mask = 0);

// tf.gather with batch_dims (tfs::gather in ops.h is batch_dims = 0).
Tensor gather(const Tensor& params, const Tensor& indices, int64_t axis, int64_t batch_dims);

// tf.size with an explicit out_type (int32 or int64).
Tensor size(const Tensor& x, DType out_type);

}  // namespace tfs

// tf.IndexedSlices: a sparse gradient, rows `values` of a dense tensor of shape `dense_shape`
// at row `indices` (TF's indexed_slices.py), as GatherV2's and ResourceGather's gradients make
// it; and the gradient a tape passes around, dense or sparse.
#pragma once

#include <variant>

#include "tfscope/tensor.h"

namespace tfs {

struct IndexedSlices {
  Tensor values;
  Tensor indices;
  Tensor dense_shape;  // undefined: None
};

// ops.convert_to_tensor of an IndexedSlices (TF's _indexed_slices_to_tensor):
// UnsortedSegmentSum(values, indices, dense_shape[0]); a ValueError without dense_shape.
Tensor indexed_slices_to_tensor(const IndexedSlices& s);

// A gradient: a tensor (undefined: None) or an IndexedSlices.
using GradientValue = std::variant<Tensor, IndexedSlices>;

// The gradient as a tensor (an IndexedSlices converted as convert_to_tensor converts it).
Tensor dense_gradient(const GradientValue& g);
bool gradient_defined(const GradientValue& g);

}  // namespace tfs

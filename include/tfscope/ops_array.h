// Front-end functions for array ops that ops.h does not declare, mirroring TF's Python wrappers
// (node names, constant conversion of host operands).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tfscope/tensor.h"
#include "tfscope/value.h"

namespace tfs {

// tf.strided_slice: StridedSlice with begin/end/strides as constants (int32 when every value
// fits, else int64) and TF's five masks. An empty `strides` means all ones, as TF's default.
Tensor strided_slice(const Tensor& x, std::vector<int64_t> begin, std::vector<int64_t> end,
                     std::vector<int64_t> strides, int64_t begin_mask = 0, int64_t end_mask = 0,
                     int64_t ellipsis_mask = 0, int64_t new_axis_mask = 0,
                     int64_t shrink_axis_mask = 0);

// One item of a Python index expression `t[...]`: an int or a scalar integer tensor, a slice whose
// bounds are ints or tensors (absent = None), an Ellipsis, or tf.newaxis.
struct SliceItem {
  enum class Kind { kIndex, kSlice, kEllipsis, kNewAxis };
  Kind kind = Kind::kIndex;
  Value index;                            // kIndex
  std::optional<Value> start, stop, step;  // kSlice
};

// Tensor.__getitem__ as TF's _slice_helper builds it: a tensor index i also ends at i + 1 (an
// "add" node), and begin/end/strides are packed in a "strided_slice" scope ("strided_slice/stack"
// is a Const when every value is a Python int, a Pack otherwise). Items are assumed valid (the
// Python front end raises TF's TypeError for the others).
Tensor getitem(const Tensor& x, const std::vector<SliceItem>& items);

// tf.gather with batch_dims (tfs::gather in ops.h is batch_dims = 0).
Tensor gather(const Tensor& params, const Tensor& indices, int64_t axis, int64_t batch_dims);

// tf.size with an explicit out_type (int32 or int64).
Tensor size(const Tensor& x, DType out_type);

// tf.tile: Tile with both operands converted in its scope ("Tile/multiples", int32 unless given).
Tensor tile(const Value& input, const Value& multiples);

// tf.broadcast_to: BroadcastTo with both operands converted in its scope ("BroadcastTo/shape").
Tensor broadcast_to(const Value& input, const Value& shape);

// tf.zeros / tf.ones with a shape list holding tensors ([tf.shape(x)[0], 16]): TF converts the
// list by autopacking (a Pack "zeros/packed", its Python ints Consts "zeros/packed/1") and fills
// it with "zeros/Const" in a Fill named "zeros"; the result's static shape is what the Pack
// tells ((None, 16)).
Tensor zeros_from_list(const Value& shape, DType dtype);
Tensor ones_from_list(const Value& shape, DType dtype);

}  // namespace tfs

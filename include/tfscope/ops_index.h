// Front-end functions for splitting, indexing and padding, as TF 2.21's Python functions build
// them (node names, the constants they convert, the static shapes they restore): tf.split,
// tf.one_hot, tf.eye, tf.where with one operand, tf.gather_nd, tf.scatter_nd,
// tf.tensor_scatter_nd_update, tf.pad, tf.reverse, tf.sequence_mask and tf.linalg.matvec.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tfscope/tensor.h"
#include "tfscope/value.h"

namespace tfs {

// An int: Split into that many equal pieces; a list or tensor of sizes: SplitV (num = their
// count unless given, -1 for "from the sizes' static shape").
std::vector<Tensor> split(const Value& value, const Value& num_or_size_splits,
                          const Value& axis = Value(0), int64_t num = -1);
// on/off values None take 1 and 0 of `dtype` (kInvalid: from on/off, else float32).
Tensor one_hot(const Value& indices, const Value& depth, const Value& on_value = Value(),
               const Value& off_value = Value(), int64_t axis = -1, DType dtype = DType::kInvalid);
// num_columns < 0: square.
Tensor eye(int64_t num_rows, int64_t num_columns = -1, const std::vector<int64_t>& batch_shape = {},
           DType dtype = DType::kFloat32);
Tensor where(const Value& condition);  // Where: int64 coordinates of the true elements
Tensor gather_nd(const Value& params, const Value& indices);
Tensor scatter_nd(const Value& indices, const Value& updates, const Value& shape);
Tensor tensor_scatter_nd_update(const Value& tensor, const Value& indices, const Value& updates);
// mode: "CONSTANT" (Pad, or PadV2 for a non-zero constant), "REFLECT", "SYMMETRIC" (MirrorPad),
// case-insensitive.
Tensor pad(const Value& tensor, const Value& paddings, const std::string& mode = "CONSTANT",
           const Value& constant_values = Value(0));
Tensor reverse(const Value& tensor, const Value& axis);
// maxlen None: the lengths' maximum. dtype kInvalid: bool.
Tensor sequence_mask(const Value& lengths, const Value& maxlen = Value(),
                     DType dtype = DType::kInvalid);
Tensor matvec(const Value& a, const Value& b, bool transpose_a = false);

}  // namespace tfs

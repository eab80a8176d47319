// The gradient of GatherV2 on an axis other than 0, or with batch_dims, as TF 2.21's
// array_grad._GatherV2Grad builds it (a dense gradient): the output gradient reshaped to
// params_shape[:axis] + [-1] + params_shape[axis + 1:], the gathered axis moved up to
// batch_dims, summed into its rows by UnsortedSegmentSum (_BatchGatherGrad, the batch offsets
// added to the indices by _GetBatchIndices), moved back and reshaped to the params' shape. The
// ops and their order are TF's: every Python list operand converted where TF's wrappers convert
// it ("concat/values_1" a Const, or a Pack when it holds a tensor).
#include "../ops/op_scope.h"
#include "grad_util.h"
#include "tfscope/errors.h"
#include "tfscope/ops_array.h"
#include "tfscope/ops_sparse.h"
#include "tfscope/value.h"

namespace tfs::autodiff {
namespace {

SliceItem slice(std::optional<Value> start, std::optional<Value> stop) {
  SliceItem s;
  s.kind = SliceItem::Kind::kSlice;
  s.start = std::move(start);
  s.stop = std::move(stop);
  return s;
}

SliceItem index(Value i) {
  SliceItem s;
  s.index = std::move(i);
  return s;
}

// array_ops.concat(parts, 0) of tensors and Python lists (ints or tensors).
Tensor concat_parts(const std::vector<Value>& parts) {
  detail::OpScope s("concat");
  std::vector<Tensor> ins;
  for (size_t i = 0; i < parts.size(); ++i) {
    ins.push_back(parts[i].is_tensor()
                      ? parts[i].as_tensor()
                      : convert_to_tensor(parts[i], DType::kInt32, "values_" + std::to_string(i)));
  }
  ins.push_back(convert_to_tensor(Value(0), DType::kInt32, "axis"));
  return execute1("ConcatV2", ins, {}, s.op_name());
}

Value one_list(const Value& v) {
  return Value::list({v});
}

// _GetBatchIndices: the indices plus each batch's offset into the flattened batch dims.
Tensor batch_indices(const Tensor& params_shape, const Tensor& indices, int64_t batch_dims) {
  const DType dt = indices.dtype();
  Tensor shape = params_shape.dtype() == dt ? params_shape : cast(params_shape, dt);
  Tensor result = indices;
  Tensor accum = ones({}, dt);
  for (int64_t dim = batch_dims; dim > 0; --dim) {
    Tensor dim_value = getitem(shape, {index(Value(dim - 1))});
    accum = multiply(accum, getitem(shape, {index(Value(dim))}));
    Tensor start = zeros({}, dt), step = ones({}, dt);
    Tensor dim_indices = multiply(range(start, dim_value, step), accum);
    Tensor lead = tile(Value::list({Value(1)}), Value::list({Value(dim - 1)}));
    Tensor rest =
        tile(Value::list({Value(1)}), Value::list({Value(subtract(rank(indices), Value(dim)))}));
    Tensor dim_shape = concat_parts({Value(lead), one_list(Value(dim_value)), Value(rest)});
    result = add(result, reshape(dim_indices, Value(dim_shape)));
  }
  return result;
}

// _BatchGatherGrad with the gathered axis first after the batch dims.
Tensor batch_gather_grad(const Tensor& params_shape, Tensor values, Tensor indices,
                         int64_t batch_dims, Tensor gather_dim_size) {
  Tensor indices_size = expand_dims(size(indices), 0);
  Tensor outer, flat;
  if (batch_dims) {
    Tensor values_shape = shape(values);
    outer = getitem(values_shape, {slice(std::nullopt, Value(batch_dims))});
    Tensor inner = getitem(getitem(values_shape, {slice(Value(batch_dims), std::nullopt)}),
                           {slice(Value(1), std::nullopt)});
    Tensor axes;
    {
      detail::InputScope s("Prod");
      axes = convert_to_tensor(Value::list({Value(0)}), DType::kInt32, "reduction_indices");
    }
    Tensor batch_size = execute1("Prod", {outer, axes}, {{"keep_dims", false}}, "Prod");
    flat = concat_parts({one_list(Value(-1)), Value(inner)});
    gather_dim_size = multiply(gather_dim_size, batch_size);
    indices = batch_indices(params_shape, indices, batch_dims);
    values = reshape(values, Value(flat));
  }
  indices = reshape(indices, Value(indices_size));
  Tensor grad = unsorted_segment_sum(values, indices, gather_dim_size);
  if (batch_dims) grad = reshape(grad, Value(concat_parts({Value(outer), Value(flat)})));
  return grad;
}

}  // namespace

Tensor gather_axis_gradient(const GradOp& op, const Tensor& grad, const Tensor& params_shape) {
  const Tensor &params = op.inputs[0], &indices = op.inputs[1], &axis = op.inputs[2];
  // indices_size is made (and left unused) before the axis is looked at, as in TF.
  expand_dims(size(indices), 0);
  int64_t batch_dims = attr_int_or(op.attrs, "batch_dims", 0);
  if (batch_dims < 0) {
    if (!indices.shape().has_rank()) {
      value_error(
          "Currently, it is unsupported to take the gradient of tf.gather when batch_dims < 0 "
          "and the rank of the indices is unknown. Please pass a positive batch_dims or use "
          "tf.ensure_shape to update the shape of indices when calling tf.gather. Got "
          "batch_dims=" +
          std::to_string(batch_dims) + " and indices=" + indices.repr());
    }
    batch_dims += indices.shape().rank();
  }
  Tensor outer = getitem(params_shape, {slice(std::nullopt, Value(axis))});
  Tensor inner = getitem(getitem(params_shape, {slice(Value(axis), std::nullopt)}),
                         {slice(Value(1), std::nullopt)});
  Tensor values_shape = concat_parts({Value(outer), one_list(Value(-1)), Value(inner)});
  Tensor values_dims = size(values_shape);
  Tensor axis_dims = size(outer);
  Tensor outer_batches = range(Value(batch_dims));
  Tensor batch_axes = range(Value(batch_dims), Value(axis_dims));
  Tensor inner_axes = range(Value(add(axis_dims, Value(1))), Value(values_dims));
  Tensor values = reshape(grad, Value(values_shape));
  Tensor perm = concat_parts(
      {Value(outer_batches), one_list(Value(axis_dims)), Value(batch_axes), Value(inner_axes)});
  Tensor values_t = transpose_by(values, perm);
  Tensor params_shape_t = gather(params_shape, Value(perm));
  Tensor gathered_size = getitem(params_shape, {index(Value(axis))});
  Tensor g = batch_gather_grad(params_shape_t, values_t, indices, batch_dims, gathered_size);
  Tensor inverse = concat_parts({Value(outer_batches), Value(add(batch_axes, Value(1))),
                                 one_list(Value(batch_dims)), Value(inner_axes)});
  g = transpose_by(g, inverse);
  return reshape(g, Value(shape(params)));
}

}  // namespace tfs::autodiff

// Gradients of the array ops and of variable reads, as TF 2.21's array_grad.py and
// resource_variable_ops.py build them (graph mode: the constants TF folds where shapes are
// static).
#include "grad_util.h"
#include "tfscope/graph.h"
#include "tfscope/ops_array.h"
#include "tfscope/ops_index.h"
#include "tfscope/value.h"

namespace tfs::autodiff {
namespace {

using Grads = std::vector<Tensor>;

Grads pass_through(const GradOp& op, const Grads& g) {
  Grads out(op.inputs.size());
  out[0] = g[0];
  return out;
}

// _ReshapeGrad: back to the input's shape; with one unknown dim, a -1 there instead of a Shape.
Grads reshape_grad(const GradOp& op, const Grads& g) {
  const Tensor& x = op.inputs[0];
  auto s = shape_tuple(x);
  if (s && !fully_defined(s) && x.is_symbolic()) {
    int unknown = 0;
    bool zero = false;
    for (int64_t d : *s) {
      unknown += d < 0;
      zero = zero || d == 0;
    }
    if (unknown == 1 && !zero) {
      ValueList items;
      for (int64_t d : *s) items.push_back(Value(d < 0 ? int64_t{-1} : d));
      return {reshape(g[0], Value::list(std::move(items))), Tensor()};
    }
  }
  return {reshape(g[0], Value(shape(x))), Tensor()};
}

// _ReshapeToInput (Squeeze's and ExpandDims' gradient): back to the input's Shape.
Grads reshape_to_input(const GradOp& op, const Grads& g) {
  Grads out(op.inputs.size());
  out[0] = reshape(g[0], Value(shape(op.inputs[0])));
  return out;
}

// _TransposeGrad: the gradient transposed back by the inverse permutation.
Grads transpose_grad(const GradOp& op, const Grads& g) {
  return {transpose_by(g[0], gen("InvertPermutation", {op.inputs[1]})), Tensor()};
}

// _ConcatGradV2: eagerly a SplitV by the inputs' sizes along the axis; in a graph the
// ConcatOffset of the inputs' static shapes and one Slice per input.
Grads concat_grad(const GradOp& op, const Grads& g) {
  const size_t n = op.inputs.size() - 1;
  Grads out(op.inputs.size());
  if (n == 1) {
    out[0] = g[0];
    return out;
  }
  const Tensor& axis_t = op.inputs[n];
  const Tensor& grad = g[0];
  if (grad.is_eager() || axis_t.is_eager()) {
    const int64_t rank = static_cast<int64_t>(op.inputs[0].eager_shape().rank());
    int64_t axis = (*constant_ints(axis_t))[0];
    axis = ((axis % rank) + rank) % rank;
    ValueList sizes;
    for (size_t i = 0; i < n; ++i)
      sizes.push_back(Value(op.inputs[i].eager_shape().dim(static_cast<int>(axis))));
    std::vector<Tensor> parts = split(Value(grad), Value::list(std::move(sizes)), Value(axis));
    for (size_t i = 0; i < n; ++i) out[i] = parts[i];
    return out;
  }
  Tensor non_neg = floormod(axis_t, rank(op.inputs[0]));
  std::vector<Tensor> sizes;
  for (size_t i = 0; i < n; ++i) {
    Tensor s = shape(op.inputs[i]);
    if (!s.is_symbolic() || s.node()->op() != "Const" || n > 16) {
      unimplemented(
          "[autodiff] the gradient of a concat of shapes known only when the graph "
          "runs (or of more than 16 tensors) is not supported yet");
    }
    sizes.push_back(s);
  }
  std::vector<Tensor> ins{non_neg};
  ins.insert(ins.end(), sizes.begin(), sizes.end());
  std::vector<Tensor> offsets =
      execute("ConcatOffset", ins, {{"N", static_cast<int64_t>(n)}}, "ConcatOffset");
  for (size_t i = 0; i < n; ++i) out[i] = slice(Value(grad), Value(offsets[i]), Value(sizes[i]));
  return out;
}

// _SliceGrad: the gradient padded back to the input's shape.
Grads slice_grad(const GradOp& op, const Grads& g) {
  const Tensor &x = op.inputs[0], &begin = op.inputs[1];
  Tensor input_rank = rank(x);
  Tensor slice_size = shape(op.outputs[0], begin.dtype());
  Tensor pad_shape = autopack(Value::list({Value(input_rank), Value(1)}), DType::kInvalid, "stack");
  Tensor before = reshape(begin, Value(pad_shape));
  Tensor after =
      reshape(subtract(subtract(shape(x, begin.dtype()), slice_size), begin), Value(pad_shape));
  Tensor paddings = concat({before, after}, 1);
  return {pad(Value(g[0]), Value(paddings)), Tensor(), Tensor()};
}

// _StridedSliceGrad: StridedSliceGrad with the forward's masks; the shape, begin, end and strides
// as constants where they are known.
Grads strided_slice_grad(const GradOp& op, const Grads& g) {
  const Tensor &begin = op.inputs[1], &end = op.inputs[2], &strides = op.inputs[3];
  Tensor x = shape(op.inputs[0], begin.dtype());
  auto known = [](const Tensor& t) -> Value {
    auto v = constant_ints(t);
    return v ? int_list(*v) : Value(t);
  };
  AttrMap attrs;
  for (const char* m :
       {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"}) {
    attrs[m] = attr_int_or(op.attrs, m, 0);
  }
  attrs["Index"] = begin.dtype();
  Tensor dx = apply_op("StridedSliceGrad",
                       {known(x), known(begin), known(end), known(strides), Value(g[0])}, attrs)[0];
  return {dx, Tensor(), Tensor(), Tensor()};
}

// _TileGrad: the gradient reshaped to (multiple, dim) pairs and summed over the multiples.
Grads tile_grad(const GradOp& op, const Grads& g) {
  const Tensor &x = op.inputs[0], &multiples = op.inputs[1];
  Tensor input_shape = shape(x, multiples.dtype());
  Tensor pairs =
      autopack(Value::list({Value(multiples), Value(input_shape)}), DType::kInvalid, "stack");
  Tensor split_shape = reshape(transpose(pairs), int_list({-1}));
  Tensor axes = range(Value(0), Value(size(split_shape)), Value(2));
  Tensor dx = reduce("Sum", reshape(g[0], Value(split_shape)), Value(axes));
  return {dx, Tensor()};
}

// _BroadcastToGrad: the gradient summed over the broadcast axes, reshaped to the input's shape.
Grads broadcast_to_grad(const GradOp& op, const Grads& g) {
  const Tensor& x = op.inputs[0];
  Tensor target = op.inputs[1];
  Tensor input_shape = shape(x, target.dtype());
  if (target.is_symbolic()) {
    auto v = constant_ints(target);
    if (v) target = constant(int_list(*v), target.dtype());
  }
  auto r = execute("BroadcastGradientArgs", {target, input_shape}, {}, "BroadcastGradientArgs");
  Tensor summed = reduce("Sum", g[0], Value(r[1]), /*keepdims=*/true);
  return {reshape(summed, Value(input_shape)), Tensor()};
}

GradientRegistration r_identity("Identity", pass_through);
GradientRegistration r_transpose("Transpose", transpose_grad);
GradientRegistration r_concat("ConcatV2", concat_grad);
GradientRegistration r_slice("Slice", slice_grad);
GradientRegistration r_strided_slice("StridedSlice", strided_slice_grad);
GradientRegistration r_tile("Tile", tile_grad);
GradientRegistration r_broadcast_to("BroadcastTo", broadcast_to_grad);
GradientRegistration r_pack("Pack", [](const GradOp& op, const Grads& g) {
  Grads parts =
      unstack(g[0], attr_int_or(op.attrs, "axis", 0), static_cast<int64_t>(op.inputs.size()));
  return parts;
});
GradientRegistration r_unpack("Unpack", [](const GradOp& op, const Grads& g) -> Grads {
  return {stack(g, attr_int_or(op.attrs, "axis", 0))};
});
GradientRegistration r_read("ReadVariableOp", pass_through);
GradientRegistration r_reshape("Reshape", reshape_grad);
GradientRegistration r_squeeze("Squeeze", reshape_to_input);
GradientRegistration r_expand_dims("ExpandDims", reshape_to_input);

NotDifferentiable n_shape("Shape"), n_size("Size"), n_rank("Rank"), n_zeros("ZerosLike"),
    n_ones("OnesLike"), n_stop("StopGradient"), n_bga("BroadcastGradientArgs"),
    n_concat_offset("ConcatOffset"), n_invert("InvertPermutation");

}  // namespace

void anchor_array_grads() {}

}  // namespace tfs::autodiff

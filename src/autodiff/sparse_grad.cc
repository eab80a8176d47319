// Gradients that make or pass on tf.IndexedSlices: GatherV2 on axis 0 (another axis: gather_grad.cc) (array_grad.py's
// _GatherV2Grad) and ResourceGather (resource_variable_ops.py's _GatherGrad) give the rows the
// gather read, with their indices and the params' shape; a variable read and Identity pass an
// IndexedSlices on unchanged.
#include "grad_util.h"
#include "tfscope/graph_builder.h"
#include "tfscope/ops_array.h"

namespace tfs::autodiff {

void anchor_sparse_grads() {}

namespace {

using Grads = std::vector<GradientValue>;

// params_shape[1:] as `t[1:]` slices it.
Tensor tail(const Tensor& shape_t) {
  SliceItem from1;
  from1.kind = SliceItem::Kind::kSlice;
  from1.start = Value(int64_t{1});
  return getitem(shape_t, {from1});
}

// The IndexedSlices of a gather of `indices` from params of shape `params_shape`: the output
// gradient reshaped to [size(indices)] + params_shape[1:], the indices flattened.
IndexedSlices gathered_rows(const Tensor& params_shape, const Tensor& indices,
                            const GradientValue& grad, bool eager_identity) {
  Tensor size = expand_dims(tfs::size(indices), 0);
  // Eagerly TF slices an identity of the shape (a copy on the indices' device).
  Tensor rest = tail(eager_identity ? identity(params_shape) : params_shape);
  Tensor values_shape = concat({size, rest}, 0);
  Tensor values = reshape(dense_gradient(grad), Value(values_shape));
  return IndexedSlices{values, reshape(indices, Value(size)), params_shape};
}

// The resource a handle points to: an eager handle's own, or for a placeholder of the graph
// being built the one it captured (tf.gradients sees the graph's handle, the tape the eager one).
std::shared_ptr<ResourceBase> captured_resource(const Tensor& handle) {
  if (handle.is_eager()) return handle.resource_handle();
  auto* b = dynamic_cast<FuncGraphBuilder*>(current_builder());
  if (!b) return nullptr;
  for (const Capture& c : b->captures()) {
    if (c.placeholder == handle.node() && c.external.is_eager())
      return c.external.resource_handle();
  }
  return nullptr;
}

Grads gather_v2_grad(const GradOp& op, const Grads& g) {
  const Tensor &params = op.inputs[0], &indices = op.inputs[1];
  Tensor params_shape = shape(params);
  auto axis = constant_ints(op.inputs[2]);
  if (!axis || (*axis)[0] != 0)
    return {gather_axis_gradient(op, dense_gradient(g[0]), params_shape), Tensor(), Tensor()};
  return {gathered_rows(params_shape, indices, g[0], params.is_eager()), Tensor(), Tensor()};
}

Grads resource_gather_grad(const GradOp& op, const Grads& g) {
  const Tensor &handle = op.inputs[0], &indices = op.inputs[1];
  auto var = std::dynamic_pointer_cast<VariableState>(captured_resource(handle));
  if (!var || !var->shape().is_fully_defined())
    unimplemented("the gradient of a gather from a variable of unknown shape");
  // variable_shape(handle): a constant of the shape the handle carries.
  Tensor params_shape = int32_const(var->shape().dims(), "Const");
  return {gathered_rows(params_shape, indices, g[0], false), Tensor()};
}

Grads pass_through(const GradOp& op, const Grads& g) {
  Grads out(op.inputs.size(), Tensor());
  out[0] = g[0];
  return out;
}

SparseGradientRegistration r_gather_v2("GatherV2", gather_v2_grad);
SparseGradientRegistration r_resource_gather("ResourceGather", resource_gather_grad);
SparseGradientRegistration r_read("ReadVariableOp", pass_through);
SparseGradientRegistration r_identity("Identity", pass_through);

}  // namespace
}  // namespace tfs::autodiff

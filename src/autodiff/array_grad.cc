// Gradients of the array ops and of variable reads, as TF 2.21's array_grad.py and
// resource_variable_ops.py build them.
#include "grad_util.h"
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

GradientRegistration r_identity("Identity", pass_through);
GradientRegistration r_read("ReadVariableOp", pass_through);
GradientRegistration r_reshape("Reshape", reshape_grad);

NotDifferentiable n_shape("Shape"), n_size("Size"), n_rank("Rank"), n_zeros("ZerosLike"),
    n_ones("OnesLike"), n_stop("StopGradient"), n_bga("BroadcastGradientArgs");

}  // namespace

void anchor_array_grads() {}

}  // namespace tfs::autodiff

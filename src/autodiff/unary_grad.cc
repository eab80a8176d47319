// Gradients of Abs, Erf, Erfc, Log1p, Reciprocal, Pow and DivNoNan, as TF 2.21's math_grad.py
// builds them (the constants, the control input on the incoming gradient where TF opens
// control_dependencies([grad]), the v1 Select of Pow's log).
#include <cmath>

#include "grad_util.h"
#include "tfscope/value.h"

namespace tfs::autodiff {
namespace {

using Grads = std::vector<Tensor>;

// grad * c * exp(-square(x)): Erf's and Erfc's gradient for c = +-2/sqrt(pi).
Grads erf_like_grad(const GradOp& op, const Grads& g, double c) {
  const Tensor& grad = g[0];
  Tensor k = constant(Value(c), grad.dtype());
  Tensor scaled = multiply(grad, k);
  Tensor sq = square(op.inputs[0]);
  control_on(sq, grad);
  return {multiply(scaled, exp(neg(sq)))};
}

// math_ops.div_no_nan: the op named after the Python scope it opens.
Tensor div_no_nan(const Tensor& x, const Tensor& y) {
  return apply_op("DivNoNan", {Value(x), Value(y)}, {}, "div_no_nan")[0];
}

Grads pow_grad(const GradOp& op, const Grads& g) {
  const Tensor &x = op.inputs[0], &y = op.inputs[1], &grad = g[0];
  auto gx_of = [&] {
    Tensor scaled = multiply(grad, y);  // Python's left-to-right order names the ops
    return multiply(scaled, tf_pow(x, subtract(y, Value(1))));
  };
  if (op.skips(1) && is_scalar(y)) return {gx_of(), Tensor()};
  Tensor gx = op.skips(0) ? Tensor() : gx_of();
  Tensor gy;
  if (!op.skips(1)) {
    Tensor mask = greater(x, Value(0));
    Tensor safe_x = gen("Select", {mask, x, tf_ones_like(x)});
    Tensor log_x = gen("Select", {mask, log(safe_x), zeros_like(x)});
    gy = multiply(multiply(grad, op.outputs[0]), log_x);
  }
  auto [rx, ry] = reduce_gradient_args(x, y, gx, gy);
  return {rx, ry};
}

Grads div_no_nan_grad(const GradOp& op, const Grads& g) {
  const Tensor &x = op.inputs[0], &y = op.inputs[1], &grad = g[0];
  Tensor gx = div_no_nan(grad, y);
  Tensor gy = multiply(grad, div_no_nan(div_no_nan(neg(x), y), y));
  auto [rx, ry] = reduce_gradient_args(x, y, gx, gy);
  return {rx, ry};
}

GradientRegistration r_abs("Abs", [](const GradOp& op, const Grads& g) -> Grads {
  return {multiply(g[0], sign(op.inputs[0]))};
});
GradientRegistration r_erf("Erf", [](const GradOp& op, const Grads& g) {
  return erf_like_grad(op, g, 2 / std::sqrt(M_PI));
});
GradientRegistration r_erfc("Erfc", [](const GradOp& op, const Grads& g) {
  return erf_like_grad(op, g, -2 / std::sqrt(M_PI));
});
GradientRegistration r_log1p("Log1p", [](const GradOp& op, const Grads& g) -> Grads {
  Tensor one_plus = add(Value(1), op.inputs[0]);
  control_on_input(one_plus, 0, g[0]);  // the 1 is the first op made under the dependency
  return {multiply(g[0], reciprocal(one_plus))};
});
GradientRegistration r_reciprocal("Reciprocal", [](const GradOp& op, const Grads& g) -> Grads {
  return {gen("ReciprocalGrad", {op.outputs[0], g[0]})};
});
GradientRegistration r_pow("Pow", pow_grad);
GradientRegistration r_div_no_nan("DivNoNan", div_no_nan_grad);

}  // namespace

void anchor_unary_grads() {}

}  // namespace tfs::autodiff

// Gradients of the elementwise math ops and the reductions, as TF 2.21's math_grad.py builds
// them (the same ops, names and shortcuts for static shapes).
#include <algorithm>
#include <numeric>

#include "../ops/op_scope.h"
#include "body_grad.h"
#include "grad_util.h"
#include "tfscope/errors.h"
#include "tfscope/graph.h"
#include "tfscope/graph_builder.h"
#include "tfscope/ops_array.h"
#include "tfscope/value.h"

namespace tfs::autodiff {
namespace {

using Grads = std::vector<Tensor>;

// math_ops.reduced_shape: the input shape with the reduced axes kept as 1, a constant when the
// shape and the axes are, else DynamicStitch of range(rank) and the axes over the shape and ones.
Value reduced_shape(const Tensor& input_shape, const Tensor& axes_t) {
  auto in = constant_ints(input_shape);
  auto axes = constant_ints(axes_t);
  if (in && axes) return int_list(kept_dims(*in, *axes));
  // array_ops.size: a constant when the shape's length is static (tfs::size folds int32 only).
  Tensor rank_t =
      axes_t.dtype() == DType::kInt32 ? size(input_shape) : size(input_shape, axes_t.dtype());
  Tensor axes_n = floormod(add(axes_t, rank_t), rank_t);
  Tensor axes_shape = shape(axes_n);
  Tensor idx = range(Value(0), Value(rank_t));
  Tensor ones_t = ones_of_shape(axes_shape, input_shape.dtype());
  return Value(execute1("DynamicStitch", {idx, axes_n, input_shape, ones_t}, {{"N", int64_t{2}}},
                        "DynamicStitch"));
}

// _SumGrad: a full reduction of a static rank is a Reshape to ones and a Tile; a partial one of a
// fully static shape a Reshape and a Tile by constants (graph mode); otherwise the kept-dims
// shape and a BroadcastTo.
Tensor sum_grad(const GradOp& op, Tensor grad) {
  const Tensor& x = op.inputs[0];
  auto in_shape = shape_tuple(x);
  auto axes = in_shape ? constant_ints(op.inputs[1]) : std::nullopt;
  if (in_shape && axes) {
    const int64_t rank = static_cast<int64_t>(in_shape->size());
    std::vector<int64_t> all(static_cast<size_t>(rank));
    std::iota(all.begin(), all.end(), 0);
    if (*axes == all) {
      grad = reshape(grad, int_list(std::vector<int64_t>(all.size(), 1)));
      Tensor multiples = fully_defined(in_shape) ? int32_const(*in_shape) : shape(x);
      return tile(grad, multiples);
    }
    if (fully_defined(in_shape) && x.is_symbolic()) {
      std::vector<int64_t> kept = kept_dims(*in_shape, *axes), scaling;
      for (size_t i = 0; i < kept.size(); ++i)
        scaling.push_back((*in_shape)[i] / std::max<int64_t>(kept[i], 1));
      // TF works the tile scaling out as _SafeShapeDiv(shape, kept) on constants: the ops it
      // builds to do so stay in the graph, unused.
      Tensor divisor = maximum(int_list(kept), Value(1));
      floordiv(int_list(*in_shape), divisor);
      grad = reshape(grad, int_list(kept));
      return tile(grad, int_list(scaling));
    }
  }
  Tensor input_shape = shape(x);
  if (!attr_bool_or(op.attrs, "keep_dims", false))
    grad = reshape(grad, Value(reduced_shape(input_shape, op.inputs[1])));
  return broadcast_to(grad, Value(input_shape));
}

Grads reduction_grad(const GradOp& op, const Grads& g) {
  Tensor s = sum_grad(op, g[0]);
  if (op.type == "Sum") return {s, Tensor()};
  // Mean: the sum's gradient divided by the number of elements averaged (counted at run time
  // when a shape is not static).
  auto in = shape_tuple(op.inputs[0]), out = shape_tuple(op.outputs[0]);
  Tensor factor;
  if (fully_defined(in) && fully_defined(out)) {
    int64_t isz = 1, osz = 1;
    for (int64_t d : *in) isz *= d;
    for (int64_t d : *out) osz *= d;
    factor = constant(Value(isz / std::max<int64_t>(osz, 1)), s.dtype());
  } else {
    Tensor input_shape = shape(op.inputs[0]);
    Tensor input_rank = size(input_shape);
    Tensor axes = op.inputs[1].dtype() == input_rank.dtype()
                      ? op.inputs[1]
                      : cast(op.inputs[1], input_rank.dtype());
    axes = floormod(add(axes, input_rank), input_rank);
    factor = reduce_prod(gather(input_shape, Value(axes)));
  }
  return {truediv(s, factor.dtype() == s.dtype() ? factor : cast(factor, s.dtype())), Tensor()};
}

// _MinOrMaxGrad: the gradient shared equally among the elements equal to the extreme.
Grads min_max_grad(const GradOp& op, const Grads& g) {
  Tensor input_shape = shape(op.inputs[0]);
  Tensor y = op.outputs[0], grad = g[0];
  Value kept;
  if (!attr_bool_or(op.attrs, "keep_dims", false)) {
    kept = reduced_shape(input_shape, op.inputs[1]);
    y = reshape(y, kept);
    grad = reshape(grad, kept);
  } else {
    kept = Value(shape(y));
  }
  Tensor indicators = cast(equal(y, op.inputs[0]), grad.dtype());
  Tensor num_selected = reshape(reduce("Sum", indicators, Value(op.inputs[1])), kept);
  return {multiply(truediv(indicators, num_selected), grad), Tensor()};
}

// _ProdGrad: the product of all other elements, as the exclusive cumulative products from both
// ends of the input with the reduced axes moved first and flattened.
Grads prod_grad(const GradOp& op, const Grads& g) {
  const Tensor& x = op.inputs[0];
  Tensor input_shape = shape(x);
  Tensor reduction_indices = reshape(op.inputs[1], int_list({-1}));
  Tensor grad = g[0];
  if (!attr_bool_or(op.attrs, "keep_dims", false))
    grad = reshape(grad, reduced_shape(input_shape, op.inputs[1]));
  grad = broadcast_to(grad, Value(input_shape));
  Tensor r = rank(x);
  if (reduction_indices.dtype() != r.dtype())
    reduction_indices = cast(reduction_indices, r.dtype());
  Tensor reduced = floormod(add(reduction_indices, r), r);
  Tensor idx = range(Value(0), Value(r));
  std::vector<Tensor> diff =
      execute("ListDiff", {idx, reduced}, {{"out_idx", reduced.dtype()}}, "ListDiff");
  Tensor other = diff[0];
  Tensor perm = concat({reduced, other}, 0);
  Tensor reduced_num = reduce_prod(gather(input_shape, Value(reduced)));
  Tensor other_num = reduce_prod(gather(input_shape, Value(other)));
  Tensor permuted = transpose_by(x, perm);
  // TF's shape inference evaluates the small constant graph of the permutation; tfscope's works it
  // out here from the static shape and axes, and pins it on the Transpose.
  auto dims = shape_tuple(x);
  auto axes = constant_ints(op.inputs[1]);
  if (permuted.is_symbolic() && fully_defined(dims) && axes && current_builder()) {
    const int64_t n = static_cast<int64_t>(dims->size());
    std::vector<int64_t> order, moved;
    for (int64_t a : *axes) order.push_back(((a % n) + n) % n);
    for (int64_t i = 0; i < n; ++i)
      if (std::find(order.begin(), order.end(), i) == order.end()) order.push_back(i);
    for (int64_t i : order) moved.push_back((*dims)[static_cast<size_t>(i)]);
    permuted = current_builder()->refine_shape(permuted, PartialShape(moved));
  }
  Tensor permuted_shape = shape(permuted);
  Tensor reshaped = reshape(permuted, Value::tuple({Value(reduced_num), Value(other_num)}));
  auto cumprod = [](const Tensor& t, bool reverse) {
    detail::OpScope s("Cumprod");
    Tensor axis = constant(Value(0), DType::kInt32, "axis");
    return execute1("Cumprod", {t, axis}, {{"exclusive", true}, {"reverse", reverse}}, s.op_name());
  };
  Tensor left = cumprod(reshaped, false);
  Tensor right = cumprod(reshaped, true);
  Tensor y = reshape(multiply(left, right), Value(permuted_shape));
  Tensor inv = gen("InvertPermutation", {perm});
  Tensor out = multiply(grad, transpose_by(y, inv));
  return {reshape(out, Value(input_shape)), Tensor()};
}

Grads add_grad(const GradOp& op, const Grads& g) {
  const Tensor &x = op.inputs[0], &y = op.inputs[1], &grad = g[0];
  if (op.skips(1) && is_scalar(y)) return {grad, Tensor()};
  if (shapes_fully_equal(x, y, grad)) return {grad, grad};
  auto [gx, gy] =
      reduce_gradient_args(x, y, op.skips(0) ? Tensor() : grad, op.skips(1) ? Tensor() : grad);
  return {gx, gy};
}

Grads sub_grad(const GradOp& op, const Grads& g) {
  const Tensor &x = op.inputs[0], &y = op.inputs[1], &grad = g[0];
  if (op.skips(1) && is_scalar(y)) return {grad, Tensor()};
  if (shapes_fully_equal(x, y, grad)) return {grad, gen("Neg", {grad})};
  Tensor gx = op.skips(0) ? Tensor() : grad;
  Tensor gy = op.skips(1) ? Tensor() : gen("Neg", {grad});
  auto [rx, ry] = reduce_gradient_args(x, y, gx, gy);
  return {rx, ry};
}

Grads mul_grad(const GradOp& op, const Grads& g) {
  const Tensor &x = op.inputs[0], &y = op.inputs[1], &grad = g[0];
  if (op.skips(1) && is_scalar(y)) return {gen("Mul", {grad, y}), Tensor()};
  if (shapes_fully_equal(x, y, grad) &&
      (grad.dtype() == DType::kInt32 || grad.dtype() == DType::kFloat32)) {
    return {gen("Mul", {grad, y}), gen("Mul", {grad, x})};
  }
  Tensor gx = op.skips(0) ? Tensor() : gen("Mul", {grad, y});
  Tensor gy = op.skips(1) ? Tensor() : gen("Mul", {x, grad});
  auto [rx, ry] = reduce_gradient_args(x, y, gx, gy);
  return {rx, ry};
}

Grads realdiv_grad(const GradOp& op, const Grads& g) {
  const Tensor &x = op.inputs[0], &y = op.inputs[1], &grad = g[0];
  Tensor gx = gen("RealDiv", {grad, y});
  Tensor gy = multiply(grad, gen("RealDiv", {gen("RealDiv", {gen("Neg", {x}), y}), y}));
  auto [rx, ry] = reduce_gradient_args(x, y, gx, gy);
  return {rx, ry};
}

// Maximum/Minimum: the gradient goes where the selector picks x (ties to x), else to y.
Grads max_min_grad(const GradOp& op, const Grads& g, const std::string& selector) {
  const Tensor &x = op.inputs[0], &y = op.inputs[1], &grad = g[0];
  Tensor zeros = zeros_like(grad);
  if (op.skips(1) && is_scalar(y)) {
    Tensor mask = gen(selector, {x, y});
    return {where(mask, grad, zeros), Tensor()};
  }
  Tensor mask = gen(selector, {x, y});
  Tensor gx = op.skips(0) ? Tensor() : where(mask, grad, zeros);
  Tensor gy = op.skips(1) ? Tensor() : where(mask, zeros, grad);
  auto [rx, ry] = reduce_gradient_args(x, y, gx, gy);
  return {rx, ry};
}

Grads select_grad(const GradOp& op, const Grads& g) {
  const Tensor &c = op.inputs[0], &x = op.inputs[1], &y = op.inputs[2], &z = op.outputs[0];
  Tensor zero = zeros({}, g[0].dtype());
  Tensor gx = where(c, g[0], zero);
  Tensor gy = where(c, zero, g[0]);
  gx = reduce_gradient_args(x, z, gx, Tensor()).first;
  gy = reduce_gradient_args(y, z, gy, Tensor()).first;
  return {Tensor(), gx, gy};
}

// _SquaredDifferenceGrad: x_grad = scalar_mul(2.0, grad) * (x - y) built under
// control_dependencies([grad]) (the "scalar" constant and the "sub" get the control input; the
// Muls read an op made inside and are dominated), then x_grad and -x_grad reduced to each operand.
Grads squared_difference_grad(const GradOp& op, const Grads& g) {
  const Tensor &x = op.inputs[0], &y = op.inputs[1], &grad = g[0];
  Tensor x_grad;
  {
    ControlOn after(grad);  // with ops.control_dependencies([grad])
    Tensor two = constant(Value(2.0), grad.dtype(), "scalar");
    control_on(two, grad);
    Tensor scaled = gen("Mul", {two, grad});
    Tensor diff = subtract(x, y);
    control_on(diff, grad);
    x_grad = multiply(scaled, diff);
  }
  if (shapes_fully_equal(x, y, grad)) return {x_grad, neg(x_grad)};
  Tensor gx = op.skips(0) ? Tensor() : x_grad;
  Tensor gy = op.skips(1) ? Tensor() : neg(x_grad);
  auto [rx, ry] = reduce_gradient_args(x, y, gx, gy);
  return {rx, ry};
}

bool float_type(DType d) {
  return is_floating(d);
}

GradientRegistration r_add("AddV2", add_grad);
GradientRegistration r_add1("Add", add_grad);
GradientRegistration r_sub("Sub", sub_grad);
GradientRegistration r_mul("Mul", mul_grad);
GradientRegistration r_div("RealDiv", realdiv_grad);
GradientRegistration r_sqdiff("SquaredDifference", squared_difference_grad);
GradientRegistration r_max("Maximum", [](const GradOp& op, const Grads& g) {
  return max_min_grad(op, g, "GreaterEqual");
});
GradientRegistration r_min("Minimum", [](const GradOp& op, const Grads& g) {
  return max_min_grad(op, g, "LessEqual");
});
GradientRegistration r_select("SelectV2", select_grad);
// _SelectGrad (the v1 tf.where): the gradient where the condition picks each operand.
GradientRegistration r_select_v1("Select", [](const GradOp& op, const Grads& g) -> Grads {
  Tensor zeros = zeros_like(op.inputs[1]);
  Tensor gx = gen("Select", {op.inputs[0], g[0], zeros});
  return {Tensor(), gx, gen("Select", {op.inputs[0], zeros, g[0]})};
});
GradientRegistration r_sum("Sum", reduction_grad);
GradientRegistration r_mean("Mean", reduction_grad);
GradientRegistration r_rmax("Max", min_max_grad);
GradientRegistration r_rmin("Min", min_max_grad);
GradientRegistration r_prod("Prod", prod_grad);
GradientRegistration r_neg("Neg", [](const GradOp&, const Grads& g) -> Grads {
  return {gen("Neg", {g[0]})};
});
GradientRegistration r_exp("Exp", [](const GradOp& op, const Grads& g) -> Grads {
  ControlOn after(g[0]);  // with ops.control_dependencies([grad])
  return {multiply(g[0], op.outputs[0])};
});
// TF's _SinGrad and _CosGrad: grad * cos(x) and -grad * sin(x), x's conjugate (x itself for a
// real x) taken under the control dependency on grad.
GradientRegistration r_sin("Sin", [](const GradOp& op, const Grads& g) -> Grads {
  ControlOn after(g[0]);
  return {multiply(g[0], gen("Cos", {op.inputs[0]}))};
});
GradientRegistration r_cos("Cos", [](const GradOp& op, const Grads& g) -> Grads {
  ControlOn after(g[0]);
  Tensor neg = gen("Neg", {g[0]});
  return {multiply(neg, gen("Sin", {op.inputs[0]}))};
});
// TF's _TanGrad: square(reciprocal(cos(x))) * grad; _SinhGrad and _CoshGrad: grad times the
// other; _AsinhGrad and _AcoshGrad: grad / cosh(y), grad / sinh(y) of the op's output y.
GradientRegistration r_tan("Tan", [](const GradOp& op, const Grads& g) -> Grads {
  ControlOn after(g[0]);
  Tensor secx = gen("Reciprocal", {gen("Cos", {op.inputs[0]})});
  return {multiply(gen("Square", {secx}), g[0])};
});
GradientRegistration r_sinh("Sinh", [](const GradOp& op, const Grads& g) -> Grads {
  ControlOn after(g[0]);
  return {multiply(g[0], gen("Cosh", {op.inputs[0]}))};
});
GradientRegistration r_cosh("Cosh", [](const GradOp& op, const Grads& g) -> Grads {
  ControlOn after(g[0]);
  return {multiply(g[0], gen("Sinh", {op.inputs[0]}))};
});
GradientRegistration r_asinh("Asinh", [](const GradOp& op, const Grads& g) -> Grads {
  ControlOn after(g[0]);
  return {gen("RealDiv", {g[0], gen("Cosh", {op.outputs[0]})})};
});
GradientRegistration r_acosh("Acosh", [](const GradOp& op, const Grads& g) -> Grads {
  ControlOn after(g[0]);
  return {gen("RealDiv", {g[0], gen("Sinh", {op.outputs[0]})})};
});
GradientRegistration r_log("Log", [](const GradOp& op, const Grads& g) -> Grads {
  ControlOn after(g[0]);
  Tensor r = reciprocal(op.inputs[0]);
  control_on(r, g[0]);
  return {multiply(g[0], r)};
});
GradientRegistration r_square("Square", [](const GradOp& op, const Grads& g) -> Grads {
  Tensor two = constant(Value(2.0), op.inputs[0].dtype());
  control_on(two, g[0]);  // the Mul of x and it is then dominated: no control input of its own
  return {gen("Mul", {g[0], gen("Mul", {op.inputs[0], two})})};
});
GradientRegistration r_sqrt("Sqrt", [](const GradOp& op, const Grads& g) -> Grads {
  return {gen("SqrtGrad", {op.outputs[0], g[0]})};
});
GradientRegistration r_rsqrt("Rsqrt", [](const GradOp& op, const Grads& g) -> Grads {
  return {gen("RsqrtGrad", {op.outputs[0], g[0]})};
});
GradientRegistration r_tanh("Tanh", [](const GradOp& op, const Grads& g) -> Grads {
  ControlOn after(g[0]);  // with ops.control_dependencies([grad])
  return {gen("TanhGrad", {op.outputs[0], g[0]})};
});
GradientRegistration r_sigmoid("Sigmoid", [](const GradOp& op, const Grads& g) -> Grads {
  ControlOn after(g[0]);  // with ops.control_dependencies([grad])
  return {gen("SigmoidGrad", {op.outputs[0], g[0]})};
});
GradientRegistration r_cast("Cast", [](const GradOp& op, const Grads& g) -> Grads {
  DType src = op.inputs[0].dtype(), dst = g[0].dtype();
  if (float_type(src) && float_type(dst)) return {cast(g[0], src)};
  return {Tensor()};
});
GradientRegistration r_addn("AddN", [](const GradOp& op, const Grads& g) {
  return Grads(op.inputs.size(), g[0]);
});

NotDifferentiable n_ge("GreaterEqual"), n_le("LessEqual"), n_gt("Greater"), n_lt("Less"),
    n_eq("Equal"), n_ne("NotEqual"), n_argmax("ArgMax"), n_argmin("ArgMin"),
    n_floor_div("FloorDiv"), n_trunc_div("TruncateDiv"), n_range("Range");

}  // namespace

void anchor_math_grads() {}

}  // namespace tfs::autodiff

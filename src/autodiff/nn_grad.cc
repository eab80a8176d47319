// Gradients of the dense-layer ops, activations and losses, as TF 2.21's math_grad.py (MatMul,
// BatchMatMulV2) and nn_grad.py build them.
#include "grad_util.h"
#include "tfscope/ops_array.h"
#include "tfscope/value.h"

namespace tfs::autodiff {
namespace {

using Grads = std::vector<Tensor>;

AttrMap matmul_attrs(bool ta, bool tb, bool ga, bool gb) {
  return {{"transpose_a", ta}, {"transpose_b", tb}, {"grad_a", ga}, {"grad_b", gb}};
}

// d/da of a.b (or its transposed forms), as _MatMulGradAgainstFirstOnly writes each case.
Tensor matmul_grad_a(const Tensor& b, const Tensor& g, bool ta, bool tb) {
  if (!ta && !tb) return gen("MatMul", {g, b}, matmul_attrs(false, true, true, false));
  if (!ta && tb) return gen("MatMul", {g, b}, matmul_attrs(false, false, true, false));
  if (ta && !tb) return gen("MatMul", {b, g}, matmul_attrs(false, true, true, false));
  return gen("MatMul", {b, g}, matmul_attrs(true, true, true, false));
}

Tensor matmul_grad_b(const Tensor& a, const Tensor& g, bool ta, bool tb) {
  if (!ta && !tb) return gen("MatMul", {a, g}, matmul_attrs(true, false, false, true));
  if (!ta && tb) return gen("MatMul", {g, a}, matmul_attrs(true, false, false, true));
  if (ta && !tb) return gen("MatMul", {a, g}, matmul_attrs(false, false, false, true));
  return gen("MatMul", {g, a}, matmul_attrs(true, true, false, true));
}

Grads matmul_grad(const GradOp& op, const Grads& g) {
  bool ta = attr_bool_or(op.attrs, "transpose_a", false);
  bool tb = attr_bool_or(op.attrs, "transpose_b", false);
  const Tensor &a = op.inputs[0], &b = op.inputs[1];
  if (op.skips(1)) return {matmul_grad_a(b, g[0], ta, tb), Tensor()};
  if (op.skips(0)) return {Tensor(), matmul_grad_b(a, g[0], ta, tb)};
  Tensor ga = matmul_grad_a(b, g[0], ta, tb);
  return {ga, matmul_grad_b(a, g[0], ta, tb)};
}

Grads bias_add_grad(const GradOp& op, const Grads& g) {
  AttrMap attrs;
  auto it = op.attrs.find("data_format");
  attrs["data_format"] = it != op.attrs.end() ? it->second : AttrValue(std::string("NHWC"));
  return {g[0], gen("BiasAddGrad", {g[0]}, attrs)};
}

// _BroadcastMul: a per-row vector times a matrix.
Tensor broadcast_mul(const Tensor& vec, const Tensor& mat) {
  return multiply(expand_dims(vec, -1), mat);
}

// _SparseSoftmaxCrossEntropyWithLogitsGrad: the loss gradient times the kernel's backprop (the
// second output's gradient is None here, as TF's tape passes it; its second-derivative term is
// not built).
Grads sparse_xent_grad(const GradOp& op, const Grads& g) {
  return {broadcast_mul(g[0], op.outputs[1]), Tensor()};
}

// _BatchMatMulV2: the four adjoint cases, then sums over the batch dims an operand was broadcast
// along (none when the static batch shapes match).
Grads batch_matmul_grad(const GradOp& op, const Grads& g) {
  const Tensor &x = op.inputs[0], &y = op.inputs[1], &grad = g[0];
  const bool ax = attr_bool_or(op.attrs, "adj_x", false),
             ay = attr_bool_or(op.attrs, "adj_y", false);
  auto bmm = [](const Tensor& a, const Tensor& b, bool adj_a, bool adj_b, bool gx, bool gy) {
    return execute1("BatchMatMulV2", {a, b},
                    {{"adj_x", adj_a}, {"adj_y", adj_b}, {"grad_x", gx}, {"grad_y", gy}}, "MatMul");
  };
  Tensor gx, gy;
  if (!ax && !ay) {
    gx = bmm(grad, y, false, true, true, false);
    gy = bmm(x, grad, true, false, false, true);
  } else if (!ax) {
    gx = bmm(grad, y, false, false, true, false);
    gy = bmm(grad, x, true, false, false, true);
  } else if (!ay) {
    gx = bmm(y, grad, false, true, true, false);
    gy = bmm(x, grad, false, false, false, true);
  } else {
    gx = bmm(y, grad, true, true, true, false);
    gy = bmm(grad, x, true, true, false, true);
  }
  const PartialShape &sx = x.is_eager() ? PartialShape(x.eager_shape().dims()) : x.shape(),
                     &sy = y.is_eager() ? PartialShape(y.eager_shape().dims()) : y.shape();
  const bool may_batch = !sx.has_rank() || sx.rank() > 2 || !sy.has_rank() || sy.rank() > 2;
  bool match = sx.has_rank() && sy.has_rank();
  if (match) {
    std::vector<int64_t> bx(sx.dims().begin(), sx.dims().end() - 2),
        by(sy.dims().begin(), sy.dims().end() - 2);
    match = fully_defined(bx) && fully_defined(by) && bx == by;
  }
  if (!may_batch || match) return {gx, gy};
  Tensor shx = shape(x), shy = shape(y);
  // sx[:-2], sy[:-2]: Python's slicing, a StridedSlice named "strided_slice".
  SliceItem upto;
  upto.kind = SliceItem::Kind::kSlice;
  upto.stop = Value(-2);
  std::vector<SliceItem> batch_dims{upto};
  Tensor bx = getitem(shx, batch_dims);
  Tensor by = getitem(shy, batch_dims);
  auto r = execute("BroadcastGradientArgs", {bx, by}, {}, "BroadcastGradientArgs");
  gx = reshape(reduce("Sum", gx, Value(r[0])), Value(shx));
  gy = reshape(reduce("Sum", gy, Value(r[1])), Value(shy));
  return {gx, gy};
}

GradientRegistration r_matmul("MatMul", matmul_grad);
GradientRegistration r_batch_matmul("BatchMatMulV2", batch_matmul_grad);
GradientRegistration r_softmax("Softmax", [](const GradOp& op, const Grads& g) -> Grads {
  const Tensor& sm = op.outputs[0];
  Tensor sum = reduce_sum(multiply(g[0], sm), std::vector<int64_t>{-1}, true);
  return {multiply(subtract(g[0], sum), sm)};
});
GradientRegistration r_log_softmax("LogSoftmax", [](const GradOp& op, const Grads& g) -> Grads {
  Tensor sm = exp(op.outputs[0]);
  return {subtract(g[0], multiply(reduce_sum(g[0], std::vector<int64_t>{-1}, true), sm))};
});
GradientRegistration r_relu6("Relu6", [](const GradOp& op, const Grads& g) -> Grads {
  return {gen("Relu6Grad", {g[0], op.outputs[0]})};
});
// The second output's gradient is None here (the tape passes None for it), so its
// second-derivative term is not built.
GradientRegistration r_xent("SoftmaxCrossEntropyWithLogits",
                            [](const GradOp& op, const Grads& g) -> Grads {
                              Tensor grad = broadcast_mul(g[0], op.outputs[1]);
                              Tensor neg_log = neg(gen("LogSoftmax", {op.inputs[0]}));
                              return {grad, broadcast_mul(g[0], neg_log)};
                            });
GradientRegistration r_l2_loss("L2Loss", [](const GradOp& op, const Grads& g) -> Grads {
  return {multiply(op.inputs[0], g[0])};
});
GradientRegistration r_sparse_xent("SparseSoftmaxCrossEntropyWithLogits", sparse_xent_grad);
GradientRegistration r_bias_add("BiasAdd", bias_add_grad);
GradientRegistration r_relu("Relu", [](const GradOp& op, const Grads& g) -> Grads {
  return {gen("ReluGrad", {g[0], op.outputs[0]})};
});
// _ReluGradGrad: the second derivative of relu is zero, so only the incoming gradient flows on.
GradientRegistration r_relu_grad("ReluGrad", [](const GradOp& op, const Grads& g) -> Grads {
  const Tensor& x = op.inputs[1];
  return {gen("ReluGrad", {g[0], x}), zeros_like(x)};
});
GradientRegistration r_elu("Elu", [](const GradOp& op, const Grads& g) -> Grads {
  return {gen("EluGrad", {g[0], op.outputs[0]})};
});

}  // namespace

void anchor_nn_grads() {}

}  // namespace tfs::autodiff

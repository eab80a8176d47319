// Gradients of the dense-layer ops and activations, as TF 2.21's math_grad.py (MatMul) and
// nn_grad.py build them.
#include "grad_util.h"

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

// _SparseSoftmaxCrossEntropyWithLogitsGrad: the loss gradient times the kernel's backprop (the
// second output's gradient is None here, as TF's tape passes it; its second-derivative term is
// not built).
Grads sparse_xent_grad(const GradOp& op, const Grads& g) {
  Tensor grad = multiply(expand_dims(g[0], -1), op.outputs[1]);
  return {grad, Tensor()};
}

GradientRegistration r_matmul("MatMul", matmul_grad);
GradientRegistration r_sparse_xent("SparseSoftmaxCrossEntropyWithLogits", sparse_xent_grad);
GradientRegistration r_bias_add("BiasAdd", bias_add_grad);
GradientRegistration r_relu("Relu", [](const GradOp& op, const Grads& g) -> Grads {
  return {gen("ReluGrad", {g[0], op.outputs[0]})};
});

}  // namespace

void anchor_nn_grads() {}

}  // namespace tfs::autodiff

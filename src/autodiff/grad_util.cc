#include "grad_util.h"

#include "../ops/op_scope.h"

#include "tfscope/errors.h"
#include "tfscope/graph.h"
#include "tfscope/value.h"

namespace tfs::autodiff {

Tensor gen(const std::string& op, std::vector<Tensor> inputs, AttrMap attrs) {
  return execute1(op, std::move(inputs), std::move(attrs), op);
}

std::optional<std::vector<int64_t>> shape_tuple(const Tensor& t) {
  if (t.is_eager()) return t.eager_shape().dims();
  if (!t.shape().has_rank()) return std::nullopt;
  return t.shape().dims();
}

bool fully_defined(const std::optional<std::vector<int64_t>>& s) {
  if (!s) return false;
  for (int64_t d : *s)
    if (d < 0) return false;
  return true;
}

Tensor int32_const(const std::vector<int64_t>& v, const std::string& name) {
  ValueList items;
  for (int64_t i : v) items.push_back(Value(i));
  return convert_to_tensor(Value::list(std::move(items)), DType::kInt32, name);
}

bool shapes_fully_equal(const Tensor& x, const Tensor& y, const Tensor& grad) {
  auto sx = shape_tuple(x), sy = shape_tuple(y), sg = shape_tuple(grad);
  return sx == sy && sx == sg && fully_defined(sx);
}

bool is_scalar(const Tensor& t) {
  auto s = shape_tuple(t);
  return s && s->empty();
}

void control_on(const Tensor& t, const Tensor& grad) {
  if (!t.is_symbolic() || !grad.is_symbolic() || t.graph() != grad.graph()) return;
  Node* n = t.node();
  for (const Output& in : n->inputs)
    if (in.node == grad.node()) return;
  for (Node* c : n->control_inputs)
    if (c == grad.node()) return;
  n->control_inputs.push_back(grad.node());
}

void control_on_input(const Tensor& t, int i, const Tensor& grad) {
  if (!t.is_symbolic() || !grad.is_symbolic() || t.graph() != grad.graph()) return;
  const Output& in = t.node()->inputs[static_cast<size_t>(i)];
  Node* n = in.node;
  if (n == grad.node()) return;
  for (const Output& x : n->inputs)
    if (x.node == grad.node()) return;
  for (Node* c : n->control_inputs)
    if (c == grad.node()) return;
  n->control_inputs.push_back(grad.node());
}

std::optional<std::vector<int64_t>> constant_ints(const Tensor& t) {
  const Tensor* v = nullptr;
  if (t.is_eager())
    v = &t;
  else if (t.node()->op() == "Const")
    v = &attr_tensor(t.node()->attrs, "value");
  if (!v) return std::nullopt;
  std::vector<int64_t> out;
  visit_dtype(v->dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      const T* p = v->data<T>();
      for (int64_t i = 0; i < v->num_elements(); ++i) out.push_back(static_cast<int64_t>(p[i]));
    }
  });
  return out;
}

Value int_list(const std::vector<int64_t>& v) {
  ValueList items;
  for (int64_t i : v) items.push_back(Value(i));
  return Value::list(std::move(items));
}

std::vector<int64_t> kept_dims(std::vector<int64_t> shape, const std::vector<int64_t>& axes) {
  const int64_t r = static_cast<int64_t>(shape.size());
  for (int64_t a : axes) shape[static_cast<size_t>(((a % r) + r) % r)] = 1;
  return shape;
}

void unimplemented(const std::string& msg) {
  throw Error(ErrorKind::kNotImplemented, msg);
}

Tensor ones_of_shape(const Tensor& dims, DType dtype) {
  detail::OpScope s("ones");
  Tensor one = constant(Value(1), dtype, "Const");
  return execute1("Fill", {dims, one}, {}, s.op_name());
}

Tensor tf_ones_like(const Tensor& x) {
  if (!x.is_symbolic() || !x.shape().is_fully_defined()) return ones_like(x);
  detail::OpScope s("ones_like");
  Tensor dims;
  {
    detail::OpScope shape_scope("Shape");
    dims = int32_const(x.shape().dims(), "shape_as_tensor");
  }
  Tensor one = constant(Value(1), x.dtype(), "Const");
  return execute1("Fill", {dims, one}, {}, s.op_name());
}

namespace {

// _InferGradientReductionAxes on static shapes: nullopt when a rank or a deciding dim is unknown.
std::optional<std::pair<std::vector<int64_t>, std::vector<int64_t>>> infer_axes(
    const PartialShape& xs, const PartialShape& ys) {
  if (!xs.has_rank() || !ys.has_rank()) return std::nullopt;
  const int xr = xs.rank(), yr = ys.rank(), br = std::max(xr, yr);
  std::vector<int64_t> xa, ya;
  for (int axis = 0; axis < br; ++axis) {
    int64_t xd = axis < br - xr ? 1 : xs.dim(axis - (br - xr));
    int64_t yd = axis < br - yr ? 1 : ys.dim(axis - (br - yr));
    if (xd == 1 && yd != 1)
      xa.push_back(axis);
    else if (yd == 1 && xd != 1)
      ya.push_back(axis);
    else if (xd < 0 || yd < 0)
      return std::nullopt;
  }
  return std::make_pair(xa, ya);
}

struct Reduction {
  Tensor shape;
  Value axes;
  bool must_reduce;
};

Tensor reduce_arg(Tensor grad, const Reduction& r) {
  if (!grad.defined() || !r.must_reduce) return grad;
  grad = reduce("Sum", grad, r.axes, /*keepdims=*/true);
  return reshape(grad, Value(r.shape));
}

}  // namespace

std::pair<Tensor, Tensor> reduce_gradient_args(const Tensor& x, const Tensor& y, Tensor gx,
                                               Tensor gy) {
  if (!gx.defined() && !gy.defined()) return {gx, gy};
  // SmartBroadcastGradientArgs.
  Tensor sx = shape(x), sy = shape(y);
  std::optional<std::pair<std::vector<int64_t>, std::vector<int64_t>>> axes;
  if (x.is_symbolic() && y.is_symbolic()) axes = infer_axes(x.shape(), y.shape());
  Reduction rx, ry;
  if (!axes) {
    auto r = execute("BroadcastGradientArgs", {sx, sy}, {}, "BroadcastGradientArgs");
    rx = {sx, Value(r[0]), true};
    ry = {sy, Value(r[1]), true};
  } else {
    auto list = [](const std::vector<int64_t>& v) {
      ValueList items;
      for (int64_t i : v) items.push_back(Value(i));
      return Value::list(std::move(items));
    };
    rx = {sx, list(axes->first), !axes->first.empty() || x.shape().rank() < y.shape().rank()};
    ry = {sy, list(axes->second), !axes->second.empty() || y.shape().rank() < x.shape().rank()};
  }
  return {reduce_arg(std::move(gx), rx), reduce_arg(std::move(gy), ry)};
}

}  // namespace tfs::autodiff

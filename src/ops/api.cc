// Front-end op functions, mirroring TF's Python wrappers: the node names they give, the
// constants they fold in graph mode (tf.shape of a static shape is a Const), and how host
// operands are converted.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "op_scope.h"
#include "tfscope/complex_ops.h"
#include "tfscope/operand_order.h"
#include "tfscope/ops.h"

namespace tfs {

namespace {

const char* python_type_name(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kBool: return "bool";
    case Value::Kind::kInt: return "int";
    case Value::Kind::kFloat: return "float";
    case Value::Kind::kStr: return "str";
    case Value::Kind::kList: return "list";
    case Value::Kind::kTuple: return "tuple";
    case Value::Kind::kNone: return "NoneType";
    case Value::Kind::kDict: return "dict";
    default: return "object";
  }
}

bool is_tensorish(const Value& v) {
  return v.kind() == Value::Kind::kTensor || v.kind() == Value::Kind::kVariable;
}

// A name scope for the duration of one wrapper call, in graph mode only.
using Scope = detail::OpScope;

}  // namespace

Tensor detail::convert_operand(const Value& v, DType dtype, const std::string& param,
                               const std::string& op) {
  if (is_tensorish(v)) return convert_to_tensor(v);
  try {
    return convert_to_tensor(v, dtype, param);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kTypeError || executing_eagerly()) throw;
    std::string d(dtype_name(dtype));
    type_error("Expected " + d + " passed to parameter '" + param + "' of op '" + op + "', got " +
               v.repr() + " of type '" + python_type_name(v) + "' instead. Error: Expected " + d +
               ", but got " + v.repr() + " of type '" + python_type_name(v) + "'.");
  }
}

namespace detail {

Tensor convert_input(const std::string& op, const Value& v, DType dtype, const std::string& param) {
  InputScope s(op);
  return convert_operand(v, dtype, param, op);
}

}  // namespace detail

namespace {

using detail::convert_input;
using detail::convert_operand;

thread_local OperandOrder g_operand_order = OperandOrder::kTensorFirst;

std::pair<Tensor, Tensor> convert_pair(const Value& x, const Value& y, const std::string& op) {
  if (!OperandOrderScope::in_input_order() && !is_tensorish(x) && is_tensorish(y)) {
    Tensor ty = convert_to_tensor(y);
    return {convert_operand(x, ty.dtype(), "x", op), ty};
  }
  Tensor tx = is_tensorish(x) ? convert_to_tensor(x) : convert_to_tensor(x, DType::kInvalid, "x");
  return {tx, convert_operand(y, tx.dtype(), "y", op)};
}

Tensor binary(const std::string& op, const std::string& py_name, const Value& x, const Value& y) {
  Scope s(py_name);
  auto [tx, ty] = convert_pair(x, y, op);
  return execute1(op, {tx, ty}, {}, s.op_name());
}

// LogicalAnd/LogicalOr inputs are bool by definition: TF's generated wrapper converts each host
// operand to bool on its own ("Cannot convert 1 to EagerTensor of dtype bool").
Tensor logical(const std::string& op, const Value& x, const Value& y) {
  Scope s(op);
  Tensor tx = convert_operand(x, DType::kBool, "x", op);
  Tensor ty = convert_operand(y, DType::kBool, "y", op);
  return execute1(op, {tx, ty}, {}, s.op_name());
}

Tensor unary(const std::string& op, const Tensor& x, const std::string& name = "") {
  return execute1(op, {x}, {}, name.empty() ? op : name);
}

Tensor int_list_const(const std::vector<int64_t>& v, const std::string& name,
                      DType dt = DType::kInt32) {
  ValueList items;
  for (int64_t i : v) items.push_back(Value(i));
  return convert_to_tensor(Value::list(std::move(items)), dt, name);
}

// The reduction_indices operand. A given axis (an int, a list, or a tensor) is the op's input, so
// TF's wrapper converts it as "<Op>/reduction_indices"; axis None is a constant range ("Const",
// before the op) when the rank is static, else Range(0, Rank(x)).
Tensor reduction_axes(const std::string& op, const Tensor& x, const Value& axis) {
  if (axis.is_tensor()) return axis.as_tensor();
  if (!axis.is_none()) {
    detail::InputScope s(op);  // the op's name: "<Op>/reduction_indices"
    // An empty list: TF's op_def_library converts it first without a dtype (float32, which
    // the op's Tidx refuses), then as int32; in a graph the float Const stays, unused.
    if (axis.kind() == Value::Kind::kList && axis.items().empty() && !executing_eagerly())
      convert_to_tensor(axis, DType::kFloat32, "reduction_indices");
    return convert_to_tensor(axis, DType::kInt32, "reduction_indices");
  }
  if (x.shape().has_rank()) {
    std::vector<int64_t> all(static_cast<size_t>(x.shape().rank()));
    std::iota(all.begin(), all.end(), 0);
    return int_list_const(all, "Const");
  }
  Tensor r = rank(x);
  return range(Value(0), Value(r), Value(1));
}

// The C++ API's axis: one axis is passed as a scalar (tf.reduce_sum(x, 0)), more as a list.
Value axis_value(const std::optional<std::vector<int64_t>>& axis) {
  if (!axis) return Value();
  if (axis->size() == 1) return Value((*axis)[0]);
  ValueList items;
  for (int64_t a : *axis) items.push_back(Value(a));
  return Value::list(std::move(items));
}

Tensor reduce_vec(const std::string& op, const Tensor& x,
                  const std::optional<std::vector<int64_t>>& axis, bool keepdims) {
  return reduce(op, x, axis_value(axis), keepdims);
}

}  // namespace

Tensor reduce(const std::string& op, const Tensor& x, const Value& axis, bool keepdims) {
  return detail::named_reduce(op, x, axis, keepdims, op);
}

Tensor detail::named_reduce(const std::string& op, const Tensor& x, const Value& axis,
                            bool keepdims, const std::string& node) {
  Tensor ax = reduction_axes(node, x, axis);
  Tensor r = execute1(op, {x, ax}, {{"keep_dims", keepdims}}, node);
  // TF's wrappers pin a full reduction to a scalar even when the input rank is unknown.
  if (axis.is_none() && !keepdims && r.is_symbolic() && !r.shape().has_rank())
    r = current_builder()->refine_shape(r, PartialShape(std::vector<int64_t>{}));
  return r;
}

// math_ops._add_dispatch: strings take the legacy Add op (AddV2 has no string kernel).
Tensor add(const Value& x, const Value& y) {
  Scope s("add");
  auto [tx, ty] = convert_pair(x, y, "AddV2");
  return execute1(tx.dtype() == DType::kString ? "Add" : "AddV2", {tx, ty}, {}, s.op_name());
}
Tensor subtract(const Value& x, const Value& y) { return binary("Sub", "sub", x, y); }
Tensor multiply(const Value& x, const Value& y) { return binary("Mul", "mul", x, y); }
Tensor floordiv(const Value& x, const Value& y) { return binary("FloorDiv", "floordiv", x, y); }
Tensor floormod(const Value& x, const Value& y) { return binary("FloorMod", "mod", x, y); }
Tensor tf_floormod(const Value& x, const Value& y) {
  return binary("FloorMod", "FloorMod", x, y);
}
Tensor truncatediv(const Value& x, const Value& y) {
  return binary("TruncateDiv", "TruncateDiv", x, y);
}
Tensor truncatemod(const Value& x, const Value& y) {
  return binary("TruncateMod", "TruncateMod", x, y);
}
Tensor pow(const Value& x, const Value& y) { return binary("Pow", "pow", x, y); }
Tensor tf_pow(const Value& x, const Value& y) { return binary("Pow", "Pow", x, y); }
Tensor maximum(const Value& x, const Value& y) { return binary("Maximum", "Maximum", x, y); }
Tensor minimum(const Value& x, const Value& y) { return binary("Minimum", "Minimum", x, y); }
Tensor less(const Value& x, const Value& y) { return binary("Less", "Less", x, y); }
Tensor less_equal(const Value& x, const Value& y) { return binary("LessEqual", "LessEqual", x, y); }
Tensor greater(const Value& x, const Value& y) { return binary("Greater", "Greater", x, y); }
Tensor greater_equal(const Value& x, const Value& y) {
  return binary("GreaterEqual", "GreaterEqual", x, y);
}
Tensor equal(const Value& x, const Value& y) { return binary("Equal", "Equal", x, y); }
Tensor not_equal(const Value& x, const Value& y) { return binary("NotEqual", "NotEqual", x, y); }
Tensor logical_and(const Value& x, const Value& y) { return logical("LogicalAnd", x, y); }
Tensor logical_or(const Value& x, const Value& y) { return logical("LogicalOr", x, y); }
Tensor logical_not(const Value& x) {
  Tensor tx = convert_input("LogicalNot", x, DType::kBool, "x");
  return execute1("LogicalNot", {tx}, {}, "LogicalNot");
}
Tensor and_operator(const Value& x, const Value& y) { return binary("LogicalAnd", "and", x, y); }
Tensor or_operator(const Value& x, const Value& y) { return binary("LogicalOr", "or", x, y); }

Tensor truediv(const Value& x, const Value& y) {
  // Python 3 division: integers are cast to floating point first (int32 -> float64).
  Scope s("truediv");
  auto [tx, ty] = convert_pair(x, y, "RealDiv");
  if (tx.dtype() != ty.dtype()) {
    type_error("x and y must have the same dtype, got " + dtype_repr(tx.dtype()) + " != " +
               dtype_repr(ty.dtype()) + ".");
  }
  DType d = tx.dtype();
  if (is_integer(d)) {
    DType target = (d == DType::kInt8 || d == DType::kUInt8 || d == DType::kInt16)
                       ? DType::kFloat32
                       : DType::kFloat64;
    tx = cast(tx, target);
    ty = cast(ty, target);
  }
  return execute1("RealDiv", {tx, ty}, {}, s.op_name());
}

Tensor neg(const Tensor& x) { return unary("Neg", x); }
Tensor abs(const Tensor& x) { return unary("Abs", x); }
Tensor square(const Tensor& x) { return unary("Square", x); }
Tensor sqrt(const Tensor& x) { return unary("Sqrt", x); }
Tensor rsqrt(const Tensor& x) { return unary("Rsqrt", x); }
Tensor exp(const Tensor& x) { return unary("Exp", x); }
Tensor log(const Tensor& x) { return unary("Log", x); }
Tensor tanh(const Tensor& x) { return unary("Tanh", x); }
Tensor sigmoid(const Tensor& x) { return unary("Sigmoid", x); }
Tensor erf(const Tensor& x) { return unary("Erf", x); }
Tensor erfc(const Tensor& x) { return unary("Erfc", x); }
Tensor log1p(const Tensor& x) { return unary("Log1p", x); }
Tensor expm1(const Tensor& x) { return unary("Expm1", x); }
Tensor reciprocal(const Tensor& x) { return unary("Reciprocal", x); }
Tensor ceil(const Tensor& x) { return unary("Ceil", x); }
Tensor relu(const Tensor& x) { return unary("Relu", x); }
Tensor relu6(const Tensor& x) { return unary("Relu6", x); }
Tensor softmax(const Tensor& x) { return unary("Softmax", x); }
Tensor log_softmax(const Tensor& x) { return unary("LogSoftmax", x); }
Tensor identity(const Tensor& x) { return unary("Identity", x); }

namespace {

// math_ops.cast of a Python float: a float32 Const "Cast/x", then a Cast op when the target
// dtype differs (so a float64 gelu uses float32-rounded constants, as TF's does).
Tensor cast_python_float(double v, DType dtype) {
  Scope s("Cast");
  Tensor x = convert_to_tensor(Value(v), DType::kFloat32, "x");
  if (dtype == DType::kFloat32) return x;
  return execute1("Cast", {x}, {{"DstT", dtype}, {"Truncate", false}}, s.op_name());
}

}  // namespace

namespace {

// Elu, Softplus and LeakyRelu take TF's "half, bfloat16, float, double". Another dtype fails as
// TF's wrapper does: a TypeError while building a graph; eagerly the OpDef's attr check, whose
// text ends with " name: " unless a host operand sent the wrapper down eager_fallback.
void check_float_features(const std::string& op, const Tensor& x, bool name_suffix,
                          const std::string& attrs) {
  DType d = x.dtype();
  if (d == DType::kFloat32 || d == DType::kFloat64) return;
  if (!executing_eagerly()) {
    type_error("Value passed to parameter 'features' has DataType " + std::string(dtype_name(d)) +
               " not in list of allowed values: float16, bfloat16, float32, float64");
  }
  invalid_argument("Value for attr 'T' of " + std::string(dtype_tf_string(d)) +
                   " is not in the list of allowed values: half, bfloat16, float, double\n\t; "
                   "NodeDef: {{node " + op + "}}; Op<name=" + op +
                   "; signature=features:T -> activations:T; " + attrs +
                   "allowed=[DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE]> [Op:" + op + "]" +
                   (name_suffix ? " name: " : ""));
}

// gen_nn_ops.elu / softplus: the operand converted in the op's scope ("Elu/features").
Tensor float_activation(const std::string& op, const Value& features) {
  Tensor x = convert_input(op, features, DType::kInvalid, "features");
  check_float_features(op, x, is_tensorish(features), "attr=T:type,");
  return execute1(op, {x}, {}, op);
}

}  // namespace

Tensor leaky_relu(const Value& features, float alpha) {
  // nn_ops.leaky_relu converts in its scope, then calls the op with name=scope (so eager errors
  // always end with " name: ").
  Scope s("LeakyRelu");
  Tensor x = convert_to_tensor(features, DType::kInvalid, "features");
  if (is_integer(x.dtype())) x = cast(x, DType::kFloat32);
  check_float_features("LeakyRelu", x, true,
                       "attr=alpha:float,default=0.2; attr=T:type,default=DT_FLOAT,");
  return execute1("LeakyRelu", {x}, {{"alpha", alpha}}, s.op_name());
}

Tensor elu(const Value& features) {
  return float_activation("Elu", features);
}
Tensor softplus(const Value& features) {
  return float_activation("Softplus", features);
}
Tensor selu(const Value& features) {
  return float_activation("Selu", features);
}

Tensor gelu(const Tensor& x, bool approximate) {
  // tf.nn.gelu, with TF's operations in TF's order (the node names and rounding follow):
  // exact is 0.5 * x * erfc(-x * cast(1/sqrt(2))), approximate is
  // 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + cast(0.044715) * x^3))).
  Scope s("Gelu");
  DType d = x.dtype();
  if (approximate) {
    Tensor coeff = cast_python_float(0.044715, d);
    Tensor half_x = multiply(Value(0.5), x);
    Tensor cube = binary("Pow", "Pow", x, Value(3));
    Tensor inner = add(x, multiply(coeff, cube));
    Tensor scaled = multiply(Value(0.7978845608028654), inner);
    Tensor t = tanh(scaled);
    return multiply(half_x, add(Value(1.0), t));
  }
  Tensor half_x = multiply(Value(0.5), x);
  Tensor neg_x = neg(x);
  Tensor scaled = multiply(neg_x, cast_python_float(0.7071067811865476, d));
  return multiply(half_x, unary("Erfc", scaled));
}

Tensor cast(const Tensor& x, DType dtype) {
  if (x.dtype() == dtype) return x;
  return execute1("Cast", {x}, {{"DstT", dtype}, {"Truncate", false}}, "Cast");
}

Tensor where(const Tensor& cond, const Value& x, const Value& y) {
  auto [tx, ty] = convert_pair(x, y, "SelectV2");
  return execute1("SelectV2", {cond, tx, ty}, {}, "SelectV2");
}

Tensor matmul(const Tensor& a, const Tensor& b, bool transpose_a, bool transpose_b) {
  Scope s("MatMul");  // tf.matmul's name scope: its gradients are in "gradient_tape/MatMul/"
  bool batched = (a.shape().has_rank() && a.shape().rank() > 2) ||
                 (b.shape().has_rank() && b.shape().rank() > 2);
  if (batched) {
    return execute1("BatchMatMulV2", {a, b}, {{"adj_x", transpose_a}, {"adj_y", transpose_b}},
                    s.op_name());
  }
  return execute1("MatMul", {a, b},
                  {{"transpose_a", transpose_a}, {"transpose_b", transpose_b},
                   {"grad_a", false}, {"grad_b", false}},
                  s.op_name());
}

Tensor bias_add(const Value& x, const Value& bias) {
  Scope s("BiasAdd");
  Tensor tx = convert_to_tensor(x, DType::kInvalid, "input");
  Tensor tb = convert_to_tensor(bias, tx.dtype(), "bias");
  return execute1("BiasAdd", {tx, tb}, {{"data_format", std::string("NHWC")}}, s.op_name());
}

Tensor shape(const Tensor& x, DType out_type) {
  if (!executing_eagerly() && x.shape().is_fully_defined()) {
    return int_list_const(x.shape().dims(), "Shape", out_type);
  }
  return execute1("Shape", {x}, {{"out_type", out_type}}, "Shape");
}

Tensor size(const Tensor& x) {
  if (!executing_eagerly() && x.shape().is_fully_defined()) {
    return convert_to_tensor(Value(x.shape().num_elements()), DType::kInt32, "Size");
  }
  return execute1("Size", {x}, {{"out_type", DType::kInt32}}, "Size");
}

Tensor rank(const Tensor& x) {
  if (!executing_eagerly() && x.shape().has_rank()) {
    return convert_to_tensor(Value(x.shape().rank()), DType::kInt32, "Rank");
  }
  return execute1("Rank", {x}, {}, "Rank");
}

Tensor reshape(const Tensor& x, const Value& shape_v) {
  Scope s("Reshape");
  Tensor sh = convert_to_tensor(shape_v, is_tensorish(shape_v) ? DType::kInvalid : DType::kInt32,
                                "shape");
  return execute1("Reshape", {x, sh}, {}, s.op_name());
}

Tensor expand_dims(const Tensor& x, int64_t axis) {
  Scope s("ExpandDims");
  Tensor ax = convert_to_tensor(Value(axis), DType::kInt32, "dim");
  return execute1("ExpandDims", {x, ax}, {}, s.op_name());
}

Tensor squeeze(const Tensor& x, std::vector<int64_t> axis) {
  return execute1("Squeeze", {x}, {{"squeeze_dims", axis}}, "Squeeze");
}

namespace {

// tf.transpose's op (Transpose, or ConjugateTranspose) in the scope "transpose".
Tensor transpose_as(const char* op, const Tensor& x, std::optional<std::vector<int64_t>> perm) {
  Scope s("transpose");
  Tensor p;
  if (perm) {
    p = int_list_const(*perm, "perm");
  } else if (x.shape().has_rank()) {
    std::vector<int64_t> rev(static_cast<size_t>(x.shape().rank()));
    for (size_t i = 0; i < rev.size(); ++i) rev[i] = static_cast<int64_t>(rev.size() - 1 - i);
    p = int_list_const(rev, "perm");
  } else {
    invalid_argument("[ops] transpose of a tensor of unknown rank needs perm");
  }
  return execute1(op, {x, p}, {}, s.op_name());
}

Tensor transpose_by_as(const char* op, const Tensor& x, const Tensor& perm) {
  Scope s("transpose");
  return execute1(op, {x, perm}, {}, s.op_name());
}

}  // namespace

Tensor transpose(const Tensor& x, std::optional<std::vector<int64_t>> perm) {
  return transpose_as("Transpose", x, std::move(perm));
}
Tensor transpose_by(const Tensor& x, const Tensor& perm) {
  return transpose_by_as("Transpose", x, perm);
}
Tensor conjugate_transpose(const Tensor& x, std::optional<std::vector<int64_t>> perm) {
  return transpose_as("ConjugateTranspose", x, std::move(perm));
}
Tensor conjugate_transpose_by(const Tensor& x, const Tensor& perm) {
  return transpose_by_as("ConjugateTranspose", x, perm);
}

Tensor concat(const std::vector<Tensor>& values, int64_t axis) {
  if (values.size() == 1) return identity(values[0]);
  Scope s("concat");
  std::vector<Tensor> ins = values;
  ins.push_back(convert_to_tensor(Value(axis), DType::kInt32, "axis"));
  EagerErrorName n(" name: concat");  // tf.concat passes name="concat" to its op
  return execute1("ConcatV2", ins, {}, s.op_name());
}

Tensor stack(const std::vector<Tensor>& values, int64_t axis) {
  // array_ops_stack.stack checks the axis against the first value's static rank itself.
  if (!values.empty() && values[0].shape().has_rank()) {
    const int64_t expanded = values[0].shape().rank() + 1;
    if (axis < -expanded || axis >= expanded) {
      value_error("Argument `axis` = " + std::to_string(axis) + " not in range [" +
                  std::to_string(-expanded) + ", " + std::to_string(expanded) + ")");
    }
  }
  EagerErrorName n(" name: stack");  // tf.stack passes name="stack" to its op
  return execute1("Pack", values, {{"axis", axis}}, "stack");
}

std::vector<Tensor> unstack(const Tensor& x, int64_t axis, int64_t num) {
  int64_t n = num;
  if (n < 0) {
    if (!x.shape().has_rank()) invalid_argument("[ops] unstack needs a known rank");
    const int64_t r = x.shape().rank();
    if (axis < -r || axis >= r) {
      value_error("Argument `axis` = " + std::to_string(axis) + " not in range [" +
                  std::to_string(-r) + ", " + std::to_string(r) + ")");
    }
    n = x.shape().dim(static_cast<int>(axis < 0 ? axis + r : axis));

    if (n < 0) value_error("Cannot infer argument `num` from shape " + x.shape().as_list_str());
  }
  EagerErrorName en(" name: unstack");  // tf.unstack passes name="unstack" to its op
  return execute("Unpack", {x}, {{"num", n}, {"axis", axis}}, "unstack");
}

Tensor slice(const Value& input, const Value& begin, const Value& size) {
  // gen_array_ops.slice: operands converted in the "Slice" scope; size takes begin's index type.
  Scope s("Slice");
  Tensor x = convert_to_tensor(input, DType::kInvalid, "input");
  Tensor b = convert_to_tensor(begin, DType::kInvalid, "begin");
  Tensor z = convert_operand(size, b.dtype(), "size", "Slice");
  return execute1("Slice", {x, b, z}, {}, s.op_name());
}

Tensor slice(const Tensor& x, const std::vector<int64_t>& begin, const std::vector<int64_t>& sz) {
  Scope s("Slice");
  Tensor b = int_list_const(begin, "begin");
  Tensor z = int_list_const(sz, "size");
  return execute1("Slice", {x, b, z}, {}, s.op_name());
}

Tensor gather(const Tensor& params, const Value& indices, int64_t axis) {
  Scope s("GatherV2");
  Tensor idx = convert_to_tensor(indices, is_tensorish(indices) ? DType::kInvalid : DType::kInt32,
                                 "indices");
  Tensor ax = convert_to_tensor(Value(axis), DType::kInt32, "axis");
  return execute1("GatherV2", {params, idx, ax}, {{"batch_dims", int64_t{0}}}, s.op_name());
}

Tensor fill(const Value& dims, const Value& value) {
  Scope s("Fill");
  // TF's generated wrapper infers the dims dtype (int64 for a dimension past int32) and lets the
  // op's index_type attr reject anything else.
  Tensor d = convert_to_tensor(dims, DType::kInvalid, "dims");
  Tensor v = convert_to_tensor(value, DType::kInvalid, "value");
  return execute1("Fill", {d, v}, {}, s.op_name());
}

namespace {

// The element count of `shape`, or -1 when a dimension is negative or the count overflows
// int64 (then only Fill can report it, in TF's words).
int64_t checked_num_elements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0 || __builtin_mul_overflow(n, d, &n)) return -1;
  }
  return n;
}

Tensor scalar_of(DType dtype, double v) {
  Tensor scalar = Tensor::zeros(dtype, Shape{});
  if (v != 0) {
    visit_dtype(dtype, [&](auto tag) {
      using T = decltype(tag);
      scalar.data<T>()[0] = static_cast<T>(v);
    });
  }
  return scalar;
}

Tensor filled(const std::vector<int64_t>& shape, DType dtype, double v, const char* scope) {
  // tf.zeros/tf.ones: in graph mode a Const for small static shapes (as TF folds them), Fill
  // otherwise. A valid shape goes through TensorShape ("shape_as_tensor", int64 when a dimension
  // needs it); one TensorShape rejects (a negative dimension) is converted as a plain int32 list
  // ("Const"), so that Fill's shape function or kernel reports it with TF's text.
  const int64_t n = checked_num_elements(shape);
  Scope s(scope);
  if (n >= 0 && n < 1000 && current_builder()) {  // np.prod(shape) < 1000, as TF
    Tensor value = Tensor::zeros(dtype, Shape(shape));
    if (v != 0) {
      visit_dtype(dtype, [&](auto tag) {
        using T = decltype(tag);
        std::fill_n(value.data<T>(), n, static_cast<T>(v));
      });
    }
    return current_builder()->constant(value, s.op_name());
  }
  const bool valid = std::all_of(shape.begin(), shape.end(), [](int64_t d) { return d >= 0; });
  const bool wide = std::any_of(shape.begin(), shape.end(),
                                [](int64_t d) { return d > std::numeric_limits<int32_t>::max(); });
  Tensor dims = int_list_const(shape, valid ? "shape_as_tensor" : "Const",
                               wide ? DType::kInt64 : DType::kInt32);
  Tensor scalar = scalar_of(dtype, v);
  Tensor sv = current_builder() ? current_builder()->constant(scalar, "Const") : scalar;
  return execute1("Fill", {dims, sv}, {}, s.op_name());
}

}  // namespace

Tensor zeros(const std::vector<int64_t>& shape, DType dtype) {
  return filled(shape, dtype, 0, "zeros");
}
Tensor ones(const std::vector<int64_t>& shape, DType dtype) {
  return filled(shape, dtype, 1, "ones");
}
namespace {

// array_ops.zeros_like / ones_like: a Const of the static shape when it is fully defined (in a
// graph; eagerly the values are the same either way), else the op.
Tensor filled_like(const Tensor& x, const std::string& op, const std::string& scope, int value) {
  Scope s(scope);
  std::optional<Shape> shape = x.shape().to_shape();
  if (!executing_eagerly() && shape && x.dtype() != DType::kVariant &&
      x.dtype() != DType::kResource && x.dtype() != DType::kString) {
    Tensor t = Tensor::zeros(x.dtype(), *shape);
    if (value != 0) {
      visit_dtype(x.dtype(), [&](auto tag) {
        using T = decltype(tag);
        T* p = t.data<T>();
        for (int64_t i = 0; i < t.num_elements(); ++i) p[i] = static_cast<T>(value);
      });
    }
    return current_builder()->constant(t, s.op_name());
  }
  return execute1(op, {x}, {}, s.op_name());
}

}  // namespace

Tensor zeros_like(const Tensor& x) { return filled_like(x, "ZerosLike", "zeros_like", 0); }
Tensor ones_like(const Tensor& x) { return filled_like(x, "OnesLike", "ones_like", 1); }

Tensor range(const Value& start, const Value& limit, const Value& delta, DType dtype) {
  Value s = start, l = limit;
  if (l.is_none()) {
    l = start;
    s = Value(0);
  }
  Scope sc("range");
  DType d = dtype;
  if (d == DType::kInvalid) {
    // The widest of the three operand dtypes, as tf.range infers it.
    auto rank = [](DType x) { return x == DType::kInt32 ? 0 : x == DType::kInt64 ? 1 : x == DType::kFloat32 ? 2 : 3; };
    d = DType::kInt32;
    for (const Value* v : std::initializer_list<const Value*>{&s, &l, &delta}) {
      DType vd = infer_dtype(*v);
      if (rank(vd) > rank(d)) d = vd;
    }
  }
  // TF converts the host operands first (start, limit, delta), then casts the tensors.
  auto conv = [&](const Value& v, const char* n) {
    return convert_to_tensor(v, is_tensorish(v) ? DType::kInvalid : d, n);
  };
  Tensor ts = conv(s, "start"), tl = conv(l, "limit"), td = conv(delta, "delta");
  for (Tensor* t : {&ts, &tl, &td}) {
    if (t->dtype() != d) *t = cast(*t, d);
  }
  return execute1("Range", {ts, tl, td}, {}, sc.op_name());
}

Tensor reduce_sum(const Tensor& x, std::optional<std::vector<int64_t>> axis, bool keepdims) {
  return reduce_vec("Sum", x, axis, keepdims);
}
Tensor reduce_mean(const Tensor& x, std::optional<std::vector<int64_t>> axis, bool keepdims) {
  return reduce_vec("Mean", x, axis, keepdims);
}
Tensor reduce_max(const Tensor& x, std::optional<std::vector<int64_t>> axis, bool keepdims) {
  return reduce_vec("Max", x, axis, keepdims);
}
Tensor reduce_min(const Tensor& x, std::optional<std::vector<int64_t>> axis, bool keepdims) {
  return reduce_vec("Min", x, axis, keepdims);
}
Tensor reduce_prod(const Tensor& x, std::optional<std::vector<int64_t>> axis, bool keepdims) {
  return reduce_vec("Prod", x, axis, keepdims);
}

Tensor argmax(const Tensor& x, int64_t axis, DType output_type) {
  Scope s("ArgMax");
  Tensor ax = convert_to_tensor(Value(axis), DType::kInt32, "dimension");
  return execute1("ArgMax", {x, ax}, {{"output_type", output_type}}, s.op_name());
}

Tensor argmin(const Tensor& x, int64_t axis, DType output_type) {
  Scope s("ArgMin");
  Tensor ax = convert_to_tensor(Value(axis), DType::kInt32, "dimension");
  return execute1("ArgMin", {x, ax}, {{"output_type", output_type}}, s.op_name());
}

Tensor clip_by_value(const Value& t, const Value& clip_min, const Value& clip_max) {
  // clip_ops.clip_by_value: Minimum, then Maximum named after the scope ("clip_by_value"), each
  // result checked against the input's static shape (a clip bound must not broadcast it).
  Scope s("clip_by_value");
  Tensor values = convert_to_tensor(t, DType::kInvalid, "t");
  auto check = [&](const Tensor& r) {
    if (!values.shape().is_compatible_with(r.shape())) {
      value_error("Shapes " + values.shape().str() + " and " + r.shape().str() +
                  " are incompatible");
    }
  };
  Tensor t_min = minimum(Value(values), clip_max);
  check(t_min);
  Tensor lo = convert_operand(clip_min, t_min.dtype(), "y", "Maximum");
  Tensor t_max = execute1("Maximum", {t_min, lo}, {}, s.op_name());
  check(t_max);
  return t_max;
}

Tensor add_n(const std::vector<Value>& inputs) {
  if (inputs.empty()) {
    value_error("Inputs must be an iterable of at least one Tensor/IndexedSlices with the same "
                "dtype and shape.");
  }
  // Each operand converts on its own (no dtype from the others); one input is returned as is.
  std::vector<Tensor> ts;
  for (const Value& v : inputs) ts.push_back(convert_to_tensor(v));
  if (ts.size() == 1) return ts[0];
  return execute1("AddN", std::move(ts), {}, "AddN");
}

Tensor sign(const Value& x) {
  // math_ops.sign converts its operand first, unscoped ("Const").
  return execute1("Sign", {convert_to_tensor(x)}, {}, "Sign");
}

Tensor floor(const Value& x) {
  return execute1("Floor", {convert_input("Floor", x, DType::kInvalid, "x")}, {}, "Floor");
}

Tensor round(const Value& x) {
  // math_ops.round converts its operand as "x" (unscoped) and returns integers unchanged.
  Tensor t = convert_to_tensor(x, DType::kInvalid, "x");
  if (is_integer(t.dtype())) return t;
  return execute1("Round", {t}, {}, "Round");
}

namespace {

// The seed attrs of one random op (TF's get_seed, at the time the op is built).
AttrMap seed_attrs(std::optional<int64_t> op_seed) {
  auto [seed, seed2] = get_random_seed(op_seed);
  return {{"seed", seed}, {"seed2", seed2}};
}

bool is_python_int(const Value& v, int64_t i) {
  return (v.kind() == Value::Kind::kInt || v.kind() == Value::Kind::kBool) && v.as_int() == i;
}

}  // namespace

Tensor random_uniform(const std::vector<int64_t>& shape, const Value& minval, const Value& maxval,
                      DType dtype, std::optional<int64_t> seed) {
  const bool integer = is_integer(dtype);
  if (maxval.is_none() && integer) {
    value_error("Must specify maxval for integer dtype " + dtype_repr(dtype));
  }
  const Value max_value = maxval.is_none() ? Value(1) : maxval;
  Scope s("random_uniform");
  Tensor sh = int_list_const(shape, "shape");
  // TF skips the range arithmetic only for the Python ints 0 and 1 (an `isinstance` check).
  const bool min_is_zero = is_python_int(minval, 0);
  const bool max_is_one = is_python_int(max_value, 1);
  Tensor lo, hi;
  if (!min_is_zero || !max_is_one || integer) {
    lo = convert_to_tensor(minval, dtype, "min");
    hi = convert_to_tensor(max_value, dtype, "max");
  }
  AttrMap attrs = seed_attrs(seed);
  if (integer) {
    attrs["Tout"] = dtype;
    return execute1("RandomUniformInt", {sh, lo, hi}, std::move(attrs), s.op_name());
  }
  attrs["dtype"] = dtype;
  Tensor u = execute1("RandomUniform", {sh}, std::move(attrs), "RandomUniform");
  if (min_is_zero) return max_is_one ? u : binary("Mul", "Mul", Value(u), Value(hi));
  Tensor scaled = multiply(u, subtract(hi, lo));
  return execute1("AddV2", {scaled, lo}, {}, s.op_name());
}

Tensor random_normal(const std::vector<int64_t>& shape, const Value& mean, const Value& stddev,
                     DType dtype, std::optional<int64_t> seed) {
  Scope s("random_normal");
  Tensor sh = int_list_const(shape, "shape");
  Tensor mean_t = convert_to_tensor(mean, dtype, "mean");
  Tensor stddev_t = convert_to_tensor(stddev, dtype, "stddev");
  AttrMap attrs = seed_attrs(seed);
  attrs["dtype"] = dtype;
  Tensor n = execute1("RandomStandardNormal", {sh}, std::move(attrs), "RandomStandardNormal");
  return execute1("AddV2", {multiply(n, stddev_t), mean_t}, {}, s.op_name());
}

OperandOrderScope::OperandOrderScope(OperandOrder order) : previous_(g_operand_order) {
  g_operand_order = order;
}

OperandOrderScope::~OperandOrderScope() { g_operand_order = previous_; }

OperandOrder OperandOrderScope::current() { return g_operand_order; }

bool OperandOrderScope::in_input_order() {
  return g_operand_order == OperandOrder::kInOrder ||
         (g_operand_order == OperandOrder::kInOrderInGraph && current_builder() != nullptr);
}

}  // namespace tfs

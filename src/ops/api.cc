// Front-end op functions, mirroring TF's Python wrappers: the node names they give, the
// constants they fold in graph mode (tf.shape of a static shape is a Const), and how host
// operands are converted.
#include <cmath>
#include <numeric>

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
class Scope {
 public:
  explicit Scope(const std::string& base) : b_(current_builder()) {
    if (b_) {
      name_ = b_->unique_name(base, true);
      b_->push_scope(name_);
    } else {
      name_ = base;
    }
  }
  ~Scope() {
    if (b_) b_->pop_scope();
  }
  // The exact node name for the op this scope wraps.
  std::string op_name() const { return b_ ? name_ + "/" : name_; }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  GraphBuilder* b_;
  std::string name_;
};

// Convert a host operand to the dtype of the other operand, with TF's error texts.
Tensor convert_operand(const Value& v, DType dtype, const std::string& param,
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

std::pair<Tensor, Tensor> convert_pair(const Value& x, const Value& y, const std::string& op) {
  if (is_tensorish(x)) {
    Tensor tx = convert_to_tensor(x);
    return {tx, convert_operand(y, tx.dtype(), "y", op)};
  }
  if (is_tensorish(y)) {
    Tensor ty = convert_to_tensor(y);
    return {convert_operand(x, ty.dtype(), "x", op), ty};
  }
  Tensor tx = convert_to_tensor(x, DType::kInvalid, "x");
  return {tx, convert_operand(y, tx.dtype(), "y", op)};
}

Tensor binary(const std::string& op, const std::string& py_name, const Value& x, const Value& y) {
  Scope s(py_name);
  auto [tx, ty] = convert_pair(x, y, op);
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

// The reduction_indices operand: a constant range when the rank is static and axis is None.
Tensor reduction_axes(const Tensor& x, const std::optional<std::vector<int64_t>>& axis) {
  if (axis) {
    if (axis->size() == 1) return convert_to_tensor(Value((*axis)[0]), DType::kInt32, "Const");
    return int_list_const(*axis, "Const");
  }
  if (x.shape().has_rank()) {
    std::vector<int64_t> all(static_cast<size_t>(x.shape().rank()));
    std::iota(all.begin(), all.end(), 0);
    return int_list_const(all, "Const");
  }
  Tensor r = rank(x);
  return range(Value(0), Value(r), Value(1));
}

Tensor reduce(const std::string& op, const Tensor& x,
              const std::optional<std::vector<int64_t>>& axis, bool keepdims) {
  Tensor ax = reduction_axes(x, axis);
  return execute1(op, {x, ax}, {{"keep_dims", keepdims}}, op);
}

}  // namespace

Tensor add(const Value& x, const Value& y) { return binary("AddV2", "add", x, y); }
Tensor subtract(const Value& x, const Value& y) { return binary("Sub", "sub", x, y); }
Tensor multiply(const Value& x, const Value& y) { return binary("Mul", "mul", x, y); }
Tensor floordiv(const Value& x, const Value& y) { return binary("FloorDiv", "floordiv", x, y); }
Tensor floormod(const Value& x, const Value& y) { return binary("FloorMod", "mod", x, y); }
Tensor pow(const Value& x, const Value& y) { return binary("Pow", "pow", x, y); }
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
Tensor logical_and(const Value& x, const Value& y) {
  return binary("LogicalAnd", "LogicalAnd", x, y);
}
Tensor logical_or(const Value& x, const Value& y) { return binary("LogicalOr", "LogicalOr", x, y); }
Tensor logical_not(const Tensor& x) { return unary("LogicalNot", x); }

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
Tensor relu(const Tensor& x) { return unary("Relu", x); }
Tensor relu6(const Tensor& x) { return unary("Relu6", x); }
Tensor softmax(const Tensor& x) { return unary("Softmax", x); }
Tensor log_softmax(const Tensor& x) { return unary("LogSoftmax", x); }
Tensor identity(const Tensor& x) { return unary("Identity", x); }

Tensor gelu(const Tensor& x, bool approximate) {
  // tf.nn.gelu: 0.5 * x * (1 + erf(x / sqrt(2))), or the tanh form when approximate.
  Scope s("Gelu");
  DType d = x.dtype();
  if (approximate) {
    Tensor coeff = convert_to_tensor(Value(0.044715), d, "Cast");
    Tensor inner = multiply(convert_to_tensor(Value(0.7978845608028654), d, "Cast_1"),
                            add(x, multiply(coeff, pow(x, Value(3)))));
    return multiply(multiply(Value(0.5), x), add(Value(1.0), tanh(inner)));
  }
  Tensor scaled = truediv(x, convert_to_tensor(Value(1.4142135623730951), d, "Cast"));
  return multiply(multiply(Value(0.5), x), add(Value(1.0), erf(scaled)));
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
  bool batched = (a.shape().has_rank() && a.shape().rank() > 2) ||
                 (b.shape().has_rank() && b.shape().rank() > 2);
  if (batched) {
    return execute1("BatchMatMulV2", {a, b}, {{"adj_x", transpose_a}, {"adj_y", transpose_b}},
                    "MatMul");
  }
  return execute1("MatMul", {a, b},
                  {{"transpose_a", transpose_a}, {"transpose_b", transpose_b},
                   {"grad_a", false}, {"grad_b", false}},
                  "MatMul");
}

Tensor bias_add(const Tensor& x, const Tensor& bias) {
  return execute1("BiasAdd", {x, bias}, {{"data_format", std::string("NHWC")}}, "BiasAdd");
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

Tensor transpose(const Tensor& x, std::optional<std::vector<int64_t>> perm) {
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
  return execute1("Transpose", {x, p}, {}, s.op_name());
}

Tensor concat(const std::vector<Tensor>& values, int64_t axis) {
  if (values.size() == 1) return identity(values[0]);
  Scope s("concat");
  std::vector<Tensor> ins = values;
  ins.push_back(convert_to_tensor(Value(axis), DType::kInt32, "axis"));
  return execute1("ConcatV2", ins, {}, s.op_name());
}

Tensor stack(const std::vector<Tensor>& values, int64_t axis) {
  return execute1("Pack", values, {{"axis", axis}}, "stack");
}

std::vector<Tensor> unstack(const Tensor& x, int64_t axis) {
  if (!x.shape().has_rank()) invalid_argument("[ops] unstack needs a known rank");
  int r = x.shape().rank();
  int64_t a = axis < 0 ? axis + r : axis;
  int64_t n = x.shape().dim(static_cast<int>(a));
  if (n < 0) value_error("Cannot infer argument `num` from shape " + x.shape().as_list_str());
  return execute("Unpack", {x}, {{"num", n}, {"axis", axis}}, "unstack");
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
  Tensor d = convert_to_tensor(dims, is_tensorish(dims) ? DType::kInvalid : DType::kInt32, "dims");
  Tensor v = convert_to_tensor(value, DType::kInvalid, "value");
  return execute1("Fill", {d, v}, {}, s.op_name());
}

namespace {

Tensor filled(const std::vector<int64_t>& shape, DType dtype, double v, const char* scope) {
  // tf.zeros/tf.ones: a Const for small static shapes (as TF folds them), Fill otherwise.
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  Scope s(scope);
  Tensor value = Tensor::zeros(dtype, Shape(shape));
  if (v != 0) {
    visit_dtype(dtype, [&](auto tag) {
      using T = decltype(tag);
      T* p = value.data<T>();
      for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(v);
    });
  }
  if (n <= 1000) {
    if (GraphBuilder* b = current_builder()) return b->constant(value, s.op_name());
    return value;
  }
  Tensor dims = int_list_const(shape, "shape");
  Tensor scalar = Tensor::zeros(dtype, Shape{});
  if (v != 0) {
    visit_dtype(dtype, [&](auto tag) {
      using T = decltype(tag);
      scalar.data<T>()[0] = static_cast<T>(v);
    });
  }
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
Tensor zeros_like(const Tensor& x) { return unary("ZerosLike", x, "zeros_like"); }
Tensor ones_like(const Tensor& x) { return unary("OnesLike", x, "ones_like"); }

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
  auto conv = [&](const Value& v, const char* n) {
    Tensor t = convert_to_tensor(v, is_tensorish(v) ? DType::kInvalid : d, n);
    return t.dtype() == d ? t : cast(t, d);
  };
  Tensor ts = conv(s, "start"), tl = conv(l, "limit"), td = conv(delta, "delta");
  return execute1("Range", {ts, tl, td}, {}, sc.op_name());
}

Tensor reduce_sum(const Tensor& x, std::optional<std::vector<int64_t>> axis, bool keepdims) {
  return reduce("Sum", x, axis, keepdims);
}
Tensor reduce_mean(const Tensor& x, std::optional<std::vector<int64_t>> axis, bool keepdims) {
  return reduce("Mean", x, axis, keepdims);
}
Tensor reduce_max(const Tensor& x, std::optional<std::vector<int64_t>> axis, bool keepdims) {
  return reduce("Max", x, axis, keepdims);
}
Tensor reduce_min(const Tensor& x, std::optional<std::vector<int64_t>> axis, bool keepdims) {
  return reduce("Min", x, axis, keepdims);
}
Tensor reduce_prod(const Tensor& x, std::optional<std::vector<int64_t>> axis, bool keepdims) {
  return reduce("Prod", x, axis, keepdims);
}

Tensor argmax(const Tensor& x, int64_t axis, DType output_type) {
  Scope s("ArgMax");
  Tensor ax = convert_to_tensor(Value(axis), DType::kInt32, "dimension");
  return execute1("ArgMax", {x, ax}, {{"output_type", output_type}}, s.op_name());
}

Tensor random_uniform(const std::vector<int64_t>& shape, int64_t seed, double minval,
                      double maxval, DType dtype) {
  Scope s("random_uniform");
  Tensor sh = int_list_const(shape, "shape");
  Tensor key = convert_to_tensor(Value::list({Value(seed)}), DType::kInt64, "key");
  Tensor counter = convert_to_tensor(Value::list({Value(0), Value(0)}), DType::kInt64, "counter");
  Tensor alg = convert_to_tensor(Value(1), DType::kInt32, "alg");
  Tensor u = execute1("StatelessRandomUniformV2", {sh, key, counter, alg}, {{"dtype", dtype}},
                      "StatelessRandomUniformV2");
  if (minval == 0.0 && maxval == 1.0) return u;
  Tensor scaled = multiply(u, convert_to_tensor(Value(maxval - minval), dtype, "range"));
  return add(scaled, convert_to_tensor(Value(minval), dtype, "min"));
}

Tensor random_normal(const std::vector<int64_t>& shape, int64_t seed, double mean, double stddev,
                     DType dtype) {
  Scope s("random_normal");
  Tensor sh = int_list_const(shape, "shape");
  Tensor key = convert_to_tensor(Value::list({Value(seed)}), DType::kInt64, "key");
  Tensor counter = convert_to_tensor(Value::list({Value(0), Value(0)}), DType::kInt64, "counter");
  Tensor alg = convert_to_tensor(Value(1), DType::kInt32, "alg");
  Tensor n = execute1("StatelessRandomNormalV2", {sh, key, counter, alg}, {{"dtype", dtype}},
                      "StatelessRandomNormalV2");
  if (mean == 0.0 && stddev == 1.0) return n;
  return add(multiply(n, convert_to_tensor(Value(stddev), dtype, "stddev")),
             convert_to_tensor(Value(mean), dtype, "mean"));
}

}  // namespace tfs

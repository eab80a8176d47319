// Front ends of normalization and statistics (ops_stats.h), each building the nodes TF 2.21's
// Python function builds, under the same names.
#include "tfscope/ops_stats.h"

#include <limits>

#include "kernel_util.h"
#include "op_scope.h"
#include "tfscope/operand_order.h"
#include "tfscope/ops.h"
#include "tfscope/ops_array.h"

namespace tfs {
namespace {

using detail::convert_input;
using detail::OpScope;

bool is_tensorish(const Value& v) {
  return v.kind() == Value::Kind::kTensor || v.kind() == Value::Kind::kVariable;
}
bool is_host_number(const Value& v) {
  return v.kind() == Value::Kind::kInt || v.kind() == Value::Kind::kFloat;
}

// The axes as squeeze_dims: None squeezes every dim of size 1.
std::vector<int64_t> axes_list(const Value& axes) {
  std::vector<int64_t> out;
  if (axes.is_none()) return out;
  if (axes.kind() == Value::Kind::kInt) return {axes.as_int()};
  if (axes.is_tensor()) return detail::tensor_ints(axes.as_tensor());
  for (const Value& a : axes.items()) out.push_back(a.as_int());
  return out;
}

Tensor ints_const(const std::vector<int64_t>& v, DType dtype, const std::string& name) {
  ValueList items;
  for (int64_t i : v) items.push_back(Value(i));
  return convert_to_tensor(Value::list(std::move(items)), dtype, name);
}

// _descending_sort: TopKV2 of the whole axis, moved last by a Transpose when it is not.
Tensor descending_sort(const Tensor& values, int64_t axis, bool return_argsort) {
  Tensor k = getitem(shape(values), {SliceItem{SliceItem::Kind::kIndex, Value(axis), {}, {}, {}}});
  (void)rank(values);  // TF computes the rank whether or not it needs it
  const PartialShape& s = values.shape();
  Tensor input = values;
  std::optional<Tensor> transposition;
  if (!(axis == -1 || (s.has_rank() && axis + 1 == s.rank()))) {
    if (!s.has_rank()) {
      invalid_argument("[ops] tf.sort: an axis other than the last needs a known rank");
    }
    const int64_t r = s.rank();
    const int64_t a = axis < 0 ? axis + r : axis;
    std::vector<int64_t> perm;
    for (int64_t i = 0; i < a; ++i) perm.push_back(i);
    perm.push_back(r - 1);
    for (int64_t i = a + 1; i < r - 1; ++i) perm.push_back(i);
    perm.push_back(a);
    transposition = ints_const(perm, DType::kInt64, "transposition");
    input = transpose_by(values, *transposition);
  }
  auto [vals, idx] = top_k(Value(input), Value(k));
  // TF's shape inference evaluates the constant k = shape(values)[axis]; pin what it finds.
  const PartialShape& is = input.shape();
  if (GraphBuilder* b = current_builder(); b && is.has_rank() && is.dim(is.rank() - 1) >= 0) {
    vals = b->refine_shape(vals, is);
    idx = b->refine_shape(idx, is);
  }
  Tensor out = return_argsort ? idx : vals;
  return transposition ? transpose_by(out, *transposition) : out;
}

Tensor sort_or_argsort(const Value& values_v, int64_t axis, const std::string& direction,
                       bool return_argsort) {
  OpScope scope(return_argsort ? "argsort" : "sort");
  if (direction != "ASCENDING" && direction != "DESCENDING") {
    value_error(
        "Argument `direction` should be one of ASCENDING, DESCENDING. Received: "
        "direction=" +
        direction);
  }
  (void)convert_to_tensor(Value(axis), DType::kInt32, "axis");
  Tensor values = convert_to_tensor(values_v, DType::kInvalid, "values");
  if (direction == "DESCENDING") return descending_sort(values, axis, return_argsort);
  const DType dt = values.dtype();
  if (dt == DType::kUInt8) {
    const Value offset(int64_t{255});
    Tensor r = descending_sort(subtract(offset, Value(values)), axis, return_argsort);
    return return_argsort ? r : subtract(offset, Value(r));
  }
  if (is_integer(dt)) {
    Tensor r = descending_sort(subtract(Value(neg(values)), Value(1)), axis, return_argsort);
    return return_argsort ? r : subtract(Value(neg(r)), Value(1));
  }
  Tensor r = descending_sort(neg(values), axis, return_argsort);
  return return_argsort ? r : neg(r);
}

}  // namespace

Tensor stop_gradient(const Value& x) {
  Tensor t = convert_input("StopGradient", x, DType::kInvalid, "input");
  return execute1("StopGradient", {t}, {}, "StopGradient");
}

Tensor squared_difference(const Value& x, const Value& y) {
  OpScope s("SquaredDifference");
  Tensor tx, ty;
  if (!OperandOrderScope::in_input_order() && !is_tensorish(x) && is_tensorish(y)) {
    ty = convert_to_tensor(y);
    tx = convert_to_tensor(x, ty.dtype(), "x");
  } else {
    tx = is_tensorish(x) ? convert_to_tensor(x) : convert_to_tensor(x, DType::kInvalid, "x");
    ty = is_tensorish(y) ? convert_to_tensor(y) : convert_to_tensor(y, tx.dtype(), "y");
  }
  return execute1("SquaredDifference", {tx, ty}, {}, s.op_name());
}

std::pair<Tensor, Tensor> moments(const Value& x, const Value& axes, bool keepdims) {
  OpScope s("moments");
  Tensor y = convert_to_tensor(x);
  Tensor mean = detail::named_reduce("Mean", y, axes, /*keepdims=*/true, "mean");
  Tensor variance =
      detail::named_reduce("Mean", squared_difference(Value(y), Value(stop_gradient(Value(mean)))),
                           axes, /*keepdims=*/true, "variance");
  if (!keepdims) {
    mean = squeeze(mean, axes_list(axes));
    variance = squeeze(variance, axes_list(axes));
  }
  return {mean, variance};
}

Tensor batch_normalization(const Value& x, const Value& mean, const Value& variance,
                           const Value& offset, const Value& scale, double variance_epsilon) {
  OpScope s("batchnorm");
  // rsqrt(variance + variance_epsilon): Python adds Python numbers itself.
  Value sum = is_host_number(variance) ? Value(variance.as_double() + variance_epsilon)
                                       : Value(add(variance, Value(variance_epsilon)));
  Tensor inv = rsqrt(convert_input("Rsqrt", sum, DType::kInvalid, "x"));
  if (!scale.is_none()) inv = multiply(Value(inv), scale);
  Tensor tx = convert_to_tensor(x);
  if (inv.dtype() != tx.dtype()) inv = cast(inv, tx.dtype());
  Tensor scaled = multiply(Value(tx), Value(inv));
  Tensor shift;
  if (offset.is_none()) {
    // -mean * inv: Python negates a number itself, a tensor by Neg.
    Value neg_mean = !is_host_number(mean)              ? Value(neg(convert_to_tensor(mean)))
                     : mean.kind() == Value::Kind::kInt ? Value(-mean.as_int())
                                                        : Value(-mean.as_double());
    shift = multiply(neg_mean, Value(inv));
  } else {
    // offset - mean * inv: the product first; a variable offset is then read by its own
    // __sub__ outside the Sub's scope ("batchnorm/ReadVariableOp", as in TF), a tensor or number
    // converts inside it.
    Tensor product = multiply(mean, Value(inv));
    Value off = offset.kind() == Value::Kind::kVariable ? Value(convert_to_tensor(offset)) : offset;
    shift = subtract(off, Value(product));
  }
  if (shift.dtype() != tx.dtype()) shift = cast(shift, tx.dtype());
  return add(Value(scaled), Value(shift));
}

Tensor l2_normalize(const Value& x, const Value& axis, double epsilon) {
  OpScope s("l2_normalize");
  Tensor tx = convert_to_tensor(x, DType::kInvalid, "x");
  Tensor square_sum = reduce("Sum", square(tx), axis, /*keepdims=*/true);
  Tensor inv = rsqrt(maximum(Value(square_sum), Value(epsilon)));
  return execute1("Mul", {tx, inv}, {}, s.op_name());
}

Tensor reduce_variance(const Value& x, const Value& axis, bool keepdims) {
  OpScope s("reduce_variance");
  Tensor t = convert_to_tensor(x);
  Tensor means = reduce("Mean", t, axis, /*keepdims=*/true);
  if (is_integer(means.dtype())) {
    type_error("Input must be either real or complex. Received integer type <dtype: '" +
               std::string(dtype_name(means.dtype())) + "'>.");
  }
  Tensor squared = square(subtract(Value(t), Value(means)));
  return reduce("Mean", squared, axis, keepdims);
}

Tensor reduce_std(const Value& x, const Value& axis, bool keepdims) {
  OpScope s("reduce_std");
  Tensor t = convert_to_tensor(x);
  return sqrt(reduce_variance(Value(t), axis, keepdims));
}

Tensor cumsum(const Value& x, const Value& axis, bool exclusive, bool reverse) {
  OpScope s("Cumsum");
  Tensor t = convert_to_tensor(x, DType::kInvalid, "x");
  Tensor ax =
      is_tensorish(axis) ? convert_to_tensor(axis) : convert_to_tensor(axis, DType::kInt32, "axis");
  return execute1("Cumsum", {t, ax}, {{"exclusive", exclusive}, {"reverse", reverse}}, s.op_name());
}

std::pair<Tensor, Tensor> top_k(const Value& x, const Value& k, bool sorted, DType index_type) {
  Tensor t = convert_input("TopKV2", x, DType::kInvalid, "input");
  Tensor tk = convert_input("TopKV2", k, DType::kInt32, "k");
  auto outs =
      execute("TopKV2", {t, tk}, {{"sorted", sorted}, {"index_type", index_type}}, "TopKV2");
  return {outs.at(0), outs.at(1)};
}

Tensor sort(const Value& values, int64_t axis, const std::string& direction) {
  return sort_or_argsort(values, axis, direction, false);
}
Tensor argsort(const Value& values, int64_t axis, const std::string& direction) {
  return sort_or_argsort(values, axis, direction, true);
}

Tensor embedding_lookup(const Value& params, const Value& ids) {
  OpScope s("embedding_lookup");
  Tensor p = convert_to_tensor(params, DType::kInvalid, "params");
  Tensor i = convert_to_tensor(ids, is_tensorish(ids) ? DType::kInvalid : DType::kInt32, "ids");
  Tensor ax = convert_to_tensor(Value(int64_t{0}), DType::kInt32, "axis");
  Tensor g = execute1("GatherV2", {p, i, ax}, {{"batch_dims", int64_t{0}}}, s.op_name());
  return identity(g);
}

}  // namespace tfs

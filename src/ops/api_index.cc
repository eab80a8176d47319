// Front ends of splitting, indexing and padding (ops_index.h), each building the nodes TF 2.21's
// Python function builds, under the same names.
#include "tfscope/ops_index.h"

#include <algorithm>
#include <cctype>

#include "kernel_util.h"
#include "op_scope.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

using detail::convert_input;
using detail::OpScope;

bool is_tensorish(const Value& v) {
  return v.kind() == Value::Kind::kTensor || v.kind() == Value::Kind::kVariable;
}

Tensor index_input(const std::string& op, const Value& v, const std::string& param) {
  return convert_input(op, v, DType::kInt32, param);
}

Tensor ints_const(const std::vector<int64_t>& v, const std::string& name) {
  ValueList items;
  for (int64_t i : v) items.push_back(Value(i));
  return convert_to_tensor(Value::list(std::move(items)), DType::kInt32, name);
}

// tf.pad restores the static shape from constant paddings where the op's leaves it unknown.
Tensor restore_pad_shape(const Tensor& result, const Tensor& input, const Tensor& paddings) {
  GraphBuilder* b = current_builder();
  if (!b || result.shape().is_fully_defined() || !input.shape().has_rank()) return result;
  if (paddings.is_symbolic()) return result;
  const std::vector<int64_t> pads = detail::tensor_ints(paddings);
  std::vector<int64_t> dims;
  for (int i = 0; i < input.shape().rank(); ++i) {
    const int64_t d = input.shape().dim(i);
    dims.push_back(
        d < 0 ? -1 : d + pads[static_cast<size_t>(2 * i)] + pads[static_cast<size_t>(2 * i + 1)]);
  }
  return b->refine_shape(result, PartialShape(dims));
}

// str() of a tf.DType: "<dtype: 'float32'>".
std::string dtype_text(DType d) {
  return "<dtype: '" + std::string(dtype_name(d)) + "'>";
}

bool is_zero_number(const Value& v) {
  return (v.kind() == Value::Kind::kInt || v.kind() == Value::Kind::kFloat ||
          v.kind() == Value::Kind::kBool) &&
         v.as_double() == 0.0;
}

}  // namespace

std::vector<Tensor> split(const Value& value, const Value& num_or_size_splits, const Value& axis,
                          int64_t num) {
  if (num_or_size_splits.kind() == Value::Kind::kInt) {
    OpScope s("split");
    Tensor ax =
        convert_to_tensor(axis, is_tensorish(axis) ? DType::kInvalid : DType::kInt32, "split_dim");
    Tensor v = convert_to_tensor(value, DType::kInvalid, "value");
    return execute("Split", {ax, v}, {{"num_split", num_or_size_splits.as_int()}}, s.op_name());
  }
  Tensor sizes = convert_to_tensor(num_or_size_splits);
  const PartialShape& ss = sizes.shape();
  if (ss.has_rank() && ss.rank() == 0) {
    value_error(
        "Rank-0 tensors are not supported as the num_or_size_splits argument to split. "
        "Argument provided: " +
        num_or_size_splits.str());
  }
  if (num < 0) {
    if (!ss.has_rank() || ss.dim(0) < 0) {
      value_error("Cannot infer argument `num` from shape " + num_or_size_splits.str());
    }
    num = ss.dim(0);
  }
  OpScope s("split");
  Tensor v = convert_to_tensor(value, DType::kInvalid, "value");
  Tensor ax =
      convert_to_tensor(axis, is_tensorish(axis) ? DType::kInvalid : DType::kInt32, "split_dim");
  return execute("SplitV", {v, sizes, ax}, {{"num_split", num}}, s.op_name());
}

Tensor one_hot(const Value& indices, const Value& depth, const Value& on_value,
               const Value& off_value, int64_t axis, DType dtype) {
  OpScope s("one_hot");
  const bool on_exists = !on_value.is_none(), off_exists = !off_value.is_none();
  std::optional<Tensor> on, off;
  if (on_exists) on = convert_to_tensor(on_value, is_tensorish(on_value) ? DType::kInvalid : dtype);
  if (off_exists)
    off = convert_to_tensor(off_value, is_tensorish(off_value) ? DType::kInvalid : dtype);
  if (on_exists || off_exists) {
    if (dtype != DType::kInvalid) {
      if (on && on->dtype() != dtype) {
        type_error("dtype " + dtype_text(on->dtype()) +
                   " of on_value does not match dtype parameter " + dtype_text(dtype));
      }
      if (off && off->dtype() != dtype) {
        type_error("dtype " + dtype_text(off->dtype()) +
                   " of off_value does not match dtype parameter " + dtype_text(dtype));
      }
    } else {
      dtype = on ? on->dtype() : off->dtype();
    }
  } else if (dtype == DType::kInvalid) {
    dtype = DType::kFloat32;
  }
  if (!on) on = convert_to_tensor(Value(1), dtype, "on_value");
  if (!off) off = convert_to_tensor(Value(0), dtype, "off_value");
  if (on->dtype() != off->dtype()) {
    type_error("dtype " + dtype_text(on->dtype()) + " of on_value does not match dtype " +
               dtype_text(off->dtype()) + " of off_value");
  }
  Tensor ix = convert_to_tensor(indices, is_tensorish(indices) ? DType::kInvalid : DType::kInt32,
                                "indices");
  Tensor d =
      convert_to_tensor(depth, is_tensorish(depth) ? DType::kInvalid : DType::kInt32, "depth");
  return execute1("OneHot", {ix, d, *on, *off}, {{"axis", axis}}, s.op_name());
}

Tensor eye(int64_t num_rows, int64_t num_columns, const std::vector<int64_t>& batch_shape,
           DType dtype) {
  OpScope s("eye");
  const int64_t cols = num_columns < 0 ? num_rows : num_columns;
  std::vector<int64_t> diag_shape = batch_shape;
  diag_shape.push_back(std::min(num_rows, cols));
  Tensor diag = ones(diag_shape, dtype);
  if (num_rows == cols) {
    OpScope d("diag");
    Tensor k = convert_to_tensor(Value(0), DType::kInt32, "k");
    Tensor r = convert_to_tensor(Value(-1), DType::kInt32, "num_rows");
    Tensor c = convert_to_tensor(Value(-1), DType::kInt32, "num_cols");
    Tensor p = convert_to_tensor(Value(0), dtype, "padding_value");
    return execute1("MatrixDiagV3", {diag, k, r, c, p}, {{"align", std::string("RIGHT_LEFT")}},
                    d.op_name());
  }
  std::vector<int64_t> shape = batch_shape;
  shape.push_back(num_rows);
  shape.push_back(cols);
  Tensor z = zeros(shape, dtype);
  OpScope d("set_diag");
  Tensor k = convert_to_tensor(Value(0), DType::kInt32, "k");
  return execute1("MatrixSetDiagV3", {z, diag, k}, {{"align", std::string("RIGHT_LEFT")}},
                  d.op_name());
}

Tensor where(const Value& condition) {
  OpScope s("Where");
  // convert_to_tensor(condition, preferred_dtype=bool): bool where the value converts to it.
  Tensor c;
  try {
    c = convert_to_tensor(condition, is_tensorish(condition) ? DType::kInvalid : DType::kBool,
                          "condition");
  } catch (const Error&) {
    c = convert_to_tensor(condition, DType::kInvalid, "condition");
  }
  return execute1("Where", {c}, {}, s.op_name());
}

Tensor gather_nd(const Value& params, const Value& indices) {
  Tensor p = convert_input("GatherNd", params, DType::kInvalid, "params");
  Tensor i = index_input("GatherNd", indices, "indices");
  return execute1("GatherNd", {p, i}, {{"bad_indices_policy", std::string()}}, "GatherNd");
}

Tensor scatter_nd(const Value& indices, const Value& updates, const Value& shape) {
  Tensor i = index_input("ScatterNd", indices, "indices");
  Tensor u = convert_input("ScatterNd", updates, DType::kInvalid, "updates");
  Tensor sh = convert_input("ScatterNd", shape, i.dtype(), "shape");
  return execute1("ScatterNd", {i, u, sh}, {{"bad_indices_policy", std::string()}}, "ScatterNd");
}

Tensor tensor_scatter_nd_update(const Value& tensor, const Value& indices, const Value& updates) {
  const std::string op = "TensorScatterUpdate";
  Tensor t = convert_input(op, tensor, DType::kInvalid, "tensor");
  Tensor i = index_input(op, indices, "indices");
  Tensor u = convert_input(op, updates, t.dtype(), "updates");
  return execute1(op, {t, i, u}, {{"bad_indices_policy", std::string()}}, op);
}

Tensor pad(const Value& tensor, const Value& paddings, const std::string& mode_in,
           const Value& constant_values) {
  std::string mode = mode_in;
  std::transform(mode.begin(), mode.end(), mode.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
  std::string op;
  if (mode == "CONSTANT") {
    op = is_zero_number(constant_values) ? "Pad" : "PadV2";
  } else if (mode == "REFLECT" || mode == "SYMMETRIC") {
    op = "MirrorPad";
  } else {
    value_error(
        "Value of argument `mode` expected to be one of \"CONSTANT\", \"REFLECT\", or "
        "\"SYMMETRIC\". Received `mode` = " +
        mode);
  }
  Tensor t = convert_input(op, tensor, DType::kInvalid, "input");
  Tensor p = index_input(op, paddings, "paddings");
  Tensor r;
  if (op == "PadV2") {
    Tensor cv = convert_input(op, constant_values, t.dtype(), "constant_values");
    r = execute1(op, {t, p, cv}, {}, op);
  } else if (op == "MirrorPad") {
    r = execute1(op, {t, p}, {{"mode", mode}}, op);
  } else {
    r = execute1(op, {t, p}, {}, op);
  }
  return restore_pad_shape(r, t, p);
}

Tensor reverse(const Value& tensor, const Value& axis) {
  Tensor t = convert_input("ReverseV2", tensor, DType::kInvalid, "tensor");
  Tensor a = index_input("ReverseV2", axis, "axis");
  return execute1("ReverseV2", {t, a}, {}, "ReverseV2");
}

Tensor sequence_mask(const Value& lengths_v, const Value& maxlen_v, DType dtype) {
  OpScope s("SequenceMask");
  Tensor lengths = convert_to_tensor(lengths_v);
  Tensor maxlen;
  if (maxlen_v.is_none()) {
    std::vector<int64_t> all;
    if (lengths.shape().has_rank()) {
      for (int i = 0; i < lengths.shape().rank(); ++i) all.push_back(i);
    }
    Tensor axes = lengths.shape().has_rank() ? ints_const(all, "Const")
                                             : range(Value(0), Value(rank(lengths)), Value(1));
    maxlen = execute1("Max", {lengths, axes}, {{"keep_dims", false}}, "Max");
    Tensor zero = convert_to_tensor(Value(0), maxlen.dtype(), "Const");
    maxlen = execute1("Maximum", {zero, maxlen}, {}, "Maximum");
  } else {
    maxlen = convert_to_tensor(maxlen_v);
  }
  if (maxlen.shape().has_rank() && maxlen.shape().rank() != 0) {
    value_error("Argument `maxlen` must be scalar for sequence_mask, received `maxlen` = " +
                maxlen_v.str() + " with shape '" + maxlen.shape().str() + "' instead");
  }
  Tensor start = convert_to_tensor(Value(0), maxlen.dtype(), "Const");
  Tensor step = convert_to_tensor(Value(1), maxlen.dtype(), "Const");
  Tensor row = execute1("Range", {start, maxlen, step}, {}, "Range");
  Tensor matrix = execute1("Cast", {expand_dims(lengths, -1)},
                           {{"DstT", maxlen.dtype()}, {"Truncate", false}}, "Cast");
  Tensor result = less(Value(row), Value(matrix));
  if (dtype == DType::kInvalid || dtype == DType::kBool) return result;
  return execute1("Cast", {result}, {{"DstT", dtype}, {"Truncate", false}}, "Cast");
}

Tensor matvec(const Value& a, const Value& b, bool transpose_a) {
  OpScope s("MatVec");
  Tensor ta = convert_to_tensor(a), tb = convert_to_tensor(b);
  Tensor product = matmul(ta, expand_dims(tb, -1), transpose_a, false);
  return squeeze(product, {-1});
}

}  // namespace tfs

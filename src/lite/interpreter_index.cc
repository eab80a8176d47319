// The interpreter's indexing and shape operators, as LiteRT's reference kernels compute them:
// GATHER (a float table, or an int8 one whose rows stay int8 until a DEQUANTIZE), DEQUANTIZE,
// SHAPE, CAST, STRIDED_SLICE and PACK. Integer activations are carried as floats
// (interpreter_impl.h); these operators only move values, except DEQUANTIZE and CAST.
#include <algorithm>
#include <cmath>

#include "interpreter_impl.h"

namespace tfs::lite {

using Impl = Interpreter::Impl;
using Op = Interpreter::Impl::Op;
using TensorValue = Interpreter::TensorValue;

namespace {

const RtTensor& tensor_of(const Impl& m, int t) {
  return m.tensors[static_cast<size_t>(t)];
}

// ---- GATHER (axis 0, batch_dims 0: rows of a constant table) ----

void prepare_gather(Impl& m, Op& o) {
  const auto* opt = o.op->builtin_options_as_GatherOptions();
  if (opt && (opt->axis() != 0 || opt->batch_dims() != 0)) {
    m.fail("GATHER with axis " + std::to_string(opt->axis()) + " and batch_dims " +
           std::to_string(opt->batch_dims()) + " is not supported (only axis 0, batch_dims 0)");
  }
  const RtTensor& table = tensor_of(m, o.in[0]);
  if (!table.is_const || table.shape.empty() ||
      (table.type != tflite::TensorType_FLOAT32 && table.type != tflite::TensorType_INT8)) {
    m.fail("GATHER table " + table.name + " must be a float32 or int8 constant of rank >= 1");
  }
  const RtTensor& out = tensor_of(m, o.out[0]);
  if (out.type != table.type) {
    m.fail("GATHER output " + out.name + " has type " + tensor_type_name(out.type) +
           ", its table " + tensor_type_name(table.type));
  }
  const TensorValue& idx = m.value(o.in[1]);
  std::vector<int> shape = idx.shape;
  shape.insert(shape.end(), table.shape.begin() + 1, table.shape.end());
  o.m = table.shape[0];
  o.k =
      static_cast<int>(element_count(std::vector<int>(table.shape.begin() + 1, table.shape.end())));
  m.define_output(o, shape);
}

void eval_gather(Impl& m, Op& o) {
  const RtTensor& table = tensor_of(m, o.in[0]);
  const std::vector<float>& idx = m.values[static_cast<size_t>(o.in[1])].data;
  float* out = m.values[static_cast<size_t>(o.out[0])].data.data();
  const size_t row = static_cast<size_t>(o.k);
  for (size_t k = 0; k < idx.size(); ++k) {
    const float i = idx[k];
    if (!(i >= 0 && i < static_cast<float>(o.m)) || i != std::floor(i)) {
      m.fail("GATHER index " + std::to_string(static_cast<int64_t>(i)) + " out of bounds for a table of " +
             std::to_string(o.m) + " rows");
    }
    const size_t r = static_cast<size_t>(i);
    if (table.type == tflite::TensorType_FLOAT32) {
      std::copy_n(table.f.data() + r * row, row, out + k * row);
    } else {
      std::copy_n(table.q.data() + r * row, row, out + k * row);
    }
  }
}

// ---- DEQUANTIZE (an int8 tensor with one scale and zero point) ----

void prepare_dequantize(Impl& m, Op& o) {
  const RtTensor& in = tensor_of(m, o.in[0]);
  if (in.type != tflite::TensorType_INT8 || in.scales.size() != 1 || in.zero_points.size() > 1) {
    m.fail("DEQUANTIZE of " + in.name + ": only int8 with one scale is supported");
  }
  o.scale = in.scales[0];
  o.zero_point = in.zero_points.empty() ? 0 : static_cast<int>(in.zero_points[0]);
  if (in.is_const) {
    m.define_output(o, in.shape);
    return;
  }
  m.define_output(o, m.value(o.in[0]).shape);
}

void eval_dequantize(Impl& m, Op& o) {
  const RtTensor& in = tensor_of(m, o.in[0]);
  std::vector<float>& out = m.values[static_cast<size_t>(o.out[0])].data;
  // The reference kernel: float(double(scale) * (q - zero_point)).
  const double scale = o.scale;
  for (size_t k = 0; k < out.size(); ++k) {
    const int q =
        in.is_const ? in.q[k] : static_cast<int>(m.values[static_cast<size_t>(o.in[0])].data[k]);
    out[k] = static_cast<float>(scale * (q - o.zero_point));
  }
}

// ---- SHAPE, CAST ----

void prepare_shape(Impl& m, Op& o) {
  const TensorValue& in = m.value(o.in[0]);
  const int out_type = tensor_of(m, o.out[0]).type;
  if (out_type != tflite::TensorType_INT32) {
    m.fail("SHAPE output of type " + tensor_type_name(out_type) + " is not supported (INT32)");
  }
  o.dims = in.shape;
  m.define_output(o, {static_cast<int>(in.shape.size())});
}

void eval_shape(Impl& m, Op& o) {
  std::vector<float>& out = m.values[static_cast<size_t>(o.out[0])].data;
  for (size_t k = 0; k < out.size(); ++k) out[k] = static_cast<float>(o.dims[k]);
}

void prepare_cast(Impl& m, Op& o) {
  m.define_output(o, m.value(o.in[0]).shape);
}

void eval_cast(Impl& m, Op& o) {
  const std::vector<float>& in = m.values[static_cast<size_t>(o.in[0])].data;
  std::vector<float>& out = m.values[static_cast<size_t>(o.out[0])].data;
  const int to = tensor_of(m, o.out[0]).type;
  for (size_t k = 0; k < out.size(); ++k) {
    float v = in[k];
    if (to != tflite::TensorType_FLOAT32) {
      v = std::trunc(v);  // float -> int truncates toward zero, as static_cast does
      if (!(std::abs(v) <= kMaxCarriedInt)) {
        m.fail("CAST of " + std::to_string(in[k]) + " to " + tensor_type_name(to) +
               " is beyond the interpreter's integer range (2^24)");
      }
      if (to == tflite::TensorType_INT8) v = std::clamp(v, -128.0f, 127.0f);
    }
    out[k] = v;
  }
}

// ---- STRIDED_SLICE (begin/end/strides known while planning; no ellipsis or new axes) ----

void prepare_strided_slice(Impl& m, Op& o) {
  const auto* opt = o.op->builtin_options_as_StridedSliceOptions();
  const int begin_mask = opt ? opt->begin_mask() : 0, end_mask = opt ? opt->end_mask() : 0;
  const int shrink = opt ? opt->shrink_axis_mask() : 0;
  if (opt && (opt->ellipsis_mask() || opt->new_axis_mask() || opt->offset())) {
    m.fail("STRIDED_SLICE with ellipsis_mask, new_axis_mask or offset is not supported");
  }
  const TensorValue& in = m.value(o.in[0]);
  const std::vector<int> b = m.ints(o.in[1]), e = m.ints(o.in[2]), s = m.ints(o.in[3]);
  const size_t r = in.shape.size();
  if (b.size() != e.size() || b.size() != s.size() || b.size() > r) {
    m.fail("STRIDED_SLICE of rank " + std::to_string(r) + " with " + std::to_string(b.size()) +
           " begin, " + std::to_string(e.size()) + " end and " + std::to_string(s.size()) +
           " strides");
  }
  o.begin.assign(r, 0);
  o.step.assign(r, 1);
  o.dims.assign(r, 0);
  std::vector<int> shape;
  for (size_t d = 0; d < r; ++d) {
    const int dim = in.shape[d];
    if (d >= b.size()) {
      o.dims[d] = dim;
      shape.push_back(dim);
      continue;
    }
    const int step = s[d];
    if (step == 0) m.fail("STRIDED_SLICE stride 0");
    const bool pos = step > 0;
    auto clamp_index = [&](int v) {
      if (v < 0) v += dim;
      return pos ? std::clamp(v, 0, dim) : std::clamp(v, -1, dim - 1);
    };
    int start = (begin_mask >> d) & 1 ? (pos ? 0 : dim - 1) : clamp_index(b[d]);
    int stop = (end_mask >> d) & 1 ? (pos ? dim : -1) : clamp_index(e[d]);
    const bool shrink_d = (shrink >> d) & 1;
    if (shrink_d) {
      int v = b[d] < 0 ? b[d] + dim : b[d];
      if (v < 0 || v >= dim)
        m.fail("STRIDED_SLICE index " + std::to_string(b[d]) + " out of bounds");
      start = v;
      stop = v + 1;
    }
    const int n = shrink_d ? 1
                  : pos    ? std::max(0, (stop - start + step - 1) / step)
                           : std::max(0, (start - stop - step - 1) / -step);
    o.begin[d] = start;
    o.step[d] = shrink_d ? 1 : step;
    o.dims[d] = n;
    if (!shrink_d) shape.push_back(n);
  }
  o.strides_a.assign(r, 1);
  for (size_t d = r; d-- > 1;) o.strides_a[d - 1] = o.strides_a[d] * in.shape[d];
  o.idx.assign(r, 0);
  m.define_output(o, shape);
}

void eval_strided_slice(Impl& m, Op& o) {
  const float* in = m.values[static_cast<size_t>(o.in[0])].data.data();
  std::vector<float>& out = m.values[static_cast<size_t>(o.out[0])].data;
  std::fill(o.idx.begin(), o.idx.end(), 0);
  for (size_t k = 0; k < out.size(); ++k) {
    int64_t src = 0;
    for (size_t d = 0; d < o.idx.size(); ++d) {
      src += (o.begin[d] + static_cast<int64_t>(o.idx[d]) * o.step[d]) * o.strides_a[d];
    }
    out[k] = in[src];
    for (size_t d = o.idx.size(); d-- > 0;) {
      if (++o.idx[d] < o.dims[d]) break;
      o.idx[d] = 0;
    }
  }
}

// ---- PACK ----

void prepare_pack(Impl& m, Op& o) {
  const auto* opt = o.op->builtin_options_as_PackOptions();
  const TensorValue& first = m.value(o.in[0]);
  const int r = static_cast<int>(first.shape.size());
  int axis = opt ? opt->axis() : 0;
  if (axis < 0) axis += r + 1;
  if (axis < 0 || axis > r) m.fail("PACK axis " + std::to_string(opt ? opt->axis() : 0));
  if (opt && opt->values_count() != static_cast<int>(o.in.size())) {
    m.fail("PACK values_count " + std::to_string(opt->values_count()) + " with " +
           std::to_string(o.in.size()) + " inputs");
  }
  for (int t : o.in) {
    if (m.value(t).shape != first.shape) m.fail("PACK of different shapes");
  }
  o.outer = element_count(std::vector<int>(first.shape.begin(), first.shape.begin() + axis));
  o.inner = element_count(std::vector<int>(first.shape.begin() + axis, first.shape.end()));
  std::vector<int> shape = first.shape;
  shape.insert(shape.begin() + axis, static_cast<int>(o.in.size()));
  m.define_output(o, shape);
}

void eval_pack(Impl& m, Op& o) {
  float* out = m.values[static_cast<size_t>(o.out[0])].data.data();
  for (int64_t a = 0; a < o.outer; ++a) {
    for (int t : o.in) {
      const float* v = m.values[static_cast<size_t>(t)].data.data() + a * o.inner;
      out = std::copy_n(v, o.inner, out);
    }
  }
}

}  // namespace

bool is_index_op(int code) {
  switch (code) {
    case tflite::BuiltinOperator_GATHER:
    case tflite::BuiltinOperator_DEQUANTIZE:
    case tflite::BuiltinOperator_SHAPE:
    case tflite::BuiltinOperator_CAST:
    case tflite::BuiltinOperator_STRIDED_SLICE:
    case tflite::BuiltinOperator_PACK:
      return true;
    default:
      return false;
  }
}

void prepare_index_op(Impl& m, Op& o) {
  switch (o.code) {
    case tflite::BuiltinOperator_GATHER:
      return prepare_gather(m, o);
    case tflite::BuiltinOperator_DEQUANTIZE:
      return prepare_dequantize(m, o);
    case tflite::BuiltinOperator_SHAPE:
      return prepare_shape(m, o);
    case tflite::BuiltinOperator_CAST:
      return prepare_cast(m, o);
    case tflite::BuiltinOperator_STRIDED_SLICE:
      return prepare_strided_slice(m, o);
    default:
      return prepare_pack(m, o);
  }
}

void eval_index_op(Impl& m, Op& o) {
  switch (o.code) {
    case tflite::BuiltinOperator_GATHER:
      return eval_gather(m, o);
    case tflite::BuiltinOperator_DEQUANTIZE:
      return eval_dequantize(m, o);
    case tflite::BuiltinOperator_SHAPE:
      return eval_shape(m, o);
    case tflite::BuiltinOperator_CAST:
      return eval_cast(m, o);
    case tflite::BuiltinOperator_STRIDED_SLICE:
      return eval_strided_slice(m, o);
    default:
      return eval_pack(m, o);
  }
}

}  // namespace tfs::lite

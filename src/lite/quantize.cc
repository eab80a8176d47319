// Dynamic-range quantization as TF 2.21's converter does it with Optimize.DEFAULT and no
// dataset (conformance/formats/NOTES.md): the weights operand of FULLY_CONNECTED, when it is a
// float constant of at least 1024 elements, becomes symmetric int8 per output row (axis 0), the
// filter of CONV_2D per output channel (axis 0 of OHWI), that of DEPTHWISE_CONV_2D per output
// channel (axis 3 of [1, H, W, C*M]), under the same threshold (conformance/tflite/NOTES.md);
// BATCH_MATMUL's constant right operand becomes per-tensor int8, and so does a GATHER's table
// (an embedding), followed by a DEQUANTIZE. Biases stay float; the other ops read their float
// input through their hybrid kernels.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "lite_model.h"
#include "tfscope/lite.h"

namespace tfs::lite {
namespace {

// One channel's scale and values (prepare_quantize_dynamic_range + the uniform quantizer): the
// range is made symmetric around zero, a near-empty range widened, scale = range / 254 and
// q = round(w / scale) in double.
void quantize_channel(const float* w, int64_t n, int64_t stride, int8_t* q, float* scale_out) {
  double mn = 0, mx = 0;
  for (int64_t i = 0; i < n; ++i) {
    double v = w[i * stride];
    mn = std::min(mn, v);
    mx = std::max(mx, v);
  }
  double m = std::max(std::fabs(mn), std::fabs(mx));
  double rmin = -m, rmax = m;
  if (rmax - rmin <= 1e-6) {
    rmin = std::min(rmin, -5e-7);
    rmax = std::max(rmax, 5e-7);
  }
  double scale = (rmax - rmin) / 254.0;
  for (int64_t i = 0; i < n; ++i) {
    double r = std::round(static_cast<double>(w[i * stride]) / scale);
    q[i * stride] = static_cast<int8_t>(std::clamp(r, -127.0, 127.0));
  }
  *scale_out = static_cast<float>(scale);
}

}  // namespace

QuantizedWeights quantize_per_channel(const float* w, int64_t rows, int64_t cols) {
  QuantizedWeights out;
  out.values.resize(static_cast<size_t>(rows * cols));
  out.scales.resize(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) {
    quantize_channel(w + r * cols, cols, 1, out.values.data() + r * cols,
                     &out.scales[static_cast<size_t>(r)]);
  }
  return out;
}

QuantizedWeights quantize_per_tensor(const float* w, int64_t n) {
  QuantizedWeights out;
  out.values.resize(static_cast<size_t>(n));
  out.scales.resize(1);
  quantize_channel(w, n, 1, out.values.data(), &out.scales[0]);
  return out;
}

namespace detail {
namespace {

void to_int8(LiteTensor& t, const QuantizedWeights& q, int32_t dim) {
  t.type = tflite::TensorType_INT8;
  t.data.assign(reinterpret_cast<const char*>(q.values.data()), q.values.size());
  t.scales = q.scales;
  t.zero_points.assign(q.scales.size(), 0);
  t.quantized_dimension = dim;
}

// Symmetric int8 per channel of the last axis (`channels` values apart), as a depthwise
// filter's scales run.
QuantizedWeights quantize_last_axis(const float* w, int64_t n, int64_t channels) {
  QuantizedWeights out;
  out.values.resize(static_cast<size_t>(n));
  out.scales.resize(static_cast<size_t>(channels));
  for (int64_t c = 0; c < channels; ++c) {
    quantize_channel(w + c, n / channels, channels, out.values.data() + c,
                     &out.scales[static_cast<size_t>(c)]);
  }
  return out;
}

bool quantizable(const LiteTensor& t) {
  return t.is_const && t.type == tflite::TensorType_FLOAT32 &&
         t.num_elements() >= kMinElementsForWeights;
}

// A GATHER from a float table of at least kMinElementsForWeights elements (an embedding) reads
// int8 rows (one scale for the table) and a DEQUANTIZE after it gives the float rows back, as
// TF's converter writes it: the gather's output ("Gather;") is int8, the DEQUANTIZE's is named
// after the gather ("Gather1"), and every later reader reads that.
void quantize_gathers(LiteModel& model) {
  for (size_t i = 0; i < model.ops.size(); ++i) {
    if (model.ops[i].code != tflite::BuiltinOperator_GATHER) continue;
    LiteTensor& table = model.tensors[static_cast<size_t>(model.ops[i].inputs[0])];
    if (!quantizable(table)) continue;
    to_int8(table, quantize_per_tensor(table.floats(), table.num_elements()), 0);
    model.ops[i].version = 2;
    const int32_t q = model.ops[i].outputs[0];
    LiteTensor out = model.tensors[static_cast<size_t>(q)];
    out.name = table.name;  // unique-suffixed by add_tensor: "Gather1"
    LiteTensor& rows = model.tensors[static_cast<size_t>(q)];
    rows.type = tflite::TensorType_INT8;
    rows.scales = table.scales;
    rows.zero_points = table.zero_points;
    const int32_t f = model.add_tensor(std::move(out));
    for (size_t k = i + 1; k < model.ops.size(); ++k) {
      for (int32_t& in : model.ops[k].inputs) in = in == q ? f : in;
    }
    for (int32_t& o : model.outputs) o = o == q ? f : o;
    for (auto& [key, o] : model.signature_outputs) o = o == q ? f : o;
    LiteOp dq;
    dq.code = tflite::BuiltinOperator_DEQUANTIZE;
    dq.version = 2;
    dq.inputs = {q};
    dq.outputs = {f};
    model.ops.insert(model.ops.begin() + static_cast<std::ptrdiff_t>(i) + 1, std::move(dq));
  }
}

}  // namespace

void quantize_dynamic_range(LiteModel& model) {
  quantize_gathers(model);
  for (LiteOp& op : model.ops) {
    if (op.code == tflite::BuiltinOperator_FULLY_CONNECTED) {
      LiteTensor& w = model.tensors[static_cast<size_t>(op.inputs[1])];
      if (!quantizable(w) || w.shape.size() != 2) continue;
      to_int8(w, quantize_per_channel(w.floats(), w.shape[0], w.shape[1]), 0);
      op.asymmetric_quantize_inputs = true;
      op.version = 12;
    } else if (op.code == tflite::BuiltinOperator_CONV_2D) {
      // OHWI: one scale per output channel, each a contiguous block of H * W * I values.
      LiteTensor& w = model.tensors[static_cast<size_t>(op.inputs[1])];
      if (!quantizable(w) || w.shape.size() != 4) continue;
      const int64_t rows = w.shape[0];
      to_int8(w, quantize_per_channel(w.floats(), rows, w.num_elements() / rows), 0);
      op.version = 5;
    } else if (op.code == tflite::BuiltinOperator_DEPTHWISE_CONV_2D) {
      // [1, H, W, C * M]: one scale per output channel, the last dimension.
      LiteTensor& w = model.tensors[static_cast<size_t>(op.inputs[1])];
      if (!quantizable(w) || w.shape.size() != 4) continue;
      to_int8(w, quantize_last_axis(w.floats(), w.num_elements(), w.shape[3]), 3);
      op.version = 6;
    } else if (op.code == tflite::BuiltinOperator_BATCH_MATMUL) {
      LiteTensor& w = model.tensors[static_cast<size_t>(op.inputs[1])];
      if (!quantizable(w)) continue;
      to_int8(w, quantize_per_tensor(w.floats(), w.num_elements()), 0);
      op.asymmetric_quantize_inputs = true;
      op.version = 4;
    }
  }
  // One OperatorCode per builtin: every op of a builtin is listed at the highest version.
  for (LiteOp& op : model.ops) {
    for (const LiteOp& other : model.ops) {
      if (other.code == op.code) op.version = std::max(op.version, other.version);
    }
  }
  model.min_runtime_version = min_runtime_version(model);
}

}  // namespace detail
}  // namespace tfs::lite

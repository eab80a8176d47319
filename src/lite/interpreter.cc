// The interpreter: loads a verified model's first subgraph, copies its constants, and runs the
// operators in order with float activations. FULLY_CONNECTED uses kernels_fc.cc; the other
// kernels follow LiteRT's reference kernels (reference_ops) in math and summation order.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "tfscope/lite.h"
#include "tfscope/lite_kernels.h"

namespace tfs::lite {
namespace {

using kernels::Activation;
using TensorValue = Interpreter::TensorValue;

[[noreturn]] void fail(const std::string& file, const std::string& what) {
  throw FormatError("[lite] " + file + ": " + what);
}

int64_t count(const std::vector<int>& shape) {
  int64_t n = 1;
  for (int d : shape) n *= d;
  return n;
}

std::string shape_str(const std::vector<int>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

struct RtTensor {
  int type = tflite::TensorType_FLOAT32;
  std::string name;
  std::vector<int> shape;
  bool is_const = false;
  std::vector<float> f;    // FLOAT32 constants and activations
  std::vector<int32_t> i;  // INT32 / INT64 constants (shapes, axes)
  std::vector<int8_t> q;   // INT8 constants
  std::vector<float> scales;
};

Activation activation_of(int a, const std::string& file) {
  switch (a) {
    case tflite::ActivationFunctionType_NONE:
      return Activation::kNone;
    case tflite::ActivationFunctionType_RELU:
      return Activation::kRelu;
    case tflite::ActivationFunctionType_RELU6:
      return Activation::kRelu6;
    case tflite::ActivationFunctionType_RELU_N1_TO_1:
      return Activation::kReluN1To1;
    default:
      fail(file, "unsupported fused activation " + std::to_string(a));
  }
}

// Numpy broadcasting of two shapes.
std::vector<int> broadcast(const std::vector<int>& a, const std::vector<int>& b,
                           const std::string& file) {
  size_t n = std::max(a.size(), b.size());
  std::vector<int> out(n);
  for (size_t k = 0; k < n; ++k) {
    int da = k < n - a.size() ? 1 : a[k - (n - a.size())];
    int db = k < n - b.size() ? 1 : b[k - (n - b.size())];
    if (da != db && da != 1 && db != 1) {
      fail(file, "shapes " + shape_str(a) + " and " + shape_str(b) + " do not broadcast");
    }
    out[k] = da == 1 ? db : da;
  }
  return out;
}

// Index into `shape` (right-aligned, broadcast) of the flat output index's coordinates.
std::vector<int64_t> broadcast_strides(const std::vector<int>& shape, const std::vector<int>& out) {
  std::vector<int64_t> strides(out.size(), 0);
  int64_t s = 1;
  for (size_t k = shape.size(); k-- > 0;) {
    size_t o = k + (out.size() - shape.size());
    strides[o] = shape[k] == 1 ? 0 : s;
    s *= shape[k];
  }
  return strides;
}

}  // namespace

struct Interpreter::Impl {
  ModelFile file;
  Kernels kernels;
  const tflite::SubGraph* sg = nullptr;
  std::vector<RtTensor> tensors;
  std::vector<int> inputs, outputs;
  struct Op {
    int code;
    const tflite::Operator* op;
    std::vector<int> in, out;
    kernels::HybridWeights hybrid;  // prepared once for int8 FULLY_CONNECTED
    std::vector<int8_t> scratch;
  };
  std::vector<Op> ops;
  std::vector<TensorValue> values;  // by tensor index, after a run

  explicit Impl(ModelFile f, Kernels k) : file(std::move(f)), kernels(k) { load(); }

  const std::string& fname() const { return file.name(); }
  [[noreturn]] void fail_shape(const std::string& what) const { fail(fname(), what); }

  void load() {
    const tflite::Model& m = file.model();
    if (!m.subgraphs() || m.subgraphs()->size() == 0) fail(fname(), "model has no subgraph");
    sg = m.subgraphs()->Get(0);
    const auto* ts = sg->tensors();
    size_t n = ts ? ts->size() : 0;
    tensors.resize(n);
    for (size_t k = 0; k < n; ++k) {
      const tflite::Tensor* t = ts->Get(static_cast<flatbuffers::uoffset_t>(k));
      RtTensor& r = tensors[k];
      r.type = t->type();
      r.name = t->name() ? t->name()->str() : "";
      if (t->shape()) r.shape.assign(t->shape()->begin(), t->shape()->end());
      const tflite::Buffer* b = m.buffers() ? m.buffers()->Get(t->buffer()) : nullptr;
      if (b && b->data() && b->data()->size() > 0) {
        r.is_const = true;
        const uint8_t* p = b->data()->data();
        size_t bytes = b->data()->size();
        int64_t elems = count(r.shape);
        size_t want = static_cast<size_t>(elems) * tensor_type_size(r.type);
        if (bytes != want) {
          fail(fname(), "tensor " + r.name + ": buffer of " + std::to_string(bytes) +
                            " bytes for shape " + shape_str(r.shape));
        }
        if (r.type == tflite::TensorType_FLOAT32) {
          r.f.resize(static_cast<size_t>(elems));
          std::memcpy(r.f.data(), p, bytes);
        } else if (r.type == tflite::TensorType_INT8) {
          r.q.resize(static_cast<size_t>(elems));
          std::memcpy(r.q.data(), p, bytes);
        } else if (r.type == tflite::TensorType_INT32) {
          r.i.resize(static_cast<size_t>(elems));
          std::memcpy(r.i.data(), p, bytes);
        } else if (r.type == tflite::TensorType_INT64) {
          for (int64_t e = 0; e < elems; ++e) {
            int64_t v;
            std::memcpy(&v, p + e * 8, 8);
            r.i.push_back(static_cast<int32_t>(v));
          }
        } else {
          fail(fname(),
               "tensor " + r.name + ": unsupported constant type " + tensor_type_name(r.type));
        }
      }
      if (t->quantization() && t->quantization()->scale()) {
        r.scales.assign(t->quantization()->scale()->begin(), t->quantization()->scale()->end());
      }
      if (r.type == tflite::TensorType_INT8 && r.is_const && r.scales.empty()) {
        fail(fname(), "tensor " + r.name + ": int8 constant without scales");
      }
    }
    if (sg->inputs()) inputs.assign(sg->inputs()->begin(), sg->inputs()->end());
    if (sg->outputs()) outputs.assign(sg->outputs()->begin(), sg->outputs()->end());
    const auto* codes = m.operator_codes();
    if (sg->operators()) {
      for (const tflite::Operator* op : *sg->operators()) {
        Op o;
        o.code = builtin_code(*codes->Get(op->opcode_index()));
        o.op = op;
        if (op->inputs()) o.in.assign(op->inputs()->begin(), op->inputs()->end());
        if (op->outputs()) o.out.assign(op->outputs()->begin(), op->outputs()->end());
        check_op(o);
        ops.push_back(std::move(o));
      }
    }
    values.assign(n, TensorValue{});
  }

  void check_op(Op& o) {
    static const int supported[] = {tflite::BuiltinOperator_FULLY_CONNECTED,
                                    tflite::BuiltinOperator_ADD,
                                    tflite::BuiltinOperator_SUB,
                                    tflite::BuiltinOperator_MUL,
                                    tflite::BuiltinOperator_DIV,
                                    tflite::BuiltinOperator_RELU,
                                    tflite::BuiltinOperator_RELU6,
                                    tflite::BuiltinOperator_TANH,
                                    tflite::BuiltinOperator_LOGISTIC,
                                    tflite::BuiltinOperator_SOFTMAX,
                                    tflite::BuiltinOperator_RESHAPE,
                                    tflite::BuiltinOperator_GELU,
                                    tflite::BuiltinOperator_MEAN,
                                    tflite::BuiltinOperator_CONCATENATION,
                                    tflite::BuiltinOperator_TRANSPOSE,
                                    tflite::BuiltinOperator_BATCH_MATMUL};
    if (std::find(std::begin(supported), std::end(supported), o.code) == std::end(supported)) {
      fail(fname(), "unsupported operator " + builtin_operator_name(o.code));
    }
    if (o.out.size() != 1 || o.out[0] < 0) fail(fname(), "operator without one output");
    size_t min_inputs = 1;
    switch (o.code) {
      case tflite::BuiltinOperator_FULLY_CONNECTED:
      case tflite::BuiltinOperator_ADD:
      case tflite::BuiltinOperator_SUB:
      case tflite::BuiltinOperator_MUL:
      case tflite::BuiltinOperator_DIV:
      case tflite::BuiltinOperator_MEAN:
      case tflite::BuiltinOperator_TRANSPOSE:
      case tflite::BuiltinOperator_BATCH_MATMUL:
        min_inputs = 2;
        break;
      default:
        break;
    }
    if (o.in.size() < min_inputs) {
      fail(fname(),
           builtin_operator_name(o.code) + " with " + std::to_string(o.in.size()) + " inputs");
    }
    // Kernels read their inputs while they write the output: an operator may not write one of its
    // inputs, a constant or a model input.
    const RtTensor& out = tensors[static_cast<size_t>(o.out[0])];
    if (out.is_const || std::find(o.in.begin(), o.in.end(), o.out[0]) != o.in.end() ||
        std::find(inputs.begin(), inputs.end(), o.out[0]) != inputs.end()) {
      fail(fname(), builtin_operator_name(o.code) + " writes tensor " + out.name +
                        ", which is one of its inputs, a constant or a model input");
    }
    for (int t : o.in) {
      if (t >= 0 && tensors[static_cast<size_t>(t)].type != tflite::TensorType_FLOAT32 &&
          !tensors[static_cast<size_t>(t)].is_const) {
        fail(fname(), "non-float activation " + tensors[static_cast<size_t>(t)].name);
      }
    }
    if (o.code == tflite::BuiltinOperator_FULLY_CONNECTED) {
      if (o.in.size() < 2 || o.in[1] < 0) fail(fname(), "FULLY_CONNECTED without weights");
      RtTensor& w = tensors[static_cast<size_t>(o.in[1])];
      if (!w.is_const || w.shape.size() != 2) {
        fail(fname(), "FULLY_CONNECTED weights " + w.name + " must be a 2-D constant");
      }
      if (w.type == tflite::TensorType_INT8) {
        o.hybrid.w = w.q.data();
        o.hybrid.units = w.shape[0];
        o.hybrid.depth = w.shape[1];
        o.hybrid.scales = w.scales;
        if (w.scales.size() != 1 && w.scales.size() != static_cast<size_t>(w.shape[0])) {
          fail(fname(), "weights " + w.name + ": " + std::to_string(w.scales.size()) +
                            " scales for " + std::to_string(w.shape[0]) + " units");
        }
        o.hybrid.prepare();
        if (kernels == Kernels::kDequantized) {  // int8 weights as float: q * scale of its row
          w.f.resize(w.q.size());
          for (size_t k = 0; k < w.q.size(); ++k) {
            float scale =
                w.scales.size() == 1 ? w.scales[0] : w.scales[k / static_cast<size_t>(w.shape[1])];
            w.f[k] = static_cast<float>(w.q[k]) * scale;
          }
          w.type = tflite::TensorType_FLOAT32;
        }
      } else if (w.type != tflite::TensorType_FLOAT32) {
        fail(fname(), "FULLY_CONNECTED weights of type " + tensor_type_name(w.type));
      }
    }
    if (o.code == tflite::BuiltinOperator_BATCH_MATMUL) {
      for (int t : o.in) {
        if (t >= 0 && tensors[static_cast<size_t>(t)].type != tflite::TensorType_FLOAT32) {
          fail(fname(), "BATCH_MATMUL with int8 operands is not supported");
        }
      }
    }
  }

  // The current value of tensor t (a constant or a computed value).
  TensorValue& value(int t) {
    if (t < 0 || static_cast<size_t>(t) >= tensors.size()) fail(fname(), "missing input tensor");
    TensorValue& v = values[static_cast<size_t>(t)];
    const RtTensor& r = tensors[static_cast<size_t>(t)];
    if (r.is_const && v.data.empty() && r.type == tflite::TensorType_FLOAT32) {
      v.shape = r.shape;
      v.data = r.f;
    }
    for (int d : v.shape) {
      if (d < 0) fail(fname(), "tensor " + r.name + " has shape " + shape_str(v.shape));
    }
    if (r.type != tflite::TensorType_FLOAT32 ||
        count(v.shape) != static_cast<int64_t>(v.data.size())) {
      fail(fname(), "tensor " + r.name + " is read before an operator writes it, or is not float");
    }
    return v;
  }

  std::vector<int> ints(int t) {
    const RtTensor& r = tensors[static_cast<size_t>(t)];
    if (!r.is_const || (r.i.empty() && count(r.shape) != 0)) {
      fail(fname(), "tensor " + r.name + " must be an integer constant");
    }
    return std::vector<int>(r.i.begin(), r.i.end());
  }

  void run_op(Op& o);
};

namespace {

using Impl = Interpreter::Impl;

void run_fully_connected(Impl& m, Impl::Op& o, TensorValue& out) {
  const auto* opt = o.op->builtin_options_as_FullyConnectedOptions();
  Activation act = activation_of(opt ? opt->fused_activation_function() : 0, m.fname());
  const TensorValue& in = m.value(o.in[0]);
  const RtTensor& w = m.tensors[static_cast<size_t>(o.in[1])];
  const int units = w.shape[0], depth = w.shape[1];
  if (depth == 0 || count(in.shape) % depth != 0) {
    m.fail_shape("FULLY_CONNECTED input " + shape_str(in.shape) + " for weights " +
                 shape_str(w.shape));
  }
  const int batch = static_cast<int>(count(in.shape) / depth);
  const float* bias = nullptr;
  if (o.in.size() > 2 && o.in[2] >= 0) {
    const TensorValue& b = m.value(o.in[2]);
    if (static_cast<int>(b.data.size()) != units) m.fail_shape("FULLY_CONNECTED bias size");
    bias = b.data.data();
  }
  if (opt && opt->keep_num_dims()) {
    out.shape = in.shape;
    out.shape.back() = units;
  } else {
    out.shape = {batch, units};
  }
  out.data.assign(static_cast<size_t>(batch) * static_cast<size_t>(units), 0.0f);
  if (w.type == tflite::TensorType_INT8) {
    bool asym = opt && opt->asymmetric_quantize_inputs();
    if (m.kernels == Kernels::kFast) {
      kernels::fully_connected_hybrid_fast(in.data.data(), batch, o.hybrid, bias, act, asym,
                                           out.data.data(), o.scratch);
    } else {
      kernels::fully_connected_hybrid(in.data.data(), batch, o.hybrid, bias, act, asym,
                                      out.data.data());
    }
  } else {
    kernels::fully_connected_float(in.data.data(), batch, depth, w.f.data(), units, bias, act,
                                   out.data.data());
  }
}

void run_binary(Impl& m, Impl::Op& o, TensorValue& out) {
  const TensorValue& a = m.value(o.in[0]);
  const TensorValue& b = m.value(o.in[1]);
  int act_code = 0;
  if (auto* p = o.op->builtin_options_as_AddOptions()) act_code = p->fused_activation_function();
  if (auto* p = o.op->builtin_options_as_SubOptions()) act_code = p->fused_activation_function();
  if (auto* p = o.op->builtin_options_as_MulOptions()) act_code = p->fused_activation_function();
  if (auto* p = o.op->builtin_options_as_DivOptions()) act_code = p->fused_activation_function();
  Activation act = activation_of(act_code, m.fname());
  out.shape = broadcast(a.shape, b.shape, m.fname());
  const int64_t n = count(out.shape);
  out.data.resize(static_cast<size_t>(n));
  auto sa = broadcast_strides(a.shape, out.shape), sb = broadcast_strides(b.shape, out.shape);
  std::vector<int> idx(out.shape.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t ia = 0, ib = 0;
    for (size_t d = 0; d < idx.size(); ++d) {
      ia += idx[d] * sa[d];
      ib += idx[d] * sb[d];
    }
    float x = a.data[static_cast<size_t>(ia)], y = b.data[static_cast<size_t>(ib)], r = 0;
    switch (o.code) {
      case tflite::BuiltinOperator_ADD:
        r = x + y;
        break;
      case tflite::BuiltinOperator_SUB:
        r = x - y;
        break;
      case tflite::BuiltinOperator_MUL:
        r = x * y;
        break;
      default:
        r = x / y;
        break;
    }
    out.data[static_cast<size_t>(k)] = kernels::activate(r, act);
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < out.shape[d]) break;
      idx[d] = 0;
    }
  }
}

void run_unary(Impl& m, Impl::Op& o, TensorValue& out) {
  const TensorValue& in = m.value(o.in[0]);
  out.shape = in.shape;
  out.data.resize(in.data.size());
  bool approximate = false;
  if (auto* p = o.op->builtin_options_as_GeluOptions()) approximate = p->approximate();
  for (size_t k = 0; k < in.data.size(); ++k) {
    float x = in.data[k], r = 0;
    switch (o.code) {
      case tflite::BuiltinOperator_RELU:
        r = std::max(0.0f, x);
        break;
      case tflite::BuiltinOperator_RELU6:
        r = std::min(std::max(0.0f, x), 6.0f);
        break;
      case tflite::BuiltinOperator_TANH:
        r = std::tanh(x);
        break;
      case tflite::BuiltinOperator_LOGISTIC:
        r = 1.0f / (1.0f + std::exp(-x));
        break;
      default:  // GELU
        if (approximate) {
          r = 0.5f * x * (1.0f + std::tanh(0.7978845608028654f * (x + 0.044715f * x * x * x)));
        } else {
          r = 0.5f * x * (1.0f + std::erf(x * 0.7071067811865476f));
        }
    }
    out.data[k] = r;
  }
}

void run_softmax(Impl& m, Impl::Op& o, TensorValue& out) {
  const TensorValue& in = m.value(o.in[0]);
  const auto* opt = o.op->builtin_options_as_SoftmaxOptions();
  const float beta = opt ? opt->beta() : 0.0f;
  out.shape = in.shape;
  out.data.resize(in.data.size());
  const int depth = in.shape.empty() ? 1 : in.shape.back();
  for (size_t base = 0; base + static_cast<size_t>(depth) <= in.data.size(); base += depth) {
    const float* x = in.data.data() + base;
    float mx = *std::max_element(x, x + depth);
    float sum = 0.f;
    for (int c = 0; c < depth; ++c) sum += std::exp((x[c] - mx) * beta);
    for (int c = 0; c < depth; ++c) out.data[base + c] = std::exp((x[c] - mx) * beta) / sum;
  }
}

void run_reshape(Impl& m, Impl::Op& o, TensorValue& out) {
  const TensorValue& in = m.value(o.in[0]);
  std::vector<int> shape;
  if (o.in.size() > 1 && o.in[1] >= 0) {
    shape = m.ints(o.in[1]);
  } else if (auto* p = o.op->builtin_options_as_ReshapeOptions(); p && p->new_shape()) {
    shape.assign(p->new_shape()->begin(), p->new_shape()->end());
  } else {
    m.fail_shape("RESHAPE without a shape");
  }
  int64_t known = 1;
  int unknown = -1;
  if (std::count(shape.begin(), shape.end(), -1) > 1)
    m.fail_shape("RESHAPE to " + shape_str(shape));
  for (size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] == -1 && unknown < 0)
      unknown = static_cast<int>(k);
    else if (shape[k] < 0)
      m.fail_shape("RESHAPE to " + shape_str(shape));
    else
      known *= shape[k];
  }
  if (unknown >= 0 && known == 0) m.fail_shape("RESHAPE to " + shape_str(shape));
  if (unknown >= 0)
    shape[static_cast<size_t>(unknown)] =
        static_cast<int>(static_cast<int64_t>(in.data.size()) / known);
  if (count(shape) != static_cast<int64_t>(in.data.size())) {
    m.fail_shape("RESHAPE of " + shape_str(in.shape) + " to " + shape_str(shape));
  }
  out.shape = shape;
  out.data = in.data;
}

void run_transpose(Impl& m, Impl::Op& o, TensorValue& out) {
  const TensorValue& in = m.value(o.in[0]);
  std::vector<int> perm = m.ints(o.in[1]);
  const size_t r = in.shape.size();
  if (perm.size() != r) m.fail_shape("TRANSPOSE perm rank");
  std::vector<int> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (size_t k = 0; k < r; ++k) {
    if (sorted[k] != static_cast<int>(k)) m.fail_shape("TRANSPOSE perm is not a permutation");
  }
  out.shape.resize(r);
  for (size_t k = 0; k < r; ++k) out.shape[k] = in.shape[static_cast<size_t>(perm[k])];
  std::vector<int64_t> in_strides(r, 1);
  for (size_t k = r; k-- > 1;) in_strides[k - 1] = in_strides[k] * in.shape[k];
  out.data.resize(in.data.size());
  std::vector<int> idx(r, 0);
  for (size_t k = 0; k < out.data.size(); ++k) {
    int64_t src = 0;
    for (size_t d = 0; d < r; ++d) src += idx[d] * in_strides[static_cast<size_t>(perm[d])];
    out.data[k] = in.data[static_cast<size_t>(src)];
    for (size_t d = r; d-- > 0;) {
      if (++idx[d] < out.shape[d]) break;
      idx[d] = 0;
    }
  }
}

void run_mean(Impl& m, Impl::Op& o, TensorValue& out) {
  const TensorValue& in = m.value(o.in[0]);
  const auto* opt = o.op->builtin_options_as_ReducerOptions();
  const bool keep = opt && opt->keep_dims();
  const int r = static_cast<int>(in.shape.size());
  std::vector<bool> reduce(static_cast<size_t>(r), false);
  for (int a : m.ints(o.in[1])) {
    if (a < -r || a >= r)
      m.fail_shape("MEAN axis " + std::to_string(a) + " of rank " + std::to_string(r));
    reduce[static_cast<size_t>(a < 0 ? a + r : a)] = true;
  }
  out.shape.clear();
  std::vector<int> kept_shape;
  for (int k = 0; k < r; ++k) {
    if (!reduce[static_cast<size_t>(k)])
      out.shape.push_back(in.shape[static_cast<size_t>(k)]);
    else if (keep)
      out.shape.push_back(1);
    kept_shape.push_back(reduce[static_cast<size_t>(k)] ? 1 : in.shape[static_cast<size_t>(k)]);
  }
  auto strides = broadcast_strides(kept_shape, in.shape);
  const int64_t n_out = count(kept_shape);
  std::vector<float> sum(static_cast<size_t>(n_out), 0.0f);
  std::vector<int> idx(static_cast<size_t>(r), 0);
  for (size_t k = 0; k < in.data.size(); ++k) {
    int64_t o_i = 0;
    for (int d = 0; d < r; ++d)
      o_i += idx[static_cast<size_t>(d)] * strides[static_cast<size_t>(d)];
    sum[static_cast<size_t>(o_i)] += in.data[k];
    for (size_t d = static_cast<size_t>(r); d-- > 0;) {
      if (++idx[d] < in.shape[d]) break;
      idx[d] = 0;
    }
  }
  const int64_t n_in = n_out ? static_cast<int64_t>(in.data.size()) / n_out : 1;
  out.data.resize(static_cast<size_t>(n_out));
  for (size_t k = 0; k < sum.size(); ++k) out.data[k] = sum[k] / static_cast<float>(n_in);
}

void run_concat(Impl& m, Impl::Op& o, TensorValue& out) {
  const auto* opt = o.op->builtin_options_as_ConcatenationOptions();
  const TensorValue& first = m.value(o.in[0]);
  const int r = static_cast<int>(first.shape.size());
  int axis = opt ? opt->axis() : 0;
  if (axis < 0) axis += r;
  if (axis < 0 || axis >= r) m.fail_shape("CONCATENATION axis");
  out.shape = first.shape;
  out.shape[static_cast<size_t>(axis)] = 0;
  for (int t : o.in) {
    const TensorValue& v = m.value(t);
    if (v.shape.size() != first.shape.size()) m.fail_shape("CONCATENATION of different ranks");
    for (int k = 0; k < r; ++k) {
      if (k != axis && v.shape[static_cast<size_t>(k)] != first.shape[static_cast<size_t>(k)])
        m.fail_shape("CONCATENATION of shapes " + shape_str(first.shape) + " and " +
                     shape_str(v.shape));
    }
    out.shape[static_cast<size_t>(axis)] += v.shape[static_cast<size_t>(axis)];
  }
  int64_t outer = 1, inner = 1;
  for (int k = 0; k < axis; ++k) outer *= out.shape[static_cast<size_t>(k)];
  for (int k = axis + 1; k < r; ++k) inner *= out.shape[static_cast<size_t>(k)];
  out.data.clear();
  for (int64_t a = 0; a < outer; ++a) {
    for (int t : o.in) {
      const TensorValue& v = m.value(t);
      int64_t chunk = v.shape[static_cast<size_t>(axis)] * inner;
      out.data.insert(out.data.end(), v.data.begin() + a * chunk, v.data.begin() + (a + 1) * chunk);
    }
  }
}

void run_batch_matmul(Impl& m, Impl::Op& o, TensorValue& out) {
  const auto* opt = o.op->builtin_options_as_BatchMatMulOptions();
  const bool adj_x = opt && opt->adj_x(), adj_y = opt && opt->adj_y();
  const TensorValue& a = m.value(o.in[0]);
  const TensorValue& b = m.value(o.in[1]);
  if (a.shape.size() < 2 || b.shape.size() < 2) m.fail_shape("BATCH_MATMUL rank");
  const int ra = static_cast<int>(a.shape.size()), rb = static_cast<int>(b.shape.size());
  const int M = adj_x ? a.shape[static_cast<size_t>(ra - 1)] : a.shape[static_cast<size_t>(ra - 2)];
  const int K = adj_x ? a.shape[static_cast<size_t>(ra - 2)] : a.shape[static_cast<size_t>(ra - 1)];
  const int K2 =
      adj_y ? b.shape[static_cast<size_t>(rb - 1)] : b.shape[static_cast<size_t>(rb - 2)];
  const int N = adj_y ? b.shape[static_cast<size_t>(rb - 2)] : b.shape[static_cast<size_t>(rb - 1)];
  if (K != K2) m.fail_shape("BATCH_MATMUL inner dimensions");
  std::vector<int> ba(a.shape.begin(), a.shape.end() - 2), bb(b.shape.begin(), b.shape.end() - 2);
  std::vector<int> batch = broadcast(ba, bb, m.fname());
  auto sa = broadcast_strides(ba, batch), sb = broadcast_strides(bb, batch);
  out.shape = batch;
  out.shape.push_back(M);
  out.shape.push_back(N);
  const int64_t nb = count(batch);
  out.data.assign(static_cast<size_t>(nb * M * N), 0.0f);
  std::vector<int> idx(batch.size(), 0);
  for (int64_t k = 0; k < nb; ++k) {
    int64_t ia = 0, ib = 0;
    for (size_t d = 0; d < idx.size(); ++d) {
      ia += idx[d] * sa[d];
      ib += idx[d] * sb[d];
    }
    const float* pa = a.data.data() + ia * M * K;
    const float* pb = b.data.data() + ib * K * N;
    float* po = out.data.data() + k * M * N;
    for (int i = 0; i < M; ++i) {
      for (int j = 0; j < N; ++j) {
        float total = 0.f;
        for (int c = 0; c < K; ++c) {
          float x = adj_x ? pa[c * M + i] : pa[i * K + c];
          float y = adj_y ? pb[j * K + c] : pb[c * N + j];
          total += x * y;
        }
        po[i * N + j] = total;
      }
    }
    for (size_t d = idx.size(); d-- > 0;) {
      if (++idx[d] < batch[d]) break;
      idx[d] = 0;
    }
  }
}

}  // namespace

void Interpreter::Impl::run_op(Op& o) {
  TensorValue& out = values[static_cast<size_t>(o.out[0])];
  switch (o.code) {
    case tflite::BuiltinOperator_FULLY_CONNECTED:
      return run_fully_connected(*this, o, out);
    case tflite::BuiltinOperator_ADD:
    case tflite::BuiltinOperator_SUB:
    case tflite::BuiltinOperator_MUL:
    case tflite::BuiltinOperator_DIV:
      return run_binary(*this, o, out);
    case tflite::BuiltinOperator_SOFTMAX:
      return run_softmax(*this, o, out);
    case tflite::BuiltinOperator_RESHAPE:
      return run_reshape(*this, o, out);
    case tflite::BuiltinOperator_TRANSPOSE:
      return run_transpose(*this, o, out);
    case tflite::BuiltinOperator_MEAN:
      return run_mean(*this, o, out);
    case tflite::BuiltinOperator_CONCATENATION:
      return run_concat(*this, o, out);
    case tflite::BuiltinOperator_BATCH_MATMUL:
      return run_batch_matmul(*this, o, out);
    default:
      return run_unary(*this, o, out);
  }
}

Interpreter::Interpreter(ModelFile file, Kernels kernels)
    : impl_(std::make_unique<Impl>(std::move(file), kernels)) {}
Interpreter::~Interpreter() = default;
Interpreter::Interpreter(Interpreter&&) noexcept = default;
Interpreter& Interpreter::operator=(Interpreter&&) noexcept = default;

int Interpreter::num_inputs() const {
  return static_cast<int>(impl_->inputs.size());
}
int Interpreter::num_outputs() const {
  return static_cast<int>(impl_->outputs.size());
}
std::vector<int> Interpreter::input_shape(int i) const {
  return impl_->tensors[static_cast<size_t>(impl_->inputs.at(static_cast<size_t>(i)))].shape;
}
std::vector<int> Interpreter::output_shape(int i) const {
  return impl_->tensors[static_cast<size_t>(impl_->outputs.at(static_cast<size_t>(i)))].shape;
}
std::string Interpreter::input_name(int i) const {
  return impl_->tensors[static_cast<size_t>(impl_->inputs.at(static_cast<size_t>(i)))].name;
}
const ModelFile& Interpreter::file() const {
  return impl_->file;
}
int Interpreter::num_operators() const {
  return static_cast<int>(impl_->ops.size());
}
int Interpreter::operator_output(int i) const {
  return impl_->ops.at(static_cast<size_t>(i)).out[0];
}
std::string Interpreter::operator_label(int i) const {
  const auto& o = impl_->ops.at(static_cast<size_t>(i));
  return builtin_operator_name(o.code) + " " + impl_->tensors[static_cast<size_t>(o.out[0])].name;
}

const Interpreter::TensorValue* Interpreter::intermediate(int t) const {
  if (t < 0 || static_cast<size_t>(t) >= impl_->values.size()) return nullptr;
  return &impl_->values[static_cast<size_t>(t)];
}

std::vector<Interpreter::TensorValue> Interpreter::run(const std::vector<TensorValue>& inputs) {
  Impl& m = *impl_;
  if (inputs.size() != m.inputs.size()) {
    fail(m.fname(), "expected " + std::to_string(m.inputs.size()) + " inputs, got " +
                        std::to_string(inputs.size()));
  }
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (count(inputs[k].shape) != static_cast<int64_t>(inputs[k].data.size())) {
      fail(m.fname(), "input " + std::to_string(k) + ": " + std::to_string(inputs[k].data.size()) +
                          " values for shape " + shape_str(inputs[k].shape));
    }
    m.values[static_cast<size_t>(m.inputs[k])] = inputs[k];
  }
  for (auto& o : m.ops) m.run_op(o);
  std::vector<TensorValue> outs;
  for (int t : m.outputs) outs.push_back(m.values[static_cast<size_t>(t)]);
  return outs;
}

}  // namespace tfs::lite

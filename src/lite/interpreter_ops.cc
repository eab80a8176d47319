// The interpreter's operators, each in two steps: prepare (output shape, the checks behind the
// one-line errors, index strides and buffers, once per set of input shapes) and eval (the
// arithmetic, allocating nothing). FULLY_CONNECTED runs kernels::PreparedFc; the other kernels
// follow LiteRT's reference kernels (reference_ops) in math and summation order.
// Built with -ffp-contract=off: the reference kernels round every product.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "interpreter_impl.h"

namespace tfs::lite {

using kernels::Activation;
using Impl = Interpreter::Impl;
using Op = Interpreter::Impl::Op;
using TensorValue = Interpreter::TensorValue;

int64_t element_count(const std::vector<int>& shape) {
  int64_t n = 1;
  for (int d : shape) {
    if (d < 0) return -1;
    n *= d;
    if (n > (int64_t{1} << 40)) return -1;
  }
  return n;
}

std::string shape_str(const std::vector<int>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

Activation activation_of(int a, const Impl& m) {
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
      m.fail("unsupported fused activation " + std::to_string(a));
  }
}

namespace {

// Numpy broadcasting of two shapes.
std::vector<int> broadcast(const std::vector<int>& a, const std::vector<int>& b, const Impl& m) {
  const size_t n = std::max(a.size(), b.size());
  std::vector<int> out(n);
  for (size_t k = 0; k < n; ++k) {
    const int da = k < n - a.size() ? 1 : a[k - (n - a.size())];
    const int db = k < n - b.size() ? 1 : b[k - (n - b.size())];
    if (da != db && da != 1 && db != 1) {
      m.fail("shapes " + shape_str(a) + " and " + shape_str(b) + " do not broadcast");
    }
    out[k] = da == 1 ? db : da;
  }
  return out;
}

// The stride in `shape` (right-aligned, broadcast) of each dimension of `out`.
std::vector<int64_t> broadcast_strides(const std::vector<int>& shape, const std::vector<int>& out) {
  std::vector<int64_t> strides(out.size(), 0);
  int64_t s = 1;
  for (size_t k = shape.size(); k-- > 0;) {
    const size_t o = k + (out.size() - shape.size());
    strides[o] = shape[k] == 1 ? 0 : s;
    s *= shape[k];
  }
  return strides;
}

// Steps a row-major index over `dims` by one.
inline void next_index(std::vector<int>& idx, const std::vector<int>& dims) {
  for (size_t d = idx.size(); d-- > 0;) {
    if (++idx[d] < dims[d]) return;
    idx[d] = 0;
  }
}

const float* data_of(const Impl& m, int t) {
  return m.values[static_cast<size_t>(t)].data.data();
}

// ---- FULLY_CONNECTED ----

void prepare_fully_connected(Impl& m, Op& o) {
  const auto* opt = o.op->builtin_options_as_FullyConnectedOptions();
  const TensorValue& in = m.value(o.in[0]);
  const RtTensor& w = m.tensors[static_cast<size_t>(o.in[1])];
  const int units = w.shape[0], depth = w.shape[1];
  const int64_t n = static_cast<int64_t>(in.data.size());
  if (depth == 0 || n % depth != 0) {
    m.fail("FULLY_CONNECTED input " + shape_str(in.shape) + " for weights " + shape_str(w.shape));
  }
  o.batch = static_cast<int>(n / depth);
  if (o.in.size() > 2 && o.in[2] >= 0) {
    const TensorValue& b = m.value(o.in[2]);
    if (static_cast<int>(b.data.size()) != units) m.fail("FULLY_CONNECTED bias size");
  }
  std::vector<int> shape;
  if (opt && opt->keep_num_dims()) {
    shape = in.shape;
    shape.back() = units;
  } else {
    shape = {o.batch, units};
  }
  m.define_output(o, shape);
  o.fc.reserve(o.batch, o.scratch);
}

void eval_fully_connected(Impl& m, Op& o) {
  const float* bias = o.in.size() > 2 && o.in[2] >= 0 ? data_of(m, o.in[2]) : nullptr;
  o.fc.run(data_of(m, o.in[0]), o.batch, bias, o.act, o.asymmetric,
           m.values[static_cast<size_t>(o.out[0])].data.data(), o.scratch);
}

// ---- ADD, SUB, MUL, DIV ----

void prepare_binary(Impl& m, Op& o) {
  const TensorValue& a = m.value(o.in[0]);
  const TensorValue& b = m.value(o.in[1]);
  int act = 0;
  if (auto* p = o.op->builtin_options_as_AddOptions()) act = p->fused_activation_function();
  if (auto* p = o.op->builtin_options_as_SubOptions()) act = p->fused_activation_function();
  if (auto* p = o.op->builtin_options_as_MulOptions()) act = p->fused_activation_function();
  if (auto* p = o.op->builtin_options_as_DivOptions()) act = p->fused_activation_function();
  o.act = activation_of(act, m);
  if (o.code == tflite::BuiltinOperator_DIV &&
      m.tensors[static_cast<size_t>(o.out[0])].type != tflite::TensorType_FLOAT32) {
    m.fail("DIV of " + tensor_type_name(m.tensors[static_cast<size_t>(o.out[0])].type) +
           " tensors is not supported");
  }
  o.dims = broadcast(a.shape, b.shape, m);
  o.same_shape = a.shape == b.shape;
  o.strides_a = broadcast_strides(a.shape, o.dims);
  o.strides_b = broadcast_strides(b.shape, o.dims);
  o.idx.assign(o.dims.size(), 0);
  m.define_output(o, o.dims);
}

template <int kCode>
inline float binary(float x, float y) {
  if constexpr (kCode == tflite::BuiltinOperator_ADD) return x + y;
  if constexpr (kCode == tflite::BuiltinOperator_SUB) return x - y;
  if constexpr (kCode == tflite::BuiltinOperator_MUL) return x * y;
  if constexpr (kCode == tflite::BuiltinOperator_SQUARED_DIFFERENCE) {
    const float d = x - y;
    return d * d;
  }
  return x / y;
}

template <int kCode>
void eval_binary_as(Impl& m, Op& o) {
  const float* a = data_of(m, o.in[0]);
  const float* b = data_of(m, o.in[1]);
  std::vector<float>& out = m.values[static_cast<size_t>(o.out[0])].data;
  const size_t n = out.size();
  if (o.same_shape) {
    for (size_t k = 0; k < n; ++k) out[k] = kernels::activate(binary<kCode>(a[k], b[k]), o.act);
    return;
  }
  std::fill(o.idx.begin(), o.idx.end(), 0);
  for (size_t k = 0; k < n; ++k) {
    int64_t ia = 0, ib = 0;
    for (size_t d = 0; d < o.idx.size(); ++d) {
      ia += o.idx[d] * o.strides_a[d];
      ib += o.idx[d] * o.strides_b[d];
    }
    out[k] = kernels::activate(binary<kCode>(a[ia], b[ib]), o.act);
    next_index(o.idx, o.dims);
  }
}

void eval_binary(Impl& m, Op& o) {
  switch (o.code) {
    case tflite::BuiltinOperator_ADD:
      return eval_binary_as<tflite::BuiltinOperator_ADD>(m, o);
    case tflite::BuiltinOperator_SUB:
      return eval_binary_as<tflite::BuiltinOperator_SUB>(m, o);
    case tflite::BuiltinOperator_MUL:
      return eval_binary_as<tflite::BuiltinOperator_MUL>(m, o);
    case tflite::BuiltinOperator_SQUARED_DIFFERENCE:
      return eval_binary_as<tflite::BuiltinOperator_SQUARED_DIFFERENCE>(m, o);
    default:
      return eval_binary_as<tflite::BuiltinOperator_DIV>(m, o);
  }
}

// ---- RELU, RELU6, TANH, LOGISTIC, GELU ----

void prepare_unary(Impl& m, Op& o) {
  const TensorValue& in = m.value(o.in[0]);
  if (auto* p = o.op->builtin_options_as_GeluOptions()) o.approximate = p->approximate();
  m.define_output(o, in.shape);
}

void eval_unary(Impl& m, Op& o) {
  const float* in = data_of(m, o.in[0]);
  std::vector<float>& out = m.values[static_cast<size_t>(o.out[0])].data;
  for (size_t k = 0; k < out.size(); ++k) {
    const float x = in[k];
    float r = 0;
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
      case tflite::BuiltinOperator_RSQRT:
        r = 1.0f / std::sqrt(x);
        break;
      default:  // GELU
        if (o.approximate) {
          r = 0.5f * x * (1.0f + std::tanh(0.7978845608028654f * (x + 0.044715f * x * x * x)));
        } else {
          r = 0.5f * x * (1.0f + std::erf(x * 0.7071067811865476f));
        }
    }
    out[k] = r;
  }
}

// ---- SOFTMAX ----

void prepare_softmax(Impl& m, Op& o) {
  const TensorValue& in = m.value(o.in[0]);
  const auto* opt = o.op->builtin_options_as_SoftmaxOptions();
  o.beta = opt ? opt->beta() : 0.0f;
  o.k = in.shape.empty() ? 1 : in.shape.back();
  m.define_output(o, in.shape);
}

void eval_softmax(Impl& m, Op& o) {
  const float* in = data_of(m, o.in[0]);
  std::vector<float>& out = m.values[static_cast<size_t>(o.out[0])].data;
  const size_t depth = static_cast<size_t>(o.k);
  if (depth == 0) return;
  for (size_t base = 0; base + depth <= out.size(); base += depth) {
    const float* x = in + base;
    const float mx = *std::max_element(x, x + depth);
    float sum = 0.f;
    for (size_t c = 0; c < depth; ++c) sum += std::exp((x[c] - mx) * o.beta);
    for (size_t c = 0; c < depth; ++c) out[base + c] = std::exp((x[c] - mx) * o.beta) / sum;
  }
}

// ---- RESHAPE ----

void prepare_reshape(Impl& m, Op& o) {
  const TensorValue& in = m.value(o.in[0]);
  std::vector<int> shape;
  if (o.in.size() > 1 && o.in[1] >= 0) {
    shape = m.ints(o.in[1]);
  } else if (auto* p = o.op->builtin_options_as_ReshapeOptions(); p && p->new_shape()) {
    shape.assign(p->new_shape()->begin(), p->new_shape()->end());
  } else {
    m.fail("RESHAPE without a shape");
  }
  int64_t known = 1;
  int unknown = -1;
  if (std::count(shape.begin(), shape.end(), -1) > 1) m.fail("RESHAPE to " + shape_str(shape));
  for (size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] == -1 && unknown < 0)
      unknown = static_cast<int>(k);
    else if (shape[k] < 0)
      m.fail("RESHAPE to " + shape_str(shape));
    else
      known *= shape[k];
  }
  if (unknown >= 0 && known == 0) m.fail("RESHAPE to " + shape_str(shape));
  if (unknown >= 0)
    shape[static_cast<size_t>(unknown)] =
        static_cast<int>(static_cast<int64_t>(in.data.size()) / known);
  if (element_count(shape) != static_cast<int64_t>(in.data.size())) {
    m.fail("RESHAPE of " + shape_str(in.shape) + " to " + shape_str(shape));
  }
  m.define_output(o, shape);
}

void eval_copy(Impl& m, Op& o) {
  std::vector<float>& out = m.values[static_cast<size_t>(o.out[0])].data;
  std::memcpy(out.data(), data_of(m, o.in[0]), out.size() * sizeof(float));
}

// ---- TRANSPOSE ----

void prepare_transpose(Impl& m, Op& o) {
  const TensorValue& in = m.value(o.in[0]);
  const std::vector<int> perm = m.ints(o.in[1]);
  const size_t r = in.shape.size();
  if (perm.size() != r) m.fail("TRANSPOSE perm rank");
  std::vector<int> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (size_t k = 0; k < r; ++k) {
    if (sorted[k] != static_cast<int>(k)) m.fail("TRANSPOSE perm is not a permutation");
  }
  std::vector<int64_t> in_strides(r, 1);
  for (size_t k = r; k-- > 1;) in_strides[k - 1] = in_strides[k] * in.shape[k];
  o.dims.resize(r);
  o.strides_a.resize(r);
  for (size_t k = 0; k < r; ++k) {
    o.dims[k] = in.shape[static_cast<size_t>(perm[k])];
    o.strides_a[k] = in_strides[static_cast<size_t>(perm[k])];
  }
  o.idx.assign(r, 0);
  m.define_output(o, o.dims);
}

void eval_transpose(Impl& m, Op& o) {
  const float* in = data_of(m, o.in[0]);
  std::vector<float>& out = m.values[static_cast<size_t>(o.out[0])].data;
  std::fill(o.idx.begin(), o.idx.end(), 0);
  for (size_t k = 0; k < out.size(); ++k) {
    int64_t src = 0;
    for (size_t d = 0; d < o.idx.size(); ++d) src += o.idx[d] * o.strides_a[d];
    out[k] = in[src];
    next_index(o.idx, o.dims);
  }
}

// ---- MEAN ----

void prepare_mean(Impl& m, Op& o) {
  const TensorValue& in = m.value(o.in[0]);
  const auto* opt = o.op->builtin_options_as_ReducerOptions();
  const bool keep = opt && opt->keep_dims();
  const int r = static_cast<int>(in.shape.size());
  std::vector<bool> reduce(static_cast<size_t>(r), false);
  for (int a : m.ints(o.in[1])) {
    if (a < -r || a >= r) {
      m.fail("MEAN axis " + std::to_string(a) + " of rank " + std::to_string(r));
    }
    reduce[static_cast<size_t>(a < 0 ? a + r : a)] = true;
  }
  std::vector<int> shape, kept;
  for (int k = 0; k < r; ++k) {
    const size_t uk = static_cast<size_t>(k);
    if (!reduce[uk])
      shape.push_back(in.shape[uk]);
    else if (keep)
      shape.push_back(1);
    kept.push_back(reduce[uk] ? 1 : in.shape[uk]);
  }
  o.strides_a = broadcast_strides(kept, in.shape);
  o.dims = in.shape;
  o.idx.assign(static_cast<size_t>(r), 0);
  o.sums.assign(static_cast<size_t>(element_count(kept)), 0.0f);
  m.define_output(o, shape);
}

void eval_mean(Impl& m, Op& o) {
  const TensorValue& in = m.values[static_cast<size_t>(o.in[0])];
  std::vector<float>& out = m.values[static_cast<size_t>(o.out[0])].data;
  std::fill(o.sums.begin(), o.sums.end(), 0.0f);
  std::fill(o.idx.begin(), o.idx.end(), 0);
  for (size_t k = 0; k < in.data.size(); ++k) {
    int64_t oi = 0;
    for (size_t d = 0; d < o.idx.size(); ++d) oi += o.idx[d] * o.strides_a[d];
    o.sums[static_cast<size_t>(oi)] += in.data[k];
    next_index(o.idx, o.dims);
  }
  const size_t n_out = o.sums.size();
  const int64_t n_in =
      n_out ? static_cast<int64_t>(in.data.size()) / static_cast<int64_t>(n_out) : 1;
  for (size_t k = 0; k < n_out; ++k) out[k] = o.sums[k] / static_cast<float>(n_in);
}

// ---- CONCATENATION ----

void prepare_concat(Impl& m, Op& o) {
  const auto* opt = o.op->builtin_options_as_ConcatenationOptions();
  const TensorValue& first = m.value(o.in[0]);
  const int r = static_cast<int>(first.shape.size());
  int axis = opt ? opt->axis() : 0;
  if (axis < 0) axis += r;
  if (axis < 0 || axis >= r) m.fail("CONCATENATION axis");
  std::vector<int> shape = first.shape;
  shape[static_cast<size_t>(axis)] = 0;
  for (int t : o.in) {
    const TensorValue& v = m.value(t);
    if (v.shape.size() != first.shape.size()) m.fail("CONCATENATION of different ranks");
    for (int k = 0; k < r; ++k) {
      const size_t uk = static_cast<size_t>(k);
      if (k != axis && v.shape[uk] != first.shape[uk]) {
        m.fail("CONCATENATION of shapes " + shape_str(first.shape) + " and " + shape_str(v.shape));
      }
    }
    shape[static_cast<size_t>(axis)] += v.shape[static_cast<size_t>(axis)];
  }
  o.axis = axis;
  o.outer = 1;
  o.inner = 1;
  for (int k = 0; k < axis; ++k) o.outer *= shape[static_cast<size_t>(k)];
  for (int k = axis + 1; k < r; ++k) o.inner *= shape[static_cast<size_t>(k)];
  m.define_output(o, shape);
}

void eval_concat(Impl& m, Op& o) {
  float* out = m.values[static_cast<size_t>(o.out[0])].data.data();
  for (int64_t a = 0; a < o.outer; ++a) {
    for (int t : o.in) {
      const TensorValue& v = m.values[static_cast<size_t>(t)];
      const int64_t chunk = v.shape[static_cast<size_t>(o.axis)] * o.inner;
      std::memcpy(out, v.data.data() + a * chunk, static_cast<size_t>(chunk) * sizeof(float));
      out += chunk;
    }
  }
}

// ---- BATCH_MATMUL ----

void prepare_batch_matmul(Impl& m, Op& o) {
  const auto* opt = o.op->builtin_options_as_BatchMatMulOptions();
  o.adj_x = opt && opt->adj_x();
  o.adj_y = opt && opt->adj_y();
  const TensorValue& a = m.value(o.in[0]);
  const TensorValue& b = m.value(o.in[1]);
  if (a.shape.size() < 2 || b.shape.size() < 2) m.fail("BATCH_MATMUL rank");
  const size_t ra = a.shape.size(), rb = b.shape.size();
  o.m = o.adj_x ? a.shape[ra - 1] : a.shape[ra - 2];
  o.k = o.adj_x ? a.shape[ra - 2] : a.shape[ra - 1];
  const int k2 = o.adj_y ? b.shape[rb - 1] : b.shape[rb - 2];
  o.n = o.adj_y ? b.shape[rb - 2] : b.shape[rb - 1];
  if (o.k != k2) m.fail("BATCH_MATMUL inner dimensions");
  std::vector<int> ba(a.shape.begin(), a.shape.end() - 2), bb(b.shape.begin(), b.shape.end() - 2);
  o.dims = broadcast(ba, bb, m);
  o.strides_a = broadcast_strides(ba, o.dims);
  o.strides_b = broadcast_strides(bb, o.dims);
  o.idx.assign(o.dims.size(), 0);
  o.outer = element_count(o.dims);
  std::vector<int> shape = o.dims;
  shape.push_back(o.m);
  shape.push_back(o.n);
  m.define_output(o, shape);
}

void eval_batch_matmul(Impl& m, Op& o) {
  const float* a = data_of(m, o.in[0]);
  const float* b = data_of(m, o.in[1]);
  float* out = m.values[static_cast<size_t>(o.out[0])].data.data();
  const int64_t M = o.m, K = o.k, N = o.n;
  std::fill(o.idx.begin(), o.idx.end(), 0);
  for (int64_t k = 0; k < o.outer; ++k) {
    int64_t ia = 0, ib = 0;
    for (size_t d = 0; d < o.idx.size(); ++d) {
      ia += o.idx[d] * o.strides_a[d];
      ib += o.idx[d] * o.strides_b[d];
    }
    const float* pa = a + ia * M * K;
    const float* pb = b + ib * K * N;
    float* po = out + k * M * N;
    for (int64_t i = 0; i < M; ++i) {
      for (int64_t j = 0; j < N; ++j) {
        float total = 0.f;
        for (int64_t c = 0; c < K; ++c) {
          const float x = o.adj_x ? pa[c * M + i] : pa[i * K + c];
          const float y = o.adj_y ? pb[j * K + c] : pb[c * N + j];
          total += x * y;
        }
        po[i * N + j] = total;
      }
    }
    next_index(o.idx, o.dims);
  }
}

}  // namespace

void prepare_op(Impl& m, Op& o) {
  if (is_window_op(o.code)) return prepare_window_op(m, o);
  if (is_index_op(o.code)) return prepare_index_op(m, o);
  switch (o.code) {
    case tflite::BuiltinOperator_FULLY_CONNECTED:
      return prepare_fully_connected(m, o);
    case tflite::BuiltinOperator_ADD:
    case tflite::BuiltinOperator_SUB:
    case tflite::BuiltinOperator_MUL:
    case tflite::BuiltinOperator_DIV:
    case tflite::BuiltinOperator_SQUARED_DIFFERENCE:
      return prepare_binary(m, o);
    case tflite::BuiltinOperator_SOFTMAX:
      return prepare_softmax(m, o);
    case tflite::BuiltinOperator_RESHAPE:
      return prepare_reshape(m, o);
    case tflite::BuiltinOperator_TRANSPOSE:
      return prepare_transpose(m, o);
    case tflite::BuiltinOperator_MEAN:
      return prepare_mean(m, o);
    case tflite::BuiltinOperator_CONCATENATION:
      return prepare_concat(m, o);
    case tflite::BuiltinOperator_BATCH_MATMUL:
      return prepare_batch_matmul(m, o);
    default:
      return prepare_unary(m, o);
  }
}

void eval_op(Impl& m, Op& o) {
  if (is_window_op(o.code)) return eval_window_op(m, o);
  if (is_index_op(o.code)) return eval_index_op(m, o);
  switch (o.code) {
    case tflite::BuiltinOperator_FULLY_CONNECTED:
      return eval_fully_connected(m, o);
    case tflite::BuiltinOperator_ADD:
    case tflite::BuiltinOperator_SUB:
    case tflite::BuiltinOperator_MUL:
    case tflite::BuiltinOperator_DIV:
    case tflite::BuiltinOperator_SQUARED_DIFFERENCE:
      return eval_binary(m, o);
    case tflite::BuiltinOperator_SOFTMAX:
      return eval_softmax(m, o);
    case tflite::BuiltinOperator_RESHAPE:
      return eval_copy(m, o);
    case tflite::BuiltinOperator_TRANSPOSE:
      return eval_transpose(m, o);
    case tflite::BuiltinOperator_MEAN:
      return eval_mean(m, o);
    case tflite::BuiltinOperator_CONCATENATION:
      return eval_concat(m, o);
    case tflite::BuiltinOperator_BATCH_MATMUL:
      return eval_batch_matmul(m, o);
    default:
      return eval_unary(m, o);
  }
}

}  // namespace tfs::lite

// The interpreter: loads a verified model's first subgraph, copies its constants, packs the
// weights of each FULLY_CONNECTED once (kernels::PreparedFc), and runs the operators in order with
// float activations. A run is planned once per set of input shapes (interpreter_ops.cc's prepare
// step: output shapes, checks, buffers); invoking again at the same shapes only computes.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "interpreter_impl.h"

namespace tfs::lite {

using kernels::Activation;
using TensorValue = Interpreter::TensorValue;

namespace {

// The largest tensor the interpreter sizes: 2^31 floats (8 GiB).
constexpr int64_t kMaxElements = int64_t{1} << 31;

}  // namespace

Interpreter::Impl::Impl(ModelFile f, Kernels k) : file(std::move(f)), kernels(k) {
  load();
}

void Interpreter::Impl::fail(const std::string& what) const {
  throw FormatError("[lite] " + fname() + ": " + what);
}

void Interpreter::Impl::check_byte_count(const RtTensor& r) const {
  // LiteRT's BytesRequired when it reads the model: a shape whose element or byte count overflows
  // 64 bits is invalidly specified (the file's verifier has refused negative dimensions).
  uint64_t count = 1;
  bool overflow = false;
  for (int d : r.shape) overflow |= __builtin_mul_overflow(count, static_cast<uint64_t>(d), &count);
  overflow |=
      __builtin_mul_overflow(count, static_cast<uint64_t>(tensor_type_size(r.type)), &count);
  if (overflow) fail("tensor " + r.name + ": shape " + shape_str(r.shape) + " overflows 64 bits");
}

void Interpreter::Impl::size_input(size_t i, const std::vector<int>& shape) {
  TensorValue& v = values[static_cast<size_t>(inputs[i])];
  const int64_t count = element_count(shape);
  if (count < 0 || count > kMaxElements) {
    fail("input " + std::to_string(i) + " " + tensors[static_cast<size_t>(inputs[i])].name +
         ": shape " + shape_str(shape) + " is more than the interpreter allocates (2^31 elements)");
  }
  v.shape = shape;
  v.data.resize(static_cast<size_t>(count));
}

void Interpreter::Impl::load() {
  const tflite::Model& m = file.model();
  if (!m.subgraphs() || m.subgraphs()->size() == 0) fail("model has no subgraph");
  sg = m.subgraphs()->Get(0);
  const auto* ts = sg->tensors();
  const size_t n = ts ? ts->size() : 0;
  tensors.resize(n);
  values.assign(n, TensorValue{});
  for (size_t k = 0; k < n; ++k) {
    const tflite::Tensor* t = ts->Get(static_cast<flatbuffers::uoffset_t>(k));
    RtTensor& r = tensors[k];
    r.type = t->type();
    r.name = t->name() ? t->name()->str() : "";
    if (t->shape()) r.shape.assign(t->shape()->begin(), t->shape()->end());
    check_byte_count(r);
    const tflite::Buffer* b = m.buffers() ? m.buffers()->Get(t->buffer()) : nullptr;
    if (b && b->data() && b->data()->size() > 0) {
      r.is_const = true;
      const uint8_t* p = b->data()->data();
      const size_t bytes = b->data()->size();
      const int64_t elems = element_count(r.shape);
      const size_t want = static_cast<size_t>(elems) * tensor_type_size(r.type);
      if (elems < 0 || bytes != want) {
        fail("tensor " + r.name + ": buffer of " + std::to_string(bytes) + " bytes for shape " +
             shape_str(r.shape));
      }
      if (r.type == tflite::TensorType_FLOAT32) {
        r.f.resize(static_cast<size_t>(elems));
        std::memcpy(r.f.data(), p, bytes);
        values[k].shape = r.shape;
        values[k].data = r.f;
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
        fail("tensor " + r.name + ": unsupported constant type " + tensor_type_name(r.type));
      }
    }
    if (t->quantization() && t->quantization()->scale()) {
      r.scales.assign(t->quantization()->scale()->begin(), t->quantization()->scale()->end());
    }
    if (t->quantization() && t->quantization()->zero_point()) {
      r.zero_points.assign(t->quantization()->zero_point()->begin(),
                           t->quantization()->zero_point()->end());
    }
    if (r.type == tflite::TensorType_INT32 && r.is_const) {
      // An integer constant carried as float (kMaxCarriedInt) when an operator reads it as data.
      bool exact = true;
      for (int32_t v : r.i) exact &= std::abs(static_cast<float>(v)) <= kMaxCarriedInt;
      if (exact) {
        values[k].shape = r.shape;
        values[k].data.assign(r.i.begin(), r.i.end());
      }
    }
    if (r.type == tflite::TensorType_INT8 && r.is_const && r.scales.empty()) {
      fail("tensor " + r.name + ": int8 constant without scales");
    }
  }
  if (sg->inputs()) inputs.assign(sg->inputs()->begin(), sg->inputs()->end());
  if (sg->outputs()) outputs.assign(sg->outputs()->begin(), sg->outputs()->end());
  // An input takes its declared shape, and a buffer only when it is first written or the run is
  // planned (size_input): as LiteRT's interpreter, which allocates at AllocateTensors, so a
  // declared shape may be resized before anything is allocated.
  for (int t : inputs) {
    if (t < 0 || static_cast<size_t>(t) >= n) fail("missing input tensor");
    values[static_cast<size_t>(t)].shape = tensors[static_cast<size_t>(t)].shape;
  }
  for (int t : outputs) {
    if (t < 0 || static_cast<size_t>(t) >= n) fail("missing output tensor");
  }
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
}

void Interpreter::Impl::check_op(Op& o) {
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
                                  tflite::BuiltinOperator_BATCH_MATMUL,
                                  tflite::BuiltinOperator_CONV_2D,
                                  tflite::BuiltinOperator_DEPTHWISE_CONV_2D,
                                  tflite::BuiltinOperator_MAX_POOL_2D,
                                  tflite::BuiltinOperator_AVERAGE_POOL_2D,
                                  tflite::BuiltinOperator_SQUARED_DIFFERENCE,
                                  tflite::BuiltinOperator_RSQRT,
                                  tflite::BuiltinOperator_GATHER,
                                  tflite::BuiltinOperator_DEQUANTIZE,
                                  tflite::BuiltinOperator_SHAPE,
                                  tflite::BuiltinOperator_CAST,
                                  tflite::BuiltinOperator_STRIDED_SLICE,
                                  tflite::BuiltinOperator_PACK};
  if (std::find(std::begin(supported), std::end(supported), o.code) == std::end(supported)) {
    fail("unsupported operator " + builtin_operator_name(o.code));
  }
  if (o.out.size() != 1 || o.out[0] < 0 || static_cast<size_t>(o.out[0]) >= tensors.size()) {
    fail("operator without one output");
  }
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
    case tflite::BuiltinOperator_CONV_2D:
    case tflite::BuiltinOperator_DEPTHWISE_CONV_2D:
    case tflite::BuiltinOperator_SQUARED_DIFFERENCE:
    case tflite::BuiltinOperator_GATHER:
      min_inputs = 2;
      break;
    case tflite::BuiltinOperator_STRIDED_SLICE:
      min_inputs = 4;
      break;
    default:
      break;
  }
  if (o.in.size() < min_inputs) {
    fail(builtin_operator_name(o.code) + " with " + std::to_string(o.in.size()) + " inputs");
  }
  for (int t : o.in) {
    if (t >= 0 && static_cast<size_t>(t) >= tensors.size()) fail("missing input tensor");
  }
  // Kernels read their inputs while they write the output: an operator may not write one of its
  // inputs, a constant or a model input.
  const RtTensor& out = tensors[static_cast<size_t>(o.out[0])];
  if (out.is_const || std::find(o.in.begin(), o.in.end(), o.out[0]) != o.in.end() ||
      std::find(inputs.begin(), inputs.end(), o.out[0]) != inputs.end()) {
    fail(builtin_operator_name(o.code) + " writes tensor " + out.name +
         ", which is one of its inputs, a constant or a model input");
  }
  for (int t : o.in) {
    if (t >= 0 && !is_carried_type(tensors[static_cast<size_t>(t)].type) &&
        !tensors[static_cast<size_t>(t)].is_const) {
      fail("activation " + tensors[static_cast<size_t>(t)].name + " of type " +
           tensor_type_name(tensors[static_cast<size_t>(t)].type) + " is not supported");
    }
  }
  if (!is_carried_type(out.type)) {
    fail(builtin_operator_name(o.code) + " output " + out.name + " of type " +
         tensor_type_name(out.type) + " is not supported");
  }
  if (is_window_op(o.code)) check_window_op(*this, o);
  if (o.code == tflite::BuiltinOperator_FULLY_CONNECTED) {
    if (o.in[1] < 0) fail("FULLY_CONNECTED without weights");
    RtTensor& w = tensors[static_cast<size_t>(o.in[1])];
    if (!w.is_const || w.shape.size() != 2) {
      fail("FULLY_CONNECTED weights " + w.name + " must be a 2-D constant");
    }
    const auto* opt = o.op->builtin_options_as_FullyConnectedOptions();
    o.act = activation_of(opt ? opt->fused_activation_function() : 0, *this);
    o.asymmetric = opt && opt->asymmetric_quantize_inputs();
    const int units = w.shape[0], depth = w.shape[1];
    if (w.type == tflite::TensorType_INT8) {
      if (w.scales.size() != 1 && w.scales.size() != static_cast<size_t>(units)) {
        fail("weights " + w.name + ": " + std::to_string(w.scales.size()) + " scales for " +
             std::to_string(units) + " units");
      }
      if (kernels == Kernels::kDequantized) {  // int8 weights as float: q * scale of its row
        std::vector<float> f(w.q.size());
        for (size_t k = 0; k < w.q.size(); ++k) {
          const float scale =
              w.scales.size() == 1 ? w.scales[0] : w.scales[k / static_cast<size_t>(depth)];
          f[k] = static_cast<float>(w.q[k]) * scale;
        }
        o.fc = kernels::PreparedFc::float_weights(f.data(), units, depth, false);
      } else {
        o.fc = kernels::PreparedFc::hybrid_weights(w.q.data(), units, depth, w.scales);
      }
    } else if (w.type == tflite::TensorType_FLOAT32) {
      o.fc =
          kernels::PreparedFc::float_weights(w.f.data(), units, depth, kernels == Kernels::kFast);
    } else {
      fail("FULLY_CONNECTED weights of type " + tensor_type_name(w.type));
    }
  }
  if (o.code == tflite::BuiltinOperator_BATCH_MATMUL) {
    for (int t : o.in) {
      if (t >= 0 && tensors[static_cast<size_t>(t)].type != tflite::TensorType_FLOAT32) {
        fail("BATCH_MATMUL with int8 operands is not supported");
      }
    }
  }
}

TensorValue& Interpreter::Impl::value(int t) {
  if (t < 0 || static_cast<size_t>(t) >= tensors.size()) fail("missing input tensor");
  TensorValue& v = values[static_cast<size_t>(t)];
  const RtTensor& r = tensors[static_cast<size_t>(t)];
  if (!defined[static_cast<size_t>(t)] || !is_carried_type(r.type)) {
    fail("tensor " + r.name + " is read before an operator writes it, or is not float");
  }
  for (int d : v.shape) {
    if (d < 0) fail("tensor " + r.name + " has shape " + shape_str(v.shape));
  }
  return v;
}

std::vector<int> Interpreter::Impl::ints(int t) const {
  if (t < 0 || static_cast<size_t>(t) >= tensors.size()) fail("missing input tensor");
  const RtTensor& r = tensors[static_cast<size_t>(t)];
  if (r.is_const && (!r.i.empty() || element_count(r.shape) == 0)) {
    return std::vector<int>(r.i.begin(), r.i.end());
  }
  if (r.type == tflite::TensorType_INT32 && static_cast<size_t>(t) < known.size() &&
      known[static_cast<size_t>(t)]) {
    std::vector<int> out;
    for (float v : values[static_cast<size_t>(t)].data) {
      if (!(std::abs(v) <= kMaxCarriedInt) || v != std::floor(v)) {
        fail("tensor " + r.name + " holds " + std::to_string(v) +
             ", not an integer the interpreter carries (|v| <= 2^24)");
      }
      out.push_back(static_cast<int>(v));
    }
    return out;
  }
  fail("tensor " + r.name + " must be an integer constant");
}

TensorValue& Interpreter::Impl::define_output(Op& o, const std::vector<int>& shape) {
  const int64_t count = element_count(shape);
  if (count < 0 || count > kMaxElements) {
    fail(builtin_operator_name(o.code) + " output of shape " + shape_str(shape));
  }
  TensorValue& v = values[static_cast<size_t>(o.out[0])];
  v.shape = shape;
  v.data.resize(static_cast<size_t>(count));
  defined[static_cast<size_t>(o.out[0])] = 1;
  return v;
}

void Interpreter::Impl::plan() {
  planned = false;
  defined.assign(tensors.size(), 0);
  known.assign(tensors.size(), 0);
  for (size_t t = 0; t < tensors.size(); ++t) {
    const RtTensor& r = tensors[t];
    if (r.is_const && (r.type == tflite::TensorType_FLOAT32 ||
                       (r.type == tflite::TensorType_INT32 && values[t].shape == r.shape))) {
      defined[t] = known[t] = 1;
    }
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const size_t t = static_cast<size_t>(inputs[i]);
    if (values[t].data.size() != static_cast<size_t>(element_count(values[t].shape))) {
      size_input(i, values[t].shape);
    }
    defined[t] = 1;
    known[t] = 0;
  }
  for (Op& o : ops) {
    prepare_op(*this, o);
    // Shape arithmetic (SHAPE, STRIDED_SLICE, PACK of known values) is evaluated now, so that a
    // RESHAPE it feeds knows its output shape while planning.
    bool all_known = o.code == tflite::BuiltinOperator_SHAPE;
    if (!all_known && o.code != tflite::BuiltinOperator_FULLY_CONNECTED && !is_window_op(o.code)) {
      all_known = true;
      for (int t : o.in) all_known &= t < 0 || known[static_cast<size_t>(t)];
    }
    if (all_known) {
      eval_op(*this, o);
      known[static_cast<size_t>(o.out[0])] = 1;
    }
  }
  for (int t : outputs) {
    if (!defined[static_cast<size_t>(t)]) {
      fail("output tensor " + tensors[static_cast<size_t>(t)].name + " is never written");
    }
  }
  planned = true;
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
int Interpreter::input_type(int i) const {
  return impl_->tensors[static_cast<size_t>(impl_->inputs.at(static_cast<size_t>(i)))].type;
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

const TensorValue* Interpreter::intermediate(int t) const {
  if (t < 0 || static_cast<size_t>(t) >= impl_->values.size()) return nullptr;
  return &impl_->values[static_cast<size_t>(t)];
}

void Interpreter::resize_input(int i, const std::vector<int>& shape) {
  Impl& m = *impl_;
  if (i < 0 || static_cast<size_t>(i) >= m.inputs.size()) {
    m.fail("no input " + std::to_string(i) + " (the model has " + std::to_string(m.inputs.size()) +
           ")");
  }
  if (m.values[static_cast<size_t>(m.inputs[static_cast<size_t>(i)])].shape == shape) return;
  m.size_input(static_cast<size_t>(i), shape);
  m.planned = false;
}

float* Interpreter::input_data(int i) {
  Impl& m = *impl_;
  if (i < 0 || static_cast<size_t>(i) >= m.inputs.size()) {
    m.fail("no input " + std::to_string(i) + " (the model has " + std::to_string(m.inputs.size()) +
           ")");
  }
  TensorValue& v = m.values[static_cast<size_t>(m.inputs[static_cast<size_t>(i)])];
  if (v.data.size() != static_cast<size_t>(element_count(v.shape))) {
    m.size_input(static_cast<size_t>(i), v.shape);
  }
  return v.data.data();
}

void Interpreter::invoke() {
  Impl& m = *impl_;
  if (!m.planned) m.plan();
  for (auto& o : m.ops) eval_op(m, o);
}

const TensorValue& Interpreter::output(int i) const {
  const Impl& m = *impl_;
  if (i < 0 || static_cast<size_t>(i) >= m.outputs.size()) {
    m.fail("no output " + std::to_string(i) + " (the model has " +
           std::to_string(m.outputs.size()) + ")");
  }
  return m.values[static_cast<size_t>(m.outputs[static_cast<size_t>(i)])];
}

std::vector<TensorValue> Interpreter::run(const std::vector<TensorValue>& inputs) {
  Impl& m = *impl_;
  if (inputs.size() != m.inputs.size()) {
    m.fail("expected " + std::to_string(m.inputs.size()) + " inputs, got " +
           std::to_string(inputs.size()));
  }
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (element_count(inputs[k].shape) != static_cast<int64_t>(inputs[k].data.size())) {
      m.fail("input " + std::to_string(k) + ": " + std::to_string(inputs[k].data.size()) +
             " values for shape " + shape_str(inputs[k].shape));
    }
    resize_input(static_cast<int>(k), inputs[k].shape);
    std::copy(inputs[k].data.begin(), inputs[k].data.end(), input_data(static_cast<int>(k)));
  }
  invoke();
  std::vector<TensorValue> outs;
  for (int t : m.outputs) outs.push_back(m.values[static_cast<size_t>(t)]);
  return outs;
}

}  // namespace tfs::lite

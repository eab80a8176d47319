// convert_tflite_dynamic: the float and dynamic-range models of one function, run side by side
// on seeded random probes; what quantization changed, per output and per layer.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <random>

#include "tfscope/lite.h"

namespace tfs::lite {
namespace {

// Standard normal numbers from a portable generator (Box-Muller over mt19937_64), so a seed
// gives the same probes with every standard library.
class Probes {
 public:
  explicit Probes(uint64_t seed) : rng_(seed) {}
  float next() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u1 = 0;
    while (u1 <= 0) u1 = static_cast<double>(rng_() >> 11) * 0x1.0p-53;
    double u2 = static_cast<double>(rng_() >> 11) * 0x1.0p-53;
    double r = std::sqrt(-2.0 * std::log(u1));
    spare_ = static_cast<float>(r * std::sin(2 * M_PI * u2));
    has_spare_ = true;
    return static_cast<float>(r * std::cos(2 * M_PI * u2));
  }

 private:
  std::mt19937_64 rng_;
  bool has_spare_ = false;
  float spare_ = 0;
};

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string shape_text(const flatbuffers::Vector<int32_t>* s) {
  std::string out = "[";
  if (s) {
    for (flatbuffers::uoffset_t i = 0; i < s->size(); ++i) {
      out += (i ? ", " : "") + std::to_string(s->Get(i));
    }
  }
  return out + "]";
}

// Ops of the quantized model whose weights are int8, described.
std::vector<std::string> quantized_ops(const ModelFile& f, std::vector<bool>* per_op) {
  std::vector<std::string> out;
  const tflite::Model& m = f.model();
  const tflite::SubGraph* sg = m.subgraphs()->Get(0);
  if (!sg->operators()) return out;
  for (const tflite::Operator* op : *sg->operators()) {
    bool q = false;
    if (op->inputs()) {
      for (int32_t t : *op->inputs()) {
        if (t < 0) continue;
        const tflite::Tensor* tensor = sg->tensors()->Get(static_cast<flatbuffers::uoffset_t>(t));
        const tflite::Buffer* buffer = m.buffers()->Get(tensor->buffer());
        const bool weights = buffer && buffer->data() && buffer->data()->size() > 0;
        if (tensor->type() != tflite::TensorType_INT8 || !weights) continue;  // int8 weights only
        q = true;
        size_t scales = tensor->quantization() && tensor->quantization()->scale()
                            ? tensor->quantization()->scale()->size()
                            : 0;
        std::string name =
            builtin_operator_name(builtin_code(*m.operator_codes()->Get(op->opcode_index())));
        out.push_back(name + " " + tensor->name()->str() + " (int8 " + shape_text(tensor->shape()) +
                      ", " + std::to_string(scales) +
                      (scales > 1 ? " per-channel scales)" : " scale)"));
      }
    }
    if (per_op) per_op->push_back(q);
  }
  return out;
}

// The probe range of each model input: 0 for float inputs (standard normal), else the number of
// rows of the smallest GATHER table the input indexes (2 when it indexes none).
std::vector<int> integer_bounds(const ModelFile& f) {
  const tflite::SubGraph* sg = f.model().subgraphs()->Get(0);
  std::vector<int> bounds;
  if (!sg->inputs()) return bounds;
  for (int32_t in : *sg->inputs()) {
    const tflite::Tensor* t = sg->tensors()->Get(static_cast<flatbuffers::uoffset_t>(in));
    int bound = 0;
    if (t->type() != tflite::TensorType_FLOAT32 && sg->operators()) {
      for (const tflite::Operator* op : *sg->operators()) {
        const auto code = builtin_code(*f.model().operator_codes()->Get(op->opcode_index()));
        if (code != tflite::BuiltinOperator_GATHER || !op->inputs() || op->inputs()->size() < 2 ||
            op->inputs()->Get(1) != in || op->inputs()->Get(0) < 0) {
          continue;
        }
        const tflite::Tensor* table =
            sg->tensors()->Get(static_cast<flatbuffers::uoffset_t>(op->inputs()->Get(0)));
        if (table->shape() && table->shape()->size() > 0) {
          const int rows = table->shape()->Get(0);
          bound = bound == 0 ? rows : std::min(bound, rows);
        }
      }
    }
    if (t->type() != tflite::TensorType_FLOAT32 && bound <= 0) bound = 2;
    bounds.push_back(bound);
  }
  return bounds;
}

}  // namespace

DeltaReport compare_models(const std::string& float_model, const std::string& int8_model,
                           int probes, uint64_t seed) {
  DeltaReport r;
  r.probes = probes;
  r.seed = seed;
  r.float_model = float_model;
  r.int8_model = int8_model;
  r.float_bytes = float_model.size();
  r.int8_bytes = int8_model.size();
  Interpreter f(ModelFile(float_model, "float model"));
  Interpreter q(ModelFile(int8_model, "dynamic-range model"));
  Interpreter dq(ModelFile(int8_model, "dynamic-range model"), Kernels::kDequantized);
  std::vector<bool> op_quantized;
  r.quantized_ops = quantized_ops(q.file(), &op_quantized);
  // Pair the float model's ops with the int8 model's, skipping DEQUANTIZE: the k-th layer
  // compares float op k's output with the int8 op's (its DEQUANTIZE's when one follows).
  std::vector<std::pair<int, int>> pairs;  // (float output tensor, int8 output tensor)
  {
    std::vector<int> q_ops;
    for (int i = 0; i < q.num_operators(); ++i) {
      if (q.operator_label(i).rfind("DEQUANTIZE ", 0) != 0) q_ops.push_back(i);
    }
    if (static_cast<int>(q_ops.size()) == f.num_operators()) {
      for (size_t k = 0; k < q_ops.size(); ++k) {
        const int i = q_ops[k];
        int out = q.operator_output(i);
        if (i + 1 < q.num_operators() && q.operator_label(i + 1).rfind("DEQUANTIZE ", 0) == 0) {
          out = q.operator_output(i + 1);
        }
        LayerDelta l;
        std::string label = q.operator_label(i);
        l.op = label.substr(0, label.find(' '));
        l.tensor = label.substr(label.find(' ') + 1);
        l.quantized = op_quantized[static_cast<size_t>(i)];
        r.layers.push_back(l);
        pairs.emplace_back(f.operator_output(static_cast<int>(k)), out);
      }
    }
  }
  const std::vector<int> bounds = integer_bounds(f.file());
  std::mt19937_64 ints(seed ^ 0x9e3779b97f4a7c15ull);
  Probes gen(seed);
  double sum = 0, wsum = 0;
  int64_t n = 0;
  std::vector<double> layer_sum(r.layers.size(), 0);
  std::vector<int64_t> layer_n(r.layers.size(), 0);
  // Probes are drawn input by input in the order of the inputs' names, so that two converters
  // that order the same signature differently (TF puts `segments` before `ids`) get the same.
  std::vector<int> by_name(static_cast<size_t>(f.num_inputs()));
  for (int i = 0; i < f.num_inputs(); ++i) by_name[static_cast<size_t>(i)] = i;
  std::sort(by_name.begin(), by_name.end(),
            [&](int a, int b) { return f.input_name(a) < f.input_name(b); });
  for (int p = 0; p < probes; ++p) {
    std::vector<Interpreter::TensorValue> inputs(static_cast<size_t>(f.num_inputs()));
    for (int i : by_name) {
      Interpreter::TensorValue v;
      v.shape = f.input_shape(i);
      int64_t count = 1;
      for (int d : v.shape) count *= d;
      const int bound = static_cast<size_t>(i) < bounds.size() ? bounds[static_cast<size_t>(i)] : 0;
      for (int64_t k = 0; k < count; ++k) {
        v.data.push_back(bound > 0 ? static_cast<float>(ints() % static_cast<uint64_t>(bound))
                                   : gen.next());
      }
      inputs[static_cast<size_t>(i)] = std::move(v);
    }
    auto fo = f.run(inputs);
    auto qo = q.run(inputs);
    auto wo = dq.run(inputs);
    for (size_t o = 0; o < fo.size(); ++o) {
      for (size_t k = 0; k < fo[o].data.size(); ++k) {
        double w = std::fabs(static_cast<double>(fo[o].data[k]) - wo[o].data[k]);
        r.weights_only_max_abs_delta = std::max(r.weights_only_max_abs_delta, w);
        wsum += w;
        double d = std::fabs(static_cast<double>(fo[o].data[k]) - qo[o].data[k]);
        r.max_abs_delta = std::max(r.max_abs_delta, d);
        r.max_abs_output = std::max(r.max_abs_output, std::fabs(double(fo[o].data[k])));
        sum += d;
        ++n;
      }
    }
    for (size_t i = 0; i < r.layers.size(); ++i) {
      const auto* a = f.intermediate(pairs[i].first);
      const auto* b = q.intermediate(pairs[i].second);
      if (!a || !b || a->data.size() != b->data.size()) continue;
      for (size_t k = 0; k < a->data.size(); ++k) {
        double d = std::fabs(static_cast<double>(a->data[k]) - b->data[k]);
        r.layers[i].max_abs_delta = std::max(r.layers[i].max_abs_delta, d);
        layer_sum[i] += d;
        ++layer_n[i];
      }
    }
  }
  r.mean_abs_delta = n ? sum / static_cast<double>(n) : 0;
  r.weights_only_mean_abs_delta = n ? wsum / static_cast<double>(n) : 0;
  for (size_t i = 0; i < r.layers.size(); ++i) {
    r.layers[i].mean_abs_delta = layer_n[i] ? layer_sum[i] / static_cast<double>(layer_n[i]) : 0;
  }
  return r;
}

DeltaReport convert_tflite_dynamic(const ConcreteFunction& fn, int probes, uint64_t seed) {
  ConvertOptions opts;
  std::string float_model = convert(fn, opts);
  opts.dynamic_range = true;
  std::string int8_model = convert(fn, opts);
  return compare_models(float_model, int8_model, probes, seed);
}

std::string DeltaReport::text() const {
  std::string s;
  s += "dynamic-range quantization (int8 weights, float activations): " + std::to_string(probes) +
       " probes of N(0, 1) inputs (integer inputs uniform over their tables' rows), seed " +
       std::to_string(seed) + "\n";
  char buf[160];
  std::snprintf(buf, sizeof buf, "  file size: float %zu bytes, int8 %zu bytes (%.1f%%)\n",
                float_bytes, int8_bytes,
                float_bytes ? 100.0 * static_cast<double>(int8_bytes) / float_bytes : 0.0);
  s += buf;
  if (quantized_ops.empty()) {
    s += "  quantized: nothing (no weights of at least 1024 elements)\n";
  } else {
    for (const auto& q : quantized_ops) s += "  quantized: " + q + "\n";
  }
  s += "  output delta |float - int8|: max " + fmt(max_abs_delta) + ", mean " +
       fmt(mean_abs_delta) + " (largest |output| " + fmt(max_abs_output) + ")\n";
  s += "    the int8 weights alone (float kernel): max " + fmt(weights_only_max_abs_delta) +
       ", mean " + fmt(weights_only_mean_abs_delta) + "; the rest is run-time input quantization\n";
  if (!layers.empty()) s += "  per layer (delta of each op's output, errors accumulate):\n";
  for (const auto& l : layers) {
    s += "    " + l.op + " " + l.tensor + (l.quantized ? " [int8]" : " [float]") + ": max " +
         fmt(l.max_abs_delta) + ", mean " + fmt(l.mean_abs_delta) + "\n";
  }
  return s;
}

std::string DeltaReport::json() const {
  nlohmann::ordered_json j;
  j["probes"] = probes;
  j["seed"] = seed;
  j["max_abs_delta"] = max_abs_delta;
  j["mean_abs_delta"] = mean_abs_delta;
  j["max_abs_output"] = max_abs_output;
  j["weights_only_max_abs_delta"] = weights_only_max_abs_delta;
  j["weights_only_mean_abs_delta"] = weights_only_mean_abs_delta;
  j["quantized_ops"] = quantized_ops;
  j["float_bytes"] = float_bytes;
  j["int8_bytes"] = int8_bytes;
  nlohmann::ordered_json ls = nlohmann::ordered_json::array();
  for (const auto& l : layers) {
    ls.push_back({{"op", l.op},
                  {"tensor", l.tensor},
                  {"quantized", l.quantized},
                  {"max_abs_delta", l.max_abs_delta},
                  {"mean_abs_delta", l.mean_abs_delta}});
  }
  j["layers"] = ls;
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace tfs::lite

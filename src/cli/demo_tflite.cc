// The demo's TFLite section (the lab's convert_tflite_dynamic): a small MLP (Dense 16 -> 64
// relu -> 10, Glorot-uniform seeded tf.Variables, input signature [None, 16]) converted to TFLite
// float and with dynamic-range quantization, both run on seeded N(0, 1) probes, and the output
// delta reported. The first layer's 1024 weights (exactly TF's threshold) become int8 per output
// unit; the second's 640 stay float.
#include <cmath>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>

#include "demo.h"
#include "tfscope/function.h"
#include "tfscope/lite.h"
#include "tfscope/variable.h"

namespace tfscope_cli {
namespace {

using tfs::DType;
using tfs::PartialShape;
using tfs::Shape;
using tfs::Tensor;
using tfs::Value;

// Deterministic values in [-limit, limit) from a 32-bit LCG: the same weights in every build.
std::vector<float> seeded(size_t n, uint32_t seed, float limit) {
  std::vector<float> v(n);
  for (auto& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = (static_cast<float>(seed >> 8) / static_cast<float>(1u << 23) - 1.0f) * limit;
  }
  return v;
}

std::shared_ptr<tfs::Variable> variable(std::vector<float> values, Shape shape, const char* name) {
  return std::make_shared<tfs::Variable>(Tensor::from_vector(values, shape), name);
}

}  // namespace

void demo_tflite(DemoContext& ctx) {
  // Glorot-uniform limits sqrt(6 / (fan_in + fan_out)), as a Keras Dense layer starts.
  const float l1 = std::sqrt(6.0f / (16 + 64)), l2 = std::sqrt(6.0f / (64 + 10));
  auto w1 = variable(seeded(16 * 64, 101, l1), Shape{16, 64}, "w1");
  auto b1 = variable(seeded(64, 102, 0.1f), Shape{64}, "b1");
  auto w2 = variable(seeded(64 * 10, 103, l2), Shape{64, 10}, "w2");
  auto b2 = variable(seeded(10, 104, 0.1f), Shape{10}, "b2");
  tfs::FunctionOptions opts;
  opts.input_signature =
      std::vector<Value>{tfs::TensorSpec(PartialShape{-1, 16}, DType::kFloat32, "x")};
  auto mlp = tfs::function(
      "mlp", {"x"},
      [w1, b1, w2, b2](Tensor x) {
        Tensor h = tfs::relu(tfs::matmul(x, w1->read_value()) + Value(b1->read_value()));
        return tfs::matmul(h, w2->read_value()) + Value(b2->read_value());
      },
      opts);
  auto cf = mlp->get_concrete_function();
  tfs::lite::DeltaReport r = tfs::lite::convert_tflite_dynamic(*cf, 32, 0);

  ctx.result["model"] = "x[None, 16] -> Dense 64 relu -> Dense 10";
  ctx.result["probes"] = r.probes;
  ctx.result["max_abs_delta"] = r.max_abs_delta;
  ctx.result["mean_abs_delta"] = r.mean_abs_delta;
  ctx.result["max_abs_output"] = r.max_abs_output;
  ctx.result["weights_only_max_abs_delta"] = r.weights_only_max_abs_delta;
  ctx.result["quantized_ops"] = r.quantized_ops;
  ctx.result["float_bytes"] = r.float_bytes;
  ctx.result["int8_bytes"] = r.int8_bytes;

  ctx.say("mlp: x[None, 16] -> Dense 64 relu -> Dense 10, weights in tf.Variables (frozen into");
  ctx.say("the model as constants), converted as TFLiteConverter.from_concrete_functions does.");
  ctx.say("Dynamic-range quantization (optimizations=[Optimize.DEFAULT], no dataset) stores a");
  ctx.say("weight matrix of at least 1024 elements as int8 with one scale per output unit;");
  ctx.say(
      "activations stay float and each input row is quantized on the fly by the hybrid kernel.");
  std::string text = r.text();
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    ctx.say("  " + text.substr(start, end - start));
    start = end == std::string::npos ? text.size() : end + 1;
  }
  ctx.say(std::string("max |delta| ") + (r.max_abs_delta < 1e-2 ? "< 1e-2" : ">= 1e-2") +
          ": weights-only quantization of a well-conditioned model is nearly lossless. Part of");
  ctx.say(
      "the delta is the weights' rounding, the rest the hybrid kernel (bit-exact with LiteRT's)");
  ctx.say("quantizing each input row to int8 at run time; both grow with a layer's fan-in and the");
  ctx.say("inputs' range. The per-layer lines show where the error enters and how it carries on.");
}

}  // namespace tfscope_cli

// TFLite export: a ConcreteFunction's graph converted to a `.tflite` model as TF 2.21's
// TFLiteConverter writes it (FULLY_CONNECTED with fused bias and activation, variables frozen
// to constants), optionally with dynamic-range quantization (Optimize.DEFAULT, no dataset); an
// interpreter with LiteRT's reference kernels' arithmetic (packed SIMD FULLY_CONNECTED); and
// the delta report of convert_tflite_dynamic: what quantization changed, measured.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tfscope/lite_format.h"

namespace tfs {
class ConcreteFunction;
}

namespace tfs::lite {

struct ConvertOptions {
  // Optimize.DEFAULT without a representative dataset: int8 weights for FULLY_CONNECTED (and
  // BATCH_MATMUL), CONV_2D and DEPTHWISE_CONV_2D constants of at least kMinElementsForWeights
  // elements, per channel on axis 0 (a depthwise filter on axis 3).
  bool dynamic_range = false;
  std::string signature_key = "serving_default";
};

inline constexpr int64_t kMinElementsForWeights = 1024;

// Converts `fn` (its graph, with variables read now and frozen to constants) to model bytes.
// An op without a TFLite lowering raises FormatError: "[lite] convert: unsupported op Erf (node
// Gelu/Erf)".
std::string convert(const ConcreteFunction& fn, const ConvertOptions& options = {});

// The signature options.signature_key of the SavedModel at `dir` (TF-written or tfscope-written,
// read by tfs::saved_model::load), its variables frozen; PartitionedCall bodies are inlined.
std::string convert_saved_model(const std::string& dir, const ConvertOptions& options = {});

// Per-channel (axis 0) symmetric int8 quantization of a [rows, cols] float matrix as TF 2.21's
// dynamic-range quantizer does it: scale_r = max|w_r| / 127 in double, q = round half away from
// zero of w / scale_r, clamped to [-127, 127].
struct QuantizedWeights {
  std::vector<int8_t> values;
  std::vector<float> scales;
};
QuantizedWeights quantize_per_channel(const float* w, int64_t rows, int64_t cols);
// One scale for the whole tensor (BATCH_MATMUL's constant operand).
QuantizedWeights quantize_per_tensor(const float* w, int64_t n);

// Which kernels run. Both kReference and kFast run FULLY_CONNECTED through packed SIMD kernels
// (lite_kernels.h, chosen for the CPU at run time); kReference is bit-exact with LiteRT's
// reference resolver (BUILTIN_REF) in every op: float sums in the reference's order, each product
// rounded, the hybrid (int8 weights) kernel's integer dots and float steps. kFast differs only in
// float FULLY_CONNECTED, where each multiply-add rounds once (FMA): faster, and within a few ulps.
// kDequantized runs int8 weights as float (q * scale) through the reference float kernel: the
// error of the weights alone, without the hybrid kernel's run-time input quantization.
enum class Kernels { kReference, kFast, kDequantized };

// Runs a model's first subgraph. Tensors are float32 in and out; inputs may have a different
// leading (batch) dimension than the file declares.
class Interpreter {
 public:
  explicit Interpreter(ModelFile file, Kernels kernels = Kernels::kReference);
  ~Interpreter();
  Interpreter(Interpreter&&) noexcept;
  Interpreter& operator=(Interpreter&&) noexcept;

  int num_inputs() const;
  int num_outputs() const;
  // Declared shape (unknown dims as 1) and name of input/output i.
  std::vector<int> input_shape(int i) const;
  std::vector<int> output_shape(int i) const;
  std::string input_name(int i) const;
  // Input i's tflite::TensorType. INT32 inputs (token ids) take their integer values as floats
  // (exact up to 2^24).
  int input_type(int i) const;

  struct TensorValue {
    std::vector<int> shape;
    std::vector<float> data;
  };
  // Runs with the given inputs (one per model input, in order) and returns the outputs (copies
  // in and out; invoke() below is the path without them).
  std::vector<TensorValue> run(const std::vector<TensorValue>& inputs);

  // tf.lite.Interpreter's set_tensor / invoke / get_tensor without copies: resize_input gives
  // input i a shape (the declared one until then; a new shape plans the run again at the next
  // invoke: shapes, checks, buffers); input_data(i) is where its values go; output(i) is valid
  // until the next resize_input or invoke. Invoking again at the same shapes allocates nothing.
  void resize_input(int i, const std::vector<int>& shape);
  float* input_data(int i);
  void invoke();
  const TensorValue& output(int i) const;
  // The value of every operator output of the last run, by tensor index (for per-layer error).
  const TensorValue* intermediate(int tensor_index) const;
  // Operator i's output tensor index and a label ("FULLY_CONNECTED MatMul;Relu;add").
  int num_operators() const;
  int operator_output(int i) const;
  std::string operator_label(int i) const;

  const ModelFile& file() const;

  struct Impl;  // opaque; defined in interpreter.cc

 private:
  std::unique_ptr<Impl> impl_;
};

// The delta report of convert_tflite_dynamic.
struct LayerDelta {
  std::string op;      // "FULLY_CONNECTED"
  std::string tensor;  // the op's output tensor name
  bool quantized = false;
  double max_abs_delta = 0;
  double mean_abs_delta = 0;
};

struct DeltaReport {
  int probes = 0;
  uint64_t seed = 0;
  double max_abs_delta = 0;  // over all outputs of all probes
  double mean_abs_delta = 0;
  double max_abs_output = 0;  // the float model's largest |output|, for scale
  // The share of the weights alone: the int8 weights dequantized, float kernels.
  double weights_only_max_abs_delta = 0;
  double weights_only_mean_abs_delta = 0;
  std::vector<std::string> quantized_ops;  // "FULLY_CONNECTED MatMul (int8 [32, 64], 32 scales)"
  std::vector<LayerDelta> layers;
  size_t float_bytes = 0;
  size_t int8_bytes = 0;
  std::string float_model;  // the two files' bytes
  std::string int8_model;

  std::string text() const;
  std::string json() const;
};

// Converts `fn` float and with dynamic-range quantization, runs both (reference kernels) on
// `probes` batches of standard-normal inputs drawn from `seed` (unknown dims as 1; an integer
// input gets uniform integers below the row count of the smallest table it indexes, or 0 and 1
// when it indexes none: token ids and masks; drawn in the order of the inputs' names), and
// measures how far the int8 model's outputs are
// from the float model's. Layers are paired in operator order, skipping the int8 model's
// DEQUANTIZE ops (a quantized GATHER is measured at its DEQUANTIZE's output).
DeltaReport convert_tflite_dynamic(const ConcreteFunction& fn, int probes = 16, uint64_t seed = 0);
// The same for a SavedModel signature.
DeltaReport convert_saved_model_dynamic(const std::string& dir, int probes = 16, uint64_t seed = 0,
                                        const std::string& signature_key = "serving_default");
// The same for two model files (a float model and its quantized form, e.g. from TF).
DeltaReport compare_models(const std::string& float_model, const std::string& int8_model,
                           int probes = 16, uint64_t seed = 0);

}  // namespace tfs::lite

// The converter's in-memory model: tensors and operators as the writer lays them out. The
// converter builds it from a graph, the quantizer rewrites it, serialize() writes the flatbuffer.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tfscope/function.h"
#include "tfscope/lite.h"
#include "tfscope/lite_format.h"
#include "tfscope/variable_state.h"

namespace tfs::lite::detail {

struct LiteTensor {
  std::string name;
  tflite::TensorType type = tflite::TensorType_FLOAT32;
  std::vector<int32_t> shape;
  std::vector<int32_t> shape_signature;  // empty: none written (static shape)
  bool is_const = false;
  bool shape_unknown = false;  // the graph did not know it; infer_shapes() fills it in
  std::string data;            // constant bytes
  std::vector<float> scales;
  std::vector<int64_t> zero_points;
  int32_t quantized_dimension = 0;

  int64_t num_elements() const;
  const float* floats() const { return reinterpret_cast<const float*>(data.data()); }
};

struct LiteOp {
  tflite::BuiltinOperator code = tflite::BuiltinOperator_ADD;
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  tflite::ActivationFunctionType activation = tflite::ActivationFunctionType_NONE;
  bool keep_num_dims = false;
  bool asymmetric_quantize_inputs = false;
  bool keep_dims = false;
  bool adj_x = false, adj_y = false;
  bool approximate = false;
  int32_t axis = 0;
  float beta = 1.0f;
  // CONV_2D, DEPTHWISE_CONV_2D, MAX_POOL_2D, AVERAGE_POOL_2D.
  tflite::Padding padding = tflite::Padding_SAME;
  int32_t stride_w = 1, stride_h = 1;
  int32_t dilation_w = 1, dilation_h = 1;
  int32_t depth_multiplier = 1;
  int32_t filter_w = 1, filter_h = 1;                          // pools
  int32_t begin_mask = 0, end_mask = 0, shrink_axis_mask = 0;  // STRIDED_SLICE
  int version = 1;
};

struct LiteModel {
  std::vector<LiteTensor> tensors;
  std::vector<LiteOp> ops;
  std::vector<int32_t> inputs, outputs;
  std::string signature_key = "serving_default";
  std::vector<std::pair<std::string, int32_t>> signature_inputs, signature_outputs;
  std::string min_runtime_version = "1.5.0";

  // Adds a tensor, its name made unique (unique_name).
  int32_t add_tensor(LiteTensor t);
  // MLIR's unique names: `base`, or when a tensor has it (or it is reserved), `base` with the
  // first free numeric suffix ("name1", "name2").
  std::string unique_name(const std::string& base) const;
  // Names taken by values that write no tensor (a FULLY_CONNECTED's missing bias).
  std::vector<std::string> reserved_names;
};

// Writes the model as TF's converter lays it out: buffer 0 empty, then one buffer per tensor in
// tensor order (empty for activations), an empty QuantizationParameters table on every tensor,
// one OperatorCode per builtin (at the highest version its ops need), the signature, and the
// min_runtime_version metadata (16 bytes, NUL padded).
std::string serialize(const LiteModel& model);

// What the converter reads: a function, which of its placeholders are inputs (with their
// signature keys), the signature keys of its outputs, and the values of the rest: variables behind
// resource placeholders (or VarHandleOps, by shared_name) and captured eager tensors.
struct GraphSource {
  const GraphFunction* fn = nullptr;
  std::vector<Node*> inputs;
  std::vector<std::string> input_keys;
  std::vector<std::string> output_keys;
  std::map<const Node*, std::shared_ptr<VariableState>> resources;
  std::map<const Node*, Tensor> tensors;
  const std::map<std::string, std::shared_ptr<VariableState>>* variables_by_name = nullptr;
  const FunctionLibrary* library = nullptr;  // for PartitionedCall bodies
};
GraphSource source_of(const ConcreteFunction& fn);

// The converter (converter.cc): graph -> model, quantized when options.dynamic_range.
LiteModel build_model(const GraphSource& src, const ConvertOptions& options);

// The dynamic-range pass (quantize.cc).
void quantize_dynamic_range(LiteModel& model);

// Runtime version for the op versions present ("1.5.0", "2.17.0", ...).
std::string min_runtime_version(const LiteModel& model);

}  // namespace tfs::lite::detail

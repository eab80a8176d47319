// LiteModel -> flatbuffer bytes, laid out as TF 2.21's converter lays out a model.
#include <algorithm>
#include <map>

#include "lite_model.h"

namespace tfs::lite::detail {

int64_t LiteTensor::num_elements() const {
  int64_t n = 1;
  for (int32_t d : shape) n *= d;
  return n;
}

std::string LiteModel::unique_name(const std::string& base) const {
  auto taken = [&](const std::string& name) {
    return std::any_of(tensors.begin(), tensors.end(),
                       [&](const LiteTensor& o) { return o.name == name; }) ||
           std::find(reserved_names.begin(), reserved_names.end(), name) != reserved_names.end();
  };
  if (!taken(base)) return base;
  for (int k = 1;; ++k) {
    std::string candidate = base + std::to_string(k);
    if (!taken(candidate)) return candidate;
  }
}

int32_t LiteModel::add_tensor(LiteTensor t) {
  t.name = unique_name(t.name);
  tensors.push_back(std::move(t));
  return static_cast<int32_t>(tensors.size() - 1);
}

namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

Offset<tflite::Buffer> make_buffer(FlatBufferBuilder& fbb, const std::string& bytes) {
  if (bytes.empty()) return tflite::CreateBuffer(fbb);
  fbb.ForceVectorAlignment(bytes.size(), 1, 16);
  auto data = fbb.CreateVector(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  return tflite::CreateBuffer(fbb, data);
}

Offset<void> make_options(FlatBufferBuilder& fbb, const LiteOp& op, tflite::BuiltinOptions* type) {
  using namespace tflite;
  switch (op.code) {
    case BuiltinOperator_FULLY_CONNECTED:
      *type = BuiltinOptions_FullyConnectedOptions;
      return CreateFullyConnectedOptions(fbb, op.activation,
                                         FullyConnectedOptionsWeightsFormat_DEFAULT,
                                         op.keep_num_dims, op.asymmetric_quantize_inputs)
          .Union();
    case BuiltinOperator_CONV_2D:
      *type = BuiltinOptions_Conv2DOptions;
      return CreateConv2DOptions(fbb, op.padding, op.stride_w, op.stride_h, op.activation,
                                 op.dilation_w, op.dilation_h)
          .Union();
    case BuiltinOperator_DEPTHWISE_CONV_2D:
      *type = BuiltinOptions_DepthwiseConv2DOptions;
      return CreateDepthwiseConv2DOptions(fbb, op.padding, op.stride_w, op.stride_h,
                                          op.depth_multiplier, op.activation, op.dilation_w,
                                          op.dilation_h)
          .Union();
    case BuiltinOperator_MAX_POOL_2D:
    case BuiltinOperator_AVERAGE_POOL_2D:
      *type = BuiltinOptions_Pool2DOptions;
      return CreatePool2DOptions(fbb, op.padding, op.stride_w, op.stride_h, op.filter_w,
                                 op.filter_h, op.activation)
          .Union();
    case BuiltinOperator_ADD:
      *type = BuiltinOptions_AddOptions;
      return CreateAddOptions(fbb, op.activation, true).Union();
    case BuiltinOperator_SUB:
      *type = BuiltinOptions_SubOptions;
      return CreateSubOptions(fbb, op.activation, true).Union();
    case BuiltinOperator_MUL:
      *type = BuiltinOptions_MulOptions;
      return CreateMulOptions(fbb, op.activation).Union();
    case BuiltinOperator_DIV:
      *type = BuiltinOptions_DivOptions;
      return CreateDivOptions(fbb, op.activation).Union();
    case BuiltinOperator_SOFTMAX:
      *type = BuiltinOptions_SoftmaxOptions;
      return CreateSoftmaxOptions(fbb, op.beta).Union();
    case BuiltinOperator_CONCATENATION:
      *type = BuiltinOptions_ConcatenationOptions;
      return CreateConcatenationOptions(fbb, op.axis, op.activation).Union();
    case BuiltinOperator_MEAN:
      *type = BuiltinOptions_ReducerOptions;
      return CreateReducerOptions(fbb, op.keep_dims).Union();
    case BuiltinOperator_BATCH_MATMUL:
      *type = BuiltinOptions_BatchMatMulOptions;
      return CreateBatchMatMulOptions(fbb, op.adj_x, op.adj_y, op.asymmetric_quantize_inputs)
          .Union();
    case BuiltinOperator_GELU:
      *type = BuiltinOptions_GeluOptions;
      return CreateGeluOptions(fbb, op.approximate).Union();
    case BuiltinOperator_GATHER:
      *type = BuiltinOptions_GatherOptions;
      return CreateGatherOptions(fbb, op.axis, 0).Union();
    case BuiltinOperator_SHAPE:
      *type = BuiltinOptions_ShapeOptions;
      return CreateShapeOptions(fbb, tflite::TensorType_INT32).Union();
    case BuiltinOperator_STRIDED_SLICE:
      *type = BuiltinOptions_StridedSliceOptions;
      return CreateStridedSliceOptions(fbb, op.begin_mask, op.end_mask, 0, 0, op.shrink_axis_mask,
                                       false)
          .Union();
    case BuiltinOperator_PACK:
      *type = BuiltinOptions_PackOptions;
      return CreatePackOptions(fbb, static_cast<int32_t>(op.inputs.size()), op.axis).Union();
    default:  // RELU, RELU6, TANH, LOGISTIC, RESHAPE (shape as an input): no options
      *type = BuiltinOptions_NONE;
      return 0;
  }
}

}  // namespace

std::string serialize(const LiteModel& m) {
  using namespace tflite;
  FlatBufferBuilder fbb;

  // Operator codes: one per builtin, in first-use order, at the highest version used.
  std::vector<BuiltinOperator> codes;
  std::map<int, int> version;
  for (const LiteOp& op : m.ops) {
    if (std::find(codes.begin(), codes.end(), op.code) == codes.end()) codes.push_back(op.code);
    version[op.code] = std::max(version[op.code], op.version);
  }
  std::vector<Offset<OperatorCode>> code_offsets;
  for (BuiltinOperator c : codes) code_offsets.push_back(create_operator_code(fbb, c, version[c]));

  std::vector<Offset<Buffer>> buffers = {CreateBuffer(fbb)};
  for (const LiteTensor& t : m.tensors) buffers.push_back(make_buffer(fbb, t.data));
  std::string runtime = m.min_runtime_version;
  runtime.resize(16, '\0');
  const uint32_t runtime_buffer = static_cast<uint32_t>(buffers.size());
  buffers.push_back(make_buffer(fbb, runtime));

  std::vector<Offset<tflite::Tensor>> tensors;
  for (size_t i = 0; i < m.tensors.size(); ++i) {
    const LiteTensor& t = m.tensors[i];
    Offset<QuantizationParameters> q;
    if (t.scales.empty()) {
      q = CreateQuantizationParameters(fbb);
    } else {
      q = CreateQuantizationParametersDirect(fbb, nullptr, nullptr, &t.scales, &t.zero_points,
                                             QuantizationDetails_NONE, 0, t.quantized_dimension);
    }
    auto shape = fbb.CreateVector(t.shape);
    auto name = fbb.CreateString(t.name);
    Offset<flatbuffers::Vector<int32_t>> sig;
    if (!t.shape_signature.empty()) sig = fbb.CreateVector(t.shape_signature);
    TensorBuilder tb(fbb);
    tb.add_shape(shape);
    tb.add_type(t.type);
    tb.add_buffer(static_cast<uint32_t>(i + 1));
    tb.add_name(name);
    tb.add_quantization(q);
    if (!t.shape_signature.empty()) tb.add_shape_signature(sig);
    tensors.push_back(tb.Finish());
  }

  std::vector<Offset<Operator>> ops;
  for (const LiteOp& op : m.ops) {
    BuiltinOptions type = BuiltinOptions_NONE;
    Offset<void> options = make_options(fbb, op, &type);
    uint32_t index =
        static_cast<uint32_t>(std::find(codes.begin(), codes.end(), op.code) - codes.begin());
    ops.push_back(CreateOperatorDirect(fbb, index, &op.inputs, &op.outputs, type, options));
  }
  auto subgraph = CreateSubGraphDirect(fbb, &tensors, &m.inputs, &m.outputs, &ops, "main");

  std::vector<Offset<TensorMap>> sig_in, sig_out;
  for (auto& [name, idx] : m.signature_inputs)
    sig_in.push_back(CreateTensorMapDirect(fbb, name.c_str(), static_cast<uint32_t>(idx)));
  for (auto& [name, idx] : m.signature_outputs)
    sig_out.push_back(CreateTensorMapDirect(fbb, name.c_str(), static_cast<uint32_t>(idx)));
  std::vector<Offset<SignatureDef>> sigs = {
      CreateSignatureDefDirect(fbb, &sig_in, &sig_out, m.signature_key.c_str(), 0)};
  std::vector<Offset<Metadata>> metadata = {
      CreateMetadataDirect(fbb, "min_runtime_version", runtime_buffer)};
  std::vector<Offset<SubGraph>> subgraphs = {subgraph};
  auto model = CreateModelDirect(fbb, kSchemaVersion, &code_offsets, &subgraphs, "MLIR Converted.",
                                 &buffers, nullptr, &metadata, &sigs);
  return finish_model(fbb, model);
}

std::string min_runtime_version(const LiteModel& m) {
  // LiteRT's op-version -> runtime-version table (tensorflow/lite/tools/versioning/
  // runtime_version.cc) for the ops and versions this converter writes.
  static const std::map<std::pair<int, int>, std::string> table = {
      {{tflite::BuiltinOperator_FULLY_CONNECTED, 1}, "1.5.0"},
      {{tflite::BuiltinOperator_FULLY_CONNECTED, 9}, "2.3.0"},
      {{tflite::BuiltinOperator_FULLY_CONNECTED, 12}, "2.17.0"},
      {{tflite::BuiltinOperator_CONV_2D, 1}, "1.5.0"},
      {{tflite::BuiltinOperator_CONV_2D, 5}, "2.4.0"},
      {{tflite::BuiltinOperator_DEPTHWISE_CONV_2D, 1}, "1.5.0"},
      {{tflite::BuiltinOperator_DEPTHWISE_CONV_2D, 2}, "1.12.0"},
      {{tflite::BuiltinOperator_DEPTHWISE_CONV_2D, 6}, "2.3.0"},
      {{tflite::BuiltinOperator_MAX_POOL_2D, 1}, "1.5.0"},
      {{tflite::BuiltinOperator_AVERAGE_POOL_2D, 1}, "1.5.0"},
      {{tflite::BuiltinOperator_ADD, 1}, "1.5.0"},
      {{tflite::BuiltinOperator_SUB, 1}, "1.6.0"},
      {{tflite::BuiltinOperator_MUL, 1}, "1.5.0"},
      {{tflite::BuiltinOperator_DIV, 1}, "1.6.0"},
      {{tflite::BuiltinOperator_RELU, 1}, "1.5.0"},
      {{tflite::BuiltinOperator_RELU6, 1}, "1.5.0"},
      {{tflite::BuiltinOperator_TANH, 1}, "1.14.0"},
      {{tflite::BuiltinOperator_LOGISTIC, 1}, "1.14.0"},
      {{tflite::BuiltinOperator_SOFTMAX, 1}, "1.5.0"},
      {{tflite::BuiltinOperator_RESHAPE, 1}, "1.5.0"},
      {{tflite::BuiltinOperator_MEAN, 1}, "1.6.0"},
      {{tflite::BuiltinOperator_CONCATENATION, 1}, "1.5.0"},
      {{tflite::BuiltinOperator_TRANSPOSE, 1}, "1.6.0"},
      {{tflite::BuiltinOperator_BATCH_MATMUL, 1}, "2.3.0"},
      {{tflite::BuiltinOperator_BATCH_MATMUL, 4}, "2.5.0"},
      {{tflite::BuiltinOperator_GELU, 1}, "2.9.0"},
      {{tflite::BuiltinOperator_FULLY_CONNECTED, 5}, "2.0.0"},
      {{tflite::BuiltinOperator_GATHER, 1}, "1.6.0"},
      {{tflite::BuiltinOperator_GATHER, 2}, "1.14.0"},
      {{tflite::BuiltinOperator_DEQUANTIZE, 1}, "1.13.1"},
      {{tflite::BuiltinOperator_DEQUANTIZE, 2}, "1.14.0"},
      {{tflite::BuiltinOperator_SHAPE, 1}, "1.13.1"},
      {{tflite::BuiltinOperator_CAST, 1}, "1.5.0"},
      {{tflite::BuiltinOperator_STRIDED_SLICE, 1}, "1.6.0"},
      {{tflite::BuiltinOperator_PACK, 1}, "1.11.0"},
      {{tflite::BuiltinOperator_SQUARED_DIFFERENCE, 1}, "1.13.1"},
      {{tflite::BuiltinOperator_RSQRT, 1}, "1.10.0"},
  };
  auto less = [](const std::string& a, const std::string& b) {
    int a1 = 0, a2 = 0, a3 = 0, b1 = 0, b2 = 0, b3 = 0;
    std::sscanf(a.c_str(), "%d.%d.%d", &a1, &a2, &a3);
    std::sscanf(b.c_str(), "%d.%d.%d", &b1, &b2, &b3);
    return std::tie(a1, a2, a3) < std::tie(b1, b2, b3);
  };
  std::string best = "1.5.0";
  for (const LiteOp& op : m.ops) {
    auto it = table.find({op.code, op.version});
    if (it != table.end() && less(best, it->second)) best = it->second;
  }
  return best;
}

}  // namespace tfs::lite::detail

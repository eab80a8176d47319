#include "demo_model.h"

#include <cstring>
#include <vector>

#include "tfscope/lite_format.h"

namespace tfs::lite::testing {
namespace {

template <typename T>
flatbuffers::Offset<tflite::Buffer> buffer(flatbuffers::FlatBufferBuilder& fbb,
                                           const std::vector<T>& v) {
  fbb.ForceVectorAlignment(v.size() * sizeof(T), 1, 16);
  auto data = fbb.CreateVector(reinterpret_cast<const uint8_t*>(v.data()), v.size() * sizeof(T));
  return tflite::CreateBuffer(fbb, data);
}

}  // namespace

std::string demo_model() {
  using namespace tflite;
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<float> w, b, c = {0.1f, 0.2f, 0.3f};
  for (int r = 0; r < 3; ++r) {
    for (int col = 0; col < 4; ++col) w.push_back((r + 1) * 0.25f - col * 0.125f);
    b.push_back(0.5f - r);
  }
  std::vector<flatbuffers::Offset<Buffer>> buffers = {CreateBuffer(fbb), buffer(fbb, w),
                                                      buffer(fbb, b), buffer(fbb, c)};
  auto tensor = [&](const char* name, std::vector<int> shape, uint32_t buf) {
    return CreateTensorDirect(fbb, &shape, TensorType_FLOAT32, buf, name);
  };
  std::vector<flatbuffers::Offset<Tensor>> tensors = {
      tensor("x", {1, 4}, 0),  tensor("W", {3, 4}, 1), tensor("b", {3}, 2),
      tensor("fc", {1, 3}, 0), tensor("c", {3}, 3),    tensor("sum", {1, 3}, 0),
      tensor("y", {1, 3}, 0)};
  std::vector<flatbuffers::Offset<OperatorCode>> codes = {
      create_operator_code(fbb, BuiltinOperator_FULLY_CONNECTED),
      create_operator_code(fbb, BuiltinOperator_ADD),
      create_operator_code(fbb, BuiltinOperator_SOFTMAX)};
  std::vector<int> fc_in = {0, 1, 2}, fc_out = {3}, add_in = {3, 4}, add_out = {5}, sm_in = {5},
                   sm_out = {6};
  std::vector<flatbuffers::Offset<Operator>> ops = {
      CreateOperatorDirect(fbb, 0, &fc_in, &fc_out, BuiltinOptions_FullyConnectedOptions,
                           CreateFullyConnectedOptions(fbb, ActivationFunctionType_RELU).Union()),
      CreateOperatorDirect(fbb, 1, &add_in, &add_out, BuiltinOptions_AddOptions,
                           CreateAddOptions(fbb, ActivationFunctionType_NONE).Union()),
      CreateOperatorDirect(fbb, 2, &sm_in, &sm_out, BuiltinOptions_SoftmaxOptions,
                           CreateSoftmaxOptions(fbb, 1.0f).Union())};
  std::vector<int> inputs = {0}, outputs = {6};
  auto subgraph = CreateSubGraphDirect(fbb, &tensors, &inputs, &outputs, &ops, "main");
  std::vector<flatbuffers::Offset<TensorMap>> sig_in = {CreateTensorMapDirect(fbb, "x", 0)};
  std::vector<flatbuffers::Offset<TensorMap>> sig_out = {CreateTensorMapDirect(fbb, "y", 6)};
  std::vector<flatbuffers::Offset<SignatureDef>> sigs = {
      CreateSignatureDefDirect(fbb, &sig_in, &sig_out, "serving_default", 0)};
  std::vector<flatbuffers::Offset<SubGraph>> subgraphs = {subgraph};
  auto model = CreateModelDirect(fbb, kSchemaVersion, &codes, &subgraphs, "tfscope demo", &buffers,
                                 nullptr, nullptr, &sigs);
  return finish_model(fbb, model);
}

}  // namespace tfs::lite::testing

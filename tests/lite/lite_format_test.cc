#include "tfscope/lite_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "demo_model.h"
#include "format_error.h"

namespace tfs::lite {
namespace {

const std::string kFixtures = TFSCOPE_FORMATS_FIXTURES;

using testing::error_of;

bool has_line(const std::string& text, const std::string& line) {
  return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

const tflite::Tensor& tensor(const ModelFile& f, int i) {
  return *f.model().subgraphs()->Get(0)->tensors()->Get(i);
}

template <typename T>
std::vector<T> buffer_values(const ModelFile& f, const tflite::Tensor& t) {
  const auto* data = f.model().buffers()->Get(t.buffer())->data();
  std::vector<T> out(data->size() / sizeof(T));
  std::memcpy(out.data(), data->data(), data->size());
  return out;
}

// A one-tensor model; `mutate` adjusts the pieces before they are assembled.
struct TinyModel {
  uint32_t version = kSchemaVersion;
  uint32_t tensor_buffer = 0;
  uint32_t opcode_index = 0;
  int op_input = 0;
  std::vector<float> scales;
  std::vector<int64_t> zero_points;
  int quantized_dimension = 0;
  std::string build() const {
    flatbuffers::FlatBufferBuilder fbb;
    std::vector<flatbuffers::Offset<tflite::Buffer>> buffers = {tflite::CreateBuffer(fbb)};
    auto q = tflite::CreateQuantizationParametersDirect(
        fbb, nullptr, nullptr, &scales, &zero_points, tflite::QuantizationDetails_NONE, 0,
        quantized_dimension);
    std::vector<int> shape = {2, 3};
    std::vector<flatbuffers::Offset<tflite::Tensor>> tensors = {
        tflite::CreateTensorDirect(fbb, &shape, tflite::TensorType_INT8, tensor_buffer, "t", q)};
    std::vector<flatbuffers::Offset<tflite::OperatorCode>> codes = {
        create_operator_code(fbb, tflite::BuiltinOperator_RELU)};
    std::vector<int> in = {op_input}, out = {0};
    std::vector<flatbuffers::Offset<tflite::Operator>> ops = {
        tflite::CreateOperatorDirect(fbb, opcode_index, &in, &out)};
    std::vector<int> io = {0};
    std::vector<flatbuffers::Offset<tflite::SubGraph>> subgraphs = {
        tflite::CreateSubGraphDirect(fbb, &tensors, &io, &io, &ops, "main")};
    return finish_model(
        fbb, tflite::CreateModelDirect(fbb, version, &codes, &subgraphs, nullptr, &buffers));
  }
};

TEST(LiteFormat, ReadsTheFloatMlpTfConverted) {
  const ModelFile f = ModelFile::read(kFixtures + "/mlp_float.tflite");
  const std::string text = dump(f);
  EXPECT_TRUE(has_line(text, "  0: FULLY_CONNECTED v1")) << text;
  EXPECT_TRUE(
      has_line(text, "subgraph 0 \"main\": 7 tensors, 2 operators, inputs [0], outputs [6]"))
      << text;
  EXPECT_TRUE(
      has_line(text, "  tensor 0 \"serving_default_x:0\" FLOAT32 [1, 64] signature [-1, 64]"))
      << text;
  EXPECT_TRUE(has_line(text, "  tensor 3 \"MatMul\" FLOAT32 [32, 64] const(buffer 4, 8192 bytes)"))
      << text;
  EXPECT_TRUE(has_line(text,
                       "  op 0 FULLY_CONNECTED v1 inputs [0, 3, 4] outputs [5] "
                       "FullyConnectedOptions{fused_activation_function=RELU, "
                       "weights_format=DEFAULT, keep_num_dims=false, "
                       "asymmetric_quantize_inputs=false, quantized_bias_type=FLOAT32}"))
      << text;
  EXPECT_TRUE(has_line(text,
                       "signature \"serving_default\" subgraph 0 inputs {x: 0} outputs "
                       "{output_0: 6}"))
      << text;
  EXPECT_TRUE(has_line(text, "metadata \"min_runtime_version\" buffer 8 (16 bytes) \"1.5.0\""))
      << text;
}

TEST(LiteFormat, ReadsTheDynamicRangeMlpTfConverted) {
  const ModelFile f = ModelFile::read(kFixtures + "/mlp_dynamic.tflite");
  const std::string text = dump(f);
  // One operator code serves both layers: FULLY_CONNECTED version 12.
  EXPECT_TRUE(has_line(text, "  0: FULLY_CONNECTED v12")) << text;
  const tflite::Tensor& w = tensor(f, 4);
  EXPECT_EQ(w.name()->str(), "MatMul");
  EXPECT_EQ(w.type(), tflite::TensorType_INT8);
  ASSERT_EQ(w.quantization()->scale()->size(), 32u);
  ASSERT_EQ(w.quantization()->zero_point()->size(), 32u);
  for (int64_t zp : *w.quantization()->zero_point()) EXPECT_EQ(zp, 0);
  EXPECT_EQ(w.quantization()->quantized_dimension(), 0);
  EXPECT_EQ(tensor(f, 1).type(), tflite::TensorType_FLOAT32);  // the bias stays float
  EXPECT_EQ(tensor(f, 3).type(), tflite::TensorType_FLOAT32);  // 32x10 = 320 < 1024 elements
  const auto* ops = f.model().subgraphs()->Get(0)->operators();
  EXPECT_TRUE(
      ops->Get(0)->builtin_options_as_FullyConnectedOptions()->asymmetric_quantize_inputs());
  EXPECT_FALSE(
      ops->Get(1)->builtin_options_as_FullyConnectedOptions()->asymmetric_quantize_inputs());
  EXPECT_TRUE(has_line(text,
                       "  op 0 FULLY_CONNECTED v12 inputs [0, 4, 1] outputs [5] "
                       "FullyConnectedOptions{fused_activation_function=RELU, "
                       "weights_format=DEFAULT, keep_num_dims=false, "
                       "asymmetric_quantize_inputs=true, quantized_bias_type=FLOAT32}"))
      << text;
  EXPECT_NE(text.find("  tensor 4 \"MatMul\" INT8 [32, 64] const(buffer 5, 2048 bytes) "
                      "quant{scale=[0.00395617"),
            std::string::npos)
      << text;
  EXPECT_TRUE(has_line(text, "metadata \"min_runtime_version\" buffer 8 (16 bytes) \"2.17.0\""))
      << text;
}

// The key fact for the quantizer: TF 2.21 quantizes each output row of a dense kernel on its own,
// scale = max|w| / 127 computed in double and stored as float, q = round-half-away(w / scale).
TEST(LiteFormat, DynamicRangeWeightsArePerRowSymmetricInt8OfTheFloatWeights) {
  const ModelFile fl = ModelFile::read(kFixtures + "/mlp_float.tflite");
  const ModelFile dy = ModelFile::read(kFixtures + "/mlp_dynamic.tflite");
  const std::vector<float> w = buffer_values<float>(fl, tensor(fl, 3));  // [32, 64]
  const std::vector<int8_t> q = buffer_values<int8_t>(dy, tensor(dy, 4));
  const auto* scales = tensor(dy, 4).quantization()->scale();
  ASSERT_EQ(w.size(), 32u * 64u);
  ASSERT_EQ(q.size(), w.size());
  for (int r = 0; r < 32; ++r) {
    double m = 0;
    for (int c = 0; c < 64; ++c) m = std::max(m, std::fabs(static_cast<double>(w[r * 64 + c])));
    const double scale = m / 127.0;
    EXPECT_EQ(scales->Get(r), static_cast<float>(scale)) << "row " << r;
    for (int c = 0; c < 64; ++c) {
      const double v = std::round(w[r * 64 + c] / scale);  // std::round: half away from zero
      EXPECT_EQ(q[r * 64 + c], static_cast<int8_t>(std::clamp(v, -127.0, 127.0))) << r << "," << c;
    }
  }
}

TEST(LiteFormat, WrittenModelVerifiesAndDumps) {
  const ModelFile f(testing::demo_model(), "demo.tflite");
  const std::string text = dump(f);
  EXPECT_TRUE(has_line(text, "  2: SOFTMAX v1")) << text;
  EXPECT_TRUE(has_line(text, "  op 2 SOFTMAX v1 inputs [5] outputs [6] SoftmaxOptions{beta=1}"))
      << text;
  EXPECT_TRUE(has_line(text,
                       "  op 1 ADD v1 inputs [3, 4] outputs [5] AddOptions{"
                       "fused_activation_function=NONE, pot_scale_int16=true}"))
      << text;
  EXPECT_EQ(f.bytes().substr(4, 4), "TFL3");
}

TEST(LiteFormat, OperatorCodesAbove127UseThePlaceholderInTheDeprecatedField) {
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(create_operator_code(fbb, tflite::BuiltinOperator_GELU, 2));
  const auto* code = flatbuffers::GetRoot<tflite::OperatorCode>(fbb.GetBufferPointer());
  EXPECT_EQ(code->deprecated_builtin_code(), 127);
  EXPECT_EQ(code->builtin_code(), tflite::BuiltinOperator_GELU);
  EXPECT_EQ(builtin_code(*code), tflite::BuiltinOperator_GELU);
  EXPECT_EQ(builtin_operator_name(150), "GELU");
  EXPECT_EQ(builtin_operator_name(9999), "UNKNOWN(9999)");
}

TEST(LiteFormat, EnumValuesMatchTflite) {
  EXPECT_EQ(tflite::BuiltinOperator_FULLY_CONNECTED, 9);
  EXPECT_EQ(tflite::BuiltinOperator_BATCH_MATMUL, 126);
  EXPECT_EQ(tflite::BuiltinOperator_GELU, 150);
  EXPECT_EQ(tflite::BuiltinOperator_MEAN, 40);
  EXPECT_EQ(tflite::BuiltinOptions_FullyConnectedOptions, 8);
  EXPECT_EQ(tflite::BuiltinOptions_ReducerOptions, 27);
  EXPECT_EQ(tflite::BuiltinOptions_BatchMatMulOptions, 101);
  EXPECT_EQ(tflite::BuiltinOptions_GeluOptions, 116);
  EXPECT_EQ(tflite::TensorType_INT8, 9);
  EXPECT_EQ(tflite::Operator::VT_BUILTIN_OPTIONS_2_TYPE, 26);
  EXPECT_EQ(tflite::Tensor::VT_EXTERNAL_BUFFER, 24);
  EXPECT_EQ(tflite::SignatureDef::VT_SUBGRAPH_INDEX, 12);
}

// Found by fuzz_lite_reader: optional strings and option tables may be absent.
TEST(LiteFormat, DumpsAnUnnamedSignatureTensorAndAnOptionsTagWithoutTable) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<tflite::Buffer>> buffers = {tflite::CreateBuffer(fbb)};
  std::vector<int> shape = {1};
  std::vector<flatbuffers::Offset<tflite::Tensor>> tensors = {
      tflite::CreateTensorDirect(fbb, &shape)};
  std::vector<flatbuffers::Offset<tflite::OperatorCode>> codes = {
      create_operator_code(fbb, tflite::BuiltinOperator_SOFTMAX)};
  std::vector<int> io = {0};
  tflite::OperatorBuilder op(fbb);
  op.add_inputs(fbb.CreateVector(io));
  op.add_outputs(fbb.CreateVector(io));
  op.add_builtin_options_type(tflite::BuiltinOptions_SoftmaxOptions);
  std::vector<flatbuffers::Offset<tflite::Operator>> ops = {op.Finish()};
  std::vector<flatbuffers::Offset<tflite::SubGraph>> subgraphs = {
      tflite::CreateSubGraphDirect(fbb, &tensors, &io, &io, &ops)};
  std::vector<flatbuffers::Offset<tflite::TensorMap>> maps = {tflite::CreateTensorMap(fbb, 0, 0)};
  std::vector<flatbuffers::Offset<tflite::SignatureDef>> sigs = {
      tflite::CreateSignatureDefDirect(fbb, &maps, &maps)};
  const std::string bytes =
      finish_model(fbb, tflite::CreateModelDirect(fbb, kSchemaVersion, &codes, &subgraphs, nullptr,
                                                  &buffers, nullptr, nullptr, &sigs));
  const std::string text = dump(ModelFile(bytes, "m.tflite"));
  EXPECT_TRUE(has_line(text, "  op 0 SOFTMAX v1 inputs [0] outputs [0] SoftmaxOptions{absent}"))
      << text;
  EXPECT_TRUE(has_line(text, "signature \"\" subgraph 0 inputs {: 0} outputs {: 0}")) << text;
}

// Found by fuzz_lite_reader: buffer 0 is "no data" even when the buffers vector is empty.
TEST(LiteFormat, DumpsATensorWithBufferZeroAndNoBuffers) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<tflite::Buffer>> buffers;
  std::vector<int> shape = {2};
  std::vector<flatbuffers::Offset<tflite::Tensor>> tensors = {
      tflite::CreateTensorDirect(fbb, &shape, tflite::TensorType_FLOAT32, 0, "t")};
  std::vector<int> io = {0};
  std::vector<flatbuffers::Offset<tflite::SubGraph>> subgraphs = {
      tflite::CreateSubGraphDirect(fbb, &tensors, &io, &io)};
  const std::string bytes = finish_model(
      fbb, tflite::CreateModelDirect(fbb, kSchemaVersion, nullptr, &subgraphs, nullptr, &buffers));
  EXPECT_TRUE(has_line(dump(ModelFile(bytes, "m.tflite")), "  tensor 0 \"t\" FLOAT32 [2]"));
}

TEST(LiteFormat, RejectsEmptyAndShortFiles) {
  EXPECT_EQ(error_of([] { ModelFile("", "m.tflite"); }),
            "[lite] m.tflite: not a valid TFLite model (file too short: 0 bytes)");
  EXPECT_EQ(error_of([] { ModelFile("abc", "m.tflite"); }),
            "[lite] m.tflite: not a valid TFLite model (file too short: 3 bytes)");
}

TEST(LiteFormat, RejectsAForeignIdentifier) {
  std::string bytes = testing::demo_model();
  bytes.replace(4, 4, "ABCD");
  EXPECT_EQ(error_of([&] { ModelFile(bytes, "m.tflite"); }),
            "[lite] m.tflite: not a valid TFLite model (file identifier 'ABCD', expected 'TFL3')");
}

TEST(LiteFormat, RejectsAMissingFile) {
  EXPECT_EQ(error_of([] { ModelFile::read("/nonexistent/x.tflite"); }),
            "[lite] /nonexistent/x.tflite: cannot open (No such file or directory)");
}

TEST(LiteFormat, EveryTruncationIsRejected) {
  const std::string bytes = ModelFile::read(kFixtures + "/mlp_dynamic.tflite").bytes();
  for (size_t n = 0; n < bytes.size(); n += (n < 64 ? 1 : 7)) {
    const std::string msg = error_of([&] { ModelFile(bytes.substr(0, n), "m.tflite"); });
    EXPECT_EQ(msg.rfind("[lite] m.tflite: ", 0), 0u) << n << ": " << msg;
  }
}

TEST(LiteFormat, ByteFlipsNeverCrash) {
  const std::string bytes = ModelFile::read(kFixtures + "/mlp_float.tflite").bytes();
  int rejected = 0;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    std::string bad = bytes;
    bad[i] ^= 0x5a;
    try {
      dump(ModelFile(bad, "m.tflite"));
    } catch (const FormatError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("[lite] m.tflite: ", 0), 0u) << e.what();
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 0);
}

TEST(LiteFormat, RejectsOtherSchemaVersions) {
  TinyModel m;
  m.version = 2;
  EXPECT_EQ(error_of([&] { ModelFile(m.build(), "m.tflite"); }),
            "[lite] m.tflite: schema version 2, expected 3");
}

TEST(LiteFormat, RejectsABufferIndexOutOfRange) {
  TinyModel m;
  m.tensor_buffer = 5;
  EXPECT_EQ(error_of([&] { ModelFile(m.build(), "m.tflite"); }),
            "[lite] m.tflite: subgraph 0 tensor 0 't': buffer 5 out of range (1 buffers)");
}

TEST(LiteFormat, RejectsAnOpcodeIndexOutOfRange) {
  TinyModel m;
  m.opcode_index = 3;
  EXPECT_EQ(error_of([&] { ModelFile(m.build(), "m.tflite"); }),
            "[lite] m.tflite: subgraph 0 operator 0: opcode_index 3 out of range (1 operator "
            "codes)");
}

TEST(LiteFormat, RejectsATensorIndexOutOfRange) {
  TinyModel m;
  m.op_input = 7;
  EXPECT_EQ(error_of([&] { ModelFile(m.build(), "m.tflite"); }),
            "[lite] m.tflite: subgraph 0 operator 0 (RELU) inputs: tensor index 7 out of range (1 "
            "tensors)");
}

TEST(LiteFormat, RejectsScalesThatDoNotFitTheQuantizedDimension) {
  TinyModel m;
  m.scales = {1.0f, 2.0f, 3.0f};
  m.zero_points = {0, 0, 0};
  m.quantized_dimension = 0;  // dimension 0 has size 2
  EXPECT_EQ(error_of([&] { ModelFile(m.build(), "m.tflite"); }),
            "[lite] m.tflite: subgraph 0 tensor 0 't': 3 scales for dimension 0 of size 2");
  m.quantized_dimension = 1;
  EXPECT_NO_THROW(ModelFile(m.build(), "m.tflite"));
  m.zero_points = {0};
  EXPECT_EQ(error_of([&] { ModelFile(m.build(), "m.tflite"); }),
            "[lite] m.tflite: subgraph 0 tensor 0 't': 3 quantization scales but 1 zero points");
}

}  // namespace
}  // namespace tfs::lite

// The converter, the dynamic-range quantizer, the interpreter and the delta report, checked
// against the TF 2.21-converted MLP fixtures (conformance/formats/make_fixtures.py): tfscope
// converts an MLP with the fixture's weights and must produce the same tensors, quantized bytes,
// scales, ops and options as TF, and run TF's file to the same numbers as its own.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iostream>

#include "lite_mlp.h"
#include "tfscope/lite.h"
#include "tfscope/lite_inspect.h"

namespace tfs::lite {
namespace {

using testing::make_mlp;

std::string fixture(const std::string& name) {
  return std::string(TFSCOPE_FORMATS_FIXTURES) + "/" + name;
}

const tflite::SubGraph& subgraph(const ModelFile& f) {
  return *f.model().subgraphs()->Get(0);
}

const tflite::Tensor* find_tensor(const ModelFile& f, const std::string& name) {
  for (const tflite::Tensor* t : *subgraph(f).tensors()) {
    if (t->name()->str() == name) return t;
  }
  return nullptr;
}

std::vector<float> floats_of(const ModelFile& f, const tflite::Tensor* t) {
  const auto* data = f.model().buffers()->Get(t->buffer())->data();
  std::vector<float> v(data->size() / 4);
  std::memcpy(v.data(), data->data(), data->size());
  return v;
}

std::string bytes_of(const ModelFile& f, const tflite::Tensor* t) {
  const auto* data = f.model().buffers()->Get(t->buffer())->data();
  return std::string(reinterpret_cast<const char*>(data->data()), data->size());
}

// The MLP of the fixtures, rebuilt from the TF float model's constants (W stored transposed).
testing::Mlp fixture_mlp() {
  ModelFile f = ModelFile::read(fixture("mlp_float.tflite"));
  auto transpose = [](const std::vector<float>& w, int rows, int cols) {
    std::vector<float> t(w.size());
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) t[c * rows + r] = w[r * cols + c];
    return t;
  };
  return make_mlp(64, 32, 10, transpose(floats_of(f, find_tensor(f, "MatMul")), 32, 64),
                  floats_of(f, find_tensor(f, "Relu;add")),
                  transpose(floats_of(f, find_tensor(f, "MatMul_1")), 10, 32),
                  floats_of(f, find_tensor(f, "add_1")));
}

bool f_const(const ModelFile& f, const tflite::Tensor* t) {
  const auto* b = f.model().buffers()->Get(t->buffer());
  return b->data() && b->data()->size() > 0;
}

std::shared_ptr<ConcreteFunction> concrete(const testing::Mlp& m) {
  return m.fn->get_concrete_function();
}

std::vector<float> probe(int n, uint32_t seed) {
  std::vector<float> v = testing::lcg_floats(static_cast<size_t>(n), seed, 2.0f);
  return v;
}

TEST(LiteConvert, FloatMlpHasTfsTensorsOpsAndSignature) {
  auto mlp = fixture_mlp();
  ModelFile ours(convert(*concrete(mlp)), "tfscope");
  ModelFile tf = ModelFile::read(fixture("mlp_float.tflite"));
  ASSERT_EQ(subgraph(ours).tensors()->size(), 7u);
  for (const tflite::Tensor* t : *subgraph(tf).tensors()) {
    const tflite::Tensor* o = find_tensor(ours, t->name()->str());
    ASSERT_NE(o, nullptr) << t->name()->str();
    EXPECT_EQ(o->type(), t->type());
    EXPECT_EQ(std::vector<int>(o->shape()->begin(), o->shape()->end()),
              std::vector<int>(t->shape()->begin(), t->shape()->end()));
    EXPECT_EQ(o->shape_signature() != nullptr, t->shape_signature() != nullptr) << t->name()->str();
    if (f_const(tf, t)) {
      EXPECT_EQ(bytes_of(ours, o), bytes_of(tf, t)) << t->name()->str();
    }
  }
  ASSERT_EQ(subgraph(ours).operators()->size(), 2u);
  const auto* fc0 = subgraph(ours).operators()->Get(0)->builtin_options_as_FullyConnectedOptions();
  const auto* fc1 = subgraph(ours).operators()->Get(1)->builtin_options_as_FullyConnectedOptions();
  EXPECT_EQ(fc0->fused_activation_function(), tflite::ActivationFunctionType_RELU);
  EXPECT_EQ(fc1->fused_activation_function(), tflite::ActivationFunctionType_NONE);
  EXPECT_FALSE(fc0->asymmetric_quantize_inputs());
  EXPECT_EQ(ours.model().operator_codes()->Get(0)->version(), 1);
  const auto* sig = ours.model().signature_defs()->Get(0);
  EXPECT_EQ(sig->signature_key()->str(), "serving_default");
  EXPECT_EQ(sig->inputs()->Get(0)->name()->str(), "x");
  EXPECT_EQ(sig->outputs()->Get(0)->name()->str(), "output_0");
  EXPECT_EQ(ours.model().description()->str(), "MLIR Converted.");
  EXPECT_NE(inspect_report(fixture("mlp_float.tflite"), true).find("\"FULLY_CONNECTED\""),
            std::string::npos);
  EXPECT_NE(dump(ours).find("metadata \"min_runtime_version\""), std::string::npos);
  EXPECT_NE(dump(ours).find("\"1.5.0\""), std::string::npos);
}

TEST(LiteConvert, DynamicRangeWeightsAndScalesEqualTfsByteForByte) {
  auto mlp = fixture_mlp();
  ConvertOptions opts;
  opts.dynamic_range = true;
  ModelFile ours(convert(*concrete(mlp), opts), "tfscope");
  ModelFile tf = ModelFile::read(fixture("mlp_dynamic.tflite"));
  for (const tflite::Tensor* t : *subgraph(tf).tensors()) {
    const tflite::Tensor* o = find_tensor(ours, t->name()->str());
    ASSERT_NE(o, nullptr) << t->name()->str();
    EXPECT_EQ(o->type(), t->type()) << t->name()->str();
    if (f_const(tf, t)) {
      EXPECT_EQ(bytes_of(ours, o), bytes_of(tf, t)) << t->name()->str();
    }
    const auto* tq = t->quantization();
    const auto* oq = o->quantization();
    ASSERT_NE(oq, nullptr);
    if (tq->scale()) {
      ASSERT_NE(oq->scale(), nullptr);
      ASSERT_EQ(oq->scale()->size(), tq->scale()->size());
      for (flatbuffers::uoffset_t i = 0; i < tq->scale()->size(); ++i) {
        float a = oq->scale()->Get(i), b = tq->scale()->Get(i);
        EXPECT_EQ(std::memcmp(&a, &b, 4), 0) << "scale " << i;
        EXPECT_EQ(oq->zero_point()->Get(i), 0);
      }
      EXPECT_EQ(oq->quantized_dimension(), tq->quantized_dimension());
    }
  }
  const auto* fc0 = subgraph(ours).operators()->Get(0)->builtin_options_as_FullyConnectedOptions();
  const auto* fc1 = subgraph(ours).operators()->Get(1)->builtin_options_as_FullyConnectedOptions();
  EXPECT_TRUE(fc0->asymmetric_quantize_inputs());
  EXPECT_FALSE(fc1->asymmetric_quantize_inputs());  // 320 < 1024 weights: stays float
  EXPECT_EQ(ours.model().operator_codes()->Get(0)->version(), 12);
  EXPECT_NE(dump(ours).find("\"2.17.0\""), std::string::npos);
}

TEST(LiteInterpreter, RunsTfsDynamicRangeFileBitEqualToOurs) {
  auto mlp = fixture_mlp();
  ConvertOptions opts;
  opts.dynamic_range = true;
  Interpreter ours(ModelFile(convert(*concrete(mlp), opts), "tfscope"));
  Interpreter tf(ModelFile::read(fixture("mlp_dynamic.tflite")));
  Interpreter::TensorValue x{{3, 64}, probe(3 * 64, 7)};
  auto a = ours.run({x}), b = tf.run({x});
  ASSERT_EQ(a[0].shape, (std::vector<int>{3, 10}));
  ASSERT_EQ(a[0].data.size(), b[0].data.size());
  EXPECT_EQ(std::memcmp(a[0].data.data(), b[0].data.data(), a[0].data.size() * 4), 0);
}

TEST(LiteInterpreter, FloatModelMatchesTheConcreteFunction) {
  auto mlp = fixture_mlp();
  auto cf = concrete(mlp);
  Interpreter lite(ModelFile(convert(*cf), "tfscope"));
  std::vector<float> x = probe(2 * 64, 3);
  auto got = lite.run({{{2, 64}, x}});
  Tensor want = cf->run_flat({Tensor::from_vector(x, Shape{2, 64})})[0];
  ASSERT_EQ(want.num_elements(), 20);
  for (int i = 0; i < 20; ++i) {
    float w = want.data<float>()[i];
    EXPECT_NEAR(got[0].data[static_cast<size_t>(i)], w, 1e-5f * std::max(1.0f, std::fabs(w)));
  }
}

TEST(LiteQuantize, PerChannelScaleIsRowMaxOver127AndValuesRoundHalfAwayFromZero) {
  // Row 0: max |w| = 1.27 -> scale 0.01; 0.005 / 0.01 = 0.5 rounds to 1, -0.015 -> -1.5 -> -2.
  // Row 1: all zeros -> the range is widened to +-5e-7: scale 1e-6 / 254, values 0.
  std::vector<float> w = {1.27f, 0.005f, -0.015f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  QuantizedWeights q = quantize_per_channel(w.data(), 2, 4);
  EXPECT_EQ(q.scales[0], static_cast<float>(static_cast<double>(1.27f) / 127.0));
  EXPECT_EQ(q.values[0], 127);
  EXPECT_EQ(q.values[1], static_cast<int8_t>(std::round(double(0.005f) / (double(1.27f) / 127))));
  EXPECT_EQ(q.values[2], static_cast<int8_t>(std::round(double(-0.015f) / (double(1.27f) / 127))));
  EXPECT_EQ(q.scales[1], static_cast<float>(1e-6 / 254.0));
  EXPECT_EQ(q.values[4], 0);
}

TEST(LiteDelta, FixtureMlpDeltaIsSmallAgainstItsOutputs) {
  // The fixture's weights are N(0, 0.2) and the probes N(0, 1): outputs reach several units and
  // the int8 first layer moves them by a few hundredths.
  auto mlp = fixture_mlp();
  DeltaReport r = convert_tflite_dynamic(*concrete(mlp), 16, 0);
  std::cout << r.text();
  EXPECT_LT(r.max_abs_delta, 1e-2 * r.max_abs_output);
  EXPECT_GT(r.max_abs_delta, 0.0);  // the first layer really was quantized
  ASSERT_EQ(r.quantized_ops.size(), 1u);
  EXPECT_EQ(r.quantized_ops[0], "FULLY_CONNECTED MatMul (int8 [32, 64], 32 per-channel scales)");
  ASSERT_EQ(r.layers.size(), 2u);
  EXPECT_TRUE(r.layers[0].quantized);
  EXPECT_FALSE(r.layers[1].quantized);
  EXPECT_LT(r.int8_bytes, r.float_bytes);
  EXPECT_NE(r.json().find("\"max_abs_delta\""), std::string::npos);
}

TEST(LiteDelta, LabMlpFourEightThreeHasNothingToQuantize) {
  // The lab's 4 -> 8 -> 3 MLP: 32 and 24 weights, under TF's 1024-element threshold, so the
  // dynamic-range model is the float model and the delta is exactly zero.
  auto mlp = make_mlp(4, 8, 3, testing::lcg_floats(32, 42), testing::lcg_floats(8, 43),
                      testing::lcg_floats(24, 44), testing::lcg_floats(3, 45));
  DeltaReport r = convert_tflite_dynamic(*concrete(mlp), 8, 1);
  EXPECT_TRUE(r.quantized_ops.empty());
  EXPECT_EQ(r.max_abs_delta, 0.0);
  EXPECT_EQ(r.float_model, r.int8_model);
}

TEST(LiteInterpreter, CorruptModelsFailWithOneLineErrorsNeverCrash) {
  // Every third byte of TF's dynamic-range model flipped: the reader rejects the file, or the
  // interpreter refuses it, or it runs; never a crash.
  const std::string bytes = ModelFile::read(fixture("mlp_dynamic.tflite")).bytes();
  int ran = 0, refused = 0;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    std::string bad = bytes;
    bad[i] ^= 0x5a;
    try {
      Interpreter interp(ModelFile(bad, "m.tflite"));
      std::vector<int> shape = interp.input_shape(0);
      int64_t n = 1;
      for (int d : shape) n *= d;
      if (n <= 0 || n > (1 << 20)) continue;
      interp.run({{shape, std::vector<float>(static_cast<size_t>(n), 0.5f)}});
      ++ran;
    } catch (const FormatError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("[lite] m.tflite: ", 0), 0u) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
      ++refused;
    }
  }
  EXPECT_GT(ran, 0);
  EXPECT_GT(refused, 0);
}

TEST(LiteConvert, UnsupportedOpIsNamedInOneLine) {
  FunctionOptions opts;
  opts.input_signature = std::vector<Value>{TensorSpec(PartialShape{-1, 4}, DType::kFloat32, "x")};
  auto fn = function(
      "f", {"x"}, [](Tensor x) { return exp(x); }, opts);
  try {
    convert(*fn->get_concrete_function());
    FAIL() << "no error";
  } catch (const FormatError& e) {
    EXPECT_EQ(std::string(e.what()), "[lite] convert: unsupported op Exp (node Exp)");
  }
}

TEST(LiteConvert, ElementwiseOpsSoftmaxReshapeMeanConcatTransposeRunLikeTheFunction) {
  FunctionOptions opts;
  opts.input_signature = std::vector<Value>{TensorSpec(PartialShape{-1, 8}, DType::kFloat32, "x")};
  Variable w(Tensor::from_vector(testing::lcg_floats(64, 9), Shape{8, 8}), "w");
  auto fn = function(
      "f", {"x"},
      [&w](Tensor x) -> Tensor {
        Tensor h = tanh(matmul(x, w.read_value())) * 2.0 - sigmoid(x) / 3.0;
        h = relu6(h) + reduce("Mean", h, Value::list({Value(1)}), true);
        h = concat({h, transpose(h, std::vector<int64_t>{0, 1})}, 1);
        h = reshape(h, Value::list({Value(-1), Value(4), Value(4)}));
        Tensor g = matmul(h, h, false, true);
        return softmax(reshape(g, Value::list({Value(-1), Value(16)})));
      },
      opts);
  auto cf = fn->get_concrete_function();
  Interpreter lite(ModelFile(convert(*cf), "tfscope"));
  std::vector<float> x = probe(2 * 8, 4);
  auto got = lite.run({{{2, 8}, x}});
  Tensor want = cf->run_flat({Tensor::from_vector(x, Shape{2, 8})})[0];
  ASSERT_EQ(static_cast<int64_t>(got[0].data.size()), want.num_elements());
  for (int64_t i = 0; i < want.num_elements(); ++i) {
    EXPECT_NEAR(got[0].data[static_cast<size_t>(i)], want.data<float>()[i], 1e-5f);
  }
}

TEST(LiteConvert, OperatorsComeInTfsImportOrderWithOneArithConstantForEqualConstants) {
  // 2.0 * tanh(x) + sigmoid(x) * 2.0, as TF 2.21's converter writes it (checked with the oracle,
  // conformance/tflite/NOTES.md "Names and operator order"): the Sigmoid branch first (TF's
  // import order visits consumers by name), the constant of 2.0 * t on the right, the two equal
  // 2.0s one tensor named "arith.constant".
  FunctionOptions opts;
  opts.input_signature = std::vector<Value>{TensorSpec(PartialShape{-1, 8}, DType::kFloat32, "x")};
  auto fn = function(
      "f", {"x"},
      [](Tensor x) {
        Tensor t = 2.0 * tanh(x);  // built first, as Python builds it; lowered second
        Tensor s = sigmoid(x) * 2.0;
        return t + s;
      },
      opts);
  ModelFile model(convert(*fn->get_concrete_function()), "tfscope");
  const tflite::SubGraph& g = subgraph(model);
  std::vector<tflite::BuiltinOperator> codes;
  for (const tflite::Operator* op : *g.operators()) {
    codes.push_back(model.model().operator_codes()->Get(op->opcode_index())->builtin_code());
  }
  using namespace tflite;
  ASSERT_EQ(codes, (std::vector<BuiltinOperator>{BuiltinOperator_LOGISTIC, BuiltinOperator_MUL,
                                                 BuiltinOperator_TANH, BuiltinOperator_MUL,
                                                 BuiltinOperator_ADD}));
  auto name = [&](int32_t id) { return g.tensors()->Get(id)->name()->str(); };
  const auto* mul_sigmoid = g.operators()->Get(1)->inputs();
  const auto* mul_tanh = g.operators()->Get(3)->inputs();
  EXPECT_EQ(name(mul_sigmoid->Get(0)), "Sigmoid");
  EXPECT_EQ(name(mul_tanh->Get(0)), "Tanh");
  EXPECT_EQ(mul_sigmoid->Get(1), mul_tanh->Get(1));
  EXPECT_EQ(name(mul_tanh->Get(1)), "arith.constant");
  EXPECT_EQ(name(g.operators()->Get(1)->outputs()->Get(0)), "mul_1");
  EXPECT_EQ(name(g.operators()->Get(3)->outputs()->Get(0)), "mul");
}

TEST(LiteConvert, BiaslessFullyConnectedOutputNameSkipsTheNoValueBiassName) {
  // tanh(matmul(x, w)) without a bias, as TF 2.21's converter names it (checked with the oracle):
  // the weights "MatMul", MLIR's no-value bias takes "MatMul1" (no tensor), the output "MatMul2".
  FunctionOptions opts;
  opts.input_signature = std::vector<Value>{TensorSpec(PartialShape{-1, 8}, DType::kFloat32, "x")};
  Variable w(Tensor::from_vector(testing::lcg_floats(32, 3), Shape{8, 4}), "w");
  auto fn = function(
      "f", {"x"}, [&w](Tensor x) { return tanh(matmul(x, w.read_value())); }, opts);
  ModelFile model(convert(*fn->get_concrete_function()), "tfscope");
  const tflite::SubGraph& g = subgraph(model);
  const tflite::Operator* fc = g.operators()->Get(0);
  EXPECT_EQ(g.tensors()->Get(fc->inputs()->Get(1))->name()->str(), "MatMul");
  EXPECT_EQ(fc->inputs()->Get(2), -1);
  EXPECT_EQ(g.tensors()->Get(fc->outputs()->Get(0))->name()->str(), "MatMul2");
  EXPECT_EQ(find_tensor(model, "MatMul1"), nullptr);
}

TEST(LiteConvert, ExactGeluBecomesOneGeluOpAndRunsLikeTheFunction) {
  // tf.nn.gelu(approximate=False) is five TF ops; TF's converter legalizes them to one GELU
  // (GeluOptions{approximate=false}, conformance/formats/NOTES.md).
  FunctionOptions opts;
  opts.input_signature = std::vector<Value>{TensorSpec(PartialShape{-1, 8}, DType::kFloat32, "x")};
  auto fn = function(
      "f", {"x"}, [](Tensor x) { return gelu(x, false); }, opts);
  auto cf = fn->get_concrete_function();
  ModelFile model(convert(*cf), "tfscope");
  Interpreter lite(model);
  std::vector<float> x = probe(3 * 8, 11);
  auto got = lite.run({{{3, 8}, x}});
  Tensor want = cf->run_flat({Tensor::from_vector(x, Shape{3, 8})})[0];
  ASSERT_EQ(static_cast<int64_t>(got[0].data.size()), want.num_elements());
  for (int64_t i = 0; i < want.num_elements(); ++i) {
    EXPECT_NEAR(got[0].data[static_cast<size_t>(i)], want.data<float>()[i],
                1e-6f * std::abs(want.data<float>()[i]) + 1e-7f);
  }
  const auto* ops = model.model().subgraphs()->Get(0)->operators();
  ASSERT_EQ(ops->size(), 1u);
  auto code = model.model().operator_codes()->Get(ops->Get(0)->opcode_index());
  EXPECT_EQ(code->builtin_code(), tflite::BuiltinOperator_GELU);
}

}  // namespace
}  // namespace tfs::lite

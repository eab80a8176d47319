// CONV_2D, DEPTHWISE_CONV_2D, MAX_POOL_2D and AVERAGE_POOL_2D: the converter's models run like
// the functions they come from, the kernels give worked-out numbers (TFLite's SAME padding, the
// hybrid per-channel arithmetic), malformed options and shapes are one-line errors, and the
// delta report covers the CNN. Bit-equality with LiteRT is conformance/tflite/run.py's.
#include <gtest/gtest.h>

#include <cmath>

#include "lite_cnn.h"
#include "lite_model.h"
#include "tfscope/lite.h"

namespace tfs::lite {
namespace {

using detail::LiteModel;
using detail::LiteOp;
using detail::LiteTensor;

void expect_runs_like_function(const testing::ConvModel& m, std::vector<int> shape) {
  auto cf = m.fn->get_concrete_function();
  Interpreter lite(ModelFile(convert(*cf), "tfscope"));
  int64_t n = 1;
  for (int d : shape) n *= d;
  std::vector<float> x = testing::lcg_floats(static_cast<size_t>(n), 77, 1.0f);
  auto got = lite.run({{shape, x}});
  Tensor want = cf->run_flat(
      {Tensor::from_vector(x, Shape(std::vector<int64_t>(shape.begin(), shape.end())))})[0];
  ASSERT_EQ(static_cast<int64_t>(got[0].data.size()), want.num_elements());
  for (int64_t i = 0; i < want.num_elements(); ++i) {
    const float w = want.data<float>()[i];
    EXPECT_NEAR(got[0].data[static_cast<size_t>(i)], w, 1e-5f * std::max(1.0f, std::fabs(w))) << i;
  }
}

TEST(LiteConv, CnnRunsLikeItsFunction) {
  expect_runs_like_function(testing::make_cnn(), {2, 28, 28, 1});
}

TEST(LiteConv, SeparableBlockRunsLikeItsFunction) {
  expect_runs_like_function(testing::make_separable(), {2, 12, 12, 64});
}

TEST(LiteConv, ConvertedOpsOptionsAndFilterLayoutsAreTfs) {
  // TF 2.21's converter on the same graph (conformance/tflite/NOTES.md): CONV_2D's filter OHWI,
  // DEPTHWISE_CONV_2D's [1, H, W, C*M], a zero bias "arith.constant" for the depthwise conv
  // without one, the fused locations unsorted (activation, bias add, conv, the bias's node).
  ModelFile f(convert(*testing::make_separable().fn->get_concrete_function()), "sep");
  const auto& sg = *f.model().subgraphs()->Get(0);
  auto tensor = [&](int i) { return sg.tensors()->Get(static_cast<flatbuffers::uoffset_t>(i)); };
  auto shape = [&](int i) {
    const auto* s = tensor(i)->shape();
    return std::vector<int>(s->begin(), s->end());
  };
  ASSERT_EQ(sg.operators()->size(), 5u);
  const tflite::Operator* dw = sg.operators()->Get(0);
  const auto* dwo = dw->builtin_options_as_DepthwiseConv2DOptions();
  ASSERT_NE(dwo, nullptr);
  EXPECT_EQ(dwo->depth_multiplier(), 2);
  EXPECT_EQ(dwo->padding(), tflite::Padding_SAME);
  EXPECT_EQ(dwo->fused_activation_function(), tflite::ActivationFunctionType_RELU6);
  EXPECT_EQ(shape(dw->inputs()->Get(1)), (std::vector<int>{1, 3, 3, 128}));
  EXPECT_EQ(tensor(dw->inputs()->Get(2))->name()->str(),
            "Relu6;BiasAdd;depthwise;BiasAdd/ReadVariableOp");
  const tflite::Operator* pw = sg.operators()->Get(1);
  const auto* pwo = pw->builtin_options_as_Conv2DOptions();
  ASSERT_NE(pwo, nullptr);
  EXPECT_EQ(pwo->padding(), tflite::Padding_VALID);
  EXPECT_EQ(pwo->fused_activation_function(), tflite::ActivationFunctionType_RELU);
  EXPECT_EQ(shape(pw->inputs()->Get(1)), (std::vector<int>{32, 1, 1, 128}));
  EXPECT_EQ(tensor(pw->outputs()->Get(0))->name()->str(), "Relu;add;Conv2D;add/ReadVariableOp1");
  const tflite::Operator* dw2 = sg.operators()->Get(2);
  EXPECT_EQ(tensor(dw2->inputs()->Get(2))->name()->str(), "arith.constant");
  EXPECT_EQ(dw2->builtin_options_as_DepthwiseConv2DOptions()->stride_w(), 2);
  EXPECT_EQ(tensor(dw2->outputs()->Get(0))->name()->str(), "depthwise_11");
  const auto* mp = sg.operators()->Get(3)->builtin_options_as_Pool2DOptions();
  ASSERT_NE(mp, nullptr);
  EXPECT_EQ(mp->filter_width(), 3);
  EXPECT_EQ(mp->stride_w(), 1);
}

// ---- hand-built models ----

int32_t add(LiteModel& m, const std::string& name, std::vector<int32_t> shape,
            const std::vector<float>& data = {}) {
  LiteTensor t;
  t.name = name;
  t.shape = std::move(shape);
  if (!data.empty()) {
    t.is_const = true;
    t.data.assign(reinterpret_cast<const char*>(data.data()), data.size() * sizeof(float));
  }
  return m.add_tensor(std::move(t));
}

int32_t add_int8(LiteModel& m, const std::string& name, std::vector<int32_t> shape,
                 const std::vector<int8_t>& q, std::vector<float> scales, int32_t dim) {
  LiteTensor t;
  t.name = name;
  t.type = tflite::TensorType_INT8;
  t.shape = std::move(shape);
  t.is_const = true;
  t.data.assign(reinterpret_cast<const char*>(q.data()), q.size());
  t.zero_points.assign(scales.size(), 0);
  t.scales = std::move(scales);
  t.quantized_dimension = dim;
  return m.add_tensor(std::move(t));
}

std::vector<float> run_one(LiteModel m, LiteOp op, std::vector<int> in_shape, std::vector<float> x,
                           std::vector<int>* out_shape = nullptr) {
  op.outputs = {add(m, "y", {1})};
  op.inputs.insert(op.inputs.begin(), 0);
  m.ops.push_back(op);
  m.outputs = op.outputs;
  m.signature_outputs = {{"y", op.outputs[0]}};
  Interpreter interp(ModelFile(detail::serialize(m), "m.tflite"));
  auto out = interp.run({{in_shape, x}});
  if (out_shape) *out_shape = out[0].shape;
  return out[0].data;
}

std::vector<float> iota(int n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i);
  return v;
}

TEST(LiteConv, AnUnsharedZeroBiasTakesTheConvolutionsName) {
  // tanh(depthwise_conv2d(x, w)) without a bias, as TF 2.21's converter names it (checked with
  // the oracle, conformance/tflite/NOTES.md): no other convolution has its output depth, so the
  // zero bias keeps the op's location, named before the filter since the op reads the model
  // input: bias "depthwise", filter "depthwise1", output "depthwise2".
  auto w = std::make_shared<Variable>(
      Tensor::from_vector(testing::lcg_floats(3 * 3 * 4 * 2, 41, 0.3f), Shape{3, 3, 4, 2}), "w");
  FunctionOptions opts;
  opts.input_signature =
      std::vector<Value>{TensorSpec(PartialShape{-1, 6, 6, 4}, DType::kFloat32, "x")};
  auto fn = function(
      "dw", {"x"},
      [=](Tensor x) -> Tensor {
        ConvAttrs same;
        same.padding = "SAME";
        return tanh(depthwise_conv2d(x, Value(w->state()), same));
      },
      opts);
  ModelFile model(convert(*fn->get_concrete_function()), "tfscope");
  const tflite::SubGraph& g = *model.model().subgraphs()->Get(0);
  const tflite::Operator* dw = g.operators()->Get(0);
  auto name = [&](int k) { return g.tensors()->Get(dw->inputs()->Get(k))->name()->str(); };
  EXPECT_EQ(name(1), "depthwise1");
  EXPECT_EQ(name(2), "depthwise");
  EXPECT_EQ(g.tensors()->Get(dw->outputs()->Get(0))->name()->str(), "depthwise2");
}

TEST(LiteConv, SamePaddingPutsTheSmallerHalfFirstAndPoolsClipTheWindow) {
  // A 5x5 image of 0..24, 3x3 windows, stride 2, SAME: 3x3 outputs, total padding
  // (3 - 1) * 2 + 3 - 5 = 2, one row and column before. Output (0, 0) covers rows and columns
  // 0..1: 0 + 1 + 5 + 6 = 12 (conv of ones), max 6, average 12 / 4 taps = 3. Output (1, 1) is
  // the full window around 12: sum 108, max 18, average 12.
  LiteModel base;
  (void)add(base, "x", {1, 5, 5, 1});
  base.inputs = {0};
  base.signature_inputs = {{"x", 0}};
  LiteOp conv;
  conv.code = tflite::BuiltinOperator_CONV_2D;
  conv.stride_w = conv.stride_h = 2;
  LiteModel mc = base;
  conv.inputs = {add(mc, "w", {1, 3, 3, 1}, std::vector<float>(9, 1.0f)),
                 add(mc, "b", {1}, {0.0f})};
  std::vector<int> shape;
  std::vector<float> c = run_one(mc, conv, {1, 5, 5, 1}, iota(25), &shape);
  EXPECT_EQ(shape, (std::vector<int>{1, 3, 3, 1}));
  EXPECT_EQ(c[0], 12.0f);
  EXPECT_EQ(c[4], 108.0f);
  LiteOp pool;
  pool.code = tflite::BuiltinOperator_MAX_POOL_2D;
  pool.stride_w = pool.stride_h = 2;
  pool.filter_w = pool.filter_h = 3;
  std::vector<float> mx = run_one(base, pool, {1, 5, 5, 1}, iota(25));
  EXPECT_EQ(mx[0], 6.0f);
  EXPECT_EQ(mx[4], 18.0f);
  pool.code = tflite::BuiltinOperator_AVERAGE_POOL_2D;
  std::vector<float> av = run_one(base, pool, {1, 5, 5, 1}, iota(25));
  EXPECT_EQ(av[0], 3.0f);
  EXPECT_EQ(av[4], 12.0f);
}

TEST(LiteConv, HybridPerChannelKernelsGiveWorkedNumbers) {
  // The image [-128, 127] quantizes with scale 1 and offset 0 (range 255 over 255 steps), so
  // q = x. A 1x1 filter of two output channels, int8 {2, -3} with scales {0.5, 0.25}, bias
  // {1, 0}: channel 0 gives 2 * -128 * 0.5 + 1 = -127 and 2 * 127 * 0.5 + 1 = 128, channel 1
  // -3 * -128 * 0.25 = 96 and -3 * 127 * 0.25 = -95.25. Both convolutions, CONV_2D as OHWI
  // [2, 1, 1, 1] and DEPTHWISE_CONV_2D as [1, 1, 1, 2] with depth multiplier 2.
  for (bool depthwise : {false, true}) {
    LiteModel m;
    (void)add(m, "x", {1, 1, 2, 1});
    m.inputs = {0};
    m.signature_inputs = {{"x", 0}};
    LiteOp op;
    op.code =
        depthwise ? tflite::BuiltinOperator_DEPTHWISE_CONV_2D : tflite::BuiltinOperator_CONV_2D;
    op.depth_multiplier = 2;
    op.inputs = {depthwise ? add_int8(m, "w", {1, 1, 1, 2}, {2, -3}, {0.5f, 0.25f}, 3)
                           : add_int8(m, "w", {2, 1, 1, 1}, {2, -3}, {0.5f, 0.25f}, 0),
                 add(m, "b", {2}, {1.0f, 0.0f})};
    std::vector<float> y = run_one(m, op, {1, 1, 2, 1}, {-128.0f, 127.0f});
    EXPECT_EQ(y, (std::vector<float>{-127.0f, 96.0f, 128.0f, -95.25f})) << depthwise;
  }
}

std::string error_of(LiteModel m, LiteOp op, std::vector<int> in_shape) {
  try {
    int64_t n = 1;
    for (int d : in_shape) n *= d;
    run_one(std::move(m), op, in_shape, std::vector<float>(static_cast<size_t>(n), 0.5f));
  } catch (const FormatError& e) {
    return e.what();
  }
  return "no error";
}

TEST(LiteConv, MalformedOptionsAndShapesAreOneLineErrors) {
  auto conv_model = [](std::vector<int32_t> filter_shape, LiteModel* m) {
    (void)add(*m, "x", {1, 4, 4, 2});
    m->inputs = {0};
    m->signature_inputs = {{"x", 0}};
    int64_t n = 1;
    for (int32_t d : filter_shape) n *= d;
    return add(*m, "w", filter_shape, std::vector<float>(static_cast<size_t>(n), 1.0f));
  };
  struct Case {
    const char* what;
    int code;
    std::vector<int32_t> filter;
    void (*edit)(LiteOp&);
    std::string want;
  };
  const Case cases[] = {
      {"stride 0",
       tflite::BuiltinOperator_CONV_2D,
       {3, 3, 3, 2},
       [](LiteOp& o) { o.stride_w = 0; },
       "[lite] m.tflite: CONV_2D strides 1x0"},
      {"dilation -1",
       tflite::BuiltinOperator_CONV_2D,
       {3, 3, 3, 2},
       [](LiteOp& o) { o.dilation_h = -1; },
       "[lite] m.tflite: CONV_2D dilations -1x1"},
      {"padding 7",
       tflite::BuiltinOperator_CONV_2D,
       {3, 3, 3, 2},
       [](LiteOp& o) { o.padding = static_cast<tflite::Padding>(7); },
       "[lite] m.tflite: CONV_2D padding 7"},
      {"input depth",
       tflite::BuiltinOperator_CONV_2D,
       {3, 3, 3, 3},
       [](LiteOp&) {},
       "[lite] m.tflite: CONV_2D filter [3, 3, 3, 3] for input [1, 4, 4, 2]"},
      {"window",
       tflite::BuiltinOperator_CONV_2D,
       {3, 7, 7, 2},
       [](LiteOp& o) { o.padding = tflite::Padding_VALID; },
       "[lite] m.tflite: CONV_2D window larger than its input [1, 4, 4, 2]"},
      {"multiplier",
       tflite::BuiltinOperator_DEPTHWISE_CONV_2D,
       {1, 3, 3, 6},
       [](LiteOp& o) { o.depth_multiplier = 2; },
       "[lite] m.tflite: DEPTHWISE_CONV_2D filter [1, 3, 3, 6] for input [1, 4, 4, 2] and "
       "depth_multiplier 2"},
      {"depthwise filter",
       tflite::BuiltinOperator_DEPTHWISE_CONV_2D,
       {2, 3, 3, 2},
       [](LiteOp&) {},
       "[lite] m.tflite: DEPTHWISE_CONV_2D filter w of shape [2, 3, 3, 2] (want [1, H, W, C])"},
      {"pool size",
       tflite::BuiltinOperator_MAX_POOL_2D,
       {},
       [](LiteOp& o) { o.filter_w = 0; },
       "[lite] m.tflite: MAX_POOL_2D filter 1x0"},
  };
  for (const Case& c : cases) {
    LiteModel m;
    LiteOp op;
    op.code = static_cast<tflite::BuiltinOperator>(c.code);
    if (!c.filter.empty()) {
      op.inputs = {conv_model(c.filter, &m)};
    } else {
      (void)add(m, "x", {1, 4, 4, 2});
      m.inputs = {0};
      m.signature_inputs = {{"x", 0}};
    }
    c.edit(op);
    EXPECT_EQ(error_of(m, op, {1, 4, 4, 2}), c.want) << c.what;
  }
  // Per-channel hybrid filters need one scale per output channel.
  LiteModel m;
  (void)add(m, "x", {1, 4, 4, 2});
  m.inputs = {0};
  m.signature_inputs = {{"x", 0}};
  LiteOp op;
  op.code = tflite::BuiltinOperator_CONV_2D;
  op.inputs = {add_int8(m, "w", {3, 1, 1, 2}, std::vector<int8_t>(6, 1), {0.5f}, 0)};
  EXPECT_EQ(error_of(m, op, {1, 4, 4, 2}),
            "[lite] m.tflite: CONV_2D filter w: 1 scales for 3 output channels (hybrid kernels "
            "are per channel)");
}

TEST(LiteConv, CorruptConvModelsFailWithOneLineErrorsNeverCrash) {
  ConvertOptions opts;
  opts.dynamic_range = true;
  for (const auto& model : {testing::make_separable(), testing::make_cnn()}) {
    const std::string bytes = convert(*model.fn->get_concrete_function(), opts);
    int ran = 0, refused = 0;
    for (size_t i = 0; i < bytes.size(); i += 13) {
      std::string bad = bytes;
      bad[i] ^= 0x5a;
      try {
        Interpreter interp(ModelFile(bad, "m.tflite"));
        std::vector<int> shape = interp.input_shape(0);
        int64_t n = 1;
        for (int d : shape) n *= d;
        if (n <= 0 || n > (1 << 16)) continue;
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
}

TEST(LiteDelta, CnnQuantizesTheSecondConvAndTheDenseLayer) {
  // TF 2.21's converter quantizes exactly these two (1152 and 7840 weights; the first conv's 72
  // and the biases stay float): conformance/tflite/NOTES.md.
  DeltaReport r = convert_tflite_dynamic(*testing::make_cnn().fn->get_concrete_function(), 8, 3);
  ASSERT_EQ(r.quantized_ops.size(), 2u);
  EXPECT_EQ(r.quantized_ops[0], "CONV_2D Conv2D_1 (int8 [16, 3, 3, 8], 16 per-channel scales)");
  EXPECT_EQ(r.quantized_ops[1], "FULLY_CONNECTED MatMul (int8 [10, 784], 10 per-channel scales)");
  EXPECT_GT(r.max_abs_delta, 0.0);
  EXPECT_LT(r.max_abs_delta, 0.05 * r.max_abs_output);
  EXPECT_LT(r.int8_bytes, r.float_bytes);
}

}  // namespace
}  // namespace tfs::lite

// The FULLY_CONNECTED kernels: the reference kernels' input quantization on worked examples
// (checked against LiteRT 2.3's BUILTIN_REF, conformance/tflite/run.py checks it live), and every
// prepared (packed SIMD) kernel this CPU can run against the reference kernels, bit for bit: the
// hybrid and exact float kernels against the reference, the fused float kernel against a scalar
// sequential std::fma sum written here. Then the interpreter: invoking at the same shapes
// allocates nothing, loading allocates no input of the declared shape, and its outputs are the
// reference kernels' bits.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "alloc_counter.h"
#include "format_error.h"
#include "kernels_fc_internal.h"
#include "lite_mlp.h"
#include "tfscope/lite.h"
#include "tfscope/lite_kernels.h"

namespace tfs::lite {
namespace {

using kernels::Activation;
using kernels::Isa;

std::vector<Isa> supported_isas() {
  std::vector<Isa> out;
  for (Isa isa : {Isa::kScalar, Isa::kAvx2, Isa::kAvx512, Isa::kAmx}) {
    if (kernels::isa_supported(isa)) out.push_back(isa);
  }
  return out;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

TEST(LiteKernels, AsymmetricInputQuantizationWorkedExample) {
  // x = [-1, 0, 3]: rmin -1, rmax 3, scale 4/255; zero point from min -128 + 63.75 = -64.25
  // (error 128 + 63.75) vs from max 127 - 191.25 = -64.25 (error 127 + 191.25): min wins,
  // round(-64.25) = -64. q = -64 + round(x * 255/4): -64 - 64 -> -128, -64, -64 + 191 -> 127.
  float x[] = {-1.0f, 0.0f, 3.0f};
  int8_t q[3];
  float sf;
  int32_t zp;
  kernels::asymmetric_quantize(x, 3, q, &sf, &zp);
  EXPECT_EQ(zp, -64);
  EXPECT_EQ(sf, static_cast<float>(4.0 / 255.0));
  EXPECT_EQ(q[0], -128);
  EXPECT_EQ(q[1], -64);
  EXPECT_EQ(q[2], 127);
  // The range is a float difference, rounded before the double division: for this pair the
  // scale's last bit differs from a double difference (LiteRT's BUILTIN_REF kernel agrees).
  float y[] = {-0.20486761629581451f, 0.08263817429542542f};
  int8_t q2[2];
  float sf2;
  int32_t zp2;
  kernels::asymmetric_quantize(y, 2, q2, &sf2, &zp2);
  EXPECT_EQ(sf2, static_cast<float>(static_cast<double>(y[1] - y[0]) / 255.0));
  EXPECT_NE(sf2, static_cast<float>((double(y[1]) - double(y[0])) / 255.0));
}

TEST(LiteKernels, AsymmetricOffsetIsAddedAfterRounding) {
  // [255, 100.5, 0]: range 255, scale 1; the zero point from min, -128 (error 128 + 0), beats
  // the one from max, 127 - 255 = -128 (error 127 + 255). 100.5 * 1 rounds half away from zero
  // to 101 and then the offset applies: -128 + 101 = -27 (LiteRT 2.3 BUILTIN_REF gives -27;
  // round(-128 + 100.5) would give -28).
  float x[] = {255.0f, 100.5f, 0.0f};
  int8_t q[3];
  float sf;
  int32_t zp;
  kernels::asymmetric_quantize(x, 3, q, &sf, &zp);
  EXPECT_EQ(sf, 1.0f);
  EXPECT_EQ(zp, -128);
  EXPECT_EQ(q[0], 127);
  EXPECT_EQ(q[1], -27);
  EXPECT_EQ(q[2], -128);
  // Mirrored: zero point 127, 127 + round(-100.5) = 127 - 101 = 26 (round(127 - 100.5) = 27).
  float y[] = {-255.0f, -100.5f, 0.0f};
  kernels::asymmetric_quantize(y, 3, q, &sf, &zp);
  EXPECT_EQ(zp, 127);
  EXPECT_EQ(q[0], -128);
  EXPECT_EQ(q[1], 26);
  EXPECT_EQ(q[2], 127);
}

TEST(LiteKernels, SymmetricQuantizationRoundsHalfAwayFromZero) {
  // range 127: inv = 1, so q = round(x): 2.5 -> 3, -2.5 -> -3, 0.49 -> 0, -127 -> -127.
  float x[] = {127.0f, 2.5f, -2.5f, 0.49f, -127.0f};
  int8_t q[5];
  float sf;
  kernels::symmetric_quantize(x, 5, q, &sf);
  EXPECT_EQ(sf, 1.0f);
  EXPECT_EQ(q[0], 127);
  EXPECT_EQ(q[1], 3);
  EXPECT_EQ(q[2], -3);
  EXPECT_EQ(q[3], 0);
  EXPECT_EQ(q[4], -127);
}

TEST(LiteKernels, BatchedSimdParamsAreTheScalarParams) {
  // The AVX-512 and AVX2 kernels compute up to eight rows' parameters at once in vector lanes;
  // they must be asymmetric_params / symmetric_params bit for bit. Pairs: random bit patterns,
  // normal values, integer ends, ranges down to denormals, and min = -(k + 1/2), max = 255 + min,
  // whose scale is exactly 1 and zero point -128 + k + 1/2 (rounded half away from zero: -126.5 ->
  // -127).
  if (!kernels::isa_supported(Isa::kAvx2)) GTEST_SKIP() << "this CPU runs no SIMD kernels";
  const kernels::RowQuantization half = kernels::asymmetric_params(-1.5f, 253.5f);
  EXPECT_EQ(half.sf, 1.0f);
  EXPECT_EQ(half.zp, -127);
  std::mt19937 rng(5);
  std::normal_distribution<float> nd(0.0f, 2.0f);
  std::vector<float> mn, mx;
  for (int k = 0; k < 128; ++k) {
    mn.push_back(-(static_cast<float>(k) + 0.5f));
    mx.push_back(255.0f + mn.back());
  }
  for (int i = 0; i < 200000; ++i) {
    float a = 0, b = 0;
    switch (i % 5) {
      case 0: {
        const uint32_t u = rng(), v = rng();
        std::memcpy(&a, &u, 4);
        std::memcpy(&b, &v, 4);
        if (!std::isfinite(a)) a = 1.0f;
        if (!std::isfinite(b)) b = -2.0f;
        break;
      }
      case 1:
        a = nd(rng);
        b = nd(rng);
        break;
      case 2:
        a = -static_cast<float>(rng() % 256);
        b = static_cast<float>(rng() % 256);
        break;
      case 3:
        a = i % 2 ? 0.0f
                  : -std::ldexp(static_cast<float>(rng() % 1000), -static_cast<int>(rng() % 150));
        b = i % 2 ? std::ldexp(static_cast<float>(rng() % 1000), -static_cast<int>(rng() % 150))
                  : 0.0f;
        break;
      default:
        a = -static_cast<float>(rng() % 2048) / 8;
        b = static_cast<float>(rng() % 2048) / 8;
        break;
    }
    mn.push_back(std::min(a, b));
    mx.push_back(std::max(a, b));
  }
  auto same = [](const kernels::RowQuantization& x, const kernels::RowQuantization& y) {
    return x.zero == y.zero && std::memcmp(&x.sf, &y.sf, 4) == 0 && x.zp == y.zp &&
           std::memcmp(&x.inv, &y.inv, 4) == 0;
  };
  int checked = 0;
  for (Isa isa : {Isa::kAvx2, Isa::kAvx512}) {
    if (!kernels::isa_supported(isa)) continue;
    for (bool asymmetric : {true, false}) {
      size_t n = 0;
      for (size_t i = 0, chunk = 0; i < mn.size(); i += n, ++chunk) {
        n = std::min<size_t>(1 + chunk % 8, mn.size() - i);  // chunks of 1 to 8 rows
        kernels::RowQuantization got[8];
        (isa == Isa::kAvx2 ? kernels::row_params_avx2 : kernels::row_params_avx512)(
            &mn[i], &mx[i], static_cast<int>(n), asymmetric, got);
        for (size_t r = 0; r < n; ++r) {
          const float lo = mn[i + r], hi = mx[i + r];
          const kernels::RowQuantization want =
              asymmetric ? kernels::asymmetric_params(lo, hi) : kernels::symmetric_params(lo, hi);
          ASSERT_TRUE(same(got[r], want))
              << kernels::isa_name(isa) << (asymmetric ? " asymmetric" : " symmetric") << " min "
              << lo << " max " << hi;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 200000);
}

// Input rows for the hybrid kernels: normal values, a row of zeros, rows whose products x * inv
// land exactly on halves (x = k + 0.5 with a range of 255, so scale 1), a row with one NaN and
// one with an infinity (those go through the reference quantization in every path).
std::vector<float> hybrid_inputs(int batch, int depth, std::mt19937& rng) {
  std::normal_distribution<float> nd(0.0f, 1.5f);
  std::uniform_int_distribution<int> ki(-120, 120);
  std::vector<float> in(static_cast<size_t>(batch) * static_cast<size_t>(depth));
  for (auto& v : in) v = nd(rng);
  for (int b = 0; b < batch; ++b) {
    float* row = in.data() + static_cast<size_t>(b) * static_cast<size_t>(depth);
    switch (b % 6) {
      case 1:
        std::fill(row, row + depth, 0.0f);
        break;
      case 2:
      case 3:
        for (int d = 0; d < depth; ++d) row[d] = static_cast<float>(ki(rng)) + 0.5f;
        row[0] = b % 6 == 2 ? 255.0f : -255.0f;
        if (depth > 1) row[1] = 0.0f;
        break;
      case 4:
        if (b >= 6) row[depth / 2] = std::numeric_limits<float>::quiet_NaN();
        break;
      case 5:
        if (b >= 6) row[depth - 1] = -std::numeric_limits<float>::infinity();
        break;
      default:
        break;
    }
  }
  return in;
}

TEST(LiteKernels, PreparedHybridIsBitEqualToTheReferenceOnEveryIsa) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> wq(-127, 127);
  std::normal_distribution<float> nd(0.0f, 1.5f);
  int cases = 0;
  for (int depth : {1, 3, 4, 15, 16, 17, 33, 100, 784}) {
    for (int units : {1, 7, 16, 17, 65, 70}) {
      for (int batch : {1, 2, 7, 16, 35}) {  // AMX: blocks of 16 rows, the rest on AVX-512
        std::vector<int8_t> w(static_cast<size_t>(units) * static_cast<size_t>(depth));
        for (auto& v : w) v = static_cast<int8_t>(wq(rng));
        std::vector<float> in = hybrid_inputs(batch, depth, rng), bias(static_cast<size_t>(units));
        for (auto& v : bias) v = nd(rng);
        for (bool per_channel : {true, false}) {
          kernels::HybridWeights hw;
          hw.w = w.data();
          hw.units = units;
          hw.depth = depth;
          for (int u = 0; u < (per_channel ? units : 1); ++u)
            hw.scales.push_back(0.01f + u * 1e-3f);
          hw.prepare();
          for (bool asym : {true, false}) {
            const Activation act = asym ? Activation::kRelu6 : Activation::kNone;
            const float* b = per_channel ? bias.data() : nullptr;
            std::vector<float> want(static_cast<size_t>(batch) * static_cast<size_t>(units));
            kernels::fully_connected_hybrid(in.data(), batch, hw, b, act, asym, want.data());
            for (Isa isa : supported_isas()) {
              auto fc = kernels::PreparedFc::hybrid_weights(w.data(), units, depth, hw.scales, isa);
              ASSERT_EQ(fc.isa(), isa);
              kernels::FcScratch scratch;
              std::vector<float> got(want.size(), -1.0f);
              fc.run(in.data(), batch, b, act, asym, got.data(), scratch);
              ASSERT_TRUE(same_bits(got, want))
                  << kernels::isa_name(isa) << " depth " << depth << " units " << units << " batch "
                  << batch << (per_channel ? " per-channel" : " per-tensor")
                  << (asym ? " asymmetric" : " symmetric");
              ++cases;
            }
          }
        }
      }
    }
  }
  EXPECT_GE(cases, 9 * 6 * 5 * 4);
  // An input of zeros leaves the (activated) bias in every path.
  std::vector<int8_t> w(64 * 40, 3);
  std::vector<float> zeros(3 * 64, 0.0f), bias = testing::lcg_floats(40, 3), want(3 * 40);
  kernels::HybridWeights hw{w.data(), 40, 64, {0.5f}, {}};
  hw.prepare();
  kernels::fully_connected_hybrid(zeros.data(), 3, hw, bias.data(), Activation::kRelu, true,
                                  want.data());
  for (Isa isa : supported_isas()) {
    auto fc = kernels::PreparedFc::hybrid_weights(w.data(), 40, 64, {0.5f}, isa);
    kernels::FcScratch scratch;
    std::vector<float> got(want.size());
    fc.run(zeros.data(), 3, bias.data(), Activation::kRelu, true, got.data(), scratch);
    EXPECT_TRUE(same_bits(got, want)) << kernels::isa_name(isa);
    EXPECT_EQ(got[0], std::max(bias[0], 0.0f));
  }
}

// The fused mode's definition: each output a sequential std::fma chain from 0 in d order, then
// the bias and the activation.
std::vector<float> fused_sum(const std::vector<float>& in, int batch, int depth,
                             const std::vector<float>& w, int units, const float* bias,
                             Activation act) {
  std::vector<float> out(static_cast<size_t>(batch) * static_cast<size_t>(units));
  for (int b = 0; b < batch; ++b) {
    for (int u = 0; u < units; ++u) {
      float t = 0.0f;
      for (int d = 0; d < depth; ++d) {
        t = std::fma(in[static_cast<size_t>(b * depth + d)], w[static_cast<size_t>(u * depth + d)],
                     t);
      }
      out[static_cast<size_t>(b * units + u)] = kernels::activate(t + (bias ? bias[u] : 0.0f), act);
    }
  }
  return out;
}

TEST(LiteKernels, PreparedFloatIsBitEqualToItsDefinitionOnEveryIsa) {
  int cases = 0;
  for (int depth : {1, 2, 9, 16, 31, 128, 784}) {
    for (int units : {1, 5, 8, 16, 33, 64, 130}) {
      for (int batch : {1, 2, 3, 6, 7, 64}) {
        const uint32_t seed = static_cast<uint32_t>(depth * 1000 + units * 10 + batch);
        std::vector<float> w = testing::lcg_floats(static_cast<size_t>(units * depth), seed, 0.5f);
        std::vector<float> in =
            testing::lcg_floats(static_cast<size_t>(batch * depth), seed + 1, 3);
        std::vector<float> bias = testing::lcg_floats(static_cast<size_t>(units), seed + 2);
        if (batch == 7) in[3] = std::numeric_limits<float>::quiet_NaN();
        const Activation act = static_cast<Activation>(batch % 4);
        const float* b = units % 2 ? bias.data() : nullptr;
        std::vector<float> exact(static_cast<size_t>(batch) * static_cast<size_t>(units));
        kernels::fully_connected_float(in.data(), batch, depth, w.data(), units, b, act,
                                       exact.data());
        const std::vector<float> fused = fused_sum(in, batch, depth, w, units, b, act);
        for (Isa isa : supported_isas()) {
          for (bool fuse : {false, true}) {
            auto fc = kernels::PreparedFc::float_weights(w.data(), units, depth, fuse, isa);
            kernels::FcScratch scratch;
            std::vector<float> got(exact.size(), -1.0f);
            fc.run(in.data(), batch, b, act, false, got.data(), scratch);
            ASSERT_TRUE(same_bits(got, fuse ? fused : exact))
                << kernels::isa_name(isa) << (fuse ? " fused" : " exact") << " depth " << depth
                << " units " << units << " batch " << batch;
            ++cases;
          }
        }
      }
    }
  }
  EXPECT_GE(cases, 7 * 7 * 6 * 2);
}

TEST(LiteKernels, FusedAndExactFloatKernelsDifferSomewhere) {
  // The two modes are not the same computation: on 784-deep sums some outputs differ in the last
  // bits (else the fused mode's test above would prove nothing beyond the exact one's).
  std::vector<float> w = testing::lcg_floats(64 * 784, 1, 0.5f), in = testing::lcg_floats(784, 2);
  std::vector<float> a(64), b(64);
  kernels::fully_connected_float(in.data(), 1, 784, w.data(), 64, nullptr, Activation::kNone,
                                 a.data());
  b = fused_sum(in, 1, 784, w, 64, nullptr, Activation::kNone);
  EXPECT_FALSE(same_bits(a, b));
}

// The MLP of bench/bm_function.cc (784 -> 256 relu -> 128 relu -> 10) as a .tflite model.
std::string mlp_model(bool dynamic_range) {
  auto mlp = testing::make_mlp(
      784, 256, 10, testing::lcg_floats(784 * 256, 1, 0.1f), testing::lcg_floats(256, 2, 0.1f),
      testing::lcg_floats(256 * 10, 3, 0.1f), testing::lcg_floats(10, 4, 0.1f));
  ConvertOptions opts;
  opts.dynamic_range = dynamic_range;
  return convert(*mlp.fn->get_concrete_function(), opts);
}

TEST(LiteInterpreter, InvokeAtTheSameShapesAllocatesNothing) {
  for (bool dynamic : {false, true}) {
    const std::string bytes = mlp_model(dynamic);
    for (Kernels k : {Kernels::kReference, Kernels::kFast}) {
      Interpreter interp(ModelFile(bytes, "mlp.tflite"), k);
      for (int batch : {1, 64}) {
        interp.resize_input(0, {batch, 784});
        std::vector<float> x = testing::lcg_floats(static_cast<size_t>(batch) * 784, 9, 2.0f);
        std::copy(x.begin(), x.end(), interp.input_data(0));
        interp.invoke();  // plans: shapes and buffers
        const std::vector<float> first = interp.output(0).data;
        const long before = tfs::testing::allocation_count();
        for (int i = 0; i < 5; ++i) {
          std::copy(x.begin(), x.end(), interp.input_data(0));
          interp.invoke();
        }
        EXPECT_EQ(tfs::testing::allocation_count() - before, 0)
            << (dynamic ? "int8" : "float") << " batch " << batch;
        EXPECT_TRUE(same_bits(interp.output(0).data, first));
        EXPECT_EQ(interp.output(0).shape, (std::vector<int>{batch, 10}));
      }
    }
  }
}

TEST(LiteInterpreter, ReferenceModeGivesTheReferenceKernelsBits) {
  // Both layers of the int8 MLP are hybrid (784 x 256 and 256 x 10 int8 weights, each at least
  // TF's 1024); both modes must be bit-equal to the reference kernels run layer by layer on the
  // model's own constants.
  const std::string bytes = mlp_model(true);
  ModelFile file(bytes, "mlp.tflite");
  const auto* sg = file.model().subgraphs()->Get(0);
  auto tensor_data = [&](int t) {
    const auto* b = file.model().buffers()->Get(sg->tensors()->Get(t)->buffer())->data();
    return b->data();
  };
  auto scales = [&](int t) {
    const auto* s = sg->tensors()->Get(t)->quantization()->scale();
    return std::vector<float>(s->begin(), s->end());
  };
  std::vector<float> x = testing::lcg_floats(3 * 784, 5, 2.0f), h(3 * 256), want(3 * 10);
  const auto* op0 = sg->operators()->Get(0);
  const auto* op1 = sg->operators()->Get(1);
  kernels::HybridWeights w1{reinterpret_cast<const int8_t*>(tensor_data(op0->inputs()->Get(1))),
                            256,
                            784,
                            scales(op0->inputs()->Get(1)),
                            {}};
  kernels::HybridWeights w2{reinterpret_cast<const int8_t*>(tensor_data(op1->inputs()->Get(1))),
                            10,
                            256,
                            scales(op1->inputs()->Get(1)),
                            {}};
  w1.prepare();
  w2.prepare();
  std::vector<float> b1(256), b2(10);
  std::memcpy(b1.data(), tensor_data(op0->inputs()->Get(2)), 256 * 4);
  std::memcpy(b2.data(), tensor_data(op1->inputs()->Get(2)), 10 * 4);
  const auto* o0 = op0->builtin_options_as_FullyConnectedOptions();
  const auto* o1 = op1->builtin_options_as_FullyConnectedOptions();
  ASSERT_EQ(o0->fused_activation_function(), tflite::ActivationFunctionType_RELU);
  ASSERT_EQ(o1->fused_activation_function(), tflite::ActivationFunctionType_NONE);
  kernels::fully_connected_hybrid(x.data(), 3, w1, b1.data(), Activation::kRelu,
                                  o0->asymmetric_quantize_inputs(), h.data());
  kernels::fully_connected_hybrid(h.data(), 3, w2, b2.data(), Activation::kNone,
                                  o1->asymmetric_quantize_inputs(), want.data());
  for (Kernels k : {Kernels::kReference, Kernels::kFast}) {
    Interpreter interp(ModelFile(bytes, "mlp.tflite"), k);
    auto got = interp.run({{{3, 784}, x}});
    EXPECT_TRUE(same_bits(got[0].data, want));
  }
}

using testing::error_of;

// A float RELU model whose input x and output y declare `shape`, as a damaged file may.
std::string relu_model(const std::vector<int>& shape) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<flatbuffers::Offset<tflite::Buffer>> buffers = {tflite::CreateBuffer(fbb)};
  std::vector<flatbuffers::Offset<tflite::Tensor>> tensors = {
      tflite::CreateTensorDirect(fbb, &shape, tflite::TensorType_FLOAT32, 0, "x"),
      tflite::CreateTensorDirect(fbb, &shape, tflite::TensorType_FLOAT32, 0, "y")};
  std::vector<flatbuffers::Offset<tflite::OperatorCode>> codes = {
      create_operator_code(fbb, tflite::BuiltinOperator_RELU)};
  std::vector<int> in = {0}, out = {1};
  std::vector<flatbuffers::Offset<tflite::Operator>> ops = {
      tflite::CreateOperatorDirect(fbb, 0, &in, &out)};
  std::vector<flatbuffers::Offset<tflite::SubGraph>> subgraphs = {
      tflite::CreateSubGraphDirect(fbb, &tensors, &in, &out, &ops, "main")};
  return finish_model(
      fbb, tflite::CreateModelDirect(fbb, kSchemaVersion, &codes, &subgraphs, nullptr, &buffers));
}

TEST(LiteInterpreter, LoadingAllocatesNoInputOfTheDeclaredShape) {
  // `make fuzz` found a file declaring a 2^31-element input that cost 8 GiB at load. LiteRT
  // allocates at AllocateTensors, after any resize (its Python Interpreter loads a [2^30, 4, 4]
  // float input and fails only in allocate_tensors); so does this interpreter: a declared shape
  // costs nothing until the input is written or the run is planned.
  auto load_bytes = [](const std::vector<int>& shape) {
    const std::string bytes = relu_model(shape);
    const long long before = tfs::testing::allocated_bytes();
    Interpreter interp(ModelFile(bytes, "relu.tflite"));
    return tfs::testing::allocated_bytes() - before;
  };
  EXPECT_EQ(load_bytes({1024, 1024, 4}), load_bytes({1, 1, 4}));

  // 2^32 elements declared: it loads, allocating it is a one-line error, and resized first it
  // runs.
  Interpreter interp(ModelFile(relu_model({65536, 65536, 1}), "relu.tflite"));
  const std::string too_big =
      "[lite] relu.tflite: input 0 x: shape [65536, 65536, 1] is more than the interpreter "
      "allocates (2^31 elements)";
  EXPECT_EQ(error_of([&] { interp.input_data(0); }), too_big);
  EXPECT_EQ(error_of([&] { interp.invoke(); }), too_big);
  EXPECT_EQ(error_of([&] {
              interp.resize_input(0, {65536, 65536, 2});
            }),
            "[lite] relu.tflite: input 0 x: shape [65536, 65536, 2] is more than the interpreter "
            "allocates (2^31 elements)");
  interp.resize_input(0, {1, 2, 2});
  const float x[] = {-1.5f, 2.0f, -0.0f, 4.25f};
  std::copy(std::begin(x), std::end(x), interp.input_data(0));
  interp.invoke();
  EXPECT_EQ(interp.output(0).shape, (std::vector<int>{1, 2, 2}));
  EXPECT_EQ(interp.output(0).data, (std::vector<float>{0.0f, 2.0f, 0.0f, 4.25f}));

  // Counts that overflow 64 bits are refused at load, as LiteRT refuses them ("BytesRequired
  // number of elements overflowed" / "of bytes overflowed": "Tensor 0 is invalidly specified").
  EXPECT_EQ(error_of([] {
              Interpreter(ModelFile(relu_model({1 << 30, 1 << 30, 1 << 5}), "r"));
            }),
            "[lite] r: tensor x: shape [1073741824, 1073741824, 32] overflows 64 bits");
  EXPECT_EQ(error_of([] {
              Interpreter(ModelFile(relu_model({1 << 30, 1 << 30, 4}), "r"));
            }),
            "[lite] r: tensor x: shape [1073741824, 1073741824, 4] overflows 64 bits");
  EXPECT_EQ(error_of([] { Interpreter(ModelFile(relu_model({1 << 30, 1 << 30, 3}), "r")); }), "");
}

}  // namespace
}  // namespace tfs::lite

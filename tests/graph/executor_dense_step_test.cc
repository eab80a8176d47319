// The executor runs a dense layer, BiasAdd(MatMul(a, w), b) and Relu of it, as one step where the
// product and the sum have no other use (src/graph/step_fusion.h, src/ops/dense_step.h). The
// reference is the same ops run eagerly one after the other (each its own kernel): the outputs
// must have the same bits, for batches and widths that do not fill the kernels' vectors, either
// transpose, special values, and plans the fusion must leave alone; a bad input fails at the node
// that rejects it, with the text the unfused plan gives; a profile times the three nodes apart.
// The one pass itself (detail::dense_f32) is also called directly: it must take the inputs the
// layers above give it (else the plan's results would be the parts' and prove nothing of it), and
// leave to the kernels what they reject.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "../../src/ops/dense_step.h"
#include "float_bits.h"
#include "tfscope/executor.h"
#include "tfscope/function.h"
#include "tfscope/op_profile.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

using testing::bits;
using testing::randn;

TensorSpec spec(std::vector<int64_t> dims) {
  return TensorSpec(PartialShape(std::move(dims)), DType::kFloat32);
}

// What the layer returns besides its output, which decides whether the plan may fuse it.
enum class Also { kNothing, kProduct, kSum };

struct Layer {
  bool relu = true, ta = false, tb = false;
  Also also = Also::kNothing;
};

Tensor layer(const Layer& l, const Tensor& a, const Tensor& w, const Tensor& b, Tensor* product,
             Tensor* sum) {
  *product = matmul(a, w, l.ta, l.tb);
  *sum = bias_add(Value(*product), Value(b));
  return l.relu ? relu(*sum) : *sum;
}

std::shared_ptr<Function> layer_function(const std::string& name, const Layer& l) {
  return function(name, {"a", "w", "b"}, [l](Tensor a, Tensor w, Tensor b) -> Value {
    Tensor product, sum;
    Tensor y = layer(l, a, w, b, &product, &sum);
    if (l.also == Also::kProduct) return Value::tuple({Value(y), Value(product)});
    if (l.also == Also::kSum) return Value::tuple({Value(y), Value(sum)});
    return Value(y);
  });
}

int steps_of(const std::shared_ptr<Function>& f) {
  return Executor::for_function(f->concrete_functions()[0]->graph_function(), nullptr)->num_steps();
}

// The layer in a tf.function, three calls (the later ones into the buffers of the first), against
// the ops run eagerly.
void expect_same_bits(const Layer& l, const Tensor& a, const Tensor& w, const Tensor& b) {
  const std::string name = "dense_" + std::to_string(a.eager_shape().dim(0)) + "x" +
                           std::to_string(w.eager_shape().dim(l.tb ? 0 : 1)) +
                           (l.relu ? "_relu" : "") + (l.ta ? "_ta" : "") + (l.tb ? "_tb" : "");
  auto f = layer_function(name, l);
  Tensor product, sum;
  const std::vector<uint32_t> want = bits(layer(l, a, w, b, &product, &sum));
  for (int i = 0; i < 3; ++i) {
    Value got = f->call({Value(a), Value(w), Value(b)});
    ASSERT_EQ(bits(got.as_tensor()), want) << name << " call " << i;
  }
}

TEST(ExecutorDenseStep, FusedLayerHasTheThreeKernelsBits) {
  struct Dims {
    int64_t m, k, n;
  };
  for (const Dims& d : {Dims{1, 784, 256}, Dims{1, 128, 10}, Dims{3, 17, 19}, Dims{64, 256, 128},
                        Dims{5, 1, 7}, Dims{2, 33, 1}}) {
    for (bool relu : {true, false}) {
      for (bool ta : {false, true}) {
        for (bool tb : {false, true}) {
          const Layer l{relu, ta, tb};
          Tensor a = randn(ta ? Shape({d.k, d.m}) : Shape({d.m, d.k}), 1);
          Tensor w = randn(tb ? Shape({d.n, d.k}) : Shape({d.k, d.n}), 2);
          expect_same_bits(l, a, w, randn(Shape({d.n}), 3));
        }
      }
    }
  }
}

// dense_f32 on (a, w, b): whether it took them, and its output.
std::pair<bool, Tensor> one_pass(const Tensor& a, const Tensor& w, const Tensor& b, bool ta,
                                 bool tb, bool relu) {
  std::vector<Tensor> inputs{a, w, b}, outputs;
  OpKernelContext ctx;
  ctx.inputs = inputs;
  ctx.outputs = &outputs;
  const bool took = detail::dense_f32(ctx, ta, tb, relu);
  return {took, outputs.empty() ? Tensor() : outputs[0]};
}

TEST(ExecutorDenseStep, TheOnePassTakesALayerAndGivesTheKernelsBits) {
  for (bool relu : {true, false}) {
    for (bool ta : {false, true}) {
      for (bool tb : {false, true}) {
        Tensor a = randn(ta ? Shape({300, 3}) : Shape({3, 300}), 4);
        Tensor w = randn(tb ? Shape({19, 300}) : Shape({300, 19}), 5);
        Tensor b = randn(Shape({19}), 6);
        auto [took, out] = one_pass(a, w, b, ta, tb, relu);
        ASSERT_TRUE(took) << relu << ta << tb;
        Tensor product, sum;
        EXPECT_EQ(bits(out), bits(layer(Layer{relu, ta, tb}, a, w, b, &product, &sum)));
      }
    }
  }
}

TEST(ExecutorDenseStep, TheOnePassLeavesToTheKernelsWhatTheyReject) {
  Tensor a = randn(Shape({2, 3}), 1), w = randn(Shape({3, 4}), 2), b = randn(Shape({4}), 3);
  auto rejected = [](const Tensor& x, const Tensor& y, const Tensor& z) {
    auto [took, out] = one_pass(x, y, z, false, false, true);
    return !took && !out.defined();  // nothing allocated or written
  };
  EXPECT_TRUE(rejected(a, w, randn(Shape({5}), 3)));                       // bias of the wrong size
  EXPECT_TRUE(rejected(a, w, randn(Shape({1, 4}), 3)));                    // bias not 1-D
  EXPECT_TRUE(rejected(a, randn(Shape({4, 4}), 2), b));                    // inner dims apart
  EXPECT_TRUE(rejected(randn(Shape({2, 3, 1}), 1), w, b));                 // a not a matrix
  EXPECT_TRUE(rejected(a, w, Tensor::from_vector<double>({1, 2, 3, 4})));  // another dtype
  EXPECT_FALSE(rejected(a, w, b));
}

TEST(ExecutorDenseStep, SpecialValuesAsTheThreeKernels) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float tiny = std::numeric_limits<float>::denorm_min();
  // Rows of a (1 x 3) and w (3 x 11) and the bias that give NaN, infinities, -0, denormals and
  // values on either side of zero in the sums, in packets and in the tail.
  Tensor a = Tensor::from_vector<float>({1.0f, -0.0f, 2.0f}, Shape({1, 3}));
  std::vector<float> wv(33);
  for (size_t i = 0; i < wv.size(); ++i) wv[i] = static_cast<float>(i % 5) - 2.0f;
  wv[4] = nan;
  wv[7] = inf;
  wv[9] = -inf;
  wv[12] = tiny;
  Tensor w = Tensor::from_vector<float>(wv, Shape({3, 11}));
  Tensor b = Tensor::from_vector<float>(
      {0.0f, -0.0f, 1e-40f, -tiny, inf, 3.0f, -3.0f, nan, 0.5f, -1e30f, 2.0f}, Shape({11}));
  expect_same_bits(Layer{true}, a, w, b);
  expect_same_bits(Layer{false}, a, w, b);
}

// A layer fuses only the nodes whose value nothing else reads. Relu(BiasAdd(MatMul)) alone is
// one step; with the sum also returned, MatMul and BiasAdd are one step and the Relu another;
// with the product also returned, each node is its own step.
TEST(ExecutorDenseStep, OnlyAnUnsharedChainIsFused) {
  auto steps = [](const std::string& name, Layer l) {
    auto f = layer_function(name, l);
    f->get_concrete_function({Value(spec({2, 8})), Value(spec({8, 4})), Value(spec({4}))});
    return steps_of(f);
  };
  const int fused = steps("dense_relu_fused", Layer{true});
  const int sum_kept = steps("dense_relu_sum_kept", Layer{true, false, false, Also::kSum});
  const int product_kept =
      steps("dense_relu_product_kept", Layer{true, false, false, Also::kProduct});
  EXPECT_EQ(fused + 1, sum_kept);
  EXPECT_EQ(sum_kept + 1, product_kept);
  EXPECT_EQ(steps("dense_fused", Layer{false}) + 1,
            steps("dense_product_kept", Layer{false, false, false, Also::kProduct}));
}

// With shapes left open at trace time, a bias of the wrong size reaches the kernels: the fused
// step fails as the plan of separate steps does, at the BiasAdd node.
TEST(ExecutorDenseStep, BadBiasFailsAtTheBiasAddNode) {
  auto error_of = [](const std::string& name, Also also) {
    auto f = layer_function(name, Layer{true, false, false, also});
    auto cf =
        f->get_concrete_function({Value(spec({-1, -1})), Value(spec({-1, -1})), Value(spec({-1}))});
    try {
      cf->run_flat({randn(Shape({2, 3}), 1), randn(Shape({3, 4}), 2), randn(Shape({5}), 3)});
    } catch (const Error& e) {
      const std::string text = e.what();
      return text.substr(0, text.find(" [Op:__inference_"));  // the function's name aside
    }
    return std::string("no error");
  };
  const std::string fused = error_of("dense_bad_bias", Also::kNothing);
  EXPECT_NE(fused.find("Must provide as many biases as the last dimension of the input tensor: "
                       "[5] vs. [2,4]"),
            std::string::npos)
      << fused;
  EXPECT_NE(fused.find("[[{{node BiasAdd}}]]"), std::string::npos) << fused;
  std::string unfused = error_of("dense_bad_bias_unfused", Also::kProduct);
  EXPECT_EQ(fused, unfused);
}

TEST(ExecutorDenseStep, AProfileTimesTheThreeNodes) {
  auto f = layer_function("dense_profiled", Layer{true});
  Tensor a = randn(Shape({2, 8}), 1), w = randn(Shape({8, 4}), 2), b = randn(Shape({4}), 3);
  Tensor product, sum;
  const std::vector<uint32_t> want = bits(layer(Layer{true}, a, w, b, &product, &sum));
  f->call({Value(a), Value(w), Value(b)});  // traced before the profile starts
  OpProfile prof;
  prof.start();
  Value got = f->call({Value(a), Value(w), Value(b)});
  prof.stop();
  EXPECT_EQ(bits(got.as_tensor()), want);
  std::vector<std::string> ops;
  for (const OpEvent& e : prof.events()) {
    if (e.op == "MatMul" || e.op == "BiasAdd" || e.op == "Relu") ops.push_back(e.op);
  }
  EXPECT_EQ(ops, (std::vector<std::string>{"MatMul", "BiasAdd", "Relu"}));
}

}  // namespace
}  // namespace tfs

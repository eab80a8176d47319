// Every registered gradient against a numerical one: f(x) = sum(op(x) * w) for a fixed w, its
// tape gradient compared with central differences of f computed in float64, an independent
// reference that shares nothing with the gradient functions but the forward kernels.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "tfscope/ops.h"
#include "tfscope/ops_array.h"
#include "tfscope/ops_index.h"
#include "tfscope/ops_loss.h"
#include "tfscope/tape.h"

namespace tfs {
namespace {

using Fn = std::function<Tensor(const std::vector<Tensor>&)>;

Tensor rand_f64(const std::vector<int64_t>& shape, uint32_t seed, double lo = -2, double hi = 2) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  Tensor t = Tensor::empty(DType::kFloat64, Shape(shape));
  for (int64_t i = 0; i < t.num_elements(); ++i) t.data<double>()[i] = u(g);
  return t;
}

// sum(f(xs) * w): a scalar whose gradient weights every output element differently.
double objective(const Fn& f, const std::vector<Tensor>& xs, const Tensor& w) {
  Tensor y = f(xs);
  return reduce_sum(multiply(cast(y, DType::kFloat64), w)).item<double>();
}

void check_gradient(const Fn& f, std::vector<Tensor> xs, double tol = 1e-6, double h = 1e-6) {
  Tensor y0 = f(xs);
  Tensor w = rand_f64(y0.eager_shape().dims(), 99);
  GradientTape tape;
  tape.enter();
  for (auto& x : xs) tape.watch(x);
  Tensor loss = reduce_sum(multiply(cast(f(xs), DType::kFloat64), w));
  tape.exit();
  std::vector<TapeOperand> sources(xs.begin(), xs.end());
  std::vector<Tensor> grads = tape.gradient({loss}, sources);
  ASSERT_EQ(grads.size(), xs.size());
  for (size_t k = 0; k < xs.size(); ++k) {
    ASSERT_TRUE(grads[k].defined()) << "input " << k << " got no gradient";
    ASSERT_EQ(grads[k].eager_shape(), xs[k].eager_shape()) << "input " << k;
    Tensor g = cast(grads[k], DType::kFloat64);
    for (int64_t i = 0; i < xs[k].num_elements(); ++i) {
      std::vector<Tensor> plus = xs, minus = xs;
      plus[k] = xs[k].clone();
      minus[k] = xs[k].clone();
      plus[k].data<double>()[i] += h;
      minus[k].data<double>()[i] -= h;
      double numeric = (objective(f, plus, w) - objective(f, minus, w)) / (2 * h);
      double analytic = g.data<double>()[i];
      EXPECT_NEAR(analytic, numeric, tol * std::max(1.0, std::abs(numeric)))
          << "input " << k << " element " << i;
    }
  }
}

TEST(GradientCheck, BroadcastingBinaryOps) {
  auto a = rand_f64({2, 3}, 1), b = rand_f64({3}, 2), c = rand_f64({2, 1}, 3);
  check_gradient([](auto& x) { return add(x[0], x[1]); }, {a, b});
  check_gradient([](auto& x) { return subtract(x[0], x[1]); }, {a, c});
  check_gradient([](auto& x) { return multiply(x[0], x[1]); }, {c, b});
  check_gradient([](auto& x) { return multiply(x[0], x[1]); }, {a, a.clone()});
  auto pos = rand_f64({3}, 4, 0.5, 2);
  check_gradient([](auto& x) { return truediv(x[0], x[1]); }, {a, pos});
  check_gradient([](auto& x) { return maximum(x[0], x[1]); }, {a, b});
  check_gradient([](auto& x) { return minimum(x[0], x[1]); }, {a, c});
  Tensor cond = Tensor::from_bools({true, false, true, false, false, true}, Shape{2, 3});
  check_gradient([cond](auto& x) { return where(cond, x[0], x[1]); }, {a, b});
}

TEST(GradientCheck, MatMulEveryTransposition) {
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      auto a = rand_f64(ta ? std::vector<int64_t>{4, 2} : std::vector<int64_t>{2, 4}, 5);
      auto b = rand_f64(tb ? std::vector<int64_t>{3, 4} : std::vector<int64_t>{4, 3}, 6);
      check_gradient([ta, tb](auto& x) { return matmul(x[0], x[1], ta, tb); }, {a, b});
    }
  }
}

TEST(GradientCheck, DenseLayerOps) {
  auto x = rand_f64({3, 4}, 7), bias = rand_f64({4}, 8);
  check_gradient([](auto& v) { return bias_add(v[0], v[1]); }, {x, bias});
  check_gradient([](auto& v) { return relu(v[0]); }, {x});
  check_gradient([](auto& v) { return tanh(v[0]); }, {x});
  check_gradient([](auto& v) { return sigmoid(v[0]); }, {x});
}

TEST(GradientCheck, UnaryMath) {
  auto x = rand_f64({2, 5}, 9), pos = rand_f64({2, 5}, 10, 0.5, 3);
  check_gradient([](auto& v) { return exp(v[0]); }, {x});
  check_gradient([](auto& v) { return log(v[0]); }, {pos});
  check_gradient([](auto& v) { return square(v[0]); }, {x});
  check_gradient([](auto& v) { return sqrt(v[0]); }, {pos});
  check_gradient([](auto& v) { return rsqrt(v[0]); }, {pos});
  check_gradient([](auto& v) { return neg(v[0]); }, {x});
  check_gradient([](auto& v) { return identity(v[0]); }, {x});
  // Through float32 the function is a staircase of float32 steps: a wide step sees its slope.
  check_gradient([](auto& v) { return cast(v[0], DType::kFloat32); }, {x}, 1e-3, 1e-2);
}

TEST(GradientCheck, ReductionsAndReshape) {
  auto x = rand_f64({2, 3, 4}, 11);
  check_gradient([](auto& v) { return reduce_sum(v[0]); }, {x});
  check_gradient([](auto& v) { return reduce_sum(v[0], std::vector<int64_t>{1}); }, {x});
  check_gradient([](auto& v) { return reduce_sum(v[0], std::vector<int64_t>{0, 2}, true); }, {x});
  check_gradient([](auto& v) { return reduce_mean(v[0]); }, {x});
  check_gradient([](auto& v) { return reduce_mean(v[0], std::vector<int64_t>{-1}); }, {x});
  check_gradient([](auto& v) { return reshape(v[0], Value::list({Value(4), Value(6)})); }, {x});
}

TEST(GradientCheck, SparseSoftmaxCrossEntropy) {
  Tensor labels = Tensor::from_vector<int32_t>({2, 0, 3});
  auto logits = rand_f64({3, 4}, 13, -3, 3);
  check_gradient(
      [labels](auto& v) { return sparse_softmax_cross_entropy_with_logits(labels, v[0]); },
      {logits});
}

TEST(GradientCheck, ChainsAndReuse) {
  // A tensor used twice gets the sum of both gradients (AddN), through a chain of ops.
  auto x = rand_f64({3, 3}, 12);
  check_gradient([](auto& v) { return add(multiply(tanh(v[0]), v[0]), exp(neg(v[0]))); }, {x});
  check_gradient([](auto& v) { return matmul(relu(v[0]), sigmoid(v[0])); }, {x});
}

TEST(GradientCheck, SoftmaxFamilyAndLosses) {
  auto x = rand_f64({3, 5}, 21, -3, 3);
  check_gradient([](auto& v) { return softmax(v[0]); }, {x});
  check_gradient([](auto& v) { return log_softmax(v[0]); }, {x});
  // Labels that are a distribution per row, and logits: both get gradients.
  auto labels = softmax(rand_f64({3, 5}, 22));
  check_gradient(
      [](auto& v) {
        return execute("SoftmaxCrossEntropyWithLogits", {v[0], v[1]}, {}, "xent")[0];
      },
      {x, labels});
  check_gradient([](auto& v) { return execute1("L2Loss", {v[0]}, {}, "L2Loss"); }, {x});
}

TEST(GradientCheck, ArrayOps) {
  auto a = rand_f64({2, 3}, 23), b = rand_f64({2, 4}, 24), c = rand_f64({2, 3}, 25);
  check_gradient([](auto& v) { return transpose(v[0]); }, {a});
  check_gradient([](auto& v) { return transpose(v[0], std::vector<int64_t>{1, 0}); }, {b});
  check_gradient([](auto& v) { return concat({v[0], v[1]}, 1); }, {a, b});
  check_gradient([](auto& v) { return concat({v[0], v[1]}, 0); }, {a, c});
  check_gradient([](auto& v) { return stack({v[0], v[1]}, 1); }, {a, c});
  check_gradient([](auto& v) { return multiply(unstack(v[0], 1)[2], unstack(v[0], 1)[0]); }, {a});
  check_gradient([](auto& v) { return slice(v[0], {0, 1}, {2, 2}); }, {b});
  check_gradient([](auto& v) { return strided_slice(v[0], {1, 3}, {2, 0}, {1, -2}); }, {b});
  check_gradient(
      [](auto& v) {
        return strided_slice(v[0], {0, 1}, {0, 0}, {1, 1}, 0, 2, 0, 0, 1);
      },
      {b});
  check_gradient([](auto& v) { return tile(v[0], Value::list({Value(2), Value(3)})); }, {a});
  auto row = rand_f64({1, 3}, 26);
  check_gradient(
      [](auto& v) {
        return broadcast_to(v[0], Value::list({Value(4), Value(3)}));
      },
      {row});
}

TEST(GradientCheck, BatchMatMulWithBroadcastBatch) {
  auto a = rand_f64({2, 3, 4}, 27), b = rand_f64({4, 2}, 28), c = rand_f64({2, 4, 2}, 29);
  check_gradient([](auto& v) { return matmul(v[0], v[1]); }, {a, c});
  check_gradient([](auto& v) { return matmul(v[0], v[1]); }, {a, b});
  auto d = rand_f64({1, 2, 3}, 30);
  check_gradient([](auto& v) { return matmul(v[0], v[1], true, true); },
                 {d, rand_f64({2, 3, 2}, 31)});
}

TEST(GradientCheck, MoreUnaryAndBinaryMath) {
  // Values kept away from the kinks of Relu6 and Abs, where central differences straddle them.
  Tensor x = Tensor::from_vector<double>({-1.5, -0.3, 0.7, 2.2, 5.1, 6.8, 3.3, -2.6}, Shape{2, 4});
  auto pos = rand_f64({2, 4}, 32, 0.5, 2.5);
  check_gradient([](auto& v) { return relu6(v[0]); }, {x});
  check_gradient([](auto& v) { return abs(v[0]); }, {x});
  check_gradient([](auto& v) { return erf(v[0]); }, {x});
  check_gradient([](auto& v) { return erfc(v[0]); }, {x});
  check_gradient([](auto& v) { return gelu(v[0]); }, {x});
  check_gradient([](auto& v) { return log1p(v[0]); }, {pos});
  check_gradient([](auto& v) { return reciprocal(v[0]); }, {pos});
  check_gradient([](auto& v) { return tf_pow(v[0], v[1]); }, {pos, x});
  check_gradient([](auto& v) { return tf_pow(v[0], Value(3.0)); }, {x});
  check_gradient([](auto& v) { return execute1("Sin", {v[0]}, {}, "sin"); }, {x});
  check_gradient([](auto& v) { return execute1("Cos", {v[0]}, {}, "cos"); }, {x});
  auto small = rand_f64({2, 4}, 34, -1.2, 1.2);  // inside tan's period around 0
  check_gradient([](auto& v) { return execute1("Tan", {v[0]}, {}, "tan"); }, {small});
  check_gradient([](auto& v) { return execute1("Sinh", {v[0]}, {}, "sinh"); }, {small});
  check_gradient([](auto& v) { return execute1("Cosh", {v[0]}, {}, "cosh"); }, {small});
  check_gradient([](auto& v) { return execute1("Asinh", {v[0]}, {}, "asinh"); }, {x});
  auto above_one = rand_f64({2, 4}, 35, 1.5, 4.0);
  check_gradient([](auto& v) { return execute1("Acosh", {v[0]}, {}, "acosh"); }, {above_one});
  auto row = rand_f64({4}, 33, 0.5, 2.0);
  check_gradient(
      [](auto& v) {
        return execute1("DivNoNan", {v[0], v[1]}, {}, "div_no_nan");
      },
      {x, row});
}

TEST(GradientCheck, MaxMinProdReductions) {
  // Distinct values, so that each max/min is one element (the numerical derivative of a tie is
  // not defined).
  auto x = rand_f64({3, 4}, 34);
  check_gradient([](auto& v) { return reduce_max(v[0], std::vector<int64_t>{1}); }, {x});
  check_gradient([](auto& v) { return reduce_min(v[0], std::vector<int64_t>{0}, true); }, {x});
  check_gradient([](auto& v) { return reduce_max(v[0]); }, {x});
  check_gradient([](auto& v) { return reduce_prod(v[0], std::vector<int64_t>{1}); }, {x});
  check_gradient([](auto& v) { return reduce_prod(v[0], std::vector<int64_t>{0}, true); }, {x});
  check_gradient([](auto& v) { return reduce_prod(v[0]); }, {x});
}

TEST(GradientCheck, MaxSharesTiesEqually) {
  // The worked-out case TF's _MinOrMaxGrad defines: two maxima each get half the gradient.
  Tensor x = Tensor::from_vector<float>({1, 3, 3, 2}, Shape{4});
  GradientTape tape;
  tape.enter();
  tape.watch(x);
  Tensor y = reduce_max(x);
  tape.exit();
  Tensor g = tape.gradient({y}, {TapeOperand(x)})[0];
  std::vector<float> want{0, 0.5f, 0.5f, 0};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(g.data<float>()[i], want[static_cast<size_t>(i)]);
}

}  // namespace
}  // namespace tfs

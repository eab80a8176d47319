// The graph layer through the function engine: an MLP through the executor against an independent
// float64 reference, and cond/while_loop as TF's cond_v2/while_v2 build and run them.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "tfscope/control_flow.h"
#include "tfscope/errors.h"
#include "tfscope/executor.h"
#include "tfscope/function.h"
#include "tfscope/graph.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

std::vector<float> random_values(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = d(gen);
  return v;
}

// softmax(relu(x W1 + b1) W2 + b2) in double, written out loop by loop.
std::vector<double> reference_mlp(const std::vector<float>& x, const std::vector<float>& w1,
                                  const std::vector<float>& b1, const std::vector<float>& w2,
                                  const std::vector<float>& b2, int n, int in, int hid, int out) {
  std::vector<double> y(static_cast<size_t>(n * out));
  for (int r = 0; r < n; ++r) {
    std::vector<double> h(static_cast<size_t>(hid));
    for (int j = 0; j < hid; ++j) {
      double s = b1[static_cast<size_t>(j)];
      for (int k = 0; k < in; ++k) s += double(x[size_t(r * in + k)]) * w1[size_t(k * hid + j)];
      h[size_t(j)] = s > 0 ? s : 0;
    }
    std::vector<double> z(static_cast<size_t>(out));
    double mx = -1e300;
    for (int j = 0; j < out; ++j) {
      double s = b2[size_t(j)];
      for (int k = 0; k < hid; ++k) s += h[size_t(k)] * w2[size_t(k * out + j)];
      z[size_t(j)] = s;
      mx = std::max(mx, s);
    }
    double sum = 0;
    for (double& v : z) sum += (v = std::exp(v - mx));
    for (int j = 0; j < out; ++j) y[size_t(r * out + j)] = z[size_t(j)] / sum;
  }
  return y;
}

TEST(Executor, TwoLayerMlpMatchesAFloat64Reference) {
  const int n = 5, in = 16, hid = 32, out = 10;
  auto xv = random_values(n * in, 1), w1v = random_values(in * hid, 2), b1v = random_values(hid, 3);
  auto w2v = random_values(hid * out, 4), b2v = random_values(out, 5);
  Tensor w1 = Tensor::from_vector<float>(w1v, Shape({in, hid}));
  Tensor w2 = Tensor::from_vector<float>(w2v, Shape({hid, out}));
  Tensor b1 = Tensor::from_vector<float>(b1v), b2 = Tensor::from_vector<float>(b2v);
  auto mlp = function("mlp", {"x"}, [&](Tensor x) {
    Tensor h = relu(bias_add(matmul(x, w1), b1));
    return softmax(bias_add(matmul(h, w2), b2));
  });
  Tensor x = Tensor::from_vector<float>(xv, Shape({n, in}));
  Tensor y = mlp->call({x}).as_tensor();
  auto ref = reference_mlp(xv, w1v, b1v, w2v, b2v, n, in, hid, out);
  ASSERT_EQ(y.num_elements(), n * out);
  for (size_t i = 0; i < ref.size(); ++i)
    EXPECT_NEAR(y.data<float>()[i], ref[i], 1e-6 * std::abs(ref[i]) + 1e-7) << i;
  // Through the graph the ops are the ones TF builds (weights captured as Const: <= 128 elements
  // for the biases, Placeholder captures for the larger kernels).
  auto ops = mlp->concrete_functions()[0]->report().op_counts;
  EXPECT_EQ(ops["MatMul"], 2);
  EXPECT_EQ(ops["BiasAdd"], 2);
  EXPECT_EQ(ops["Relu"], 1);
  EXPECT_EQ(ops["Softmax"], 1);
}

TEST(ControlFlow, CondBuildsBothBranchesAndRunsOne) {
  std::vector<std::string> printed;
  set_print_sink([&](const std::string&, const std::string& t) { printed.push_back(t); });
  auto f = function("f", {"x"}, [](Tensor x) {
    return cond(
        greater(x, Value(int64_t{0})),
        [&] { print({Value("then")}); return std::vector<Tensor>{multiply(x, Value(int64_t{2}))}; },
        [&] { print({Value("else")}); return std::vector<Tensor>{subtract(x, Value(int64_t{1}))}; })[0];
  });
  EXPECT_EQ(f->call({Tensor::from_vector<int32_t>({3}).reshaped(Shape{})}).as_tensor().item<int32_t>(), 6);
  EXPECT_EQ(f->call({Tensor::from_vector<int32_t>({-3}).reshaped(Shape{})}).as_tensor().item<int32_t>(), -4);
  set_print_sink(nullptr);
  // Both branches were traced into the library once; each call ran exactly one of them.
  EXPECT_EQ(printed, (std::vector<std::string>{"then\n", "else\n"}));
  auto cf = f->concrete_functions()[0];
  int ifs = 0;
  for (auto& node : cf->graph()->nodes()) ifs += node->op() == "If" || node->op() == "StatelessIf";
  EXPECT_EQ(ifs, 1);
  EXPECT_EQ(cf->graph()->library().size(), 2u);  // then and else branch functions
}

TEST(ControlFlow, NestedWhileLoopsComputeATriangleNumber) {
  // sum_{i<n} sum_{j<i} 1 = n(n-1)/2
  auto f = function("tri", {"n"}, [](Tensor n) {
    auto outer = while_loop(
        [&](const std::vector<Tensor>& v) { return less(v[0], n); },
        [&](const std::vector<Tensor>& v) {
          Tensor i = v[0];
          auto inner = while_loop([&](const std::vector<Tensor>& w) { return less(w[0], i); },
                                  [](const std::vector<Tensor>& w) {
                                    return std::vector<Tensor>{add(w[0], Value(int64_t{1})),
                                                               add(w[1], Value(int64_t{1}))};
                                  },
                                  {Tensor::from_vector<int32_t>({0}).reshaped(Shape{}), v[1]});
          return std::vector<Tensor>{add(i, Value(int64_t{1})), inner[1]};
        },
        {Tensor::from_vector<int32_t>({0}).reshaped(Shape{}),
         Tensor::from_vector<int32_t>({0}).reshaped(Shape{})});
    return outer[1];
  });
  for (int32_t n : {0, 1, 5, 10}) {
    Tensor r = f->call({Tensor::from_vector<int32_t>({n}).reshaped(Shape{})}).as_tensor();
    EXPECT_EQ(r.item<int32_t>(), n * (n - 1) / 2) << n;
  }
  EXPECT_EQ(f->experimental_get_tracing_count(), 1);
}

TEST(ControlFlow, ALoopVariableThatChangesDtypeIsRejectedWithTfsText) {
  auto f = function("f", {"x"}, [](Tensor x) {
    return while_loop([](const std::vector<Tensor>& v) { return less(v[0], Value(int64_t{3})); },
                      [](const std::vector<Tensor>& v) {
                        return std::vector<Tensor>{cast(v[0], DType::kFloat32)};
                      },
                      {x})[0];
  });
  try {
    f->call({Tensor::from_vector<int32_t>({0}).reshaped(Shape{})});
    FAIL() << "expected a TypeError";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kTypeError);
    // TF 2.21 (while_v2): the loop var named by its tensor name, dtypes as tf.DType reprs.
    EXPECT_EQ(std::string(e.what()),
              "Loop var x:0 enters the loop with type <dtype: 'int32'> but has type "
              "<dtype: 'float32'> after 1 iteration. x:0 type should remain constant.");
  }
  EXPECT_EQ(f->experimental_get_tracing_count(), 0);  // a failed trace adds nothing
}

}  // namespace
}  // namespace tfs

// The executor runs a weight's SGD update at batch 1, AssignSubVariableOp(w, Mul(lr,
// MatMul(x, dy, transpose_a))) with k = 1, as one step where TF's MatMul kernel here makes the
// product one fma per element (src/ops/sgd_update.h). The reference is the same three ops run
// eagerly one after the other (each its own kernel, nothing fused): the variable must end with
// the same bits, for shapes whose rows and columns do not fill the fused loop's blocks and
// vectors, special values, either operand order of the Mul, a read of the weight still held, and
// plans the fusion must leave alone (the product or the scaled product used again).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "../../src/ops/sgd_update.h"
#include "float_bits.h"
#include "tfscope/executor.h"
#include "tfscope/function.h"
#include "tfscope/ops.h"
#include "tfscope/variable.h"

namespace tfs {
namespace {

using testing::bits;
using testing::randn;

struct Case {
  int64_t m, n;
  bool lr_first;
};

// Three training steps in a tf.function against the same three steps eagerly.
void expect_same_bits(const Case& c, Tensor x, Tensor dy, bool hold_read) {
  Tensor w0 = randn(Shape({c.m, c.n}), 7);
  Variable fused(Value(w0.clone())), eager(Value(w0.clone()));
  const float lr = 0.0625f * 1.37f;
  auto update = [&](Variable& w, const Tensor& xs, const Tensor& dys) {
    Tensor g = matmul(xs, dys, /*transpose_a=*/true);
    Tensor t = c.lr_first ? multiply(Value(lr), g) : multiply(g, Value(lr));
    w.assign_sub(Value(t));
  };
  const std::string name =
      "sgd_update_" + std::to_string(c.m) + "x" + std::to_string(c.n) + (hold_read ? "_held" : "");
  auto step = function(name, {"x", "dy"}, [&](Tensor xs, Tensor dys) {
    Tensor before = fused.read_value();
    update(fused, xs, dys);
    return hold_read ? before : reduce_sum(xs);
  });
  for (int i = 0; i < 3; ++i) {
    step->call({x, dy});
    update(eager, x, dy);
    ASSERT_EQ(bits(fused.read_value()), bits(eager.read_value()))
        << c.m << "x" << c.n << " step " << i;
  }
}

TEST(ExecutorSgdUpdate, FusedUpdateHasTheThreeKernelsBits) {
  for (const Case& c : {Case{784, 256, true}, Case{5, 19, true}, Case{17, 300, false},
                        Case{2, 2, true}, Case{300, 33, false}}) {
    expect_same_bits(c, randn(Shape({1, c.m}), 1), randn(Shape({1, c.n}), 2), false);
    expect_same_bits(c, randn(Shape({1, c.m}), 3), randn(Shape({1, c.n}), 4), true);
  }
}

TEST(ExecutorSgdUpdate, SpecialValuesAsTheThreeKernels) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float tiny = std::numeric_limits<float>::denorm_min();
  std::vector<float> xv = {0.0f, -0.0f, inf, -inf, nan, tiny, 1e-30f, -1e30f, 3.0f};
  std::vector<float> dyv = {-0.0f, 1e-20f, -inf,  2.0f, nan,    -tiny, 0.0f, 1e25f, -1.5f,
                            7.0f,  0.25f,  -3.0f, 1.0f, 5e-39f, -0.0f, 4.0f, 8.0f,  -9.0f};
  const Case c{9, 18, true};
  expect_same_bits(c, Tensor::from_vector<float>(xv, Shape({1, 9})),
                   Tensor::from_vector<float>(dyv, Shape({1, 18})), false);
}

int steps_of(const std::shared_ptr<Function>& f) {
  return Executor::for_function(f->concrete_functions()[0]->graph_function(), nullptr)->num_steps();
}

// Each function twice, alike but for the learning rate: a scalar, or a [1] tensor (the same
// nodes, but a Mul the fusion does not take). The scalar one's plan has two steps fewer (the
// MatMul and the Mul run inside the AssignSub's) unless the product or the scaled product is also
// returned.
TEST(ExecutorSgdUpdate, OnlyAnUnsharedChainIsFused) {
  Variable w(Value(randn(Shape({64, 32}), 5)));
  auto spec = [](int64_t n) { return Value(TensorSpec(PartialShape({1, n}), DType::kFloat32)); };
  enum class Returns { kSum, kProduct, kScaled };
  auto make = [&](const std::string& name, Returns r, bool scalar_lr) {
    auto f = function(name, {"x", "dy"}, [&w, r, scalar_lr](Tensor x, Tensor dy) {
      Tensor lr = scalar_lr ? Tensor::scalar<float>(0.5f) : Tensor::from_vector<float>({0.5f});
      Tensor g = matmul(x, dy, true);
      Tensor t = multiply(Value(lr), g);
      w.assign_sub(Value(t));
      return r == Returns::kSum ? reduce_sum(x) : r == Returns::kProduct ? g : t;
    });
    f->get_concrete_function({spec(64), spec(32)});
    return steps_of(f);
  };
  const bool fuses = detail::fused_outer_update_applies(true, false, 64, 1, 32);
  EXPECT_EQ(make("sgd_fuse_sum", Returns::kSum, true) + (fuses ? 2 : 0),
            make("sgd_fuse_sum_vector_lr", Returns::kSum, false));
  EXPECT_EQ(make("sgd_fuse_product", Returns::kProduct, true),
            make("sgd_fuse_product_vector_lr", Returns::kProduct, false));
  EXPECT_EQ(make("sgd_fuse_scaled", Returns::kScaled, true),
            make("sgd_fuse_scaled_vector_lr", Returns::kScaled, false));
}

}  // namespace
}  // namespace tfs

// Gradients through control flow and function calls: the gradient of an If is cond_v2's (an If
// over the branches' gradient functions, the forward If rewritten to output the optionals they
// need). Expected values are worked out by hand (d/dx x^3 = 3x^2, d/dx e^x = e^x) and the graph
// shape is TF 2.21's for the same program (printed by the oracle from the concrete function).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tfscope/control_flow.h"
#include "tfscope/function.h"
#include "tfscope/ops.h"
#include "tfscope/tape.h"

namespace tfs {
namespace {

std::shared_ptr<Function> cube_or_exp() {
  // @tf.function
  // def f(x, p):
  //   with tf.GradientTape() as t:
  //     t.watch(x)
  //     y = tf.cond(p, lambda: x * x * x, lambda: tf.exp(x))
  //   return t.gradient(y, x)
  return function("cube_or_exp", {"x", "p"}, [](Tensor x, Tensor p) {
    GradientTape tape;
    tape.enter();
    tape.watch(x);
    Tensor y = cond(
        p, [&] { return std::vector<Tensor>{multiply(multiply(x, x), x)}; },
        [&] { return std::vector<Tensor>{exp(x)}; })[0];
    tape.exit();
    return tape.gradient({y}, {x})[0];
  });
}

Tensor scalar_bool(bool b) {
  return Tensor::from_bools({b}, Shape{});
}

TEST(ControlGradient, IfGradientValuesInBothBranches) {
  auto f = cube_or_exp();
  Tensor x = Tensor::scalar<float>(2.0f);
  EXPECT_EQ(f->call({x, scalar_bool(true)}).as_tensor().item<float>(), 12.0f);
  float e = f->call({x, scalar_bool(false)}).as_tensor().item<float>();
  EXPECT_NEAR(e, std::exp(2.0), 1e-5);
}

TEST(ControlGradient, ForwardIfIsRewrittenToOutputOptionals) {
  auto f = cube_or_exp();
  auto cf = f->get_concrete_function({Tensor::scalar<float>(2.0f), scalar_bool(true)});
  const Graph& g = *cf->graph();
  Node* fwd = g.find_node("cond");
  Node* grad = g.find_node("gradient_tape/cond/StatelessIf");
  ASSERT_TRUE(fwd && grad);
  // TF: the forward If outputs (float, variant): the cube's Mul gradients need x*x and the exp
  // branch's gradient exp(x); the two branches' optionals share the one slot.
  ASSERT_EQ(fwd->num_outputs(), 2);
  EXPECT_EQ(fwd->output_dtypes[1], DType::kVariant);
  const std::string then_name = std::get<FuncAttr>(fwd->attrs.at("then_branch")).name;
  EXPECT_EQ(then_name.substr(then_name.size() - 10), "_rewritten");
  const GraphFunction* then_fn = g.find_function(then_name);
  ASSERT_TRUE(then_fn);
  EXPECT_EQ(then_fn->outputs.back().node->op(), "OptionalFromValue");
  // The gradient If, as TF's: the predicate, the seed, x, the forward If's optional.
  ASSERT_EQ(grad->inputs.size(), 4u);
  EXPECT_EQ(grad->inputs[2].node->name, "x");
  EXPECT_EQ(grad->inputs[3].node, fwd);
  EXPECT_EQ(grad->inputs[3].index, 1);
}

}  // namespace
}  // namespace tfs

namespace tfs {
namespace {

TEST(FunctionGradient, NestedCallIsTheForwardBackwardPair) {
  // @tf.function def inner(x): return tf.exp(x) * x
  // @tf.function def outer(x): tape around inner(x); return tape.gradient(y, x)
  // d/dx e^x x = e^x (1 + x); TF's graph: the call rewritten to __forward_inner_N, the gradient
  // a PartitionedCall_1 of __inference___backward_inner_N_M taking the seed and two tensors.
  auto inner = function("inner", {"x"}, [](Tensor x) { return multiply(exp(x), x); });
  auto outer = function("outer", {"x"}, [inner](Tensor x) {
    GradientTape tape;
    tape.enter();
    tape.watch(x);
    Tensor y = inner->call({Value(x)}).as_tensor();
    tape.exit();
    return tape.gradient({y}, {x})[0];
  });
  Tensor x = Tensor::scalar<float>(0.5f);
  EXPECT_NEAR(outer->call({x}).as_tensor().item<float>(), std::exp(0.5) * 1.5, 1e-5);
  auto cf = outer->get_concrete_function({x});
  Node* fwd = cf->graph()->find_node("PartitionedCall");
  Node* bwd = cf->graph()->find_node("PartitionedCall_1");
  ASSERT_TRUE(fwd && bwd);
  EXPECT_EQ(std::get<FuncAttr>(fwd->attrs.at("f")).name.rfind("__forward_inner_", 0), 0u);
  EXPECT_EQ(std::get<FuncAttr>(bwd->attrs.at("f")).name.rfind("__inference___backward_inner_", 0),
            0u);
  EXPECT_EQ(fwd->num_outputs(), 3);
  ASSERT_EQ(bwd->inputs.size(), 3u);
  EXPECT_EQ(bwd->inputs[1].node, fwd);
  EXPECT_EQ(bwd->inputs[2].node, fwd);
}

TEST(FunctionGradient, EagerTapeAroundACall) {
  auto inner = function("inner_eager", {"x"}, [](Tensor x) { return multiply(exp(x), x); });
  Tensor x = Tensor::scalar<float>(0.5f);
  GradientTape tape;
  tape.enter();
  tape.watch(x);
  Tensor y = inner->call({x}).as_tensor();
  tape.exit();
  Tensor g = tape.gradient({y}, {x})[0];
  ASSERT_TRUE(g.defined());
  EXPECT_NEAR(g.item<float>(), std::exp(0.5) * 1.5, 1e-5);
}

}  // namespace
}  // namespace tfs

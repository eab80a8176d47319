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

std::shared_ptr<Function> tanh_loop() {
  // @tf.function
  // def f(x):
  //   with tf.GradientTape() as t:
  //     t.watch(x)
  //     y = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, tf.tanh(a) * x), (0, x))[1]
  //   return t.gradient(y, x)
  return function("tanh_loop", {"x"}, [](Tensor x) {
    GradientTape tape;
    tape.enter();
    tape.watch(x);
    Tensor y =
        while_loop([](const std::vector<Tensor>& v) { return less(v[0], Value(3)); },
                   [&](const std::vector<Tensor>& v) {
                     return std::vector<Tensor>{add(v[0], Value(1)), multiply(tanh(v[1]), x)};
                   },
                   {constant(Value(0), DType::kInt32), x})[1];
    tape.exit();
    return tape.gradient({y}, {x})[0];
  });
}

TEST(WhileGradient, ValueIsTheChainRuleThroughEveryIteration) {
  // a_{k+1} = tanh(a_k) x, a_0 = x: da_{k+1}/dx = (1 - tanh(a_k)^2) da_k/dx x + tanh(a_k).
  const double x = 0.5;
  double a = x, da = 1.0;
  for (int k = 0; k < 3; ++k) {
    const double t = std::tanh(a);
    da = (1.0 - t * t) * da * x + t;
    a = t * x;
  }
  float g = tanh_loop()->call({Tensor::scalar<float>(0.5f)}).as_tensor().item<float>();
  EXPECT_NEAR(g, da, 1e-6);
}

TEST(WhileGradient, ForwardWhileAccumulatesWhatTheGradientPops) {
  auto cf = tanh_loop()->get_concrete_function({Tensor::scalar<float>(0.5f)});
  const Graph& g = *cf->graph();
  Node* fwd = g.find_node("while");
  Node* grad = g.find_node("gradient_tape/while/while_grad");
  ASSERT_TRUE(fwd && grad);
  // TF: the forward While's inputs gain the accumulator of `while/Tanh`, bounded by the loop's
  // maximum_iterations; its body pushes Tanh's output.
  ASSERT_EQ(fwd->inputs.size(), 6u);
  Node* acc = fwd->inputs[5].node;
  EXPECT_EQ(acc->name, "gradient_tape/while/while/Tanh_0/accumulator");
  EXPECT_EQ(acc->op(), "EmptyTensorList");
  EXPECT_EQ(acc->inputs[1].node->name, "while/maximum_iterations");
  const std::string body = std::get<FuncAttr>(fwd->attrs.at("body")).name;
  EXPECT_EQ(body.substr(body.size() - 10), "_rewritten");
  const GraphFunction* bf = g.find_function(body);
  ASSERT_TRUE(bf);
  EXPECT_EQ(bf->outputs.back().node->op(), "TensorListPushBack");
  EXPECT_EQ(bf->outputs.back().node->inputs[1].node->name, "while/Tanh");
  // The gradient While's loop variables, as TF's: grad_counter, maximum_iterations, the forward
  // counter, the seed, the capture's zeros, the captured x (a loop invariant) and the list.
  std::vector<std::string> ins;
  for (const Output& o : grad->inputs)
    ins.push_back(o.node->name + (o.index ? ":" + std::to_string(o.index) : ""));
  EXPECT_EQ(
      ins, (std::vector<std::string>{"gradient_tape/while/grad_counter", "while/maximum_iterations",
                                     "while", "ones", "zeros_3", "while:4", "while:5"}));
  const GraphFunction* gb = g.find_function(std::get<FuncAttr>(grad->attrs.at("body")).name);
  ASSERT_TRUE(gb);
  bool pops = false;
  for (auto& n : gb->graph->nodes()) pops = pops || n->op() == "TensorListPopBack";
  EXPECT_TRUE(pops);
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

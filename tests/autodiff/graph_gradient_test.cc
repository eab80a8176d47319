// tape.gradient while a tf.function is traced builds the gradient ops into the function's graph,
// op for op as TF 2.21 does: the expected node lists are TF's graphs for the same programs
// (printed by the oracle, TF 2.21.0, from f.get_concrete_function(...).graph.get_operations()).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tfscope/function.h"
#include "tfscope/ops.h"
#include "tfscope/tape.h"

namespace tfs {
namespace {

using Strings = std::vector<std::string>;

Strings ops_of(const ConcreteFunction& cf) {
  Strings out;
  for (auto& n : cf.graph()->nodes()) out.push_back(n->name + ":" + n->op());
  return out;
}

Strings inputs_of(const ConcreteFunction& cf, const std::string& node) {
  Strings out;
  Node* n = cf.graph()->find_node(node);
  if (!n) return {"<no node " + node + ">"};
  for (auto& i : n->inputs)
    out.push_back(i.node->name + (i.index ? ":" + std::to_string(i.index) : ""));
  return out;
}

TEST(GraphGradient, DenseTanhMeanIsTFsGraph) {
  // @tf.function
  // def f(x, w, b):
  //   with tf.GradientTape() as tape:
  //     tape.watch([w, b])
  //     l = tf.reduce_mean(tf.tanh(tf.matmul(x, w) + b) * 2.0)
  //   return tape.gradient(l, [w, b])
  auto f = function("gg_dense", {"x", "w", "b"}, [](Tensor x, Tensor w, Tensor b) {
    GradientTape tape;
    tape.enter();
    tape.watch(w);
    tape.watch(b);
    Tensor l = reduce_mean(multiply(tanh(add(matmul(x, w), b)), Value(2.0)));
    tape.exit();
    auto g = tape.gradient({l}, {w, b});
    return Value::list({Value(g[0]), Value(g[1])});
  });
  auto cf = f->get_concrete_function({ones({2, 4}), ones({4, 3}), ones({3})});
  EXPECT_EQ(ops_of(*cf), (Strings{"x:Placeholder",
                                  "w:Placeholder",
                                  "b:Placeholder",
                                  "MatMul:MatMul",
                                  "add:AddV2",
                                  "Tanh:Tanh",
                                  "mul/y:Const",
                                  "mul:Mul",
                                  "Const:Const",
                                  "Mean:Mean",
                                  "ones:Const",
                                  "gradient_tape/Reshape/shape:Const",
                                  "gradient_tape/Reshape:Reshape",
                                  "gradient_tape/Const:Const",
                                  "gradient_tape/Tile:Tile",
                                  "gradient_tape/Const_1:Const",
                                  "gradient_tape/truediv:RealDiv",
                                  "gradient_tape/mul/Mul:Mul",
                                  "gradient_tape/TanhGrad:TanhGrad",
                                  "gradient_tape/add/Shape:Const",
                                  "gradient_tape/add/Shape_1:Const",
                                  "gradient_tape/add/Sum/reduction_indices:Const",
                                  "gradient_tape/add/Sum:Sum",
                                  "gradient_tape/add/Reshape:Reshape",
                                  "gradient_tape/MatMul/MatMul:MatMul",
                                  "Identity:Identity",
                                  "Identity_1:Identity"}));
  EXPECT_EQ(inputs_of(*cf, "gradient_tape/TanhGrad"), (Strings{"Tanh", "gradient_tape/mul/Mul"}));
  EXPECT_EQ(inputs_of(*cf, "gradient_tape/add/Reshape"),
            (Strings{"gradient_tape/add/Sum", "gradient_tape/add/Shape_1"}));
  EXPECT_EQ(inputs_of(*cf, "gradient_tape/MatMul/MatMul"),
            (Strings{"x", "gradient_tape/TanhGrad"}));
  Node* mm = cf->graph()->find_node("gradient_tape/MatMul/MatMul");
  EXPECT_TRUE(std::get<bool>(mm->attrs.at("transpose_a")));
  EXPECT_TRUE(std::get<bool>(mm->attrs.at("grad_b")));

  // The values: d/dw and d/db of mean(2 tanh(x.w + b)) with everything ones: tanh(5) everywhere,
  // each of the 6 outputs weighted 2/6.
  Value out = f->call({ones({2, 4}), ones({4, 3}), ones({3})});
  const double t = std::tanh(5.0), d = (1 - t * t) * 2.0 / 6.0;
  auto gw = out.items()[0].as_tensor().to_vector<float>();
  auto gb = out.items()[1].as_tensor().to_vector<float>();
  ASSERT_EQ(gw.size(), 12u);
  ASSERT_EQ(gb.size(), 3u);
  for (float v : gw) EXPECT_NEAR(v, 2 * d, 1e-6);
  for (float v : gb) EXPECT_NEAR(v, 2 * d, 1e-6);
}

}  // namespace
}  // namespace tfs

namespace tfs {
namespace {

TEST(GraphGradient, TfGradientsIsTFsGraph) {
  // @tf.function
  // def f(x, y):
  //   return tf.gradients(x * y + tf.exp(x), [x, y])
  auto f = function("gg_tf_gradients", {"x", "y"}, [](Tensor x, Tensor y) {
    Tensor xy = multiply(x, y);  // before exp(x), as Python evaluates it
    auto g = graph_gradients({add(xy, Value(exp(x)))}, {x, y});
    return Value::list({Value(std::get<Tensor>(g[0])), Value(std::get<Tensor>(g[1]))});
  });
  auto cf = f->get_concrete_function({ones({2}), ones({})});
  // TF 2.21's graph for the program above, node by node.
  EXPECT_EQ(
      ops_of(*cf),
      (std::vector<std::string>{
          "x:Placeholder", "y:Placeholder", "mul:Mul", "Exp:Exp", "add:AddV2",
          "gradients/Shape:Const", "gradients/grad_ys_0/Const:Const", "gradients/grad_ys_0:Fill",
          "gradients/mul_grad/Mul:Mul", "gradients/mul_grad/Mul_1:Mul",
          "gradients/mul_grad/Shape:Const", "gradients/mul_grad/Shape_1:Const",
          "gradients/mul_grad/Sum/reduction_indices:Const", "gradients/mul_grad/Sum:Sum",
          "gradients/mul_grad/Reshape:Reshape", "gradients/Exp_grad/mul:Mul", "gradients/AddN:AddN",
          "Identity:Identity", "Identity_1:Identity"}));
  // d/dx = y + exp(x) = 1 + e, d/dy = sum(x) = 2.
  Value r = f->call({ones({2}), ones({})});
  EXPECT_FLOAT_EQ(r.items()[0].as_tensor().to_vector<float>()[0], 1.0f + std::exp(1.0f));
  EXPECT_FLOAT_EQ(r.items()[1].as_tensor().to_vector<float>()[0], 2.0f);
}

TEST(GraphGradient, TfGradientsEagerlyIsTFsRuntimeError) {
  try {
    graph_gradients({ones({})}, {ones({})});
    FAIL() << "expected RuntimeError";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.python_type()), "RuntimeError");
    EXPECT_EQ(std::string(e.what()),
              "tf.gradients is not supported when eager execution is enabled. Use "
              "tf.GradientTape instead.");
  }
}

}  // namespace
}  // namespace tfs

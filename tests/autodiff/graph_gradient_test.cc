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

// The graph TF 2.21's grappler makes of a function, against TF's own optimized graphs: each
// expectation below is TF's after_MetaOptimizer dump (TF_DUMP_GRAPH_PREFIX with
// TF_CPP_VMODULE=meta_optimizer=1) of the same function traced by TF with [64,32] float32
// arguments, its computing nodes as "name Op(data inputs)" (_Arg, Const and _Retval left out).
// conformance/cases/ops_grappler_bits.py compares the numbers the plans compute with TF's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "tfscope/cpu_info.h"
#include "tfscope/executor.h"
#include "tfscope/function.h"
#include "tfscope/grappler.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

std::vector<std::string> computing_nodes(const grappler::Item& item) {
  std::vector<std::string> out;
  for (auto& n : item.graph->nodes()) {
    if (n->op() == "Placeholder" || n->op() == "Const") continue;
    std::string line = n->name + " " + n->op() + "(";
    for (size_t i = 0; i < n->inputs.size(); ++i) {
      const Output& in = n->inputs[i];
      line += (i ? ", " : "") + in.node->name + (in.index ? ":" + std::to_string(in.index) : "");
    }
    out.push_back(line + ")");
  }
  std::sort(out.begin(), out.end());  // the order of the nodes is no part of what they compute
  return out;
}

grappler::Item optimized(const Function& f) {
  const GraphFunction& fn = f.concrete_functions()[0]->graph_function();
  return grappler::optimize(fn.graph, fn.args, fn.outputs, fn.control_outputs);
}

Tensor arg(float lo, float hi, int seed) {
  std::vector<float> v(64 * 32);
  uint32_t s = static_cast<uint32_t>(seed) * 2654435761u + 1;
  for (auto& e : v) {
    s = s * 1664525u + 1013904223u;
    e = lo + (hi - lo) * static_cast<float>(s >> 8) / static_cast<float>(1u << 24);
  }
  return Tensor::from_vector(v, Shape({64, 32}));
}

struct Lines : std::vector<std::string> {
  Lines(std::initializer_list<std::string> l) : std::vector<std::string>(l) {
    std::sort(begin(), end());
  }
};

TEST(Grappler, DivisionByAConstantBecomesAProductWithItsReciprocal) {
  auto f = function("div_const", {"x"}, [](Tensor x) { return x / 3.0; });
  Tensor x = arg(-3, 3, 1);
  Tensor y = f->call({x}).as_tensor();
  auto item = optimized(*f);
  EXPECT_EQ(computing_nodes(item), (Lines{"truediv Mul(ConstantFolding/truediv_recip, x)"}));
  // The reciprocal is folded as TF's Reciprocal kernel computes it: 1/3 rounded to float.
  Node* recip = item.graph->find_node("ConstantFolding/truediv_recip");
  ASSERT_NE(recip, nullptr);
  EXPECT_EQ(recip->op(), "Const");
  const float r = std::get<Tensor>(recip->attrs.at("value")).data<float>()[0];
  EXPECT_EQ(r, 1.0f / 3.0f);
  // And the function computes x * (1/3), not x / 3 (the two differ in some elements).
  int differ_from_division = 0;
  for (int64_t i = 0; i < x.num_elements(); ++i) {
    EXPECT_EQ(y.data<float>()[i], x.data<float>()[i] * r);
    differ_from_division += y.data<float>()[i] != x.data<float>()[i] / 3.0f;
  }
  EXPECT_GT(differ_from_division, 0);
}

TEST(Grappler, LayerNormDividesByTheRsqrt) {
  auto f = function("layernorm", {"x"}, [](Tensor x) {
    Tensor m = reduce_mean(x, std::vector<int64_t>{-1}, true);
    Tensor v = reduce_mean(square(x - m), std::vector<int64_t>{-1}, true);
    return (x - m) / sqrt(v + 1e-6);
  });
  f->call({arg(0.1f, 3, 2)});
  // TF keeps the second of the two equal Subs (sub_1) where tfscope keeps the first: the order
  // TF's model pruner leaves the nodes in decides it; the values are the same.
  EXPECT_EQ(computing_nodes(optimized(*f)),
            (Lines{"Mean Mean(x, Mean/reduction_indices)", "sub Sub(x, Mean)", "Square Square(sub)",
                   "Mean_1 Mean(Square, Mean/reduction_indices)", "add AddV2(Mean_1, add/y)",
                   "Sqrt Rsqrt(add)", "truediv Mul(Sqrt, sub)"}));
}

TEST(Grappler, SquareOfADifferenceIsSquaredDifference) {
  auto f = function("sqdiff", {"x"}, [](Tensor x) { return square(x - 1.0); });
  Tensor x = arg(-3, 3, 6);
  Tensor y = f->call({x}).as_tensor();
  // FuseSquaredDiff retypes the Sub and makes the Square an Identity (pruned); CSE then sorts
  // the now commutative op's inputs by name.
  EXPECT_EQ(computing_nodes(optimized(*f)), (Lines{"sub SquaredDifference(sub/y, x)"}));
  for (int64_t i = 0; i < x.num_elements(); ++i) {
    const float d = x.data<float>()[i] - 1.0f;
    EXPECT_EQ(y.data<float>()[i], d * d);
  }
}

TEST(Grappler, LogOfSoftmaxIsLogSoftmax) {
  auto f = function("logsm", {"x"}, [](Tensor x) { return log(softmax(x)); });
  f->call({arg(-3, 3, 7)});
  EXPECT_EQ(computing_nodes(optimized(*f)), (Lines{"Log LogSoftmax(x)"}));
}

TEST(Grappler, PowersBecomeUnaryOpsAndTheSumOneAddN) {
  auto f = function("pow2", {"x"}, [](Tensor x) {
    // Made one after the other, as Python evaluates the expression (node names follow).
    Tensor a = tf_pow(x, 2.0);
    Tensor b = tf_pow(x, 0.5);
    Tensor sum = a + b;
    return sum + pow(x, 3.0);
  });
  f->call({arg(0.1f, 3, 3)});
  // x**3's inner Square(x) is the same node as Pow's Square(x) once the dependency optimizer
  // has dropped their control edges from the exponent constants: the second iteration's common
  // subgraph elimination merges them.
  EXPECT_EQ(computing_nodes(optimized(*f)),
            (Lines{"Pow Square(x)", "Pow_1 Sqrt(x)", "pow_2 Mul(Pow, x)",
                   "ArithmeticOptimizer/AddOpsRewrite_add_1 AddN(Pow, Pow_1, pow_2)"}));
}

TEST(Grappler, AddNSumsItsInputsSortedByName) {
  auto xyx = function("xyx", {"x", "y"}, [](Tensor x, Tensor y) { return x + y + x; });
  xyx->call({arg(-1, 1, 4), arg(-1, 1, 5)});
  EXPECT_EQ(computing_nodes(optimized(*xyx)),
            (Lines{"ArithmeticOptimizer/AddOpsRewrite_add_1 AddN(x, x, y)"}));
  auto yxx = function("yxx", {"x", "y"}, [](Tensor x, Tensor y) {
    Tensor s = y + x + x;
    return s + y * 2.0;
  });
  yxx->call({arg(-1, 1, 4), arg(-1, 1, 5)});
  EXPECT_EQ(
      computing_nodes(optimized(*yxx)),
      (Lines{"mul Mul(mul/y, y)", "ArithmeticOptimizer/AddOpsRewrite_add_2 AddN(mul, x, x, y)"}));
}

TEST(Grappler, AddNSumsFirstTheIntermediateItTakesTheBufferOf) {
  // AddN(a, a, c, mul): TF's kernel forwards mul's buffer (an intermediate result used once;
  // the arguments are held by the caller) and swaps it with input 0, so it sums
  // ((mul + a) + c) + a: measured on TF 2.21 (conformance/cases/ops_grappler_bits.py).
  auto f = function("four", {"a", "c"}, [](Tensor a, Tensor c) {
    Tensor s = c + a + a;
    return s + c * 2.0;
  });
  Tensor a = arg(-10, 10, 13), c = arg(-10, 10, 14);
  Tensor y = f->call({a, c}).as_tensor();
  auto item = optimized(*f);
  EXPECT_EQ(
      computing_nodes(item),
      (Lines{"mul Mul(c, mul/y)", "ArithmeticOptimizer/AddOpsRewrite_add_2 AddN(a, a, c, mul)"}));
  int differ_from_in_order = 0;
  for (int64_t i = 0; i < a.num_elements(); ++i) {
    const float av = a.data<float>()[i], cv = c.data<float>()[i], m = cv * 2.0f;
    EXPECT_EQ(y.data<float>()[i], ((m + av) + cv) + av) << i;
    differ_from_in_order += y.data<float>()[i] != ((av + av) + cv) + m;
  }
  EXPECT_GT(differ_from_in_order, 0);
}

TEST(Grappler, MixedShapesSumPerShapeThenFromTheSmallest) {
  auto f = function("mixed", {"x", "y"}, [](Tensor x, Tensor y) {
    Tensor s = x + reduce_sum(y, std::vector<int64_t>{0});
    return s + 2.0 + y;
  });
  f->call({arg(-1, 1, 6), arg(-1, 1, 7)});
  EXPECT_EQ(
      computing_nodes(optimized(*f)),
      (Lines{"Sum Sum(y, Sum/reduction_indices)",
             "ArithmeticOptimizer/AddOpsRewrite_Leaf_2_add_2 AddN(x, y)",
             "ArithmeticOptimizer/AddOpsRewrite_Internal_0_add_2 AddV2(Sum, add_1/y)",
             "ArithmeticOptimizer/AddOpsRewrite_add_2 AddV2(ArithmeticOptimizer/"
             "AddOpsRewrite_Internal_0_add_2, ArithmeticOptimizer/AddOpsRewrite_Leaf_2_add_2)"}));
}

TEST(Grappler, MulOfATensorByItselfIsASquare) {
  auto chain = function("chain", {"x"}, [](Tensor x) {
    Tensor a = x * 2.0;
    Tensor b = x * x;
    Tensor sum = a + b;
    return sum + 1.0;
  });
  chain->call({arg(-1, 1, 8)});
  EXPECT_EQ(computing_nodes(optimized(*chain)),
            (Lines{"mul Mul(mul/y, x)", "ArithmeticOptimizer/ReplaceMulWithSquare_mul_1 Square(x)",
                   "ArithmeticOptimizer/AddOpsRewrite_Leaf_1_add_1 AddN("
                   "ArithmeticOptimizer/ReplaceMulWithSquare_mul_1, mul)",
                   "ArithmeticOptimizer/AddOpsRewrite_add_1 AddV2("
                   "ArithmeticOptimizer/AddOpsRewrite_Leaf_1_add_1, add_1/y)"}));
  auto sumsq = function("mean_sq", {"x"},
                        [](Tensor x) { return reduce_sum(x * x, std::vector<int64_t>{1}); });
  sumsq->call({arg(-1, 1, 8)});
  EXPECT_EQ(
      computing_nodes(optimized(*sumsq)),
      (Lines{"ArithmeticOptimizer/ReplaceMulWithSquare_mul Square(x)",
             "Sum Sum(ArithmeticOptimizer/ReplaceMulWithSquare_mul, Sum/reduction_indices)"}));
}

TEST(Grappler, ConstantsArePushedDownAndBroadcastsMinimized) {
  // gelu's tanh form, each node made in the order Python makes it.
  auto gelu = function("gelu_tanh", {"x"}, [](Tensor x) {
    Tensor mul = multiply(0.5, x);
    Tensor p = tf_pow(x, 3.0);
    Tensor mul_1 = multiply(0.044715, p);
    Tensor sum = add(x, mul_1);
    Tensor mul_2 = multiply(0.7978845608, sum);
    Tensor t = tanh(mul_2);
    Tensor add_1 = add(1.0, t);
    return multiply(mul, add_1);
  });
  gelu->call({arg(-3, 3, 11)});
  // Iteration 1: MinimizeBroadcasts rebuilds mul_3 = (0.5 x) add_1 as (0.5 add_1) x, ConvertPow
  // makes Pow x * Square(x); iteration 2: constant folding pushes 0.044715 down into it and
  // MinimizeBroadcasts moves the Square next to the constant.
  EXPECT_EQ(
      computing_nodes(optimized(*gelu)),
      (Lines{"ArithmeticOptimizer/ConvertPow__inner_Pow Square(x)",
             "Pow Mul(mul_1/x, ArithmeticOptimizer/ConvertPow__inner_Pow)", "mul_1 Mul(Pow, x)",
             "add AddV2(mul_1, x)", "mul_2 Mul(add, mul_2/x)", "Tanh Tanh(mul_2)",
             "add_1 AddV2(Tanh, add_1/x)", "mul Mul(add_1, mul/x)", "mul_3 Mul(mul, x)"}));
  auto log_exp = function("log1p", {"x"}, [](Tensor x) {
    Tensor l = log(add(1.0, x));
    Tensor sum = l + exp(x);
    return sum - 1.0;
  });
  log_exp->call({arg(0.1f, 3, 12)});
  // (Exp + Log) - 1 becomes Exp + (Log - 1); TF names the new sum's op "Add" (the legacy op, whose
  // kernel for floats is AddV2's). The two constants 1 are one after CSE.
  EXPECT_EQ(
      computing_nodes(optimized(*log_exp)),
      (Lines{"Exp Exp(x)", "Log Log1p(x)", "add_1 Sub(Log, add/x)", "sub Add(Exp, add_1)"}));
}

TEST(Grappler, SwishIsOneOpWhereTfRunsOneDnn) {
  auto f = function("swish", {"x"}, [](Tensor x) { return x * sigmoid(x); });
  f->call({arg(-10, 10, 15)});
  // TF's dumps: with oneDNN "mul _MklSwish(x)"; with TF_ENABLE_ONEDNN_OPTS=0 the Mul of the
  // Sigmoid, its inputs sorted.
  if (tf_onednn_enabled()) {
    EXPECT_EQ(computing_nodes(optimized(*f)), (Lines{"mul _MklSwish(x)"}));
  } else {
    EXPECT_EQ(computing_nodes(optimized(*f)), (Lines{"Sigmoid Sigmoid(x)", "mul Mul(Sigmoid, x)"}));
  }
}

TEST(Grappler, UnknownDimsAreSymbolsOfTheirSource) {
  // With input_signature [None, 4], TF's dump (the three outputs of one function):
  //   sub Expm1(x); mul Mul(Tanh, mul/x); mul_1 Mul(mul, x)
  // and Log(|x| + 1) as Log1p (which TF then composes with the Abs into one
  // _UnaryOpsComposition node, the same functions in the same order).
  FunctionOptions opts;
  opts.input_signature = std::vector<Value>{TensorSpec(PartialShape{-1, 4}, DType::kFloat32)};
  auto f = function(
      "sym", {"x"},
      [](Tensor x) {
        Tensor l = log(abs(x) + 1.0);
        Tensor e = exp(x) - 1.0;
        Tensor m = multiply(0.5, x);
        Tensor t = tanh(x);
        return std::vector<Tensor>{l, e, multiply(m, t)};
      },
      opts);
  f->call({Tensor::from_vector(std::vector<float>(12, 0.5f), Shape({3, 4}))});
  EXPECT_EQ(computing_nodes(optimized(*f)),
            (Lines{"Abs Abs(x)", "Log Log1p(Abs)", "sub Expm1(x)", "Tanh Tanh(x)",
                   "mul Mul(Tanh, mul/x)", "mul_1 Mul(mul, x)"}));
}

TEST(Grappler, AGraphNothingRewritesIsRunAsTraced) {
  auto f = function("softmax_hand", {"x"}, [](Tensor x) {
    Tensor e = exp(x - reduce_max(x, std::vector<int64_t>{-1}, true));
    return e / reduce_sum(e, std::vector<int64_t>{-1}, true);
  });
  f->call({arg(-1, 1, 10)});
  EXPECT_EQ(computing_nodes(optimized(*f)),
            (Lines{"Max Max(x, Max/reduction_indices)", "sub Sub(x, Max)", "Exp Exp(sub)",
                   "Sum Sum(Exp, Max/reduction_indices)", "truediv RealDiv(Exp, Sum)"}));
}

}  // namespace
}  // namespace tfs

// The executor plans graphs as TF's grappler rewrites them before running a function: a Transpose
// of a matrix product's operand is folded into the product's transpose attribute
// (ArithmeticOptimizer's FoldTransposeIntoMatMul), which chooses the kernel, and so the float
// sums, TF runs (conformance/cases/ops_matmul_bits.py compares the result with TF's bits).
#include <gtest/gtest.h>

#include "tfscope/executor.h"
#include "tfscope/function.h"
#include "tfscope/graph.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

int64_t count_ops(const ConcreteFunction& cf, const std::string& op) {
  int64_t n = 0;
  for (auto& node : cf.graph()->nodes()) n += node->op() == op;
  return n;
}

TEST(ExecutorFold, TransposeOfAMatMulOperandIsReadThrough) {
  auto f = function("f", {"x"}, [](Tensor x) { return matmul(x, transpose(x)); });
  Tensor x = Tensor::from_vector<float>({1, 2, 3, 4, 5, 6}, Shape({2, 3}));
  Tensor y = f->call({x}).as_tensor();
  // x x^T = [[1+4+9, 4+10+18], [., 16+25+36]]
  EXPECT_EQ(y.to_vector<float>(), (std::vector<float>{14, 32, 32, 77}));
  auto cf = f->concrete_functions()[0];
  // The traced graph keeps its Transpose, as TF's concrete function graph does; the plan runs
  // the MatMul alone (the Transpose and its perm Const are no longer needed).
  EXPECT_EQ(count_ops(*cf, "Transpose"), 1);
  auto plan = Executor::for_function(cf->graph_function(), nullptr);
  EXPECT_EQ(plan->num_steps(), 1);  // the MatMul (grappler prunes the output Identity)
}

TEST(ExecutorFold, OnlyInnerMatrixTransposesFold) {
  // A rank-3 transpose that moves the batch dimension is not a matrix transpose.
  auto f = function("f", {"x"}, [](Tensor x) {
    return matmul(transpose(x, std::vector<int64_t>{1, 0, 2}), x);
  });
  Tensor x = Tensor::from_vector<float>(std::vector<float>(8, 1.0f), Shape({2, 2, 2}));
  Tensor y = f->call({x}).as_tensor();
  EXPECT_EQ(y.to_vector<float>(), std::vector<float>(8, 2.0f));
  auto plan = Executor::for_function(f->concrete_functions()[0]->graph_function(), nullptr);
  EXPECT_EQ(plan->num_steps(), 3);  // perm Const, Transpose, BatchMatMulV2
}

}  // namespace
}  // namespace tfs

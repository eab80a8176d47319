// Einsum against worked-out numbers (integers: exact in any order). Its float32 bits on random
// data are checked live against TF by conformance/cases/ops_conv_bits.py.
#include <gtest/gtest.h>

#include <vector>

#include "op_test_util.h"

namespace tfs {
namespace {

using ::testing::ElementsAre;
using testing::error_of;
using testing::f32;
using testing::In;
using testing::infer1;
using testing::run1;
using testing::values;

AttrMap eq(const std::string& e, int64_t n) {
  return {{"equation", e}, {"N", n}};
}

TEST(Einsum, BatchedMatMul) {
  // Two batches of [1 x 2] x [2 x 1]: 1*3 + 2*4 and 5*7 + 6*8.
  Tensor a = f32({1, 2, 5, 6}, Shape{2, 1, 2});
  Tensor b = f32({3, 4, 7, 8}, Shape{2, 2, 1});
  Tensor r = run1("Einsum", {a, b}, eq("bij,bjk->bik", 2));
  EXPECT_EQ(r.eager_shape(), (Shape{2, 1, 1}));
  EXPECT_THAT(values<float>(r), ElementsAre(11, 83));
}

TEST(Einsum, ContractsTheLastDimsOfBoth) {
  // 'ij,kj->ik': rows of a against rows of b, as attention scores q k^T.
  Tensor a = f32({1, 2, 3, 4}, Shape{2, 2});
  Tensor b = f32({1, 0, 0, 1, 1, 1}, Shape{3, 2});
  EXPECT_THAT(values<float>(run1("Einsum", {a, b}, eq("ij,kj->ik", 2))),
              ElementsAre(1, 2, 3, 3, 4, 7));
}

TEST(Einsum, OutputInAnyLabelOrder) {
  // 'ij,jk->ki' is (a b)^T.
  Tensor a = f32({1, 2, 3, 4}, Shape{2, 2});
  Tensor b = f32({5, 6, 7, 8}, Shape{2, 2});
  EXPECT_THAT(values<float>(run1("Einsum", {a, b}, eq("ij,jk->ki", 2))),
              ElementsAre(19, 43, 22, 50));
  // 'bhqk,bkhd->bqhd' with batch and head 1: the same product, labels interleaved.
  EXPECT_THAT(
      values<float>(run1("Einsum", {a.reshaped(Shape{1, 1, 2, 2}), b.reshaped(Shape{1, 2, 1, 2})},
                         eq("bhqk,bkhd->bqhd", 2))),
      ElementsAre(19, 22, 43, 50));
}

TEST(Einsum, RowwiseDotAndTranspose) {
  Tensor a = f32({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  EXPECT_THAT(values<float>(run1("Einsum", {a, a}, eq("bi,bi->b", 2))), ElementsAre(14, 77));
  EXPECT_THAT(values<float>(run1("Einsum", {a}, eq("ij->ji", 1))), ElementsAre(1, 4, 2, 5, 3, 6));
}

TEST(Einsum, ShapeFromTheLabels) {
  PartialShape s =
      infer1("Einsum", {In(PartialShape({-1, 4, 8, 16})), In(PartialShape({-1, 4, 32, 16}))},
             eq("bhqd,bhkd->bhqk", 2));
  EXPECT_EQ(s, PartialShape({-1, 4, 8, 32}));
}

TEST(Einsum, ShapeFunctionAndKernelTexts) {
  // TF 2.21: the graph's text (without the NodeDef summary) and the kernel's, for 'ijk,jk->ik'
  // with a [2,3] operand and for contracted sizes 3 and 4.
  auto msg = error_of(
      [] {
        infer1("Einsum", {In(PartialShape({2, 3})), In(PartialShape({4, 5}))}, eq("ijk,jk->ik", 2));
      },
      ErrorKind::kInvalidArgument);
  EXPECT_EQ(msg, "Shape must be rank 3 but is rank 2\n\t for 0th input and equation: ijk,jk->ik");
  msg = error_of(
      [] {
        infer1("Einsum", {In(PartialShape({2, 3})), In(PartialShape({4, 5}))}, eq("ij,jk->ik", 2));
      },
      ErrorKind::kInvalidArgument);
  EXPECT_EQ(msg, "Dimensions must be equal, but are 3 and 4");
  msg = error_of(
      [] {
        run1("Einsum", {f32({0, 0}, Shape{1, 2}), f32({0, 0, 0}, Shape{3, 1})}, eq("ij,jk->ik", 2));
      },
      ErrorKind::kInvalidArgument);
  EXPECT_THAT(msg,
              ::testing::HasSubstr(
                  "Expected dimension 2 at axis 0 of the input shaped [3,1] but got dimension 3"));
}

TEST(Einsum, UnsupportedFormsSayWhat) {
  auto msg = error_of(
      [] {
        run1("Einsum", {f32({1, 2}, Shape{2}), f32({1, 2}, Shape{2})}, eq("i,j->", 2));
      },
      ErrorKind::kUnimplemented);
  EXPECT_EQ(msg, "[ops] einsum 'i,j->': a label summed out of one operand only");
}

}  // namespace
}  // namespace tfs

// Tile and BroadcastTo (tf.tile, tf.broadcast_to) against TF 2.21: values, shape functions and
// error texts recorded from TF on CPU.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "op_test_util.h"
#include "tfscope/ops_array.h"

namespace tfs {
namespace {

using testing::eager_text;
using testing::error_of;
using testing::f32;
using testing::i32;
using testing::i64;
using testing::In;
using testing::infer1;
using testing::run1;
using testing::values;

Value ints(const std::vector<int64_t>& v) {
  ValueList items;
  for (int64_t i : v) items.push_back(Value(i));
  return Value::list(std::move(items));
}

// ---- Tile ----

TEST(Tile, RepeatsEachDimension) {
  Tensor r = run1("Tile", {i32({1, 2, 3, 4}, Shape{2, 2}), i32({2, 3})});
  EXPECT_EQ(r.eager_shape(), (Shape{4, 6}));
  EXPECT_EQ(values<int32_t>(r), (std::vector<int32_t>{1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4,  //
                                                      1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4}));
}

TEST(Tile, StringsAndInt64Multiples) {
  Tensor r = tile(Value(Tensor::strings({"a", "b"}, Shape{2})), Value(i64({2})));
  EXPECT_EQ(r.string_values(), (std::vector<std::string>{"a", "b", "a", "b"}));
}

TEST(Tile, ZeroMultipleGivesEmptyDimension) {
  Tensor r = tile(Value(f32({1.5f, 2.5f}, Shape{2, 1})), ints({0, 2}));
  EXPECT_EQ(r.eager_shape(), (Shape{0, 2}));
}

TEST(Tile, EmptyListMultiplesAreInt32ForAScalar) {
  Tensor r = tile(Value(true), Value::list({}));
  EXPECT_EQ(r.eager_shape(), Shape{});
  EXPECT_TRUE(r.data<bool>()[0]);
}

TEST(Tile, KernelErrorsAreTfsTexts) {
  EXPECT_EQ(error_of(
                [] {
                  run1("Tile", {i32({1, 2}), i32({2, 2})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("Tile",
                       "Expected multiples argument to be a vector of length 1 but got "
                       "length 2"));
  EXPECT_EQ(error_of(
                [] {
                  run1("Tile", {i32({1, 2}), i32({-1})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("Tile", "Expected multiples[0] >= 0, but got -1"));
  EXPECT_EQ(error_of(
                [] {
                  run1("Tile", {i32({1, 2}, Shape{1, 2}), i32({2}, Shape{1, 1})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("Tile", "Expected multiples to be 1-D, but got shape [1,1]"));
}

TEST(Tile, HostOperandErrorsHaveNoNameSuffix) {
  // A host operand sends TF's wrapper down eager_fallback, whose errors end at "[Op:Tile]".
  EXPECT_EQ(error_of(
                [] {
                  tile(ints({1, 2}), ints({2, 2}));
                },
                ErrorKind::kInvalidArgument),
            "{{function_node __wrapped__Tile_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
            "Expected multiples argument to be a vector of length 1 but got length 2 [Op:Tile]");
  EXPECT_EQ(error_of(
                [] {
                  tile(ints({1, 2}), Value::list({Value(2.0)}));
                },
                ErrorKind::kInvalidArgument),
            "Value for attr 'Tmultiples' of float is not in the list of allowed values: int32, "
            "int64\n\t; NodeDef: {{node Tile}}; Op<name=Tile; signature=input:T, "
            "multiples:Tmultiples -> output:T; attr=T:type; attr=Tmultiples:type,default=DT_INT32,"
            "allowed=[DT_INT32, DT_INT64]> [Op:Tile]");
}

TEST(Tile, ShapeFunctionMultipliesKnownDims) {
  EXPECT_EQ(infer1("Tile", {In(PartialShape({2, -1})), In(i32({2, 3}))}), PartialShape({4, -1}));
  EXPECT_EQ(infer1("Tile", {In(PartialShape({-1, -1})), In(i32({0, 1}))}), PartialShape({0, -1}));
  EXPECT_EQ(infer1("Tile", {In(PartialShape({2, -1})), In(PartialShape({2}), DType::kInt32)}),
            PartialShape({-1, -1}));
  EXPECT_EQ(infer1("Tile", {In(PartialShape()), In(i32({2, 3}))}), PartialShape({-1, -1}));
}

TEST(Tile, ShapeFunctionChecksTheRank) {
  EXPECT_EQ(error_of(
                [] {
                  infer1("Tile", {In(PartialShape({3})), In(i32({2, 2}))});
                },
                ErrorKind::kInvalidArgument),
            "Shape must be rank 1 but is rank 2");
}

// ---- BroadcastTo ----

TEST(BroadcastTo, StretchesOnesAndPrependsDims) {
  Tensor r = run1("BroadcastTo", {i32({1, 2}, Shape{2, 1}), i32({2, 2, 3})});
  EXPECT_EQ(r.eager_shape(), (Shape{2, 2, 3}));
  EXPECT_EQ(values<int32_t>(r), (std::vector<int32_t>{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2}));
}

TEST(BroadcastTo, ScalarToEmpty) {
  Tensor r = broadcast_to(Value::list({Value(1.0)}), ints({0, 2}));
  EXPECT_EQ(r.eager_shape(), (Shape{0, 2}));
}

TEST(BroadcastTo, KernelErrorsAreTfsTexts) {
  EXPECT_EQ(error_of(
                [] {
                  run1("BroadcastTo", {i32({1, 2, 3}), i32({2, 2})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("BroadcastTo", "Incompatible shapes: [3] vs. [2,2]"));
  EXPECT_EQ(error_of(
                [] {
                  run1("BroadcastTo", {i32({1, 2}), i32({2, -1})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("BroadcastTo", "Dimension -1 must be >= 0"));
  EXPECT_EQ(error_of(
                [] {
                  run1("BroadcastTo", {i32({1, 2}, Shape{1, 2}), i32({2})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("BroadcastTo",
                       "Rank of input (2) must be no greater than rank of output shape (1)."));
  EXPECT_EQ(error_of(
                [] {
                  run1("BroadcastTo", {i32({1, 2}), i32({2}, Shape{1, 1})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("BroadcastTo", "shape must be a vector of {int32,int64}, got shape [1,1]"));
  EXPECT_EQ(error_of(
                [] {
                  run1("BroadcastTo", {i32({1, 2}, Shape{2, 1}), i32({1, 3})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("BroadcastTo",
                       "Unable to broadcast tensor of shape [2,1] to tensor of shape [1,3]"));
}

TEST(BroadcastTo, ShapeFunction) {
  EXPECT_EQ(infer1("BroadcastTo", {In(PartialShape({-1})), In(i32({2, 3}))}), PartialShape({2, 3}));
  EXPECT_EQ(infer1("BroadcastTo", {In(PartialShape({3})), In(PartialShape({2}), DType::kInt32)}),
            PartialShape({-1, 3}));
  EXPECT_EQ(error_of(
                [] {
                  infer1("BroadcastTo", {In(PartialShape({3})), In(i32({2, 2}))});
                },
                ErrorKind::kInvalidArgument),
            "Dimensions must be equal, but are 3 and 2");
  EXPECT_EQ(
      error_of(
          [] {
            infer1("BroadcastTo", {In(PartialShape({3, 3})), In(PartialShape({1}), DType::kInt32)});
          },
          ErrorKind::kInvalidArgument),
      "Shape must be at most rank 1 but is rank 2");
}

}  // namespace
}  // namespace tfs

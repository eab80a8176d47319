// SquaredDifference, StopGradient, Cumsum and TopKV2 against worked-out numbers and TF 2.21's
// recorded values and error texts (TF 2.21 on CPU; none of these depend on the CPU).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "op_test_util.h"

namespace tfs {
namespace {

using testing::eager_text;
using ::testing::ElementsAre;
using testing::error_of;
using testing::f32;
using testing::i32;
using testing::In;
using testing::infer;
using testing::run;
using testing::run1;
using testing::values;

const float kNaN = std::numeric_limits<float>::quiet_NaN();

// ---- SquaredDifference ----

TEST(SquaredDifference, BroadcastsAndRoundsOnce) {
  Tensor r = run1("SquaredDifference", {f32({1, 2, 3, 4, 5, 6}, Shape{2, 3}), f32({1, 2, 3})});
  EXPECT_THAT(values<float>(r), ElementsAre(0, 0, 0, 9, 9, 9));
  // (1 + 2^-23 - 1)^2 = 2^-46: the difference is exact, its square one rounding.
  Tensor t = run1("SquaredDifference", {f32({1.0f + 0x1p-23f}), f32({1.0f})});
  EXPECT_EQ(values<float>(t)[0], 0x1p-46f);
}

TEST(SquaredDifference, IntegersWrapAsTF) {
  // TF 2.21: squared_difference([65536, -3], [0, 2]) = [0, 25] (2^32 wraps to 0 in int32).
  Tensor r = run1("SquaredDifference", {i32({65536, -3}), i32({0, 2})});
  EXPECT_THAT(values<int32_t>(r), ElementsAre(0, 25));
}

TEST(SquaredDifference, IncompatibleShapesIsTFsError) {
  EXPECT_EQ(error_of(
                [] {
                  run1("SquaredDifference", {f32({1, 2, 3}), f32({1, 2})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("SquaredDifference", "Incompatible shapes: [3] vs. [2]"));
}

TEST(StopGradient, PassesValuesThrough) {
  EXPECT_THAT(values<int32_t>(run1("StopGradient", {i32({1, 2})})), ElementsAre(1, 2));
}

// ---- Cumsum ----

Tensor cumsum(const Tensor& x, int32_t axis, bool exclusive, bool reverse) {
  return run1("Cumsum", {x, Tensor::scalar(axis)},
              {{"exclusive", exclusive}, {"reverse", reverse}});
}

TEST(Cumsum, AddsOneValueAtATimeInOrder) {
  // 1e8 + 1 rounds back to 1e8 (the float spacing there is 8): a running sum, not a tree.
  // Values recorded from TF 2.21.
  Tensor x = f32({1e8f, 1, -1e8f, 1});
  EXPECT_THAT(values<float>(cumsum(x, 0, false, false)), ElementsAre(1e8f, 1e8f, 0, 1));
  EXPECT_THAT(values<float>(cumsum(x, 0, true, false)), ElementsAre(0, 1e8f, 1e8f, 0));
  EXPECT_THAT(values<float>(cumsum(x, 0, false, true)), ElementsAre(0, -1e8f, -1e8f, 1));
}

TEST(Cumsum, AlongAMiddleAxis) {
  Tensor x = f32({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, Shape{2, 3, 2});
  EXPECT_THAT(values<float>(cumsum(x, 1, false, false)),
              ElementsAre(1, 2, 4, 6, 9, 12, 7, 8, 16, 18, 27, 30));
  EXPECT_THAT(values<float>(cumsum(x, -2, true, true)),
              ElementsAre(8, 10, 5, 6, 0, 0, 20, 22, 11, 12, 0, 0));
}

TEST(Cumsum, StartsFromPositiveZero) {
  // TF 2.21: cumsum([-0.0, -0.0]) is [+0.0, +0.0], exclusive or not (0 + -0 = +0).
  for (bool exclusive : {false, true}) {
    Tensor r = cumsum(f32({-0.0f, -0.0f}), 0, exclusive, false);
    for (float v : values<float>(r)) EXPECT_FALSE(std::signbit(v));
  }
}

TEST(Cumsum, IntegersWrap) {
  Tensor x = Tensor::from_vector<int8_t>({100, 100});
  EXPECT_THAT(values<int8_t>(cumsum(x, 0, false, false)), ElementsAre(100, -56));
}

TEST(Cumsum, AxisErrorsAreTFs) {
  Tensor x = f32({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  EXPECT_EQ(error_of([&] { cumsum(x, 5, false, false); }, ErrorKind::kInvalidArgument),
            eager_text("Cumsum", "ScanOp: Expected scan axis in the range [-2, 2), but got 5"));
  EXPECT_EQ(error_of(
                [&] {
                  run1("Cumsum", {x, i32({0})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("Cumsum", "ScanOp: axis must be a scalar, not [1]"));
  EXPECT_EQ(
      error_of([] { cumsum(Tensor::scalar(1.0f), 0, false, false); }, ErrorKind::kInvalidArgument),
      eager_text("Cumsum", "ScanOp: Expected scan axis in the range [0, 0), but got 0"));
}

// ---- TopKV2 ----

std::vector<Tensor> top_k(const Tensor& x, int32_t k) {
  return run("TopKV2", {x, Tensor::scalar(k)});
}

TEST(TopK, DescendingWithTiesByIndex) {
  // TF 2.21's docs and its recorded values: equal values come lowest index first; 0 and -0 tie.
  auto r = top_k(i32({1, 1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0}), 3);
  EXPECT_THAT(values<int32_t>(r[1]), ElementsAre(0, 1, 3));
  r = top_k(f32({1, 3, 3, 0, -0.0f, 3}), 4);
  EXPECT_THAT(values<float>(r[0]), ElementsAre(3, 3, 3, 1));
  EXPECT_THAT(values<int32_t>(r[1]), ElementsAre(1, 2, 5, 0));
  r = top_k(f32({0, -0.0f, 0}), 3);  // the k == row length path: a tie sorted by index
  EXPECT_THAT(values<int32_t>(r[1]), ElementsAre(0, 1, 2));
  EXPECT_TRUE(std::signbit(values<float>(r[0])[1]));
}

TEST(TopK, RowsOfAMatrix) {
  auto r = top_k(f32({5, 1, 5, 2, 0, 7, 7, 1}, Shape{2, 4}), 2);
  EXPECT_THAT(values<float>(r[0]), ElementsAre(5, 5, 7, 7));
  EXPECT_THAT(values<int32_t>(r[1]), ElementsAre(0, 2, 1, 2));
  r = top_k(f32({5, 1, 5, 2, 0, 7, 7, 1}, Shape{2, 4}), 1);
  EXPECT_THAT(values<int32_t>(r[1]), ElementsAre(0, 1));
}

TEST(TopK, NaNAsTFsKernelsPlaceThem) {
  // TF 2.21: k == 1 takes Eigen's row maximum (NaN skipped here) and its first index;
  // k == the row length is std::sort on "greater", whose comparisons are false with NaN.
  auto r = top_k(f32({1, kNaN, 3, 0}), 1);
  EXPECT_THAT(values<float>(r[0]), ElementsAre(3));
  EXPECT_THAT(values<int32_t>(r[1]), ElementsAre(2));
  r = top_k(f32({1, kNaN, 3, 0, kNaN, 2}), 6);
  EXPECT_THAT(values<int32_t>(r[1]), ElementsAre(2, 0, 1, 3, 4, 5));
}

TEST(TopK, KernelErrorsAreTFs) {
  Tensor x = f32({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  EXPECT_EQ(error_of([&] { top_k(x, 5); }, ErrorKind::kInvalidArgument),
            eager_text("TopKV2", "input must have at least k columns. Had 3, needed 5"));
  EXPECT_EQ(error_of([&] { top_k(x, -1); }, ErrorKind::kInvalidArgument),
            eager_text("TopKV2", "Need k >= 0, got -1"));
  EXPECT_EQ(error_of([] { top_k(Tensor::scalar(1.0f), 1); }, ErrorKind::kInvalidArgument),
            eager_text("TopKV2", "input must be >= 1-D, got shape []"));
}

TEST(TopK, ShapeFunctionAsTFs) {
  auto s = infer("TopKV2", {In(PartialShape({4, -1})), In(Tensor::scalar(int32_t{2}))});
  EXPECT_EQ(s[0], PartialShape({4, 2}));
  EXPECT_EQ(s[1], PartialShape({4, 2}));
  s = infer("TopKV2",
            {In(PartialShape({4, 3})), In(PartialShape(std::vector<int64_t>{}), DType::kInt32)});
  EXPECT_EQ(s[0], PartialShape({4, -1}));
  EXPECT_EQ(error_of(
                [] {
                  infer("TopKV2", {In(PartialShape({4, 3})), In(Tensor::scalar(int32_t{5}))});
                },
                ErrorKind::kInvalidArgument),
            "input must have last dimension >= k = 5 but is 3");
  EXPECT_EQ(error_of(
                [] {
                  infer("TopKV2", {In(PartialShape({4, 3})), In(Tensor::scalar(int32_t{-1}))});
                },
                ErrorKind::kInvalidArgument),
            "Dimension size, given by scalar input 1, must be non-negative but is -1");
  EXPECT_EQ(error_of(
                [] {
                  infer("TopKV2", {In(PartialShape({4, 3})), In(i32({1}))});
                },
                ErrorKind::kInvalidArgument),
            "Input must be scalar but has rank 1");
}

}  // namespace
}  // namespace tfs

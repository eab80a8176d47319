// Split, SplitV, Where, OneHot, GatherNd, ScatterNd, TensorScatterUpdate, Pad, PadV2, MirrorPad,
// ReverseV2 and MatrixDiagV3 against worked-out values and TF 2.21's recorded values and error
// texts (TF 2.21 on CPU; these kernels only move values, so nothing depends on the CPU).
#include <gtest/gtest.h>

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

Tensor iota(int64_t rows, int64_t cols) {
  std::vector<float> v(static_cast<size_t>(rows * cols));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
  return f32(v, Shape{rows, cols});
}

TEST(Split, EqualPiecesAlongAnAxis) {
  auto r = run("Split", {Tensor::scalar(int32_t{1}), iota(2, 4)}, {{"num_split", int64_t{2}}});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_THAT(values<float>(r[0]), ElementsAre(0, 1, 4, 5));
  EXPECT_THAT(values<float>(r[1]), ElementsAre(2, 3, 6, 7));
}

TEST(Split, ErrorsAreTFs) {
  // TF 2.21, tf.split(x of shape [4, 6], 4, axis=1) and axis=2.
  auto split = [](int32_t axis, int64_t n) {
    run("Split", {Tensor::scalar(axis), iota(4, 6)}, {{"num_split", n}});
  };
  EXPECT_EQ(error_of([&] { split(1, 4); }, ErrorKind::kInvalidArgument),
            "{{function_node __wrapped__Split_num_split_4_device_/job:localhost/replica:0/task:0/"
            "device:CPU:0}} Number of ways to split should evenly divide the split dimension, but "
            "got split_dim 1 (size = 6) and num_split 4 [Op:Split] name: ");
  EXPECT_THAT(error_of([&] { split(2, 2); }, ErrorKind::kInvalidArgument),
              ::testing::HasSubstr("-input rank(-2) <= split_dim < input rank (2), but got 2"));
}

TEST(SplitV, MinusOneTakesTheRest) {
  auto r = run("SplitV", {iota(2, 4), i32({1, -1}), Tensor::scalar(int32_t{1})},
               {{"num_split", int64_t{2}}});
  EXPECT_EQ(r[1].eager_shape(), (Shape{2, 3}));
  EXPECT_THAT(values<float>(r[1]), ElementsAre(1, 2, 3, 5, 6, 7));
  EXPECT_THAT(error_of(
                  [] {
                    run("SplitV", {iota(2, 4), i32({-1, -1}), Tensor::scalar(int32_t{1})},
                        {{"num_split", int64_t{2}}});
                  },
                  ErrorKind::kInvalidArgument),
              ::testing::HasSubstr("There can only be one -1 in the input."));
}

TEST(SplitV, ShapeFunctionAsTFs) {
  auto s =
      infer("SplitV", {In(PartialShape({4, 6})), In(i32({2, -1})), In(Tensor::scalar(int32_t{1}))},
            {{"num_split", int64_t{2}}});
  EXPECT_EQ(s[1], PartialShape({4, 4}));
  EXPECT_EQ(error_of(
                [] {
                  infer("SplitV",
                        {In(PartialShape({4, 6})), In(i32({2, 3})), In(Tensor::scalar(int32_t{1}))},
                        {{"num_split", int64_t{2}}});
                },
                ErrorKind::kInvalidArgument),
            "can't split axis of size 6 into pieces of size [2,3]");
}

TEST(Where, CoordinatesOfTrueElements) {
  Tensor r = run1("Where", {f32({1, 0, 0, 2}, Shape{2, 2})});
  EXPECT_EQ(r.eager_shape(), (Shape{2, 2}));
  EXPECT_THAT(values<int64_t>(r), ElementsAre(0, 0, 1, 1));
}

TEST(OneHot, OutOfRangeIndicesAreAllOff) {
  // TF 2.21: one_hot([0, -1, 5, 2], 3) has rows of zeros for -1 and 5.
  Tensor r = run1(
      "OneHot",
      {i32({0, -1, 5, 2}), Tensor::scalar(int32_t{3}), Tensor::scalar(1.0f), Tensor::scalar(0.0f)},
      {{"axis", int64_t{-1}}});
  EXPECT_THAT(values<float>(r), ElementsAre(1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1));
  Tensor a0 =
      run1("OneHot",
           {i32({0, 2}), Tensor::scalar(int32_t{3}), Tensor::scalar(1.0f), Tensor::scalar(0.0f)},
           {{"axis", int64_t{0}}});
  EXPECT_EQ(a0.eager_shape(), (Shape{3, 2}));
  EXPECT_THAT(values<float>(a0), ElementsAre(1, 0, 0, 0, 0, 1));
}

TEST(OneHot, ErrorsAreTFs) {
  auto one_hot = [](int32_t depth, int64_t axis) {
    run1("OneHot", {i32({1}), Tensor::scalar(depth), Tensor::scalar(1.0f), Tensor::scalar(0.0f)},
         {{"axis", axis}});
  };
  EXPECT_THAT(error_of([&] { one_hot(-1, -1); }, ErrorKind::kInvalidArgument),
              ::testing::HasSubstr("depth must be non-negative, got: -1"));
  EXPECT_THAT(error_of([&] { one_hot(3, 2); }, ErrorKind::kInvalidArgument),
              ::testing::HasSubstr("Expected axis to be -1 or between [0, 2).  But received: 2"));
}

TEST(GatherNd, ElementsAndSlices) {
  EXPECT_THAT(values<float>(run1("GatherNd", {iota(4, 6), i32({0, 1, 2, 3}, Shape{2, 2})})),
              ElementsAre(1, 15));
  EXPECT_THAT(values<float>(run1("GatherNd", {iota(2, 3), i32({1}, Shape{1, 1})})),
              ElementsAre(3, 4, 5));
  EXPECT_EQ(
      error_of(
          [] {
            run1("GatherNd", {iota(4, 6), i32({0, 9}, Shape{1, 2})});
          },
          ErrorKind::kInvalidArgument),
      "{{function_node __wrapped__GatherNd_device_/job:localhost/replica:0/task:0/device:CPU:0}}"
      " indices[0] = [0, 9] does not index into param shape [4,6], node name: GatherNd "
      "[Op:GatherNd] name: ");
}

TEST(ScatterNd, DuplicatesAddInIndexOrder) {
  // TF 2.21: scatter_nd([[1], [1]], [2., 3.], [4]) = [0, 5, 0, 0].
  Tensor r = run1("ScatterNd", {i32({1, 1}, Shape{2, 1}), f32({2, 3}), i32({4})});
  EXPECT_THAT(values<float>(r), ElementsAre(0, 5, 0, 0));
  EXPECT_EQ(error_of(
                [] {
                  run1("ScatterNd", {i32({5}, Shape{1, 1}), f32({2}), i32({4})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("ScatterNd", "indices[0] = [5] does not index into shape [4]"));
}

TEST(TensorScatterUpdate, LastDuplicateWins) {
  Tensor r = run1("TensorScatterUpdate", {f32({0, 0, 0}), i32({1, 1}, Shape{2, 1}), f32({1, 2})});
  EXPECT_THAT(values<float>(r), ElementsAre(0, 2, 0));
}

TEST(Pad, ConstantAndMirrorModes) {
  Tensor t = i32({1, 2, 3}, Shape{1, 3});
  Tensor p = i32({0, 0, 2, 2}, Shape{2, 2});
  EXPECT_THAT(values<int32_t>(run1("Pad", {t, p})), ElementsAre(0, 0, 1, 2, 3, 0, 0));
  EXPECT_THAT(values<int32_t>(run1("PadV2", {t, p, Tensor::scalar(int32_t{7})})),
              ElementsAre(7, 7, 1, 2, 3, 7, 7));
  // TF 2.21: REFLECT leaves the edge out, SYMMETRIC repeats it.
  EXPECT_THAT(values<int32_t>(run1("MirrorPad", {t, p}, {{"mode", std::string("REFLECT")}})),
              ElementsAre(3, 2, 1, 2, 3, 2, 1));
  EXPECT_THAT(values<int32_t>(run1("MirrorPad", {t, p}, {{"mode", std::string("SYMMETRIC")}})),
              ElementsAre(2, 1, 1, 2, 3, 3, 2));
}

TEST(Pad, ErrorsAreTFs) {
  Tensor x = iota(4, 6);
  EXPECT_THAT(error_of(
                  [&] {
                    run1("Pad", {x, i32({-1, 0, 0, 0}, Shape{2, 2})});
                  },
                  ErrorKind::kInvalidArgument),
              ::testing::HasSubstr("Paddings must be non-negative: -1 0"));
  EXPECT_THAT(error_of(
                  [&] {
                    run1("Pad", {x, i32({1, 1}, Shape{1, 2})});
                  },
                  ErrorKind::kInvalidArgument),
              ::testing::HasSubstr(
                  "The first dimension of paddings must be the rank of inputs[1,2] [4,6]"));
  EXPECT_THAT(
      error_of(
          [&] {
            run1("MirrorPad", {x, i32({4, 0, 0, 0}, Shape{2, 2})},
                 {{"mode", std::string("REFLECT")}});
          },
          ErrorKind::kInvalidArgument),
      ::testing::HasSubstr("paddings must be less than the dimension size: 4, 0 not less than 4"));
  EXPECT_EQ(error_of(
                [&] {
                  infer("Pad", {In(PartialShape({4, 6})), In(i32({-1, 0, 0, 0}, Shape{2, 2}))});
                },
                ErrorKind::kInvalidArgument),
            "Paddings must be non-negative");
}

TEST(ReverseV2, AxesAndErrors) {
  EXPECT_THAT(values<float>(run1("ReverseV2", {iota(2, 3), i32({-1})})),
              ElementsAre(2, 1, 0, 5, 4, 3));
  EXPECT_THAT(values<float>(run1("ReverseV2", {iota(2, 3), i32({0, 1})})),
              ElementsAre(5, 4, 3, 2, 1, 0));
  EXPECT_THAT(error_of(
                  [] {
                    run1("ReverseV2", {iota(2, 3), i32({1, 1})});
                  },
                  ErrorKind::kInvalidArgument),
              ::testing::HasSubstr("axis 1 specified more than once."));
  EXPECT_THAT(error_of(
                  [] {
                    run1("ReverseV2", {iota(2, 3), i32({2})});
                  },
                  ErrorKind::kInvalidArgument),
              ::testing::HasSubstr("'axis'[0] = 2 is out of valid range [0, 1"));
}

TEST(MatrixDiagV3, MainDiagonal) {
  Tensor r =
      run1("MatrixDiagV3", {f32({1, 2}), Tensor::scalar(int32_t{0}), Tensor::scalar(int32_t{-1}),
                            Tensor::scalar(int32_t{-1}), Tensor::scalar(0.0f)});
  EXPECT_EQ(r.eager_shape(), (Shape{2, 2}));
  EXPECT_THAT(values<float>(r), ElementsAre(1, 0, 0, 2));
}

}  // namespace
}  // namespace tfs

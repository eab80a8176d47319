// Array ops: eager results, shape inference with unknown dims, and TF 2.21's error texts (the
// texts and shapes were taken from real TF; see each test's comment for the TF call).
#include "op_test_util.h"
#include "tfscope/cpu_info.h"
#include "tfscope/ops_array.h"

namespace tfs {
namespace {

using namespace tfs::testing;  // NOLINT
using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr int64_t U = PartialShape::kUnknown;
const DType I32 = DType::kInt32;
const PartialShape kScalar(std::vector<int64_t>{});

// ---- ExpandDims ----

TEST(ExpandDims, InsertsAxisAtNegativeIndex) {
  Tensor y = run1("ExpandDims", {i32({1, 2}, Shape{1, 2}), si32(-1)});
  EXPECT_EQ(y.eager_shape(), (Shape{1, 2, 1}));
  EXPECT_THAT(values<int32_t>(y), ElementsAre(1, 2));
}

TEST(ExpandDims, AcceptsOneElementVectorDim) {
  EXPECT_EQ(run1("ExpandDims", {i32({1, 2}, Shape{1, 2}), i32({1})}).eager_shape(),
            (Shape{1, 1, 2}));
}

TEST(ExpandDims, OutOfRangeDimFailsWithTfText) {
  auto msg = error_of(
      [] {
        run1("ExpandDims", {i32({1, 2}, Shape{1, 2}), si32(-4)});
      },
      ErrorKind::kInvalidArgument);
  EXPECT_EQ(msg,
            eager_text("ExpandDims", "Tried to expand dim index -4 for tensor with 2 dimensions."));
}

TEST(ExpandDims, MultiElementDimFails) {
  auto msg = error_of(
      [] {
        run1("ExpandDims", {i32({1, 2}, Shape{1, 2}), i32({0, 1})});
      },
      ErrorKind::kInvalidArgument);
  EXPECT_EQ(msg, eager_text("ExpandDims", "'dim' must be a tensor with a single value"));
}

TEST(ExpandDims, ShapeKeepsUnknownDims) {
  EXPECT_EQ(infer1("ExpandDims", {PartialShape{U, 3}, si32(1)}), (PartialShape{U, 1, 3}));
}

TEST(ExpandDims, ShapeUnknownWithoutDimValueOrRank) {
  EXPECT_EQ(infer1("ExpandDims", {PartialShape{U, 3}, In(kScalar, I32)}), PartialShape());
  EXPECT_EQ(infer1("ExpandDims", {PartialShape(), si32(0)}), PartialShape());
}

TEST(ExpandDims, ShapeFnRejectsOutOfRangeDim) {
  auto msg = error_of(
      [] {
        infer1("ExpandDims", {PartialShape{2, 3}, si32(3)});
      },
      ErrorKind::kInvalidArgument);
  EXPECT_EQ(msg, "dim 3 not in the interval [-3, 2].");
}

// ---- Squeeze ----

TEST(Squeeze, RemovesAllSizeOneDimsByDefault) {
  Tensor y = run1("Squeeze", {Tensor::zeros(DType::kFloat32, Shape{1, 2, 1, 3, 1})});
  EXPECT_EQ(y.eager_shape(), (Shape{2, 3}));
}

TEST(Squeeze, ExplicitDimsMayRepeatThroughNegativeIndex) {
  Tensor y = run1("Squeeze", {Tensor::zeros(DType::kFloat32, Shape{1, 2})},
                  {{"squeeze_dims", std::vector<int64_t>{0, -2}}});
  EXPECT_EQ(y.eager_shape(), (Shape{2}));
}

TEST(Squeeze, NonUnitDimFailsWithTfText) {
  auto msg = error_of(
      [] {
        run1("Squeeze", {i32({1, 2}, Shape{1, 2})}, {{"squeeze_dims", std::vector<int64_t>{1}}});
      },
      ErrorKind::kInvalidArgument);
  EXPECT_EQ(msg, eager_text("Squeeze", "Can not squeeze dim[1], expected a dimension of 1, got 2"));
}

TEST(Squeeze, OutOfRangeDimFailsWithTfText) {
  auto msg = error_of(
      [] {
        run1("Squeeze", {i32({1, 2}, Shape{1, 2})}, {{"squeeze_dims", std::vector<int64_t>{2}}});
      },
      ErrorKind::kInvalidArgument);
  EXPECT_EQ(msg,
            eager_text("Squeeze", "Tried to squeeze dim index 2 for tensor with 2 dimensions."));
}

TEST(Squeeze, ShapeUnknownWhenSqueezingAllPastAnUnknownDim) {
  EXPECT_EQ(infer1("Squeeze", {PartialShape{1, U, 3}}), PartialShape());
}

TEST(Squeeze, ShapeAssumesExplicitUnknownDimIsOne) {
  EXPECT_EQ(infer1("Squeeze", {PartialShape{1, U, 3}}, {{"squeeze_dims", std::vector<int64_t>{1}}}),
            (PartialShape{1, 3}));
  EXPECT_EQ(infer1("Squeeze", {PartialShape{1, U, 1}}, {{"squeeze_dims", std::vector<int64_t>{0}}}),
            (PartialShape{U, 1}));
}

TEST(Squeeze, ShapeFnRejectsOutOfRangeDim) {
  auto msg = error_of(
      [] {
        infer1("Squeeze", {PartialShape{1, 2}}, {{"squeeze_dims", std::vector<int64_t>{2}}});
      },
      ErrorKind::kInvalidArgument);
  EXPECT_EQ(msg, "squeeze_dims[0] not in [-2,2).");
}

// ---- Transpose ----

TEST(Transpose, PermutesRank3) {
  // tf.transpose(tf.reshape(tf.range(6), [1, 2, 3]), [2, 0, 1])
  Tensor x = i32({0, 1, 2, 3, 4, 5}, Shape{1, 2, 3});
  Tensor y = run1("Transpose", {x, i32({2, 0, 1})});
  EXPECT_EQ(y.eager_shape(), (Shape{3, 1, 2}));
  EXPECT_THAT(values<int32_t>(y), ElementsAre(0, 3, 1, 4, 2, 5));
}

TEST(Transpose, NegativePermWraps) {
  Tensor y = run1("Transpose", {i32({1, 2, 3}, Shape{1, 3}), i32({-1, -2})});
  EXPECT_EQ(y.eager_shape(), (Shape{3, 1}));
}

TEST(Transpose, TransposesStrings) {
  Tensor x = Tensor::strings({"a", "b", "c", "d"}, Shape{2, 2});
  Tensor y = run1("Transpose", {x, i32({1, 0})});
  EXPECT_THAT(y.string_values(), ElementsAre("a", "c", "b", "d"));
}

TEST(Transpose, PermErrorsMatchTf) {
  Tensor x = i32({1, 2}, Shape{1, 2});
  EXPECT_EQ(error_of(
                [&] {
                  run1("Transpose", {x, i32({0})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("Transpose",
                       "transpose expects a vector of size 2. But input(1) is a vector of size 1"));
  EXPECT_EQ(error_of(
                [&] {
                  run1("Transpose", {x, i32({0, 2})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("Transpose", "2 is out of range [0 .. 2)"));
  EXPECT_EQ(error_of(
                [&] {
                  run1("Transpose", {x, i32({-3, 0})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("Transpose", "-1 is out of range [0 .. 2)"));
  EXPECT_EQ(error_of(
                [&] {
                  run1("Transpose", {x, i32({1, 1})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("Transpose", "0 is missing from {1,1}."));
  EXPECT_EQ(error_of(
                [&] {
                  run1("Transpose", {x, i32({1, 0}, Shape{1, 2})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("Transpose", "perm must be rank 1, got shape [1,2]"));
}

TEST(Transpose, ShapeWithKnownPermKeepsUnknownDims) {
  EXPECT_EQ(infer1("Transpose", {PartialShape{2, U, 4}, i32({2, 0, 1})}), (PartialShape{4, 2, U}));
}

TEST(Transpose, ShapeRankFromInputOrPerm) {
  EXPECT_EQ(infer1("Transpose", {PartialShape{2, U, 4}, In(PartialShape{3}, I32)}),
            (PartialShape{U, U, U}));
  EXPECT_EQ(infer1("Transpose", {PartialShape(), i32({1, 0})}), (PartialShape{U, U}));
  EXPECT_EQ(infer1("Transpose", {PartialShape(), In(PartialShape{2}, I32)}), (PartialShape{U, U}));
}

TEST(Transpose, ShapeFnRejectsPermOfWrongSize) {
  auto msg = error_of(
      [] {
        infer1("Transpose", {PartialShape{2, 3}, i32({0, 1, 2})});
      },
      ErrorKind::kInvalidArgument);
  EXPECT_EQ(msg, "Dimension must be 2 but is 3");
}

// ---- ConcatV2 ----

TEST(ConcatV2, ConcatenatesAlongInnerAxis) {
  Tensor a = i32({1, 2, 3, 4}, Shape{2, 2}), b = i32({5, 6}, Shape{2, 1});
  Tensor y = run1("ConcatV2", {a, b, si32(-1)});
  EXPECT_EQ(y.eager_shape(), (Shape{2, 3}));
  EXPECT_THAT(values<int32_t>(y), ElementsAre(1, 2, 5, 3, 4, 6));
}

TEST(ConcatV2, ConcatenatesAlongOuterAxisWithOneElementAxisVector) {
  Tensor y = run1("ConcatV2", {i32({1}), i32({2, 3}), i32({0})});
  EXPECT_THAT(values<int32_t>(y), ElementsAre(1, 2, 3));
}

TEST(ConcatV2, KernelErrorsMatchTf) {
  // TF names the wrapped function ConcatV2_N_2; the message after it is compared here.
  auto msg = [](std::vector<Tensor> in) {
    return error_of([&] { run1("ConcatV2", in); }, ErrorKind::kInvalidArgument);
  };
  EXPECT_THAT(msg({i32({1, 2}, Shape{1, 2}), i32({1}), si32(0)}),
              HasSubstr("}} ConcatOp : Ranks of all input tensors should match: shape[0] = [1,2] "
                        "vs. shape[1] = [1] [Op:ConcatV2] name: "));
  EXPECT_THAT(msg({i32({1, 2}, Shape{1, 2}), i32({1, 2, 3}, Shape{1, 3}), si32(0)}),
              HasSubstr("}} ConcatOp : Dimension 1 in both shapes must be equal: shape[0] = [1,2] "
                        "vs. shape[1] = [1,3] [Op:ConcatV2]"));
  EXPECT_THAT(msg({i32({1, 2}, Shape{1, 2}), i32({1, 2}, Shape{1, 2}), si32(-3)}),
              HasSubstr("}} ConcatOp : Expected concatenating dimensions in the range [-2, 2), but "
                        "got -3 [Op:ConcatV2]"));
  EXPECT_THAT(
      msg({si32(1), si32(2), si32(0)}),
      HasSubstr("}} ConcatOp : Can't concatenate scalars (use tf.stack instead) [Op:ConcatV2]"));
}

TEST(ConcatV2, MixedDtypesFailAsInTfEager) {
  auto msg = error_of(
      [] {
        run1("ConcatV2", {i32({1}), f32({2}), si32(0)});
      },
      ErrorKind::kInvalidArgument);
  EXPECT_EQ(msg,
            "cannot compute ConcatV2 as input #1(zero-based) was expected to be a int32 tensor but "
            "is a float tensor [Op:ConcatV2] name: ");
}

TEST(ConcatV2, ShapeSumsAxisAndMergesOthers) {
  EXPECT_EQ(infer1("ConcatV2", {PartialShape{2, U}, PartialShape{3, 5}, si32(0)}),
            (PartialShape{5, 5}));
  EXPECT_EQ(infer1("ConcatV2", {PartialShape{U, 3}, PartialShape{2, 3}, si32(0)}),
            (PartialShape{U, 3}));
  EXPECT_EQ(infer1("ConcatV2", {PartialShape{2, 3}, PartialShape{2, U}, si32(-1)}),
            (PartialShape{2, U}));
  EXPECT_EQ(infer1("ConcatV2", {PartialShape(), PartialShape{2, 3}, si32(1)}),
            (PartialShape{2, U}));
}

TEST(ConcatV2, ShapeWithUnknownAxisKeepsRank) {
  EXPECT_EQ(infer1("ConcatV2", {PartialShape{2, 3}, PartialShape{2, 3}, In(kScalar, I32)}),
            (PartialShape{U, U}));
}

TEST(ConcatV2, ShapeFnErrorsMatchTf) {
  EXPECT_EQ(error_of(
                [] {
                  infer1("ConcatV2", {PartialShape{2, 3}, PartialShape{2, 4}, si32(0)});
                },
                ErrorKind::kInvalidArgument),
            "Dimension 0 in both shapes must be equal, but are 3 and 4. Shapes are [3] and [4].");
  EXPECT_EQ(error_of(
                [] {
                  infer1("ConcatV2", {PartialShape{2, 3}, PartialShape{2}, si32(0)});
                },
                ErrorKind::kInvalidArgument),
            "Shape must be rank 2 but is rank 1");
  EXPECT_EQ(error_of(
                [] {
                  infer1("ConcatV2", {PartialShape{2, 3}, PartialShape{2, 3}, si32(2)});
                },
                ErrorKind::kInvalidArgument),
            "Shape must be at least rank 3 but is rank 2");
}

// ---- Pack / Unpack ----

TEST(Pack, StacksAlongLastAxis) {
  Tensor y = run1("Pack", {i32({1, 2}), i32({3, 4})}, {{"axis", int64_t{-1}}});
  EXPECT_EQ(y.eager_shape(), (Shape{2, 2}));
  EXPECT_THAT(values<int32_t>(y), ElementsAre(1, 3, 2, 4));
}

TEST(Pack, KernelErrorsMatchTf) {
  EXPECT_THAT(error_of(
                  [] {
                    run1("Pack", {i32({1, 2}), i32({1})});
                  },
                  ErrorKind::kInvalidArgument),
              HasSubstr("}} Shapes of all inputs must match: values[0].shape = [2] != "
                        "values[1].shape = [1] [Op:Pack]"));
  EXPECT_THAT(error_of(
                  [] {
                    run1("Pack", {i32({1, 2}), i32({1, 3})}, {{"axis", int64_t{3}}});
                  },
                  ErrorKind::kInvalidArgument),
              HasSubstr("}} axis = 3 not in [-2, 2) [Op:Pack]"));
}

TEST(Pack, ShapeMergesInputsAndInsertsCount) {
  EXPECT_EQ(infer1("Pack", {PartialShape{U, 3}, PartialShape{2, U}}, {{"axis", int64_t{1}}}),
            (PartialShape{2, 2, 3}));
  EXPECT_EQ(infer1("Pack", {PartialShape(), PartialShape()}), PartialShape());
}

TEST(Pack, ShapeFnErrorsMatchTf) {
  EXPECT_EQ(error_of(
                [] {
                  infer1("Pack", {PartialShape{2}, PartialShape{3}});
                },
                ErrorKind::kInvalidArgument),
            "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2] and [3].\n\t"
            "From merging shape 0 with other shapes.");
  EXPECT_EQ(error_of(
                [] {
                  infer1("Pack", {PartialShape{2}, PartialShape{2}}, {{"axis", int64_t{2}}});
                },
                ErrorKind::kInvalidArgument),
            "Invalid axis: 2; must be in [-2,2)");
}

TEST(Unpack, SplitsAlongNegativeAxis) {
  auto ys = run("Unpack", {i32({1, 2, 3, 4, 5, 6}, Shape{2, 3})},
                {{"num", int64_t{3}}, {"axis", int64_t{-1}}});
  ASSERT_EQ(ys.size(), 3u);
  EXPECT_THAT(values<int32_t>(ys[0]), ElementsAre(1, 4));
  EXPECT_THAT(values<int32_t>(ys[2]), ElementsAre(3, 6));
}

TEST(Unpack, KernelErrorsMatchTf) {
  Tensor x = i32({1, 2, 3, 4}, Shape{2, 2});
  EXPECT_THAT(error_of(
                  [&] {
                    run("Unpack", {x}, {{"num", int64_t{3}}});
                  },
                  ErrorKind::kInvalidArgument),
              HasSubstr("}} Input shape axis 0 must equal 3, got shape [2,2] [Op:Unpack]"));
  EXPECT_THAT(error_of(
                  [&] {
                    run("Unpack", {x}, {{"num", int64_t{2}}, {"axis", int64_t{2}}});
                  },
                  ErrorKind::kInvalidArgument),
              HasSubstr("}} axis = 2 not in [-2, 2) [Op:Unpack]"));
  EXPECT_THAT(error_of(
                  [&] {
                    run("Unpack", {si32(1)}, {{"num", int64_t{1}}});
                  },
                  ErrorKind::kInvalidArgument),
              HasSubstr("}} axis = 0 not in [0, 0) [Op:Unpack]"));
}

TEST(Unpack, ShapeGivesEveryOutputTheRemainingDims) {
  auto s = infer("Unpack", {PartialShape{U, 3}}, {{"num", int64_t{3}}, {"axis", int64_t{1}}});
  EXPECT_THAT(s, ElementsAre(PartialShape{U}, PartialShape{U}, PartialShape{U}));
  EXPECT_THAT(infer("Unpack", {PartialShape()}, {{"num", int64_t{2}}}),
              ElementsAre(PartialShape(), PartialShape()));
}

TEST(Unpack, ShapeFnRejectsWrongNum) {
  EXPECT_EQ(
      error_of(
          [] {
            infer("Unpack", {PartialShape{2, 3}}, {{"num", int64_t{4}}, {"axis", int64_t{1}}});
          },
          ErrorKind::kInvalidArgument),
      "Dimension must be 4 but is 3");
}

// ---- Slice ----

TEST(Slice, MinusOneSizeTakesTheRest) {
  Tensor x = i32({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  Tensor y = run1("Slice", {x, i32({1, 1}), i32({1, -1})});
  EXPECT_EQ(y.eager_shape(), (Shape{1, 2}));
  EXPECT_THAT(values<int32_t>(y), ElementsAre(5, 6));
}

TEST(Slice, Int64IndicesWork) {
  Tensor y = run1("Slice", {i32({1, 2, 3}), i64({1}), i64({2})});
  EXPECT_THAT(values<int32_t>(y), ElementsAre(2, 3));
}

TEST(Slice, KernelErrorsMatchTf) {
  Tensor x = i32({1, 2, 3}, Shape{1, 3});
  EXPECT_EQ(error_of(
                [&] {
                  run1("Slice", {x, i32({0, 1}), i32({1, 3})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("Slice", "Expected size[1] in [0, 2], but got 3"));
  EXPECT_EQ(error_of(
                [&] {
                  run1("Slice", {x, i32({0, 4}), i32({1, -1})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("Slice", "Expected begin[1] in [0, 3], but got 4"));
  EXPECT_EQ(error_of(
                [&] {
                  run1("Slice", {x, i32({0, 0}), i32({1, -2})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("Slice", "Expected size[1] in [0, 3], but got -2"));
  EXPECT_EQ(error_of(
                [&] {
                  run1("Slice", {x, i32({0, 0}), i32({1})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("Slice",
                       "Expected begin and size arguments to be 1-D tensors of size 2, but got "
                       "shapes [2] and [1] instead."));
}

TEST(Slice, ShapeFromConstantBeginAndSize) {
  EXPECT_EQ(infer1("Slice", {PartialShape{4, U, 6}, i32({1, 0, 2}), i32({2, -1, -1})}),
            (PartialShape{2, U, 4}));
}

TEST(Slice, ShapeWithUnknownBeginOrSize) {
  EXPECT_EQ(infer1("Slice", {PartialShape{4, U, 6}, In(PartialShape{3}, I32), i32({2, -1, 1})}),
            (PartialShape{2, U, 1}));
  EXPECT_EQ(infer1("Slice", {PartialShape{4, U, 6}, i32({1, 0, 2}), In(PartialShape{3}, I32)}),
            (PartialShape{U, U, U}));
  EXPECT_EQ(
      infer1("Slice", {PartialShape{4, U, 6}, In(PartialShape{3}, I32), In(PartialShape{U}, I32)}),
      (PartialShape{U, U, U}));
  EXPECT_EQ(infer1("Slice", {PartialShape(), In(PartialShape{U}, I32), In(PartialShape{U}, I32)}),
            PartialShape());
}

TEST(Slice, ShapeFnErrorsMatchTf) {
  EXPECT_EQ(error_of(
                [] {
                  infer1("Slice", {PartialShape{4, 5}, i32({1, 0}), i32({2, -2})});
                },
                ErrorKind::kInvalidArgument),
            "Invalid value in tensor used for shape: -2");
  EXPECT_EQ(error_of(
                [] {
                  infer1("Slice", {PartialShape{4, 5}, i32({1}), i32({2})});
                },
                ErrorKind::kInvalidArgument),
            "Shape must be rank 1 but is rank 2");
}

// ---- StridedSlice ----

Tensor iota5() {
  return i32({1, 2, 3, 4, 5});
}

TEST(StridedSlice, NegativeStrideWithMasksReverses) {
  Tensor y = run1("StridedSlice", {iota5(), i32({0}), i32({0}), i32({-2})},
                  {{"begin_mask", int64_t{1}}, {"end_mask", int64_t{1}}});
  EXPECT_THAT(values<int32_t>(y), ElementsAre(5, 3, 1));
}

TEST(StridedSlice, NegativeIndicesAndStride) {
  Tensor y = run1("StridedSlice", {iota5(), i32({-1}), i32({-6}), i32({-2})});
  EXPECT_THAT(values<int32_t>(y), ElementsAre(5, 3, 1));
}

TEST(StridedSlice, OutOfRangeBoundsClamp) {
  Tensor y = run1("StridedSlice", {iota5(), i32({-100}), i32({100}), i32({3})});
  EXPECT_THAT(values<int32_t>(y), ElementsAre(1, 4));
}

TEST(StridedSlice, EmptyWhenBeginPastEnd) {
  Tensor y = run1("StridedSlice", {iota5(), i32({3}), i32({1}), i32({1})});
  EXPECT_EQ(y.eager_shape(), (Shape{0}));
}

TEST(StridedSlice, Int16Indices) {
  Tensor b = Tensor::from_vector<int16_t>({0}), e = Tensor::from_vector<int16_t>({2}),
         s = Tensor::from_vector<int16_t>({1});
  EXPECT_THAT(values<int32_t>(run1("StridedSlice", {iota5(), b, e, s})), ElementsAre(1, 2));
}

TEST(StridedSlice, ShrinkAxisTakesOneIndex) {
  // x[1, ::2] on [[0,1,2,3],[4,5,6,7]]
  Tensor x = i32({0, 1, 2, 3, 4, 5, 6, 7}, Shape{2, 4});
  Tensor y = run1("StridedSlice", {x, i32({1, 0}), i32({2, 0}), i32({1, 2})},
                  {{"shrink_axis_mask", int64_t{1}}, {"end_mask", int64_t{2}}});
  EXPECT_EQ(y.eager_shape(), (Shape{2}));
  EXPECT_THAT(values<int32_t>(y), ElementsAre(4, 6));
}

TEST(StridedSlice, ShrinkWithNegativeIndexCountsFromEnd) {
  Tensor y = run1("StridedSlice", {iota5(), i32({-1}), i32({0}), i32({1})},
                  {{"shrink_axis_mask", int64_t{1}}});
  EXPECT_EQ(y.eager_shape(), Shape{});
  EXPECT_EQ(y.item<int32_t>(), 5);
}

TEST(StridedSlice, EllipsisAndNewAxis) {
  // x[..., tf.newaxis, 1:3] on shape (2, 3, 4): TF gives (2, 3, 1, 2).
  std::vector<int32_t> v(24);
  for (int i = 0; i < 24; ++i) v[static_cast<size_t>(i)] = i;
  Tensor x = i32(v, Shape{2, 3, 4});
  Tensor y = run1("StridedSlice", {x, i32({0, 0, 1}), i32({0, 0, 3}), i32({1, 1, 1})},
                  {{"ellipsis_mask", int64_t{1}}, {"new_axis_mask", int64_t{2}}});
  EXPECT_EQ(y.eager_shape(), (Shape{2, 3, 1, 2}));
  EXPECT_THAT(values<int32_t>(y), ElementsAre(1, 2, 5, 6, 9, 10, 13, 14, 17, 18, 21, 22));
}

TEST(StridedSlice, NewAxisOnlyAddsLeadingDim) {
  EXPECT_EQ(run1("StridedSlice", {i32({1, 2, 3}), i32({0}), i32({0}), i32({1})},
                 {{"new_axis_mask", int64_t{1}}})
                .eager_shape(),
            (Shape{1, 3}));
}

TEST(StridedSlice, EmptySpecIsIdentity) {
  Tensor x = Tensor::zeros(DType::kFloat32, Shape{2, 3});
  Tensor none = i32({}, Shape{0});
  EXPECT_EQ(run1("StridedSlice", {x, none, none, none}).eager_shape(), (Shape{2, 3}));
}

TEST(StridedSlice, KernelErrorsMatchTf) {
  auto msg = [](std::vector<Tensor> in, AttrMap a = {}) {
    return error_of([&] { run1("StridedSlice", in, a); }, ErrorKind::kInvalidArgument);
  };
  Tensor x = i32({1, 2, 3});
  EXPECT_EQ(msg({x, i32({0}), i32({2}), i32({0})}),
            eager_text("StridedSlice", "strides[0] must be non-zero"));
  EXPECT_EQ(msg({x, i32({5}), i32({6}), i32({1})}, {{"shrink_axis_mask", int64_t{1}}}),
            eager_text("StridedSlice", "slice index 5 of dimension 0 out of bounds."));
  EXPECT_EQ(msg({x, i32({-4}), i32({-3}), i32({1})}, {{"shrink_axis_mask", int64_t{1}}}),
            eager_text("StridedSlice", "slice index -1 of dimension 0 out of bounds."));
  EXPECT_EQ(msg({x, i32({1}), i32({2}), i32({-1})}, {{"shrink_axis_mask", int64_t{1}}}),
            eager_text("StridedSlice", "only stride 1 allowed on non-range indexing."));
  EXPECT_EQ(msg({x, i32({0, 0}), i32({1, 1}), i32({1, 1})}, {{"ellipsis_mask", int64_t{3}}}),
            eager_text("StridedSlice", "Multiple ellipses in slice spec not allowed"));
  EXPECT_EQ(
      msg({x, i32({0, 0}), i32({1, 1}), i32({1, 1})}),
      eager_text("StridedSlice", "Index out of range using input dim 1; input has only 1 dims"));
  EXPECT_EQ(msg({si32(1), i32({0}), i32({1}), i32({1})}),
            eager_text("StridedSlice", "Attempting to slice scalar input."));
  EXPECT_EQ(msg({x, i32({0, 0}), i32({1}), i32({1})}),
            eager_text("StridedSlice",
                       "Expected begin, end, and strides to be 1D equal size tensors, but got "
                       "shapes [2], [1], and [1] instead."));
}

TEST(StridedSlice, ShapeWithKnownSpec) {
  PartialShape in{10, U, 6};
  EXPECT_EQ(infer1("StridedSlice", {in, i32({1, 0, 0}), i32({8, 2, 6}), i32({2, 1, -1})}),
            (PartialShape{4, U, 0}));
  EXPECT_EQ(
      infer1(
          "StridedSlice", {in, i32({1, 0, 0}), i32({8, 2, 6}), i32({2, 1, 1})},
          {{"begin_mask", int64_t{1}}, {"end_mask", int64_t{4}}, {"shrink_axis_mask", int64_t{2}}}),
      (PartialShape{4, 6}));
  EXPECT_EQ(infer1("StridedSlice", {in, i32({0, 1}), i32({0, 3}), i32({1, 1})},
                   {{"ellipsis_mask", int64_t{1}}}),
            (PartialShape{10, U, 2}));
  EXPECT_EQ(infer1("StridedSlice", {in, i32({0, 0, 1}), i32({0, 0, 3}), i32({1, 1, 1})},
                   {{"new_axis_mask", int64_t{1}}, {"ellipsis_mask", int64_t{2}}}),
            (PartialShape{1, 10, U, 2}));
  EXPECT_EQ(infer1("StridedSlice", {PartialShape{U, 4}, i32({0}), i32({1}), i32({1})},
                   {{"shrink_axis_mask", int64_t{1}}}),
            (PartialShape{4}));
}

TEST(StridedSlice, ShapeWithUnknownBeginUsesMasks) {
  PartialShape in{10, U, 6};
  In unk(PartialShape{2}, I32);
  EXPECT_EQ(infer1("StridedSlice", {in, unk, i32({3, 3}), i32({1, 1})}), (PartialShape{U, U, 6}));
  EXPECT_EQ(infer1("StridedSlice", {in, unk, i32({3, 3}), i32({1, 1})},
                   {{"begin_mask", int64_t{3}}, {"end_mask", int64_t{3}}}),
            (PartialShape{10, U, 6}));
  EXPECT_EQ(infer1("StridedSlice", {in, unk, unk, i32({1, 1})}, {{"shrink_axis_mask", int64_t{1}}}),
            (PartialShape{U, 6}));
}

TEST(StridedSlice, ShapeUnknownWithoutStridesOrRank) {
  EXPECT_EQ(
      infer1("StridedSlice", {PartialShape{10}, i32({1}), i32({3}), In(PartialShape{1}, I32)}),
      PartialShape());
  EXPECT_EQ(infer1("StridedSlice", {PartialShape(), i32({1}), i32({3}), i32({1})}), PartialShape());
}

TEST(StridedSlice, ShapeFnErrorsMatchTf) {
  EXPECT_EQ(error_of(
                [] {
                  infer1("StridedSlice", {PartialShape{3}, i32({3}), i32({4}), i32({1})},
                         {{"shrink_axis_mask", int64_t{1}}});
                },
                ErrorKind::kInvalidArgument),
            "slice index 3 of dimension 0 out of bounds.");
  EXPECT_EQ(error_of(
                [] {
                  infer1("StridedSlice", {PartialShape{3}, i32({0}), i32({1}), i32({0})});
                },
                ErrorKind::kInvalidArgument),
            "strides[0] must be non-zero");
}

TEST(StridedSlice, FrontEndMatchesPythonSlicing) {
  // x[:, -1] on [[1,2,3],[4,5,6]]: begin [0,-1], end [0,0], strides [1,1], begin_mask=1,
  // end_mask=1, shrink_axis_mask=2 (what TF's __getitem__ builds).
  Tensor x = i32({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  Tensor y = strided_slice(x, {0, -1}, {0, 0}, {1, 1}, 1, 1, 0, 0, 2);
  EXPECT_EQ(y.eager_shape(), (Shape{2}));
  EXPECT_THAT(values<int32_t>(y), ElementsAre(3, 6));
  EXPECT_THAT(values<int32_t>(strided_slice(x, {1}, {2}, {})), ElementsAre(4, 5, 6));
}

// ---- GatherV2 ----

TEST(GatherV2, GathersRowsAlongAxis1) {
  Tensor p = i32({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  Tensor y = run1("GatherV2", {p, i32({2, 0, 2}, Shape{3}), si32(1)});
  EXPECT_EQ(y.eager_shape(), (Shape{2, 3}));
  EXPECT_THAT(values<int32_t>(y), ElementsAre(3, 1, 3, 6, 4, 6));
}

TEST(GatherV2, ScalarIndexDropsTheAxis) {
  Tensor p = f32({1, 2, 3, 4}, Shape{2, 2});
  Tensor y = run1("GatherV2", {p, i64({1}).reshaped(Shape{}), si32(0)});
  EXPECT_EQ(y.eager_shape(), (Shape{2}));
  EXPECT_THAT(values<float>(y), ElementsAre(3, 4));
}

TEST(GatherV2, BatchDimsGatherPerBatch) {
  // tf.gather([[1,2,3],[4,5,6]], [[2,0],[1,1]], axis=1, batch_dims=1) -> [[3,1],[5,5]]
  Tensor p = i32({1, 2, 3, 4, 5, 6}, Shape{2, 3}), idx = i32({2, 0, 1, 1}, Shape{2, 2});
  Tensor y = run1("GatherV2", {p, idx, si32(1)}, {{"batch_dims", int64_t{1}}});
  EXPECT_THAT(values<int32_t>(y), ElementsAre(3, 1, 5, 5));
  EXPECT_THAT(values<int32_t>(run1("GatherV2", {p, idx, si32(1)}, {{"batch_dims", int64_t{-1}}})),
              ElementsAre(3, 1, 5, 5));
  EXPECT_THAT(values<int32_t>(gather(p, idx, 1, 1)), ElementsAre(3, 1, 5, 5));
}

TEST(GatherV2, OutOfRangeIndexFailsWithTfText) {
  Tensor p = i32({1, 2, 3});
  EXPECT_EQ(error_of(
                [&] {
                  run1("GatherV2", {p, i32({0, 5}), si32(0)});
                },
                ErrorKind::kInvalidArgument),
            eager_text("GatherV2", "indices[1] = 5 is not in [0, 3)"));
  EXPECT_EQ(error_of(
                [&] {
                  run1("GatherV2", {p, i32({0, 1, 2, -1}, Shape{2, 2}), si32(0)});
                },
                ErrorKind::kInvalidArgument),
            eager_text("GatherV2", "indices[1,1] = -1 is not in [0, 3)"));
  EXPECT_EQ(error_of(
                [&] {
                  run1("GatherV2", {p, si32(7), si32(0)});
                },
                ErrorKind::kInvalidArgument),
            eager_text("GatherV2", "indices = 7 is not in [0, 3)"));
}

TEST(GatherV2, AxisAndBatchDimErrorsMatchTf) {
  Tensor p = i32({1, 2, 3}, Shape{1, 3});
  auto msg = [](std::vector<Tensor> in, int64_t bd = 0) {
    return error_of(
        [&] {
          run1("GatherV2", in, {{"batch_dims", bd}});
        },
        ErrorKind::kInvalidArgument);
  };
  EXPECT_EQ(msg({p, i32({0}), si32(2)}),
            eager_text("GatherV2", "Shape must be at least rank 3 but is rank 2"));
  EXPECT_EQ(msg({p, i32({0}), i32({0})}), eager_text("GatherV2", "axis must be scalar"));
  EXPECT_EQ(msg({i32({1, 2, 3, 4, 5, 6}, Shape{2, 3}), i32({0}, Shape{1, 1}), si32(1)}, 1),
            eager_text("GatherV2", "params.shape[0]: 2 should be equal to indices.shape[0]: 1"));
  EXPECT_EQ(msg({i32({1, 2, 3}, Shape{1, 1, 3}), i32({0}, Shape{1, 1}), si32(0)}, 1),
            eager_text("GatherV2", "batch_dims (1) must be less than or equal to axis (0)."));
  EXPECT_EQ(msg({p, i32({0}, Shape{1, 1}), si32(1)}, 3),
            eager_text("GatherV2", "Expected batch_dims in the range [-2, 2], but got 3"));
  EXPECT_EQ(msg({i32({1, 2, 3}), i32({0}, Shape{1, 1}), si32(0)}, 1),
            eager_text("GatherV2", "batch_dims (1) must be less than rank(params) (1)."));
}

TEST(GatherV2, FloatIndicesRejected) {
  // TF 2.21: tf.gather(tf.constant([1., 2.]), tf.constant([0.])).
  EXPECT_EQ(error_of([] { run1("GatherV2", {i32({1, 2}), f32({0}), si32(0)}); },
                     ErrorKind::kInvalidArgument),
            "Value for attr 'Tindices' of float is not in the list of allowed values: int16, "
            "int32, int64\n\t; NodeDef: {{node GatherV2}}; Op<name=GatherV2; "
            "signature=params:Tparams, indices:Tindices, axis:Taxis -> output:Tparams; "
            "attr=batch_dims:int,default=0; attr=Tparams:type; attr=Tindices:type,allowed=[DT_INT16, "
            "DT_INT32, DT_INT64]; attr=Taxis:type,allowed=[DT_INT32, DT_INT64]> [Op:GatherV2] name: ");
}

TEST(GatherV2, ShapeInsertsIndicesShape) {
  EXPECT_EQ(infer1("GatherV2", {PartialShape{5, U, 7}, In(PartialShape{2, U}, I32), si32(1)}),
            (PartialShape{5, 2, U, 7}));
  EXPECT_EQ(infer1("GatherV2", {PartialShape{5, U, 7}, In(PartialShape{2}, I32), si32(-1)}),
            (PartialShape{5, U, 2}));
  EXPECT_EQ(infer1("GatherV2", {PartialShape{5, 6, 7}, In(PartialShape{5, 2}, I32), si32(1)},
                   {{"batch_dims", int64_t{1}}}),
            (PartialShape{5, 2, 7}));
}

TEST(GatherV2, ShapeWithUnknownAxisOrRanks) {
  EXPECT_EQ(
      infer1("GatherV2", {PartialShape{5, U, 7}, In(PartialShape{2, 3}, I32), In(kScalar, I32)}),
      (PartialShape{U, U, U, U}));
  EXPECT_EQ(infer1("GatherV2", {PartialShape(), In(PartialShape{2, 3}, I32), si32(0)}),
            PartialShape());
  EXPECT_EQ(infer1("GatherV2", {PartialShape{5, 6}, In(PartialShape(), I32), si32(0)}),
            PartialShape());
}

TEST(GatherV2, ShapeFnErrorsMatchTf) {
  EXPECT_EQ(error_of(
                [] {
                  infer1("GatherV2", {PartialShape{5, 6}, In(PartialShape{2}, I32), si32(2)});
                },
                ErrorKind::kInvalidArgument),
            "Shape must be at least rank 3 but is rank 2");
  EXPECT_EQ(error_of(
                [] {
                  infer1("GatherV2", {kScalar, In(PartialShape{2}, I32), si32(0)});
                },
                ErrorKind::kInvalidArgument),
            "Shape must be at least rank 1 but is rank 0");
}

// ---- Fill / ZerosLike / OnesLike ----

TEST(Fill, FillsWithScalar) {
  Tensor y = run1("Fill", {i32({2, 3}), Tensor::scalar(1.5f)});
  EXPECT_EQ(y.eager_shape(), (Shape{2, 3}));
  EXPECT_THAT(values<float>(y), ElementsAre(1.5f, 1.5f, 1.5f, 1.5f, 1.5f, 1.5f));
}

TEST(Fill, AcceptsScalarDimsAndStrings) {
  Tensor y = run1("Fill", {si32(2), Tensor::string_scalar("a")});
  EXPECT_THAT(y.string_values(), ElementsAre("a", "a"));
}

TEST(Fill, KernelErrorsMatchTf) {
  EXPECT_EQ(error_of(
                [] {
                  run1("Fill", {i32({1}, Shape{1, 1}), si32(1)});
                },
                ErrorKind::kInvalidArgument),
            eager_text("Fill", "dims must represent a vector, got shape [1,1]"));
  EXPECT_EQ(error_of(
                [] {
                  run1("Fill", {i32({2}), i32({1, 2})});
                },
                ErrorKind::kInvalidArgument),
            eager_text("Fill", "value must represent a scalar, got shape [2]"));
  EXPECT_EQ(error_of(
                [] {
                  run1("Fill", {i32({2, -1}), si32(1)});
                },
                ErrorKind::kInvalidArgument),
            eager_text("Fill", "Dimension -1 must be >= 0"));
}

TEST(Fill, ShapeFromDimsValueOrLength) {
  EXPECT_EQ(infer1("Fill", {i32({2, 3}), Tensor::scalar(1.f)}), (PartialShape{2, 3}));
  EXPECT_EQ(infer1("Fill", {In(PartialShape{3}, I32), Tensor::scalar(1.f)}),
            (PartialShape{U, U, U}));
  EXPECT_EQ(infer1("Fill", {In(PartialShape{U}, I32), Tensor::scalar(1.f)}), PartialShape());
}

TEST(Fill, ShapeFnErrorsMatchTf) {
  EXPECT_EQ(error_of(
                [] {
                  infer1("Fill", {i32({2, -3}), Tensor::scalar(1.f)});
                },
                ErrorKind::kInvalidArgument),
            "Invalid value in tensor used for shape: -3");
  EXPECT_EQ(error_of(
                [] {
                  infer1("Fill", {i32({2}), f32({1})});
                },
                ErrorKind::kInvalidArgument),
            "Shape must be rank 0 but is rank 1");
}

// tf.fill([-1], 1.0) in a tf.function (TF 2.21): the shape function sees the -1 the shape
// tensor evaluates to as an unknown dimension, then rejects it.
TEST(Fill, ShapeFnRejectsMinusOneDimension) {
  EXPECT_EQ(error_of(
                [] {
                  infer1("Fill", {i32({-1}), Tensor::scalar(1.f)});
                },
                ErrorKind::kInvalidArgument),
            "Fill dimensions must be >= 0");
}

// tf.fill([2**62, 4], 1.0) (TF 2.21): refused before anything is allocated.
TEST(Fill, ElementCountPastInt64FailsWithTfText) {
  EXPECT_EQ(
      error_of(
          [] {
            run1("Fill", {i64({int64_t{1} << 62, 4}), Tensor::scalar(1.f)});
          },
          ErrorKind::kInvalidArgument),
      eager_text("Fill", "Shape [4611686018427387904,4] would have more than 2**63 - 1 elements"));
}

// tf.range(2**62) (TF 2.21): the allocator refuses 2**65 bytes, named as TF names its CPU
// allocator (mklcpu with oneDNN, else cpu).
TEST(Range, UnallocatableOutputIsResourceExhausted) {
  const std::string allocator = tf_onednn_enabled() ? "mklcpu" : "cpu";
  EXPECT_EQ(
      error_of(
          [] {
            run1("Range", {Tensor::scalar(int64_t{0}), Tensor::scalar(int64_t{1} << 62),
                           Tensor::scalar(int64_t{1})});
          },
          ErrorKind::kResourceExhausted),
      "{{function_node __wrapped__Range_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
      "OOM when allocating tensor with shape[4611686018427387904] and type int64 on "
      "/job:localhost/replica:0/task:0/device:CPU:0 by allocator " +
          allocator + " [Op:Range] name: ");
}

// tf.zeros([-1]) and tf.ones([3, -2]) (TF 2.21, eager): Fill's kernel error, not a crash.
TEST(Zeros, NegativeDimensionFailsLikeFill) {
  EXPECT_EQ(error_of([] { zeros({-1}, DType::kFloat32); }, ErrorKind::kInvalidArgument),
            eager_text("Fill", "Dimension -1 must be >= 0"));
  EXPECT_EQ(error_of(
                [] {
                  ones({3, -2}, DType::kFloat32);
                },
                ErrorKind::kInvalidArgument),
            eager_text("Fill", "Dimension -2 must be >= 0"));
  EXPECT_EQ(
      error_of(
          [] {
            zeros({int64_t{1} << 62, 4}, DType::kFloat32);
          },
          ErrorKind::kInvalidArgument),
      eager_text("Fill", "Shape [4611686018427387904,4] would have more than 2**63 - 1 elements"));
}

// tf.unstack(tf.constant(1)) (TF 2.21): the wrapper's own axis check.
TEST(Unstack, ScalarHasNoAxisToUnstack) {
  EXPECT_EQ(error_of([] { unstack(Tensor::scalar(1), 0, -1); }, ErrorKind::kValueError),
            "Argument `axis` = 0 not in range [0, 0)");
  EXPECT_EQ(error_of(
                [] {
                  unstack(i32({1, 2}), -2, -1);
                },
                ErrorKind::kValueError),
            "Argument `axis` = -2 not in range [-1, 1)");
}

TEST(ZerosLike, ZerosOfEveryDtype) {
  EXPECT_THAT(values<float>(run1("ZerosLike", {f32({1.5f, -2})})), ElementsAre(0, 0));
  EXPECT_THAT(values<bool>(run1("ZerosLike", {Tensor::from_bools({true}, Shape{1})})),
              ElementsAre(false));
  EXPECT_THAT(run1("ZerosLike", {Tensor::strings({"a", "b"}, Shape{2})}).string_values(),
              ElementsAre("", ""));
  EXPECT_EQ(infer1("ZerosLike", {PartialShape{U, 3}}), (PartialShape{U, 3}));
}

TEST(OnesLike, OnesOfNumbersAndBools) {
  EXPECT_THAT(values<int64_t>(run1("OnesLike", {i64({7, 8, 9})})), ElementsAre(1, 1, 1));
  EXPECT_THAT(values<bool>(run1("OnesLike", {Tensor::from_bools({false}, Shape{1})})),
              ElementsAre(true));
  EXPECT_EQ(infer1("OnesLike", {PartialShape()}), PartialShape());
}

TEST(OnesLike, StringsRejected) {
  // TF: InvalidArgumentError "Value for attr 'T' of string is not in the list of allowed values".
  EXPECT_ANY_THROW(run1("OnesLike", {Tensor::strings({"a"}, Shape{1})}));
}

// ---- Range ----

TEST(Range, IntegerRangeRoundsUp) {
  EXPECT_THAT(values<int32_t>(run1("Range", {si32(1), si32(10), si32(3)})), ElementsAre(1, 4, 7));
  EXPECT_THAT(values<int64_t>(run1("Range", {Tensor::scalar<int64_t>(5), Tensor::scalar<int64_t>(0),
                                             Tensor::scalar<int64_t>(-2)})),
              ElementsAre(5, 3, 1));
}

TEST(Range, FloatValuesAreStartPlusIndexTimesDelta) {
  // tf.range(1.5, -1., -0.3): start + i * delta in float32, not a running sum.
  Tensor y = run1("Range", {Tensor::scalar(1.5f), Tensor::scalar(-1.f), Tensor::scalar(-0.3f)});
  EXPECT_THAT(values<float>(y),
              ElementsAre(1.5f, 1.20000005f, 0.899999976f, 0.599999964f, 0.299999952f, 0.f,
                          -0.300000072f, -0.600000143f, -0.900000095f));
  Tensor z = run1("Range", {Tensor::scalar(0.), Tensor::scalar(1.), Tensor::scalar(0.1)});
  EXPECT_THAT(values<double>(z),
              ElementsAre(0, 0.10000000000000001, 0.20000000000000001, 0.30000000000000004,
                          0.40000000000000002, 0.5, 0.60000000000000009, 0.70000000000000007,
                          0.80000000000000004, 0.90000000000000002));
}

TEST(Range, OneElementVectorOperandsAccepted) {
  EXPECT_THAT(values<int32_t>(run1("Range", {i32({1}), si32(5), si32(1)})),
              ElementsAre(1, 2, 3, 4));
}

TEST(Range, KernelErrorsMatchTf) {
  auto msg = [](std::vector<Tensor> in) {
    return error_of([&] { run1("Range", in); }, ErrorKind::kInvalidArgument);
  };
  EXPECT_EQ(msg({si32(0), si32(5), si32(0)}), eager_text("Range", "Requires delta != 0: 0"));
  EXPECT_EQ(msg({si32(5), si32(0), si32(1)}),
            eager_text("Range", "Requires start <= limit when delta > 0: 5/0"));
  EXPECT_EQ(msg({si32(0), si32(5), si32(-1)}),
            eager_text("Range", "Requires start >= limit when delta < 0: 0/5"));
  EXPECT_EQ(msg({Tensor::scalar(5.5f), Tensor::scalar(0.25f), Tensor::scalar(1.f)}),
            eager_text("Range", "Requires start <= limit when delta > 0: 5.5/0.25"));
  EXPECT_EQ(msg({i32({0, 1}), si32(5), si32(1)}),
            eager_text("Range", "start must be a scalar, not shape [2]"));
}

TEST(Range, ShapeFromConstantOperands) {
  EXPECT_EQ(infer1("Range", {si32(1), si32(10), si32(3)}), (PartialShape{3}));
  EXPECT_EQ(infer1("Range", {Tensor::scalar(0.f), Tensor::scalar(1.f), Tensor::scalar(0.3f)}),
            (PartialShape{4}));
  EXPECT_EQ(infer1("Range", {si32(1), In(kScalar, I32), si32(3)}), (PartialShape{U}));
}

TEST(Range, ShapeFnErrorsMatchTf) {
  EXPECT_EQ(error_of(
                [] {
                  infer1("Range", {si32(10), si32(1), si32(3)});
                },
                ErrorKind::kInvalidArgument),
            "Requires start <= limit when delta > 0: 10/1");
  EXPECT_EQ(error_of(
                [] {
                  infer1("Range", {si32(1), si32(10), si32(0)});
                },
                ErrorKind::kInvalidArgument),
            "Requires delta != 0");
  EXPECT_EQ(error_of(
                [] {
                  infer1("Range", {i32({1}), si32(10), si32(1)});
                },
                ErrorKind::kInvalidArgument),
            "Shape must be rank 0 but is rank 1\n\t for 'start'");
}

TEST(Range, FrontEndInfersWidestDtype) {
  EXPECT_EQ(range(Value(5)).dtype(), DType::kInt32);
  Tensor r = range(Value(0), Value(2.0), Value(0.5));
  EXPECT_EQ(r.dtype(), DType::kFloat32);
  EXPECT_THAT(values<float>(r), ElementsAre(0.f, 0.5f, 1.f, 1.5f));
}

// ---- Size / Rank ----

TEST(Size, CountsElementsOfAnyDtype) {
  EXPECT_EQ(
      run1("Size", {Tensor::strings({"a", "b"}, Shape{2})}, {{"out_type", I32}}).item<int32_t>(),
      2);
  Tensor s = run1("Size", {Tensor::from_bools({true}, Shape{1})}, {{"out_type", DType::kInt64}});
  EXPECT_EQ(s.dtype(), DType::kInt64);
  EXPECT_EQ(s.item<int64_t>(), 1);
  EXPECT_EQ(infer1("Size", {PartialShape{U, 3}}), kScalar);
}

TEST(Rank, GivesInt32Scalar) {
  Tensor r = run1("Rank", {Tensor::strings({"a"}, Shape{1, 1})});
  EXPECT_EQ(r.dtype(), I32);
  EXPECT_EQ(r.item<int32_t>(), 2);
  EXPECT_EQ(infer1("Rank", {PartialShape()}), kScalar);
}

// ---- front ends in api.cc that call these ops ----

TEST(ArrayFrontEnds, StackUnstackConcatRoundTrip) {
  Tensor a = i32({1, 2}), b = i32({3, 4});
  Tensor s = stack({a, b}, 1);
  EXPECT_THAT(values<int32_t>(s), ElementsAre(1, 3, 2, 4));
  auto parts = unstack(s, 1);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_THAT(values<int32_t>(concat(parts, 0)), ElementsAre(1, 2, 3, 4));
}

TEST(ArrayFrontEnds, SliceGatherTransposeSqueezeExpandDims) {
  Tensor x = i32({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  EXPECT_THAT(values<int32_t>(tfs::slice(x, {0, 1}, {2, 1})), ElementsAre(2, 5));
  EXPECT_THAT(values<int32_t>(gather(x, Value::list({Value(1)}), 0)), ElementsAre(4, 5, 6));
  EXPECT_EQ(transpose(x).eager_shape(), (Shape{3, 2}));
  EXPECT_EQ(squeeze(expand_dims(x, 0)).eager_shape(), (Shape{2, 3}));
  EXPECT_THAT(values<float>(fill(Value::list({Value(2)}), Value(0.5))), ElementsAre(0.5f, 0.5f));
  EXPECT_EQ(size(x).item<int32_t>(), 6);
  EXPECT_EQ(size(x, DType::kInt64).dtype(), DType::kInt64);
  EXPECT_EQ(rank(x).item<int32_t>(), 2);
}

}  // namespace
}  // namespace tfs

// Conv2D, DepthwiseConv2dNative, Conv2DBackpropInput, MaxPool and AvgPool against worked-out
// numbers and TF 2.21's recorded texts (none of these depend on the CPU: the inputs are small
// integers, whose sums are exact in any order). Bit-for-bit sums on random data are checked live
// against TF by conformance/cases/ops_conv_bits.py.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "conv_f32.h"
#include "conv_geometry.h"
#include "op_test_util.h"
#include "tfscope/cpu_info.h"

namespace tfs {
namespace {

using testing::eager_text;
using ::testing::ElementsAre;
using testing::error_of;
using testing::f32;
using testing::In;
using testing::infer1;
using testing::run1;
using testing::values;

AttrMap conv_attrs(std::vector<int64_t> strides, const std::string& padding,
                   std::vector<int64_t> explicit_paddings = {},
                   std::vector<int64_t> dilations = {1, 1, 1, 1}) {
  return {{"strides", strides},
          {"padding", padding},
          {"explicit_paddings", explicit_paddings},
          {"data_format", std::string("NHWC")},
          {"dilations", dilations},
          {"use_cudnn_on_gpu", true}};
}

AttrMap pool_attrs(std::vector<int64_t> ksize, std::vector<int64_t> strides,
                   const std::string& padding) {
  return {{"ksize", ksize},
          {"strides", strides},
          {"padding", padding},
          {"data_format", std::string("NHWC")}};
}

// 1..9 as a 1x3x3x1 image.
Tensor nine() {
  return f32({1, 2, 3, 4, 5, 6, 7, 8, 9}, Shape{1, 3, 3, 1});
}

// ---- window geometry ----

TEST(WindowGeometry, SamePadsTheRestAfter) {
  std::string error;
  // in 5, filter 4, stride 2: out 3, padding needed (3 - 1) * 2 + 4 - 5 = 3: 1 before, 2 after.
  auto d = detail::windowed_output(5, 4, 1, 2, detail::Padding::kSame, 0, 0, &error);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->out, 3);
  EXPECT_EQ(d->pad_before, 1);
}

TEST(WindowGeometry, DilationWidensTheFilter) {
  std::string error;
  // filter 3 dilated by 2 spans 5: VALID over 9 gives 5 outputs.
  auto d = detail::windowed_output(9, 3, 2, 1, detail::Padding::kValid, 0, 0, &error);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->out, 5);
  auto e = detail::windowed_output(5, 1, 1, 2, detail::Padding::kExplicit, 1, 2, &error);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->out, 4);  // (5 + 3 - 1 + 2) / 2
  EXPECT_EQ(e->pad_before, 1);
}

TEST(WindowGeometry, NegativeOutputIsTFsKernelError) {
  std::string error;
  EXPECT_FALSE(detail::windowed_output(5, 7, 1, 1, detail::Padding::kValid, 0, 0, &error));
  // TF 2.21, eager conv2d of a 5x5 image with a 7x7 filter, VALID.
  EXPECT_EQ(error,
            "Computed output size would be negative: -1 [input_size: 5, effective_filter_size: 7, "
            "stride: 1]");
}

// ---- Conv2D ----

TEST(Conv2D, ValidSumsEachWindow) {
  Tensor r = run1("Conv2D", {nine(), f32({1, 1, 1, 1}, Shape{2, 2, 1, 1})},
                  conv_attrs({1, 1, 1, 1}, "VALID"));
  EXPECT_EQ(r.eager_shape(), (Shape{1, 2, 2, 1}));
  EXPECT_THAT(values<float>(r), ElementsAre(12, 16, 24, 28));
}

TEST(Conv2D, SamePadsWithZerosAfterWhenOdd) {
  // A 2x2 filter of [[1, 10], [100, 1000]] with SAME padding on a 3x3 image: one row and column
  // of zeros after, so out[r, c] = x[r, c] + 10 x[r, c+1] + 100 x[r+1, c] + 1000 x[r+1, c+1].
  Tensor r = run1("Conv2D", {nine(), f32({1, 10, 100, 1000}, Shape{2, 2, 1, 1})},
                  conv_attrs({1, 1, 1, 1}, "SAME"));
  EXPECT_THAT(values<float>(r), ElementsAre(5421, 6532, 603, 8754, 9865, 906, 87, 98, 9));
}

TEST(Conv2D, StridesDilationsAndExplicitPadding) {
  // Dilation 2 turns the 2x2 filter of ones into the corners of a 3x3 window: 1 + 3 + 7 + 9.
  Tensor d = run1("Conv2D", {nine(), f32({1, 1, 1, 1}, Shape{2, 2, 1, 1})},
                  conv_attrs({1, 1, 1, 1}, "VALID", {}, {1, 2, 2, 1}));
  EXPECT_THAT(values<float>(d), ElementsAre(20));
  // One zero row on top, stride 2 over rows: windows on rows (pad, 1) and (2, 3).
  Tensor e = run1("Conv2D", {nine(), f32({1}, Shape{1, 1, 1, 1})},
                  conv_attrs({1, 2, 1, 1}, "EXPLICIT", {0, 0, 1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(e.eager_shape(), (Shape{1, 2, 3, 1}));
  EXPECT_THAT(values<float>(e), ElementsAre(0, 0, 0, 4, 5, 6));
}

TEST(Conv2D, GroupsConvolveTheirOwnChannels) {
  // Two groups of one channel: output channel 0 sees input channel 0 only, 1 sees 1.
  Tensor x = f32({1, 100, 2, 200}, Shape{1, 1, 2, 2});
  Tensor w = f32({1, 1, 1, 1}, Shape{1, 2, 1, 2});
  Tensor r = run1("Conv2D", {x, w}, conv_attrs({1, 1, 1, 1}, "VALID"));
  EXPECT_THAT(values<float>(r), ElementsAre(3, 300));
}

TEST(Conv2D, IntegersAndDoubles) {
  Tensor xi = Tensor::from_vector(std::vector<int32_t>{1, 2, 3, 4}, Shape{1, 2, 2, 1});
  Tensor wi = Tensor::from_vector(std::vector<int32_t>{1, -1, 2, -2}, Shape{2, 2, 1, 1});
  EXPECT_THAT(values<int32_t>(run1("Conv2D", {xi, wi}, conv_attrs({1, 1, 1, 1}, "VALID"))),
              ElementsAre(1 - 2 + 6 - 8));
  Tensor xd = Tensor::from_vector(std::vector<double>{0.5, 0.25}, Shape{1, 1, 2, 1});
  Tensor wd = Tensor::from_vector(std::vector<double>{2}, Shape{1, 1, 1, 1});
  EXPECT_THAT(values<double>(run1("Conv2D", {xd, wd}, conv_attrs({1, 1, 1, 1}, "SAME"))),
              ElementsAre(1.0, 0.5));
}

// TF 2.21 on float32 with oneDNN on runs Conv2D as its _MklNativeConv2D, and names the wrapper so.
const std::string kConv2DWrapper = tf_onednn_enabled() ? "__MklNativeConv2D" : "Conv2D";

TEST(Conv2D, KernelErrorsAreTFs) {
  auto msg = error_of(
      [] {
        run1("Conv2D", {f32({0, 0, 0}, Shape{1, 1, 1, 3}), f32({0, 0, 0, 0}, Shape{1, 1, 4, 1})},
             conv_attrs({1, 1, 1, 1}, "SAME"));
      },
      ErrorKind::kInvalidArgument);
  EXPECT_EQ(msg,
            eager_text("Conv2D", "input depth must be evenly divisible by filter depth: 3 vs 4",
                       kConv2DWrapper));
  msg = error_of(
      [] {
        run1("Conv2D", {f32({0}, Shape{1, 1, 1}), f32({0}, Shape{1, 1, 1, 1})},
             conv_attrs({1, 1, 1, 1}, "SAME"));
      },
      ErrorKind::kInvalidArgument);
  EXPECT_EQ(msg, eager_text("Conv2D", "convolution input must be 4-dimensional: [1,1,1]",
                            kConv2DWrapper));
}

TEST(Conv2D, ShapeFunctionTexts) {
  // TF 2.21's shape function texts (without the NodeDef summary a graph adds).
  auto msg = error_of(
      [] {
        infer1("Conv2D", {In(PartialShape({1, 5, 5, 3})), In(PartialShape({3, 3, 4, 2}))},
               conv_attrs({1, 1, 1, 1}, "SAME"));
      },
      ErrorKind::kInvalidArgument);
  EXPECT_EQ(msg, "Depth of input (3) is not a multiple of input depth of filter (4)");
  msg = error_of(
      [] {
        infer1("Conv2D", {In(PartialShape({1, 5, 5, 3})), In(PartialShape({7, 7, 3, 2}))},
               conv_attrs({1, 1, 1, 1}, "VALID"));
      },
      ErrorKind::kInvalidArgument);
  EXPECT_EQ(msg, "Negative dimension size caused by subtracting 7 from 5");
  msg = error_of(
      [] {
        infer1("Conv2D", {In(PartialShape({1, 5, 5, 3})), In(PartialShape({3, 3, 3, 2}))},
               conv_attrs({1, 1, 1, 1}, "EXPLICIT", {1, 0, 1, 1, 2, 0, 0, 0}));
      },
      ErrorKind::kInvalidArgument);
  EXPECT_EQ(msg, "Nonzero explicit padding in the batch or depth dimensions is not supported");
}

TEST(Conv2D, ShapeFunctionKeepsKnownDims) {
  PartialShape s =
      infer1("Conv2D", {In(PartialShape({-1, 9, -1, 3})), In(PartialShape({3, 3, 3, 8}))},
             conv_attrs({1, 2, 2, 1}, "SAME"));
  EXPECT_EQ(s, PartialShape({-1, 5, -1, 8}));
}

// ---- DepthwiseConv2dNative ----

TEST(DepthwiseConv2dNative, EachChannelWithItsMultiplierFilters) {
  // Channels (1, 100) at each of 2x1 pixels; a 2x1 filter per channel and multiplier 2:
  // out channel 2c + j = sum over the window of x[., c] * f[., c, j].
  Tensor x = f32({1, 100, 2, 200}, Shape{1, 2, 1, 2});
  Tensor f = f32({1, 2, 3, 4, 10, 20, 30, 40}, Shape{2, 1, 2, 2});
  Tensor r = run1("DepthwiseConv2dNative", {x, f},
                  {{"strides", std::vector<int64_t>{1, 1, 1, 1}},
                   {"padding", std::string("VALID")},
                   {"explicit_paddings", std::vector<int64_t>{}},
                   {"data_format", std::string("NHWC")},
                   {"dilations", std::vector<int64_t>{1, 1, 1, 1}}});
  EXPECT_THAT(values<float>(r), ElementsAre(1 + 20, 2 + 40, 300 + 6000, 400 + 8000));
}

// ---- Conv2DBackpropInput ----

TEST(Conv2DBackpropInput, ScattersEachOutputThroughTheFilter) {
  // The transpose of a VALID stride-2 2x2 conv of a 4x4 image: each of the 2x2 inputs spreads
  // over its own 2x2 block, times the filter [[1, 2], [3, 4]].
  Tensor sizes = Tensor::from_vector(std::vector<int32_t>{1, 4, 4, 1});
  Tensor f = f32({1, 2, 3, 4}, Shape{2, 2, 1, 1});
  Tensor dy = f32({1, 10, 100, 1000}, Shape{1, 2, 2, 1});
  Tensor r = run1("Conv2DBackpropInput", {sizes, f, dy}, conv_attrs({1, 2, 2, 1}, "VALID"));
  EXPECT_EQ(r.eager_shape(), (Shape{1, 4, 4, 1}));
  EXPECT_THAT(values<float>(r),
              ElementsAre(1, 2, 10, 20, 3, 4, 30, 40, 100, 200, 1000, 2000, 300, 400, 3000, 4000));
}

TEST(Conv2DBackpropInput, ShapeIsTheInputSizesValue) {
  Tensor sizes = Tensor::from_vector(std::vector<int32_t>{2, 8, 8, 3});
  PartialShape s =
      infer1("Conv2DBackpropInput",
             {In(sizes), In(PartialShape({3, 3, 3, 5})), In(PartialShape({2, 4, 4, 5}))},
             conv_attrs({1, 2, 2, 1}, "SAME"));
  EXPECT_EQ(s, PartialShape({2, 8, 8, 3}));
}

// ---- MaxPool and AvgPool ----

TEST(MaxPool, TakesTheWindowMaximum) {
  Tensor r = run1("MaxPool", {nine()}, pool_attrs({1, 2, 2, 1}, {1, 1, 1, 1}, "VALID"));
  EXPECT_THAT(values<float>(r), ElementsAre(5, 6, 8, 9));
  Tensor s = run1("MaxPool", {nine()}, pool_attrs({1, 2, 2, 1}, {1, 2, 2, 1}, "SAME"));
  EXPECT_THAT(values<float>(s), ElementsAre(5, 6, 8, 9));
}

TEST(MaxPool, StartsFromTheLowestFloat) {
  // TF 2.21: max_pool2d of -inf gives -3.4028235e38 (the kernel starts at lowest()).
  const float inf = std::numeric_limits<float>::infinity();
  Tensor r = run1("MaxPool", {f32({-inf, -inf, -inf, -inf}, Shape{1, 2, 2, 1})},
                  pool_attrs({1, 2, 2, 1}, {1, 1, 1, 1}, "VALID"));
  EXPECT_THAT(values<float>(r), ElementsAre(std::numeric_limits<float>::lowest()));
}

TEST(AvgPool, SameDividesByTheInputsInTheWindow) {
  // 2x2 windows, stride 1, SAME on 3x3: one padding row and column after, not counted.
  Tensor r = run1("AvgPool", {nine()}, pool_attrs({1, 2, 2, 1}, {1, 1, 1, 1}, "SAME"));
  EXPECT_THAT(values<float>(r), ElementsAre(3, 4, 4.5, 6, 7, 7.5, 7.5, 8.5, 9));
}

TEST(AvgPool, DividesTheSumNotMultipliesByTheInverse) {
  // Three inputs of 1/3's float: their sum divided by 3 rounds to the float of 1/3, where the
  // sum times the float of 1/3 would not; TF's kernel divides.
  const float third = 1.0f / 3.0f;
  Tensor r = run1("AvgPool", {f32({third, third, third}, Shape{1, 1, 3, 1})},
                  pool_attrs({1, 1, 3, 1}, {1, 1, 1, 1}, "VALID"));
  const float sum = (third + third) + third;
  EXPECT_EQ(values<float>(r)[0], sum / 3.0f);
}

TEST(PoolShape, RequiresRankFourAndPositiveStrides) {
  auto msg = error_of(
      [] {
        infer1("MaxPool", {In(PartialShape({5, 5, 3}))},
               pool_attrs({1, 2, 2, 1}, {1, 2, 2, 1}, "VALID"));
      },
      ErrorKind::kInvalidArgument);
  EXPECT_EQ(msg, "Shape must be rank 4 but is rank 3");
  msg = error_of(
      [] {
        infer1("AvgPool", {In(PartialShape({1, 5, 5, 3}))},
               pool_attrs({1, 2, 2, 1}, {1, 0, 0, 1}, "VALID"));
      },
      ErrorKind::kInvalidArgument);
  EXPECT_EQ(msg, "Stride must be > 0, but got 0");
}

}  // namespace
}  // namespace tfs

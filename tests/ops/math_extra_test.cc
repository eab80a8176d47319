// Sign, Floor, Round, AddN, Any, All, ArgMin and the wrappers tf.logical_*, tf.slice and
// tf.clip_by_value, against TF 2.21 (values and error texts recorded from TF on CPU).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "op_test_util.h"

namespace tfs {
namespace {

using ::testing::ElementsAre;
using testing::error_of;
using testing::f32;
using testing::f64;
using testing::i32;
using testing::In;
using testing::infer1;
using testing::run1;
using testing::values;

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

Tensor bools(const std::vector<bool>& v, const Shape& s) {
  Tensor t = Tensor::zeros(DType::kBool, s);
  for (size_t i = 0; i < v.size(); ++i) t.data<bool>()[i] = v[i];
  return t;
}

std::vector<bool> bool_values(const Tensor& t) {
  return std::vector<bool>(t.data<bool>(), t.data<bool>() + t.num_elements());
}

// ---- tf.logical_* ----

TEST(LogicalAnd, BroadcastsBoolTensors) {
  Tensor r = logical_and(Value(bools({true, false}, Shape{2, 1})),
                         Value(bools({true, false, true}, Shape{3})));
  EXPECT_EQ(r.eager_shape(), (Shape{2, 3}));
  EXPECT_EQ(bool_values(r), (std::vector<bool>{true, false, true, false, false, false}));
}

TEST(LogicalAnd, HostOperandsConvertToBool) {
  EXPECT_EQ(bool_values(logical_and(Value::list({Value(true), Value(false)}),
                                    Value::list({Value(true), Value(true)}))),
            (std::vector<bool>{true, false}));
  EXPECT_EQ(error_of([] { logical_and(Value(1), Value(2)); }, ErrorKind::kTypeError),
            "Cannot convert 1 to EagerTensor of dtype bool");
}

TEST(LogicalAnd, NonBoolTensorIsRejectedAsTfDoes) {
  EXPECT_EQ(error_of(
                [] {
                  logical_and(Value(i32({1, 2})), Value(bools({true, false}, Shape{2})));
                },
                ErrorKind::kInvalidArgument),
            "cannot compute LogicalAnd as input #0(zero-based) was expected to be a bool tensor "
            "but is a int32 tensor [Op:LogicalAnd] name: ");
  EXPECT_EQ(error_of([] { logical_not(Value(f32({1.0f}))); }, ErrorKind::kInvalidArgument),
            "cannot compute LogicalNot as input #0(zero-based) was expected to be a bool tensor "
            "but is a float tensor [Op:LogicalNot] name: ");
}

TEST(LogicalOr, IncompatibleShapesFailAtRunTime) {
  EXPECT_EQ(error_of(
                [] {
                  logical_or(Value(bools({true, false}, Shape{2})),
                             Value(bools({true, false, true}, Shape{3})));
                },
                ErrorKind::kInvalidArgument),
            testing::eager_text("LogicalOr", "Incompatible shapes: [2] vs. [3]"));
}

// ---- tf.slice ----

TEST(SliceApi, SizeMinusOneTakesTheRest) {
  Tensor x = i32({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  Tensor r =
      slice(Value(x), Value::list({Value(1), Value(1)}), Value::list({Value(-1), Value(-1)}));
  EXPECT_EQ(r.eager_shape(), (Shape{1, 2}));
  EXPECT_EQ(values<int32_t>(r), (std::vector<int32_t>{5, 6}));
}

TEST(SliceApi, SizeTakesTheIndexTypeOfBegin) {
  Tensor r = slice(Value(i32({1, 2, 3})), Value(testing::i64({1})), Value::list({Value(2)}));
  EXPECT_EQ(values<int32_t>(r), (std::vector<int32_t>{2, 3}));
}

TEST(SliceApi, OutOfRangeSizeIsTfsText) {
  Tensor x = i32({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  std::string msg = error_of(
      [&] {
        slice(Value(x), Value::list({Value(1), Value(1)}), Value::list({Value(1), Value(5)}));
      },
      ErrorKind::kInvalidArgument);
  // TF 2.21 ends this one "[Op:Slice]" without " name: "; tfscope adds it to every kernel error.
  EXPECT_THAT(msg, ::testing::HasSubstr("}} Expected size[1] in [0, 2], but got 5 [Op:Slice]"));
}

// ---- Sign / Floor / Round ----

TEST(Sign, NanStaysNanAndNegativeZeroGivesZero) {
  std::vector<float> r =
      values<float>(run1("Sign", {f32({-2.0f, -0.0f, 0.0f, 3.0f, kNaN, kInf, -kInf})}));
  EXPECT_EQ(r[0], -1.0f);
  EXPECT_EQ(r[1], 0.0f);
  EXPECT_FALSE(std::signbit(r[1]));
  EXPECT_EQ(r[2], 0.0f);
  EXPECT_EQ(r[3], 1.0f);
  EXPECT_TRUE(std::isnan(r[4]));
  EXPECT_EQ(r[5], 1.0f);
  EXPECT_EQ(r[6], -1.0f);
}

TEST(Sign, Integers) {
  EXPECT_EQ(values<int32_t>(sign(Value(i32({-2, 0, 3})))), (std::vector<int32_t>{-1, 0, 1}));
  EXPECT_EQ(sign(Value(-5)).item<int32_t>(), -1);
}

TEST(Floor, KeepsNegativeZero) {
  std::vector<float> r = values<float>(floor(Value(f32({-1.5f, -0.0f, 0.5f, 2.0f, -0.5f}))));
  EXPECT_EQ(r, (std::vector<float>{-2.0f, -0.0f, 0.0f, 2.0f, -1.0f}));
  EXPECT_TRUE(std::signbit(r[1]));
}

TEST(Floor, IntegersAreNotAllowedInAGraph) {
  EXPECT_EQ(error_of([] { infer1("Floor", {In(PartialShape({2}), DType::kInt32)}); },
                     ErrorKind::kTypeError),
            // TF 2.21's text: TF's allowed list, not the dtypes tfscope's kernel takes.
            "Value passed to parameter 'x' has DataType int32 not in list of allowed values: "
            "bfloat16, float16, float32, float64");
}

TEST(Round, HalfToEven) {
  std::vector<float> r = values<float>(round(
      Value(f32({0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 0.49999997f, -0.0f, 1e20f, 2.6f, -2.6f}))));
  EXPECT_EQ(r, (std::vector<float>{0.0f, 2.0f, 2.0f, -0.0f, -2.0f, -2.0f, 0.0f, -0.0f, 1e20f, 3.0f,
                                   -3.0f}));
  EXPECT_TRUE(std::signbit(r[3]));
  EXPECT_EQ(values<double>(round(Value(f64({2.5, 4503599627370497.0})))),
            (std::vector<double>{2.0, 4503599627370497.0}));
}

TEST(Round, IntegerTensorIsReturnedAsIs) {
  Tensor x = i32({1, -2});
  Tensor r = round(Value(x));
  EXPECT_EQ(r.id(), x.id());
}

// ---- AddN ----

TEST(AddN, SumsLeftToRight) {
  // (1e8 + 1) - 1e8 + 1 in float32: the first 1 is lost, as in TF.
  Tensor r =
      add_n({Value(f32({1e8f})), Value(f32({1.0f})), Value(f32({-1e8f})), Value(f32({1.0f}))});
  EXPECT_EQ(values<float>(r), (std::vector<float>{1.0f}));
  EXPECT_EQ(values<int32_t>(add_n({Value(i32({1, 2})), Value(i32({3, 4})), Value(i32({5, 6}))})),
            (std::vector<int32_t>{9, 12}));
}

TEST(AddN, OneInputIsReturnedAsIs) {
  Tensor x = f32({1.0f, 2.0f});
  EXPECT_EQ(add_n({Value(x)}).id(), x.id());
}

TEST(AddN, NoInputsIsTfsValueError) {
  EXPECT_EQ(error_of([] { add_n({}); }, ErrorKind::kValueError),
            "Inputs must be an iterable of at least one Tensor/IndexedSlices with the same dtype "
            "and shape.");
}

TEST(AddN, ShapeMismatchNamesTheWrappedFunctionWithN) {
  EXPECT_EQ(
      error_of(
          [] {
            add_n({Value(f32({1.0f, 2.0f})), Value(f32({1.0f})), Value(f32({1.0f}))});
          },
          ErrorKind::kInvalidArgument),
      "{{function_node __wrapped__AddN_N_3_device_/job:localhost/replica:0/task:0/device:CPU:0}}"
      " Inputs to operation AddN of type AddN must have the same size and shape.  Input 0: [2]"
      " != input 1: [1] [Op:AddN] name: ");
}

TEST(AddN, ShapeFunctionMergesFromTheLastInput) {
  EXPECT_EQ(infer1("AddN", {In(PartialShape({-1})), In(PartialShape(std::vector<int64_t>{3}))}),
            PartialShape(std::vector<int64_t>{3}));
  EXPECT_EQ(error_of(
                [] {
                  infer1("AddN", {In(PartialShape({-1, 2})), In(PartialShape({-1, 2})),
                                  In(PartialShape({1, 3}))});
                },
                ErrorKind::kInvalidArgument),
            "Dimension 1 in both shapes must be equal, but are 2 and 3. Shapes are [?,2] and "
            "[1,3].\n\tFrom merging shape 1 with other shapes.");
}

// ---- Any / All ----

TEST(AnyAll, ReduceAlongAxes) {
  Tensor b = bools({true, false, true, false, false, true}, Shape{2, 3});
  EXPECT_EQ(bool_values(reduce("Any", b, Value(0))), (std::vector<bool>{true, false, true}));
  EXPECT_EQ(bool_values(reduce("All", b, Value(1))), (std::vector<bool>{false, false}));
  EXPECT_TRUE(reduce("Any", b, Value()).item<bool>());
  EXPECT_FALSE(reduce("All", b, Value()).item<bool>());
}

TEST(AnyAll, EmptyReductionIsFalseForAnyTrueForAll) {
  Tensor e = Tensor::zeros(DType::kBool, Shape{0, 2});
  EXPECT_EQ(bool_values(reduce("Any", e, Value(0))), (std::vector<bool>{false, false}));
  EXPECT_EQ(bool_values(reduce("All", e, Value(0))), (std::vector<bool>{true, true}));
}

TEST(AnyAll, BadAxisIsTfsText) {
  Tensor b = bools({true, false, true, false, false, true}, Shape{2, 3});
  EXPECT_EQ(
      error_of([&] { reduce("Any", b, Value(2)); }, ErrorKind::kInvalidArgument),
      testing::eager_text("Any", "Invalid reduction dimension (2 for input with 2 dimension(s)"));
}

// ---- ArgMin ----

TEST(ArgMin, SkipsNanAndKeepsTheFirstMinimum) {
  Tensor x = f32({3.0f, 1.0f, 1.0f, kNaN, 2.0f, -1.0f}, Shape{2, 3});
  EXPECT_EQ(values<int64_t>(argmin(x, 1)), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(values<int64_t>(argmin(x, 0)), (std::vector<int64_t>{0, 0, 1}));
  EXPECT_EQ(argmin(f32({kNaN, 2.0f, kNaN, 1.0f}), 0).item<int64_t>(), 3);
  EXPECT_EQ(argmin(f32({kNaN, kNaN}), 0).item<int64_t>(), 0);
  EXPECT_EQ(argmin(f32({kInf, kInf}), 0).item<int64_t>(), 0);
  EXPECT_EQ(argmin(i32({5, 3, 3, 7}), 0, DType::kInt32).item<int32_t>(), 1);
}

TEST(ArgMin, EmptyAxisAndBadDimensionAreTfsTexts) {
  EXPECT_EQ(error_of(
                [] {
                  argmin(Tensor::zeros(DType::kFloat32, Shape{0, 2}), 0);
                },
                ErrorKind::kInvalidArgument),
            testing::eager_text("ArgMin", "Reduction axis 0 is empty in shape [0,2]"));
  EXPECT_EQ(error_of(
                [] {
                  argmin(i32({1, 2}, Shape{1, 2}), 2);
                },
                ErrorKind::kInvalidArgument),
            testing::eager_text("ArgMin", "Expected dimension in the range [-2, 2), but got 2"));
}

// ---- tf.clip_by_value ----

TEST(ClipByValue, NanPassesThroughAndBoundsApplyInOrder) {
  std::vector<float> r = values<float>(
      clip_by_value(Value(f32({-1.0f, 0.5f, 2.0f, kNaN, -0.0f})), Value(0.0), Value(1.0)));
  EXPECT_EQ(r[0], 0.0f);
  EXPECT_EQ(r[1], 0.5f);
  EXPECT_EQ(r[2], 1.0f);
  EXPECT_TRUE(std::isnan(r[3]));
  // min > max: Minimum first, then Maximum, so the lower bound wins.
  EXPECT_EQ(values<float>(clip_by_value(Value(f32({1.0f, 5.0f})), Value(3.0), Value(2.0))),
            (std::vector<float>{3.0f, 3.0f}));
}

TEST(ClipByValue, BoundThatBroadcastsTheInputIsAValueError) {
  EXPECT_EQ(error_of(
                [] {
                  clip_by_value(Value(f32({1.0f, 5.0f}, Shape{1, 2})),
                                Value(f32({0.0f, 3.0f}, Shape{2, 1})), Value(4.0));
                },
                ErrorKind::kValueError),
            "Shapes (1, 2) and (2, 2) are incompatible");
}

TEST(ClipByValue, FloatBoundOfAnIntTensorIsTfsTypeError) {
  EXPECT_EQ(error_of(
                [] {
                  clip_by_value(Value(i32({1, 5})), Value(0.5), Value(2));
                },
                ErrorKind::kTypeError),
            "Cannot convert 0.5 to EagerTensor of dtype int32");
}

}  // namespace
}  // namespace tfs

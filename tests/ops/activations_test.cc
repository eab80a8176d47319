// LeakyRelu, Elu and Softplus (tf.nn.leaky_relu, tf.nn.elu, tf.nn.softplus) against TF 2.21 on
// CPU: values bit for bit (recorded from TF as hex floats) and TF's error texts.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "op_test_util.h"

namespace tfs {
namespace {

using testing::error_of;
using testing::f32;
using testing::f64;
using testing::i32;
using testing::run1;
using testing::values;

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

// Bitwise equality, NaN equal to NaN, so -0.0 and the last bit count.
template <typename T>
void expect_bits(const std::vector<T>& got, const std::vector<T>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "element " << i;
      continue;
    }
    EXPECT_EQ(std::memcmp(&got[i], &want[i], sizeof(T)), 0)
        << "element " << i << ": got " << got[i] << ", want " << want[i];
  }
}

// ---- LeakyRelu ----

TEST(LeakyRelu, DefaultAlphaKeepsSignedZeroAndNan) {
  Tensor r = leaky_relu(Value(f32({-1.0f, 2.0f, -0.0f, 0.0f, kNaN, -kInf, kInf, -3e38f})));
  expect_bits(values<float>(r),
              {-0x1.99999ap-3f, 2.0f, -0.0f, 0.0f, kNaN, -kInf, kInf, -0x1.691ca4p+125f});
}

TEST(LeakyRelu, Float64UsesTheFloat32Alpha) {
  Tensor r = leaky_relu(Value(f64({-1.0, 2.0, -0.1})));
  expect_bits(values<double>(r), {-0x1.99999ap-3, 2.0, -0x1.47ae14ccccccdp-6});
}

TEST(LeakyRelu, IntegersAreCastToFloat32) {
  Tensor r = leaky_relu(Value(testing::i64({-5, 3})), -2.0f);
  EXPECT_EQ(r.dtype(), DType::kFloat32);
  EXPECT_EQ(values<float>(r), (std::vector<float>{10.0f, 3.0f}));
}

TEST(LeakyRelu, DenormalsCountAsZero) {
  // TF's threads run with denormals as zero: a negative denormal gives -0.0.
  Tensor r = leaky_relu(Value(f32({-2.127313e-39f})));
  expect_bits(values<float>(r), {-0.0f});
}

TEST(LeakyRelu, BoolIsRejectedWithTheNameSuffix) {
  EXPECT_EQ(
      error_of([] { leaky_relu(Value(true)); }, ErrorKind::kInvalidArgument),
      "Value for attr 'T' of bool is not in the list of allowed values: half, bfloat16, float, "
      "double\n\t; NodeDef: {{node LeakyRelu}}; Op<name=LeakyRelu; signature=features:T -> "
      "activations:T; attr=alpha:float,default=0.2; attr=T:type,default=DT_FLOAT,"
      "allowed=[DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE]> [Op:LeakyRelu] name: ");
}

// ---- Elu ----

TEST(Elu, ExpMinusOneNotExpm1) {
  // exp(x) - 1: -1e-8 gives 0 in float32 (expm1 would give -1e-8).
  Tensor r =
      elu(Value(f32({-1.0f, 2.0f, -0.0f, 0.0f, kNaN, -kInf, kInf, -1e-8f, -20.0f, -88.0f, -0.5f})));
  expect_bits(values<float>(r), {-0x1.43a54ep-1f, 2.0f, -0.0f, 0.0f, kNaN, -1.0f, kInf, 0.0f, -1.0f,
                                 -1.0f, -0x1.92e9ap-2f});
}

TEST(Elu, Float64) {
  Tensor r = elu(Value(f64({-1.0, 2.0, -0.0, std::nan(""), -INFINITY, -1e-8, -20.0, -0.5})));
  expect_bits(values<double>(r), {-0x1.43a54e4e98864p-1, 2.0, -0.0, std::nan(""), -1.0,
                                  -0x1.5798eep-27, -0x1.ffffffee4b79bp-1, -0x1.92e9a0720d3ecp-2});
}

TEST(Elu, NegativeDenormalPassesThrough) {
  Tensor r = elu(Value(f32({-1.0636562e-38f})));
  expect_bits(values<float>(r), {-1.0636562e-38f});
}

TEST(Elu, IntegersAreRejectedAsTfDoes) {
  const std::string want =
      "Value for attr 'T' of int32 is not in the list of allowed values: half, bfloat16, float, "
      "double\n\t; NodeDef: {{node Elu}}; Op<name=Elu; signature=features:T -> activations:T; "
      "attr=T:type,allowed=[DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE]> [Op:Elu]";
  // A host operand takes TF's eager_fallback (no " name: "), a tensor the fast path.
  EXPECT_EQ(error_of(
                [] {
                  elu(Value::list({Value(1), Value(2)}));
                },
                ErrorKind::kInvalidArgument),
            want);
  EXPECT_EQ(error_of(
                [] {
                  elu(Value(i32({1, 2})));
                },
                ErrorKind::kInvalidArgument),
            want + " name: ");
}

// ---- Softplus ----

TEST(Softplus, SwitchesOverAtLogEpsilonPlusTwo) {
  // 14 elements: the first 8 through Eigen's packet exp/log, the last 6 through std::.
  Tensor r = softplus(Value(f32({-1.0f, 2.0f, -0.0f, 0.0f, kNaN, -kInf, kInf, -13.9f, -14.0f, 13.9f,
                                 14.0f, -100.0f, 100.0f, 1e-8f})));
  expect_bits(values<float>(r), {0x1.40c7acp-2f, 0x1.103f2ep+1f, 0x1.62e430p-1f, 0x1.62e430p-1f,
                                 kNaN, 0.0f, kInf, 0x1.ed5fd2p-21f, 0x1.be6c70p-21f,
                                 0x1.bccccep+3f, 14.0f, 0.0f, 100.0f, 0x1.62e430p-1f});
}

TEST(Softplus, Float64) {
  Tensor r = softplus(Value(f64({-1.0, 2.0, -0.0, std::nan(""), -INFINITY, INFINITY, -36.0, -37.0,
                                 36.0, 37.0, -800.0, 1e-20})));
  expect_bits(values<double>(r), {0x1.40c7abfbec124p-2, 0x1.103f2d54301d4p+1, 0x1.62e42fefa39efp-1,
                                  std::nan(""), 0.0, INFINITY, 0x1.0b6c3afdde064p-52,
                                  0x1.898471fca6054p-54, 36.0, 37.0, 0.0, 0x1.62e42fefa39efp-1});
}

TEST(Softplus, KernelRejectsIntegersByDtype) {
  EXPECT_EQ(
      error_of([] { softplus(Value(i32({1}))); }, ErrorKind::kInvalidArgument),
      "Value for attr 'T' of int32 is not in the list of allowed values: half, bfloat16, float, "
      "double\n\t; NodeDef: {{node Softplus}}; Op<name=Softplus; signature=features:T -> "
      "activations:T; attr=T:type,allowed=[DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE]> "
      "[Op:Softplus] name: ");
}

}  // namespace
}  // namespace tfs

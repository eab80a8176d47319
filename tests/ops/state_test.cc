// The float32 loops of AssignAdd/AssignSub and of float Add/Sub/Mul (src/ops/float_loops.h):
// the 16-lane AVX-512 form, where the CPU has it, gives every element the bits of the scalar
// operation written here, on every length (whole vectors and a masked tail), with a scalar
// operand on either side, and in place.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "float_loops.h"

namespace tfs::detail {
namespace {

std::vector<float> values(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> mant(0.0f, 1.0f);
  std::uniform_int_distribution<int> expo(-130, 120);  // denormals and near-overflow too
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = std::ldexp(mant(gen), expo(gen));
  if (n > 3) {
    v[1] = -0.0f;
    v[2] = std::numeric_limits<float>::infinity();
    v[3] = std::numeric_limits<float>::quiet_NaN();
  }
  return v;
}

template <FloatOp kOp>
float scalar_op(float x, float y) {
  volatile float r = kOp == FloatOp::kAdd ? x + y : kOp == FloatOp::kSub ? x - y : x * y;
  return r;
}

template <FloatOp kOp>
void expect_scalar_bits(int64_t n, int64_t a_step, int64_t b_step, bool in_place) {
  std::vector<float> a = values(std::max<int64_t>(n, 1), 7 + static_cast<uint32_t>(n));
  std::vector<float> b = values(std::max<int64_t>(n, 1), 11 + static_cast<uint32_t>(n));
  std::vector<float> want(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    want[static_cast<size_t>(i)] =
        scalar_op<kOp>(a[static_cast<size_t>(i * a_step)], b[static_cast<size_t>(i * b_step)]);
  std::vector<float> out(static_cast<size_t>(n), 12345.0f);
  float* o = in_place && a_step ? a.data() : out.data();
  float_loop<kOp>(a.data(), a_step, b.data(), b_step, o, n);
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(std::memcmp(&o[i], &want[static_cast<size_t>(i)], sizeof(float)), 0)
        << "op " << static_cast<int>(kOp) << " n=" << n << " steps " << a_step << "," << b_step
        << " element " << i << ": " << o[i] << " want " << want[static_cast<size_t>(i)];
  }
}

TEST(FloatLoops, EveryElementHasTheScalarOperationsBits) {
  for (int64_t n = 0; n <= 50; ++n) {
    for (auto [as, bs] : {std::pair<int64_t, int64_t>{1, 1}, {1, 0}, {0, 1}}) {
      for (bool in_place : {false, true}) {
        expect_scalar_bits<FloatOp::kAdd>(n, as, bs, in_place);
        expect_scalar_bits<FloatOp::kSub>(n, as, bs, in_place);
        expect_scalar_bits<FloatOp::kMul>(n, as, bs, in_place);
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST(FloatLoops, ATrainingStepsGradientSizedUpdate) {
  // 784 x 256: the weight update of the MLP's first layer.
  expect_scalar_bits<FloatOp::kSub>(784 * 256, 1, 1, true);
  expect_scalar_bits<FloatOp::kMul>(784 * 256, 0, 1, true);
}

}  // namespace
}  // namespace tfs::detail

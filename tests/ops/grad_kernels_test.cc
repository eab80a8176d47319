// The elementwise gradient kernels against the formulas of TF's functors (relu_op_functor.h,
// bias_op.cc), written here as plain scalar loops: bit for bit on values that include zeros of
// both signs, NaN, the relu6 edges and denormals (which TF's kernels read and write as zeros),
// and on lengths that leave a tail after whole 8-float registers.
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "op_test_util.h"

namespace tfs {
namespace {

using testing::f32;
using testing::run1;

std::vector<float> awkward(int64_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> d(0.0f, 4.0f);
  const float specials[] = {0.0f,          -0.0f,  6.0f,    -6.0f,
                            std::nanf(""), 1e-40f, -1e-40f, std::numeric_limits<float>::infinity()};
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v[static_cast<size_t>(i)] = gen() % 7 == 0 ? specials[gen() % 8] : d(gen);
  return v;
}

float daz(float v) {
  return std::fabs(v) < std::numeric_limits<float>::min() ? 0.0f * v : v;
}

bool same_bits(const std::vector<float>& a, const float* b) {
  return std::memcmp(a.data(), b, a.size() * sizeof(float)) == 0;
}

TEST(GradKernels, ReluGradAndRelu6GradAreTheFunctorsProducts) {
  for (int64_t n : {1, 7, 8, 9, 64, 1000, 16385}) {
    std::vector<float> dy = awkward(n, 1), f = awkward(n, 2), relu(dy.size()), relu6(dy.size());
    for (size_t i = 0; i < dy.size(); ++i) {
      const float x = daz(f[i]), g = daz(dy[i]);
      relu[i] = daz(g * (x > 0.0f ? 1.0f : 0.0f));
      relu6[i] = daz(g * (x > 0.0f && x < 6.0f ? 1.0f : 0.0f));
    }
    Tensor got = run1("ReluGrad", {f32(dy), f32(f)});
    Tensor got6 = run1("Relu6Grad", {f32(dy), f32(f)});
    EXPECT_TRUE(same_bits(relu, got.data<float>())) << "ReluGrad n " << n;
    EXPECT_TRUE(same_bits(relu6, got6.data<float>())) << "Relu6Grad n " << n;
  }
}

// Each channel summed straight down the rows from +0 (so an all -0 column gives +0).
TEST(GradKernels, BiasAddGradSumsEachChannelDownTheRows) {
  for (int64_t ch : {1, 3, 8, 10, 17, 256}) {
    for (int64_t rows : {1, 2, 64}) {
      std::vector<float> g = awkward(rows * ch, static_cast<uint32_t>(ch * 100 + rows));
      for (float& v : g) v = std::isnan(v) || std::isinf(v) ? 1.5f : v;
      for (int64_t r = 0; r < rows; ++r) g[static_cast<size_t>(r * ch)] = -0.0f;
      std::vector<float> want(static_cast<size_t>(ch), 0.0f);
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < ch; ++c)
          want[c] = daz(want[c] + daz(g[static_cast<size_t>(r * ch + c)]));
      }
      Tensor got = run1("BiasAddGrad", {f32(g, Shape{rows, ch})});
      EXPECT_TRUE(same_bits(want, got.data<float>())) << rows << " x " << ch;
      EXPECT_FALSE(std::signbit(got.data<float>()[0]));
    }
  }
}

}  // namespace
}  // namespace tfs

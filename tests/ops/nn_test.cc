// MatMul and BatchMatMulV2 against TF. Expected numbers were recorded from TensorFlow 2.21 on CPU
// (tensorflow-cpu 2.21.0, oneDNN's kernels, AVX2), bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "op_test_util.h"

namespace tfs {
namespace {

using testing::f32;
using testing::run1;
using testing::values;

// A rows x k matrix whose column 0 is 2^24 and the rest ones: in float32, 2^24 + 1 rounds back
// to 2^24, so each sum says which ones were added to the big value and which were summed apart.
Tensor big_then_ones(int64_t rows, int64_t k) {
  std::vector<float> v(static_cast<size_t>(rows * k), 1.0f);
  for (int64_t r = 0; r < rows; ++r) v[r * k] = 16777216.0f;
  return f32(v, Shape({rows, k}));
}

Tensor ones(const std::vector<int64_t>& dims) {
  Shape s(dims);
  return f32(std::vector<float>(static_cast<size_t>(s.num_elements()), 1.0f), s);
}

TEST(MatMulTest, WorkedExample) {
  // [[1, 2], [3, 4]] x [[5], [6]] = [[1*5 + 2*6], [3*5 + 4*6]]
  Tensor a = f32({1, 2, 3, 4}, Shape({2, 2})), b = f32({5, 6}, Shape({2, 1}));
  Tensor c = run1("MatMul", {a, b});
  EXPECT_EQ(c.shape(), Shape({2, 1}));
  EXPECT_EQ(values<float>(c), (std::vector<float>{17, 39}));
}

TEST(MatMulTest, TransposeAttrsTransposeTheOperands) {
  Tensor a = f32({1, 2, 3, 4, 5, 6}, Shape({2, 3}));  // a^T a is 3 x 3, a a^T is 2 x 2
  EXPECT_EQ(values<float>(run1("MatMul", {a, a}, {{"transpose_a", true}})),
            (std::vector<float>{17, 22, 27, 22, 29, 36, 27, 36, 45}));
  EXPECT_EQ(values<float>(run1("MatMul", {a, a}, {{"transpose_b", true}})),
            (std::vector<float>{14, 32, 32, 77}));
  Tensor s = f32({1, 2, 3, 4}, Shape({2, 2}));  // s^T s^T = (s s)^T
  EXPECT_EQ(values<float>(run1("MatMul", {s, s}, {{"transpose_a", true}, {"transpose_b", true}})),
            (std::vector<float>{7, 15, 10, 22}));
}

TEST(MatMulTest, SumsInBlocksOfKAsOneDnnsSgemm) {
  // 2 x 385 by 385 x 2: oneDNN sums k in two blocks, [0, 193) and [193, 385). The first block's
  // ones are lost against 2^24, the second block's 192 ones add up apart: 2^24 + 192. TF gives
  // 16777408 (a plain sequential sum would give 16777216, the exact value is 16777600).
  Tensor c = run1("MatMul", {big_then_ones(2, 385), ones({385, 2})});
  EXPECT_EQ(values<float>(c), (std::vector<float>(4, 16777408.0f)));
}

TEST(MatMulTest, VectorTimesMatrixIsOneSequentialSum) {
  // The same row alone runs oneDNN's gemv, which sums all of k in order: every one is lost.
  Tensor c = run1("MatMul", {big_then_ones(1, 385), ones({385, 2})});
  EXPECT_EQ(values<float>(c), (std::vector<float>(2, 16777216.0f)));
}

TEST(MatMulTest, ProductsAreFused) {
  // -(1 + 2^-11) + (1 + 2^-12)^2: the product's 2^-24 survives only in a fused multiply-add.
  float e = std::ldexp(1.0f, -12);
  Tensor c =
      run1("MatMul", {f32({-(1 + 2 * e), 1 + e}, Shape({1, 2})), f32({1, 1 + e}, Shape({2, 1}))});
  EXPECT_EQ(values<float>(c), (std::vector<float>{std::ldexp(1.0f, -24)}));  // 5.96046448e-08
}

TEST(BatchMatMulTest, BroadcastsBatchDimensions) {
  // x [2, 1, 2, 3] by y [3, 3, 2]: batch [2, 1] and [3] broadcast to [2, 3].
  std::vector<float> xv(12), yv(18);
  for (size_t i = 0; i < xv.size(); ++i) xv[i] = static_cast<float>(i);
  for (size_t i = 0; i < yv.size(); ++i) yv[i] = static_cast<float>(i % 5);
  Tensor x = f32(xv, Shape({2, 1, 2, 3})), y = f32(yv, Shape({3, 3, 2}));
  Tensor c = run1("BatchMatMulV2", {x, y});
  EXPECT_EQ(c.shape(), Shape({2, 3, 2, 2}));
  std::vector<float> got = values<float>(c), want;
  for (int p = 0; p < 2; ++p) {
    for (int q = 0; q < 3; ++q) {
      for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 2; ++j) {
          float s = 0;
          for (int k = 0; k < 3; ++k) s += xv[p * 6 + i * 3 + k] * yv[q * 6 + k * 2 + j];
          want.push_back(s);
        }
      }
    }
  }
  EXPECT_EQ(got, want);
}

TEST(BatchMatMulTest, SumsInBlocksOf512AsOneDnnsBrgemm) {
  // BatchMatMulV2 runs a different oneDNN kernel: k = 600 as [0, 512) and [512, 600). TF gives
  // 2^24 + 88 = 16777304. The same 2 x 385 product as above is one block here: 16777216.
  Tensor c = run1("BatchMatMulV2",
                  {big_then_ones(2, 600).reshaped(Shape({1, 2, 600})), ones({1, 600, 2})});
  EXPECT_EQ(values<float>(c), (std::vector<float>(4, 16777304.0f)));
  c = run1("BatchMatMulV2",
           {big_then_ones(2, 385).reshaped(Shape({1, 2, 385})), ones({1, 385, 2})});
  EXPECT_EQ(values<float>(c), (std::vector<float>(4, 16777216.0f)));
}

}  // namespace
}  // namespace tfs

// MatMul and BatchMatMulV2 against TF. Expected numbers were recorded from TensorFlow 2.21 on CPU
// (tensorflow-cpu 2.21.0), bit for bit, for each kernel TF may run: its sums depend on whether TF
// runs oneDNN (tfs::tf_onednn_enabled()) and on the instruction set oneDNN dispatches on
// (recorded on an Intel Xeon with TF_ENABLE_ONEDNN_OPTS=0/1 and ONEDNN_MAX_CPU_ISA=AVX2).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "op_test_util.h"
#include "tfscope/cpu_info.h"

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

// TF's values for the order-revealing products below, per kernel.
struct Recorded {
  float mm_2x385, mm_1x385, fused, bmm_2x600, bmm_2x385;
};

// nullptr where tfscope does not claim TF's bits (instruction sets below AVX2).
const Recorded* recorded() {
  static const Recorded onednn_avx512{16777408, 16777216, 5.96046448e-08f, 16777304, 16777216};
  static const Recorded onednn_avx2{16777504, 16777216, 5.96046448e-08f, 16777688, 16777504};
  static const Recorded eigen_avx512{16777408, 16777584, 0, 16777516, 16777408};
  static const Recorded eigen_avx2{16777504, 16777584, 0, 16777688, 16777504};
  if (onednn_isa() == OneDnnIsa::kAvx512Core) {
    return tf_onednn_enabled() ? &onednn_avx512 : &eigen_avx512;
  }
  if (onednn_isa() == OneDnnIsa::kAvx2) return tf_onednn_enabled() ? &onednn_avx2 : &eigen_avx2;
  return nullptr;
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

// 2 x 385 by 385 x 2: every sum is 2^24 + ones, 2^24 + 1 rounds to 2^24, so the result says
// which ones were summed apart. oneDNN's sgemm (with oneDNN, or inside TF's Eigen contraction)
// sums k in two blocks, [0, 193) and [193, 385): 2^24 + 192 = 16777408 from its AVX-512 kernel;
// its AVX2 kernel also splits each block's even and odd k for a 2 x 2 tile: 2^24 + 288.
TEST(MatMulTest, SumsInBlocksOfKAsTfsKernel) {
  const Recorded* r = recorded();
  if (!r) GTEST_SKIP() << "tfscope does not claim TF's MatMul bits on this machine and setting";
  Tensor c = run1("MatMul", {big_then_ones(2, 385), ones({385, 2})});
  EXPECT_EQ(values<float>(c), (std::vector<float>(4, r->mm_2x385)));
}

// The same row alone: oneDNN's gemv sums all of k in order (2^24); without oneDNN, Eigen's gemv
// sums k in blocks of 16 (2^24 + 23 * 16 + 1, ties to 2^24 + 368).
TEST(MatMulTest, VectorTimesMatrixAsTfsKernel) {
  const Recorded* r = recorded();
  if (!r) GTEST_SKIP() << "tfscope does not claim TF's MatMul bits on this machine and setting";
  Tensor c = run1("MatMul", {big_then_ones(1, 385), ones({385, 2})});
  EXPECT_EQ(values<float>(c), (std::vector<float>(2, r->mm_1x385)));
}

// -(1 + 2^-11) + (1 + 2^-12)^2: the product's 2^-24 survives only in a fused multiply-add
// (oneDNN); TF's Eigen build has no FMA and computes this 1 x 2 x 1 product as 0.
TEST(MatMulTest, ProductsAreFusedOnlyByOneDnn) {
  const Recorded* r = recorded();
  if (!r) GTEST_SKIP() << "tfscope does not claim TF's MatMul bits on this machine and setting";
  float e = std::ldexp(1.0f, -12);
  Tensor c =
      run1("MatMul", {f32({-(1 + 2 * e), 1 + e}, Shape({1, 2})), f32({1, 1 + e}, Shape({2, 1}))});
  EXPECT_EQ(values<float>(c), (std::vector<float>{r->fused}));
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

// BatchMatMulV2 with oneDNN runs its brgemm matmul: k = 600 as [0, 512) and [512, 600):
// 2^24 + 88; 385 is one block: 2^24. Without oneDNN a batch of one is MatMul's contraction.
TEST(BatchMatMulTest, SumsInBlocksAsTfsKernel) {
  const Recorded* r = recorded();
  if (!r) GTEST_SKIP() << "tfscope does not claim TF's MatMul bits on this machine and setting";
  Tensor c = run1("BatchMatMulV2",
                  {big_then_ones(2, 600).reshaped(Shape({1, 2, 600})), ones({1, 600, 2})});
  EXPECT_EQ(values<float>(c), (std::vector<float>(4, r->bmm_2x600)));
  c = run1("BatchMatMulV2",
           {big_then_ones(2, 385).reshaped(Shape({1, 2, 385})), ones({1, 385, 2})});
  EXPECT_EQ(values<float>(c), (std::vector<float>(4, r->bmm_2x385)));
}

}  // namespace
}  // namespace tfs

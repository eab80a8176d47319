// The float32 GEMM (src/ops/gemm_f32.h) against a plain scalar std::fma reference written here,
// bit for bit: the AVX-512 and AVX2 kernels (those the CPU has) and the scalar path, on many
// shapes, transposes and summation orders.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gemm_f32.h"

namespace tfs::detail {
namespace {

// Inputs whose exponents vary (2^-8 .. 2^8) so that a different summation order changes bits.
std::vector<float> random_floats(int64_t size, uint32_t seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> mant(0.0f, 1.0f);
  std::uniform_int_distribution<int> expo(-8, 8);
  std::vector<float> v(static_cast<size_t>(size));
  for (float& x : v) x = std::ldexp(mant(gen), expo(gen));
  return v;
}

// The reference: each output summed over the given k blocks, each block a sequential FMA chain
// from 0, block sums added in order. A is m x k (k x m when ta), B is k x n (n x k when tb).
std::vector<float> reference(const std::vector<float>& a, bool ta, const std::vector<float>& b,
                             bool tb, int64_t m, int64_t k, int64_t n,
                             const std::vector<int64_t>& blocks) {
  std::vector<float> c(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float sum = 0.0f;
      int64_t k0 = 0;
      for (size_t q = 0; q < blocks.size(); ++q) {
        float part = 0.0f;
        for (int64_t kk = k0; kk < k0 + blocks[q]; ++kk) {
          float x = ta ? a[kk * m + i] : a[i * k + kk];
          float y = tb ? b[j * k + kk] : b[kk * n + j];
          part = std::fma(x, y, part);
        }
        sum = q == 0 ? part : sum + part;
        k0 += blocks[q];
      }
      c[i * n + j] = sum;
    }
  }
  return c;
}

// The reference of the 16-lane dot product order.
std::vector<float> reference_dot16(const std::vector<float>& a, bool ta,
                                   const std::vector<float>& b, bool tb, int64_t m, int64_t k,
                                   int64_t n) {
  std::vector<float> c(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float lane[16] = {};
      for (int64_t kk = 0; kk < k; ++kk) {
        float x = ta ? a[kk * m + i] : a[i * k + kk];
        float y = tb ? b[j * k + kk] : b[kk * n + j];
        lane[kk % 16] = std::fma(x, y, lane[kk % 16]);
      }
      float h8[8], h4[4], h2[2];
      for (int l = 0; l < 8; ++l) h8[l] = lane[l] + lane[l + 8];
      for (int l = 0; l < 4; ++l) h4[l] = h8[l] + h8[l + 4];
      for (int l = 0; l < 2; ++l) h2[l] = h4[l] + h4[l + 2];
      c[i * n + j] = h2[0] + h2[1];
    }
  }
  return c;
}

// The reference of oneDNN's gemv dot-product order.
std::vector<float> reference_gemv_dot(const std::vector<float>& a, bool ta,
                                      const std::vector<float>& b, bool tb, int64_t m, int64_t k,
                                      int64_t n) {
  std::vector<float> c(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      auto product = [&](int64_t kk) {
        float x = ta ? a[kk * m + i] : a[i * k + kk];
        float y = tb ? b[j * k + kk] : b[kk * n + j];
        return x * y;
      };
      int64_t runs = k / 16 * 16;
      float lane[8] = {};
      for (int64_t kk = 0; kk < runs; ++kk) {
        float x = ta ? a[kk * m + i] : a[i * k + kk];
        float y = tb ? b[j * k + kk] : b[kk * n + j];
        lane[kk % 8] = std::fma(x, y, lane[kk % 8]);
      }
      float sum = 0.0f;
      if (runs > 0) {
        sum = ((lane[0] + lane[1]) + (lane[4] + lane[5])) +
              ((lane[2] + lane[3]) + (lane[6] + lane[7]));
      }
      int64_t kk = runs;
      if (k - kk >= 8) {
        float p[8];
        for (int l = 0; l < 8; ++l) p[l] = product(kk + l);
        sum = (((p[0] + p[1]) + (p[4] + p[5])) + ((p[2] + p[3]) + (p[6] + p[7]))) + sum;
        kk += 8;
      }
      if (k - kk >= 4) {
        float p[4];
        for (int l = 0; l < 4; ++l) p[l] = product(kk + l);
        sum = ((p[0] + p[1]) + (p[2] + p[3])) + sum;
        kk += 4;
      }
      if (k - kk >= 2) {
        float p0 = product(kk), p1 = product(kk + 1);
        sum = (p0 + p1) + sum;
        kk += 2;
      }
      if (k - kk == 1) sum = product(kk) + sum;
      c[i * n + j] = sum;
    }
  }
  return c;
}

std::vector<int64_t> blocks_of(const KSplit& split, int64_t k) {
  std::vector<int64_t> out;
  for (int64_t left = k; left > 0;) {
    out.push_back(split.next_block(left));
    left -= out.back();
  }
  if (out.empty()) out.push_back(0);
  return out;
}

// Index of the first output whose bits differ, or -1.
int64_t first_difference(const std::vector<float>& x, const std::vector<float>& y) {
  for (size_t i = 0; i < x.size(); ++i) {
    if (std::memcmp(&x[i], &y[i], sizeof(float)) != 0) return static_cast<int64_t>(i);
  }
  return x.size() == y.size() ? -1 : static_cast<int64_t>(x.size());
}

// gemm_f32 and gemm_f32_scalar on one problem, each compared with the reference.
void expect_bit_exact(int64_t m, int64_t k, int64_t n, bool ta, bool tb, const GemmOrder& order) {
  std::vector<float> a = random_floats(m * k, static_cast<uint32_t>(m * 1000003 + k * 101 + n));
  std::vector<float> b = random_floats(k * n, static_cast<uint32_t>(n * 7919 + k * 13 + m + 1));
  std::vector<float> want = order.sum == SumOrder::kDot16 ? reference_dot16(a, ta, b, tb, m, k, n)
                            : order.sum == SumOrder::kGemvDot
                                ? reference_gemv_dot(a, ta, b, tb, m, k, n)
                                : reference(a, ta, b, tb, m, k, n, blocks_of(order.split, k));
  std::vector<float> fast(static_cast<size_t>(m * n), NAN), scalar(fast);
  gemm_f32(a.data(), ta, b.data(), tb, m, k, n, order, fast.data());
  gemm_f32_scalar(a.data(), ta, b.data(), tb, m, k, n, order, scalar.data());
  std::string what =
      "m=" + std::to_string(m) + " k=" + std::to_string(k) + " n=" + std::to_string(n) +
      " ta=" + std::to_string(ta) + " tb=" + std::to_string(tb) +
      " order=" + std::to_string(static_cast<int>(order.sum)) + "/" +
      std::to_string(static_cast<int>(order.split.rule)) + "/" + std::to_string(order.split.bk);
  int64_t d = first_difference(fast, want);
  ASSERT_EQ(d, -1) << what << ": gemm_f32 output " << d << " is " << fast[d] << ", want "
                   << want[d];
  // The lesser kernels this CPU can run (the AVX2 ones when it has AVX-512 too).
  for (GemmIsa isa = GemmIsa::kAvx2; isa < gemm_f32_best_isa();
       isa = static_cast<GemmIsa>(static_cast<int>(isa) + 1)) {
    std::vector<float> lesser(fast.size(), NAN);
    gemm_f32_on(isa, a.data(), ta, b.data(), tb, m, k, n, order, lesser.data());
    d = first_difference(lesser, want);
    ASSERT_EQ(d, -1) << what << ": gemm_f32_on(" << static_cast<int>(isa) << ") output " << d
                     << " is " << lesser[d] << ", want " << want[d];
  }
  d = first_difference(scalar, want);
  ASSERT_EQ(d, -1) << what << ": scalar output " << d << " is " << scalar[d] << ", want "
                   << want[d];
}

const GemmOrder kSequential{};
const GemmOrder kDot16{SumOrder::kDot16, {}};
const GemmOrder kGemvDot{SumOrder::kGemvDot, {}};
GemmOrder halving(int64_t bk) {
  return {SumOrder::kBlocked, {KSplit::Rule::kHalving, bk}};
}
GemmOrder chunks(int64_t bk) {
  return {SumOrder::kBlocked, {KSplit::Rule::kChunks, bk}};
}

TEST(KSplit, HalvingCutsAsOneDnnSgemmDoes) {
  KSplit s{KSplit::Rule::kHalving, 384};
  EXPECT_EQ(blocks_of(s, 384), (std::vector<int64_t>{384}));
  EXPECT_EQ(blocks_of(s, 385), (std::vector<int64_t>{193, 192}));
  EXPECT_EQ(blocks_of(s, 600), (std::vector<int64_t>{300, 300}));
  EXPECT_EQ(blocks_of(s, 768), (std::vector<int64_t>{384, 384}));
  EXPECT_EQ(blocks_of(s, 769), (std::vector<int64_t>{384, 193, 192}));
  EXPECT_EQ(blocks_of(s, 784), (std::vector<int64_t>{384, 200, 200}));
  EXPECT_EQ(blocks_of(s, 2048), (std::vector<int64_t>{384, 384, 384, 384, 256, 256}));
}

TEST(KSplit, ChunksCutsAsOneDnnBrgemmDoes) {
  KSplit s{KSplit::Rule::kChunks, 512};
  EXPECT_EQ(blocks_of(s, 300), (std::vector<int64_t>{300}));
  EXPECT_EQ(blocks_of(s, 600), (std::vector<int64_t>{512, 88}));
  EXPECT_EQ(blocks_of(s, 1100), (std::vector<int64_t>{512, 512, 76}));
}

TEST(TfMatMulOrder, FollowsTheShapeClassesMeasuredAgainstTf) {
  // matrix-vector products: an axpy (sequential) or a dot product, by the matrix's layout
  EXPECT_EQ(tf_matmul_order(1, 784, 256, false, false).sum, SumOrder::kBlocked);
  EXPECT_EQ(tf_matmul_order(1, 784, 256, false, false).split.rule, KSplit::Rule::kNone);
  EXPECT_EQ(tf_matmul_order(64, 784, 1, true, false).split.rule, KSplit::Rule::kNone);
  EXPECT_EQ(tf_matmul_order(1, 784, 256, false, true).sum, SumOrder::kGemvDot);
  EXPECT_EQ(tf_matmul_order(64, 784, 1, false, false).sum, SumOrder::kGemvDot);
  EXPECT_EQ(tf_matmul_order(1, 1000, 1, false, false).split.rule, KSplit::Rule::kNone);
  // the sgemm: halving blocks of 384
  GemmOrder o = tf_matmul_order(64, 784, 256, false, false);
  EXPECT_EQ(o.sum, SumOrder::kBlocked);
  EXPECT_EQ(o.split.rule, KSplit::Rule::kHalving);
  EXPECT_EQ(o.split.bk, 384);
  EXPECT_EQ(tf_matmul_order(8, 784, 64, true, true).split.rule, KSplit::Rule::kHalving);
  // transpose_b alone with fewer than 16 rows: the 16-lane dot product
  EXPECT_EQ(tf_matmul_order(15, 100, 17, false, true).sum, SumOrder::kDot16);
  EXPECT_EQ(tf_matmul_order(16, 100, 17, false, true).sum, SumOrder::kBlocked);
  // BatchMatMulV2: brgemm's blocks of 512, of 1024 for m >= 2 beyond k = 1024
  EXPECT_EQ(tf_batch_matmul_order(8, 600, 16).split.rule, KSplit::Rule::kChunks);
  EXPECT_EQ(tf_batch_matmul_order(8, 600, 16).split.bk, 512);
  EXPECT_EQ(tf_batch_matmul_order(8, 1100, 16).split.bk, 1024);
  EXPECT_EQ(tf_batch_matmul_order(8, 1024, 16).split.bk, 512);
  EXPECT_EQ(tf_batch_matmul_order(1, 1100, 16).split.bk, 512);
}

TEST(GemmF32, SmallShapesAllTransposesAreBitExact) {
  for (int64_t m = 1; m <= 17; ++m) {
    for (int64_t k = 1; k <= 17; ++k) {
      for (int64_t n = 1; n <= 17; ++n) {
        for (int t = 0; t < 4; ++t) {
          bool ta = t & 1, tb = t & 2;
          expect_bit_exact(m, k, n, ta, tb, kSequential);
          expect_bit_exact(m, k, n, ta, tb, halving(3));  // small blocks: every cut exercised
          expect_bit_exact(m, k, n, ta, tb, kDot16);
          expect_bit_exact(m, k, n, ta, tb, kGemvDot);
          if (HasFatalFailure()) return;
        }
      }
    }
  }
}

TEST(GemmF32, OddAndLargerShapesAreBitExact) {
  const int64_t sizes[] = {1, 2, 5, 7, 8, 9, 15, 16, 17, 33, 100, 257};
  for (int64_t m : sizes) {
    for (int64_t k : {1, 16, 33, 257, 385, 800}) {
      for (int64_t n : sizes) {
        if (m * k * n > 1'000'000) continue;  // the big ones: a few in the test below
        for (int t = 0; t < 4; ++t) {
          bool ta = t & 1, tb = t & 2;
          expect_bit_exact(m, k, n, ta, tb, kSequential);
          expect_bit_exact(m, k, n, ta, tb, tf_matmul_order(m, k, n, ta, tb));
          if (HasFatalFailure()) return;
        }
      }
    }
  }
}

TEST(GemmF32, EveryOrderOnOneShapeIsBitExact) {
  for (const GemmOrder& o :
       {kSequential, halving(384), halving(5), chunks(512), chunks(7), kDot16, kGemvDot}) {
    for (int t = 0; t < 4; ++t) {
      expect_bit_exact(37, 1100, 45, t & 1, t & 2, o);
      expect_bit_exact(130, 900, 70, t & 1, t & 2, o);  // more rows than one 120-row pass
    }
  }
}

TEST(GemmF32, MlpShapesAreBitExact) {
  for (int64_t batch : {1, 64}) {
    expect_bit_exact(batch, 784, 256, false, false, tf_matmul_order(batch, 784, 256, false, false));
    expect_bit_exact(batch, 256, 128, false, false, tf_matmul_order(batch, 256, 128, false, false));
    expect_bit_exact(batch, 128, 10, false, false, tf_matmul_order(batch, 128, 10, false, false));
  }
}

TEST(GemmF32, OrdersGiveDifferentBits) {
  // The test above would pass for any order if the inputs did not expose rounding: check that
  // the orders really differ on these inputs.
  int64_t m = 8, k = 784, n = 64;
  std::vector<float> a = random_floats(m * k, 1), b = random_floats(k * n, 2);
  std::vector<float> seq(static_cast<size_t>(m * n)), blk(seq), dot(seq), gemv(seq);
  gemm_f32(a.data(), false, b.data(), false, m, k, n, kSequential, seq.data());
  gemm_f32(a.data(), false, b.data(), false, m, k, n, halving(384), blk.data());
  gemm_f32(a.data(), false, b.data(), false, m, k, n, kDot16, dot.data());
  gemm_f32(a.data(), false, b.data(), false, m, k, n, kGemvDot, gemv.data());
  EXPECT_NE(first_difference(seq, blk), -1);
  EXPECT_NE(first_difference(seq, gemv), -1);
  EXPECT_NE(first_difference(dot, gemv), -1);
  EXPECT_NE(first_difference(seq, dot), -1);
  EXPECT_NE(first_difference(blk, dot), -1);
}

TEST(GemmF32, EmptySumIsZero) {
  float c[6] = {1, 2, 3, 4, 5, 6};
  gemm_f32(nullptr, false, nullptr, false, 2, 0, 3, kSequential, c);
  for (float x : c) EXPECT_EQ(x, 0.0f);
}

TEST(GemmF32, ProductsAreFusedMultiplyAdds) {
  // a0*b0 = 1 + 2^-11 + 2^-24 is not a float; after a0*b0's exact value is added to -(1 + 2^-11),
  // 2^-24 is left. A multiply rounded before the add would give 0.
  float e = std::ldexp(1.0f, -12);
  std::vector<float> a = {-(1 + 2 * e), 1 + e}, b = {1, 1 + e};
  float c = -1;
  gemm_f32(a.data(), false, b.data(), false, 1, 2, 1, kSequential, &c);
  EXPECT_EQ(c, std::ldexp(1.0f, -24));
  gemm_f32_scalar(a.data(), false, b.data(), false, 1, 2, 1, kSequential, &c);
  EXPECT_EQ(c, std::ldexp(1.0f, -24));
}

TEST(GemmF32, OneStepProductsStartFromPositiveZero) {
  // k = 1 (the weight gradients at batch 1, the AVX-512 rank-1 loop): each output is the FMA
  // chain's one step from +0, so a -0 product (-1 * 0) is +0 on every kernel, as the reference
  // computes it; 784 x 256 and a 19-column row (a masked tail) as well.
  for (auto [m, n] : {std::pair<int64_t, int64_t>{3, 19}, {784, 256}}) {
    std::vector<float> a = random_floats(m, 5), b = random_floats(n, 6);
    a[1] = -1.0f, b[2] = 0.0f, b[n - 1] = -0.0f;
    for (int t = 0; t < 4; ++t) {
      std::vector<float> want = reference(a, t & 1, b, t & 2, m, 1, n, {1});
      ASSERT_FALSE(std::signbit(want[static_cast<size_t>(n + 2)]));
      for (int isa = 0; isa <= static_cast<int>(gemm_f32_best_isa()); ++isa) {
        std::vector<float> c(static_cast<size_t>(m * n), NAN);
        gemm_f32_on(static_cast<GemmIsa>(isa), a.data(), t & 1, b.data(), t & 2, m, 1, n,
                    kSequential, c.data());
        const int64_t d = first_difference(c, want);
        ASSERT_EQ(d, -1) << "isa " << isa << " m=" << m << " n=" << n << ": output " << d;
      }
    }
  }
}

}  // namespace
}  // namespace tfs::detail

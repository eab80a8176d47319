// The summation orders of TF 2.21's Eigen-path matrix kernels (src/ops/sum_chains.h,
// onednn_blocks.h, eigen_products.h), each shown with inputs whose sum depends on the order:
// 2^24 plus ones, where 2^24 + 1 rounds back to 2^24 (ties to even) but ones summed apart first
// survive. The expected values are worked out by hand in the comments. The orders themselves were
// found against tensorflow-cpu 2.21.0 (conformance/cases/ops_matmul_bits.py checks them live).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "eigen_products.h"
#include "gemm_f32.h"
#include "onednn_blocks.h"
#include "onednn_matmul.h"
#include "sum_chains.h"

namespace tfs::detail {
namespace {

constexpr float k2p24 = 16777216.0f;

// x: rows x depth with x[r][0] = 2^24 and ones elsewhere; y: depth x cols of ones.
struct Ones {
  int64_t rows, depth, cols;
  std::vector<float> x, y, out;
  Ones(int64_t r, int64_t d, int64_t c)
      : rows(r), depth(d), cols(c), x(r * d, 1.0f), y(d * c, 1.0f), out(r * c, -1.0f) {
    for (int64_t i = 0; i < r; ++i) x[i * d] = k2p24;
  }
  OneDnnBlock block(bool add = false, int64_t lda = 1) {
    OneDnnBlock b;
    b.x = x.data(), b.ldx = depth, b.y = y.data(), b.ldy = cols, b.out = out.data(), b.ldo = cols;
    b.rows = rows, b.cols = cols, b.depth = depth, b.add = add, b.lda = lda;
    return b;
  }
  float at(int64_t r, int64_t c) const { return out[r * cols + c]; }
};

float chain(Chain c, const std::vector<float>& x, const std::vector<float>& y) {
  float out = 0.0f;
  chain_block(c, x.data(), 0, y.data(), 1, static_cast<int64_t>(x.size()), &out, 1, 1, 1, false);
  return out;
}

// 2^24 + 1 + 1 + 1 + 1 one by one stays 2^24. Split: even k (2^24, 1) -> 2^24, odd k (1, 1) ->
// 2, added 2^24 + 2, then the odd last k: 2^24 + 3 ties to 2^24 + 4.
TEST(SumChains, SplitChainsSumEvenAndOddKApart) {
  const std::vector<float> x = {k2p24, 1, 1, 1, 1}, y(5, 1.0f);
  EXPECT_EQ(chain(Chain::kFma, x, y), k2p24);
  EXPECT_EQ(chain(Chain::kMulAdd, x, y), k2p24);
  EXPECT_EQ(chain(Chain::kFmaSplit, x, y), k2p24 + 4);
  EXPECT_EQ(chain(Chain::kMulAddSplit, x, y), k2p24 + 4);
}

// -(1 + 2^-11) + (1 + 2^-12)^2: fused, the product keeps its 2^-24; rounded first, it is lost.
TEST(SumChains, FusedChainsKeepTheProductUnrounded) {
  const float a = 1.0f + std::ldexp(1.0f, -12);
  const std::vector<float> x = {-(1.0f + std::ldexp(1.0f, -11)), a}, y = {1.0f, a};
  EXPECT_EQ(chain(Chain::kFma, x, y), std::ldexp(1.0f, -24));
  EXPECT_EQ(chain(Chain::kMulAdd, x, y), 0.0f);
}

TEST(SumChains, VectorKernelsGiveTheScalarBits) {
  std::mt19937 gen(5);
  std::normal_distribution<float> d;
  const int64_t rows = 7, depth = 37, cols = 29;
  std::vector<float> x(rows * depth), y(depth * cols);
  for (float& v : x) v = std::ldexp(d(gen), static_cast<int>(gen() % 17) - 8);
  for (float& v : y) v = d(gen);
  for (Chain c : {Chain::kFma, Chain::kFmaSplit, Chain::kMulAddSplit, Chain::kMulAdd}) {
    for (bool add : {false, true}) {
      std::vector<float> fast(rows * cols, 0.5f), slow(rows * cols, 0.5f);
      chain_block(c, x.data(), depth, y.data(), cols, depth, fast.data(), cols, rows, cols, add);
      chain_block_scalar(c, x.data(), depth, y.data(), cols, depth, slow.data(), cols, rows, cols,
                         add);
      EXPECT_EQ(fast, slow) << "chain " << static_cast<int>(c) << " add " << add;
    }
  }
}

// AVX2 nocopy tiles: 7 rows are a 6-row chunk and a 1-row one (two chains of rounded products
// and adds); 20 columns are a 16-column tile and a remainder of 4 (an 8 tile: two FMA chains).
TEST(OneDnnBlocks, Avx2TileKindChoosesTheChain) {
  Ones t(7, 5, 20);
  onednn_nn_block(OneDnnIsa::kAvx2, t.block());
  for (int64_t r = 0; r < 7; ++r) {
    for (int64_t c = 0; c < 20; ++c) {
      const bool one_chain = r < 6 && c < 16;
      EXPECT_EQ(t.at(r, c), one_chain ? k2p24 : k2p24 + 4) << r << "," << c;
    }
  }
}

// 80 rows are two chunks of 40 (36 + a 4-row tile each): without the chunks rows 78 and 79
// would be a 2-row tile.
TEST(OneDnnBlocks, Avx2CutsRowsIntoChunksOf48WithHalving) {
  Ones t(80, 5, 16);
  onednn_nn_block(OneDnnIsa::kAvx2, t.block());
  EXPECT_EQ(t.at(79, 0), k2p24);
  EXPECT_EQ(t.at(39, 0), k2p24);
}

// k 300 on AVX2 (blocks of 256, halved): [150, 150]: 2^24 + (149 ones lost) then + 150.
// On AVX-512 (384): one block. k 800 on AVX-512: [384, 208, 208] -> 2^24 + 208 + 208.
TEST(OneDnnBlocks, KIsCutByHalvingPerIsa) {
  Ones a(2, 300, 2), b(2, 300, 2), c(2, 800, 2);
  onednn_nn_block(OneDnnIsa::kAvx2, a.block());
  onednn_nn_block(OneDnnIsa::kAvx512Core, b.block());
  onednn_nn_block(OneDnnIsa::kAvx512Core, c.block());
  EXPECT_EQ(b.at(0, 0), k2p24);
  EXPECT_EQ(c.at(1, 1), k2p24 + 416);
  // AVX2's 2 x 2 tile sums even and odd k apart too: block 1 (k 0..149) has even k 2^24 (74
  // ones lost) and odd k 75, added: 2^24 + 75 ties to 2^24 + 76; block 2 is 150: 2^24 + 226.
  EXPECT_EQ(a.at(0, 0), k2p24 + 226);
}

// One row of C is oneDNN's gemv_n: the FMA chain goes on from C's value, so with C = 2^24 the
// four ones are lost; the gemm kernels would add their sum (4) to C.
TEST(OneDnnBlocks, OneRowContinuesTheChainFromC) {
  Ones t(1, 4, 3);
  for (float& v : t.x) v = 1.0f;
  for (float& v : t.out) v = k2p24;
  onednn_nn_block(OneDnnIsa::kAvx2, t.block(/*add=*/true));
  EXPECT_EQ(t.at(0, 2), k2p24);
}

// One column is gemv_t: k 0..15 in 8 FMA lanes (lane 0: 2^24 + 1 -> 2^24, the others 2), reduced
// ((l0+l1)+(l4+l5)) + ((l2+l3)+(l6+l7)) = 2^24 + 14, then the piece of 4: + 4.
TEST(OneDnnBlocks, OneColumnIsALaneDotProduct) {
  Ones t(1, 20, 1);
  t.rows = 2, t.x.resize(40, 1.0f), t.out.resize(2), t.x[20] = k2p24;
  onednn_nn_block(OneDnnIsa::kAvx2, t.block());
  EXPECT_EQ(t.out[0], k2p24 + 18);
  EXPECT_EQ(t.out[1], k2p24 + 18);
}

// Where oneDNN reads x through a stride it copies it in pieces of 512 k: 600 = 512 + 88.
// Piece 1: lanes 2^24 and 64s -> 2^24 + 448; piece 2: lanes of 10 -> 80, then 8. Without the
// pieces: lanes 2^24 and 74s -> 2^24 + 74 + 148 + 296, then 8.
TEST(OneDnnBlocks, StridedDotProductRunsInPiecesOf512) {
  Ones a(2, 600, 1), b(2, 600, 1);
  onednn_nn_block(OneDnnIsa::kAvx2, a.block(false, /*lda=*/2));
  onednn_nn_block(OneDnnIsa::kAvx2, b.block(false, /*lda=*/1));
  EXPECT_EQ(a.out[0], k2p24 + 536);
  EXPECT_EQ(b.out[0], k2p24 + 526);
}

std::vector<float> varied(int64_t size, uint32_t seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> d;
  std::vector<float> v(static_cast<size_t>(size));
  for (float& x : v) x = std::ldexp(d(gen), static_cast<int>(gen() % 17) - 8);
  return v;
}

// gemv_t reads a contiguous column with 8-float registers, a strided one element by element: the
// same FMAs in the same lanes, so the same bits, for every length of k (runs of 16 and pieces).
TEST(OneDnnBlocks, ContiguousDotProductGivesTheStridedBits) {
  for (int64_t depth : {1, 7, 15, 16, 17, 31, 32, 45, 128, 300, 784}) {
    const int64_t rows = 5;
    std::vector<float> x = varied(rows * depth, 3), y = varied(depth, 4), y3(depth * 3, 0.0f);
    for (int64_t k = 0; k < depth; ++k) y3[k * 3] = y[k];
    std::vector<float> fast(rows), slow(rows);
    OneDnnBlock b;
    b.x = x.data(), b.ldx = depth, b.y = y.data(), b.ldy = 1, b.out = fast.data(), b.ldo = 1;
    b.rows = rows, b.cols = 1, b.depth = depth;
    onednn_nn_block(OneDnnIsa::kAvx2, b);
    b.y = y3.data(), b.ldy = 3, b.out = slow.data();
    onednn_nn_block(OneDnnIsa::kAvx2, b);
    EXPECT_EQ(fast, slow) << "depth " << depth;
  }
}

// _MklMatMul's one-row product with transpose_b (the gradient of x @ W with respect to x, at
// batch 1) is oneDNN's gemv_t dot product (gemm_f32.h's kGemvDot, written independently there),
// however a is stored; both oneDNN entry points give its bits.
TEST(OneDnnBlocks, OneRowTimesTransposedMatrixIsTheGemvDotProduct) {
  for (int64_t k : {1, 5, 16, 17, 40, 128, 300, 784}) {
    for (int64_t n : {1, 3, 9, 256}) {
      for (bool ta : {false, true}) {
        std::vector<float> a = varied(k, 11), b = varied(n * k, 12);
        std::vector<float> want(n), got(n, -1.0f), got2(n, -1.0f);
        gemm_f32_scalar(a.data(), ta, b.data(), true, 1, k, n, GemmOrder{SumOrder::kGemvDot, {}},
                        want.data());
        onednn_gemv_matmul(OneDnnIsa::kAvx512Core, a.data(), ta, b.data(), true, 1, k, n,
                           got.data(), 2);
        onednn_avx2_matmul(a.data(), ta, b.data(), true, 1, k, n, got2.data(), 2);
        EXPECT_EQ(got, want) << "k " << k << " n " << n << " ta " << ta;
        EXPECT_EQ(got2, want) << "k " << k << " n " << n << " ta " << ta;
      }
    }
  }
}

TEST(OneDnnBlocks, NocopyCheckerChoosesCopyBasedForLargeBlocks) {
  EXPECT_TRUE(onednn_uses_nocopy(OneDnnIsa::kAvx2, 384, 264, 256, 512, 512, 512));
  EXPECT_FALSE(onednn_uses_nocopy(OneDnnIsa::kAvx2, 768, 408, 320, 1024, 320, 1024));
  EXPECT_TRUE(onednn_uses_nocopy(OneDnnIsa::kAvx512Core, 768, 408, 320, 1000, 320, 1000));
}

// Eigen's vectorized inner product (x a row, y a transposed row): 16 = two packets added lane by
// lane (lane 0: 2^24 + 1 -> 2^24, others 2), then ((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7)) =
// 2^24 + 14. Not vectorized: one chain, 2^24.
TEST(EigenProducts, InnerProductVectorizesOnlyContiguousOperands) {
  std::vector<float> x(16, 1.0f), y(16, 1.0f);
  x[0] = k2p24;
  EXPECT_EQ(eigen_inner_product(x.data(), 1, y.data(), 1, 16, true), k2p24 + 14);
  EXPECT_EQ(eigen_inner_product(x.data(), 1, y.data(), 1, 16, false), k2p24);
}

// Column-major gemv: from 128 columns on, k runs in blocks of 16, each summed apart:
// 2^24 (15 ones lost) + 7 * 16.
TEST(EigenProducts, ColumnMajorGemvSumsBlocksOf16) {
  for (int64_t k : {127, 128}) {
    std::vector<float> L(k, 1.0f), v(k, 1.0f);
    L[0] = k2p24;
    float res = -1;
    eigen_gemv_colmajor(L.data(), 1, v.data(), 1, 1, k, &res, 1);
    EXPECT_EQ(res, k == 128 ? k2p24 + 112 : k2p24) << k;
  }
}

// Row-major gemv, 12 columns: a packet (lane 0 2^24, 7 ones): 2^24 + 6; a row in a group of two
// adds the last 4 one by one (2^24 + 7 ties to + 8, then stays); a last single row takes them as
// a half packet: + 4.
TEST(EigenProducts, RowMajorGemvLastRowTakesAHalfPacket) {
  std::vector<float> L(3 * 12, 1.0f), v(12, 1.0f), res(3, -1);
  for (int r = 0; r < 3; ++r) L[r * 12] = k2p24;
  eigen_gemv_rowmajor(L.data(), 12, v.data(), 1, 3, 12, res.data(), 1);
  EXPECT_EQ(res[0], k2p24 + 8);
  EXPECT_EQ(res[1], k2p24 + 8);
  EXPECT_EQ(res[2], k2p24 + 10);
}

// Eigen's GEMM for 4 rows x 21 columns of ours (its 21 x 4), k 9: our columns 0..15 are a 2pX4
// panel (one chain: 2^24); 16..19 a 1pX4 half packet (even and odd steps of the 8 peeled k:
// 2^24 + 4, then k 8: ties to 2^24 + 4); 20 the last row, swapped (pairs of k in 4 packets:
// 2^24 + 2 and 4, + 1 ties to 2^24 + 8).
TEST(EigenProducts, GemmMicroKernelsSumByPosition) {
  const int64_t m = 4, k = 9, n = 21;
  std::vector<float> x(m * k, 1.0f), y(k * n, 1.0f), out(m * n, -1);
  for (int64_t r = 0; r < m; ++r) x[r * k] = k2p24;
  eigen_gemm(StridedMat{x.data(), k, 1, false}, StridedMat{y.data(), n, 1, false}, m, k, n,
             out.data(), n, EigenCacheSizes{32768, 262144, 2097152});
  for (int64_t r = 0; r < m; ++r) {
    EXPECT_EQ(out[r * n + 0], k2p24);
    EXPECT_EQ(out[r * n + 15], k2p24);
    EXPECT_EQ(out[r * n + 16], k2p24 + 4);
    EXPECT_EQ(out[r * n + 19], k2p24 + 4);
    EXPECT_EQ(out[r * n + 20], k2p24 + 8);
  }
}

}  // namespace
}  // namespace tfs::detail

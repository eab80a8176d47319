// How TF 2.21's Eigen contraction cuts float32 products (src/ops/eigen_contraction.h), with the
// expected blockings and plans worked out by hand from Eigen's formulas (the steps are in the
// comments) for two machines: this project's Intel Xeon as Eigen reads it (48 KiB L1d, 2 MiB L2,
// 300 MiB L3) and an AMD EPYC (32 KiB L1d, 512 KiB L2, 32 MiB of L3 in CPUID 0x80000006), so that
// the AVX2 machine's path is checked on any machine. TF's own blocks were seen with
// ONEDNN_VERBOSE=1 (oneDNN logs each block's sgemm) for the Intel MLP layer below.
#include <gtest/gtest.h>

#include <vector>

#include "eigen_contraction.h"
#include "eigen_matmul.h"

namespace tfs::detail {
namespace {

constexpr EigenCacheSizes kXeon{49152, 2097152, 314572800};
constexpr EigenCacheSizes kEpyc{32768, 524288, 33554432};

ContractionSetting setting(const EigenCacheSizes& c, int threads) {
  ContractionSetting s;
  s.caches = c;
  s.threads = threads;
  return s;
}

// With more than one thread: kc = min((l1 - 16*4*4) / (16*4 + 4*4), 320) = 320 on both machines;
// nc from (l2 - l1) / (4 * 4 * kc): 400 on the Xeon, 96 on the EPYC; mc from the L3.
TEST(EigenBlocking, MultiThreadHeuristicFollowsTheCaches) {
  // Xeon, 512^3: n_cache 400 > n per thread 256, so n = 256; m per thread 256
  EXPECT_EQ(eigen_product_blocking(512, 512, 512, 2, kXeon), (EigenBlocking{320, 256, 256}));
  // EPYC: n_cache 96 <= 256, so n = 96
  EXPECT_EQ(eigen_product_blocking(512, 512, 512, 2, kEpyc), (EigenBlocking{320, 256, 96}));
}

// One thread: max_kc = ((l1 - 256) / 80) & ~7 = 608 (Xeon); k = 1000 > 608 makes
// kc = 608 - 8 * ((607 - 392) / (8 * 2)) = 504; then remaining L1 allows nc = 16 >= n = 3.
TEST(EigenBlocking, SingleThreadHeuristicBalancesTheKSlices) {
  EXPECT_EQ(eigen_product_blocking(1000, 5, 3, 1, kXeon), (EigenBlocking{504, 5, 3}));
  // Below 48 in every dimension nothing is blocked.
  EXPECT_EQ(eigen_product_blocking(40, 30, 20, 1, kEpyc), (EigenBlocking{40, 30, 20}));
}

// std::complex (complex.cc's MatMul, one thread): k_div = mr * size + nr * size and k_sub =
// mr * nr * size with mr = 4, 16 bytes (complex128) or mr = 8, 8 bytes (complex64), nr = 4.
// complex128 7x300x9 (Eigen's M = 9, N = 7): the Xeon's max_kc = ((49152 - 256) / 128) & ~7 = 376
// keeps k = 300, and n = 7 < nc lets mc be cut: 33600 bytes > 32 KiB gives mc = min(1.5 MB /
// (3 * 300 * 16), 9) = 9 -> 8. The EPYC's max_kc = 248 slices k: 248 - 8 * ((247 - 52) / 16) =
// 152; then remaining L1 = 32768 - 256 - 9 * 152 * 16 = 10624 allows nc = 4 (7 -> 4 - 4 * 0).
// complex64 6x800x10 on the EPYC: max_kc = ((32768 - 256) / 96) & ~7 = 336, k = 336 - 8 * (207 /
// 24) = 272, nc = 4.
TEST(EigenBlocking, ComplexProductsAreSlicedByTheirOwnSizes) {
  EXPECT_EQ(eigen_product_blocking(300, 9, 7, 1, kXeon, kComplex128Gebp),
            (EigenBlocking{300, 8, 7}));
  EXPECT_EQ(eigen_product_blocking(300, 9, 7, 1, kEpyc, kComplex128Gebp),
            (EigenBlocking{152, 9, 4}));
  EXPECT_EQ(eigen_product_blocking(800, 10, 6, 1, kEpyc, kComplex64Gebp),
            (EigenBlocking{272, 10, 4}));
  // complex64 at k = 300 is not sliced on either (max_kc 504 and 336)
  EXPECT_EQ(eigen_product_blocking(300, 9, 7, 1, kEpyc, kComplex64Gebp).kc, 300);
}

// TF's oneDNN refinement: mc * 1.5 rounded up to 48, nc rounded up to 24, k in equal slices
// rounded up to 8: 784 in slices of 320 is 3 slices, 784 / 3 = 261 -> 264.
TEST(EigenBlocking, TfRefinesBlocksForOneDnn) {
  EXPECT_EQ(tf_contraction_blocking(784, 256, 64, 2, true, kXeon), (EigenBlocking{264, 192, 48}));
  EXPECT_EQ(tf_contraction_blocking(512, 512, 512, 2, true, kEpyc), (EigenBlocking{256, 384, 96}));
  EXPECT_EQ(tf_contraction_blocking(512, 512, 512, 2, true, kXeon), (EigenBlocking{256, 384, 264}));
  // without TF's kernel, Eigen's blocking stays as it is
  EXPECT_EQ(tf_contraction_blocking(784, 256, 64, 2, true, kXeon, false),
            (EigenBlocking{320, 128, 32}));
}

TEST(EigenContraction, ShardsByColumnUnlessRowsAreTooFew) {
  EXPECT_TRUE(eigen_shard_by_col(256, 64, 2));
  EXPECT_FALSE(eigen_shard_by_col(1000, 2, 2));  // n / threads = 1 < nr
  // few columns per thread (30 < 4 nr), not a multiple of threads * nr, m a multiple of it
  EXPECT_FALSE(eigen_shard_by_col(5000, 60, 2));
  EXPECT_FALSE(eigen_shard_by_col(5000, 100, 2));  // m > 32 n with n / threads < 16 nr
}

// TF's MatMul 64 x 784 x 256 (the MLP's first layer at batch 64) is Eigen's M = 256, N = 64,
// K = 784. Cost per output with blocks 192 x 48 x 264: 264 / 8 compute + 4 stored + 4 * 264 / 256
// loaded = 563552 cycles over 16384 outputs: (563552 - 1e5) / 1e5 + 0.9 -> 5 threads, capped at 2.
// Sharding by k would cost more than it saves for 2 threads' worth of parallelism it does not
// beat, so the blocks run in parallel: 192 x 48, k slices of 264 (TF's oneDNN log shows the
// 48x264:264x192 and 16x264:264x64 sgemm calls).
TEST(EigenContraction, MlpLayerRunsInParallelBlocks) {
  for (const EigenCacheSizes& c : {kXeon, kEpyc}) {
    const ContractionPlan p = plan_contraction(256, 64, 784, setting(c, 2));
    EXPECT_EQ(p.kind, ContractionPlan::Kind::kParallel);
    EXPECT_EQ(p.bm, 192);
    EXPECT_EQ(p.bn, 48);
    EXPECT_EQ(p.bk, 264);
  }
}

TEST(EigenContraction, BlocksOfLargeProductsDependOnTheL2) {
  const ContractionPlan xeon = plan_contraction(512, 512, 512, setting(kXeon, 2));
  const ContractionPlan epyc = plan_contraction(512, 512, 512, setting(kEpyc, 2));
  EXPECT_EQ(xeon.kind, ContractionPlan::Kind::kParallel);
  EXPECT_EQ(epyc.kind, ContractionPlan::Kind::kParallel);
  EXPECT_EQ(xeon.bn, 264);
  EXPECT_EQ(epyc.bn, 96);
}

// TF 2 x 600 x 1000 (M = 1000, N = 2): sharded by row, the cost model gives 2 threads; by k,
// 600 * 502.0625 = 301237.5 cycles alone against 150618.75 + 108562.5 with 2 threads, so k is
// cut in 2 blocks of divup(300, 8) * 8 = 304 (N = 2 < 2 nr makes sharding by k the choice).
TEST(EigenContraction, ShortWideProductsShardByK) {
  const ContractionPlan p = plan_contraction(1000, 2, 600, setting(kXeon, 2));
  EXPECT_EQ(p.kind, ContractionPlan::Kind::kInnerDim);
  EXPECT_EQ(p.blocks, 2);
  EXPECT_EQ(p.block_size, 304);
  // one thread never shards
  EXPECT_EQ(plan_contraction(1000, 2, 600, setting(kXeon, 1)).kind,
            ContractionPlan::Kind::kSequential);
}

// A small product costs less than the pool's start-up: one thread, Eigen's single-thread
// blocking (1000 = two k slices of 504, see above).
TEST(EigenContraction, SmallProductsRunOnOneThread) {
  const ContractionPlan p = plan_contraction(5, 3, 1000, setting(kXeon, 2));
  EXPECT_EQ(p.kind, ContractionPlan::Kind::kSequential);
  EXPECT_EQ(p.bk, 504);
  EXPECT_EQ(p.bm, 5);
  EXPECT_EQ(p.bn, 3);
}

struct OutputBlock {
  int64_t row, col, rows, cols;
  bool operator==(const OutputBlock&) const = default;
};

// SingleBatchParallelMatMulKernel: 1 x 2 x 10000 with 2 threads has 20000 products against a
// limit of max(20000 / 2, 16384): the 10000 columns are halved at divup(5000, 64) * 64 = 5056.
TEST(SingleBatchBlocks, HalvesTheLongSideInMultiplesOf64) {
  std::vector<OutputBlock> blocks;
  for_each_single_batch_block(1, 2, 10000, 2, [&](int64_t r, int64_t c, int64_t rs, int64_t cs) {
    blocks.push_back({r, c, rs, cs});
  });
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0], (OutputBlock{0, 5056, 1, 4944}));
  EXPECT_EQ(blocks[1], (OutputBlock{0, 0, 1, 5056}));
  int64_t count = 0;  // below the limit: one block
  for_each_single_batch_block(1, 2, 8000, 2, [&](int64_t, int64_t, int64_t, int64_t) { ++count; });
  EXPECT_EQ(count, 1);
}

}  // namespace
}  // namespace tfs::detail

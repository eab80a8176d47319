// How TF 2.21's Eigen tensor contraction (TensorContractionThreadPool.h, with TF's oneDNN
// contraction kernel) cuts a float32 matrix product into blocks, on TF's intra-op thread pool.
// Internal to src/ops: the decisions only, in integers, so that tests can work them out by hand
// for any machine; eigen_matmul.cc computes the products in the order they imply.
//
// Eigen works column-major: C (M x N) = A (M x K) * B (K x N). TF's row-major product
// out (m x n) = x (m x k) * y (k x n) is, column-major, out^T = y^T x^T: M = n, N = m, K = k.
#pragma once

#include <cstdint>

#include "tfscope/cpu_info.h"

namespace tfs::detail {

// Eigen's gebp_traits<float, float> as TF's wheel builds it (AVX, no FMA): mr = 16, nr = 4, and
// 8-float packets. They enter the blocking and the cost model.
inline constexpr int64_t kEigenMr = 16;
inline constexpr int64_t kEigenNr = 4;
inline constexpr int64_t kEigenPacket = 8;

struct EigenBlocking {
  int64_t kc = 0, mc = 0, nc = 0;
  bool operator==(const EigenBlocking&) const = default;
};

// The gebp_traits that enter Eigen's blocking: register block mr x nr, element sizes.
struct GebpShape {
  int64_t mr = kEigenMr, nr = kEigenNr;
  int64_t lhs_bytes = 4, rhs_bytes = 4, res_bytes = 4;
};
// std::complex in TF's AVX build: mr = 2 packets (4 complex64 or 2 complex128 per packet).
inline constexpr GebpShape kComplex64Gebp{8, 4, 8, 8, 8};
inline constexpr GebpShape kComplex128Gebp{4, 4, 16, 16, 16};

// Eigen's evaluateProductBlockingSizesHeuristic<Lhs, Rhs, 1>(k, m, n, num_threads); float by
// default.
EigenBlocking eigen_product_blocking(int64_t k, int64_t m, int64_t n, int64_t num_threads,
                                     const EigenCacheSizes& caches, const GebpShape& g = {});

// TensorContractionBlocking<float, ...> as TF specializes it for its oneDNN kernel: Eigen's
// blocking (m and n swapped when sharding by row), then mc scaled by 1.5 and rounded up to 48,
// nc rounded up to 24, and k cut into equal slices rounded up to 8. `custom_kernels` false: Eigen's
// blocking unchanged.
EigenBlocking tf_contraction_blocking(int64_t k, int64_t m, int64_t n, int64_t num_threads,
                                      bool shard_by_col, const EigenCacheSizes& caches,
                                      bool custom_kernels = true);

// What the thread-pool evaluator does with one contraction.
struct ContractionPlan {
  enum class Kind : uint8_t {
    kSequential,  // one thread: evalGemmPartial over all of k (blocks mc x nc, k slices of kc)
    kParallel,    // blocks bm x bn, k slices of bk, kernels spread over the pool
    kInnerDim,    // k cut into `blocks` of `block_size`, each summed apart, partial sums added
  };
  Kind kind = Kind::kSequential;
  int64_t bm = 0, bn = 0, bk = 0;      // kSequential: mc, nc, kc; kParallel: bm, bn, bk
  int64_t blocks = 0, block_size = 0;  // kInnerDim
  int threads = 1;                     // threads the cost model chose (kInnerDim: by k)
};

// The evaluator's inputs besides the sizes: the pool, the caches, and the cost per input
// coefficient (a plain TensorMap: 4 bytes loaded; a chip of a batch, as TF's BatchMatMul
// contracts per batch: also 1/8 compute cycle for its index arithmetic).
struct ContractionSetting {
  int threads = 1;  // the ThreadPoolDevice's numThreads (TF's intra-op threads)
  EigenCacheSizes caches;
  bool chipped = false;
  bool custom_kernels = true;
  // Eigen's rhs (TF's x) is a reshape of extracted image patches, as in Conv2D's
  // SpatialConvolution: its evaluator adds 3 index divisions and 14 multiplications per
  // coefficient (TensorImagePatch.h's costPerCoeff), over a packet.
  bool rhs_patches = false;
};

ContractionPlan plan_contraction(int64_t M, int64_t N, int64_t K, const ContractionSetting& s);

// The parts of the plan, for tests.
bool eigen_shard_by_col(int64_t m, int64_t n, int64_t num_threads);
int eigen_threads_by_inner_dim(int64_t m, int64_t n, int64_t k, const ContractionSetting& s);

}  // namespace tfs::detail

// TF 2.21's float32 MatMul and BatchMatMulV2 kernel without oneDNN (TF_ENABLE_ONEDNN_OPTS=0, and
// TF's default on CPUs without AVX512_VNNI, AVX512_BF16, AVX_VNNI or AMX): matmul_op_impl.h's
// LaunchBatchMatMul<CPUDevice, float>, which runs Eigen's tensor contraction (its blocks summed by
// oneDNN's sgemm) or Eigen's own products, in the order each of them sums. Internal to src/ops.
#pragma once

#include <algorithm>
#include <cstdint>

#include "eigen_contraction.h"
#include "tfscope/cpu_info.h"

namespace tfs::detail {

struct EigenMatMulSetting {
  OneDnnIsa isa = OneDnnIsa::kAvx2;  // the kernels oneDNN's sgemm dispatches to
  int threads = 1;                   // TF's intra-op threads
  EigenCacheSizes caches;
  bool custom_kernels = true;  // TENSORFLOW_USE_CUSTOM_CONTRACTION_KERNEL
};
const EigenMatMulSetting& eigen_matmul_setting();  // this machine's, read once

// c (m x n) = op(a) (m x k) * op(b) (k x n), one product of a batch of `batch` (1 for MatMul);
// a is m x k row-major, or k x m when ta; b is k x n, or n x k when tb. Returns whether tfscope
// summed in TF's order (see eigen_matmul.cc for what is not); c holds the product either way.
bool eigen_matmul(const float* a, bool ta, const float* b, bool tb, int64_t m, int64_t k, int64_t n,
                  int64_t batch, float* c, const EigenMatMulSetting& s);

// One Eigen tensor contraction out (m x n) = x (m x k) op(y) (k x n) as TF's kernels other than
// MatMul call it (Conv2D's MatMulConvFunctor and SpatialConvolution): x row-major, y k x n or,
// when ty, n x k. `x_patches`: x stands for extracted image patches (never read in place, and
// costlier per coefficient in the thread pool's cost model). Returns whether the sum is in TF's
// order.
bool eigen_contract(const float* x, bool x_patches, const float* y, bool ty, int64_t m, int64_t k,
                    int64_t n, float* out, const EigenMatMulSetting& s);

// How TF's SingleBatchParallelMatMulKernel cuts the output of a large product with a dimension
// of 1 among threads: halves (rounded up to 64) of the longer side while a block holds more than
// max(m k n / threads, 128 * 128) products. f(row, col, rows, cols) for each block.
template <typename F>
void for_each_single_batch_block(int64_t m, int64_t k, int64_t n, int threads, F&& f) {
  constexpr int64_t kBlockMin = 64;  // 8 packets of 8 floats
  const int64_t limit = std::max<int64_t>(m * k * n / threads, 128 * 128);
  auto handle = [&](auto& self, int64_t row, int64_t col, int64_t rows, int64_t cols) -> void {
    while (rows * k * cols > limit && (rows > kBlockMin || cols > kBlockMin)) {
      if (rows > cols) {
        const int64_t half = (rows / 2 + kBlockMin - 1) / kBlockMin * kBlockMin;
        self(self, row + half, col, rows - half, cols);
        rows = half;
      } else {
        const int64_t half = (cols / 2 + kBlockMin - 1) / kBlockMin * kBlockMin;
        self(self, row, col + half, rows, cols - half);
        cols = half;
      }
    }
    if (rows > 0 && cols > 0) f(row, col, rows, cols);
  };
  handle(handle, 0, 0, m, n);
}

}  // namespace tfs::detail

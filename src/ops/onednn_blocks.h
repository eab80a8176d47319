// oneDNN 3.7's single-threaded sgemm on a non-transposed block, as TF 2.21's Eigen contraction
// kernel calls it (dnnl_sgemm('N', 'N', ...) on each block, beta 0 for the first k slice and 1 for
// the others), summed in the order of the kernel oneDNN dispatches to. Internal to src/ops.
//
// In TF's row-major terms: out (rows x cols) = [out +] x (rows x depth) * y (depth x cols).
// oneDNN sees the column-major product: its m is `cols`, its n is `rows`.
#pragma once

#include <cstdint>

#include "tfscope/cpu_info.h"

namespace tfs::detail {

struct OneDnnBlock {
  const float* x = nullptr;
  int64_t ldx = 0;
  const float* y = nullptr;
  int64_t ldy = 0;
  float* out = nullptr;
  int64_t ldo = 0;
  int64_t rows = 0, cols = 0, depth = 0;
  bool add = false;  // beta = 1: out + product; else out = product
  // oneDNN's lda for this block (its A is y): where it is not 1, a one-column block's dot product
  // runs through a copied x in pieces of 512 (gemv_kernel_driver's M_BLK).
  int64_t lda = 1;
  // oneDNN's transa / transb (its A is our y, its B our x): they choose the gemv kernel of a
  // one-row or one-column product and the AVX2 kernel's chunks (BN 96 for transa, else 48; BK 96
  // for transb, else 256). The data is given untransposed either way.
  bool trans_a = false, trans_b = false;
  // Only rows [row_begin, row_end) of the block are computed (row_end < 0: all): a product that is
  // part of a larger sgemm sums as the larger one's tiles fall.
  int64_t row_begin = 0, row_end = -1;
};

// The nocopy kernels (jit_avx_gemm_f32 / jit_avx512_common_gemm_f32) for blocks of two or more
// rows and columns, and the gemv kernels for one row or column. Orders are known for
// OneDnnIsa::kAvx2 and kAvx512Core; onednn_block_exact says which blocks tfscope sums in oneDNN's
// order (the others are computed with the kAvx2 order).
void onednn_nn_block(OneDnnIsa isa, const OneDnnBlock& b);
bool onednn_block_exact(OneDnnIsa isa, int64_t rows, int64_t cols, int64_t depth, int64_t lda,
                        int64_t ldb, int64_t ldc);

// oneDNN's choice between its nocopy and copy-based sgemm for `nthr` threads, a non-transposed
// product and column-major (m, n, k, lda, ldb, ldc) (gemm_driver.cpp's nocopy_checker).
bool onednn_uses_nocopy(OneDnnIsa isa, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
                        int64_t ldc, int nthr = 1);

}  // namespace tfs::detail

// Eigen's own (non-tensor) float32 products as TF 2.21's wheel runs them: built for AVX without
// FMA, so 8-float packets and a rounded product then an add at every step. TF's MatMul and
// BatchMatMulV2 use them where a dimension is 1 or a batch of small products is spread over
// threads (matmul_op_impl.h's SequentialMatMulKernel and SingleBatchParallelMatMulKernel).
// Internal to src/ops.
#pragma once

#include <cstdint>

#include "tfscope/cpu_info.h"

namespace tfs::detail {

// A matrix view by element strides: at(i, j) = p[i * rs + j * cs]. `transposed`: the view is
// the transpose of a stored row-major matrix (Eigen then sees a column-major matrix, which decides
// its kernels even where a stride happens to be 1).
struct StridedMat {
  const float* p = nullptr;
  int64_t rs = 0, cs = 0;
  bool transposed = false;
  float at(int64_t i, int64_t j) const { return p[i * rs + j * cs]; }
};

// out (m x n, row stride ldo) = x (m x k) * y (k x n) as Eigen's `dst.noalias() = x * y` computes
// it for dynamic row-major maps: the coefficient-based product when k + m + n < 20, else the inner
// product (m = n = 1), a matrix-vector product (m or n = 1) or the GEMM (blocked by Eigen's
// heuristic for one thread and `caches`). The strides are Eigen's too: they choose some of the
// kernels' blockings.
void eigen_product(const StridedMat& x, const StridedMat& y, int64_t m, int64_t k, int64_t n,
                   float* out, int64_t ldo, const EigenCacheSizes& caches);

// The parts, for tests. `contiguous`: both vectors have unit stride known at compile time in
// TF's expression (x a row of a row-major map, y a column of a transposed one), which lets Eigen
// vectorize the inner product with four 8-float accumulators.
float eigen_inner_product(const float* x, int64_t xs, const float* y, int64_t ys, int64_t k,
                          bool contiguous);
// res (rows) = L (rows x cols, column-major with column stride `stride`) * v.
void eigen_gemv_colmajor(const float* L, int64_t stride, const float* v, int64_t vs, int64_t rows,
                         int64_t cols, float* res, int64_t res_stride);
// res (rows) = L (rows x cols, row-major with row stride `stride`) * v.
void eigen_gemv_rowmajor(const float* L, int64_t stride, const float* v, int64_t vs, int64_t rows,
                         int64_t cols, float* res, int64_t res_stride);
// Eigen's GEMM (gebp micro kernels for AVX without FMA: mr = 16, nr = 4, 8-float packets).
void eigen_gemm(const StridedMat& x, const StridedMat& y, int64_t m, int64_t k, int64_t n,
                float* out, int64_t ldo, const EigenCacheSizes& caches);

}  // namespace tfs::detail

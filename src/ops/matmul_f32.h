// TF 2.21's float32 MatMul and BatchMatMulV2 on the machine tfscope runs on: the kernel TF would
// run here (oneDNN's when TF enables it, tfs::tf_onednn_enabled(), else TF's Eigen kernel) and its
// summation order. Internal to src/ops; nn.cc's MatMul and BatchMatMulV2 kernels call it.
#pragma once

#include <cstdint>

namespace tfs::detail {

// c (m x n) = op(a) (m x k) * op(b) (k x n); a is m x k row-major, or k x m when ta; b is k x n,
// or n x k when tb. Returns whether the bits are TF's (by tfscope's measurements, see the
// README's numerics section); c holds the product either way.
bool tf_matmul_f32(const float* a, bool ta, const float* b, bool tb, int64_t m, int64_t k,
                   int64_t n, float* c);
// Whether tf_matmul_f32 computes this product (k = 1) with gemm_f32's AVX-512 outer product:
// every output fma(a_i, b_j, +0) (sgd_update.h makes them so itself).
bool tf_matmul_is_outer(bool ta, bool tb, int64_t m, int64_t k, int64_t n);
// Product `index` of a BatchMatMulV2 whose output holds `batch` products (adjoints of real
// matrices are transposes); `y_broadcast`: y holds one matrix for all of them. The products'
// operands and outputs are laid out one after the other, as BatchMatMulV2 stores them.
bool tf_batch_matmul_f32(const float* a, bool adj_a, const float* b, bool adj_b, int64_t m,
                         int64_t k, int64_t n, int64_t index, int64_t batch, bool y_broadcast,
                         float* c);

}  // namespace tfs::detail

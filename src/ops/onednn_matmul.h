// TF 2.21's float32 MatMul and BatchMatMulV2 with oneDNN on and oneDNN's AVX2 kernels (an AVX2
// CPU with TF_ENABLE_ONEDNN_OPTS=1, or ONEDNN_MAX_CPU_ISA=AVX2): _MklMatMul calls oneDNN's sgemm
// on the whole product, _MklBatchMatMulV2 oneDNN's gemm-based matmul primitive, which cuts the
// batch's outputs among threads and calls the sgemm on each thread's part. Internal to src/ops.
#pragma once

#include <cstdint>

#include "tfscope/cpu_info.h"

namespace tfs::detail {

// c (m x n) = op(a) * op(b) as _MklMatMul computes it. Returns whether tfscope is sure of
// oneDNN's thread count for this product (one thread, or a split that keeps each output's sum):
// oneDNN sizes its threads for larger products by its own reading of the CPU's caches and cores,
// which tfscope does not reproduce; the sums are then those of one thread.
bool onednn_avx2_matmul(const float* a, bool ta, const float* b, bool tb, int64_t m, int64_t k,
                        int64_t n, float* c, int threads);

// _MklMatMul with m or n = 1 (oneDNN's gemv, the same kernels for AVX2 and AVX-512): its thread
// count only matters for an axpy with few outputs and many k, which it cuts into partial sums.
void onednn_gemv_matmul(OneDnnIsa isa, const float* a, bool ta, const float* b, bool tb, int64_t m,
                        int64_t k, int64_t n, float* c, int threads);

// Product `index` of a BatchMatMulV2 of `batch` products; `y_broadcast`: y has one matrix for all
// of them (oneDNN then runs one sgemm over all rows of x).
bool onednn_avx2_batch_matmul(const float* a, bool adj_a, const float* b, bool adj_b, int64_t m,
                              int64_t k, int64_t n, int64_t index, int64_t batch, bool y_broadcast,
                              float* c, int threads);

}  // namespace tfs::detail

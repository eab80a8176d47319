// Which of TF 2.21's float32 matrix kernels runs here (matmul_f32.h). With oneDNN on, TF's MatMul
// is _MklMatMul (oneDNN's sgemm on the whole product) and BatchMatMulV2 _MklBatchMatMulV2
// (oneDNN's matmul primitive): their orders for oneDNN's AVX-512 kernels are in gemm_f32.h, for its
// AVX2 kernels in onednn_matmul.h. With oneDNN off, both are TF's Eigen kernel (eigen_matmul.h).
#include "matmul_f32.h"

#include "eigen_matmul.h"
#include "gemm_f32.h"
#include "onednn_matmul.h"
#include "tfscope/cpu_info.h"
#include "tfscope/thread_pool.h"

namespace tfs::detail {

bool tf_matmul_f32(const float* a, bool ta, const float* b, bool tb, int64_t m, int64_t k,
                   int64_t n, float* c) {
  if (!tf_onednn_enabled()) {
    return eigen_matmul(a, ta, b, tb, m, k, n, 1, c, eigen_matmul_setting());
  }
  if (onednn_isa() == OneDnnIsa::kAvx2) {
    return onednn_avx2_matmul(a, ta, b, tb, m, k, n, c, intra_op_threads());
  }
  if (onednn_isa() == OneDnnIsa::kAvx512Core && (m == 1 || n == 1) && k > 0) {
    onednn_gemv_matmul(OneDnnIsa::kAvx512Core, a, ta, b, tb, m, k, n, c, intra_op_threads());
    return true;
  }
  gemm_f32(a, ta, b, tb, m, k, n, tf_matmul_order(m, k, n, ta, tb), c);
  return onednn_isa() == OneDnnIsa::kAvx512Core;
}

bool tf_matmul_is_outer(bool ta, bool tb, int64_t m, int64_t k, int64_t n) {
  return k == 1 && m > 1 && n > 1 && tf_onednn_enabled() &&
         onednn_isa() == OneDnnIsa::kAvx512Core && gemm_f32_best_isa() == GemmIsa::kAvx512 &&
         tf_matmul_order(m, k, n, ta, tb).sum == SumOrder::kBlocked;
}

bool tf_batch_matmul_f32(const float* a, bool adj_a, const float* b, bool adj_b, int64_t m,
                         int64_t k, int64_t n, int64_t index, int64_t batch, bool y_broadcast,
                         float* c) {
  if (!tf_onednn_enabled()) {
    return eigen_matmul(a, adj_a, b, adj_b, m, k, n, batch, c, eigen_matmul_setting());
  }
  if (onednn_isa() == OneDnnIsa::kAvx2) {
    return onednn_avx2_batch_matmul(a, adj_a, b, adj_b, m, k, n, index, batch, y_broadcast, c,
                                    intra_op_threads());
  }
  gemm_f32(a, adj_a, b, adj_b, m, k, n, tf_batch_matmul_order(m, k, n), c);
  return onednn_isa() == OneDnnIsa::kAvx512Core;
}

}  // namespace tfs::detail

// TF 2.21's float32 matrix products with oneDNN's AVX2 kernels (onednn_matmul.h), from oneDNN
// 3.7's gemm_driver.cpp, gemv_driver.cpp and gemm_f32_matmul.cpp, checked against
// tensorflow-cpu 2.21.0 with TF_ENABLE_ONEDNN_OPTS=1 ONEDNN_MAX_CPU_ISA=AVX2.
//
// The sgemm (column-major, so oneDNN's A is our y and its transa our transpose_b) runs the same
// nocopy kernel as in TF's Eigen contraction (onednn_blocks.h) on the whole product, or a gemv
// for one row or column. Its thread count for larger products comes from oneDNN's view of the
// caches (at most footprint / L2 per core threads with AVX2 only); with one thread, or for a gemv
// whose threads each take whole outputs, the sums do not depend on it. The matmul primitive of
// BatchMatMulV2 cuts batch x m x n outputs evenly among TF's threads (balance211) and runs a
// one-thread sgemm on each thread's whole products, rows, or part of a row; with y broadcast over
// the batch (and x not transposed) it runs one sgemm over all rows of x instead.
#include "onednn_matmul.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "tfscope/cpu_info.h"

#include "onednn_blocks.h"
#include "tfscope/cpu_info.h"

namespace tfs::detail {
namespace {

float* scratch(int which, int64_t size) {
  thread_local std::vector<float> buffers[3];
  std::vector<float>& v = buffers[which];
  if (static_cast<int64_t>(v.size()) < size) v.resize(static_cast<size_t>(size));
  return v.data();
}

void transpose(const float* src, int64_t rows, int64_t cols, float* dst) {
  constexpr int64_t kT = 32;
  for (int64_t r0 = 0; r0 < rows; r0 += kT) {
    for (int64_t c0 = 0; c0 < cols; c0 += kT) {
      const int64_t r1 = std::min(rows, r0 + kT), c1 = std::min(cols, c0 + kT);
      for (int64_t r = r0; r < r1; ++r) {
        for (int64_t c = c0; c < c1; ++c) dst[c * rows + r] = src[r * cols + c];
      }
    }
  }
}

// One product's operands untransposed: x (m x k) and y (k x n), row-major. `ld_x`, `ld_y`: the
// stored rows' length, which oneDNN steps through for a strided gemv vector.
struct Operands {
  const float* x;
  const float* y;
  int64_t ld_x, ld_y;
};

Operands untransposed(const float* a, bool ta, const float* b, bool tb, int64_t m, int64_t k,
                      int64_t n) {
  Operands o{a, b, ta ? m : k, tb ? k : n};
  if (ta) {
    float* t = scratch(0, m * k);
    transpose(a, k, m, t);
    o.x = t;
  }
  if (tb) {
    float* t = scratch(1, k * n);
    transpose(b, n, k, t);
    o.y = t;
  }
  return o;
}

// One single-threaded sgemm of rows [r0, r0 + rows) x columns [c0, c0 + cols) of out (m x n),
// computing only rows [w0, w1) of it. Returns whether oneDNN would run its nocopy kernel.
bool sgemm(const Operands& op, bool ta, bool tb, int64_t k, int64_t n, float* out, int64_t r0,
           int64_t rows, int64_t c0, int64_t cols, int64_t w0, int64_t w1, int64_t k0 = 0,
           int64_t depth = -1) {
  OneDnnBlock b;
  b.x = op.x + r0 * k + k0, b.ldx = k;
  b.y = op.y + k0 * n + c0, b.ldy = n;
  b.out = out + r0 * n + c0, b.ldo = n;
  b.rows = rows, b.cols = cols, b.depth = depth < 0 ? k : depth;
  b.trans_a = tb, b.trans_b = ta;
  b.row_begin = w0 - r0, b.row_end = w1 - r0;
  // the stride of the vector a gemv_t reads (jump_to_gemv's incx)
  if (rows == 1 && tb) b.lda = ta ? op.ld_x : 1;
  if (cols == 1 && !ta) b.lda = tb ? 1 : op.ld_y;
  onednn_nn_block(OneDnnIsa::kAvx2, b);
  if (rows == 1 || cols == 1) return true;
  return onednn_uses_nocopy(OneDnnIsa::kAvx2, cols, rows, k, op.ld_y, op.ld_x, n);
}

// TF's ExecuteSingleThreadedGemm (mkl_matmul_ops_common.h): _MklMatMul runs oneDNN's sgemm on
// one thread when 4 (m n + k (m + n)) bytes, computed in int, are fewer than Eigen's L2 size.
bool tf_single_threaded(int64_t m, int64_t n, int64_t k) {
  const uint32_t mm = static_cast<uint32_t>(m), nn = static_cast<uint32_t>(n);
  const uint32_t kk = static_cast<uint32_t>(k);
  const int32_t bytes = static_cast<int32_t>(4u * (mm * nn + kk * (mm + nn)));
  return bytes < static_cast<int32_t>(eigen_cache_sizes().l2);
}

// gemm_driver's thread count for a whole-product sgemm on TF's pool (adjust_thread_count,
// threadpool runtime, AVX2 only): all threads for oneDNN's m <= 3 with n > 50, else at most
// footprint / (L2 per core) of them. oneDNN reads the L2 per core with its own topology code;
// tfscope takes Eigen's L2 size.
int gemm_threads(int64_t mc, int64_t nc, int64_t k, int threads) {
  if (threads == 1) return 1;
  if (nc > 50 && mc <= 3) return threads;
  int64_t t = threads;
  if (mc > 10 * nc && nc < t && mc / t < 8 * 3) t = std::max<int64_t>(mc / 8 / 3, 1);
  const int64_t footprint = (mc * nc + mc * k + nc * k) * 4, l2 = eigen_cache_sizes().l2;
  return static_cast<int>(std::min<int64_t>(t, (footprint + l2 - 1) / l2));
}

// calc_nthr_nocopy_avx without k partitions (oneDNN's threadpool runtime cannot synchronize
// threads inside the sgemm): threads over oneDNN's m and n, and the block each thread takes.
struct Split {
  int64_t nthr_m = 1, nthr_n = 1, mb = 0, nb = 0;
};

Split nocopy_split(int64_t m, int64_t n, int nthr) {
  Split s;
  s.mb = m, s.nb = n;
  if (nthr == 1) return s;
  int64_t nm = (m + 63) / 64, nn = (n + 47) / 48;  // BM_NOCOPY_AVX, BN_NOCOPY_AVX
  if (nm == 1) nn = nthr;
  if (nn == 1) nm = nthr;
  while (nm * nn > nthr) nm > nn ? --nm : --nn;
  while (nm * nn < nthr) nm < nn ? ++nm : ++nn;
  if (nm * nn > nthr && nm > 1 && nn > 1) {
    if (nm <= nn) {
      nm = std::min<int64_t>(static_cast<int64_t>(std::sqrt(static_cast<double>(nthr))),
                             (m + 15) / 16);
      nn = nthr / nm;
      while (nm > 1 && nm * nn != nthr) nn = nthr / --nm;
    } else {
      nn = std::min<int64_t>(static_cast<int64_t>(std::sqrt(static_cast<double>(nthr))), n);
      nm = nthr / nn;
      while (nn > 1 && nm * nn != nthr) nm = nthr / --nn;
    }
  }
  s.mb = (m + nm - 1) / nm + 15, s.mb -= s.mb % 16;  // BM_SMALL_NOCOPY_AVX
  s.nb = (n + nn - 1) / nn;                          // BN_SMALL_NOCOPY_AVX = 1
  if (s.mb * nm > m) nm = (m + s.mb - 1) / s.mb;
  if (s.nb * nn > n) nn = (n + s.nb - 1) / s.nb;
  s.nthr_m = nm, s.nthr_n = nn;
  return s;
}

// gemv_threading_driver's thread count (thread_checker, threadpool runtime) for a gemv of m
// outputs over n values of k. Past its fixed thresholds oneDNN sizes it by its reading of the
// caches and cores: with AVX2 only, footprint / (L2 per core) threads; with AVX-512, up to the
// cores per socket where the socket's L2 holds the footprint, else all. tfscope takes Eigen's L2
// and the CPUs this process may run on.
int gemv_threads(OneDnnIsa isa, int64_t m, int64_t n, int threads) {
  if (threads == 1 || m * n + 288 * n < 41700) return 1;
  if (m >= 20000 && n <= 200) return threads;
  const int64_t band = n / threads;
  if (threads <= 12 && band < 32) {
    if (m * band < 2048) return 1;
  } else if (threads <= 12 && m * band < 4096) {
    return 1;
  } else if (threads > 12 && band * m < 4096) {
    return band == 0
               ? 1
               : static_cast<int>(std::min<int64_t>(std::max<int64_t>(n * m / 3072, 1), threads));
  }
  const int64_t l2 = eigen_cache_sizes().l2;
  if (isa == OneDnnIsa::kAvx512Core) {
    const int64_t cores = cpu_info().schedulable_cpus;
    return l2 * cores > m * n * 4 ? static_cast<int>(std::min<int64_t>(threads, cores)) : threads;
  }
  return static_cast<int>(std::min<int64_t>(threads, (m * n * 4 + l2 - 1) / l2));
}

// part_1d without an address: k cut into `nthr` parts, the first n % nthr one longer.
void part_1d(int64_t n, int64_t ithr, int64_t nthr, int64_t& off, int64_t& size) {
  const int64_t extra = n % nthr, width = n / nthr;
  if (ithr < extra) {
    size = width + 1, off = ithr * size;
  } else {
    size = width, off = n - (nthr - ithr) * size;
  }
}

}  // namespace

namespace {

// A gemv (m or n is 1) on `threads` of TF's pool (jump_to_gemv): a dot product per output splits
// outputs over threads; an axpy too, except a short, wide one, which splits k into partial sums
// added afterwards (gemv_threading_driver).
void gemv(OneDnnIsa isa, const Operands& op, bool ta, bool tb, int64_t m, int64_t k, int64_t n,
          float* c, int threads, int64_t w0, int64_t w1) {
  const bool dot = m == 1 ? tb : !ta;
  const int64_t gm = m == 1 ? n : m;  // outputs
  const int g = dot ? 1 : gemv_threads(isa, gm, k, threads);
  if (g == 1 || !(gm <= g * 500 && k >= g * 128)) {
    sgemm(op, ta, tb, k, n, c, 0, m, 0, n, w0, w1);
    return;
  }
  float* part = scratch(2, gm);
  for (int t = 0; t < g; ++t) {
    int64_t off, size;
    part_1d(k, t, g, off, size);
    sgemm(op, ta, tb, k, n, t == 0 ? c : part, 0, m, 0, n, 0, m, off, size);
    if (t > 0) {
      for (int64_t i = 0; i < gm; ++i) c[i] = c[i] + part[i];
    }
  }
}

// One threaded sgemm of the whole of op (m x k by k x n) into c on `threads` of TF's pool,
// computing rows [w0, w1). Returns false where oneDNN would run its copy-based kernel.
bool whole_sgemm(const Operands& op, bool ta, bool tb, int64_t m, int64_t k, int64_t n, float* c,
                 int threads, int64_t w0, int64_t w1) {
  if (m == 1 || n == 1) {
    gemv(OneDnnIsa::kAvx2, op, ta, tb, m, k, n, c, threads, w0, w1);
    return true;
  }
  const int nthr = gemm_threads(n, m, k, threads);
  if (!onednn_uses_nocopy(OneDnnIsa::kAvx2, n, m, k, op.ld_y, op.ld_x, n, nthr)) {
    sgemm(op, ta, tb, k, n, c, 0, m, 0, n, w0, w1);
    return false;
  }
  // each thread's block of oneDNN's m (our columns) by n (our rows) is an sgemm of its own
  const Split s = nocopy_split(n, m, nthr);
  for (int64_t i = 0; i < s.nthr_m * s.nthr_n; ++i) {
    const int64_t c0 = s.mb * (i % s.nthr_m), r0 = s.nb * (i / s.nthr_m);
    const int64_t cols = std::min(s.mb, n - c0), rows = std::min(s.nb, m - r0);
    const int64_t lo = std::max(r0, w0), hi = std::min(r0 + rows, w1);
    if (cols > 0 && rows > 0 && lo < hi) sgemm(op, ta, tb, k, n, c, r0, rows, c0, cols, lo, hi);
  }
  return true;
}

// A one-row product with transpose_b is oneDNN's gemv_t with b's rows as the dot products'
// partners: b is stored n x k, so each row already runs along k. Computed as the one-column block
// b (n x k) times a (k x 1): the same products in the same lanes (gemv_t runs both forms alike),
// without transposing b into a copy that gemv_t would transpose back.
bool stored_row_dots(const float* a, const float* b, bool tb, int64_t m, int64_t k, int64_t n,
                     float* c) {
  if (m != 1 || !tb) return false;
  OneDnnBlock blk;
  blk.x = b, blk.ldx = k;
  blk.y = a, blk.ldy = 1;  // one row of a is contiguous whether or not it is transposed
  blk.out = c, blk.ldo = 1;
  blk.rows = n, blk.cols = 1, blk.depth = k;
  blk.trans_a = true;  // n == 1 too: the one-row gemv_t, as jump_to_gemv takes it
  onednn_nn_block(OneDnnIsa::kAvx2, blk);
  return true;
}

}  // namespace

void onednn_gemv_matmul(OneDnnIsa isa, const float* a, bool ta, const float* b, bool tb, int64_t m,
                        int64_t k, int64_t n, float* c, int threads) {
  if (stored_row_dots(a, b, tb, m, k, n, c)) return;  // a dot product never threads
  const Operands op = untransposed(a, ta, b, tb, m, k, n);
  gemv(isa, op, ta, tb, m, k, n, c, tf_single_threaded(m, n, k) ? 1 : threads, 0, m);
}

bool onednn_avx2_matmul(const float* a, bool ta, const float* b, bool tb, int64_t m, int64_t k,
                        int64_t n, float* c, int threads) {
  if (m == 0 || n == 0) return true;
  if (stored_row_dots(a, b, tb, m, k, n, c)) return true;
  const Operands op = untransposed(a, ta, b, tb, m, k, n);
  return whole_sgemm(op, ta, tb, m, k, n, c, tf_single_threaded(m, n, k) ? 1 : threads, 0, m);
}

bool onednn_avx2_batch_matmul(const float* a, bool adj_a, const float* b, bool adj_b, int64_t m,
                              int64_t k, int64_t n, int64_t index, int64_t batch, bool y_broadcast,
                              float* c, int threads) {
  if (m == 0 || n == 0) return true;
  if (batch == 1) {
    const Operands op = untransposed(a, adj_a, b, adj_b, m, k, n);
    return whole_sgemm(op, adj_a, adj_b, m, k, n, c, threads, 0, m);
  }
  if (y_broadcast && !adj_a) {
    // one sgemm over the batch's rows: x and the output are contiguous over the batch
    const float* x0 = a - index * m * k;
    float* c0 = c - index * m * n;
    const Operands op = untransposed(x0, false, b, adj_b, batch * m, k, n);
    return whole_sgemm(op, false, adj_b, batch * m, k, n, c0, threads, index * m, index * m + m);
  }
  const Operands op = untransposed(a, adj_a, b, adj_b, m, k, n);
  const int64_t work = batch * m * n, per_batch = m * n;
  bool nocopy = true;
  for (int t = 0; t < threads; ++t) {
    // balance211
    int64_t start = 0, end = work;
    if (threads > 1) {
      const int64_t n1 = (work + threads - 1) / threads, n2 = n1 - 1, t1 = work - n2 * threads;
      start = t <= t1 ? t * n1 : t1 * n1 + (t - t1) * n2;
      end = start + (t < t1 ? n1 : n2);
    }
    for (int64_t i = std::max(start, index * per_batch); i < end && i < (index + 1) * per_batch;) {
      const int64_t cur_m = (i % per_batch) / n, cur_n = i % n, rem = end - i;
      int64_t gm, gn;
      if (rem >= per_batch && cur_m == 0 && cur_n == 0) {
        gm = m, gn = n;
      } else if (rem >= n && cur_n == 0) {
        gm = std::min(m - cur_m, rem / n), gn = n;
      } else {
        gm = 1, gn = std::min(n - cur_n, rem);
      }
      nocopy = sgemm(op, adj_a, adj_b, k, n, c, cur_m, gm, cur_n, gn, cur_m, cur_m + gm) && nocopy;
      i += gm * gn;
    }
  }
  return nocopy;
}

}  // namespace tfs::detail

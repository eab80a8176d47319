// TF 2.21's float32 MatMul/BatchMatMulV2 without oneDNN (eigen_matmul.h), measured against
// tensorflow-cpu 2.21.0 with TF_ENABLE_ONEDNN_OPTS=0 on an Intel Xeon (AVX-512) with its own
// kernels and with ONEDNN_MAX_CPU_ISA=AVX2.
//
// LaunchBatchMatMul: with min(m, k, n) > 1, a lone product or one of more than 128 * 128 products
// is an Eigen tensor contraction on the intra-op pool (eigen_contraction.h plans it; each block
// goes to oneDNN's single-threaded sgemm, onednn_blocks.h); other batches run Eigen's products
// (eigen_products.h) one product per task, and a lone product with a dimension of 1 runs them on
// blocks of the output. Not in TF's order: oneDNN's copy-based sgemm for blocks it would choose it
// for (large blocks, mostly with one thread); the contraction when TF's custom kernel is off.
#include "eigen_matmul.h"

#include <algorithm>
#include <atomic>
#include <vector>

#include "eigen_products.h"
#include "onednn_blocks.h"
#include "tfscope/thread_pool.h"

namespace tfs::detail {
namespace {

int64_t divup(int64_t a, int64_t b) {
  return (a + b - 1) / b;
}

float* scratch(int which, int64_t size) {
  thread_local std::vector<float> buffers[3];
  std::vector<float>& v = buffers[which];
  if (static_cast<int64_t>(v.size()) < size) v.resize(static_cast<size_t>(size));
  return v.data();
}

// dst (cols x rows) = transpose of src (rows x cols).
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

// One contraction, TF's terms: out (m x n) = x (m x k) y (k x n), both row-major. Eigen's lhs is
// y^T (M = n rows), its rhs x^T (N = m columns). x_mappable / y_mappable: the operand is a plain
// 2-D TensorMap with its contracting dimension where oneDNN can read it in place (Eigen's
// DirectColMajorAccess), which changes the leading dimensions oneDNN sees.
struct Contraction {
  const float* x;
  const float* y;
  float* out;
  int64_t m, k, n;
  bool x_mappable, y_mappable;
  const EigenMatMulSetting* s;
  bool exact = true;
};

// DirectColMajorAccess::block: a block is read in place when packing it would copy nothing, or it
// is used by one kernel only, or by two and spans less than 256 KiB.
bool direct(bool mappable, int64_t stride, int64_t rows, int64_t cols, int64_t kernels) {
  if (!mappable) return false;
  return stride == rows || kernels == 1 || (kernels == 2 && stride * cols * 4 < (256 << 10));
}

// The TensorContractionKernel's sizes (m, n: Eigen's; bm, bn: its block sizes).
struct KernelSizes {
  int64_t M, N, bm, bn;
};

// One dnnl_sgemm call: Eigen rows [c0, c0 + cb) (our columns), Eigen columns [r0, r0 + rb) (our
// rows), k in [k0, k0 + kb), into buf (m x n, row stride n).
void block(Contraction& c, const KernelSizes& ks, float* buf, int64_t r0, int64_t rb, int64_t c0,
           int64_t cb, int64_t k0, int64_t kb, bool add) {
  const int64_t lda = direct(c.y_mappable, c.n, cb, kb, divup(ks.N, ks.bn)) ? c.n : cb;
  const int64_t ldb = direct(c.x_mappable, c.k, kb, rb, divup(ks.M, ks.bm)) ? c.k : kb;
  OneDnnBlock b;
  b.x = c.x + r0 * c.k + k0, b.ldx = c.k;
  b.y = c.y + k0 * c.n + c0, b.ldy = c.n;
  b.out = buf + r0 * c.n + c0, b.ldo = c.n;
  b.rows = rb, b.cols = cb, b.depth = kb, b.add = add, b.lda = lda;
  c.exact = c.exact && onednn_block_exact(c.s->isa, rb, cb, kb, lda, ldb, c.n);
  onednn_nn_block(c.s->isa, b);
}

// evalGemmPartial over k in [k_begin, k_end) with `threads` as its blocking's thread count.
void gemm_partial(Contraction& c, float* buf, int64_t k_begin, int64_t k_end, int64_t threads) {
  const int64_t M = c.n, N = c.m;
  const EigenBlocking bl = tf_contraction_blocking(k_end - k_begin, M, N, threads, true,
                                                   c.s->caches, c.s->custom_kernels);
  const int64_t mc = std::min(M, bl.mc), nc = std::min(N, bl.nc), kc = bl.kc;
  const KernelSizes ks{M, N, mc, nc};
  for (int64_t i2 = 0; i2 < M; i2 += mc) {
    const int64_t cb = std::min(i2 + mc, M) - i2;
    for (int64_t k2 = k_begin; k2 < k_end; k2 += kc) {
      const int64_t kb = std::min(k2 + kc, k_end) - k2;
      for (int64_t j2 = 0; j2 < N; j2 += nc) {
        block(c, ks, buf, j2, std::min(j2 + nc, N) - j2, i2, cb, k2, kb, k2 != k_begin);
      }
    }
  }
}

// Eigen's sharded evaluator: output blocks of bm x bn, each summed over its k blocks in order. The
// output blocks run on the intra-op pool (one thread per block, so the bits are the same).
void parallel(Contraction& c, const ContractionPlan& p) {
  const int64_t M = c.n, N = c.m, K = c.k;
  const KernelSizes ks{M, N, p.bm, p.bn};
  const int64_t row_blocks = divup(M, p.bm), col_blocks = divup(N, p.bn);
  std::atomic<bool> exact{true};
  parallel_ranges(row_blocks * col_blocks, 1, [&](int64_t b0, int64_t b1) {
    Contraction local = c;
    for (int64_t b = b0; b < b1; ++b) {
      const int64_t i = b / col_blocks * p.bm, j = b % col_blocks * p.bn;
      for (int64_t k0 = 0; k0 < K; k0 += p.bk) {
        block(local, ks, c.out, j, std::min(p.bn, N - j), i, std::min(p.bm, M - i), k0,
              std::min(p.bk, K - k0), k0 > 0);
      }
    }
    if (!local.exact) exact.store(false);
  });
  c.exact = c.exact && exact.load();
}

// The sharded-by-inner-dim evaluator: each k block summed into its own buffer, then the buffers
// added in groups of four ((b0 + b1) + (b2 + b3) in packets of 8, b0 + ((b1 + b2) + b3) for the
// last outputs past the packets; a shorter last group one by one), and the groups into the first
// the same way in threes.
void inner_dim(Contraction& c, const ContractionPlan& p) {
  const int64_t size = c.m * c.n, packets = size / 8 * 8;
  std::vector<float*> bufs(static_cast<size_t>(p.blocks));
  float* extra = scratch(2, size * (p.blocks - 1));
  for (int64_t b = 0; b < p.blocks; ++b) bufs[b] = b == 0 ? c.out : extra + (b - 1) * size;
  std::atomic<bool> exact{true};  // the k blocks run on the intra-op pool, each into its buffer
  intra_op_pool().parallel_for(p.blocks, [&](int64_t b) {
    Contraction local = c;
    gemm_partial(local, bufs[b], b * p.block_size, std::min(c.k, (b + 1) * p.block_size), p.blocks);
    if (!local.exact) exact.store(false);
  });
  c.exact = c.exact && exact.load();
  auto add3 = [&](float* d, const float* s0, const float* s1, const float* s2) {
    for (int64_t i = 0; i < packets; ++i) d[i] = (d[i] + s0[i]) + (s1[i] + s2[i]);
    for (int64_t i = packets; i < size; ++i) d[i] = d[i] + ((s0[i] + s1[i]) + s2[i]);
  };
  auto add1 = [&](float* d, const float* s) {
    for (int64_t i = 0; i < size; ++i) d[i] = d[i] + s[i];
  };
  const int64_t groups = divup(p.blocks, 4);
  for (int64_t g = 0; g < groups; ++g) {
    const int64_t n = g + 1 < groups ? 4 : p.blocks - 4 * g;
    float* d = bufs[4 * g];
    if (n == 4) {
      add3(d, bufs[4 * g + 1], bufs[4 * g + 2], bufs[4 * g + 3]);
    } else {
      for (int64_t i = 1; i < n; ++i) add1(d, bufs[4 * g + i]);
    }
  }
  int64_t g = 1;
  for (; g + 2 < groups; g += 3) add3(bufs[0], bufs[4 * g], bufs[4 * (g + 1)], bufs[4 * (g + 2)]);
  for (; g < groups; ++g) add1(bufs[0], bufs[4 * g]);
}

bool contract(const float* a, bool ta, const float* b, bool tb, int64_t m, int64_t k, int64_t n,
              bool chipped, float* out, const EigenMatMulSetting& s, bool patches = false) {
  const float* x = a;
  const float* y = b;
  if (ta) {
    float* t = scratch(0, m * k);
    transpose(a, k, m, t);
    x = t;
  }
  if (tb) {
    float* t = scratch(1, k * n);
    transpose(b, n, k, t);
    y = t;
  }
  Contraction c{x, y, out, m, k, n, !ta && !chipped && !patches, !tb && !chipped, &s};
  ContractionSetting cs{s.threads, s.caches, chipped, s.custom_kernels, patches};
  const ContractionPlan p = plan_contraction(n, m, k, cs);
  switch (p.kind) {
    case ContractionPlan::Kind::kSequential:
      gemm_partial(c, out, 0, k, 1);
      break;
    case ContractionPlan::Kind::kParallel:
      parallel(c, p);
      break;
    case ContractionPlan::Kind::kInnerDim:
      inner_dim(c, p);
      break;
  }
  return c.exact && s.custom_kernels;
}

// Eigen's product on the block rows [row, row + rows) x cols [col, col + cols) of the output.
void product(const float* a, bool ta, const float* b, bool tb, int64_t m, int64_t k, int64_t n,
             int64_t row, int64_t rows, int64_t col, int64_t cols, float* out,
             const EigenCacheSizes& caches) {
  StridedMat x = ta ? StridedMat{a + row, 1, m, true} : StridedMat{a + row * k, k, 1, false};
  StridedMat y = tb ? StridedMat{b + col * k, 1, k, true} : StridedMat{b + col, n, 1, false};
  eigen_product(x, y, rows, k, cols, out + row * n + col, n, caches);
}

}  // namespace

bool eigen_contract(const float* x, bool x_patches, const float* y, bool ty, int64_t m, int64_t k,
                    int64_t n, float* out, const EigenMatMulSetting& s) {
  if (m == 0 || n == 0) return true;
  if (k == 0) {
    std::fill(out, out + m * n, 0.0f);
    return true;
  }
  const bool exact = contract(x, false, y, ty, m, k, n, false, out, s, x_patches);
  // Eigen's sequential evaluator runs its own gemv for one column (TF's m == 1): not modelled.
  return exact && m > 1;
}

const EigenMatMulSetting& eigen_matmul_setting() {
  static const EigenMatMulSetting s = [] {
    EigenMatMulSetting e;
    e.isa = onednn_isa();
    e.threads = intra_op_threads();
    e.caches = eigen_cache_sizes();
    e.custom_kernels = tf_custom_contraction_kernels();
    return e;
  }();
  return s;
}

bool eigen_matmul(const float* a, bool ta, const float* b, bool tb, int64_t m, int64_t k, int64_t n,
                  int64_t batch, float* c, const EigenMatMulSetting& s) {
  if (m == 0 || n == 0) return true;
  if (k == 0) {
    std::fill(c, c + m * n, 0.0f);
    return true;
  }
  constexpr int64_t kMaxCostOuterParallelism = 128 * 128;
  const int64_t cost = m * k * n, small_dim = std::min({m, k, n});
  if (small_dim > 1 && (batch == 1 || cost > kMaxCostOuterParallelism)) {
    return contract(a, ta, b, tb, m, k, n, batch > 1, c, s);
  }
  if (batch == 1 && cost > kMaxCostOuterParallelism) {
    for_each_single_batch_block(m, k, n, s.threads,
                                [&](int64_t r, int64_t cl, int64_t rs, int64_t cs) {
                                  product(a, ta, b, tb, m, k, n, r, rs, cl, cs, c, s.caches);
                                });
    return true;
  }
  product(a, ta, b, tb, m, k, n, 0, m, 0, n, c, s.caches);
  return true;
}

}  // namespace tfs::detail

// oneDNN's single-threaded non-transposed sgemm orders (onednn_blocks.h), from oneDNN 3.7's
// gemm_driver.cpp, gemv_driver.cpp, jit_avx_gemm_f32.cpp, jit_avx512_common_gemm_f32.cpp,
// jit_avx_gemv_t_f32_kern.cpp and jit_sse41_gemv_n_f32_kern.cpp, and checked against
// tensorflow-cpu 2.21.0 with TF_ENABLE_ONEDNN_OPTS=0 (ONEDNN_MAX_CPU_ISA=AVX2 for the AVX2
// kernels).
//
// Both nocopy drivers cut k by halving (blocks of BK while at least 2 BK remain, then what is
// left in one block or two halves); each block's sum starts from 0 and is added to C. The AVX-512
// kernel sums each output as one FMA chain. The AVX2 kernel tiles C in 16 (or, for a remainder
// of at most 8, 8) oneDNN rows by 6 oneDNN columns inside chunks of 48 columns, and the tile kind
// chooses the chain: 16 x 4..6 one FMA chain; 8 x 4..6 and any x 3 two FMA chains (even and odd
// k); any x 1..2 two chains of rounded products and adds.
#include "onednn_blocks.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "sum_chains.h"

namespace tfs::detail {
namespace {

// The nocopy drivers' cut of a dimension of `total` into chunks: `b` while at least 2b remain,
// then what is left in one chunk, or in two halves (the first one larger) when more than
// `half_above` is left.
template <typename F>
void chunks(int64_t total, int64_t b, int64_t half_above, F&& f) {
  for (int64_t at = 0; at < total;) {
    int64_t s = total - at;
    if (s >= 2 * b) {
      s = b;
    } else if (s > half_above) {
      s = (s + 1) / 2;
    }
    f(at, s);
    at += s;
  }
}

// out (+)= sum over the block's k in [k0, k0 + kc), for the part rows x cols at (r0, c0), within
// the block's row window.
void chain_part(Chain chain, const OneDnnBlock& b, int64_t r0, int64_t rows, int64_t c0,
                int64_t cols, int64_t k0, int64_t kc, bool add) {
  const int64_t end = b.row_end < 0 ? b.rows : b.row_end;
  const int64_t lo = std::max(r0, b.row_begin), hi = std::min(r0 + rows, end);
  if (lo >= hi) return;
  chain_block(chain, b.x + lo * b.ldx + k0, b.ldx, b.y + k0 * b.ldy + c0, b.ldy, kc,
              b.out + lo * b.ldo + c0, b.ldo, hi - lo, cols, add);
}

void nocopy_avx512(const OneDnnBlock& b) {
  bool add = b.add;
  chunks(b.depth, 384, 384, [&](int64_t k0, int64_t kc) {
    chain_part(Chain::kFma, b, 0, b.rows, 0, b.cols, k0, kc, add);
    add = true;
  });
}

// One call of the AVX2 nocopy kernel on rows x cols of C (oneDNN's n x m).
void avx2_kernel(const OneDnnBlock& b, int64_t r0, int64_t rows, int64_t c0, int64_t cols,
                 int64_t k0, int64_t kc, bool add) {
  // oneDNN rows (our columns) in tiles of 16; a remainder of 9..15 is a masked 16, of 1..8 an 8
  const int64_t tail = cols % 16;
  const int64_t wide = tail > 0 && tail <= 8 ? cols - tail : cols;
  for (int64_t r = 0; r < rows; r += 6) {
    const int64_t un = std::min<int64_t>(6, rows - r);
    if (un <= 2) {
      chain_part(Chain::kMulAddSplit, b, r0 + r, un, c0, cols, k0, kc, add);
    } else if (un == 3) {
      chain_part(Chain::kFmaSplit, b, r0 + r, un, c0, cols, k0, kc, add);
    } else {
      chain_part(Chain::kFma, b, r0 + r, un, c0, wide, k0, kc, add);
      chain_part(Chain::kFmaSplit, b, r0 + r, un, c0 + wide, cols - wide, k0, kc, add);
    }
  }
}

void nocopy_avx2(const OneDnnBlock& b) {
  bool add = b.add;
  const int64_t bn = b.trans_a ? 96 : 48, bk = b.trans_b ? 96 : 256;
  chunks(b.depth, bk, bk, [&](int64_t k0, int64_t kc) {
    chunks(b.cols, 4032, 4032 + 2016, [&](int64_t c0, int64_t cols) {
      chunks(b.rows, bn, bn + bn / 2,
             [&](int64_t r0, int64_t rows) { avx2_kernel(b, r0, rows, c0, cols, k0, kc, add); });
    });
    add = true;
  });
}

// gemv_n (jit_sse41_gemv_n_f32_kern), for a product with one row or one column: each output's
// FMA chain goes on from C's value (0 for beta 0) through all of k.
void gemv_n(const OneDnnBlock& b) {
  if (!b.add) {  // from 0: the plain FMA chain, vectorized over the outputs
    return chain_part(Chain::kFma, b, 0, b.rows, 0, b.cols, 0, b.depth, false);
  }
  for (int64_t r = b.row_begin; r < (b.row_end < 0 ? b.rows : b.row_end); ++r) {
    for (int64_t c = 0; c < b.cols; ++c) {
      float& o = b.out[r * b.ldo + c];
      float acc = b.add ? o : 0.0f;
      for (int64_t k = 0; k < b.depth; ++k)
        acc = std::fma(b.x[r * b.ldx + k], b.y[k * b.ldy + c], acc);
      o = acc;
    }
  }
}

float red8(const float* l) {
  return ((l[0] + l[1]) + (l[4] + l[5])) + ((l[2] + l[3]) + (l[6] + l[7]));
}

#define TFS_AVX2 __attribute__((target("avx2,fma")))

// The 8 FMA lanes of gemv_t's runs of 16 over a contiguous y: lane l takes k = l mod 8, which is
// one 8-float register FMA'd with x[k..k+8) and then x[k+8..k+16). Returns how far k got.
TFS_AVX2 int64_t gemv_t_lanes_avx2(const float* x, const float* y, int64_t n, float* lane) {
  __m256 acc = _mm256_setzero_ps();
  int64_t k = 0;
  for (; k + 16 <= n; k += 16) {
    acc = _mm256_fmadd_ps(_mm256_loadu_ps(x + k), _mm256_loadu_ps(y + k), acc);
    acc = _mm256_fmadd_ps(_mm256_loadu_ps(x + k + 8), _mm256_loadu_ps(y + k + 8), acc);
  }
  _mm256_storeu_ps(lane, acc);
  return k;
}

// gemv_t (jit_avx_gemv_t_f32_kern) for one dot product added to `acc`: runs of 16 into 8 FMA
// lanes, reduced; then pieces of 8, 4, 2 and 1 each reduced on its own; each reduction is added
// to the running value. A contiguous y takes the lanes in one register (the same FMAs in the same
// order, so the same bits).
float gemv_t_dot(const float* x, const float* y, int64_t ldy, int64_t n, float acc) {
  float lane[8] = {};
  int64_t k = 0;
  static const bool avx2 = chain_block_uses_avx2();
  if (ldy == 1 && avx2) {
    k = gemv_t_lanes_avx2(x, y, n, lane);
  } else {
    for (; k + 16 <= n; k += 16) {
      for (int l = 0; l < 16; ++l) lane[l % 8] = std::fma(x[k + l], y[(k + l) * ldy], lane[l % 8]);
    }
  }
  acc = acc + red8(lane);
  for (int piece = 8; piece >= 1; piece /= 2) {
    if (n - k < piece) continue;
    float p[8] = {};
    for (int l = 0; l < piece; ++l) p[l] = x[k + l] * y[(k + l) * ldy];
    acc = acc + red8(p);
    k += piece;
  }
  return acc;
}

// gemv_t, for a product with one row or one column: a dot product per output, k in pieces of 512
// where oneDNN copies a strided vector.
void gemv_t(const OneDnnBlock& b) {
  const int64_t piece = b.lda != 1 ? 512 : b.depth;
  // y's columns as contiguous rows, so that each dot product reads along k
  const float* yt = b.y;
  int64_t ys = b.ldy, yc = 1;
  if (b.cols > 1 && b.ldy != 1) {
    thread_local std::vector<float> buffer;
    if (static_cast<int64_t>(buffer.size()) < b.cols * b.depth) {
      buffer.resize(static_cast<size_t>(b.cols * b.depth));
    }
    for (int64_t k = 0; k < b.depth; ++k) {
      for (int64_t c = 0; c < b.cols; ++c) buffer[c * b.depth + k] = b.y[k * b.ldy + c];
    }
    yt = buffer.data(), ys = 1, yc = b.depth;
  }
  for (int64_t r = b.row_begin; r < (b.row_end < 0 ? b.rows : b.row_end); ++r) {
    for (int64_t c = 0; c < b.cols; ++c) {
      float& o = b.out[r * b.ldo + c];
      float acc = b.add ? o : 0.0f;
      for (int64_t k0 = 0; k0 < b.depth; k0 += piece) {
        acc = gemv_t_dot(b.x + r * b.ldx + k0, yt + c * yc + k0 * ys, ys,
                         std::min(piece, b.depth - k0), acc);
      }
      o = acc;
    }
  }
}

}  // namespace

bool onednn_uses_nocopy(OneDnnIsa isa, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
                        int64_t ldc, int nthr) {
  const double inv = 1.0 / static_cast<double>(m) + 1.0 / static_cast<double>(n);
  const int64_t kLimit = 378, t = nthr;
  if (isa == OneDnnIsa::kAvx512Core) {
    const bool lda_verybad = lda % 1024 == 0;
    const bool ld_bad = lda % 256 == 0 || ldb % 256 == 0 || ldc % 256 == 0;
    if (t <= 8 && lda_verybad && k > 500 && n > 100) return false;
    if (inv >= 0.00196) return true;
    if (ld_bad && m >= 32 && n > 16) return false;
    if (ld_bad && m >= 32 && n == 16 && (k >= 6400 || m == 4096)) return false;
    if (m <= kLimit && n <= kLimit && k >= t * kLimit) return false;
    if (m >= t * kLimit && k >= t * kLimit) return false;
    return m <= t * 28 || n <= t * 28 || k <= t;
  }
  if (inv >= 0.0038) return true;
  if (m <= kLimit && n <= kLimit && k >= t * kLimit) return false;
  if (m >= t * kLimit && k >= t * kLimit) return false;
  return (m <= 128 && n <= 128) || n <= t * 16 || k <= t * 2 || (m <= 64 && n >= t * 16);
}

bool onednn_block_exact(OneDnnIsa isa, int64_t rows, int64_t cols, int64_t depth, int64_t lda,
                        int64_t ldb, int64_t ldc) {
  if (isa != OneDnnIsa::kAvx2 && isa != OneDnnIsa::kAvx512Core) return false;
  if (rows == 1 || cols == 1) return true;
  return onednn_uses_nocopy(isa, cols, rows, depth, lda, ldb, ldc);
}

void onednn_nn_block(OneDnnIsa isa, const OneDnnBlock& b) {
  if (b.rows <= 0 || b.cols <= 0) return;
  if (b.depth == 0) {
    if (!b.add) {
      for (int64_t r = b.row_begin; r < (b.row_end < 0 ? b.rows : b.row_end); ++r) {
        std::fill(b.out + r * b.ldo, b.out + r * b.ldo + b.cols, 0.0f);
      }
    }
    return;
  }
  // jump_to_gemv: oneDNN's n == 1 (one row of ours) first, then its m == 1 (one column); a dot
  // product where the vector's partner is stored along k, else an axpy
  if (b.rows == 1) return b.trans_a ? gemv_t(b) : gemv_n(b);
  if (b.cols == 1) return b.trans_b ? gemv_n(b) : gemv_t(b);
  if (isa == OneDnnIsa::kAvx512Core) return nocopy_avx512(b);
  nocopy_avx2(b);
}

}  // namespace tfs::detail

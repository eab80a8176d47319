// Float32 GEMM in TF 2.21's summation order (see gemm_f32.h). Two implementations with the same
// bits: AVX2+FMA kernels chosen at run time, and a scalar std::fma path. Every product is a
// fused multiply-add, never a*b+c rounded twice; this file is compiled with -ffp-contract=off
// so that the compiler does not fuse the adds of block sums either.
#include "gemm_f32.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

#include "tfscope/thread_pool.h"

namespace tfs::detail {

int64_t KSplit::next_block(int64_t remaining) const {
  switch (rule) {
    case Rule::kNone:
      return remaining;
    case Rule::kHalving:
      if (remaining >= 2 * bk) return bk;
      if (remaining > bk) return (remaining + 1) / 2;
      return remaining;
    case Rule::kChunks:
      return std::min(remaining, bk);
  }
  return remaining;
}

// What tensorflow-cpu 2.21.0 does, measured by comparing its outputs bit for bit with emulations
// (random normal inputs; the same bits with 1, 2 and 8 intra-op threads). The machine: an AMD
// EPYC for which oneDNN 3.7.3 (in TF 2.21) reports ISA avx512_core, so these are the orders of
// its AVX-512 kernels (the 16 lanes of kDot16 are one zmm register); a CPU without AVX-512 gets
// other kernels and likely other orders in TF. The AVX2 code here computes the same orders.
// TF's MatMul calls oneDNN's sgemm on the column-major view (C^T = op(B)^T op(A)^T).
// Shapes in TF's row-major terms, C (m x n) = op(A) op(B):
//
//  - m >= 2 and n >= 2: the sgemm. Blocks of k cut by the halving rule with bk = 384
//    (k 385 -> [193, 192], 600 -> [300, 300], 784 -> [384, 200, 200], 2048 -> [384 x4, 256, 256]);
//    100% of outputs equal for every shape and transpose tried, (3,385,5) to (512,784,512),
//    (1000,3000,4). Except transpose_b without transpose_a and m < 16: the 16-lane dot product
//    (kDot16), 100% equal for m 2..15, k 8..1000, n 5..300; from m = 16 on it is the sgemm again.
//  - m == 1 or n == 1: oneDNN's gemv. Where the vector's partner matrix has the output index
//    contiguous (m == 1 without transpose_b, n == 1 with transpose_a) it is an axpy: the plain
//    sequential sum over all of k. Otherwise it is a dot product (kGemvDot). 100% equal for k
//    1..20000. For large problems oneDNN splits the axpy's k among threads into partial sums
//    (onednn_matmul.h computes those: matmul_f32.cc sends MatMul's gemvs there).
GemmOrder tf_matmul_order(int64_t m, int64_t k, int64_t n, bool transpose_a, bool transpose_b) {
  (void)k;
  GemmOrder order;
  if (m == 1) {
    if (transpose_b) order.sum = SumOrder::kGemvDot;
    return order;
  }
  if (n == 1) {
    if (!transpose_a) order.sum = SumOrder::kGemvDot;
    return order;
  }
  if (transpose_b && !transpose_a && m < 16) {
    order.sum = SumOrder::kDot16;
    return order;
  }
  order.split = {KSplit::Rule::kHalving, 384};
  return order;
}

// BatchMatMulV2 runs oneDNN's brgemm matmul (brg_matmul:avx512_core): blocks of k of 512, each
// summed apart, except for m >= 2 and k > 1024, where the blocks are of 1024 (k 1025 -> [1024, 1],
// 3000 -> [1024, 1024, 952]). 100% equal for m 1..64, k 4..10000, batch broadcasting, adjoints.
GemmOrder tf_batch_matmul_order(int64_t m, int64_t k, int64_t n) {
  (void)n;
  GemmOrder order;
  order.split = {KSplit::Rule::kChunks, m == 1 || k <= 1024 ? 512 : 1024};
  return order;
}

namespace {

// Below this many multiply-adds per thread a product runs on one thread: waking a worker costs
// more than it saves (several microseconds, against about 25 us for these on one AVX2 core).
constexpr int64_t kParallelFmas = int64_t{1} << 20;

// dst (cols x rows) = transpose of src (rows x cols), in tiles that stay in cache.
void transpose(const float* src, int64_t rows, int64_t cols, float* dst) {
  constexpr int64_t kT = 32;
  for (int64_t r0 = 0; r0 < rows; r0 += kT) {
    for (int64_t c0 = 0; c0 < cols; c0 += kT) {
      int64_t r1 = std::min(rows, r0 + kT), c1 = std::min(cols, c0 + kT);
      for (int64_t r = r0; r < r1; ++r) {
        for (int64_t c = c0; c < c1; ++c) dst[c * rows + r] = src[r * cols + c];
      }
    }
  }
}

// Per-thread scratch, 64-byte aligned: 0 and 1 for transposed operands, 2 for a packed panel of
// B, 3 for a block's partial sums. Grows once, then the hot path allocates nothing.
float* scratch(int which, int64_t size) {
  constexpr int64_t kAlign = 16;  // floats per 64 bytes
  thread_local std::vector<float> buffers[4];
  std::vector<float>& v = buffers[which];
  if (static_cast<int64_t>(v.size()) < size + kAlign) v.resize(static_cast<size_t>(size + kAlign));
  auto addr = reinterpret_cast<uintptr_t>(v.data());
  return v.data() + ((64 - addr % 64) % 64) / sizeof(float);
}

// Copies `cols` (<= width) columns of kc rows of B (row stride ldb) into a contiguous panel of
// kc rows of `width` floats, so that a tile reads B sequentially from one aligned block instead
// of kc rows a stride apart (which fall into a few L1 sets and many pages). Only the layout
// changes: every product and sum is the same.
float* pack_panel(const float* b, int64_t ldb, int64_t kc, int cols, int width) {
  float* p = scratch(2, kc * width);
  const size_t bytes = static_cast<size_t>(cols) * sizeof(float);
  for (int64_t kk = 0; kk < kc; ++kk) std::memcpy(p + kk * width, b + kk * ldb, bytes);
  return p;
}

// A column panel is packed when at least this many rows reuse it.
constexpr int64_t kPackRows = 12;

// ---- scalar path -------------------------------------------------------------------------

float dot16_scalar(const float* a, const float* b, int64_t k) {
  float lane[16] = {};
  for (int64_t kk = 0; kk < k; ++kk) lane[kk % 16] = std::fma(a[kk], b[kk], lane[kk % 16]);
  for (int h = 8; h >= 1; h /= 2) {
    for (int l = 0; l < h; ++l) lane[l] = lane[l] + lane[l + h];
  }
  return lane[0];
}

float red8(const float* l) {
  return ((l[0] + l[1]) + (l[4] + l[5])) + ((l[2] + l[3]) + (l[6] + l[7]));
}

float gemv_dot_scalar(const float* a, const float* b, int64_t k) {
  float lane[8] = {};
  int64_t kk = 0;
  for (; kk + 16 <= k; kk += 16) {
    for (int l = 0; l < 16; ++l) lane[l % 8] = std::fma(a[kk + l], b[kk + l], lane[l % 8]);
  }
  float sum = kk > 0 ? red8(lane) : 0.0f;
  float p[8];
  if (kk + 8 <= k) {
    for (int l = 0; l < 8; ++l) p[l] = a[kk + l] * b[kk + l];
    sum = red8(p) + sum;
    kk += 8;
  }
  if (kk + 4 <= k) {
    for (int l = 0; l < 4; ++l) p[l] = a[kk + l] * b[kk + l];
    sum = ((p[0] + p[1]) + (p[2] + p[3])) + sum;
    kk += 4;
  }
  if (kk + 2 <= k) {
    p[0] = a[kk] * b[kk], p[1] = a[kk + 1] * b[kk + 1];
    sum = (p[0] + p[1]) + sum;
    kk += 2;
  }
  if (kk < k) {
    p[0] = a[kk] * b[kk];
    sum = p[0] + sum;
  }
  return sum;
}

// For the dot-product orders: A as m x k rows and B as n x k rows, transposed into scratch
// where they are not stored so (a vector is the same in either layout).
void dot_operands(const float*& a, bool ta, const float*& b, bool tb, int64_t m, int64_t k,
                  int64_t n) {
  if (ta && m > 1) {
    float* s = scratch(0, m * k);
    transpose(a, k, m, s);
    a = s;
  }
  if (!tb && n > 1) {
    float* s = scratch(1, n * k);
    transpose(b, k, n, s);
    b = s;
  }
}

// ---- AVX2 + FMA path ---------------------------------------------------------------------

#define TFS_AVX2 __attribute__((target("avx2,fma")))
#define TFS_AVX512 __attribute__((target("avx512f,fma")))

enum class Mode : uint8_t {
  kStore,       // c = sum (the first block)
  kContinue,    // the FMA chain goes on from c (a later cache pass of the same block)
  kAddPartial,  // c = c + sum (a later block)
};

// k per pass: L1 holds a 384 x 16 panel of B; the AVX-512 tiles' 384 x 32 panels, packed, are
// read in order (from L2 when they do not fit), measured faster than passes of 192.
constexpr int64_t kKc = 384;
constexpr int64_t kMc = 120;  // rows per pass (a multiple of 6; L2 holds 120 x 384 of A)

// One tile's operands: a(r, kk) = a[r * a_rs + kk * a_cs], b(kk, j) = b[kk * ldb + j].
struct Tile {
  const float* a;
  int64_t a_rs, a_cs;
  const float* b;
  int64_t ldb;
  float* c;
  int64_t ldc;
  int64_t kc;
  int cols;  // valid columns of a masked tile
};

TFS_AVX2 inline __m256i lane_mask(int64_t valid) {
  valid = std::clamp<int64_t>(valid, 0, 8);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(valid)),
                            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

template <bool kMasked>
TFS_AVX2 inline __m256 load8(const float* p, __m256i mask) {
  if constexpr (kMasked)
    return _mm256_maskload_ps(p, mask);
  else
    return _mm256_loadu_ps(p);
}

// C tile (MR rows x NV*8 columns) over t.kc values of k. kMasked: only t.cols columns exist.
template <int MR, int NV, bool kMasked>
TFS_AVX2 void tile(const Tile& t, Mode mode) {
  __m256i mask[NV] = {};
  if constexpr (kMasked) {
    for (int v = 0; v < NV; ++v) mask[v] = lane_mask(t.cols - 8 * v);
  }
  __m256 acc[MR][NV];
#pragma GCC unroll 8
  for (int r = 0; r < MR; ++r) {
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) {
      acc[r][v] = mode == Mode::kContinue ? load8<kMasked>(t.c + r * t.ldc + 8 * v, mask[v])
                                          : _mm256_setzero_ps();
    }
  }
  const float* a = t.a;
  const float* b = t.b;
  for (int64_t kk = 0; kk < t.kc; ++kk, a += t.a_cs, b += t.ldb) {
    __m256 bv[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) bv[v] = load8<kMasked>(b + 8 * v, mask[v]);
#pragma GCC unroll 8
    for (int r = 0; r < MR; ++r) {
      __m256 av = _mm256_broadcast_ss(a + r * t.a_rs);
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) acc[r][v] = _mm256_fmadd_ps(av, bv[v], acc[r][v]);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < MR; ++r) {
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) {
      float* p = t.c + r * t.ldc + 8 * v;
      __m256 x = acc[r][v];
      if (mode == Mode::kAddPartial) x = _mm256_add_ps(load8<kMasked>(p, mask[v]), x);
      if constexpr (kMasked)
        _mm256_maskstore_ps(p, mask[v], x);
      else
        _mm256_storeu_ps(p, x);
    }
  }
}

// All columns of one block of MR rows, NV vectors at a time.
template <int MR, int NV>
TFS_AVX2 void row_block(Tile t, int64_t n, Mode mode) {
  constexpr int64_t kW = NV * 8;
  const float* b = t.b;
  float* c = t.c;
  int64_t j = 0;
  for (; j + kW <= n; j += kW) {
    t.b = b + j, t.c = c + j;
    tile<MR, NV, false>(t, mode);
  }
  if (j < n) {
    t.b = b + j, t.c = c + j, t.cols = static_cast<int>(n - j);
    tile<MR, NV, true>(t, mode);
  }
}

// Rows of fewer than 6: one row block, as many vectors as the registers allow (for m = 1 and 2,
// four independent FMA chains per row keep both FMA units busy).
TFS_AVX2 void small_rows(const Tile& t, int64_t m, int64_t n, Mode mode) {
  switch (m) {
    case 1:
      return row_block<1, 4>(t, n, mode);
    case 2:
      return row_block<2, 4>(t, n, mode);
    case 3:
      return row_block<3, 3>(t, n, mode);
    case 4:
      return row_block<4, 3>(t, n, mode);
    default:
      return row_block<5, 2>(t, n, mode);
  }
}

template <bool kMasked>
TFS_AVX2 void column_panel(Tile t, int64_t rows, Mode mode) {
  int64_t i = 0;
  for (; i + 6 <= rows; i += 6) {
    tile<6, 2, kMasked>(t, mode);
    t.a += 6 * t.a_rs, t.c += 6 * t.ldc;
  }
  switch (rows - i) {
    case 1:
      return tile<1, 2, kMasked>(t, mode);
    case 2:
      return tile<2, 2, kMasked>(t, mode);
    case 3:
      return tile<3, 2, kMasked>(t, mode);
    case 4:
      return tile<4, 2, kMasked>(t, mode);
    case 5:
      return tile<5, 2, kMasked>(t, mode);
    default:
      return;
  }
}

// One pass over C (m x n, row stride ldc; B's row stride ldb) for k in [k0, k0 + kc). For m >= 6,
// a 16-column panel of B stays in L1 while the 6 x 16 tiles walk down a block of kMc rows.
TFS_AVX2 void pass(const float* a, int64_t a_rs, int64_t a_cs, const float* b, int64_t ldb,
                   int64_t m, int64_t n, float* c, int64_t ldc, int64_t k0, int64_t kc, Mode mode) {
  Tile t{a + k0 * a_cs, a_rs, a_cs, b + k0 * ldb, ldb, c, ldc, kc, 16};
  if (m < 6) return small_rows(t, m, n, mode);
  for (int64_t i0 = 0; i0 < m; i0 += kMc) {
    int64_t rows = std::min(kMc, m - i0);
    Tile ti = t;
    ti.a = t.a + i0 * a_rs, ti.c = c + i0 * ldc;
    const bool pack = rows >= kPackRows;
    int64_t j = 0;
    for (; j + 16 <= n; j += 16) {
      Tile tj = ti;
      tj.b = ti.b + j, tj.c = ti.c + j;
      if (pack) tj.b = pack_panel(tj.b, ldb, kc, 16, 16), tj.ldb = 16;
      column_panel<false>(tj, rows, mode);
    }
    if (j < n) {
      Tile tj = ti;
      tj.b = ti.b + j, tj.c = ti.c + j, tj.cols = static_cast<int>(n - j);
      if (pack) tj.b = pack_panel(tj.b, ldb, kc, tj.cols, 16), tj.ldb = 16;
      column_panel<true>(tj, rows, mode);
    }
  }
}

TFS_AVX512 void pass512(const float* a, int64_t a_rs, int64_t a_cs, const float* b, int64_t ldb,
                        int64_t m, int64_t n, float* c, int64_t ldc, int64_t k0, int64_t kc,
                        Mode mode);

bool use_avx512() {
  static const bool yes = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
  }();
  return yes;
}

// The whole k range for the outputs of rows [i0, i1) and columns [j0, j1) of C (ldc = n), with
// the AVX-512 tiles when `wide`. A block of k is summed in cache passes of at most kc values:
// the first block's FMA chains go on through C (kContinue), a later block's through a scratch
// copy of its part of C, added to C when the block is done; every output is the same chain.
TFS_AVX2 void blocked_part(const float* a, int64_t a_rs, int64_t a_cs, const float* b, int64_t k,
                           int64_t n, const KSplit& split, float* c, int64_t i0, int64_t i1,
                           int64_t j0, int64_t j1, bool wide) {
  a += i0 * a_rs, b += j0, c += i0 * n + j0;
  const int64_t m = i1 - i0, w = j1 - j0;
  wide = wide && m >= 6;
  auto pass = wide ? pass512 : tfs::detail::pass;
  constexpr int64_t kc = kKc;
  bool first = true;
  for (int64_t k0 = 0; k0 < k;) {
    const int64_t bs = split.next_block(k - k0);
    if (first || split.rule == KSplit::Rule::kNone) {
      for (int64_t p = 0; p < bs; p += kc) {
        pass(a, a_rs, a_cs, b, n, m, w, c, n, k0 + p, std::min(kc, bs - p),
             k0 + p == 0 ? Mode::kStore : Mode::kContinue);
      }
    } else if (bs <= kc) {
      pass(a, a_rs, a_cs, b, n, m, w, c, n, k0, bs, Mode::kAddPartial);
    } else {
      float* part = scratch(3, m * w);
      for (int64_t p = 0; p < bs; p += kc) {
        pass(a, a_rs, a_cs, b, n, m, w, part, w, k0 + p, std::min(kc, bs - p),
             p == 0 ? Mode::kStore : Mode::kContinue);
      }
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < w; ++j) c[i * n + j] = c[i * n + j] + part[i * w + j];
      }
    }
    first = false;
    k0 += bs;
  }
}

TFS_AVX2 void blocked_avx2(const float* a, bool ta, const float* b, bool tb, int64_t m, int64_t k,
                           int64_t n, const KSplit& split, float* c, bool wide) {
  if (tb) {  // B as k x n rows: the kernels read 8 consecutive columns at a time
    float* bt = scratch(0, k * n);
    transpose(b, n, k, bt);
    b = bt;
  }
  const int64_t a_rs = ta ? 1 : k, a_cs = ta ? m : 1;
  // Threads take panels of columns, or blocks of 6 rows when the columns are too few; every
  // output is summed whole by one of them, so the bits do not depend on the split.
  const int64_t pw = wide ? 32 : 16;  // the kernels' panel width
  const int64_t min_units = std::max<int64_t>(1, kParallelFmas / std::max<int64_t>(1, m * k * pw));
  if (n >= 4 * pw || m < 12) {
    const int64_t panels = (n + pw - 1) / pw;
    parallel_ranges(panels, min_units, [&](int64_t p0, int64_t p1) {
      blocked_part(a, a_rs, a_cs, b, k, n, split, c, 0, m, p0 * pw, std::min(n, p1 * pw), wide);
    });
  } else {
    const int64_t blocks = (m + 5) / 6;
    const int64_t min_blocks =
        std::max<int64_t>(1, kParallelFmas / std::max<int64_t>(1, 6 * k * n));
    parallel_ranges(blocks, min_blocks, [&](int64_t r0, int64_t r1) {
      blocked_part(a, a_rs, a_cs, b, k, n, split, c, r0 * 6, std::min(m, r1 * 6), 0, n, wide);
    });
  }
}

// ---- AVX-512 path (the blocked order only) -------------------------------------------------
// The same sums as the AVX2 tiles, 16 lanes per vector: each output is still one FMA chain per
// block of k, so the bits are the AVX2 path's. Tiles of 8 rows by 32 columns (16 accumulators).

template <int MR, int NV, bool kMasked>
TFS_AVX512 void tile512(const Tile& t, Mode mode) {
  __mmask16 mask[NV];
  for (int v = 0; v < NV; ++v) {
    const int valid = kMasked ? std::clamp(t.cols - 16 * v, 0, 16) : 16;
    mask[v] = static_cast<__mmask16>((1u << valid) - 1u);
  }
  __m512 acc[MR][NV];
#pragma GCC unroll 12
  for (int r = 0; r < MR; ++r) {
#pragma GCC unroll 2
    for (int v = 0; v < NV; ++v) {
      acc[r][v] = mode == Mode::kContinue ? _mm512_maskz_loadu_ps(mask[v], t.c + r * t.ldc + 16 * v)
                                          : _mm512_setzero_ps();
    }
  }
  const float* a = t.a;
  const float* b = t.b;
  for (int64_t kk = 0; kk < t.kc; ++kk, a += t.a_cs, b += t.ldb) {
    __m512 bv[NV];
#pragma GCC unroll 2
    for (int v = 0; v < NV; ++v)
      bv[v] = kMasked ? _mm512_maskz_loadu_ps(mask[v], b + 16 * v) : _mm512_loadu_ps(b + 16 * v);
#pragma GCC unroll 12
    for (int r = 0; r < MR; ++r) {
      __m512 av = _mm512_set1_ps(a[r * t.a_rs]);
#pragma GCC unroll 2
      for (int v = 0; v < NV; ++v) acc[r][v] = _mm512_fmadd_ps(av, bv[v], acc[r][v]);
    }
  }
#pragma GCC unroll 12
  for (int r = 0; r < MR; ++r) {
#pragma GCC unroll 2
    for (int v = 0; v < NV; ++v) {
      float* p = t.c + r * t.ldc + 16 * v;
      __m512 x = acc[r][v];
      if (mode == Mode::kAddPartial) x = _mm512_add_ps(_mm512_maskz_loadu_ps(mask[v], p), x);
      if constexpr (kMasked)
        _mm512_mask_storeu_ps(p, mask[v], x);
      else
        _mm512_storeu_ps(p, x);
    }
  }
}

// Tiles of 12 rows (24 accumulators: each B vector loaded feeds 12 FMAs), then of 8, so that
// no tile of fewer than 8 rows is left where 8 or more remain (64 rows: 12 x 4, 8 x 2).
template <bool kMasked>
TFS_AVX512 void column_panel512(Tile t, int64_t rows, Mode mode) {
  int64_t i = 0;
  auto next = [&](int64_t r) { i += r, t.a += r * t.a_rs, t.c += r * t.ldc; };
  while (rows - i == 12 || rows - i >= 20) {
    tile512<12, 2, kMasked>(t, mode);
    next(12);
  }
  while (rows - i >= 8) {
    tile512<8, 2, kMasked>(t, mode);
    next(8);
  }
  switch (rows - i) {
    case 1:
      return tile512<1, 2, kMasked>(t, mode);
    case 2:
      return tile512<2, 2, kMasked>(t, mode);
    case 3:
      return tile512<3, 2, kMasked>(t, mode);
    case 4:
      return tile512<4, 2, kMasked>(t, mode);
    case 5:
      return tile512<5, 2, kMasked>(t, mode);
    case 6:
      return tile512<6, 2, kMasked>(t, mode);
    case 7:
      return tile512<7, 2, kMasked>(t, mode);
    default:
      return;
  }
}

// pass() with 32-column panels of B and 8 x 32 tiles.
TFS_AVX512 void pass512(const float* a, int64_t a_rs, int64_t a_cs, const float* b, int64_t ldb,
                        int64_t m, int64_t n, float* c, int64_t ldc, int64_t k0, int64_t kc,
                        Mode mode) {
  Tile t{a + k0 * a_cs, a_rs, a_cs, b + k0 * ldb, ldb, c, ldc, kc, 32};
  for (int64_t i0 = 0; i0 < m; i0 += kMc) {
    int64_t rows = std::min(kMc, m - i0);
    Tile ti = t;
    ti.a = t.a + i0 * a_rs, ti.c = c + i0 * ldc;
    const bool pack = rows >= kPackRows;
    int64_t j = 0;
    for (; j + 32 <= n; j += 32) {
      Tile tj = ti;
      tj.b = ti.b + j, tj.c = ti.c + j;
      if (pack) tj.b = pack_panel(tj.b, ldb, kc, 32, 32), tj.ldb = 32;
      column_panel512<false>(tj, rows, mode);
    }
    if (j < n) {
      Tile tj = ti;
      tj.b = ti.b + j, tj.c = ti.c + j, tj.cols = static_cast<int>(n - j);
      if (pack) tj.b = pack_panel(tj.b, ldb, kc, tj.cols, 32), tj.ldb = 32;
      column_panel512<true>(tj, rows, mode);
    }
  }
}

// k = 1 (a weight gradient at batch 1): every output is the blocked tiles' one-step chain,
// fma(a_i, b_j, +0) (so a -0 product is +0, as theirs), written row after row: A (m x 1) and B
// (1 x n) are contiguous whether transposed or not.
TFS_AVX512 void outer512(const float* a, const float* b, int64_t m, int64_t n, float* c) {
  const __m512 zero = _mm512_setzero_ps();
  const int64_t tail = n % 16;
  const __mmask16 mask = static_cast<__mmask16>((1u << tail) - 1u);
  for (int64_t i = 0; i < m; ++i, c += n) {
    const __m512 av = _mm512_set1_ps(a[i]);
    int64_t j = 0;
    for (; j + 16 <= n; j += 16)
      _mm512_storeu_ps(c + j, _mm512_fmadd_ps(av, _mm512_loadu_ps(b + j), zero));
    if (tail)
      _mm512_mask_storeu_ps(c + j, mask,
                            _mm512_fmadd_ps(av, _mm512_maskz_loadu_ps(mask, b + j), zero));
  }
}

// Dot products of one row of A with NJ rows of B (both contiguous in k), 16 lanes each.
template <int NJ>
TFS_AVX2 void dot16_avx2(const float* a, const float* const* b, int64_t k, float* out) {
  __m256 lo[NJ], hi[NJ];
  for (int j = 0; j < NJ; ++j) lo[j] = hi[j] = _mm256_setzero_ps();
  int64_t kk = 0;
  for (; kk + 16 <= k; kk += 16) {
    __m256 a0 = _mm256_loadu_ps(a + kk), a1 = _mm256_loadu_ps(a + kk + 8);
#pragma GCC unroll 4
    for (int j = 0; j < NJ; ++j) {
      lo[j] = _mm256_fmadd_ps(a0, _mm256_loadu_ps(b[j] + kk), lo[j]);
      hi[j] = _mm256_fmadd_ps(a1, _mm256_loadu_ps(b[j] + kk + 8), hi[j]);
    }
  }
  if (kk < k) {  // missing lanes keep their sums untouched (no +0 added, which could flip -0)
    __m256i m0 = lane_mask(k - kk), m1 = lane_mask(k - kk - 8);
    __m256 a0 = _mm256_maskload_ps(a + kk, m0), a1 = _mm256_maskload_ps(a + kk + 8, m1);
    for (int j = 0; j < NJ; ++j) {
      __m256 s0 = _mm256_fmadd_ps(a0, _mm256_maskload_ps(b[j] + kk, m0), lo[j]);
      __m256 s1 = _mm256_fmadd_ps(a1, _mm256_maskload_ps(b[j] + kk + 8, m1), hi[j]);
      lo[j] = _mm256_blendv_ps(lo[j], s0, _mm256_castsi256_ps(m0));
      hi[j] = _mm256_blendv_ps(hi[j], s1, _mm256_castsi256_ps(m1));
    }
  }
  for (int j = 0; j < NJ; ++j) {
    __m256 s = _mm256_add_ps(lo[j], hi[j]);                                         // l + (l+8)
    __m128 x = _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1));  // l + (l+4)
    x = _mm_add_ps(x, _mm_movehl_ps(x, x));                                         // l + (l+2)
    x = _mm_add_ss(x, _mm_movehdup_ps(x));                                          // 0 + 1
    out[j] = _mm_cvtss_f32(x);
  }
}

TFS_AVX2 inline float red8_avx2(__m256 v) {
  __m256 h = _mm256_hadd_ps(v, v);  // 0+1, 2+3 | 4+5, 6+7
  __m128 x = _mm_add_ps(_mm256_castps256_ps128(h), _mm256_extractf128_ps(h, 1));  // (0+1)+(4+5), ..
  return _mm_cvtss_f32(_mm_add_ss(x, _mm_movehdup_ps(x)));
}

TFS_AVX2 inline float red4_avx2(__m128 v) {
  __m128 h = _mm_hadd_ps(v, v);  // 0+1, 2+3
  return _mm_cvtss_f32(_mm_add_ss(h, _mm_movehdup_ps(h)));
}

// Dot products of one vector with NJ rows (all contiguous in k), in oneDNN's gemv order.
template <int NJ>
TFS_AVX2 void gemv_dot_avx2(const float* a, const float* const* b, int64_t k, float* out) {
  __m256 acc[NJ];
  for (int j = 0; j < NJ; ++j) acc[j] = _mm256_setzero_ps();
  int64_t kk = 0;
  for (; kk + 16 <= k; kk += 16) {
    __m256 a0 = _mm256_loadu_ps(a + kk), a1 = _mm256_loadu_ps(a + kk + 8);
#pragma GCC unroll 4
    for (int j = 0; j < NJ; ++j) {
      acc[j] = _mm256_fmadd_ps(a0, _mm256_loadu_ps(b[j] + kk), acc[j]);
      acc[j] = _mm256_fmadd_ps(a1, _mm256_loadu_ps(b[j] + kk + 8), acc[j]);
    }
  }
  float sum[NJ];
  for (int j = 0; j < NJ; ++j) sum[j] = kk > 0 ? red8_avx2(acc[j]) : 0.0f;
  if (kk + 8 <= k) {
    __m256 a0 = _mm256_loadu_ps(a + kk);
    for (int j = 0; j < NJ; ++j) {
      sum[j] = red8_avx2(_mm256_mul_ps(a0, _mm256_loadu_ps(b[j] + kk))) + sum[j];
    }
    kk += 8;
  }
  if (kk + 4 <= k) {
    __m128 a0 = _mm_loadu_ps(a + kk);
    for (int j = 0; j < NJ; ++j)
      sum[j] = red4_avx2(_mm_mul_ps(a0, _mm_loadu_ps(b[j] + kk))) + sum[j];
    kk += 4;
  }
  if (kk + 2 <= k) {
    for (int j = 0; j < NJ; ++j) {
      float p0 = a[kk] * b[j][kk], p1 = a[kk + 1] * b[j][kk + 1];
      sum[j] = (p0 + p1) + sum[j];
    }
    kk += 2;
  }
  if (kk < k) {
    for (int j = 0; j < NJ; ++j) {
      float p0 = a[kk] * b[j][kk];
      sum[j] = p0 + sum[j];
    }
  }
  for (int j = 0; j < NJ; ++j) out[j] = sum[j];
}

template <bool kGemv, int NJ>
TFS_AVX2 inline void dots(const float* a, const float* const* b, int64_t k, float* out) {
  if constexpr (kGemv)
    gemv_dot_avx2<NJ>(a, b, k, out);
  else
    dot16_avx2<NJ>(a, b, k, out);
}

// C = A B^T with A as m x k rows and B as n x k rows, for rows [i0, i1) and columns [j0, j1),
// four dot products at a time (one row of A against four of B).
template <bool kGemv>
TFS_AVX2 void row_dots_part(const float* a, const float* b, int64_t k, int64_t n, float* c,
                            int64_t i0, int64_t i1, int64_t j0, int64_t j1) {
  for (int64_t i = i0; i < i1; ++i) {
    const float* ai = a + i * k;
    int64_t j = j0;
    for (; j + 4 <= j1; j += 4) {
      const float* rows[4] = {b + j * k, b + (j + 1) * k, b + (j + 2) * k, b + (j + 3) * k};
      dots<kGemv, 4>(ai, rows, k, c + i * n + j);
    }
    for (; j < j1; ++j) {
      const float* row = b + j * k;
      dots<kGemv, 1>(ai, &row, k, c + i * n + j);
    }
  }
}

// For n == 1 the row of B goes against four of A: the dot products are symmetric in their two
// vectors, and c is a vector either way. Threads take whole rows, or groups of four outputs of
// a vector.
template <bool kGemv>
TFS_AVX2 void row_dots_avx2(const float* a, const float* b, int64_t m, int64_t k, int64_t n,
                            float* c) {
  if (n == 1) std::swap(a, b), std::swap(m, n);
  if (m > 1) {
    const int64_t min_rows = std::max<int64_t>(1, kParallelFmas / std::max<int64_t>(1, k * n));
    parallel_ranges(m, min_rows, [&](int64_t r0, int64_t r1) {
      row_dots_part<kGemv>(a, b, k, n, c, r0, r1, 0, n);
    });
  } else {
    const int64_t groups = (n + 3) / 4;
    const int64_t min_groups = std::max<int64_t>(1, kParallelFmas / std::max<int64_t>(1, 4 * k));
    parallel_ranges(groups, min_groups, [&](int64_t g0, int64_t g1) {
      row_dots_part<kGemv>(a, b, k, n, c, 0, 1, g0 * 4, std::min(n, g1 * 4));
    });
  }
}

}  // namespace

bool gemm_f32_uses_avx2() {
  static const bool yes = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  }();
  return yes;
}

void gemm_f32_scalar(const float* a, bool ta, const float* b, bool tb, int64_t m, int64_t k,
                     int64_t n, const GemmOrder& order, float* c) {
  const int64_t min_rows = std::max<int64_t>(1, kParallelFmas / std::max<int64_t>(1, k * n));
  if (order.sum != SumOrder::kBlocked) {
    dot_operands(a, ta, b, tb, m, k, n);
    auto dot = order.sum == SumOrder::kDot16 ? dot16_scalar : gemv_dot_scalar;
    parallel_ranges(m, min_rows, [&](int64_t i0, int64_t i1) {
      for (int64_t i = i0; i < i1; ++i) {
        for (int64_t j = 0; j < n; ++j) c[i * n + j] = dot(a + i * k, b + j * k, k);
      }
    });
    return;
  }
  auto at = [&](int64_t i, int64_t kk) { return ta ? a[kk * m + i] : a[i * k + kk]; };
  auto bt = [&](int64_t kk, int64_t j) { return tb ? b[j * k + kk] : b[kk * n + j]; };
  parallel_ranges(m, min_rows, [&](int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        float sum = 0.0f;
        for (int64_t k0 = 0; k0 < k;) {
          int64_t bs = order.split.next_block(k - k0);
          float part = 0.0f;
          for (int64_t kk = k0; kk < k0 + bs; ++kk) part = std::fma(at(i, kk), bt(kk, j), part);
          sum = k0 == 0 ? part : sum + part;
          k0 += bs;
        }
        c[i * n + j] = sum;
      }
    }
  });
}

GemmIsa gemm_f32_best_isa() {
  if (!gemm_f32_uses_avx2()) return GemmIsa::kScalar;
  return use_avx512() ? GemmIsa::kAvx512 : GemmIsa::kAvx2;
}

void gemm_f32_on(GemmIsa isa, const float* a, bool ta, const float* b, bool tb, int64_t m,
                 int64_t k, int64_t n, const GemmOrder& order, float* c) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    std::fill(c, c + m * n, 0.0f);
    return;
  }
  isa = std::min(isa, gemm_f32_best_isa());
  if (isa == GemmIsa::kScalar) return gemm_f32_scalar(a, ta, b, tb, m, k, n, order, c);
  if (order.sum == SumOrder::kBlocked && k == 1 && isa == GemmIsa::kAvx512)
    return outer512(a, b, m, n, c);
  if (order.sum == SumOrder::kBlocked)
    return blocked_avx2(a, ta, b, tb, m, k, n, order.split, c, isa == GemmIsa::kAvx512);
  dot_operands(a, ta, b, tb, m, k, n);
  if (order.sum == SumOrder::kDot16) return row_dots_avx2<false>(a, b, m, k, n, c);
  row_dots_avx2<true>(a, b, m, k, n, c);
}

void gemm_f32(const float* a, bool ta, const float* b, bool tb, int64_t m, int64_t k, int64_t n,
              const GemmOrder& order, float* c) {
  gemm_f32_on(gemm_f32_best_isa(), a, ta, b, tb, m, k, n, order, c);
}

}  // namespace tfs::detail

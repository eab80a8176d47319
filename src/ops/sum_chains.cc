// Summation chains for blocks of outputs (sum_chains.h): AVX2+FMA kernels that keep MR rows x 16
// columns of sums in registers, and a scalar form with the same bits. Compiled with
// -ffp-contract=off: a product and an add stay two roundings unless written as std::fma.
#include "sum_chains.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>

namespace tfs::detail {
namespace {

inline float step(Chain c, float acc, float x, float y) {
  return c == Chain::kFma || c == Chain::kFmaSplit ? std::fma(x, y, acc) : acc + x * y;
}

float chain_scalar(Chain c, const float* x, const float* y, int64_t ldy, int64_t depth) {
  if (c == Chain::kFma || c == Chain::kMulAdd) {
    float acc = 0.0f;
    for (int64_t k = 0; k < depth; ++k) acc = step(c, acc, x[k], y[k * ldy]);
    return acc;
  }
  const int64_t even = depth & ~int64_t{1};
  float e = 0.0f, o = 0.0f;
  for (int64_t k = 0; k < even; k += 2) {
    e = step(c, e, x[k], y[k * ldy]);
    o = step(c, o, x[k + 1], y[(k + 1) * ldy]);
  }
  float s = e + o;
  if (depth & 1) s = step(c, s, x[depth - 1], y[(depth - 1) * ldy]);
  return s;
}

#define TFS_AVX2 __attribute__((target("avx2,fma")))

TFS_AVX2 inline __m256i lane_mask(int64_t valid) {
  valid = std::clamp<int64_t>(valid, 0, 8);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(valid)),
                            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

template <Chain C>
TFS_AVX2 inline __m256 vstep(__m256 acc, __m256 x, __m256 y) {
  if constexpr (C == Chain::kFma || C == Chain::kFmaSplit) {
    return _mm256_fmadd_ps(x, y, acc);
  } else {
    return _mm256_add_ps(acc, _mm256_mul_ps(x, y));
  }
}

template <bool kMasked>
TFS_AVX2 inline __m256 load8(const float* p, __m256i m) {
  if constexpr (kMasked) {
    return _mm256_maskload_ps(p, m);
  } else {
    return _mm256_loadu_ps(p);
  }
}

// One k step of an MR x NV-vector tile of sums.
template <Chain C, int MR, bool kMasked, int NV>
TFS_AVX2 inline void step(__m256 (&acc)[MR][NV], const float* x, int64_t ldx, const float* y,
                          int64_t ldy, int64_t k, const __m256i (&m)[NV]) {
  __m256 yv[NV];
#pragma GCC unroll 8
  for (int v = 0; v < NV; ++v) yv[v] = load8<kMasked>(y + k * ldy + 8 * v, m[v]);
#pragma GCC unroll 8
  for (int r = 0; r < MR; ++r) {
    const __m256 xv = _mm256_broadcast_ss(x + r * ldx + k);
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) acc[r][v] = vstep<C>(acc[r][v], xv, yv[v]);
  }
}

// MR rows x NV * 8 columns; `cols` of them exist (all unless kMasked).
template <Chain C, int MR, bool kMasked, int NV = 2>
TFS_AVX2 void tile(const float* x, int64_t ldx, const float* y, int64_t ldy, int64_t depth,
                   float* out, int64_t ldo, int64_t cols, bool add) {
  constexpr bool kSplit = C == Chain::kFmaSplit || C == Chain::kMulAddSplit;
  __m256i m[NV];
#pragma GCC unroll 8
  for (int v = 0; v < NV; ++v) m[v] = lane_mask(cols - 8 * v);
  __m256 e[MR][NV], o[MR][NV];
#pragma GCC unroll 8
  for (int r = 0; r < MR; ++r) {
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) e[r][v] = o[r][v] = _mm256_setzero_ps();
  }
  const int64_t main = kSplit ? (depth & ~int64_t{1}) : depth;
  for (int64_t k = 0; k < main; k += kSplit ? 2 : 1) {
    step<C, MR, kMasked, NV>(e, x, ldx, y, ldy, k, m);
    if constexpr (kSplit) step<C, MR, kMasked, NV>(o, x, ldx, y, ldy, k + 1, m);
  }
  if constexpr (kSplit) {
#pragma GCC unroll 8
    for (int r = 0; r < MR; ++r) {
#pragma GCC unroll 8
      for (int v = 0; v < NV; ++v) e[r][v] = _mm256_add_ps(e[r][v], o[r][v]);
    }
    if (depth & 1) step<C, MR, kMasked, NV>(e, x, ldx, y, ldy, depth - 1, m);
  }
#pragma GCC unroll 8
  for (int r = 0; r < MR; ++r) {
#pragma GCC unroll 8
    for (int v = 0; v < NV; ++v) {
      float* p = out + r * ldo + 8 * v;
      __m256 sum = e[r][v];
      if (add) sum = _mm256_add_ps(load8<kMasked>(p, m[v]), sum);
      if constexpr (kMasked) {
        _mm256_maskstore_ps(p, m[v], sum);
      } else {
        _mm256_storeu_ps(p, sum);
      }
    }
  }
}

template <Chain C, bool kMasked>
TFS_AVX2 void column_tile(const float* x, int64_t ldx, const float* y, int64_t ldy, int64_t depth,
                          float* out, int64_t ldo, int64_t rows, int64_t w, bool add) {
  constexpr bool kSplit = C == Chain::kFmaSplit || C == Chain::kMulAddSplit;
  constexpr int kMr = kSplit ? 3 : 6;  // 12 accumulators, 2 columns of y and a broadcast
  int64_t r = 0;
  for (; r + kMr <= rows; r += kMr) {
    tile<C, kMr, kMasked>(x + r * ldx, ldx, y, ldy, depth, out + r * ldo, ldo, w, add);
  }
  if (rows - r >= 4 && !kSplit) {
    tile<C, 4, kMasked>(x + r * ldx, ldx, y, ldy, depth, out + r * ldo, ldo, w, add);
    r += 4;
  }
  if (rows - r >= 2) {
    tile<C, 2, kMasked>(x + r * ldx, ldx, y, ldy, depth, out + r * ldo, ldo, w, add);
    r += 2;
  }
  if (rows - r >= 1)
    tile<C, 1, kMasked>(x + r * ldx, ldx, y, ldy, depth, out + r * ldo, ldo, w, add);
}

template <Chain C>
TFS_AVX2 void block_avx2(const float* x, int64_t ldx, const float* y, int64_t ldy, int64_t depth,
                         float* out, int64_t ldo, int64_t rows, int64_t cols, bool add) {
  int64_t c = 0;
  if (rows == 1) {  // one row: 6 vectors of columns keep the FMA units busy
    for (; c + 48 <= cols; c += 48)
      tile<C, 1, false, 6>(x, ldx, y + c, ldy, depth, out + c, ldo, 48, add);
  }
  for (; c + 16 <= cols; c += 16) {
    column_tile<C, false>(x, ldx, y + c, ldy, depth, out + c, ldo, rows, 16, add);
  }
  if (c < cols) column_tile<C, true>(x, ldx, y + c, ldy, depth, out + c, ldo, rows, cols - c, add);
}

}  // namespace

bool chain_block_uses_avx2() {
  static const bool yes = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  }();
  return yes;
}

void chain_block_scalar(Chain chain, const float* x, int64_t ldx, const float* y, int64_t ldy,
                        int64_t depth, float* out, int64_t ldo, int64_t rows, int64_t cols,
                        bool add) {
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      const float s = chain_scalar(chain, x + r * ldx, y + c, ldy, depth);
      float& o = out[r * ldo + c];
      o = add ? o + s : s;
    }
  }
}

void chain_block(Chain chain, const float* x, int64_t ldx, const float* y, int64_t ldy,
                 int64_t depth, float* out, int64_t ldo, int64_t rows, int64_t cols, bool add) {
  if (rows <= 0 || cols <= 0) return;
  if (!chain_block_uses_avx2()) {
    return chain_block_scalar(chain, x, ldx, y, ldy, depth, out, ldo, rows, cols, add);
  }
  switch (chain) {
    case Chain::kFma:
      return block_avx2<Chain::kFma>(x, ldx, y, ldy, depth, out, ldo, rows, cols, add);
    case Chain::kFmaSplit:
      return block_avx2<Chain::kFmaSplit>(x, ldx, y, ldy, depth, out, ldo, rows, cols, add);
    case Chain::kMulAddSplit:
      return block_avx2<Chain::kMulAddSplit>(x, ldx, y, ldy, depth, out, ldo, rows, cols, add);
    case Chain::kMulAdd:
      return block_avx2<Chain::kMulAdd>(x, ldx, y, ldy, depth, out, ldo, rows, cols, add);
  }
}

}  // namespace tfs::detail

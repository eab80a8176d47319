// Float32 column sums in 8-float AVX2 registers, for the kernels whose sums run straight down the
// rows of each column (BiasAddGrad; Sum over the outer dim, Eigen's InnerMostDimPreserver): SIMD
// lanes hold different columns, so each column gets its own sequence of flushed adds, the bits of
// the scalar loops. Compiled for AVX2 and chosen at run time. Internal to src/ops.
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <limits>

#include "tfscope/cpu_info.h"

#ifndef TFS_AVX2
#define TFS_AVX2 __attribute__((target("avx2,fma")))
#endif

namespace tfs::detail {

inline bool float_kernels_use_avx2() {
  static const bool yes = cpu_info().avx2 && cpu_info().fma;
  return yes;
}

// flush_denormal on 8 lanes: |v| below the smallest normal reads as a zero of v's sign.
TFS_AVX2 inline __m256 flush8(__m256 v) {
  const __m256 sign = _mm256_set1_ps(-0.0f);
  const __m256 tiny = _mm256_cmp_ps(_mm256_andnot_ps(sign, v),
                                    _mm256_set1_ps(std::numeric_limits<float>::min()), _CMP_LT_OQ);
  return _mm256_blendv_ps(v, _mm256_and_ps(v, sign), tiny);
}

// out[c] = the flushed sum of x[r][c] over r (x: rows x cols, row-major), for the columns in whole
// groups of 8; returns how many columns that is. Each sum starts from +0 and adds the rows in
// order (acc = flush(acc + flush(x))). With blocks_end > 0 (Eigen's preserver with 16 rows or
// more: blocks_end = rows / 4 * 4) rows r < blocks_end go to four accumulators by r mod 4, folded
// into the first (acc0 = flush(acc0 + acc_k), k = 1, 2, 3) before the remaining rows.
TFS_AVX2 inline int64_t column_sums_avx2(const float* x, int64_t rows, int64_t cols,
                                         int64_t blocks_end, float* out) {
  int64_t c = 0;
  for (; c + 8 <= cols; c += 8) {
    __m256 acc[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(),
                     _mm256_setzero_ps()};
    for (int64_t r = 0; r < rows; ++r) {
      __m256& a = acc[r < blocks_end ? r % 4 : 0];
      a = flush8(_mm256_add_ps(a, flush8(_mm256_loadu_ps(x + r * cols + c))));
      if (r + 1 == blocks_end) {
        for (int k = 1; k < 4; ++k) acc[0] = flush8(_mm256_add_ps(acc[0], acc[k]));
      }
    }
    _mm256_storeu_ps(out + c, acc[0]);
  }
  return c;
}

}  // namespace tfs::detail

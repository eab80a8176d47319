// Elementwise float32 loops (o[i] = a[i] op b[i], or with one operand a scalar) 16 lanes at a time
// where the CPU has AVX-512F: each element is still the one IEEE operation of the scalar loop, so
// the width changes no bit. The training step's passes over a gradient (AssignSub, `lr * g`) are
// these loops; the baseline build's own vectorization of them is SSE. Internal to src/ops.
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace tfs::detail {

#define TFS_LOOPS_AVX512 __attribute__((target("avx512f")))

enum class FloatOp : uint8_t { kAdd, kSub, kMul };

inline bool float_loops_wide() {
  static const bool yes = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f");
  }();
  return yes;
}

template <FloatOp kOp>
inline float float_op(float x, float y) {
  if constexpr (kOp == FloatOp::kAdd) return x + y;
  if constexpr (kOp == FloatOp::kSub) return x - y;
  return x * y;
}

template <FloatOp kOp>
TFS_LOOPS_AVX512 inline __m512 float_op512(__m512 x, __m512 y) {
  if constexpr (kOp == FloatOp::kAdd) return _mm512_add_ps(x, y);
  if constexpr (kOp == FloatOp::kSub) return _mm512_sub_ps(x, y);
  return _mm512_mul_ps(x, y);
}

// a_step / b_step: 1 walks the operand, 0 repeats its first element (a scalar operand).
template <FloatOp kOp>
TFS_LOOPS_AVX512 void float_loop512(const float* a, int64_t a_step, const float* b, int64_t b_step,
                                    float* o, int64_t n) {
  const __m512 sa = _mm512_set1_ps(a[0]), sb = _mm512_set1_ps(b[0]);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512 x = a_step ? _mm512_loadu_ps(a + i) : sa;
    const __m512 y = b_step ? _mm512_loadu_ps(b + i) : sb;
    _mm512_storeu_ps(o + i, float_op512<kOp>(x, y));
  }
  if (i < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - i)) - 1u);
    const __m512 x = a_step ? _mm512_maskz_loadu_ps(m, a + i) : sa;
    const __m512 y = b_step ? _mm512_maskz_loadu_ps(m, b + i) : sb;
    _mm512_mask_storeu_ps(o + i, m, float_op512<kOp>(x, y));
  }
}

// o may be a or b (an update in place): n elements of o, a and b as their steps say.
template <FloatOp kOp>
void float_loop(const float* a, int64_t a_step, const float* b, int64_t b_step, float* o,
                int64_t n) {
  if (n <= 0) return;
  if (float_loops_wide()) return float_loop512<kOp>(a, a_step, b, b_step, o, n);
  if (a_step && b_step) {
    for (int64_t i = 0; i < n; ++i) o[i] = float_op<kOp>(a[i], b[i]);
  } else if (a_step) {
    const float y = b[0];
    for (int64_t i = 0; i < n; ++i) o[i] = float_op<kOp>(a[i], y);
  } else {
    const float x = a[0];
    for (int64_t i = 0; i < n; ++i) o[i] = float_op<kOp>(x, b[i]);
  }
}

// One row of a weight's update at batch 1 (sgd_update.h): o[j] = v[j] - s * fma(a, b[j], +0),
// the three kernels' operations on each element in turn, in registers: the k = 1 product as
// gemm_f32's outer_rows_f32 makes it, the Mul's product with the scalar (in its operand order),
// the AssignSub's difference. AVX-512F only (float_loops_wide()); its includer is compiled with
// -ffp-contract=off, or the product and the difference would become one fused multiply-subtract.
TFS_LOOPS_AVX512 inline __m512 outer_sub_lanes512(__m512 v, __m512 a, __m512 b, __m512 s,
                                                  bool s_first) {
  const __m512 g = _mm512_fmadd_ps(a, b, _mm512_setzero_ps());
  return _mm512_sub_ps(v, s_first ? _mm512_mul_ps(s, g) : _mm512_mul_ps(g, s));
}

TFS_LOOPS_AVX512 inline void float_outer_sub512(const float* v, float a, const float* b, float s,
                                                bool s_first, float* o, int64_t n) {
  const __m512 av = _mm512_set1_ps(a), sv = _mm512_set1_ps(s);
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    _mm512_storeu_ps(
        o + j, outer_sub_lanes512(_mm512_loadu_ps(v + j), av, _mm512_loadu_ps(b + j), sv, s_first));
  }
  if (j < n) {
    const __mmask16 m = static_cast<__mmask16>((1u << (n - j)) - 1u);
    _mm512_mask_storeu_ps(o + j, m,
                          outer_sub_lanes512(_mm512_maskz_loadu_ps(m, v + j), av,
                                             _mm512_maskz_loadu_ps(m, b + j), sv, s_first));
  }
}

#undef TFS_LOOPS_AVX512

}  // namespace tfs::detail

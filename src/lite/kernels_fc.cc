// FULLY_CONNECTED: LiteRT's reference float kernel (reference_ops::FullyConnected) and hybrid
// kernel (EvalHybridDense with tensor_utils' BatchQuantizeFloats and
// MatrixBatchVectorMultiplyAccumulate), plus a SIMD hybrid kernel bit-equal to the reference.
// Built with -ffp-contract=off: a fused multiply-add would change the last bit.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "tfscope/lite_kernels.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TFSCOPE_LITE_AVX2 1
#include <immintrin.h>
#endif

namespace tfs::lite::kernels {

float activate(float x, Activation a) {
  switch (a) {
    case Activation::kRelu:
      return std::max(x, 0.0f);
    case Activation::kRelu6:
      return std::min(std::max(x, 0.0f), 6.0f);
    case Activation::kReluN1To1:
      return std::min(std::max(x, -1.0f), 1.0f);
    default:
      return x;
  }
}

void fully_connected_float(const float* in, int batch, int depth, const float* w, int units,
                           const float* bias, Activation act, float* out) {
  for (int b = 0; b < batch; ++b) {
    for (int u = 0; u < units; ++u) {
      float total = 0.f;
      for (int d = 0; d < depth; ++d) total += in[b * depth + d] * w[u * depth + d];
      float bias_value = bias ? bias[u] : 0.0f;
      out[b * units + u] = activate(total + bias_value, act);
    }
  }
}

void asymmetric_quantize(const float* x, int n, int8_t* q, float* scaling_factor, int32_t* offset) {
  const int32_t kMin = -128, kMax = 127;
  const double qmin = kMin, qmax = kMax;
  const auto mm = std::minmax_element(x, x + n);
  const float rmin_f = std::min(0.0f, *mm.first);
  const float rmax_f = std::max(0.0f, *mm.second);
  const double rmin = rmin_f, rmax = rmax_f;
  if (rmin == rmax) {
    std::memset(q, 0, static_cast<size_t>(n));
    *scaling_factor = 1;
    *offset = 0;
    return;
  }
  // The range is a float difference, widened to double only for the division: checked against
  // LiteRT 2.3's BUILTIN_REF kernel, where a double difference disagrees in the last bit.
  const double scale = static_cast<double>(rmax_f - rmin_f) / (qmax - qmin);
  const double zp_from_min = qmin - rmin / scale;
  const double zp_from_max = qmax - rmax / scale;
  const double zp_from_min_error = std::abs(qmin) + std::abs(rmin / scale);
  const double zp_from_max_error = std::abs(qmax) + std::abs(rmax / scale);
  const double zp = zp_from_min_error < zp_from_max_error ? zp_from_min : zp_from_max;
  int8_t nudged = 0;
  if (zp <= qmin)
    nudged = static_cast<int8_t>(kMin);
  else if (zp >= qmax)
    nudged = static_cast<int8_t>(kMax);
  else
    nudged = static_cast<int8_t>(std::round(zp));
  *scaling_factor = static_cast<float>(scale);
  *offset = nudged;
  const float inv = 1.0f / *scaling_factor;
  for (int i = 0; i < n; ++i) {
    const int32_t v = static_cast<int32_t>(std::round(static_cast<float>(*offset) + x[i] * inv));
    q[i] = static_cast<int8_t>(std::min(kMax, std::max(kMin, v)));
  }
}

void symmetric_quantize(const float* x, int n, int8_t* q, float* scaling_factor) {
  const int32_t kScale = 127;
  const auto mm = std::minmax_element(x, x + n);
  const float range = std::max(std::abs(*mm.first), std::abs(*mm.second));
  if (range == 0) {
    std::memset(q, 0, static_cast<size_t>(n));
    *scaling_factor = 1;
    return;
  }
  *scaling_factor = range / kScale;
  const float inv = kScale / range;
  for (int i = 0; i < n; ++i) {
    const int32_t v = static_cast<int32_t>(std::round(x[i] * inv));
    q[i] = static_cast<int8_t>(std::min(kScale, std::max(-kScale, v)));
  }
}

void HybridWeights::prepare() {
  row_sums.assign(static_cast<size_t>(units), 0);
  for (int u = 0; u < units; ++u) {
    int32_t s = 0;
    for (int d = 0; d < depth; ++d) s += w[u * depth + d];
    row_sums[static_cast<size_t>(u)] = s;
  }
}

namespace {

bool all_zero(const float* x, int n) {
  for (int i = 0; i < n; ++i) {
    if (x[i] != 0.0f) return false;
  }
  return true;
}

// Steps shared by both hybrid kernels: output = bias, the all-zero shortcut, per-row input
// quantization. Returns false when the shortcut applied (output is final).
bool hybrid_prologue(const float* in, int batch, const HybridWeights& w, const float* bias,
                     Activation act, bool asymmetric, float* out, int8_t* q, float* sf,
                     int32_t* zp) {
  const int units = w.units, depth = w.depth;
  for (int b = 0; b < batch; ++b) {
    for (int u = 0; u < units; ++u) out[b * units + u] = bias ? bias[u] : 0.0f;
  }
  if (all_zero(in, batch * depth)) {
    for (int i = 0; i < batch * units; ++i) out[i] = activate(out[i], act);
    return false;
  }
  for (int b = 0; b < batch; ++b) {
    zp[b] = 0;
    if (asymmetric)
      asymmetric_quantize(in + b * depth, depth, q + b * depth, &sf[b], &zp[b]);
    else
      symmetric_quantize(in + b * depth, depth, q + b * depth, &sf[b]);
    if (w.scales.size() == 1) sf[b] *= w.scales[0];
  }
  return true;
}

// out += float(acc - row_sum * zp) * scale, then the activation: the float steps of
// MatrixBatchVectorMultiplyAccumulate, identical in both kernels.
inline float hybrid_accumulate(float out, int32_t dot, const HybridWeights& w, int u, float sf,
                               int32_t zp, bool asymmetric) {
  float scale = sf;
  if (w.scales.size() > 1) scale *= w.scales[static_cast<size_t>(u)];
  if (asymmetric) dot -= w.row_sums[static_cast<size_t>(u)] * zp;
  return out + static_cast<float>(dot) * scale;
}

}  // namespace

void fully_connected_hybrid(const float* in, int batch, const HybridWeights& w, const float* bias,
                            Activation act, bool asymmetric, float* out) {
  std::vector<int8_t> q(static_cast<size_t>(batch) * static_cast<size_t>(w.depth));
  std::vector<float> sf(static_cast<size_t>(batch));
  std::vector<int32_t> zp(static_cast<size_t>(batch));
  if (!hybrid_prologue(in, batch, w, bias, act, asymmetric, out, q.data(), sf.data(), zp.data()))
    return;
  for (int b = 0; b < batch; ++b) {
    const int8_t* x = q.data() + b * w.depth;
    for (int u = 0; u < w.units; ++u) {
      int32_t dot = 0;
      const int8_t* row = w.w + u * w.depth;
      for (int d = 0; d < w.depth; ++d) dot += row[d] * x[d];
      float& o = out[b * w.units + u];
      o = hybrid_accumulate(o, dot, w, u, sf[static_cast<size_t>(b)], zp[static_cast<size_t>(b)],
                            asymmetric);
    }
  }
  for (int i = 0; i < batch * w.units; ++i) out[i] = activate(out[i], act);
}

namespace {

#if defined(__SSE2__)
// Sign-extends 16 int8 lanes to two vectors of 8 int16.
inline void widen(__m128i v, __m128i* lo, __m128i* hi) {
  *lo = _mm_srai_epi16(_mm_unpacklo_epi8(v, v), 8);
  *hi = _mm_srai_epi16(_mm_unpackhi_epi8(v, v), 8);
}

inline int32_t hsum(__m128i v) {
  v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(1, 0, 3, 2)));
  v = _mm_add_epi32(v, _mm_shuffle_epi32(v, _MM_SHUFFLE(2, 3, 0, 1)));
  return _mm_cvtsi128_si32(v);
}
#endif

#if defined(TFSCOPE_LITE_AVX2)
// The same dots with 256-bit integer lanes, used when the CPU has AVX2 (checked at run time).
__attribute__((target("avx2"))) void dot4_avx2(const int8_t* r0, const int8_t* r1, const int8_t* r2,
                                               const int8_t* r3, const int16_t* x16,
                                               const int8_t* x, int depth, int32_t* dots) {
  __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
  int d = 0;
  for (; d + 16 <= depth; d += 16) {
    __m256i xv = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x16 + d));
#define TFSCOPE_ROW(r) \
  _mm256_madd_epi16(   \
      _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r + d))), xv)
    a0 = _mm256_add_epi32(a0, TFSCOPE_ROW(r0));
    a1 = _mm256_add_epi32(a1, TFSCOPE_ROW(r1));
    a2 = _mm256_add_epi32(a2, TFSCOPE_ROW(r2));
    a3 = _mm256_add_epi32(a3, TFSCOPE_ROW(r3));
#undef TFSCOPE_ROW
  }
  // Horizontal sums of the four accumulators at once.
  __m256i s01 = _mm256_hadd_epi32(a0, a1), s23 = _mm256_hadd_epi32(a2, a3);
  __m256i s = _mm256_hadd_epi32(s01, s23);
  __m128i t = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
  int32_t out[4];
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), t);
  for (; d < depth; ++d) {
    out[0] += r0[d] * x[d];
    out[1] += r1[d] * x[d];
    out[2] += r2[d] * x[d];
    out[3] += r3[d] * x[d];
  }
  for (int i = 0; i < 4; ++i) dots[i] = out[i];
}

bool has_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes;
}
#endif

// Integer dot products of four weight rows with one quantized input row (exact in int32).
void dot4(const int8_t* r0, const int8_t* r1, const int8_t* r2, const int8_t* r3,
          const int16_t* x16, const int8_t* x, int depth, int32_t* dots) {
#if defined(TFSCOPE_LITE_AVX2)
  if (has_avx2()) return dot4_avx2(r0, r1, r2, r3, x16, x, depth, dots);
#endif
  int d = 0;
  int32_t s[4] = {0, 0, 0, 0};
#if defined(__SSE2__)
  __m128i a0 = _mm_setzero_si128(), a1 = a0, a2 = a0, a3 = a0;
  for (; d + 16 <= depth; d += 16) {
    __m128i xl = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x16 + d));
    __m128i xh = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x16 + d + 8));
    __m128i lo, hi;
    widen(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r0 + d)), &lo, &hi);
    a0 = _mm_add_epi32(a0, _mm_add_epi32(_mm_madd_epi16(lo, xl), _mm_madd_epi16(hi, xh)));
    widen(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r1 + d)), &lo, &hi);
    a1 = _mm_add_epi32(a1, _mm_add_epi32(_mm_madd_epi16(lo, xl), _mm_madd_epi16(hi, xh)));
    widen(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r2 + d)), &lo, &hi);
    a2 = _mm_add_epi32(a2, _mm_add_epi32(_mm_madd_epi16(lo, xl), _mm_madd_epi16(hi, xh)));
    widen(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r3 + d)), &lo, &hi);
    a3 = _mm_add_epi32(a3, _mm_add_epi32(_mm_madd_epi16(lo, xl), _mm_madd_epi16(hi, xh)));
  }
  s[0] = hsum(a0);
  s[1] = hsum(a1);
  s[2] = hsum(a2);
  s[3] = hsum(a3);
#else
  (void)x16;
#endif
  for (; d < depth; ++d) {
    s[0] += r0[d] * x[d];
    s[1] += r1[d] * x[d];
    s[2] += r2[d] * x[d];
    s[3] += r3[d] * x[d];
  }
  for (int i = 0; i < 4; ++i) dots[i] = s[i];
}

}  // namespace

void fully_connected_hybrid_fast(const float* in, int batch, const HybridWeights& w,
                                 const float* bias, Activation act, bool asymmetric, float* out,
                                 std::vector<int8_t>& scratch) {
  const size_t depth = static_cast<size_t>(w.depth);
  const size_t need = static_cast<size_t>(batch) * depth;
  if (scratch.size() < need) scratch.resize(need);
  thread_local std::vector<float> sf;
  thread_local std::vector<int32_t> zp;
  thread_local std::vector<int16_t> x16;
  sf.resize(static_cast<size_t>(batch));
  zp.resize(static_cast<size_t>(batch));
  x16.resize(need);
  if (!hybrid_prologue(in, batch, w, bias, act, asymmetric, out, scratch.data(), sf.data(),
                       zp.data()))
    return;
  for (size_t k = 0; k < need; ++k) x16[k] = scratch[k];
  // Weight rows outermost, four at a time, so that each is read from memory once for the whole
  // batch; the integer dots are exact, and the float steps per output are the reference's.
  int32_t dots[4];
  int u = 0;
  for (; u + 4 <= w.units; u += 4) {
    const int8_t* r = w.w + static_cast<size_t>(u) * depth;
    for (int b = 0; b < batch; ++b) {
      const size_t off = static_cast<size_t>(b) * depth;
      dot4(r, r + depth, r + 2 * depth, r + 3 * depth, x16.data() + off, scratch.data() + off,
           w.depth, dots);
      float* o = out + static_cast<size_t>(b) * static_cast<size_t>(w.units);
      for (int i = 0; i < 4; ++i) {
        o[u + i] =
            activate(hybrid_accumulate(o[u + i], dots[i], w, u + i, sf[static_cast<size_t>(b)],
                                       zp[static_cast<size_t>(b)], asymmetric),
                     act);
      }
    }
  }
  for (; u < w.units; ++u) {
    const int8_t* r = w.w + static_cast<size_t>(u) * depth;
    for (int b = 0; b < batch; ++b) {
      const int8_t* x = scratch.data() + static_cast<size_t>(b) * depth;
      int32_t dot = 0;
      for (int d = 0; d < w.depth; ++d) dot += r[d] * x[d];
      float& o =
          out[static_cast<size_t>(b) * static_cast<size_t>(w.units) + static_cast<size_t>(u)];
      o = activate(hybrid_accumulate(o, dot, w, u, sf[static_cast<size_t>(b)],
                                     zp[static_cast<size_t>(b)], asymmetric),
                   act);
    }
  }
}

}  // namespace tfs::lite::kernels

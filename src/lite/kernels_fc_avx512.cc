// FULLY_CONNECTED with AVX-512 (F, BW, VNNI), compiled for that target function by function and
// called only when the CPU has it (PreparedFc dispatches).
//
// Float: a tile of MR input rows by four panels of 16 units; each output lane sums its products in
// d order from 0, exactly as the reference loop does (one vector lane per output, no
// reassociation), with a rounded multiply then an add, or one fused multiply-add in fused mode.
// Hybrid: the same tiles over int8 weights, four d values per 32-bit lane (VPDPBUSD: unsigned
// inputs q + 128 times signed weights, exact in int32); the kernel subtracts row_sum * (128 + zp)
// and then runs the reference's float steps per output: bias + float(dot) * (sf * scale).
// Built with -ffp-contract=off: mul and add must stay two roundings where the code says so.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels_fc_internal.h"

// GCC 12 warns about the intrinsics' own undefined-vector idiom (_mm512_undefined_ps); clang
// has no -Wmaybe-uninitialized (and warns about an unknown group).
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#define TFS_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512vnni,avx2,fma")))

namespace tfs::lite::kernels {
namespace {

constexpr int kLanes = 16;
constexpr int kPanels = 4;  // panels per tile (PreparedFc::Layout::group_panels)
constexpr int kMaxRows = 6;

// The activations as the reference's std::max/std::min spell them: max(x, 0) keeps -0 and NaN,
// so the constant goes first (MAXPS returns its second operand unless the first is greater).
TFS_AVX512 inline __m512 activate16(__m512 v, Activation act) {
  switch (act) {
    case Activation::kRelu:
      return _mm512_max_ps(_mm512_setzero_ps(), v);
    case Activation::kRelu6:
      return _mm512_min_ps(_mm512_set1_ps(6.0f), _mm512_max_ps(_mm512_setzero_ps(), v));
    case Activation::kReluN1To1:
      return _mm512_min_ps(_mm512_set1_ps(1.0f), _mm512_max_ps(_mm512_set1_ps(-1.0f), v));
    default:
      return v;
  }
}

inline __mmask16 lanes_mask(int n) {
  return n >= kLanes ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << n) - 1u);
}

// The tiles keep their MR x 4 accumulators in named variables (an array of vectors is kept in
// memory by GCC, a store per update): TFS_ROWS(X) expands X(i) for the six possible rows, and
// rows at or past MR compile to nothing.
#define TFS_ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5)

TFS_AVX512 inline void store_float_row(const FcCall& c, int b, int p0, __m512 a0, __m512 a1,
                                       __m512 a2, __m512 a3) {
  const __m512 acc[kPanels] = {a0, a1, a2, a3};
  for (int j = 0; j < kPanels; ++j) {
    const int u = (p0 + j) * kLanes;
    if (u >= c.units) break;
    const __mmask16 m = lanes_mask(c.units - u);
    const __m512 v = _mm512_add_ps(acc[j], _mm512_maskz_loadu_ps(m, c.bias + u));
    float* o = c.out + static_cast<size_t>(b) * static_cast<size_t>(c.units) + u;
    _mm512_mask_storeu_ps(o, m, activate16(v, c.act));
  }
}

template <int MR, bool kFused>
TFS_AVX512 void float_tile(const FcCall& c, int b0, int p0) {
  const int depth = c.depth;
  // The group's four panels side by side per d (kernels_fc_prepared.cc).
  const size_t pstride = kLanes, dstride = kLanes * kPanels;
  const float* w = c.wf + static_cast<size_t>(p0) * static_cast<size_t>(depth) * kLanes;
  const float* x = c.in + static_cast<size_t>(b0) * static_cast<size_t>(depth);
#define TFS_DECLARE(i)                                                                           \
  __m512 a##i##0 = _mm512_setzero_ps(), a##i##1 = a##i##0, a##i##2 = a##i##0, a##i##3 = a##i##0; \
  const float* x##i = x + static_cast<size_t>(MR > i ? i : 0) * static_cast<size_t>(depth);
  TFS_ROWS(TFS_DECLARE)
#undef TFS_DECLARE
  for (int d = 0; d < depth; ++d) {
    const float* wd = w + static_cast<size_t>(d) * dstride;
    const __m512 w0 = _mm512_load_ps(wd), w1 = _mm512_load_ps(wd + pstride),
                 w2 = _mm512_load_ps(wd + 2 * pstride), w3 = _mm512_load_ps(wd + 3 * pstride);
#define TFS_STEP(i)                                            \
  if constexpr (MR > i) {                                      \
    const __m512 xb = _mm512_set1_ps(x##i[d]);                 \
    if constexpr (kFused) {                                    \
      a##i##0 = _mm512_fmadd_ps(xb, w0, a##i##0);              \
      a##i##1 = _mm512_fmadd_ps(xb, w1, a##i##1);              \
      a##i##2 = _mm512_fmadd_ps(xb, w2, a##i##2);              \
      a##i##3 = _mm512_fmadd_ps(xb, w3, a##i##3);              \
    } else {                                                   \
      a##i##0 = _mm512_add_ps(a##i##0, _mm512_mul_ps(xb, w0)); \
      a##i##1 = _mm512_add_ps(a##i##1, _mm512_mul_ps(xb, w1)); \
      a##i##2 = _mm512_add_ps(a##i##2, _mm512_mul_ps(xb, w2)); \
      a##i##3 = _mm512_add_ps(a##i##3, _mm512_mul_ps(xb, w3)); \
    }                                                          \
  }
    TFS_ROWS(TFS_STEP)
#undef TFS_STEP
  }
#define TFS_STORE(i) \
  if constexpr (MR > i) store_float_row(c, b0 + i, p0, a##i##0, a##i##1, a##i##2, a##i##3);
  TFS_ROWS(TFS_STORE)
#undef TFS_STORE
}

TFS_AVX512 inline void store_hybrid_row(const FcCall& c, int b, int p0, __m512i a0, __m512i a1,
                                        __m512i a2, __m512i a3) {
  const __m512i acc[kPanels] = {a0, a1, a2, a3};
  const __m512i offset = _mm512_set1_epi32(c.row_offset[b]);
  const __m512 sf = _mm512_set1_ps(c.sf[b]);
  for (int j = 0; j < kPanels; ++j) {
    const int u = (p0 + j) * kLanes;
    if (u >= c.units) break;
    const __mmask16 m = lanes_mask(c.units - u);
    const __m512i sums = _mm512_loadu_si512(c.row_sums + u);
    const __m512i dot = _mm512_sub_epi32(acc[j], _mm512_mullo_epi32(sums, offset));
    const __m512 scale = _mm512_mul_ps(sf, _mm512_loadu_ps(c.scales + u));
    const __m512 v = _mm512_add_ps(_mm512_maskz_loadu_ps(m, c.bias + u),
                                   _mm512_mul_ps(_mm512_cvtepi32_ps(dot), scale));
    float* o = c.out + static_cast<size_t>(b) * static_cast<size_t>(c.units) + u;
    _mm512_mask_storeu_ps(o, m, activate16(v, c.act));
  }
}

template <int MR>
TFS_AVX512 void hybrid_tile(const FcCall& c, int b0, int p0) {
  const int depth_pad = c.layout.depth_pad;
  const int groups = depth_pad / 4;
  // The group's four panels side by side per k group (kernels_fc_prepared.cc).
  const size_t pstride = kLanes * 4, gstride = pstride * kPanels;
  const int8_t* w = c.wq + static_cast<size_t>(p0) * static_cast<size_t>(groups) * pstride;
  const uint8_t* q =
      static_cast<const uint8_t*>(c.q) + static_cast<size_t>(b0) * static_cast<size_t>(depth_pad);
#define TFS_DECLARE(i)                                                            \
  __m512i a##i##0 = _mm512_setzero_si512(), a##i##1 = a##i##0, a##i##2 = a##i##0, \
          a##i##3 = a##i##0;                                                      \
  const uint8_t* q##i = q + static_cast<size_t>(MR > i ? i : 0) * static_cast<size_t>(depth_pad);
  TFS_ROWS(TFS_DECLARE)
#undef TFS_DECLARE
  for (int g = 0; g < groups; ++g) {
    const int8_t* wg = w + static_cast<size_t>(g) * gstride;
    const __m512i w0 = _mm512_load_si512(wg), w1 = _mm512_load_si512(wg + pstride),
                  w2 = _mm512_load_si512(wg + 2 * pstride),
                  w3 = _mm512_load_si512(wg + 3 * pstride);
#define TFS_STEP(i)                                 \
  if constexpr (MR > i) {                           \
    int32_t four;                                   \
    std::memcpy(&four, q##i + 4 * g, 4);            \
    const __m512i xb = _mm512_set1_epi32(four);     \
    a##i##0 = _mm512_dpbusd_epi32(a##i##0, xb, w0); \
    a##i##1 = _mm512_dpbusd_epi32(a##i##1, xb, w1); \
    a##i##2 = _mm512_dpbusd_epi32(a##i##2, xb, w2); \
    a##i##3 = _mm512_dpbusd_epi32(a##i##3, xb, w3); \
  }
    TFS_ROWS(TFS_STEP)
#undef TFS_STEP
  }
#define TFS_STORE(i) \
  if constexpr (MR > i) store_hybrid_row(c, b0 + i, p0, a##i##0, a##i##1, a##i##2, a##i##3);
  TFS_ROWS(TFS_STORE)
#undef TFS_STORE
}

#undef TFS_ROWS

template <bool kFused>
TFS_AVX512 void float_all(const FcCall& c) {
  for (int p0 = 0; p0 < c.layout.panels; p0 += kPanels) {
    for (int b0 = 0; b0 < c.batch; b0 += kMaxRows) {
      switch (std::min(kMaxRows, c.batch - b0)) {
        case 1:
          float_tile<1, kFused>(c, b0, p0);
          break;
        case 2:
          float_tile<2, kFused>(c, b0, p0);
          break;
        case 3:
          float_tile<3, kFused>(c, b0, p0);
          break;
        case 4:
          float_tile<4, kFused>(c, b0, p0);
          break;
        case 5:
          float_tile<5, kFused>(c, b0, p0);
          break;
        default:
          float_tile<6, kFused>(c, b0, p0);
          break;
      }
    }
  }
}

}  // namespace

TFS_AVX512 void fc_float_avx512(const FcCall& c) {
  if (c.fused)
    float_all<true>(c);
  else
    float_all<false>(c);
}

TFS_AVX512 void hybrid_rows_avx512(const FcCall& c, int b0, int p0, const int32_t* acc) {
  for (int r = 0; r < 16; ++r) {
    const int32_t* a = acc + r * kLanes;
    store_hybrid_row(c, b0 + r, p0, _mm512_loadu_si512(a), _mm512_loadu_si512(a + 256),
                     _mm512_loadu_si512(a + 512), _mm512_loadu_si512(a + 768));
  }
}

TFS_AVX512 void fc_hybrid_avx512(const FcCall& c) {
  for (int p0 = 0; p0 < c.layout.panels; p0 += kPanels) {
    for (int b0 = 0; b0 < c.batch; b0 += kMaxRows) {
      switch (std::min(kMaxRows, c.batch - b0)) {
        case 1:
          hybrid_tile<1>(c, b0, p0);
          break;
        case 2:
          hybrid_tile<2>(c, b0, p0);
          break;
        case 3:
          hybrid_tile<3>(c, b0, p0);
          break;
        case 4:
          hybrid_tile<4>(c, b0, p0);
          break;
        case 5:
          hybrid_tile<5>(c, b0, p0);
          break;
        default:
          hybrid_tile<6>(c, b0, p0);
          break;
      }
    }
  }
}

namespace {

// A row's minimum and maximum; `bad` when it holds a NaN or an infinity (x * 0 summed is NaN when
// any value is NaN or infinite). Two sets of accumulators, so that two vectors are in flight.
TFS_AVX512 inline void row_min_max(const float* x, int depth, float* mn, float* mx, bool* bad) {
  __m512 vmin = _mm512_set1_ps(x[0]), vmax = vmin, finite = _mm512_setzero_ps();
  __m512 vmin2 = vmin, vmax2 = vmin, finite2 = finite;
  const __m512 zero = _mm512_setzero_ps();
  int d = 0;
  for (; d + 2 * kLanes <= depth; d += 2 * kLanes) {
    const __m512 v = _mm512_loadu_ps(x + d), v2 = _mm512_loadu_ps(x + d + kLanes);
    vmin = _mm512_min_ps(vmin, v);
    vmax = _mm512_max_ps(vmax, v);
    finite = _mm512_fmadd_ps(v, zero, finite);
    vmin2 = _mm512_min_ps(vmin2, v2);
    vmax2 = _mm512_max_ps(vmax2, v2);
    finite2 = _mm512_fmadd_ps(v2, zero, finite2);
  }
  vmin = _mm512_min_ps(vmin, vmin2);
  vmax = _mm512_max_ps(vmax, vmax2);
  finite = _mm512_add_ps(finite, finite2);
  for (; d < depth; d += kLanes) {
    const __m512 v = _mm512_mask_loadu_ps(_mm512_set1_ps(x[0]), lanes_mask(depth - d), x + d);
    vmin = _mm512_min_ps(vmin, v);
    vmax = _mm512_max_ps(vmax, v);
    finite = _mm512_fmadd_ps(v, zero, finite);
  }
  *mn = _mm512_reduce_min_ps(vmin);
  *mx = _mm512_reduce_max_ps(vmax);
  *bad = _mm512_cmp_ps_mask(finite, finite, _CMP_UNORD_Q) || !std::isfinite(*mn) ||
         !std::isfinite(*mx);
}

// q = clamp(zp + round(x * inv)) (round half away from zero), as asymmetric_quantize and
// symmetric_quantize compute it, 16 values at a time, stored as q + 128. The rounding is exact
// without a rounding mode: with p = n + f (n = trunc(p), |f| < 1, f of p's sign), 2p is exact and
// trunc(2p) - trunc(p) = n + trunc(2f), and trunc(2f) is sign(p) exactly when |f| >= 1/2.
TFS_AVX512 void quantize_row(const float* x, int depth, int depth_pad, bool asymmetric,
                             const RowQuantization& p, uint8_t* qb) {
  const __m512 inv = _mm512_set1_ps(p.inv);
  // Symmetric rows clamp at -127; vpmovsdb saturates to [-128, 127].
  const __m512i offset = _mm512_set1_epi32(asymmetric ? p.zp : 0),
                lo = _mm512_set1_epi32(asymmetric ? -128 : -127);
  const __m128i flip = _mm_set1_epi8(-128);
  // 64 at a time: two saturating packs (int32 -> int16 -> int8, the clamp to [-128, 127]) and
  // one dword permutation back to element order (the packs work within 128-bit lanes).
  const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  const __m512i lo8 = _mm512_set1_epi8(asymmetric ? -128 : -127), flip64 = _mm512_set1_epi8(-128);
  int d = 0;
  for (; d + 4 * kLanes <= depth; d += 4 * kLanes) {
    __m512i v[4];
    for (int h = 0; h < 4; ++h) {
      const __m512 prod = _mm512_mul_ps(_mm512_loadu_ps(x + d + h * kLanes), inv);
      const __m512i rounded = _mm512_sub_epi32(_mm512_cvttps_epi32(_mm512_add_ps(prod, prod)),
                                               _mm512_cvttps_epi32(prod));
      v[h] = _mm512_add_epi32(rounded, offset);
    }
    __m512i bytes =
        _mm512_packs_epi16(_mm512_packs_epi32(v[0], v[1]), _mm512_packs_epi32(v[2], v[3]));
    bytes = _mm512_permutexvar_epi32(order, _mm512_max_epi8(bytes, lo8));
    _mm512_storeu_si512(qb + d, _mm512_xor_si512(bytes, flip64));
  }
  for (; d < depth; d += kLanes) {
    const __mmask16 m = lanes_mask(depth - d);
    const __m512 prod = _mm512_mul_ps(_mm512_maskz_loadu_ps(m, x + d), inv);
    const __m512i rounded =
        _mm512_sub_epi32(_mm512_cvttps_epi32(_mm512_add_ps(prod, prod)), _mm512_cvttps_epi32(prod));
    const __m512i v = _mm512_max_epi32(_mm512_add_epi32(rounded, offset), lo);
    const __m128i bytes = _mm_xor_si128(_mm512_cvtsepi32_epi8(v), flip);
    if (m == 0xffff) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(qb + d), bytes);
    } else {
      alignas(16) uint8_t tmp[16];
      _mm_store_si128(reinterpret_cast<__m128i*>(tmp), bytes);
      std::memcpy(qb + d, tmp, static_cast<size_t>(depth - d));
    }
  }
  std::memset(qb + depth, 128, static_cast<size_t>(depth_pad - depth));
}

}  // namespace

// The scalar asymmetric_params / symmetric_params (kernels_fc.cc) operation for operation, in
// vector lanes (each IEEE operation rounds the same in a lane as in a scalar register).
TFS_AVX512 void row_params_avx512(const float* mn, const float* mx, int n, bool asymmetric,
                                  RowQuantization* out) {
  const __mmask8 live = static_cast<__mmask8>((1u << n) - 1u);
  const __m256 lo = _mm256_maskz_loadu_ps(live, mn), hi = _mm256_maskz_loadu_ps(live, mx);
  const __m256 zero = _mm256_setzero_ps();
  alignas(32) float sf[8], inv[8];
  alignas(32) int32_t zp[8];
  __mmask8 is_zero;
  if (asymmetric) {
    // rmin = std::min(0, min): MINPS(a, b) is a < b ? a : b; rmax = std::max(0, max).
    const __m256 rmin_f = _mm256_min_ps(lo, zero), rmax_f = _mm256_max_ps(hi, zero);
    is_zero = _mm256_cmp_ps_mask(rmin_f, rmax_f, _CMP_EQ_OQ);
    const __m512d rmin = _mm512_cvtps_pd(rmin_f), rmax = _mm512_cvtps_pd(rmax_f);
    const __m512d scale =
        _mm512_div_pd(_mm512_cvtps_pd(_mm256_sub_ps(rmax_f, rmin_f)), _mm512_set1_pd(255.0));
    const __m512d a = _mm512_div_pd(rmin, scale), b = _mm512_div_pd(rmax, scale);
    const __m512d qmin = _mm512_set1_pd(-128.0), qmax = _mm512_set1_pd(127.0);
    const __m512d zp_min = _mm512_sub_pd(qmin, a), zp_max = _mm512_sub_pd(qmax, b);
    const __m512d err_min = _mm512_add_pd(_mm512_set1_pd(128.0), _mm512_abs_pd(a));
    const __m512d err_max = _mm512_add_pd(_mm512_set1_pd(127.0), _mm512_abs_pd(b));
    const __m512d z =
        _mm512_mask_blend_pd(_mm512_cmp_pd_mask(err_min, err_max, _CMP_LT_OQ), zp_max, zp_min);
    // std::round (half away from zero) as trunc(2z) - trunc(z), exact for |z| < 2^52.
    const __m512d t = _mm512_roundscale_pd(z, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    const __m512d t2 =
        _mm512_roundscale_pd(_mm512_add_pd(z, z), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    __m512d r = _mm512_sub_pd(t2, t);
    r = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(z, qmax, _CMP_GE_OQ), r, qmax);
    r = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(z, qmin, _CMP_LE_OQ), r, qmin);
    _mm256_store_si256(reinterpret_cast<__m256i*>(zp), _mm512_cvttpd_epi32(r));
    const __m256 s = _mm512_cvtpd_ps(scale);
    _mm256_store_ps(sf, s);
    _mm256_store_ps(inv, _mm256_div_ps(_mm256_set1_ps(1.0f), s));
  } else {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    // range = std::max(|min|, |max|): MAXPS(a, b) is a > b ? a : b.
    const __m256 range = _mm256_max_ps(_mm256_andnot_ps(sign, hi), _mm256_andnot_ps(sign, lo));
    is_zero = _mm256_cmp_ps_mask(range, zero, _CMP_EQ_OQ);
    _mm256_store_ps(sf, _mm256_div_ps(range, _mm256_set1_ps(127.0f)));
    _mm256_store_ps(inv, _mm256_div_ps(_mm256_set1_ps(127.0f), range));
    _mm256_store_si256(reinterpret_cast<__m256i*>(zp), _mm256_setzero_si256());
  }
  for (int i = 0; i < n; ++i) {
    if (is_zero >> i & 1) {
      out[i] = RowQuantization{};
    } else {
      out[i].sf = sf[i];
      out[i].zp = zp[i];
      out[i].inv = inv[i];
      out[i].zero = false;
    }
  }
}

// Rows in chunks of eight: their minima and maxima, then their parameters at once (the divisions
// of one row no longer wait for the row before), then the quantized values.
TFS_AVX512 void quantize_rows_avx512(const float* in, int batch, int depth, int depth_pad,
                                     bool asymmetric, uint8_t* q, float* sf, int32_t* zp) {
  constexpr int kChunk = 8;
  for (int b0 = 0; b0 < batch; b0 += kChunk) {
    const int n = std::min(kChunk, batch - b0);
    float mn[kChunk], mx[kChunk];
    bool bad[kChunk];
    for (int r = 0; r < n; ++r) {
      row_min_max(in + static_cast<size_t>(b0 + r) * static_cast<size_t>(depth), depth, &mn[r],
                  &mx[r], &bad[r]);
    }
    RowQuantization p[kChunk];
    row_params_avx512(mn, mx, n, asymmetric, p);
    for (int r = 0; r < n; ++r) {
      const int b = b0 + r;
      const float* x = in + static_cast<size_t>(b) * static_cast<size_t>(depth);
      uint8_t* qb = q + static_cast<size_t>(b) * static_cast<size_t>(depth_pad);
      if (bad[r]) {
        int8_t* s = reinterpret_cast<int8_t*>(qb);
        if (asymmetric) {
          asymmetric_quantize(x, depth, s, &sf[b], &zp[b]);
        } else {
          symmetric_quantize(x, depth, s, &sf[b]);
          zp[b] = 0;
        }
        for (int k = 0; k < depth; ++k) qb[k] = static_cast<uint8_t>(s[k] + 128);
        std::memset(qb + depth, 128, static_cast<size_t>(depth_pad - depth));
        continue;
      }
      sf[b] = p[r].sf;
      zp[b] = asymmetric ? p[r].zp : 0;
      if (p[r].zero) {
        std::memset(qb, 128, static_cast<size_t>(depth_pad));
        continue;
      }
      quantize_row(x, depth, depth_pad, asymmetric, p[r], qb);
    }
  }
}

}  // namespace tfs::lite::kernels

// FULLY_CONNECTED with AVX2 (and FMA for the fused mode), compiled for that target function by
// function and called only when the CPU has it (PreparedFc dispatches).
//
// Float: a tile of MR (at most 2) input rows by four panels of 8 units; each output lane sums its
// products in d order from 0 as the reference loop does, a rounded multiply then an add (or one
// fused multiply-add in fused mode). Hybrid: int8 weights two d values per 32-bit lane, widened to
// int16 and multiplied with the int16 quantized inputs by VPMADDWD (exact in int32); the kernel
// subtracts row_sum * zp and then runs the reference's float steps: bias + float(dot) * (sf *
// scale).
// Built with -ffp-contract=off: mul and add must stay two roundings where the code says so.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels_fc_internal.h"

#define TFS_AVX2 __attribute__((target("avx2,fma")))

namespace tfs::lite::kernels {
namespace {

constexpr int kLanes = 8;
constexpr int kPanels = 4;  // panels per tile (PreparedFc::Layout::group_panels)
constexpr int kMaxRows = 2;

// See activate16 (kernels_fc_avx512.cc): the constant first keeps -0 and NaN as std::max does.
TFS_AVX2 inline __m256 activate8(__m256 v, Activation act) {
  switch (act) {
    case Activation::kRelu:
      return _mm256_max_ps(_mm256_setzero_ps(), v);
    case Activation::kRelu6:
      return _mm256_min_ps(_mm256_set1_ps(6.0f), _mm256_max_ps(_mm256_setzero_ps(), v));
    case Activation::kReluN1To1:
      return _mm256_min_ps(_mm256_set1_ps(1.0f), _mm256_max_ps(_mm256_set1_ps(-1.0f), v));
    default:
      return v;
  }
}

// All-ones in the first n lanes.
TFS_AVX2 inline __m256i lanes_mask(int n) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

template <int MR, bool kFused>
TFS_AVX2 void float_tile(const FcCall& c, int b0, int p0) {
  const int depth = c.depth;
  // The group's four panels side by side per d (kernels_fc_prepared.cc).
  const size_t pstride = kLanes, dstride = kLanes * kPanels;
  const float* w = c.wf + static_cast<size_t>(p0) * static_cast<size_t>(depth) * kLanes;
  const float* x = c.in + static_cast<size_t>(b0) * static_cast<size_t>(depth);
  __m256 acc[MR][kPanels];
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < kPanels; ++j) acc[i][j] = _mm256_setzero_ps();
  for (int d = 0; d < depth; ++d) {
    const float* wd = w + static_cast<size_t>(d) * dstride;
    const __m256 w0 = _mm256_load_ps(wd), w1 = _mm256_load_ps(wd + pstride),
                 w2 = _mm256_load_ps(wd + 2 * pstride), w3 = _mm256_load_ps(wd + 3 * pstride);
#pragma GCC unroll 4
    for (int i = 0; i < MR; ++i) {
      const __m256 xb =
          _mm256_broadcast_ss(x + static_cast<size_t>(i) * static_cast<size_t>(depth) + d);
      if constexpr (kFused) {
        acc[i][0] = _mm256_fmadd_ps(xb, w0, acc[i][0]);
        acc[i][1] = _mm256_fmadd_ps(xb, w1, acc[i][1]);
        acc[i][2] = _mm256_fmadd_ps(xb, w2, acc[i][2]);
        acc[i][3] = _mm256_fmadd_ps(xb, w3, acc[i][3]);
      } else {
        acc[i][0] = _mm256_add_ps(acc[i][0], _mm256_mul_ps(xb, w0));
        acc[i][1] = _mm256_add_ps(acc[i][1], _mm256_mul_ps(xb, w1));
        acc[i][2] = _mm256_add_ps(acc[i][2], _mm256_mul_ps(xb, w2));
        acc[i][3] = _mm256_add_ps(acc[i][3], _mm256_mul_ps(xb, w3));
      }
    }
  }
  for (int j = 0; j < kPanels; ++j) {
    const int u = (p0 + j) * kLanes;
    if (u >= c.units) break;
    const __m256i m = lanes_mask(c.units - u);
    const __m256 bias = _mm256_maskload_ps(c.bias + u, m);
    for (int i = 0; i < MR; ++i) {
      float* o = c.out + static_cast<size_t>(b0 + i) * static_cast<size_t>(c.units) + u;
      _mm256_maskstore_ps(o, m, activate8(_mm256_add_ps(acc[i][j], bias), c.act));
    }
  }
}

template <int MR>
TFS_AVX2 void hybrid_tile(const FcCall& c, int b0, int p0) {
  const int depth_pad = c.layout.depth_pad;
  const int groups = depth_pad / 2;
  // The group's four panels side by side per k group (kernels_fc_prepared.cc).
  const size_t pstride = kLanes * 2, gstride = pstride * kPanels;
  const int8_t* w = c.wq + static_cast<size_t>(p0) * static_cast<size_t>(groups) * pstride;
  const int16_t* q =
      static_cast<const int16_t*>(c.q) + static_cast<size_t>(b0) * static_cast<size_t>(depth_pad);
  __m256i acc[MR][kPanels];
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < kPanels; ++j) acc[i][j] = _mm256_setzero_si256();
  for (int g = 0; g < groups; ++g) {
    const int8_t* wg = w + static_cast<size_t>(g) * gstride;
    __m256i wv[kPanels];
    for (int j = 0; j < kPanels; ++j) {
      wv[j] = _mm256_cvtepi8_epi16(
          _mm_load_si128(reinterpret_cast<const __m128i*>(wg + static_cast<size_t>(j) * pstride)));
    }
#pragma GCC unroll 4
    for (int i = 0; i < MR; ++i) {
      int32_t two;
      std::memcpy(&two, q + static_cast<size_t>(i) * static_cast<size_t>(depth_pad) + 2 * g, 4);
      const __m256i xb = _mm256_set1_epi32(two);
      for (int j = 0; j < kPanels; ++j)
        acc[i][j] = _mm256_add_epi32(acc[i][j], _mm256_madd_epi16(wv[j], xb));
    }
  }
  for (int j = 0; j < kPanels; ++j) {
    const int u = (p0 + j) * kLanes;
    if (u >= c.units) break;
    const __m256i m = lanes_mask(c.units - u);
    const __m256 bias = _mm256_maskload_ps(c.bias + u, m);
    const __m256 scales = _mm256_loadu_ps(c.scales + u);
    const __m256i sums = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c.row_sums + u));
    for (int i = 0; i < MR; ++i) {
      const int b = b0 + i;
      const __m256i dot =
          _mm256_sub_epi32(acc[i][j], _mm256_mullo_epi32(sums, _mm256_set1_epi32(c.row_offset[b])));
      const __m256 scale = _mm256_mul_ps(_mm256_set1_ps(c.sf[b]), scales);
      const __m256 v = _mm256_add_ps(bias, _mm256_mul_ps(_mm256_cvtepi32_ps(dot), scale));
      float* o = c.out + static_cast<size_t>(b) * static_cast<size_t>(c.units) + u;
      _mm256_maskstore_ps(o, m, activate8(v, c.act));
    }
  }
}

template <bool kFused>
TFS_AVX2 void float_all(const FcCall& c) {
  for (int p0 = 0; p0 < c.layout.panels; p0 += kPanels) {
    for (int b0 = 0; b0 < c.batch; b0 += kMaxRows) {
      if (c.batch - b0 >= 2)
        float_tile<2, kFused>(c, b0, p0);
      else
        float_tile<1, kFused>(c, b0, p0);
    }
  }
}

// The reference's rounding of one product: zp + round(x * inv), clamped.
inline int16_t quantize_one(float x, float inv, int32_t zp, int32_t lo) {
  const int32_t v = zp + static_cast<int32_t>(std::round(x * inv));
  return static_cast<int16_t>(std::min(127, std::max(lo, v)));
}

}  // namespace

TFS_AVX2 void fc_float_avx2(const FcCall& c) {
  if (c.fused)
    float_all<true>(c);
  else
    float_all<false>(c);
}

TFS_AVX2 void fc_hybrid_avx2(const FcCall& c) {
  for (int p0 = 0; p0 < c.layout.panels; p0 += kPanels) {
    for (int b0 = 0; b0 < c.batch; b0 += kMaxRows) {
      if (c.batch - b0 >= 2)
        hybrid_tile<2>(c, b0, p0);
      else
        hybrid_tile<1>(c, b0, p0);
    }
  }
}

namespace {

// A row's minimum and maximum; `bad` when it holds a NaN or an infinity (x * 0 summed is NaN when
// any value is NaN or infinite).
TFS_AVX2 inline void row_min_max(const float* x, int depth, float* mn_out, float* mx_out,
                                 bool* bad) {
  __m256 vmin = _mm256_set1_ps(x[0]), vmax = vmin, finite = _mm256_setzero_ps();
  int nan = 0, d = 0;
  for (; d + kLanes <= depth; d += kLanes) {
    const __m256 v = _mm256_loadu_ps(x + d);
    vmin = _mm256_min_ps(vmin, v);
    vmax = _mm256_max_ps(vmax, v);
    finite = _mm256_add_ps(finite, _mm256_mul_ps(v, _mm256_setzero_ps()));
  }
  alignas(32) float lmin[kLanes], lmax[kLanes];
  _mm256_store_ps(lmin, vmin);
  _mm256_store_ps(lmax, vmax);
  float mn = lmin[0], mx = lmax[0];
  for (int i = 1; i < kLanes; ++i) {
    mn = std::min(mn, lmin[i]);
    mx = std::max(mx, lmax[i]);
  }
  for (; d < depth; ++d) {
    nan |= std::isnan(x[d]);
    mn = std::min(mn, x[d]);
    mx = std::max(mx, x[d]);
  }
  nan |= _mm256_movemask_ps(_mm256_cmp_ps(finite, finite, _CMP_UNORD_Q));
  *mn_out = mn;
  *mx_out = mx;
  *bad = nan || !std::isfinite(mn) || !std::isfinite(mx);
}

// Four rows' asymmetric parameters in double lanes, as row_params_avx512 (kernels_fc_avx512.cc)
// computes eight: the scalar asymmetric_params operation for operation.
TFS_AVX2 void asymmetric_params4(__m128 lo, __m128 hi, float* sf, int32_t* zp, float* inv,
                                 int* is_zero) {
  const __m128 zero = _mm_setzero_ps();
  const __m128 rmin_f = _mm_min_ps(lo, zero), rmax_f = _mm_max_ps(hi, zero);
  *is_zero = _mm_movemask_ps(_mm_cmpeq_ps(rmin_f, rmax_f));
  const __m256d rmin = _mm256_cvtps_pd(rmin_f), rmax = _mm256_cvtps_pd(rmax_f);
  const __m256d scale =
      _mm256_div_pd(_mm256_cvtps_pd(_mm_sub_ps(rmax_f, rmin_f)), _mm256_set1_pd(255.0));
  const __m256d a = _mm256_div_pd(rmin, scale), b = _mm256_div_pd(rmax, scale);
  const __m256d qmin = _mm256_set1_pd(-128.0), qmax = _mm256_set1_pd(127.0);
  const __m256d sign = _mm256_set1_pd(-0.0);
  const __m256d zp_min = _mm256_sub_pd(qmin, a), zp_max = _mm256_sub_pd(qmax, b);
  const __m256d err_min = _mm256_add_pd(_mm256_set1_pd(128.0), _mm256_andnot_pd(sign, a));
  const __m256d err_max = _mm256_add_pd(_mm256_set1_pd(127.0), _mm256_andnot_pd(sign, b));
  const __m256d z = _mm256_blendv_pd(zp_max, zp_min, _mm256_cmp_pd(err_min, err_max, _CMP_LT_OQ));
  // std::round (half away from zero) as trunc(2z) - trunc(z).
  const __m256d t = _mm256_round_pd(z, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  const __m256d t2 = _mm256_round_pd(_mm256_add_pd(z, z), _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  __m256d r = _mm256_sub_pd(t2, t);
  r = _mm256_blendv_pd(r, qmax, _mm256_cmp_pd(z, qmax, _CMP_GE_OQ));
  r = _mm256_blendv_pd(r, qmin, _mm256_cmp_pd(z, qmin, _CMP_LE_OQ));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(zp), _mm256_cvttpd_epi32(r));
  const __m128 s = _mm256_cvtpd_ps(scale);
  _mm_storeu_ps(sf, s);
  _mm_storeu_ps(inv, _mm_div_ps(_mm_set1_ps(1.0f), s));
}

// n <= 8 rows' parameters: asymmetric_params / symmetric_params bit for bit.
TFS_AVX2 void row_params(const float* mn, const float* mx, int n, bool asymmetric,
                         RowQuantization* out) {
  alignas(32) float lo[8] = {}, hi[8] = {}, sf[8], inv[8];
  alignas(32) int32_t zp[8] = {};
  std::memcpy(lo, mn, static_cast<size_t>(n) * sizeof(float));
  std::memcpy(hi, mx, static_cast<size_t>(n) * sizeof(float));
  int is_zero = 0;
  if (asymmetric) {
    int z0 = 0, z1 = 0;
    asymmetric_params4(_mm_load_ps(lo), _mm_load_ps(hi), sf, zp, inv, &z0);
    asymmetric_params4(_mm_load_ps(lo + 4), _mm_load_ps(hi + 4), sf + 4, zp + 4, inv + 4, &z1);
    is_zero = z0 | z1 << 4;
  } else {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    const __m256 l = _mm256_load_ps(lo), h = _mm256_load_ps(hi);
    // range = std::max(|min|, |max|): MAXPS(a, b) is a > b ? a : b.
    const __m256 range = _mm256_max_ps(_mm256_andnot_ps(sign, h), _mm256_andnot_ps(sign, l));
    is_zero = _mm256_movemask_ps(_mm256_cmp_ps(range, _mm256_setzero_ps(), _CMP_EQ_OQ));
    _mm256_store_ps(sf, _mm256_div_ps(range, _mm256_set1_ps(127.0f)));
    _mm256_store_ps(inv, _mm256_div_ps(_mm256_set1_ps(127.0f), range));
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

TFS_AVX2 void quantize_row(const float* x, int depth, int depth_pad, bool asymmetric,
                           const RowQuantization& p, int16_t* qb) {
  const int32_t lo_value = asymmetric ? -128 : -127;
  const int32_t offset_value = asymmetric ? p.zp : 0;
  const __m256 inv = _mm256_set1_ps(p.inv);
  const __m256i offset = _mm256_set1_epi32(offset_value), lo = _mm256_set1_epi32(lo_value),
                hi = _mm256_set1_epi32(127);
  int d = 0;
  for (; d + 2 * kLanes <= depth; d += 2 * kLanes) {
    __m256i v[2];
    for (int h = 0; h < 2; ++h) {
      // Round half away from zero as trunc(2p) - trunc(p) (see quantize_rows_avx512).
      const __m256 prod = _mm256_mul_ps(_mm256_loadu_ps(x + d + h * kLanes), inv);
      const __m256i r = _mm256_sub_epi32(_mm256_cvttps_epi32(_mm256_add_ps(prod, prod)),
                                         _mm256_cvttps_epi32(prod));
      v[h] = _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(r, offset), lo), hi);
    }
    // packs works within 128-bit halves: put the four 64-bit quarters back in order.
    const __m256i packed = _mm256_permute4x64_epi64(_mm256_packs_epi32(v[0], v[1]), 0xd8);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(qb + d), packed);
  }
  for (; d < depth; ++d) qb[d] = quantize_one(x[d], p.inv, offset_value, lo_value);
  for (int k = depth; k < depth_pad; ++k) qb[k] = 0;
}

}  // namespace

// Rows in chunks of eight, as quantize_rows_avx512 does: minima and maxima, the parameters at
// once, then the quantized values.
TFS_AVX2 void quantize_rows_avx2(const float* in, int batch, int depth, int depth_pad,
                                 bool asymmetric, int16_t* q, float* sf, int32_t* zp) {
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
    row_params(mn, mx, n, asymmetric, p);
    for (int r = 0; r < n; ++r) {
      const int b = b0 + r;
      const float* x = in + static_cast<size_t>(b) * static_cast<size_t>(depth);
      int16_t* qb = q + static_cast<size_t>(b) * static_cast<size_t>(depth_pad);
      if (bad[r]) {
        // The reference writes int8; widen in place from the end.
        int8_t* s = reinterpret_cast<int8_t*>(qb);
        if (asymmetric) {
          asymmetric_quantize(x, depth, s, &sf[b], &zp[b]);
        } else {
          symmetric_quantize(x, depth, s, &sf[b]);
          zp[b] = 0;
        }
        for (int k = depth; k-- > 0;) qb[k] = s[k];
        for (int k = depth; k < depth_pad; ++k) qb[k] = 0;
        continue;
      }
      sf[b] = p[r].sf;
      zp[b] = asymmetric ? p[r].zp : 0;
      if (p[r].zero) {
        std::memset(qb, 0, static_cast<size_t>(depth_pad) * sizeof(int16_t));
        continue;
      }
      quantize_row(x, depth, depth_pad, asymmetric, p[r], qb);
    }
  }
}

TFS_AVX2 void row_params_avx2(const float* mn, const float* mx, int n, bool asymmetric,
                              RowQuantization* out) {
  row_params(mn, mx, n, asymmetric, out);
}

}  // namespace tfs::lite::kernels

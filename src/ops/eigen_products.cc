// Eigen's float32 products in the order TF 2.21's AVX build computes them (eigen_products.h),
// from Eigen's GeneralProduct.h, ProductEvaluators.h, GeneralMatrixVector.h and InnerProduct.h as
// shipped with tensorflow-cpu 2.21.0, checked against it. Packets are 8 floats; a packet sum
// (predux) adds the halves and then ((0+2)+(1+3)) of the 4 lanes left:
// ((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7)). Compiled with -ffp-contract=off.
#include "eigen_products.h"

#include <immintrin.h>

#include <algorithm>

#include "eigen_contraction.h"

namespace tfs::detail {
namespace {

float predux4(const float* l) {
  return (l[0] + l[2]) + (l[1] + l[3]);
}

float predux8(const float* l) {
  const float h[4] = {l[0] + l[4], l[1] + l[5], l[2] + l[6], l[3] + l[7]};
  return predux4(h);
}

// p[l] += x[l] * y[l] for the 8 lanes of one packet step.
void lanes_madd(float* acc, const float* x, int64_t xs, const float* y, int64_t ys, int width) {
  for (int l = 0; l < width; ++l) acc[l] = acc[l] + x[l * xs] * y[l * ys];
}

}  // namespace

float eigen_inner_product(const float* x, int64_t xs, const float* y, int64_t ys, int64_t k,
                          bool contiguous) {
  if (k == 0) return 0.0f;
  constexpr int64_t kP = 8;
  if (!contiguous || k < kP) {
    float r = x[0] * y[0];
    for (int64_t i = 1; i < k; ++i) r = r + x[i * xs] * y[i * ys];
    return r;
  }
  // four packet accumulators over runs of 32, then the remaining packets into the first ones
  const int64_t packets = k / kP, packet_end = packets * kP, quad_end = k / (4 * kP) * 4 * kP;
  float acc[4][kP] = {};
  auto first = [&](int t) {
    for (int l = 0; l < kP; ++l) acc[t][l] = x[(t * kP + l) * xs] * y[(t * kP + l) * ys];
  };
  auto more = [&](int t, int64_t at) { lanes_madd(acc[t], x + at * xs, xs, y + at * ys, ys, kP); };
  first(0);
  if (packets >= 2) first(1);
  if (packets >= 3) first(2);
  if (packets >= 4) {
    first(3);
    for (int64_t at = 4 * kP; at < quad_end; at += 4 * kP) {
      for (int t = 0; t < 4; ++t) more(t, at + t * kP);
    }
    const int64_t rem = (packet_end - quad_end) / kP;
    for (int t = 0; t < rem; ++t) more(t, quad_end + t * kP);
    for (int l = 0; l < kP; ++l) acc[2][l] = acc[2][l] + acc[3][l];
  }
  if (packets >= 3) {
    for (int l = 0; l < kP; ++l) acc[1][l] = acc[1][l] + acc[2][l];
  }
  if (packets >= 2) {
    for (int l = 0; l < kP; ++l) acc[0][l] = acc[0][l] + acc[1][l];
  }
  float r = predux8(acc[0]);
  for (int64_t i = packet_end; i < k; ++i) r = r + x[i * xs] * y[i * ys];
  return r;
}

namespace {

// One block of columns [j2, jend) for all rows: c = sum of L(i, j) v(j) from 0, then res += c.
// Rows are independent, so 8 of them go in one AVX register with the same bits.
#define TFS_AVX __attribute__((target("avx")))

TFS_AVX void colmajor_block_avx(const float* L, int64_t stride, const float* v, int64_t vs,
                                int64_t rows, int64_t j2, int64_t jend, float* res) {
  int64_t i = 0;
  for (; i + 32 <= rows; i += 32) {
    __m256 c[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(),
                   _mm256_setzero_ps()};
    for (int64_t j = j2; j < jend; ++j) {
      const __m256 b = _mm256_set1_ps(v[j * vs]);
      for (int q = 0; q < 4; ++q) {
        c[q] = _mm256_add_ps(c[q], _mm256_mul_ps(_mm256_loadu_ps(L + i + 8 * q + j * stride), b));
      }
    }
    for (int q = 0; q < 4; ++q) {
      _mm256_storeu_ps(res + i + 8 * q, _mm256_add_ps(_mm256_loadu_ps(res + i + 8 * q), c[q]));
    }
  }
  for (; i + 8 <= rows; i += 8) {
    __m256 c = _mm256_setzero_ps();
    for (int64_t j = j2; j < jend; ++j) {
      c = _mm256_add_ps(
          c, _mm256_mul_ps(_mm256_loadu_ps(L + i + j * stride), _mm256_set1_ps(v[j * vs])));
    }
    _mm256_storeu_ps(res + i, _mm256_add_ps(_mm256_loadu_ps(res + i), c));
  }
  for (; i < rows; ++i) {
    float c = 0.0f;
    for (int64_t j = j2; j < jend; ++j) c = c + L[i + j * stride] * v[j * vs];
    res[i] = res[i] + c;
  }
}

bool has_avx() {
  static const bool yes = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx");
  }();
  return yes;
}

}  // namespace

// Columns (k) in blocks; each row's block sum runs from 0 and is added to the result.
void eigen_gemv_colmajor(const float* L, int64_t stride, const float* v, int64_t vs, int64_t rows,
                         int64_t cols, float* res, int64_t res_stride) {
  const int64_t block = cols < 128 ? cols : (stride * 4 < 32000 ? 16 : 4);
  for (int64_t i = 0; i < rows; ++i) res[i * res_stride] = 0.0f;
  for (int64_t j2 = 0; j2 < cols; j2 += block) {
    const int64_t jend = std::min(j2 + block, cols);
    if (res_stride == 1 && has_avx()) {
      colmajor_block_avx(L, stride, v, vs, rows, j2, jend, res);
      continue;
    }
    for (int64_t i = 0; i < rows; ++i) {
      float c = 0.0f;
      for (int64_t j = j2; j < jend; ++j) c = c + L[i + j * stride] * v[j * vs];
      res[i * res_stride] = res[i * res_stride] + c;
    }
  }
}

// Rows in groups of 8, 4 and 2 (8 only while the row stride is at most 32000 bytes) sum full
// packets and then the rest of k one by one; a last single row also takes a half packet of 4.
void eigen_gemv_rowmajor(const float* L, int64_t stride, const float* v, int64_t vs, int64_t rows,
                         int64_t cols, float* res, int64_t res_stride) {
  const int64_t full = cols / 8 * 8, half = cols / 4 * 4;
  const int64_t n8 = stride * 4 > 32000 ? 0 : rows - 7;
  auto packet_sum = [&](const float* row) {
    float lane[8] = {};
    for (int64_t j = 0; j < full; j += 8) lanes_madd(lane, row + j, 1, v + j * vs, vs, 8);
    return predux8(lane);
  };
  auto grouped = [&](int64_t i) {
    const float* row = L + i * stride;
    float c = packet_sum(row);
    for (int64_t j = full; j < cols; ++j) c = c + row[j] * v[j * vs];
    res[i * res_stride] = 0.0f + c;
  };
  int64_t i = 0;
  for (; i < n8; i += 8) {
    for (int64_t r = i; r < i + 8; ++r) grouped(r);
  }
  for (; i < rows - 3; i += 4) {
    for (int64_t r = i; r < i + 4; ++r) grouped(r);
  }
  for (; i < rows - 1; i += 2) {
    grouped(i);
    grouped(i + 1);
  }
  for (; i < rows; ++i) {
    const float* row = L + i * stride;
    float c = packet_sum(row);
    if (half > full) {
      float h[4] = {};
      lanes_madd(h, row + full, 1, v + full * vs, vs, 4);
      c = c + predux4(h);
    }
    for (int64_t j = half; j < cols; ++j) c = c + row[j] * v[j * vs];
    res[i * res_stride] = 0.0f + c;
  }
}

namespace {

// One output of one gebp call (Eigen's column-major rows x cols block, k of depth): the micro
// kernel its position falls in decides the order. p(k) is the rounded product at k.
template <typename P>
float gebp_output(int64_t i, int64_t j, int64_t rows, int64_t cols, int64_t depth, P&& p) {
  const int64_t cols4 = cols / 4 * 4, mc2 = rows / 16 * 16, mc1 = mc2 + (rows - mc2) / 8 * 8;
  const int64_t mc_half = mc1 + (rows - mc1) / 4 * 4, peeled = depth & ~int64_t{7};
  if (j >= cols4 || i < mc2) {  // 2pX4, 2pX1, 1pX1 and the 1x1 of the last rows: one chain
    float c = 0.0f;
    for (int64_t k = 0; k < depth; ++k) c = c + p(k);
    return c;
  }
  if (i < mc_half) {  // 1pX4 and its half-packet form: even and odd steps of the peeled part
    float c = 0.0f, d = 0.0f;
    for (int64_t k = 0; k < peeled; k += 2) {
      c = c + p(k);
      d = d + p(k + 1);
    }
    c = c + d;
    for (int64_t k = peeled; k < depth; ++k) c = c + p(k);
    return c;
  }
  // the last rows by 4 columns, with the operands swapped: 8 lanes hold pairs of k, 4 packets
  // over runs of 8 k, added ((C0 + C1) + (C2 + C3)), then the rest in pairs, the pair's halves
  // added, and an odd last k
  const int64_t end2 = depth / 2 * 2, end8 = depth / 8 * 8;
  float lane[4][2] = {};
  for (int64_t k = 0; k < end8; ++k) lane[(k % 8) / 2][k % 2] = lane[(k % 8) / 2][k % 2] + p(k);
  float e = (lane[0][0] + lane[1][0]) + (lane[2][0] + lane[3][0]);
  float o = (lane[0][1] + lane[1][1]) + (lane[2][1] + lane[3][1]);
  for (int64_t k = end8; k < end2; k += 2) {
    e = e + p(k);
    o = o + p(k + 1);
  }
  float s = e + o;
  if (depth > end2) s = s + p(depth - 1);
  return s;
}

}  // namespace

// Eigen's GEMM for a row-major result computes the column-major transpose: its rows are our
// columns. Blocks mc x nc over k slices of kc, each slice's gebp sum added to the zeroed result.
void eigen_gemm(const StridedMat& x, const StridedMat& y, int64_t m, int64_t k, int64_t n,
                float* out, int64_t ldo, const EigenCacheSizes& caches) {
  const int64_t M = n, N = m;
  const EigenBlocking b = eigen_product_blocking(k, M, N, 1, caches);
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t c = 0; c < n; ++c) {
      const int64_t i2 = c / b.mc * b.mc, j2 = r / b.nc * b.nc;
      const int64_t rows = std::min(b.mc, M - i2), cols = std::min(b.nc, N - j2);
      float res = 0.0f;
      for (int64_t k2 = 0; k2 < k; k2 += b.kc) {
        const int64_t depth = std::min(b.kc, k - k2);
        res = res + gebp_output(c - i2, r - j2, rows, cols, depth,
                                [&](int64_t kk) { return x.at(r, k2 + kk) * y.at(k2 + kk, c); });
      }
      out[r * ldo + c] = res;
    }
  }
}

void eigen_product(const StridedMat& x, const StridedMat& y, int64_t m, int64_t k, int64_t n,
                   float* out, int64_t ldo, const EigenCacheSizes& caches) {
  if (m == 0 || n == 0) return;
  // Eigen vectorizes an inner product where x's rows and y's columns are contiguous in TF's
  // expression: x not transposed, y transposed.
  const bool contiguous = !x.transposed && y.transposed;
  if (k + m + n < 20 && k > 0) {  // EIGEN_GEMM_TO_COEFFBASED_THRESHOLD: coefficient-based
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        out[i * ldo + j] =
            eigen_inner_product(x.p + i * x.rs, x.cs, y.p + j * y.cs, y.rs, k, contiguous);
      }
    }
    return;
  }
  if (n == 1 && m == 1) {
    out[0] = 0.0f + eigen_inner_product(x.p, x.cs, y.p, y.rs, k, contiguous);
    return;
  }
  if (n == 1) {  // dst.col(0) = x * y.col(0)
    if (!x.transposed) {
      eigen_gemv_rowmajor(x.p, x.rs, y.p, y.rs, m, k, out, ldo);
    } else {
      eigen_gemv_colmajor(x.p, x.cs, y.p, y.rs, m, k, out, ldo);
    }
    return;
  }
  if (m == 1) {  // dst.row(0)^T = y^T * x.row(0)^T
    if (y.transposed) {
      eigen_gemv_rowmajor(y.p, y.cs, x.p, x.cs, n, k, out, 1);
    } else {
      eigen_gemv_colmajor(y.p, y.rs, x.p, x.cs, n, k, out, 1);
    }
    return;
  }
  eigen_gemm(x, y, m, k, n, out, ldo, caches);
}

}  // namespace tfs::detail

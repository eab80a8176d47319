// One lane of an AVX register, as Eigen's packet functions in TF's wheel use it: the instructions
// an AVX build without FMA runs (vminps/vmaxps with their operand order, vroundps, vrcpps,
// vrsqrtps, vcvttps2dq, blends and bit masks), each on one float or double. Arithmetic is plain
// C++ (one rounded operation each); the kernels run under TF's flush-to-zero and
// denormals-are-zero mode (denormal.h), so every step sees denormals as TF's threads do.
// Internal to src/ops.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#define TFS_LANE_X86 1
#endif

namespace tfs::detail::lane {

template <typename T>
using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;

template <typename T>
Bits<T> bits(T x) {
  return std::bit_cast<Bits<T>>(x);
}
template <typename T>
T from_bits(Bits<T> b) {
  return std::bit_cast<T>(b);
}

// A value the hardware reads as zero under denormals-are-zero (zeros and denormals).
template <typename T>
bool reads_as_zero(T x) {
  return std::fabs(x) < std::numeric_limits<T>::min();
}

// cond ? a : b on the bits, so that no compiler turns it into a min/max instruction (which
// would return a denormal operand as the zero it reads): a scalar comparison in TF's code.
template <typename T>
T select(bool cond, T a, T b) {
  const Bits<T> mask = cond ? ~Bits<T>(0) : Bits<T>(0);
  return from_bits<T>((bits(a) & mask) | (bits(b) & ~mask));
}

// A mask lane (all ones) or-ed into a value, as Eigen's por(x, invalid_mask): a NaN with every
// payload bit set.
template <typename T>
T all_ones() {
  return from_bits<T>(~Bits<T>(0));
}

// Eigen's pmin(a, b) on AVX is vminps(b, a): b if b < a, else a (a NaN in either returns a);
// pmax(a, b) is vmaxps(b, a). The instruction returns a denormal operand as the zero it reads.
inline float min(float a, float b) {
#ifdef TFS_LANE_X86
  return _mm_cvtss_f32(_mm_min_ss(_mm_set_ss(b), _mm_set_ss(a)));
#else
  return b < a ? b : a;
#endif
}
inline float max(float a, float b) {
#ifdef TFS_LANE_X86
  return _mm_cvtss_f32(_mm_max_ss(_mm_set_ss(b), _mm_set_ss(a)));
#else
  return b > a ? b : a;
#endif
}
inline double min(double a, double b) {
#ifdef TFS_LANE_X86
  return _mm_cvtsd_f64(_mm_min_sd(_mm_set_sd(b), _mm_set_sd(a)));
#else
  return b < a ? b : a;
#endif
}
inline double max(double a, double b) {
#ifdef TFS_LANE_X86
  return _mm_cvtsd_f64(_mm_max_sd(_mm_set_sd(b), _mm_set_sd(a)));
#else
  return b > a ? b : a;
#endif
}

// vroundps/vroundpd toward -inf, +inf, zero: denormals read as signed zero, NaN comes back quiet.
template <typename T>
T floor(T x) {
  if (std::isnan(x)) return x + x;
  if (reads_as_zero(x)) return std::copysign(T(0), x);
  return std::floor(x);
}
template <typename T>
T ceil(T x) {
  if (std::isnan(x)) return x + x;
  if (reads_as_zero(x)) return std::copysign(T(0), x);
  return std::ceil(x);
}
template <typename T>
T trunc(T x) {
  if (std::isnan(x)) return x + x;
  if (reads_as_zero(x)) return std::copysign(T(0), x);
  return std::trunc(x);
}
// vroundps in the current mode (round half to even).
template <typename T>
T rint(T x) {
  if (std::isnan(x)) return x + x;
  if (reads_as_zero(x)) return std::copysign(T(0), x);
  return std::nearbyint(x);
}

// vcvttps2dq / vcvtpd2dq: NaN and out-of-range values give INT32_MIN.
inline int32_t to_int_truncate(float x) {
  if (!(x > -2147483904.0f && x < 2147483648.0f)) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(x);
}
inline int32_t to_int_nearest(double x) {
  if (!(x > -2147483648.5 && x < 2147483647.5)) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(std::nearbyint(x));
}

// vrcpps and vrsqrtps: the CPU's estimates (their tables differ between Intel and AMD, so TF's
// results do too; these read the same tables). Denormal inputs read as zero.
inline float reciprocal_estimate(float a) {
#ifdef TFS_LANE_X86
  return _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(a)));
#else
  return 1.0f / a;
#endif
}
inline float rsqrt_estimate(float a) {
#ifdef TFS_LANE_X86
  return _mm_cvtss_f32(_mm_rsqrt_ss(_mm_set_ss(a)));
#else
  return 1.0f / std::sqrt(a);
#endif
}

// c[0] x^n + ... + c[n] by Horner's rule, one rounding per operation (Eigen's ppolevl).
template <typename T>
T polynomial(T x, const T* c, int n) {
  T r = c[0];
  for (int i = 1; i <= n; ++i) r = r * x + c[i];
  return r;
}

// Eigen's pfrexp: m in [0.5, 1) and e with a = m 2^e for normal a; zero, denormals (read as
// zero), infinities and NaN come back unchanged with e = 0.
template <typename T>
T frexp(T a, T* e) {
  if (reads_as_zero(a) || !std::isfinite(a)) {
    *e = T(0);
    return a;
  }
  int exponent = 0;
  const T m = std::frexp(a, &exponent);
  *e = static_cast<T>(exponent);
  return m;
}

// 2^k as a float or double built from its biased exponent bits (k + bias in [1, max - 1]; a
// biased exponent of 0 gives 0.0, the maximum gives inf, as Eigen's bit construction does).
template <typename T>
T pow2_from_biased(int64_t biased) {
  constexpr int kMantissa = std::numeric_limits<T>::digits - 1;
  return from_bits<T>(static_cast<Bits<T>>(biased) << kMantissa);
}

// Eigen's pldexp_fast: a * 2^e with the biased exponent clamped to [0, max] (float) or e to
// [-1023, 1024] (double), one multiplication.
inline float ldexp_fast(float a, float e) {
  const float biased = min(max(e + 127.0f, 0.0f), 255.0f);
  return a * pow2_from_biased<float>(to_int_truncate(biased));
}
inline double ldexp_fast(double a, double e) {
  const int32_t k = to_int_nearest(min(max(e, -1023.0), 1024.0));
  return a * pow2_from_biased<double>(int64_t{k} + 1023);
}

// Eigen's pldexp: e clamped (to [-278, 278] for float, [-2099, 2099] for double), b = floor(e/4),
// a * 2^b * 2^b * 2^b * 2^(e - 3b), each a rounded multiplication (so results below the normal
// range flush to zero at the step that leaves it).
inline float ldexp(float a, float e) {
  const int32_t k = to_int_truncate(min(max(e, -278.0f), 278.0f));
  const int32_t b = k >> 2;
  const float c = pow2_from_biased<float>(b + 127);
  const float out = a * c * c * c;
  return out * pow2_from_biased<float>(k - 3 * b + 127);
}
inline double ldexp(double a, double e) {
  const int32_t k = to_int_nearest(min(max(e, -2099.0), 2099.0));
  const int32_t b = k >> 2;
  const double c = pow2_from_biased<double>(int64_t{b} + 1023);
  const double out = a * c * c * c;
  return out * pow2_from_biased<double>(int64_t{k} - 3 * b + 1023);
}

// Eigen's twoprod_low without FMA (Veltkamp splitting, Dekker's product): the exact x*y - xy.
template <typename T>
T twoprod_low(T x, T y, T xy) {
  constexpr int kShift = (std::numeric_limits<T>::digits + 1) / 2;
  constexpr T kScale = T(uint64_t{1} << kShift) + T(1);
  auto split = [](T v, T* hi, T* lo) {
    const T gamma = kScale * v;
    const T rho = v - gamma;
    *hi = rho + gamma;
    *lo = v - *hi;
  };
  T x_hi, x_lo, y_hi, y_lo;
  split(x, &x_hi, &x_lo);
  split(y, &y_hi, &y_lo);
  T p = x_hi * y_hi + -xy;
  p = x_hi * y_lo + p;
  p = x_lo * y_hi + p;
  return x_lo * y_lo + p;
}

}  // namespace tfs::detail::lane

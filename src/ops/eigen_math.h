// Eigen's vectorised exp and log as TF's CPU kernels run them on whole packets (AVX without FMA:
// every step one rounded operation), written out per element. TF's tensor executor evaluates
// whole packets with these and the leftover n % packet elements with the scalar std:: functions,
// and the two differ in the last bits; fill_packets reproduces that split. Results below the
// smallest normal number become 0, as TF's threads flush denormals. Internal to src/ops.
#pragma once

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace tfs::detail {

template <typename T>
T flush_denormal(T v) {
  return std::fabs(v) < std::numeric_limits<T>::min() ? T(0) * v : v;
}

// c[0] x^n + ... + c[n], Horner's rule with a rounding after each operation (Eigen's ppolevl).
template <typename T>
T polynomial(T x, const T* c, int n) {
  T r = c[0];
  for (int i = 1; i <= n; ++i) r = r * x + c[i];
  return r;
}

// Eigen's pexp_float: exp(x) = 2^m exp(r), m = floor(x log2(e) + 1/2), r reduced in two steps,
// exp(r) a degree-6 polynomial split into even and odd parts.
inline float packet_exp(float x_in) {
  if (x_in < -104.0f) return 0.0f;
  const float x = std::min(x_in, 88.723f);
  const float m = std::floor(x * 1.44269504088896341f + 0.5f);
  float r = m * -0.693359375f + x;
  r = m * 2.12194440e-4f + r;
  const float r2 = r * r;
  float p_even = r2 * 1.37449637986719608306884765625e-3f + 4.166965186595916748046875e-2f;
  const float p_odd = r2 * 8.36894474923610687255859375e-3f + 0.16666518151760101318359375f;
  p_even = r2 * p_even + 0.49999988079071044921875f;
  const float p_low = r + 1.0f;
  float y = r * p_odd + p_even;
  y = r2 * y + p_low;
  return std::max(flush_denormal(std::ldexp(y, static_cast<int>(m))), x_in);
}

// Eigen's pexp_double: exp(x) = 2^n exp(g), g reduced in two steps, exp(g) from a Pade form.
inline double packet_exp(double x_in) {
  if (x_in < -709.784) return 0.0;
  double x = std::min(x_in, 709.784);
  const double n = std::floor(1.4426950408889634073599 * x + 0.5);
  x = x - n * 0.693145751953125;
  x = x - n * 1.42860682030941723212e-6;
  const double x2 = x * x;
  double px = 1.26177193074810590878e-4;
  px = px * x2 + 3.02994407707441961300e-2;
  px = px * x2 + 9.99999999999999999910e-1;
  px = px * x;
  double qx = 3.00198505138664455042e-6;
  qx = qx * x2 + 2.52448340349684104192e-3;
  qx = qx * x2 + 2.27265548208155028766e-1;
  qx = qx * x2 + 2.00000000000000000009e0;
  const double e = 2.0 * (px / (qx - px)) + 1.0;
  return std::max(flush_denormal(std::ldexp(e, static_cast<int>(n))), x_in);
}

// Eigen's plog_float: log(2^e m) = e log(2) + log(m), m moved into [sqrt(1/2), sqrt(2)) and
// log(m) a 2/3 rational in m - 1. Denormal inputs read as 0 (TF's threads treat them so).
inline float packet_log(float x_in) {
  if (std::isnan(x_in) || x_in < 0.0f) return std::numeric_limits<float>::quiet_NaN();
  if (x_in < std::numeric_limits<float>::min()) return -std::numeric_limits<float>::infinity();
  if (std::isinf(x_in)) return x_in;
  int exponent = 0;
  float x = std::frexp(x_in, &exponent);  // [0.5, 1)
  float e = static_cast<float>(exponent);
  const bool low = x < 0.707106781186547524f;
  const float tmp = low ? x : 0.0f;
  x = x - 1.0f;
  e = e - (low ? 1.0f : 0.0f);
  x = x + tmp;
  constexpr float kP[] = {0.18256296349849254f, 1.0000000190281063f, 1.0000000190281136f};
  constexpr float kQ[] = {0.049616247954120038f, 0.59923249590823520f, 1.4999999999999927f, 1.0f};
  const float p = x * polynomial(x, kP, 2);
  x = p / polynomial(x, kQ, 3);
  return e * 0.693147180559945309417f + x;
}

// Eigen's plog_double: Cephes' log(1+x) = x - x^2/2 + x^3 P(x)/Q(x) on [sqrt(1/2), sqrt(2)).
inline double packet_log(double x_in) {
  if (std::isnan(x_in) || x_in < 0.0) return std::numeric_limits<double>::quiet_NaN();
  if (x_in < std::numeric_limits<double>::min()) return -std::numeric_limits<double>::infinity();
  if (std::isinf(x_in)) return x_in;
  int exponent = 0;
  double x = std::frexp(x_in, &exponent);
  double e = static_cast<double>(exponent);
  const bool low = x < 0.70710678118654752440E0;
  const double tmp = low ? x : 0.0;
  x = x - 1.0;
  e = e - (low ? 1.0 : 0.0);
  x = x + tmp;
  const double x2 = x * x;
  const double x3 = x2 * x;
  // Two interleaved Horner chains per polynomial, in Eigen's order.
  double y = 1.01875663804580931796E-4 * x + 4.97494994976747001425E-1;
  double y1 = 1.44989225341610930846E1 * x + 1.79368678507819816313E1;
  y = y * x + 4.70579119878881725854E0;
  y1 = y1 * x + 7.70838733755885391666E0;
  double num = y * x3 + y1;
  y = 1.0 * x + 1.12873587189167450590E1;
  y1 = 8.29875266912776603211E1 * x + 7.11544750618563894466E1;
  y = y * x + 4.52279145837532221105E1;
  y1 = y1 * x + 2.31251620126765340583E1;
  const double den = y * x3 + y1;
  num = num * x3;
  y = num / den;
  y = -0.5 * x2 + y;
  x = x + y;
  return e * 0.693147180559945309417 + x;
}

// Eigen's generic_log1p on packets: Kahan's x * log(1 + x) / ((1 + x) - 1).
template <typename T>
T packet_log1p(T x) {
  const T xp1 = x + T(1);
  const T log1 = packet_log(xp1);
  if (xp1 == T(1) || xp1 == log1) return x;
  return x * (log1 / (xp1 - T(1)));
}

// o[i] = f<true>(p[i]) on whole packets of one AVX register, f<false>(p[i]) on the rest.
template <typename T, typename F>
void fill_packets(const T* p, T* o, int64_t n, F f) {
  constexpr int64_t kPacketSize = 32 / sizeof(T);
  const int64_t packed = n - n % kPacketSize;
  for (int64_t i = 0; i < packed; ++i) o[i] = f(p[i], std::true_type{});
  for (int64_t i = packed; i < n; ++i) o[i] = f(p[i], std::false_type{});
}

}  // namespace tfs::detail

// Eigen's float math as TF 2.21's CPU kernels run it, one element at a time. TF's tensor executor
// evaluates whole packets of one AVX register (8 floats, 4 doubles) with Eigen's vectorised
// functions and the last n % packet elements with its scalar ones, and the two differ in the last
// bits; each function here takes kPacket to say which one to reproduce (fill_packets splits a
// range the way the executor does). The packet functions are written out step by step as TF's
// AVX build without FMA runs them (eigen_lane.h); the scalar ones are what Eigen calls on one
// value, mostly the C library's functions. Everything runs under TF's flush-to-zero and
// denormals-are-zero mode (denormal.h). Internal to src/ops.
#pragma once

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "eigen_lane.h"

namespace tfs::detail {

using lane::polynomial;

// A result below the normal range as 0 (for callers outside a kernel, where the mode is not set).
template <typename T>
T flush_denormal(T v) {
  return lane::reads_as_zero(v) ? T(0) * v : v;
}

// A complex value's parts flushed each (TF's complex sums run on float lanes).
template <typename T>
std::complex<T> flush_denormal(std::complex<T> v) {
  return {flush_denormal(v.real()), flush_denormal(v.imag())};
}

// pexp_float: exp(x) = 2^m exp(r), m = floor(x log2(e) + 1/2), r = x - m ln(2) in two steps,
// exp(r) a degree-6 polynomial split into even and odd parts.
inline float packet_exp(float x_in) {
  const float x = lane::min(x_in, 88.723f);
  const float m = lane::floor(x * 1.44269504088896341f + 0.5f);
  float r = m * -0.693359375f + x;
  r = m * 2.12194440e-4f + r;
  const float r2 = r * r;
  float p_even = r2 * 1.37449637986719608306884765625e-3f + 4.166965186595916748046875e-2f;
  const float p_odd = r2 * 8.36894474923610687255859375e-3f + 0.16666518151760101318359375f;
  p_even = r2 * p_even + 0.49999988079071044921875f;
  const float p_low = r + 1.0f;
  float y = r * p_odd + p_even;
  y = r2 * y + p_low;
  // The fast scaling is exact where Eigen takes it (|x| <= 87), so it is chosen per element.
  if (!(std::fabs(x) > 87.0f)) return lane::max(lane::ldexp_fast(y, m), x_in);
  if (x_in < -104.0f) return 0.0f;
  return lane::max(lane::ldexp(y, m), x_in);
}

// pexp_double: exp(x) = 2^n exp(g), g reduced in two steps, exp(g) from a Pade form.
inline double packet_exp(double x_in) {
  const double x0 = lane::min(x_in, 709.784);
  const double n = lane::floor(1.4426950408889634073599 * x0 + 0.5);
  double x = x0 - n * 0.693145751953125;
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
  if (!(std::fabs(x_in) > 708.0)) return lane::max(lane::ldexp_fast(e, n), x_in);
  if (x_in < -745.519) return 0.0;
  return lane::max(lane::ldexp(e, n), x_in);
}

// plog: log(2^e m) = e log(2) + log(m), m moved into [sqrt(1/2), sqrt(2)) and centred on 0.
// Zero and denormals give -inf, +inf itself, negatives and NaN a NaN with every bit set.
template <typename T>
T log_special(T x_in, bool* done) {
  *done = true;
  if (lane::reads_as_zero(x_in)) return -std::numeric_limits<T>::infinity();
  if (std::isnan(x_in) || x_in < T(0)) return lane::all_ones<T>();
  if (std::isinf(x_in)) return x_in;
  *done = false;
  return x_in;
}

inline float packet_log(float x_in) {
  bool done = false;
  const float special = log_special(x_in, &done);
  if (done) return special;
  float e = 0.0f;
  float x = lane::frexp(x_in, &e);
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

// Cephes' log(1+x) = x - x^2/2 + x^3 P(x)/Q(x), two interleaved Horner chains per polynomial.
inline double packet_log(double x_in) {
  bool done = false;
  const double special = log_special(x_in, &done);
  if (done) return special;
  double e = 0.0;
  double x = lane::frexp(x_in, &e);
  const bool low = x < 0.70710678118654752440E0;
  const double tmp = low ? x : 0.0;
  x = x - 1.0;
  e = e - (low ? 1.0 : 0.0);
  x = x + tmp;
  const double x2 = x * x;
  const double x3 = x2 * x;
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

// Kahan's log1p on packets: x * log(1 + x) / ((1 + x) - 1); x itself where 1 + x rounds to 1
// or overflows. TF's packets give a denormal x back as a signed zero.
template <typename T>
T packet_log1p(T x) {
  if (std::isnan(x)) return x + x;
  if (lane::reads_as_zero(x)) return std::copysign(T(0), x);
  const T xp1 = x + T(1);
  const T log1 = packet_log(xp1);
  if (xp1 == T(1) || xp1 == log1) return x;
  return x * (log1 / (xp1 - T(1)));
}

// Kahan's expm1 on packets: (exp(x) - 1) * x / log(exp(x)).
template <typename T>
T packet_expm1(T x) {
  const T u = packet_exp(x);
  const T um1 = u - T(1);
  if (u == T(1)) return x;
  if (um1 == T(-1)) return T(-1);
  const T logu = packet_log(u);
  if (logu == u) return u;  // exp(x) = +inf
  return um1 * (x / logu);
}

// Each function as the executor evaluates one element: kPacket on whole packets, else scalar.
template <bool kPacket, typename T>
T eigen_exp(T x) {
  if constexpr (kPacket)
    return packet_exp(x);
  else
    return std::exp(x);
}
// TF's wheel calls glibc's log@GLIBC_2.2.5, the compatibility wrapper that answers x <= 0
// itself (read with denormals as zero): -inf for zero, +NaN below. The float and the other
// functions it calls are the symbols a new build gets.
inline double log_compat(double x) {
  if (lane::reads_as_zero(x)) return -std::numeric_limits<double>::infinity();
  if (x < 0.0) return std::numeric_limits<double>::quiet_NaN();
  return std::log(x);
}
template <bool kPacket, typename T>
T eigen_log(T x) {
  if constexpr (kPacket)
    return packet_log(x);
  else if constexpr (sizeof(T) == 8)
    return log_compat(x);
  else
    return std::log(x);
}
template <bool kPacket, typename T>
T eigen_log1p(T x) {
  if constexpr (kPacket)
    return packet_log1p(x);
  else
    return std::log1p(x);
}
template <bool kPacket, typename T>
T eigen_expm1(T x) {
  if constexpr (kPacket)
    return packet_expm1(x);
  else
    return std::expm1(x);
}

// Whole packets of one AVX register through f(x, true_type), the rest through f(x, false_type).
template <typename T, typename F>
void fill_packets(const T* p, T* o, int64_t n, F f) {
  constexpr int64_t kPacketSize = 32 / sizeof(T);
  const int64_t packed = n - n % kPacketSize;
  for (int64_t i = 0; i < packed; ++i) o[i] = f(p[i], std::true_type{});
  for (int64_t i = packed; i < n; ++i) o[i] = f(p[i], std::false_type{});
}

// fill_packets for Relu, whose scalar tail TF's compiler vectorised in pairs (eigen_unary.h);
// the packets through f.packets.
template <typename T, typename F>
void fill_packets_paired_tail(const T* p, T* o, int64_t n, F f) {
  constexpr int64_t kPacketSize = 32 / sizeof(T);
  const int64_t packed = n - n % kPacketSize;
  f.packets(p, o, packed);
  int64_t i = packed;
  if ((n - packed) % 2 == 1) {
    o[i] = f.template eval<false>(p[i]);
    ++i;
  }
  for (; i < n; ++i) o[i] = f.eval_pair(p[i]);
}

}  // namespace tfs::detail

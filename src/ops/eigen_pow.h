// Eigen's generic_pow as TF's Pow kernel runs it on packets, one element at a time: x^y =
// 2^(y log2|x|) with log2 in double-word arithmetic (no FMA: Veltkamp splitting and Dekker's
// products), the exponent split into an integer and a fraction, 2^fraction through Eigen's exp,
// then C's special cases by selection. The scalar tail calls the C library's pow. Internal to
// src/ops.
#pragma once

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include <cmath>
#include <limits>

#include "eigen_math.h"

namespace tfs::detail::pow_impl {

// A double-word number hi + lo.
template <typename T>
struct DW {
  T hi, lo;
};

template <typename T>
DW<T> fast_twosum(T x, T y) {
  const T s = x + y;
  const T t = s - x;
  return {s, y - t};
}
// {x_hi, x_lo} + {y_hi, y_lo}, assuming |x_hi| >= |y_hi|.
template <typename T>
DW<T> fast_twosum(DW<T> x, DW<T> y) {
  const DW<T> r = fast_twosum(x.hi, y.hi);
  const T s = (y.lo + r.lo) + x.lo;
  return fast_twosum(r.hi, s);
}
// x + {y_hi, y_lo}, assuming |x| >= |y_hi|.
template <typename T>
DW<T> fast_twosum(T x, DW<T> y) {
  const DW<T> r = fast_twosum(x, y.hi);
  const T s = y.lo + r.lo;
  return fast_twosum(r.hi, s);
}
template <typename T>
DW<T> twoprod(T x, T y) {
  const T p = x * y;
  return {p, lane::twoprod_low(x, y, p)};
}
// {x_hi, x_lo} * y.
template <typename T>
DW<T> twoprod(DW<T> x, T y) {
  const DW<T> c = twoprod(x.hi, y);
  const T c_lo2 = x.lo * y;
  const DW<T> t = fast_twosum(c.hi, c_lo2);
  const T t_lo2 = t.lo + c.lo;
  return fast_twosum(t.hi, t_lo2);
}
// {x_hi, x_lo} * {y_hi, y_lo}.
template <typename T>
DW<T> twoprod(DW<T> x, DW<T> y) {
  return fast_twosum(twoprod(x, y.hi), twoprod(x, y.lo));
}
// {x_hi, x_lo} / y.
template <typename T>
DW<T> div(DW<T> x, T y) {
  const T t_hi = x.hi / y;
  const DW<T> pi = twoprod(t_hi, y);
  const T delta = ((x.hi - pi.hi) - pi.lo) + x.lo;
  return fast_twosum(t_hi, delta / y);
}

// log2(z) for z in [sqrt(1/2), sqrt(2)] as a double word.
inline DW<float> accurate_log2(float z) {
  constexpr double kC0 = 1.442695041742110273474963832995854318141937255859375e+00;
  constexpr double kC1 = -7.2134751588268664068692714863573201000690460205078125e-01;
  constexpr float kC0_hi = static_cast<float>(kC0);
  constexpr float kC0_lo = static_cast<float>(kC0 - static_cast<double>(kC0_hi));
  constexpr float kC1_hi = static_cast<float>(kC1);
  constexpr float kC1_lo = static_cast<float>(kC1 - static_cast<double>(kC1_hi));
  constexpr float c[] = {9.7010828554630279541015625e-02f, -1.6896486282348632812500000e-01f,
                         1.7200836539268493652343750e-01f, -1.7892272770404815673828125e-01f,
                         2.0505344867706298828125000e-01f, -2.4046677350997924804687500e-01f,
                         2.8857553005218505859375000e-01f, -3.6067414283752441406250000e-01f,
                         4.8089790344238281250000000e-01f};
  const float x = z - 1.0f;
  const float p = polynomial(x, c, 8);
  DW<float> q = twoprod(x, p);
  q = fast_twosum(DW<float>{kC1_hi, kC1_lo}, q);
  q = twoprod(q, x);
  q = fast_twosum(DW<float>{kC0_hi, kC0_lo}, q);
  return twoprod(q, x);
}
inline DW<double> accurate_log2(double x) {
  const DW<double> t = twoprod(DW<double>{2.88539008177792677, 4.07660016854549667e-17}, x - 1.0);
  const DW<double> r = div(t, x + 1.0);
  const DW<double> r2 = twoprod(r, r);
  const DW<double> r4 = twoprod(r2, r2);
  double q_even = 2.87074255468000586e-9 * r4.hi + 2.31032094540014656e-7;
  double q_odd = 2.38957980901884082e-8 * r4.hi + 2.27279857398537278e-6;
  q_even = q_even * r4.hi + 2.31271023278625638e-5;
  q_odd = q_odd * r4.hi + 2.47556738444535513e-4;
  q_even = q_even * r4.hi + 2.88543873228900172e-3;
  const double q = q_odd * r2.hi + q_even;
  const DW<double> p = twoprod(r2, q);
  const DW<double> p1 = fast_twosum(DW<double>{0.0400377511598501157, -4.77726582251425391e-19}, p);
  const DW<double> p2 = twoprod(r2, p1);
  const DW<double> p3 = fast_twosum(1.0, p2);
  return twoprod(p3, r);
}

// Eigen's pround on AVX: trunc(a + copysign(0.5 - ulp, a)).
template <typename T>
T round_half_away(T a) {
  const T prev_half =
      sizeof(T) == 4 ? lane::from_bits<T>(0x3EFFFFFFu) : lane::from_bits<T>(0x3FDFFFFFFFFFFFFFull);
  return lane::trunc(std::copysign(prev_half, a) + a);
}

// 2^x = exp(ln2 x_hi) (1 + ln2 x_lo) with x clamped to where the result is finite and nonzero.
template <typename T>
T exp2(T x_in) {
  constexpr int kMaxExponent = std::numeric_limits<T>::max_exponent;
  constexpr int kDigits = std::numeric_limits<T>::digits;
  const T x = lane::max(lane::min(x_in, T(kMaxExponent + 1)), -T(kMaxExponent + kDigits - 1));
  const DW<T> p = twoprod(static_cast<T>(0.693147180559945309417232121458), x);
  return packet_exp(p.hi) * (T(1) + p.lo);
}

// x^y for x = |base| > 0 and any y, before the special cases.
template <typename T>
T pow_positive(T x, T y) {
  T e_x = 0;
  T m_x = lane::frexp(x, &e_x);
  if (m_x < static_cast<T>(0.70710678118654752440)) {
    m_x = T(2) * m_x;
    e_x = e_x - T(1);
  }
  const DW<T> rx = accurate_log2(m_x);
  const DW<T> f = fast_twosum(twoprod(e_x, y), twoprod(rx, y));
  T n_z = round_half_away(f.hi);
  T r_z = f.hi - n_z;
  r_z = r_z + f.lo;
  const T n_r = round_half_away(r_z);
  r_z = r_z - n_r;
  n_z = n_z + n_r;
  const T e_r = exp2(r_z);
  // The fast scaling is exact where Eigen takes it, so it is chosen per element.
  constexpr T kThreshold = T(std::numeric_limits<T>::max_exponent - 2);
  if (std::fabs(n_z) > kThreshold) return lane::ldexp(e_r, n_z);
  return lane::ldexp_fast(e_r, n_z);
}

template <typename T>
T packet_pow(T x, T y) {
  constexpr T kInf = std::numeric_limits<T>::infinity();
  constexpr T kNan = std::numeric_limits<T>::quiet_NaN();
  const T x_abs = std::fabs(x);
  T pow = pow_positive(x_abs, y);
  const bool x_is_negative = x < T(0);
  const bool x_is_zero = x == T(0);
  const bool x_is_one = x == T(1);
  const bool x_has_signbit = std::signbit(x);
  const bool x_abs_gt_one = T(1) < x_abs;
  const bool x_abs_is_inf = x_abs == kInf;
  const T y_abs = std::fabs(y);
  const bool y_abs_is_inf = y_abs == kInf;
  const bool y_is_negative = y < T(0);
  const bool y_is_zero = y == T(0);
  const bool y_is_one = y == T(1);
  const bool y_is_int = lane::floor(y) == y && !y_abs_is_inf;
  const T y_div_2 = y * T(0.5);
  const bool y_is_even = round_half_away(y_div_2) == y_div_2;
  const bool y_is_odd_int = y_is_int && !y_is_even;
  constexpr T kHuge =
      (T(std::numeric_limits<T>::max_exponent) * static_cast<T>(0.693147180559945309417232121458)) /
      std::numeric_limits<T>::epsilon();
  const bool y_abs_is_huge = kHuge <= y_abs;

  if (x_is_negative && !y_is_int) pow = kNan;
  if (x_is_zero) pow = y_is_negative ? kInf : T(0);
  if (x_has_signbit && y_is_odd_int) pow = -pow;
  T inf_y_val = ((y_is_negative && x_is_zero) || (y_is_negative != x_abs_gt_one)) ? kInf : T(0);
  if (x == T(-1)) inf_y_val = T(1);
  if (y_abs_is_huge) pow = inf_y_val;
  const T x_pos_inf_value = y_is_negative ? T(0) : kInf;
  const T x_neg_inf_value = y_is_odd_int ? -x_pos_inf_value : x_pos_inf_value;
  if (x_abs_is_inf) pow = x_is_negative ? x_neg_inf_value : x_pos_inf_value;
  if (std::isnan(x) || std::isnan(y)) pow = kNan;
  if (y_is_one) return x;
  if (x_is_one || y_is_zero) return T(1);
  return pow;
}

}  // namespace tfs::detail::pow_impl

namespace tfs::detail {

template <bool kPacket, typename T>
T eigen_pow(T x, T y) {
  if constexpr (kPacket)
    return pow_impl::packet_pow(x, y);
  else
    return std::pow(x, y);
}

}  // namespace tfs::detail

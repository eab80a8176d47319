// The per-element functors of TF 2.21's unary float kernels (cwise_ops.h, relu_op_functor.h,
// softplus_op.h) as Eigen evaluates them on float and double: each `eval<kPacket>(x)` is what one
// element gets on a whole packet (kPacket) or in the scalar tail. The kernels (math_unary.cc,
// math_extra.cc, nn.cc) and their tests share these. Internal to src/ops.
#pragma once

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "eigen_math.h"
#include "eigen_special.h"

namespace tfs::detail::unary {

// Bit operations and single IEEE operations: the same on packets and scalars.
struct Neg {
  template <bool kPacket, typename T>
  static T eval(T x) {
    return -x;
  }
};
struct Abs {
  template <bool kPacket, typename T>
  static T eval(T x) {
    return std::fabs(x);
  }
};
struct Square {
  template <bool kPacket, typename T>
  static T eval(T x) {
    return x * x;
  }
};
struct Floor {
  template <bool kPacket, typename T>
  static T eval(T x) {
    return lane::floor(x);
  }
};
struct Ceil {
  template <bool kPacket, typename T>
  static T eval(T x) {
    return lane::ceil(x);
  }
};
// TF's round half to even on floats with a rounding instruction: rint.
struct Round {
  template <bool kPacket, typename T>
  static T eval(T x) {
    return lane::rint(x);
  }
};
// Packets: +/-1 where |x| > 0, else |x| (so a denormal or a NaN comes back positive);
// scalars: (x > 0) - (x < 0), NaN itself.
struct Sign {
  template <bool kPacket, typename T>
  static T eval(T x) {
    if constexpr (kPacket) {
      const T a = std::fabs(x);
      return T(0) < a ? std::copysign(T(1), x) : a;
    } else {
      if (std::isnan(x)) return x;
      return static_cast<T>((x > T(0)) - (x < T(0)));
    }
  }
};

// Relu is max(x, 0) propagating NaN. Packets: vmaxps(x, 0) (a denormal or -0 gives +0);
// scalars: x unless x < 0 (a denormal or -0 comes back as it is). TF's compiled scalar loop runs
// the tail two elements at a time with vmaxps(0, x) (a denormal gives the signed zero it reads
// as), the first element alone when the tail is odd: fill_relu_tail.
struct Relu {
  template <bool kPacket, typename T>
  static T eval(T x) {
    if (std::isnan(x)) return x;
    if constexpr (kPacket)
      return lane::max(T(0), x);
    else
      return lane::select(x < T(0), T(0), x);
  }
  template <typename T>
  static T eval_pair(T x) {
    return lane::max(x, T(0));
  }
  // eval<true> on n elements (a whole number of packets), a register at a time (SSE2, which
  // every x86-64 CPU has): maxps(x, 0), whose second operand, +0, is what a zero or an operand
  // that reads as zero gives, and x itself in NaN lanes.
  template <typename T>
  static void packets(const T* p, T* o, int64_t n) {
    int64_t i = 0;
#ifdef TFS_LANE_X86
    constexpr int64_t kLanes = 16 / sizeof(T);
    for (; i + kLanes <= n; i += kLanes) store(o + i, packet(load(p + i)));
#endif
    for (; i < n; ++i) o[i] = eval<true>(p[i]);
  }

 private:
#ifdef TFS_LANE_X86
  static __m128 load(const float* p) {
    return _mm_loadu_ps(p);
  }
  static __m128d load(const double* p) {
    return _mm_loadu_pd(p);
  }
  static void store(float* o, __m128 v) {
    _mm_storeu_ps(o, v);
  }
  static void store(double* o, __m128d v) {
    _mm_storeu_pd(o, v);
  }
  static __m128 packet(__m128 x) {
    const __m128 nan = _mm_cmpunord_ps(x, x);
    return _mm_or_ps(_mm_and_ps(nan, x), _mm_andnot_ps(nan, _mm_max_ps(x, _mm_setzero_ps())));
  }
  static __m128d packet(__m128d x) {
    const __m128d nan = _mm_cmpunord_pd(x, x);
    return _mm_or_pd(_mm_and_pd(nan, x), _mm_andnot_pd(nan, _mm_max_pd(x, _mm_setzero_pd())));
  }
#endif
};
// Relu6: min(max(x, 0), 6) propagating NaN, packets as vmaxps/vminps, scalars by comparison.
struct Relu6 {
  template <bool kPacket, typename T>
  static T eval(T x) {
    if (std::isnan(x)) return x;
    if constexpr (kPacket) return lane::min(T(6), lane::max(T(0), x));
    const T r = lane::select(x < T(0), T(0), x);
    return lane::select(T(6) < r, T(6), r);
  }
};

// LeakyRelu: x > 0 ? x : x * alpha (alpha the float attr widened to T).
struct LeakyRelu {
  float alpha = 0.2f;
  template <bool kPacket, typename T>
  T eval(T x) const {
    const T a = static_cast<T>(alpha);
    return x > T(0) ? x : x * a;
  }
};

struct Sqrt {
  template <bool kPacket, typename T>
  static T eval(T x) {
    return std::sqrt(x);
  }
};

// Packets: the CPU's rsqrt estimate r and one Newton step, r + (-r/2) ((a r) r - 1) (r itself
// where that is NaN); scalars and doubles: 1 / sqrt(x).
struct Rsqrt {
  template <bool kPacket, typename T>
  static T eval(T a) {
    if constexpr (kPacket && sizeof(T) == 4) {
      const float r = lane::rsqrt_estimate(a);
      const float r2 = a * r;
      const float half_r = r * -0.5f;
      const float h = r2 * r + -1.0f;
      const float out = half_r * h + r;
      return std::isnan(out) ? r : out;
    } else {
      return T(1) / std::sqrt(a);
    }
  }
};

struct Reciprocal {
  template <bool kPacket, typename T>
  static T eval(T x) {
    return eigen_reciprocal<kPacket>(x);
  }
};

struct Exp {
  template <bool kPacket, typename T>
  static T eval(T x) {
    return eigen_exp<kPacket>(x);
  }
};
struct Log {
  template <bool kPacket, typename T>
  static T eval(T x) {
    return eigen_log<kPacket>(x);
  }
};
struct Log1p {
  template <bool kPacket, typename T>
  static T eval(T x) {
    return eigen_log1p<kPacket>(x);
  }
};
struct Expm1 {
  template <bool kPacket, typename T>
  static T eval(T x) {
    return eigen_expm1<kPacket>(x);
  }
};

// Float: Eigen's 9/8 rational on x clamped to +/-7.9074 (where it reaches 1 without FMA), on
// packets and scalars alike. Double: a 19/18 rational on packets (clamped to +/-17.7142), the C
// library's tanh on scalars.
inline float tanh_float(float a) {
  constexpr float kClamp = 7.90738964080810547f;
  constexpr float kP[] = {1.394553628e-8f, 2.102733560e-5f, 3.520756727e-3f, 1.340216100e-1f};
  constexpr float kQ[] = {8.015776984e-7f, 3.326951409e-4f, 2.597254514e-2f, 4.673548340e-1f, 1.0f};
  const float x = lane::max(lane::min(a, kClamp), -kClamp);
  const float x2 = x * x;
  const float x3 = x2 * x;
  const float p = polynomial(x2, kP, 3);
  const float q = polynomial(x2, kQ, 4);
  return (x3 * p + x) / q;
}
inline double tanh_double_packet(double a) {
  constexpr double kClamp = 17.714196154005176;
  constexpr double kP[] = {2.6158007860482230e-23, 7.6534862268749319e-19, 3.1309488231386680e-15,
                           4.2303918148209176e-12, 2.4618379131293676e-09, 6.8644367682497074e-07,
                           9.3839087674268880e-05, 5.9809711724441161e-03, 1.5184719640284322e-01};
  constexpr double kQ[] = {6.463747022670968018e-21, 5.782506856739003571e-17,
                           1.293019623712687916e-13, 1.123643448069621992e-10,
                           4.492975677839633985e-08, 8.785185266237658698e-06,
                           8.295161192716231542e-04, 3.437448108450402717e-02,
                           4.851805297361760360e-01, 1.0};
  const double x = lane::max(lane::min(a, kClamp), -kClamp);
  const double x2 = x * x;
  const double x3 = x2 * x;
  const double p = polynomial(x2, kP, 8);
  const double q = polynomial(x2, kQ, 9);
  return (x3 * p + x) / q;
}
struct Tanh {
  template <bool kPacket, typename T>
  static T eval(T x) {
    if constexpr (sizeof(T) == 4)
      return tanh_float(x);
    else if constexpr (kPacket)
      return tanh_double_packet(x);
    else
      return std::tanh(x);
  }
};

// Float packets: exp(x) = exp(x/2)^2 from a degree-5 polynomial (so no step leaves the normal
// range early), then e / (1 + e), and 0 below -104; float scalars: e = exp(min(x, 16.6355)) by
// the C library, e / (1 + e). Double: e = exp(x) as Eigen computes it, 1 where e is inf.
inline float logistic_float_packet(float x_in) {
  float x = lane::min(x_in, 16.6355324f);
  x = x * 0.5f;
  const float m = lane::floor(x * 1.44269504088896341f + 0.5f);
  float r = m * -0.693359375f + x;
  r = m * 2.12194440e-4f + r;
  const float r2 = r * r;
  const float p_even = r2 * 4.1898667812347412109375e-2f + 0.49999141693115234375f;
  const float p_odd = r2 * 8.33471305668354034423828125e-3f + 0.16666877269744873046875f;
  const float p_low = r + 1.0f;
  float p = r * p_odd + p_even;
  p = r2 * p + p_low;
  float e = lane::ldexp_fast(p, m);
  e = e * e;
  if (x_in < -104.0f) return 0.0f;
  return e / (1.0f + e);
}
struct Sigmoid {
  template <bool kPacket, typename T>
  static T eval(T x) {
    if constexpr (sizeof(T) == 4) {
      if constexpr (kPacket) return logistic_float_packet(x);
      const float e = std::exp(std::min(x, 16.6355324f));
      return e / (1.0f + e);
    } else {
      const double e = eigen_exp<kPacket>(x);
      if (e == std::numeric_limits<double>::infinity()) return 1.0;
      return e / (1.0 + e);
    }
  }
};

struct Erf {
  template <bool kPacket, typename T>
  static T eval(T x) {
    if constexpr (sizeof(T) == 4)
      return eigen_erf(x);
    else
      return eigen_erf<kPacket>(x);
  }
};
struct Erfc {
  template <bool kPacket, typename T>
  static T eval(T x) {
    return eigen_erfc<kPacket>(x);
  }
};

// Sin and Cos. Float packets: Eigen's psincos_float as TF's wheel compiles it (no FMA): x/(pi/2)
// rounded to the nearest integer q by the 2^23 trick, x - q pi/2 in four multiply-then-add
// steps, a Payne-Hanek reduction on 192 bits of 2/pi where |x| is at least 25966 (sine) or
// 18838 (cosine), then one of two polynomials on the reduced x by q's parity and the sign from
// q's second bit. Float scalars and doubles: the C library's sinf/cosf, sin/cos.
namespace trig {
// The bits of 2/pi, each word the previous one's low 24 bits and 8 new ones (so that a
// 32-bit window starts at any whole byte): 2/pi = 0.28be60db 9391054a 7f09d5f4 ... in hex.
inline constexpr uint32_t kTwoOverPi[] = {
    0x00000028, 0x000028be, 0x0028be60, 0x28be60db, 0xbe60db93, 0x60db9391, 0xdb939105,
    0x9391054a, 0x91054a7f, 0x054a7f09, 0x4a7f09d5, 0x7f09d5f4, 0x09d5f47d, 0xd5f47d4d,
    0xf47d4d37, 0x7d4d3770, 0x4d377036, 0x377036d8, 0x7036d8a5, 0x36d8a566, 0xd8a5664f,
    0xa5664f10, 0x664f10e4, 0x4f10e410, 0x10e41000, 0xe4100000};

// |x| (finite, at least 2^14) reduced modulo pi/2: x * 2/pi in 2.62 fixed point from a 96-bit
// window of 2/pi aligned to x's exponent, rounded to the quadrant q, the rest times pi/2.
inline float reduce_huge(float x, int32_t* quadrant) {
  uint32_t bits = std::bit_cast<uint32_t>(x);
  const uint32_t e = (bits >> 23) - 118;  // the exponent, less 126, plus 8 for the byte window
  const uint32_t mant = ((bits & 0x007fffffu) | 0x00800000u) << (e & 7);
  const uint32_t w = e >> 3;
  const uint64_t m = mant;
  uint64_t p = m * kTwoOverPi[w + 7];
  p = m * kTwoOverPi[w + 3] + (p >> 32);
  p = (static_cast<uint64_t>(mant * kTwoOverPi[w - 1]) << 32) + p;
  const uint64_t q = (p + (uint64_t{1} << 61)) >> 62;
  *quadrant = static_cast<int32_t>(q);
  p -= q << 62;
  constexpr double kPiOver2Scaled = 3.4061215800865545e-19;  // pi/2 * 2^-62
  return static_cast<float>(static_cast<double>(static_cast<int64_t>(p)) * kPiOver2Scaled);
}

template <bool kSine>
inline float sincos_float_packet(float x_in) {
  float x = std::fabs(x_in);
  constexpr float kMagic = 12582912.0f;  // 1.5 * 2^23
  const float y_round = x * 0.636619746685028076171875f + kMagic;
  int32_t q = std::bit_cast<int32_t>(y_round);  // q's low bits are the mantissa's
  const float y = y_round - kMagic;
  x = y * -1.5703125f + x;
  x = y * -0.000483989715576171875f + x;
  x = y * 1.62865035235881805419921875e-07f + x;
  x = y * 5.5644315544167710640977020375430583953857421875e-11f + x;
  const float huge = kSine ? 25966.0f : 18838.0f;
  if (std::fabs(x_in) >= huge && std::isfinite(x_in)) x = reduce_huge(std::fabs(x_in), &q);
  const float x2 = x * x;
  const uint32_t sign = (kSine ? std::bit_cast<uint32_t>(x_in) ^ (static_cast<uint32_t>(q) << 30)
                               : static_cast<uint32_t>(q + 1) << 30) &
                        0x80000000u;
  float c = 2.4372266125283204019069671630859375e-05f;  // the cosine-like polynomial
  c = c * x2 + -0.00138865201734006404876708984375f;
  c = c * x2 + 0.041666619479656219482421875f;
  c = c * x2 + -0.5f;
  c = c * x2 + 1.0f;
  float s = -0.0001959234114083702898469196984f;  // the sine-like one
  s = s * x2 + 0.0083326873655616851693794799871f;
  s = s * x2 + -0.1666666203982298255503735617821f;
  s = s * x2;
  s = s * x + x;
  const bool even = (q & 1) == 0;
  const float r = kSine == even ? s : c;
  return std::bit_cast<float>(std::bit_cast<uint32_t>(r) ^ sign);
}
}  // namespace trig

struct Sin {
  template <bool kPacket, typename T>
  static T eval(T x) {
    if constexpr (kPacket && sizeof(T) == 4) return trig::sincos_float_packet<true>(x);
    return std::sin(x);
  }
};
struct Cos {
  template <bool kPacket, typename T>
  static T eval(T x) {
    if constexpr (kPacket && sizeof(T) == 4) return trig::sincos_float_packet<false>(x);
    return std::cos(x);
  }
};

// Tan, Sinh, Cosh, Asinh, Acosh: Eigen has no packet form TF's build uses, so every element,
// float and double, is the C library's (checked against TF 2.21 on 7000 inputs each).
struct Tan {
  template <bool kPacket, typename T>
  static T eval(T x) {
    return std::tan(x);
  }
};
struct Sinh {
  template <bool kPacket, typename T>
  static T eval(T x) {
    return std::sinh(x);
  }
};
struct Cosh {
  template <bool kPacket, typename T>
  static T eval(T x) {
    return std::cosh(x);
  }
};
struct Asinh {
  template <bool kPacket, typename T>
  static T eval(T x) {
    return std::asinh(x);
  }
};
struct Acosh {
  template <bool kPacket, typename T>
  static T eval(T x) {
    return std::acosh(x);
  }
};

// Elu: x < 0 ? exp(x) - 1 : x (exp minus one, not expm1). Selu: the same scaled.
struct Elu {
  template <bool kPacket, typename T>
  static T eval(T x) {
    const T e = eigen_exp<kPacket>(x) - T(1);
    return x < T(0) ? e : x;
  }
};
struct Selu {
  template <bool kPacket, typename T>
  static T eval(T x) {
    const T scale = static_cast<T>(1.0507009873554804934193349852946);
    const T scale_alpha = static_cast<T>(1.7580993408473768599402175208123);
    const T e = scale_alpha * (eigen_exp<kPacket>(x) - T(1));
    return x < T(0) ? e : scale * x;
  }
};

// Softplus: x above -threshold, exp(x) below threshold, log1p(exp(x)) between, threshold =
// log(epsilon) + 2 (-13.94 for float, -34.04 for double). A NaN comes back quieted.
struct Softplus {
  template <bool kPacket, typename T>
  static T eval(T x) {
    static const T threshold = std::log(std::numeric_limits<T>::epsilon()) + T(2);
    if (std::isnan(x)) return x + x;
    const T e = eigen_exp<kPacket>(x);
    if (x > -threshold) return x;
    if (x < threshold) return e;
    return eigen_log1p<kPacket>(e);
  }
};

}  // namespace tfs::detail::unary

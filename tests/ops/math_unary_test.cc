// The unary float kernels. Two kinds of checks:
//  - each per-element implementation (eigen_unary.h, eigen_pow.h), packet path and scalar path,
//    against an independent reference (the C library in double precision for float, in long
//    double for double) within the error bound stated for it, measured over a sweep of inputs;
//  - the kernels against values recorded from TensorFlow 2.21 on CPU: the same input rounding
//    differently in a whole packet and in the tail, denormals flushed and read as zero, the
//    log@GLIBC_2.2.5 wrapper TF calls. None of these depends on the CPU's estimate tables.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "denormal.h"
#include "eigen_pow.h"
#include "eigen_unary.h"
#include "op_test_util.h"

namespace tfs {
namespace {

using testing::f32;
using testing::f64;
using testing::run1;
using testing::values;

// Distance in units in the last place, on the monotone integer line of the format.
int64_t ulp_key(float v) {
  int32_t i = 0;
  std::memcpy(&i, &v, sizeof i);
  return i < 0 ? -static_cast<int64_t>(i & 0x7fffffff) : i;
}
int64_t ulp_key(double v) {
  int64_t i = 0;
  std::memcpy(&i, &v, sizeof i);
  return i < 0 ? -(i & 0x7fffffffffffffffLL) : i;
}
template <typename T>
int64_t ulps(T a, T b) {
  return std::llabs(ulp_key(a) - ulp_key(b));
}

struct Worst {
  int64_t packet = 0, scalar = 0;
  int checked = 0;
};

// F's packet and scalar paths on every 4093rd float in [lo, hi] whose input and correctly
// rounded result are normal, against ref in double precision.
template <typename F, typename Ref>
Worst sweep_float(float lo, float hi, Ref ref) {
  detail::ScopedFlushDenormal flush;
  Worst w;
  for (uint64_t b = 0; b <= 0xffffffffull; b += 4093) {
    const uint32_t u = static_cast<uint32_t>(b);
    float x = 0;
    std::memcpy(&x, &u, sizeof x);
    if (!(x >= lo && x <= hi) || std::fabs(x) < std::numeric_limits<float>::min()) continue;
    const float want = static_cast<float>(ref(static_cast<double>(x)));
    if (!std::isfinite(want) || std::fabs(want) < std::numeric_limits<float>::min()) continue;
    w.packet = std::max(w.packet, ulps(F::template eval<true>(x), want));
    w.scalar = std::max(w.scalar, ulps(F::template eval<false>(x), want));
    ++w.checked;
  }
  return w;
}

// The same for double: 2^21 bit patterns spread over the format, against ref in long double.
template <typename F, typename Ref>
Worst sweep_double(double lo, double hi, Ref ref) {
  detail::ScopedFlushDenormal flush;
  Worst w;
  for (uint64_t k = 0; k < (uint64_t{1} << 21); ++k) {
    const uint64_t u = k * 0x41c64e6da3bc0074ull;
    double x = 0;
    std::memcpy(&x, &u, sizeof x);
    if (!(x >= lo && x <= hi) || std::fabs(x) < std::numeric_limits<double>::min()) continue;
    const double want = static_cast<double>(ref(static_cast<long double>(x)));
    if (!std::isfinite(want) || std::fabs(want) < std::numeric_limits<double>::min()) continue;
    w.packet = std::max(w.packet, ulps(F::template eval<true>(x), want));
    w.scalar = std::max(w.scalar, ulps(F::template eval<false>(x), want));
    ++w.checked;
  }
  return w;
}

namespace u = detail::unary;

// Bounds: Eigen's stated accuracy where it states one, else what the sweep measures for TF's
// implementation (which these reproduce bit for bit), rounded up. A wrong coefficient or step
// shows as hundreds of ulps or more.
TEST(UnaryFloatAccuracy, ExpLogFamily) {
  Worst w = sweep_float<u::Exp>(-87.0f, 88.0f, [](double x) { return std::exp(x); });
  EXPECT_GT(w.checked, 1000);
  EXPECT_LE(w.packet, 1);
  EXPECT_LE(w.scalar, 1);
  w = sweep_float<u::Log>(0.0f, 3.4e38f, [](double x) { return std::log(x); });
  EXPECT_LE(w.packet, 3);
  EXPECT_LE(w.scalar, 1);
  w = sweep_float<u::Log1p>(-0.99f, 3.4e38f, [](double x) { return std::log1p(x); });
  EXPECT_LE(w.packet, 3);
  EXPECT_LE(w.scalar, 1);
  w = sweep_float<u::Expm1>(-87.0f, 88.0f, [](double x) { return std::expm1(x); });
  EXPECT_LE(w.packet, 4);
  EXPECT_LE(w.scalar, 1);
  w = sweep_float<u::Softplus>(-80.0f, 80.0f, [](double x) { return std::log1p(std::exp(x)); });
  EXPECT_LE(w.packet, 7);  // at the switch to exp(x) below -13.94
  EXPECT_LE(w.scalar, 7);
}

TEST(UnaryFloatAccuracy, RationalApproximations) {
  Worst w = sweep_float<u::Tanh>(-20.0f, 20.0f, [](double x) { return std::tanh(x); });
  EXPECT_LE(w.packet, 5);
  EXPECT_EQ(w.packet, w.scalar);  // one implementation for both paths
  w = sweep_float<u::Sigmoid>(-80.0f, 20.0f, [](double x) { return 1.0 / (1.0 + std::exp(-x)); });
  EXPECT_LE(w.packet, 6);  // Eigen: 4.5 ulps in double, plus the rounding of the reference
  EXPECT_LE(w.scalar, 2);
  w = sweep_float<u::Erf>(-10.0f, 10.0f, [](double x) { return std::erf(x); });
  EXPECT_LE(w.packet, 5);
  w = sweep_float<u::Erfc>(-10.0f, 8.0f, [](double x) { return std::erfc(x); });
  EXPECT_LE(w.packet, 12);  // beyond 8 the result nears the underflow and the error grows
  EXPECT_LE(w.scalar, 12);
}

TEST(UnaryFloatAccuracy, SinCos) {
  // Up to the thresholds of Eigen's four-step reduction (25966 and 18838), then the Payne-Hanek
  // reduction on 2/pi's bits up to the largest float.
  auto sin_ref = [](double x) { return std::sin(x); };
  auto cos_ref = [](double x) { return std::cos(x); };
  Worst w = sweep_float<u::Sin>(-25000.0f, 25000.0f, sin_ref);
  EXPECT_GT(w.checked, 1000);
  EXPECT_LE(w.packet, 2);
  EXPECT_LE(w.scalar, 1);
  w = sweep_float<u::Cos>(-18000.0f, 18000.0f, cos_ref);
  EXPECT_LE(w.packet, 2);
  EXPECT_LE(w.scalar, 1);
  w = sweep_float<u::Sin>(-3.4e38f, 3.4e38f, sin_ref);
  EXPECT_GT(w.checked, 100000);
  EXPECT_LE(w.packet, 2);
  w = sweep_float<u::Cos>(-3.4e38f, 3.4e38f, cos_ref);
  EXPECT_LE(w.packet, 2);
}

// The C library's float functions, as TF 2.21 runs them on packets and tail alike.
TEST(UnaryFloatAccuracy, TanAndHyperbolic) {
  Worst w = sweep_float<u::Tan>(-1e4f, 1e4f, [](double x) { return std::tan(x); });
  EXPECT_GT(w.checked, 1000);
  EXPECT_LE(w.packet, 1);
  EXPECT_EQ(w.packet, w.scalar);
  // the sweep measures 2 ulps for glibc's sinhf and coshf
  w = sweep_float<u::Sinh>(-89.0f, 89.0f, [](double x) { return std::sinh(x); });
  EXPECT_LE(w.packet, 2);
  w = sweep_float<u::Cosh>(-89.0f, 89.0f, [](double x) { return std::cosh(x); });
  EXPECT_LE(w.packet, 2);
  w = sweep_float<u::Asinh>(-3.4e38f, 3.4e38f, [](double x) { return std::asinh(x); });
  EXPECT_LE(w.packet, 1);
  w = sweep_float<u::Acosh>(1.0f, 3.4e38f, [](double x) { return std::acosh(x); });
  EXPECT_LE(w.packet, 1);
}

TEST(UnaryFloatAccuracy, RootsAndReciprocal) {
  Worst w = sweep_float<u::Sqrt>(0.0f, 3.4e38f, [](double x) { return std::sqrt(x); });
  EXPECT_EQ(w.packet, 0);
  EXPECT_EQ(w.scalar, 0);
  // Packets refine the CPU's estimate with one Newton step (Eigen: within 2 ulps); this bound
  // holds for Intel's and AMD's tables alike.
  w = sweep_float<u::Rsqrt>(0.0f, 3.4e38f, [](double x) { return 1.0 / std::sqrt(x); });
  EXPECT_LE(w.packet, 3);
  EXPECT_LE(w.scalar, 1);
  w = sweep_float<u::Reciprocal>(1e-30f, 1e30f, [](double x) { return 1.0 / x; });
  EXPECT_LE(w.packet, 2);
  EXPECT_EQ(w.scalar, 0);
}

TEST(UnaryFloatAccuracy, Double) {
  Worst w = sweep_double<u::Exp>(-700.0, 700.0, [](long double x) { return expl(x); });
  EXPECT_GT(w.checked, 1000);
  EXPECT_LE(w.packet, 2);
  EXPECT_LE(w.scalar, 1);
  w = sweep_double<u::Log>(0.0, 1e308, [](long double x) { return logl(x); });
  EXPECT_LE(w.packet, 1);
  EXPECT_LE(w.scalar, 1);
  w = sweep_double<u::Log1p>(-0.99, 1e308, [](long double x) { return log1pl(x); });
  EXPECT_LE(w.packet, 2);
  w = sweep_double<u::Expm1>(-700.0, 700.0, [](long double x) { return expm1l(x); });
  EXPECT_LE(w.packet, 3);
  w = sweep_double<u::Tanh>(-40.0, 40.0, [](long double x) { return tanhl(x); });
  EXPECT_LE(w.packet, 8);  // near the clamp at 17.71
  w = sweep_double<u::Sigmoid>(-700.0, 40.0, [](long double x) { return 1 / (1 + expl(-x)); });
  EXPECT_LE(w.packet, 2);
  w = sweep_double<u::Erf>(-10.0, 10.0, [](long double x) { return erfl(x); });
  EXPECT_LE(w.packet, 4);
  w = sweep_double<u::Erfc>(-10.0, 26.0, [](long double x) { return erfcl(x); });
  EXPECT_LE(w.packet, 8);  // Eigen: below 7 ulps
  w = sweep_double<u::Rsqrt>(0.0, 1e308, [](long double x) { return 1 / sqrtl(x); });
  EXPECT_LE(w.packet, 1);
}

TEST(UnaryFloatAccuracy, PowPacketsWithinThreeUlps) {
  // Eigen: accurate to 3 ulps; the tail is the C library's pow.
  detail::ScopedFlushDenormal flush;
  int64_t worst = 0;
  for (int i = 0; i < 20000; ++i) {
    const float x = std::ldexp(1.0f + static_cast<float>(i % 997) / 997.0f, i % 41 - 20);
    const float y = static_cast<float>(i % 173) / 173.0f * 16.0f - 8.0f;
    const float want = static_cast<float>(std::pow(static_cast<double>(x), static_cast<double>(y)));
    if (!std::isfinite(want) || std::fabs(want) < std::numeric_limits<float>::min()) continue;
    worst = std::max(worst, ulps(detail::eigen_pow<true>(x, y), want));
  }
  EXPECT_LE(worst, 3);
}

// ---- against TF 2.21's recorded outputs ----

TEST(UnaryFloatKernels, TheTailRoundsDifferentlyFromPackets) {
  // Nine copies of one value: the first eight take Eigen's packet path, the ninth the scalar one.
  auto nine = [](float v) { return f32(std::vector<float>(9, v)); };
  auto ends = [](const Tensor& t) {
    std::vector<float> v = values<float>(t);
    return std::vector<float>{v[0], v[8]};
  };
  EXPECT_EQ(ends(run1("Exp", {nine(0x1.b61d76p-1f)})),
            (std::vector<float>{0x1.2d2f4cp+1f, 0x1.2d2f4ap+1f}));
  EXPECT_EQ(ends(run1("Log", {nine(0x1.a615p+1f)})),
            (std::vector<float>{0x1.31738cp+0f, 0x1.31738ep+0f}));
  EXPECT_EQ(ends(run1("Sigmoid", {nine(0x1.c8caa4p-4f)})),
            (std::vector<float>{0x1.0e428ep-1f, 0x1.0e428cp-1f}));
  EXPECT_EQ(ends(run1("Log1p", {nine(0x1.c8caa4p-4f)})),
            (std::vector<float>{0x1.b1119ep-4f, 0x1.b1119cp-4f}));
  EXPECT_EQ(ends(run1("Expm1", {nine(0x1.c8caa4p-4f)})),
            (std::vector<float>{0x1.e33c88p-4f, 0x1.e33c86p-4f}));
  EXPECT_EQ(ends(run1("Softplus", {nine(0x1.db3abap+1f)})),
            (std::vector<float>{0x1.de5102p+1f, 0x1.de5104p+1f}));
  EXPECT_EQ(ends(run1("Elu", {nine(-0x1.32e512p-2f)})),
            (std::vector<float>{-0x1.092d0cp-2f, -0x1.092d1p-2f}));
  // TF 2.21: its packets' polynomial against the C library's sinf/cosf in the tail; a huge
  // argument reduced on 2/pi's bits.
  EXPECT_EQ(ends(run1("Sin", {nine(-0x1.8511cap+1f)})),
            (std::vector<float>{-0x1.a1041cp-4f, -0x1.a1041ep-4f}));
  EXPECT_EQ(ends(run1("Cos", {nine(0x1.7325e6p-1f)})),
            (std::vector<float>{0x1.7f4424p-1f, 0x1.7f4422p-1f}));
  EXPECT_EQ(values<float>(run1("Sin", {nine(-0x1.502ee2p+59f)}))[0], -0x1.f0bb54p-1f);
  EXPECT_EQ(values<float>(run1("Cos", {nine(-0x1.502ee2p+59f)}))[0], 0x1.f0697ep-3f);
}

TEST(UnaryFloatKernels, DoublePacketsOfFourAndTheTail) {
  auto five = [](double v) { return f64(std::vector<double>(5, v)); };
  auto ends = [](const Tensor& t) {
    std::vector<double> v = values<double>(t);
    return std::vector<double>{v[0], v[4]};
  };
  EXPECT_EQ(ends(run1("Exp", {five(0x1.029e3a5149e67p-1)})),
            (std::vector<double>{0x1.a83c8589d8779p+0, 0x1.a83c8589d8778p+0}));
  EXPECT_EQ(ends(run1("Tanh", {five(0x1.029e3a5149e67p-1)})),
            (std::vector<double>{0x1.dd50f1a9cdc69p-2, 0x1.dd50f1a9cdc68p-2}));
  EXPECT_EQ(ends(run1("Sigmoid", {five(0x1.029e3a5149e67p-1)})),
            (std::vector<double>{0x1.3f506585b806ep-1, 0x1.3f506585b806dp-1}));
  EXPECT_EQ(ends(run1("Erf", {five(0x1.7d13576e3d12p+0)})),
            (std::vector<double>{0x1.edf02dc580a75p-1, 0x1.edf02dc580a74p-1}));
}

TEST(UnaryFloatKernels, PowPacketsAndTail) {
  std::vector<float> p = values<float>(run1("Pow", {f32(std::vector<float>(9, 0x1.1b528cp+2f)),
                                                    f32(std::vector<float>(9, -0x1.340054p+2f))}));
  EXPECT_EQ(p[0], 0x1.979066p-11f);
  EXPECT_EQ(p[8], 0x1.979064p-11f);
  std::vector<double> d =
      values<double>(run1("Pow", {f64(std::vector<double>(5, 0x1.31795e63925e5p+3)),
                                  f64(std::vector<double>(5, 0x1.1265fa6eb59dp+1))}));
  EXPECT_EQ(d[0], 0x1.f8224bb865841p+6);
  EXPECT_EQ(d[4], 0x1.f8224bb86584p+6);
}

TEST(UnaryFloatKernels, DenormalsAreFlushedAndReadAsZero) {
  // 1e-39 * 1 and 2e-38 * 0.5 are 0 in TF: its kernels run with FTZ and DAZ.
  EXPECT_EQ(values<float>(run1("Mul", {f32({1e-39f, 2e-38f}), f32({1.0f, 0.5f})})),
            (std::vector<float>{0.0f, 0.0f}));
  // Packets read a denormal as zero (log -inf); the float tail calls glibc's logf, whose own
  // scaling of a denormal reads as zero too and lands on log(2^-150).
  std::vector<float> l = values<float>(run1("Log", {f32(std::vector<float>(9, 1e-39f))}));
  EXPECT_EQ(l[0], -std::numeric_limits<float>::infinity());
  EXPECT_EQ(l[8], -0x1.9fe368p+6f);
  // Sign: a packet returns |x| for what reads as zero, the tail 0.
  std::vector<float> s = values<float>(run1("Sign", {f32(std::vector<float>(9, -1e-39f))}));
  EXPECT_EQ(s[0], 1e-39f);
  EXPECT_EQ(s[8], 0.0f);
}

TEST(UnaryFloatKernels, DoubleLogTailIsTheGlibc225Wrapper) {
  // TF calls log@GLIBC_2.2.5, which answers x <= 0 itself with denormals read as zero: a
  // denormal gives -inf in the tail too (the current glibc log would give -745.13).
  std::vector<double> l =
      values<double>(run1("Log", {f64({1e-310, 1e-310, 1e-310, 1e-310, 1e-310, -2.0})}));
  EXPECT_EQ(l[4], -std::numeric_limits<double>::infinity());
  EXPECT_TRUE(std::isnan(l[5]));
  EXPECT_FALSE(std::signbit(l[5]));
}

TEST(UnaryFloatKernels, ReluTailRunsInPairs) {
  // TF's compiled scalar loop takes an odd tail's first element alone (a negative denormal
  // comes back as it is) and the rest two at a time with vmaxps(0, x) (it comes back as -0).
  Tensor x = f32({-0x1.b9b12p-127f, -0x1.557eb8p-127f, -0x1.8e54dcp-127f, 0x1.82f4p-132f,
                  -0x1.5c73p-130f, 0x1.b38fb8p-128f, -0x1.b38fb8p-128f});
  std::vector<float> r = values<float>(run1("Relu", {x}));
  EXPECT_EQ(r[0], -0x1.b9b12p-127f);
  for (int i : {1, 2, 4, 6}) {
    EXPECT_EQ(r[i], 0.0f);
    EXPECT_TRUE(std::signbit(r[i])) << i;
  }
  for (int i : {3, 5}) {
    EXPECT_EQ(r[i], 0.0f);
    EXPECT_FALSE(std::signbit(r[i])) << i;
  }
}

TEST(UnaryFloatKernels, MaximumMinimumSignedZerosAsTF) {
  // Packets return vmaxps's second operand on a tie, the tail its first, read as zero.
  Tensor a = f32({-0.0f, 0.0f, -1e-39f, 0.0f, -0.0f, 0.0f, -1e-39f, 0.0f, -0.0f});
  Tensor b = f32({0.0f, -1e-39f, 0.0f, -0.0f, 0.0f, -1e-39f, 0.0f, -0.0f, 0.0f});
  for (const char* op : {"Maximum", "Minimum"}) {
    std::vector<float> r = values<float>(run1(op, {a, b}));
    for (int i = 0; i < 9; ++i) {
      EXPECT_EQ(r[i], 0.0f);
      EXPECT_EQ(std::signbit(r[i]), i % 2 == 1 || i == 8) << op << " " << i;
    }
  }
}

}  // namespace
}  // namespace tfs

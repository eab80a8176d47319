// Erfc with TF's CPU numerics, bit for bit on float32.
//
// TF's kernel is Eigen's generic_fast_erfc: 1 + x * S(x^2) for |x| <= 1, otherwise
// exp(-x^2) * P(1/x^2) / (x * Q(1/x^2)) (+ 2 for negative x), with x clamped to [-11, 11].
// Eigen's tensor executor evaluates whole packets of 8 floats (TF's wheels target AVX without
// FMA) with vector helpers and the last n % 8 elements with scalar ones, and the two differ:
//   packets: exp is Eigen's polynomial pexp_float; 1/x^2 is the CPU's reciprocal estimate
//            refined by one Newton step, r + r * (1 - a * r);
//   scalars: std::exp and an exact division.
// TF's threads run with denormals flushed to zero, so products below FLT_MIN become 0 here too.
// Every step is one rounded float operation (no fused multiply-add), as in TF's build.
//
// float64 uses std::erfc, which is within an ulp or two of Eigen's double version but not
// bit-identical to it.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#include <algorithm>
#include <cmath>
#include <limits>

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#endif

#include "kernel_util.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

constexpr int64_t kPacketSize = 8;  // floats per AVX packet

float flush_denormal(float v) {
  return std::fabs(v) < std::numeric_limits<float>::min() ? 0.0f * v : v;
}

// c[0] x^n + ... + c[n], Horner's rule with a rounding after each operation (Eigen's ppolevl).
float polynomial(float x, const float* c, int n) {
  float r = c[0];
  for (int i = 1; i <= n; ++i) r = r * x + c[i];
  return r;
}

// Eigen's pexp_float: exp(x) = 2^m exp(r), m = floor(x log2(e) + 1/2), r reduced in two steps,
// exp(r) a degree-6 polynomial split into even and odd parts.
float packet_exp(float x_in) {
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

float packet_reciprocal(float a) {
#if defined(__x86_64__) || defined(_M_X64)
  const float r = _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(a)));
  const float e = 1.0f - a * r;
  return r + r * e;
#else
  return 1.0f / a;
#endif
}

template <bool kPacket>
float eigen_erfc(float x_in) {
  if (std::isnan(x_in)) return x_in;
  constexpr float kSmall[] = {5.61802298761904239654541015625e-04f,
                              -4.91381669417023658752441406250e-03f,
                              2.67075151205062866210937500000e-02f,
                              -1.12800106406211853027343750000e-01f,
                              3.76122951507568359375000000000e-01f,
                              -1.12837910652160644531250000000e+00f};
  constexpr float kNum[] = {1.0208116471767425537109375e-01f, 4.2920666933059692382812500e-01f,
                            3.2379078865051269531250000e-01f, 5.3971976041793823242187500e-02f};
  constexpr float kDen[] = {1.7251677811145782470703125e-02f, 3.9137163758277893066406250e-01f,
                            1.0000000000000000000000000e+00f, 6.2173241376876831054687500e-01f,
                            9.5662862062454223632812500e-02f};
  const float x = std::min(std::max(x_in, -11.0f), 11.0f);
  const float x2 = x * x;
  if (!(1.0f < x2)) return x * polynomial(x2, kSmall, 5) + 1.0f;
  // exp(-x^2) with the rounding error of x^2 folded in: exp(-x2) * (1 - x2_lo).
  const float x2_lo = std::fma(x, x, -x2);  // exact, as Eigen's two-product splitting
  const float e = kPacket ? packet_exp(-x2) : flush_denormal(std::exp(-x2));
  const float z = e - flush_denormal(e * x2_lo);
  const float q2 = kPacket ? packet_reciprocal(x2) : 1.0f / x2;
  const float r = polynomial(q2, kNum, 3) / (x * polynomial(q2, kDen, 4));
  return flush_denormal(z * r + (x < 0.0f ? 2.0f : 0.0f));
}

void erfc_kernel(OpKernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  Tensor& out = ctx.allocate_output(0, x.dtype(), x.eager_shape());
  const int64_t n = x.num_elements();
  if (x.dtype() == DType::kFloat32) {
    const float* p = x.data<float>();
    float* o = out.data<float>();
    const int64_t packed = n - n % kPacketSize;
    for (int64_t i = 0; i < packed; ++i) o[i] = eigen_erfc<true>(p[i]);
    for (int64_t i = packed; i < n; ++i) o[i] = eigen_erfc<false>(p[i]);
  } else {
    const double* p = x.data<double>();
    double* o = out.data<double>();
    for (int64_t i = 0; i < n; ++i) o[i] = std::erfc(p[i]);
  }
}

OpRegistration r_erfc([] {
  OpDef d;
  d.name = "Erfc";
  d.inputs = {{"x", "T"}};
  d.outputs = {{"y", "T"}};
  d.type_attrs = {{"T", detail::kFloatTypes}};
  d.shape_fn = detail::same_shape_fn;
  d.kernel = erfc_kernel;
  return d;
}());

}  // namespace

namespace detail {
void anchor_erfc_ops() {}
}  // namespace detail
}  // namespace tfs

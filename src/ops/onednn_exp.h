// oneDNN's float32 exp, as its JIT eltwise injector computes it (oneDNN 3.7, TF 2.21's), lane
// by lane, and the x86 packed max/min it clamps with. Shared by the kernels that emulate TF's
// oneDNN ops (softmax_onednn.cc, swish_onednn.cc). Internal to src/ops.
#pragma once

#include <cstdint>
#include <cstring>

#include "eigen_math.h"

namespace tfs::detail {

inline float bits_to_float(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

// The x86 packed max and min: the first operand when it compares greater (less), else the
// second (so the second on a tie or a NaN).
inline float maxps(float a, float b) {
  return a > b ? a : b;
}
inline float minps(float a, float b) {
  return a < b ? a : b;
}

// floor(f) for the |f| < 2^31 of oneDNN's exp (ROUNDPS toward -inf).
inline float floor_small(float f) {
  const float t = static_cast<float>(static_cast<int32_t>(f));
  return t > f ? t - 1.0f : t;
}

// oneDNN's exp injector (jit_uni_eltwise_injector, eltwise_exp): exp(x) = 2 * 2^(n-1) * p(r),
// n = floor(x log2(e) + 1/2), r = x - n ln(2), p a degree-5 polynomial; inputs below
// ln(FLT_MIN) give 0. With kFused the multiply-adds are FMAs (AVX2, AVX-512); SSE4.1 rounds the
// product and the sum apart.
template <bool kFused>
[[gnu::always_inline]] inline float onednn_exp(float x_in) {
  const float ln_flt_min = bits_to_float(0xc2aeac50u);
  const float ln_flt_max = bits_to_float(0x42b17218u);
  const float log2e = bits_to_float(0x3fb8aa3bu);
  const float ln2 = bits_to_float(0x3f317218u);
  const float pol[] = {bits_to_float(0x3f7ffffbu), bits_to_float(0x3efffee3u),
                       bits_to_float(0x3e2aad40u), bits_to_float(0x3d2b9d0du),
                       bits_to_float(0x3c07cfceu)};
  // Only the scaling by 2^(n-1) can leave a denormal (flushed, as TF's threads do): x is at
  // least ln(FLT_MIN) in magnitude or 0, r = x - n ln(2) and p(r) stay far from FLT_MIN.
  auto madd = [](float a, float b, float c) {
    if constexpr (kFused) {
      return __builtin_fmaf(a, b, c);
    } else {
      return a * b + c;
    }
  };
  const bool underflow = x_in < ln_flt_min;
  const float x = maxps(minps(x_in, ln_flt_max), ln_flt_min);
  const float n = floor_small(x * log2e + 0.5f);
  const float r = madd(-n, ln2, x);
  const int32_t e = static_cast<int32_t>(n - 1.0f) + 127;
  const float two_n = underflow ? 0.0f : bits_to_float(static_cast<uint32_t>(e) << 23);
  float p = pol[4];
  for (int i = 3; i >= 0; --i) p = madd(p, r, pol[i]);
  p = madd(p, r, 1.0f);
  return flush_denormal(flush_denormal(p * two_n) * 2.0f);
}

}  // namespace tfs::detail

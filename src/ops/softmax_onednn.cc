// oneDNN's forward softmax_accurate on a row-major float32 matrix, as TF 2.21's _MklSoftmax runs
// it (oneDNN 3.7, jit_uni_softmax's dense kernel): each row on its own, in vector registers of
// `kLanes` floats (16 for AVX-512, 8 for AVX2, 4 for SSE4.1), every vector operation emulated
// lane by lane.
//
// Per row: register q (elements q*kLanes ...) is folded into accumulator q % 4 while whole
// registers last; the partial last register (masked on AVX-512, blended on AVX2/SSE4.1) into
// accumulator 0; the accumulators combined as (a0 . a1) . (a2 . a3) (or (a0 . a1) . a2, a0 . a1
// when the row has fewer registers), then across lanes by halving butterflies (each lane with the
// one kLanes/2, ..., 1 away). Pass 1 takes the max (from -FLT_MAX); pass 2 stores and sums
// exp(x - max) with oneDNN's exp; pass 3 multiplies by 1 / sum. TF's threads flush denormals.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "eigen_math.h"
#include "onednn_exp.h"
#include "softmax.h"
#include "tfscope/cpu_info.h"

namespace tfs::detail {
namespace {

struct IsaShape {
  int lanes;
  bool fused;   // multiply-adds are FMAs
  bool masked;  // the tail register is masked (AVX-512) rather than blended with -FLT_MAX / 0
};

IsaShape shape_of(OnednnSoftmaxIsa isa) {
  switch (isa) {
    case OnednnSoftmaxIsa::kAvx512:
      return {16, true, true};
    case OnednnSoftmaxIsa::kAvx2:
      return {8, true, false};
    case OnednnSoftmaxIsa::kSse41:
      break;
  }
  return {4, false, false};
}

constexpr int kMaxLanes = 16;
using Reg = float[kMaxLanes];

template <typename Op>
void combine_accumulators(Reg* acc, int used, int lanes, Op op, Reg& out) {
  for (int l = 0; l < lanes; ++l) {
    switch (used) {
      case 4:
        out[l] = op(op(acc[0][l], acc[1][l]), op(acc[2][l], acc[3][l]));
        break;
      case 3:
        out[l] = op(op(acc[0][l], acc[1][l]), acc[2][l]);
        break;
      case 2:
        out[l] = op(acc[0][l], acc[1][l]);
        break;
      default:
        out[l] = acc[0][l];
    }
  }
}

template <typename Op>
void across_lanes(Reg& v, int lanes, Op op) {
  for (int h = lanes / 2; h >= 1; h /= 2) {
    Reg t;
    for (int l = 0; l < lanes; ++l) t[l] = op(v[l], v[l ^ h]);
    std::memcpy(v, t, sizeof(float) * static_cast<size_t>(lanes));
  }
}

template <bool kFused>
[[gnu::always_inline]] inline void softmax_row(const float* x, int64_t n, const IsaShape& isa,
                                               float* y) {
  const int L = isa.lanes;
  const int64_t full = n / L;
  const int tail = static_cast<int>(n % L);
  const int64_t loops = full / 4;
  const int used = loops ? 4 : (full % 4 ? static_cast<int>(full % 4) : 1);
  const float neg_max = -std::numeric_limits<float>::max();
  auto add = [](float a, float b) { return flush_denormal(a + b); };

  Reg acc[4], vmax, vsum;
  for (int u = 0; u < 4; ++u) std::fill_n(acc[u], L, neg_max);
  for (int64_t q = 0; q < full; ++q) {
    for (int l = 0; l < L; ++l) acc[q % 4][l] = maxps(acc[q % 4][l], flush_denormal(x[q * L + l]));
  }
  for (int l = 0; l < L && tail; ++l) {
    if (l < tail) {
      acc[0][l] = maxps(acc[0][l], flush_denormal(x[full * L + l]));
    } else if (!isa.masked) {
      acc[0][l] = maxps(acc[0][l], neg_max);
    }
  }
  combine_accumulators(acc, used, L, maxps, vmax);
  across_lanes(vmax, L, maxps);

  for (int u = 0; u < 4; ++u) std::fill_n(acc[u], L, 0.0f);
  auto exp_lane = [&](int64_t i, int l) {
    const float e = onednn_exp<kFused>(flush_denormal(flush_denormal(x[i]) - vmax[l]));
    y[i] = e;
    return e;
  };
  for (int64_t q = 0; q < full; ++q) {
    for (int l = 0; l < L; ++l) acc[q % 4][l] = add(acc[q % 4][l], exp_lane(q * L + l, l));
  }
  for (int l = 0; l < tail; ++l) acc[0][l] = add(acc[0][l], exp_lane(full * L + l, l));
  combine_accumulators(acc, used, L, add, vsum);
  across_lanes(vsum, L, add);
  for (int l = 0; l < L; ++l) vsum[l] = flush_denormal(1.0f / vsum[l]);

  for (int64_t i = 0; i < n; ++i) y[i] = flush_denormal(y[i] * vsum[i % L]);
}

// The same with the CPU's FMA instruction inlined (std::fma is a library call otherwise).
#if defined(__x86_64__)
__attribute__((target("fma")))
#endif
void softmax_row_fma(const float* x, int64_t n, const IsaShape& isa, float* y) {
  softmax_row<true>(x, n, isa, y);
}

}  // namespace

OnednnSoftmaxIsa onednn_softmax_isa() {
  // jit_uni_softmax has AVX-512, AVX2 and SSE4.1 kernels; an AVX-only CPU gets SSE4.1's.
  switch (onednn_isa()) {
    case OneDnnIsa::kAvx512Core:
      return OnednnSoftmaxIsa::kAvx512;
    case OneDnnIsa::kAvx2:
      return OnednnSoftmaxIsa::kAvx2;
    default:
      return OnednnSoftmaxIsa::kSse41;
  }
}

void onednn_softmax(const float* x, int64_t rows, int64_t classes, OnednnSoftmaxIsa isa,
                    float* out) {
  const IsaShape shape = shape_of(isa);
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = x + r * classes;
    float* y = out + r * classes;
    if (!shape.fused) {
      softmax_row<false>(row, classes, shape, y);
    } else if (cpu_info().fma) {
      softmax_row_fma(row, classes, shape, y);
    } else {
      softmax_row<true>(row, classes, shape, y);
    }
  }
}

}  // namespace tfs::detail

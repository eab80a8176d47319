// FULLY_CONNECTED's reference kernels: LiteRT's reference float kernel
// (reference_ops::FullyConnected) and hybrid kernel (EvalHybridDense with tensor_utils'
// BatchQuantizeFloats and MatrixBatchVectorMultiplyAccumulate), operation for operation. The
// prepared SIMD kernels (kernels_fc_prepared.cc) are tested against these.
// Built with -ffp-contract=off: a fused multiply-add would change the last bit.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels_fc_internal.h"
#include "tfscope/lite_kernels.h"

namespace tfs::lite::kernels {

float activate(float x, Activation a) {
  switch (a) {
    case Activation::kRelu:
      return std::max(x, 0.0f);
    case Activation::kRelu6:
      return std::min(std::max(x, 0.0f), 6.0f);
    case Activation::kReluN1To1:
      return std::min(std::max(x, -1.0f), 1.0f);
    default:
      return x;
  }
}

void fully_connected_float(const float* in, int batch, int depth, const float* w, int units,
                           const float* bias, Activation act, float* out) {
  for (int b = 0; b < batch; ++b) {
    for (int u = 0; u < units; ++u) {
      float total = 0.f;
      for (int d = 0; d < depth; ++d) total += in[b * depth + d] * w[u * depth + d];
      float bias_value = bias ? bias[u] : 0.0f;
      out[b * units + u] = activate(total + bias_value, act);
    }
  }
}

RowQuantization asymmetric_params(float min, float max) {
  const int32_t kMin = -128, kMax = 127;
  const double qmin = kMin, qmax = kMax;
  RowQuantization p;
  const float rmin_f = std::min(0.0f, min);
  const float rmax_f = std::max(0.0f, max);
  const double rmin = rmin_f, rmax = rmax_f;
  if (rmin == rmax) return p;
  // The range is a float difference, widened to double only for the division: checked against
  // LiteRT 2.3's BUILTIN_REF kernel, where a double difference disagrees in the last bit.
  const double scale = static_cast<double>(rmax_f - rmin_f) / (qmax - qmin);
  const double zp_from_min = qmin - rmin / scale;
  const double zp_from_max = qmax - rmax / scale;
  const double zp_from_min_error = std::abs(qmin) + std::abs(rmin / scale);
  const double zp_from_max_error = std::abs(qmax) + std::abs(rmax / scale);
  const double zp = zp_from_min_error < zp_from_max_error ? zp_from_min : zp_from_max;
  int8_t nudged = 0;
  if (zp <= qmin)
    nudged = static_cast<int8_t>(kMin);
  else if (zp >= qmax)
    nudged = static_cast<int8_t>(kMax);
  else
    nudged = static_cast<int8_t>(std::round(zp));
  p.sf = static_cast<float>(scale);
  p.zp = nudged;
  p.inv = 1.0f / p.sf;
  p.zero = false;
  return p;
}

RowQuantization symmetric_params(float min, float max) {
  const int32_t kScale = 127;
  RowQuantization p;
  const float range = std::max(std::abs(min), std::abs(max));
  if (range == 0) return p;
  p.sf = range / kScale;
  p.inv = kScale / range;
  p.zero = false;
  return p;
}

void asymmetric_quantize(const float* x, int n, int8_t* q, float* scaling_factor, int32_t* offset) {
  const auto mm = std::minmax_element(x, x + n);
  const RowQuantization p = n > 0 ? asymmetric_params(*mm.first, *mm.second) : RowQuantization{};
  *scaling_factor = p.sf;
  *offset = p.zp;
  if (p.zero) {
    std::memset(q, 0, static_cast<size_t>(n));
    return;
  }
  // The offset is added after rounding: LiteRT 2.3's BUILTIN_REF gives -128 + round(100.5) = -27
  // where round(-128 + 100.5) would be -28 (checked on 33478 such half-way products).
  for (int i = 0; i < n; ++i) {
    const int32_t v = p.zp + static_cast<int32_t>(std::round(x[i] * p.inv));
    q[i] = static_cast<int8_t>(std::min(127, std::max(-128, v)));
  }
}

void symmetric_quantize(const float* x, int n, int8_t* q, float* scaling_factor) {
  const auto mm = std::minmax_element(x, x + n);
  const RowQuantization p = n > 0 ? symmetric_params(*mm.first, *mm.second) : RowQuantization{};
  *scaling_factor = p.sf;
  if (p.zero) {
    std::memset(q, 0, static_cast<size_t>(n));
    return;
  }
  for (int i = 0; i < n; ++i) {
    const int32_t v = static_cast<int32_t>(std::round(x[i] * p.inv));
    q[i] = static_cast<int8_t>(std::min(127, std::max(-127, v)));
  }
}

void HybridWeights::prepare() {
  row_sums.assign(static_cast<size_t>(units), 0);
  for (int u = 0; u < units; ++u) {
    int32_t s = 0;
    for (int d = 0; d < depth; ++d) s += w[u * depth + d];
    row_sums[static_cast<size_t>(u)] = s;
  }
}

bool all_zero(const float* x, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (x[i] != 0.0f) return false;
  }
  return true;
}

void hybrid_reference(const float* in, int batch, const HybridWeights& w, const float* bias,
                      Activation act, bool asymmetric, float* out, int8_t* q, float* sf,
                      int32_t* zp) {
  const int units = w.units, depth = w.depth;
  for (int b = 0; b < batch; ++b) {
    for (int u = 0; u < units; ++u) out[b * units + u] = bias ? bias[u] : 0.0f;
  }
  // An all-zero input (the whole batch) leaves the bias.
  if (all_zero(in, static_cast<size_t>(batch) * static_cast<size_t>(depth))) {
    for (int i = 0; i < batch * units; ++i) out[i] = activate(out[i], act);
    return;
  }
  for (int b = 0; b < batch; ++b) {
    zp[b] = 0;
    if (asymmetric)
      asymmetric_quantize(in + b * depth, depth, q + b * depth, &sf[b], &zp[b]);
    else
      symmetric_quantize(in + b * depth, depth, q + b * depth, &sf[b]);
    if (w.scales.size() == 1) sf[b] *= w.scales[0];
  }
  // out += float(dot - row_sum * zp) * (sf * scale): MatrixBatchVectorMultiplyAccumulate's float
  // steps.
  for (int b = 0; b < batch; ++b) {
    const int8_t* x = q + b * depth;
    for (int u = 0; u < units; ++u) {
      int32_t dot = 0;
      const int8_t* row = w.w + u * depth;
      for (int d = 0; d < depth; ++d) dot += row[d] * x[d];
      float scale = sf[b];
      if (w.scales.size() > 1) scale *= w.scales[static_cast<size_t>(u)];
      if (asymmetric) dot -= w.row_sums[static_cast<size_t>(u)] * zp[b];
      float& o = out[b * units + u];
      o = o + static_cast<float>(dot) * scale;
    }
  }
  for (int i = 0; i < batch * units; ++i) out[i] = activate(out[i], act);
}

void fully_connected_hybrid(const float* in, int batch, const HybridWeights& w, const float* bias,
                            Activation act, bool asymmetric, float* out) {
  std::vector<int8_t> q(static_cast<size_t>(batch) * static_cast<size_t>(w.depth));
  std::vector<float> sf(static_cast<size_t>(batch));
  std::vector<int32_t> zp(static_cast<size_t>(batch));
  hybrid_reference(in, batch, w, bias, act, asymmetric, out, q.data(), sf.data(), zp.data());
}

}  // namespace tfs::lite::kernels

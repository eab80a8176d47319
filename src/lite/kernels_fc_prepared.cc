// PreparedFc: FULLY_CONNECTED weights packed once into panels of one SIMD vector of units, and the
// dispatch of each call to the code for the instruction set they were packed for (the scalar path
// runs the reference kernels). What each path computes is the reference's arithmetic: see
// kernels_fc_avx512.cc and kernels_fc_avx2.cc.
// Built with -ffp-contract=off: the scalar fused path must fuse exactly where it says so.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "kernels_fc_internal.h"
#include "tfscope/cpu_info.h"
#include "tfscope/lite_kernels.h"

namespace tfs::lite::kernels {
namespace {

// Units per panel, and panels per kernel tile (the tiles of kernels_fc_*.cc read four panels).
constexpr int kGroupPanels = 4;

int round_up(int n, int m) {
  return (n + m - 1) / m * m;
}

PreparedFc::Layout layout_for(Isa isa, bool hybrid, int units, int depth) {
  PreparedFc::Layout l;
  if (isa == Isa::kScalar) {
    l.depth_pad = depth;
    return l;
  }
  const bool avx512 = isa == Isa::kAvx512 || isa == Isa::kAmx;
  l.lanes = avx512 ? 16 : 8;
  l.k_group = hybrid ? (avx512 ? 4 : 2) : 1;
  l.depth_pad = round_up(depth, hybrid && isa == Isa::kAmx ? 64 : l.k_group);
  l.group_panels = kGroupPanels;
  l.panels = round_up((units + l.lanes - 1) / l.lanes, kGroupPanels);
  return l;
}

// Scalar float kernel with one rounding per multiply-add (the fused mode without SIMD).
void float_fused_scalar(const float* in, int batch, int depth, const float* w, int units,
                        const float* bias, Activation act, float* out) {
  for (int b = 0; b < batch; ++b) {
    for (int u = 0; u < units; ++u) {
      float total = 0.f;
      for (int d = 0; d < depth; ++d) total = std::fma(in[b * depth + d], w[u * depth + d], total);
      out[b * units + u] = activate(total + (bias ? bias[u] : 0.0f), act);
    }
  }
}

}  // namespace

Isa best_isa() {
  static const Isa isa = [] {
    const CpuInfo& c = cpu_info();
    Isa best = Isa::kScalar;
    if (c.avx512f && c.avx512bw && c.avx512dq && c.avx512vl && c.avx512_vnni && c.avx2 && c.fma)
      best = c.amx_tile && c.amx_int8 && amx_enable() ? Isa::kAmx : Isa::kAvx512;
    else if (c.avx2 && c.fma)
      best = Isa::kAvx2;
    // TFSCOPE_LITE_ISA=avx512, avx2 or scalar runs a lesser path (e.g. to check it against LiteRT
    // on a machine that has more); it never enables what the CPU lacks.
    if (const char* env = std::getenv("TFSCOPE_LITE_ISA")) {
      const std::string v = env;
      const Isa cap = v == "scalar"   ? Isa::kScalar
                      : v == "avx2"   ? Isa::kAvx2
                      : v == "avx512" ? Isa::kAvx512
                                      : Isa::kAmx;
      if (static_cast<int>(cap) < static_cast<int>(best)) best = cap;
    }
    return best;
  }();
  return isa;
}

bool isa_supported(Isa isa) {
  return static_cast<int>(isa) <= static_cast<int>(best_isa());
}

const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::kAmx:
      return "amx";
    case Isa::kAvx512:
      return "avx512";
    case Isa::kAvx2:
      return "avx2";
    default:
      return "scalar";
  }
}

PreparedFc PreparedFc::float_weights(const float* w, int units, int depth, bool fused, Isa isa) {
  if (!isa_supported(isa)) isa = best_isa();
  PreparedFc p;
  p.isa_ = isa;
  p.fused_ = fused;
  p.units_ = units;
  p.depth_ = depth;
  p.layout_ = layout_for(isa, false, units, depth);
  const size_t n = static_cast<size_t>(units) * static_cast<size_t>(depth);
  if (isa == Isa::kScalar) {
    p.raw_f_.assign(w, w + n);
    return p;
  }
  const Layout& l = p.layout_;
  // Panel j of group grp holds units grp * G * L + j * L + [0, L) (G panels of L lanes). A group
  // is d-major with its panels side by side, one stream for the kernel:
  // wf[((grp * depth + d) * G + j) * L + lane].
  const size_t lanes = static_cast<size_t>(l.lanes), gp = static_cast<size_t>(l.group_panels);
  p.wf_.assign(static_cast<size_t>(l.panels) * static_cast<size_t>(depth) * lanes, 0.0f);
  for (int u = 0; u < units; ++u) {
    const size_t uu = static_cast<size_t>(u), grp = uu / (gp * lanes), j = uu / lanes % gp;
    for (int d = 0; d < depth; ++d) {
      p.wf_[((grp * static_cast<size_t>(depth) + static_cast<size_t>(d)) * gp + j) * lanes +
            uu % lanes] = w[uu * static_cast<size_t>(depth) + static_cast<size_t>(d)];
    }
  }
  p.zero_bias_.assign(static_cast<size_t>(l.panels) * l.lanes, 0.0f);
  return p;
}

PreparedFc PreparedFc::hybrid_weights(const int8_t* w, int units, int depth,
                                      const std::vector<float>& scales, Isa isa) {
  if (!isa_supported(isa)) isa = best_isa();
  PreparedFc p;
  p.isa_ = isa;
  p.hybrid_ = true;
  p.units_ = units;
  p.depth_ = depth;
  p.layout_ = layout_for(isa, true, units, depth);
  const size_t n = static_cast<size_t>(units) * static_cast<size_t>(depth);
  p.raw_q_.assign(w, w + n);
  p.ref_.w = p.raw_q_.data();
  p.ref_.units = units;
  p.ref_.depth = depth;
  p.ref_.scales = scales;
  p.ref_.prepare();
  if (isa == Isa::kScalar) return p;
  const Layout& l = p.layout_;
  const size_t lanes = static_cast<size_t>(l.lanes), kg = static_cast<size_t>(l.k_group);
  const size_t gp = static_cast<size_t>(l.group_panels);
  const size_t groups = static_cast<size_t>(l.depth_pad) / kg;
  // As the float layout, with k_group consecutive d per lane (the unit's values for d = kg * g +
  // [0, kg)): wq[(((grp * groups + g) * G + j) * L + lane) * kg + i]. One k group of a panel is a
  // row of an AMX / VNNI operand.
  p.wq_.assign(static_cast<size_t>(l.panels) * groups * lanes * kg, 0);
  for (int u = 0; u < units; ++u) {
    const size_t uu = static_cast<size_t>(u), grp = uu / (gp * lanes), j = uu / lanes % gp;
    for (int d = 0; d < depth; ++d) {
      const size_t g = static_cast<size_t>(d) / kg, i = static_cast<size_t>(d) % kg;
      p.wq_[(((grp * groups + g) * gp + j) * lanes + uu % lanes) * kg + i] =
          w[uu * static_cast<size_t>(depth) + static_cast<size_t>(d)];
    }
  }
  const size_t padded = static_cast<size_t>(l.panels) * lanes;
  p.scales_.assign(padded, 0.0f);
  p.row_sums_.assign(padded, 0);
  const bool per_unit = scales.size() > 1;
  p.tensor_scale_ = per_unit || scales.empty() ? 1.0f : scales[0];
  for (int u = 0; u < units; ++u) {
    p.scales_[static_cast<size_t>(u)] = per_unit ? scales[static_cast<size_t>(u)] : 1.0f;
    p.row_sums_[static_cast<size_t>(u)] = p.ref_.row_sums[static_cast<size_t>(u)];
  }
  p.zero_bias_.assign(padded, 0.0f);
  return p;
}

void PreparedFc::reserve(int batch, FcScratch& s) const {
  if (!hybrid_) return;
  const size_t elem = isa_ == Isa::kAvx2 ? sizeof(int16_t) : 1;
  const size_t rows = static_cast<size_t>(std::max(batch, 0));
  s.q.resize(rows * static_cast<size_t>(layout_.depth_pad) * elem);
  s.sf.resize(rows);
  s.zp.resize(rows);
}

void PreparedFc::run(const float* in, int batch, const float* bias, Activation act, bool asymmetric,
                     float* out, FcScratch& s) const {
  if (batch <= 0) return;
  if (isa_ == Isa::kScalar) {
    if (!hybrid_) {
      if (fused_)
        float_fused_scalar(in, batch, depth_, raw_f_.data(), units_, bias, act, out);
      else
        fully_connected_float(in, batch, depth_, raw_f_.data(), units_, bias, act, out);
      return;
    }
    reserve(batch, s);
    hybrid_reference(in, batch, ref_, bias, act, asymmetric, out,
                     reinterpret_cast<int8_t*>(s.q.data()), s.sf.data(), s.zp.data());
    return;
  }
  FcCall c;
  c.in = in;
  c.batch = batch;
  c.depth = depth_;
  c.units = units_;
  c.bias = bias ? bias : zero_bias_.data();
  c.act = act;
  c.out = out;
  c.layout = layout_;
  if (!hybrid_) {
    c.wf = wf_.data();
    c.fused = fused_;
    if (isa_ == Isa::kAvx512 || isa_ == Isa::kAmx)  // AMX has no exact float products
      fc_float_avx512(c);
    else
      fc_float_avx2(c);
    return;
  }
  // The reference's all-zero shortcut: an input of zeros (the whole batch) leaves the bias.
  if (all_zero(in, static_cast<size_t>(batch) * static_cast<size_t>(depth_))) {
    for (int b = 0; b < batch; ++b) {
      for (int u = 0; u < units_; ++u) {
        out[static_cast<size_t>(b) * static_cast<size_t>(units_) + static_cast<size_t>(u)] =
            activate(bias ? bias[u] : 0.0f, act);
      }
    }
    return;
  }
  reserve(batch, s);
  const bool avx512 = isa_ == Isa::kAvx512 || isa_ == Isa::kAmx;
  if (avx512) {
    quantize_rows_avx512(in, batch, depth_, layout_.depth_pad, asymmetric, s.q.data(), s.sf.data(),
                         s.zp.data());
  } else {
    quantize_rows_avx2(in, batch, depth_, layout_.depth_pad, asymmetric,
                       reinterpret_cast<int16_t*>(s.q.data()), s.sf.data(), s.zp.data());
  }
  // The reference folds one weight scale into the row's; the kernels subtract row_sum * offset,
  // where the offset is the row's zero point (asymmetric only), plus 128 for the unsigned inputs
  // of AVX-512 VNNI (q + 128).
  const int32_t unsigned_shift = avx512 ? 128 : 0;
  const bool one_scale = ref_.scales.size() == 1;
  for (int b = 0; b < batch; ++b) {
    if (one_scale) s.sf[static_cast<size_t>(b)] *= tensor_scale_;
    s.zp[static_cast<size_t>(b)] = unsigned_shift + (asymmetric ? s.zp[static_cast<size_t>(b)] : 0);
  }
  c.wq = wq_.data();
  c.scales = scales_.data();
  c.row_sums = row_sums_.data();
  c.q = s.q.data();
  c.sf = s.sf.data();
  c.row_offset = s.zp.data();
  if (isa_ == Isa::kAmx)
    fc_hybrid_amx(c);
  else if (isa_ == Isa::kAvx512)
    fc_hybrid_avx512(c);
  else
    fc_hybrid_avx2(c);
}

}  // namespace tfs::lite::kernels

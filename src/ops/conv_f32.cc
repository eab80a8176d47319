// TF 2.21's float32 Conv2D (conv_f32.h).
#include "conv_f32.h"

#include <vector>

#include "eigen_matmul.h"
#include "gemm_f32.h"
#include "onednn_matmul.h"
#include "tfscope/cpu_info.h"
#include "tfscope/thread_pool.h"

namespace tfs::detail {

void extract_patches(const ConvGeometry& g, const float* in, int64_t first, int64_t depth,
                     float* patches) {
  float* p = patches;
  for (int64_t b = 0; b < g.batch; ++b) {
    for (int64_t r = 0; r < g.out_rows; ++r) {
      for (int64_t c = 0; c < g.out_cols; ++c) {
        for (int64_t kh = 0; kh < g.f_rows; ++kh) {
          const int64_t ir = r * g.stride_h - g.pad_top + kh * g.dil_h;
          for (int64_t kw = 0; kw < g.f_cols; ++kw) {
            const int64_t ic = c * g.stride_w - g.pad_left + kw * g.dil_w;
            if (ir < 0 || ir >= g.in_rows || ic < 0 || ic >= g.in_cols) {
              std::fill(p, p + depth, 0.0f);
            } else {
              const float* x = in + ((b * g.in_rows + ir) * g.in_cols + ic) * g.in_depth + first;
              std::copy(x, x + depth, p);
            }
            p += depth;
          }
        }
      }
    }
  }
}

namespace {

// One group's contraction, the whole convolution when there is one group.
bool conv_contraction(const ConvGeometry& g, int64_t f_depth, int64_t out_depth, const float* in,
                      int64_t first, const float* filter, float* out) {
  const EigenMatMulSetting& s = eigen_matmul_setting();
  const int64_t pixels = g.batch * g.out_rows * g.out_cols;
  const bool one_by_one = g.f_rows == 1 && g.f_cols == 1 && g.stride_h == 1 && g.stride_w == 1 &&
                          g.padding != Padding::kExplicit;
  const bool whole = g.f_rows == g.in_rows && g.f_cols == g.in_cols && g.dil_h == 1 &&
                     g.dil_w == 1 && g.padding == Padding::kValid;
  const bool plain_input = first == 0 && f_depth == g.in_depth;
  if (plain_input && one_by_one) {
    return eigen_contract(in, false, filter, false, pixels, f_depth, out_depth, out, s);
  }
  if (plain_input && whole) {
    return eigen_contract(in, false, filter, false, g.batch, g.f_rows * g.f_cols * f_depth,
                          out_depth, out, s);
  }
  const int64_t k = g.f_rows * g.f_cols * f_depth;
  std::vector<float> patches(static_cast<size_t>(pixels * k));
  extract_patches(g, in, first, f_depth, patches.data());
  return eigen_contract(patches.data(), true, filter, false, pixels, k, out_depth, out, s);
}

}  // namespace

bool conv2d_f32(const ConvGeometry& g, int64_t f_depth, int64_t out_depth, const float* in,
                const float* filter, float* out) {
  const int64_t groups = g.in_depth / f_depth;
  if (groups == 1) {
    const bool exact = conv_contraction(g, f_depth, out_depth, in, 0, filter, out);
    return exact && !tf_onednn_enabled();
  }
  // Grouped: one contraction per group (TF shuffles the groups into one batched contraction, an
  // order tfscope does not claim).
  const int64_t per_group = out_depth / groups, taps = g.f_rows * g.f_cols * f_depth;
  const int64_t pixels = g.batch * g.out_rows * g.out_cols;
  std::vector<float> f(static_cast<size_t>(taps * per_group)),
      o(static_cast<size_t>(pixels * per_group));
  for (int64_t grp = 0; grp < groups; ++grp) {
    for (int64_t t = 0; t < taps; ++t) {
      for (int64_t j = 0; j < per_group; ++j)
        f[t * per_group + j] = filter[t * out_depth + grp * per_group + j];
    }
    ConvGeometry sub = g;
    conv_contraction(sub, f_depth, per_group, in, grp * f_depth, f.data(), o.data());
    for (int64_t p = 0; p < pixels; ++p) {
      for (int64_t j = 0; j < per_group; ++j)
        out[p * out_depth + grp * per_group + j] = o[p * per_group + j];
    }
  }
  return false;
}

bool conv2d_backprop_input_f32(const ConvGeometry& g, int64_t out_depth, const float* filter,
                               const float* out_backprop, float* in_backprop) {
  const int64_t image = g.in_rows * g.in_cols * g.in_depth;
  const int64_t out_pixels = g.out_rows * g.out_cols, taps = g.f_rows * g.f_cols * g.in_depth;
  std::fill(in_backprop, in_backprop + g.batch * image, 0.0f);
  // TF's choice: one image, or each thread's share of a work unit at least L2 (256 KiB) of floats.
  const int64_t work_unit = out_pixels * out_depth + taps * out_depth + out_pixels * taps;
  const bool contraction = g.batch == 1 || work_unit / intra_op_threads() >= (256 << 10) / 4;
  std::vector<float> col(static_cast<size_t>(out_pixels * taps));
  bool exact = !contraction && onednn_isa() == OneDnnIsa::kAvx512Core;
  for (int64_t b = 0; b < g.batch; ++b) {
    const float* dy = out_backprop + b * out_pixels * out_depth;
    if (contraction) {
      eigen_contract(dy, false, filter, true, out_pixels, out_depth, taps, col.data(),
                     eigen_matmul_setting());
    } else if (onednn_isa() == OneDnnIsa::kAvx2) {
      onednn_avx2_matmul(dy, false, filter, true, out_pixels, out_depth, taps, col.data(), 1);
    } else {
      gemm_f32(dy, false, filter, true, out_pixels, out_depth, taps,
               tf_matmul_order(out_pixels, out_depth, taps, false, true), col.data());
    }
    // Col2im
    float* dx = in_backprop + b * image;
    const float* c = col.data();
    for (int64_t r = 0; r < g.out_rows; ++r) {
      for (int64_t cc = 0; cc < g.out_cols; ++cc) {
        for (int64_t kh = 0; kh < g.f_rows; ++kh) {
          const int64_t ir = r * g.stride_h - g.pad_top + kh;
          for (int64_t kw = 0; kw < g.f_cols; ++kw, c += g.in_depth) {
            const int64_t ic = cc * g.stride_w - g.pad_left + kw;
            if (ir < 0 || ir >= g.in_rows || ic < 0 || ic >= g.in_cols) continue;
            float* p = dx + (ir * g.in_cols + ic) * g.in_depth;
            for (int64_t d = 0; d < g.in_depth; ++d) p[d] += c[d];
          }
        }
      }
    }
  }
  return exact;
}

}  // namespace tfs::detail

// The window geometry TF 2.21's convolution and pooling ops share (kernels/ops_util and the
// shape functions' GetWindowedOutputSizeFromDimsV2): output sizes and padding for SAME, VALID and
// EXPLICIT padding, the attr checks, and the NodeDef-independent texts of their errors. Internal
// to src/ops (conv.cc, pool.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tfscope/op_def.h"

namespace tfs::detail {

enum class Padding : uint8_t { kSame, kValid, kExplicit };

// One NHWC window op's sizes, as its kernel computes them.
struct ConvGeometry {
  int64_t batch = 0, in_rows = 0, in_cols = 0, in_depth = 0;
  int64_t f_rows = 1, f_cols = 1;
  int64_t stride_h = 1, stride_w = 1, dil_h = 1, dil_w = 1;
  int64_t out_rows = 0, out_cols = 0;
  int64_t pad_top = 0, pad_left = 0;
  Padding padding = Padding::kValid;
};

// The "padding" attr (SAME, VALID or EXPLICIT; the op's own list of allowed values is checked by
// the front end, as TF's op_def_library does).
Padding padding_attr(const AttrMap& attrs);

// One spatial dim of a window: the output size and the padding before it.
struct WindowDim {
  int64_t out = 0;
  int64_t pad_before = 0;
};

// GetWindowedOutputSizeVerbose: nullopt with TF's kernel text in *error when the size would be
// negative or the stride is not positive. `explicit_before/after` count for kExplicit only.
std::optional<WindowDim> windowed_output(int64_t in, int64_t filter, int64_t dilation,
                                         int64_t stride, Padding padding, int64_t explicit_before,
                                         int64_t explicit_after, std::string* error);

// The shape functions' version: -1 for an unknown input; fails through `c` with TF's texts
// ("Stride must be > 0, but got 0", "Negative dimension size caused by subtracting 7 from 5").
int64_t windowed_output_dim(const InferenceContext& c, int64_t in, int64_t filter, int64_t dilation,
                            int64_t stride, Padding padding, int64_t explicit_before,
                            int64_t explicit_after);

// CheckValidPadding for NHWC: explicit_paddings has 2 values per dim (8) when padding is
// EXPLICIT, none otherwise; nonnegative; zero in the batch and depth dims. The text or nullopt.
std::optional<std::string> explicit_padding_error(Padding padding,
                                                  const std::vector<int64_t>& explicit_paddings);

}  // namespace tfs::detail

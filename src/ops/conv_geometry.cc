// Window geometry of TF 2.21's convolution and pooling ops (conv_geometry.h).
#include "conv_geometry.h"

#include <algorithm>

namespace tfs::detail {

Padding padding_attr(const AttrMap& attrs) {
  const std::string& p = attr_string(attrs, "padding");
  if (p == "SAME") return Padding::kSame;
  if (p == "VALID") return Padding::kValid;
  if (p == "EXPLICIT") return Padding::kExplicit;
  invalid_argument("[ops] padding must be SAME, VALID or EXPLICIT, got '" + p + "'");
}

std::optional<WindowDim> windowed_output(int64_t in, int64_t filter, int64_t dilation,
                                         int64_t stride, Padding padding, int64_t explicit_before,
                                         int64_t explicit_after, std::string* error) {
  if (stride <= 0) {
    *error = "Stride must be > 0, but got " + std::to_string(stride);
    return std::nullopt;
  }
  if (dilation < 1) {
    *error = "Dilation rate must be >= 1, but got " + std::to_string(dilation);
    return std::nullopt;
  }
  const int64_t effective = (filter - 1) * dilation + 1;
  WindowDim d;
  switch (padding) {
    case Padding::kValid:
      d.out = (in - effective + stride) / stride;
      break;
    case Padding::kExplicit:
      d.out = (in + explicit_before + explicit_after - effective + stride) / stride;
      d.pad_before = explicit_before;
      break;
    case Padding::kSame: {
      d.out = (in + stride - 1) / stride;
      const int64_t needed = std::max<int64_t>(0, (d.out - 1) * stride + effective - in);
      d.pad_before = needed / 2;
      break;
    }
  }
  // C++ division truncates: a negative numerator above -stride gives 0, as in TF.
  if (d.out < 0) {
    *error = "Computed output size would be negative: " + std::to_string(d.out) +
             " [input_size: " + std::to_string(in) +
             ", effective_filter_size: " + std::to_string(effective) +
             ", stride: " + std::to_string(stride) + "]";
    return std::nullopt;
  }
  return d;
}

int64_t windowed_output_dim(const InferenceContext& c, int64_t in, int64_t filter, int64_t dilation,
                            int64_t stride, Padding padding, int64_t explicit_before,
                            int64_t explicit_after) {
  if (stride <= 0) c.fail("Stride must be > 0, but got " + std::to_string(stride));
  if (dilation <= 0) c.fail("Dilation must be > 0, but got " + std::to_string(dilation));
  if (in < 0 || filter < 0) return -1;
  const int64_t effective = (filter - 1) * dilation + 1;
  switch (padding) {
    case Padding::kSame:
      return (in + stride - 1) / stride;
    case Padding::kValid:
    case Padding::kExplicit: {
      const int64_t padded =
          padding == Padding::kExplicit ? in + explicit_before + explicit_after : in;
      if (padded < effective) {
        c.fail("Negative dimension size caused by subtracting " + std::to_string(effective) +
               " from " + std::to_string(padded));
      }
      return (padded - effective + stride) / stride;
    }
  }
  return -1;
}

std::optional<std::string> explicit_padding_error(Padding padding,
                                                  const std::vector<int64_t>& explicit_paddings) {
  if (padding != Padding::kExplicit) {
    if (!explicit_paddings.empty()) {
      return std::string(
          "explicit_paddings attribute must be empty if the padding attribute is "
          "not EXPLICIT");
    }
    return std::nullopt;
  }
  if (explicit_paddings.size() != 8) {
    return "explicit_paddings attribute must contain 8 values, but got: " +
           std::to_string(explicit_paddings.size());
  }
  for (int64_t p : explicit_paddings) {
    if (p < 0) return std::string("All elements of explicit_paddings must be nonnegative");
  }
  if (explicit_paddings[0] != 0 || explicit_paddings[1] != 0 || explicit_paddings[6] != 0 ||
      explicit_paddings[7] != 0) {
    return std::string(
        "Nonzero explicit padding in the batch or depth dimensions is not supported");
  }
  return std::nullopt;
}

}  // namespace tfs::detail

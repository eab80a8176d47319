// Front-end functions for convolution and pooling (NHWC), as TF 2.21's Python functions build
// them: tf.nn.conv2d, conv1d, depthwise_conv2d, conv2d_transpose, max_pool2d and avg_pool2d,
// with their name scopes and node names. Strides, ksize and dilations come already expanded to
// TF's 4-value attr lists (the Python layer does that with TF's texts); `padding` is "SAME",
// "VALID" or "EXPLICIT" with 8 explicit_paddings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tfscope/tensor.h"
#include "tfscope/value.h"

namespace tfs {

struct ConvAttrs {
  std::vector<int64_t> strides{1, 1, 1, 1};
  std::string padding = "VALID";
  std::vector<int64_t> explicit_paddings{};
  std::vector<int64_t> dilations{1, 1, 1, 1};
};

// Conv2D named "Conv2D" (or `name`), its operands converted as "Conv2D/input", "Conv2D/filter".
Tensor conv2d(const Value& input, const Value& filters, const ConvAttrs& a,
              const std::string& name = "");
// In a "conv1d" scope: ExpandDims(input, -3), ExpandDims(filters, 0), Conv2D "conv1d" with
// strides [1, 1, stride, 1], Squeeze(axis -3). `a` holds the 4-value attrs.
Tensor conv1d(const Value& input, const Value& filters, const ConvAttrs& a);
// In a "depthwise" scope: the filter's shape and the dilation rate (as TF computes them for
// with_space_to_batch), then DepthwiseConv2dNative "depthwise". Dilations other than 1 are not
// supported (TF builds SpaceToBatchND around the op).
Tensor depthwise_conv2d(const Value& input, const Value& filter, const ConvAttrs& a);
// In a "conv2d_transpose" scope: Conv2DBackpropInput(output_shape, filters, input).
Tensor conv2d_transpose(const Value& input, const Value& filters, const Value& output_shape,
                        const ConvAttrs& a);
// MaxPool named "MaxPool2d" and AvgPool named "AvgPool2D" (their scopes, or `name`'s), ksize and
// strides of 4 values.
Tensor max_pool2d(const Value& input, const std::vector<int64_t>& ksize,
                  const std::vector<int64_t>& strides, const std::string& padding,
                  const std::vector<int64_t>& explicit_paddings = {}, const std::string& name = "");
Tensor avg_pool2d(const Value& input, const std::vector<int64_t>& ksize,
                  const std::vector<int64_t>& strides, const std::string& padding,
                  const std::string& name = "");

}  // namespace tfs

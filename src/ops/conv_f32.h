// TF 2.21's float32 Conv2D on the machine tfscope runs on. Without oneDNN
// (TF_ENABLE_ONEDNN_OPTS=0, and TF's default on CPUs without AVX512_VNNI, AVX512_BF16, AVX_VNNI
// or AMX) TF runs conv_ops_impl.h's LaunchGeneric: a 1x1 filter with stride 1 (SAME or VALID) is
// a contraction of the input as an (N*H*W) x C matrix with the filter; a filter as large as the
// input, VALID, undilated, a contraction of each image as one row; anything else Eigen's
// SpatialConvolution, the contraction of the extracted patches (rows (kh, kw, c)) with the
// filter. All three go through Eigen's thread-pool contraction with TF's oneDNN block kernel,
// which eigen_matmul.h sums in TF's order. With oneDNN, TF runs _MklNativeConv2D (oneDNN's own
// convolution, another order): tfscope computes the same contraction, within the rounding bound
// of the exact sum, and does not claim the bits. Internal to src/ops.
#pragma once

#include <cstdint>

#include "conv_geometry.h"

namespace tfs::detail {

// out (N x OH x OW x out_depth) of in (NHWC) with filter (KH x KW x f_depth x out_depth);
// in_depth / f_depth groups. Returns whether the bits are TF's.
bool conv2d_f32(const ConvGeometry& g, int64_t f_depth, int64_t out_depth, const float* in,
                const float* filter, float* out);

// in_backprop (NHWC, g's input) of Conv2DBackpropInput, as TF's Conv2DCustomBackpropInputOp
// computes it: per image, the im2col matrix (out pixels x (kh, kw, channel)) = out_backprop
// (out pixels x out_depth) times the filter transposed, then Col2im adds each window's row into
// the image, windows in row-major order, from 0. The product is Eigen's contraction for one image
// or a large work unit per thread, else oneDNN's sgemm on the whole image (TF's shards).
// Returns whether the bits are TF's (the sgemm shards with oneDNN's AVX-512 kernels, measured).
bool conv2d_backprop_input_f32(const ConvGeometry& g, int64_t out_depth, const float* filter,
                               const float* out_backprop, float* in_backprop);

// The patches of SpatialConvolution: row (b, r, c), columns (kh, kw, channel in
// [first, first + depth)), zero outside the image.
void extract_patches(const ConvGeometry& g, const float* in, int64_t first, int64_t depth,
                     float* patches);

}  // namespace tfs::detail

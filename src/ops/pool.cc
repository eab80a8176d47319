// Pooling: MaxPool and AvgPool (tf.nn.max_pool2d, tf.nn.avg_pool2d), NHWC, as TF 2.21's CPU
// kernels compute them (pooling_ops_common.h):
//  - MaxPool starts each output at the type's lowest value (so a window of -inf gives
//    -3.4028235e38) and takes the max of every input of its window.
//  - AvgPool (SpatialAvgPool) adds the inputs into their windows' sums in the input's row-major
//    order, from 0, and divides each sum by the number of inputs the window held (padding is
//    not counted).
// oneDNN's pooling (TF's _MklMaxPool / _MklAvgPool) gives the same values: a max, and a sum
// over the window in the same order divided by the same count.
#include <limits>
#include <type_traits>

#include "conv_geometry.h"
#include "kernel_util.h"
#include "tfscope/cpu_info.h"
#include "tfscope/ops.h"

namespace tfs {
namespace detail {
void anchor_pool_ops() {}
}  // namespace detail

namespace {

using detail::ConvGeometry;
using detail::dims_text;
using detail::Padding;

const std::vector<DType> kMaxPoolTypes = {DType::kFloat32, DType::kFloat64, DType::kInt32,
                                          DType::kInt64,   DType::kUInt8,   DType::kInt16,
                                          DType::kInt8};

std::vector<int64_t> explicit_paddings_of(const AttrMap& a) {
  return a.count("explicit_paddings") ? attr_ints(a, "explicit_paddings") : std::vector<int64_t>{};
}

// MaxPoolShape / AvgPoolShape (NHWC): batch and depth pass through.
void pool_shape(InferenceContext& c, const std::string& op) {
  const PartialShape& in = c.in(0);
  detail::with_rank(c, in, 4);
  const auto& strides = attr_ints(*c.attrs, "strides");
  const auto& ksize = attr_ints(*c.attrs, "ksize");
  if (strides.size() != 4) {
    c.fail(op + " requires the stride attribute to contain 4 values, but got: " +
           std::to_string(strides.size()));
  }
  if (ksize.size() != 4) {
    c.fail(op + " requires the ksize attribute to contain 4 values, but got: " +
           std::to_string(ksize.size()));
  }
  const Padding padding = detail::padding_attr(*c.attrs);
  const std::vector<int64_t> pads = explicit_paddings_of(*c.attrs);
  if (auto e = detail::explicit_padding_error(padding, pads)) c.fail(*e);
  auto pad = [&](int i) { return padding == Padding::kExplicit ? pads[i] : 0; };
  auto dim = [&](int i) { return in.has_rank() ? in.dim(i) : -1; };
  const int64_t rows =
      detail::windowed_output_dim(c, dim(1), ksize[1], 1, strides[1], padding, pad(2), pad(3));
  const int64_t cols =
      detail::windowed_output_dim(c, dim(2), ksize[2], 1, strides[2], padding, pad(4), pad(5));
  c.set_output(0, PartialShape({dim(0), rows, cols, dim(3)}));
}

ConvGeometry pool_geometry(OpKernelContext& ctx) {
  const AttrMap& a = *ctx.attrs;
  const auto& ksize = attr_ints(a, "ksize");
  const auto& strides = attr_ints(a, "strides");
  if (ksize.size() != 4) ctx.fail("Sliding window ksize field must specify 4 dimensions");
  if (strides.size() != 4) ctx.fail("Sliding window stride field must specify 4 dimensions");
  if (ksize[0] != 1 || strides[0] != 1) {
    throw Error(ErrorKind::kUnimplemented, "Pooling is not yet supported on the batch dimension.");
  }
  for (int64_t k : ksize) {
    if (k <= 0) {
      ctx.fail("Sliding window ksize must be positive. The specified or inferred ksize is: " +
               std::to_string(ksize[0]) + "," + std::to_string(ksize[1]) + "," +
               std::to_string(ksize[2]) + "," + std::to_string(ksize[3]));
    }
  }
  if (ksize[3] != 1 || strides[3] != 1) {
    throw Error(ErrorKind::kUnimplemented, "[ops] pooling over the depth dimension");
  }
  const Padding padding = detail::padding_attr(a);
  const std::vector<int64_t> pads = explicit_paddings_of(a);
  if (auto e = detail::explicit_padding_error(padding, pads)) ctx.fail(*e);
  const Shape& in = ctx.input(0).eager_shape();
  if (in.rank() != 4) {
    // TF's oneDNN pooling (float32 with oneDNN on; MaxPool too, under its own name) says it so.
    if (detail::tf_runs_onednn(ctx.input(0).dtype()) && in.rank() != 5)
      ctx.fail("Input must be 4 or 5-dimensional");
    ctx.fail("tensor_in_shape must have 2 spatial dimensions. " + std::to_string(in.rank()) + " 0");
  }
  ConvGeometry g;
  g.batch = in.dim(0), g.in_rows = in.dim(1), g.in_cols = in.dim(2), g.in_depth = in.dim(3);
  g.f_rows = ksize[1], g.f_cols = ksize[2], g.stride_h = strides[1], g.stride_w = strides[2];
  g.padding = padding;
  auto pad = [&](int i) { return padding == Padding::kExplicit ? pads[i] : 0; };
  std::string error;
  auto rows =
      detail::windowed_output(g.in_rows, g.f_rows, 1, g.stride_h, padding, pad(2), pad(3), &error);
  if (!rows) ctx.fail(error);
  auto cols =
      detail::windowed_output(g.in_cols, g.f_cols, 1, g.stride_w, padding, pad(4), pad(5), &error);
  if (!cols) ctx.fail(error);
  g.out_rows = rows->out, g.pad_top = rows->pad_before;
  g.out_cols = cols->out, g.pad_left = cols->pad_before;
  return g;
}

// Calls f(input pixel, output pixel) for each input pixel of each window, in the input's
// row-major order (SpatialAvgPool's and SpatialMaxPool's loop); pixels are NHW offsets.
template <typename F>
void for_each_window_input(const ConvGeometry& g, F&& f) {
  for (int64_t b = 0; b < g.batch; ++b) {
    for (int64_t h = 0; h < g.in_rows; ++h) {
      const int64_t hp = h + g.pad_top;
      const int64_t h0 = hp < g.f_rows ? 0 : (hp - g.f_rows) / g.stride_h + 1;
      const int64_t h1 = std::min(hp / g.stride_h + 1, g.out_rows);
      for (int64_t w = 0; w < g.in_cols; ++w) {
        const int64_t wp = w + g.pad_left;
        const int64_t w0 = wp < g.f_cols ? 0 : (wp - g.f_cols) / g.stride_w + 1;
        const int64_t w1 = std::min(wp / g.stride_w + 1, g.out_cols);
        const int64_t in_pixel = (b * g.in_rows + h) * g.in_cols + w;
        for (int64_t ph = h0; ph < h1; ++ph) {
          for (int64_t pw = w0; pw < w1; ++pw) f(in_pixel, (b * g.out_rows + ph) * g.out_cols + pw);
        }
      }
    }
  }
}

template <typename T>
void max_pool(const ConvGeometry& g, const T* in, T* out) {
  const int64_t d = g.in_depth;
  std::fill(out, out + g.batch * g.out_rows * g.out_cols * d, std::numeric_limits<T>::lowest());
  for_each_window_input(g, [&](int64_t ip, int64_t op) {
    const T* x = in + ip * d;
    T* y = out + op * d;
    for (int64_t c = 0; c < d; ++c) y[c] = y[c] < x[c] ? x[c] : y[c];
  });
}

template <typename T>
void avg_pool(const ConvGeometry& g, const T* in, T* out) {
  const int64_t d = g.in_depth, pixels = g.batch * g.out_rows * g.out_cols;
  std::fill(out, out + pixels * d, T(0));
  std::vector<T> count(static_cast<size_t>(pixels), T(0));
  for_each_window_input(g, [&](int64_t ip, int64_t op) {
    const T* x = in + ip * d;
    T* y = out + op * d;
    for (int64_t c = 0; c < d; ++c) y[c] += x[c];
    count[static_cast<size_t>(op)] += T(1);
  });
  for (int64_t p = 0; p < pixels; ++p) {
    for (int64_t c = 0; c < d; ++c) out[p * d + c] /= count[static_cast<size_t>(p)];
  }
}

OpRegistration r_max_pool([] {
  OpDef d;
  d.name = "MaxPool";
  d.inputs = {{"input", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", kMaxPoolTypes, DType::kFloat32}};
  d.shape_fn = [](InferenceContext& c) { pool_shape(c, "MaxPool"); };
  d.kernel = [](OpKernelContext& ctx) {
    const ConvGeometry g = pool_geometry(ctx);
    const Tensor& x = ctx.input(0);
    Tensor& out =
        ctx.allocate_output(0, x.dtype(), Shape{g.batch, g.out_rows, g.out_cols, g.in_depth});
    if (out.num_elements() == 0) return;
    visit_dtype(x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
        max_pool(g, x.data<T>(), out.data<T>());
      } else {
        ctx.fail("[ops] MaxPool of " + std::string(dtype_name(x.dtype())));
      }
    });
  };
  return d;
}());

OpRegistration r_avg_pool([] {
  OpDef d;
  d.name = "AvgPool";
  d.inputs = {{"value", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", detail::kFloatTypes}};
  d.shape_fn = [](InferenceContext& c) { pool_shape(c, "AvgPool"); };
  d.kernel = [](OpKernelContext& ctx) {
    const ConvGeometry g = pool_geometry(ctx);
    const Tensor& x = ctx.input(0);
    Tensor& out =
        ctx.allocate_output(0, x.dtype(), Shape{g.batch, g.out_rows, g.out_cols, g.in_depth});
    if (out.num_elements() == 0) return;
    if (x.dtype() == DType::kFloat32) {
      avg_pool(g, x.data<float>(), out.data<float>());
    } else {
      avg_pool(g, x.data<double>(), out.data<double>());
    }
  };
  return d;
}());

}  // namespace
}  // namespace tfs

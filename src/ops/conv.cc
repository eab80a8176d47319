// Convolutions: Conv2D, DepthwiseConv2dNative and Conv2DBackpropInput (tf.nn.conv2d, conv1d,
// depthwise_conv2d, conv2d_transpose), NHWC, as TF 2.21 defines them: attrs, shape functions and
// the kernels' checks with TF's texts. The float32 sums are conv_f32.h's; other dtypes sum in the
// plain order (kh, kw, channel), integers wrapping as TF's do.
#include <type_traits>

#include "conv_f32.h"
#include "conv_geometry.h"
#include "kernel_util.h"
#include "tfscope/cpu_info.h"
#include "tfscope/ops.h"

namespace tfs {
namespace detail {
void anchor_conv_ops() {}
}  // namespace detail

namespace {

using detail::ConvGeometry;
using detail::dims_text;
using detail::Padding;

const std::vector<DType> kConvTypes = {DType::kFloat32, DType::kFloat64, DType::kInt32};

// The strides and dilations attrs of an NHWC op, with the shape function's checks.
struct WindowAttrs {
  int64_t stride_h = 1, stride_w = 1, dil_h = 1, dil_w = 1;
  Padding padding = Padding::kValid;
  std::vector<int64_t> explicit_paddings;
  int64_t pad(int i) const { return padding == Padding::kExplicit ? explicit_paddings[i] : 0; }
};

WindowAttrs window_attrs(const AttrMap& a, const std::string& op,
                         const std::function<void(const std::string&)>& fail) {
  WindowAttrs w;
  const auto& strides = attr_ints(a, "strides");
  if (strides.size() != 4) {
    fail(op + " requires the stride attribute to contain 4 values, but got: " +
         std::to_string(strides.size()));
  }
  std::vector<int64_t> dilations =
      a.count("dilations") ? attr_ints(a, "dilations") : std::vector<int64_t>{1, 1, 1, 1};
  if (dilations.size() != 4) {
    fail(op + " requires the dilation attribute to contain 4 values, but got: " +
         std::to_string(dilations.size()));
  }
  w.stride_h = strides[1], w.stride_w = strides[2];
  w.dil_h = dilations[1], w.dil_w = dilations[2];
  w.padding = detail::padding_attr(a);
  if (a.count("explicit_paddings")) w.explicit_paddings = attr_ints(a, "explicit_paddings");
  return w;
}

int64_t dim_or_unknown(const PartialShape& s, int i) {
  return s.has_rank() ? s.dim(i) : -1;
}

// Conv2DShapeImpl (NHWC), for Conv2D (groups allowed) and DepthwiseConv2dNative.
void conv_shape(InferenceContext& c, bool depthwise) {
  const PartialShape &in = c.in(0), &filter = c.in(1);
  detail::with_rank(c, in, 4);
  detail::with_rank(c, filter, 4);
  auto fail = [&](const std::string& m) { c.fail(m); };
  const WindowAttrs w = window_attrs(*c.attrs, depthwise ? "DepthwiseConv2D" : "Conv2D", fail);
  const int64_t batch = dim_or_unknown(in, 0), in_rows = dim_or_unknown(in, 1),
                in_cols = dim_or_unknown(in, 2), in_depth = dim_or_unknown(in, 3);
  const int64_t f_rows = dim_or_unknown(filter, 0), f_cols = dim_or_unknown(filter, 1),
                f_depth = dim_or_unknown(filter, 2), f_out = dim_or_unknown(filter, 3);
  int64_t out_depth = f_out;
  if (depthwise) {
    if (in_depth >= 0 && f_depth >= 0 && in_depth != f_depth) {
      c.fail("Dimensions must be equal, but are " + std::to_string(in_depth) + " and " +
             std::to_string(f_depth));
    }
    const int64_t depth = in_depth >= 0 ? in_depth : f_depth;
    out_depth = depth >= 0 && f_out >= 0 ? depth * f_out : -1;
  } else if (in_depth >= 0 && f_depth > 0) {
    if (in_depth % f_depth != 0) {
      c.fail("Depth of input (" + std::to_string(in_depth) +
             ") is not a multiple of input depth of filter (" + std::to_string(f_depth) + ")");
    }
    const int64_t groups = in_depth / f_depth;
    if (f_out >= 0 && f_out % groups != 0) {
      c.fail("Depth of output (" + std::to_string(f_out) +
             ") is not a multiple of the number of groups (" + std::to_string(groups) + ")");
    }
  }
  if (auto e = detail::explicit_padding_error(w.padding, w.explicit_paddings)) c.fail(*e);
  const int64_t out_rows = detail::windowed_output_dim(c, in_rows, f_rows, w.dil_h, w.stride_h,
                                                       w.padding, w.pad(2), w.pad(3));
  const int64_t out_cols = detail::windowed_output_dim(c, in_cols, f_cols, w.dil_w, w.stride_w,
                                                       w.padding, w.pad(4), w.pad(5));
  c.set_output(0, PartialShape({batch, out_rows, out_cols, out_depth}));
}

// The kernel's geometry of an NHWC window op over `in` with a filter of f_rows x f_cols.
ConvGeometry kernel_geometry(OpKernelContext& ctx, const WindowAttrs& w, const Shape& in,
                             int64_t f_rows, int64_t f_cols) {
  ConvGeometry g;
  g.batch = in.dim(0), g.in_rows = in.dim(1), g.in_cols = in.dim(2), g.in_depth = in.dim(3);
  g.f_rows = f_rows, g.f_cols = f_cols;
  g.stride_h = w.stride_h, g.stride_w = w.stride_w, g.dil_h = w.dil_h, g.dil_w = w.dil_w;
  g.padding = w.padding;
  std::string error;
  auto rows = detail::windowed_output(g.in_rows, f_rows, w.dil_h, w.stride_h, w.padding, w.pad(2),
                                      w.pad(3), &error);
  if (!rows) ctx.fail(error);
  auto cols = detail::windowed_output(g.in_cols, f_cols, w.dil_w, w.stride_w, w.padding, w.pad(4),
                                      w.pad(5), &error);
  if (!cols) ctx.fail(error);
  g.out_rows = rows->out, g.pad_top = rows->pad_before;
  g.out_cols = cols->out, g.pad_left = cols->pad_before;
  return g;
}

// The checks TF's kernels make of strides, dilations and padding when they are built.
WindowAttrs kernel_window_attrs(OpKernelContext& ctx, bool dilations_checked) {
  auto fail = [&](const std::string& m) { ctx.fail(m); };
  const AttrMap& a = *ctx.attrs;
  const auto& strides = attr_ints(a, "strides");
  if (strides.size() != 4) ctx.fail("Sliding window strides field must specify 4 dimensions");
  if (strides[0] != 1 || strides[3] != 1) {
    ctx.fail(
        "Current implementation does not yet support strides in the batch and depth "
        "dimensions.");
  }
  if (strides[1] <= 0 || strides[2] <= 0) {
    ctx.fail("Row and column strides should be larger than 0.");
  }
  WindowAttrs w = window_attrs(a, *ctx.op_name, fail);
  if (dilations_checked) {
    const auto& d = attr_ints(a, "dilations");
    if (d[0] != 1 || d[3] != 1) {
      ctx.fail(
          "Current implementation does not yet support dilations in the batch and depth "
          "dimensions.");
    }
    if (d[1] <= 0 || d[2] <= 0) ctx.fail("Dilated rates should be larger than 0.");
  }
  if (auto e = detail::explicit_padding_error(w.padding, w.explicit_paddings)) ctx.fail(*e);
  return w;
}

template <typename T>
T mul_add(T acc, T x, T f) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(acc) + static_cast<U>(x) * static_cast<U>(f));
  } else {
    return acc + x * f;
  }
}

// The reference convolution: out[b, r, c, o] = sum over (kh, kw, channel of o's group).
template <typename T>
void conv_reference(const ConvGeometry& g, int64_t f_depth, int64_t out_depth, const T* in,
                    const T* filter, T* out) {
  const int64_t per_group = out_depth / (g.in_depth / f_depth);
  for (int64_t b = 0; b < g.batch; ++b) {
    for (int64_t r = 0; r < g.out_rows; ++r) {
      for (int64_t c = 0; c < g.out_cols; ++c) {
        T* o = out + ((b * g.out_rows + r) * g.out_cols + c) * out_depth;
        for (int64_t oc = 0; oc < out_depth; ++oc) {
          const int64_t base = oc / per_group * f_depth;
          T acc = T(0);
          for (int64_t kh = 0; kh < g.f_rows; ++kh) {
            const int64_t ir = r * g.stride_h - g.pad_top + kh * g.dil_h;
            if (ir < 0 || ir >= g.in_rows) continue;
            for (int64_t kw = 0; kw < g.f_cols; ++kw) {
              const int64_t ic = c * g.stride_w - g.pad_left + kw * g.dil_w;
              if (ic < 0 || ic >= g.in_cols) continue;
              const T* x = in + ((b * g.in_rows + ir) * g.in_cols + ic) * g.in_depth + base;
              const T* f = filter + (kh * g.f_cols + kw) * f_depth * out_depth + oc;
              for (int64_t d = 0; d < f_depth; ++d) acc = mul_add(acc, x[d], f[d * out_depth]);
            }
          }
          o[oc] = acc;
        }
      }
    }
  }
}

OpRegistration r_conv2d([] {
  OpDef d;
  d.name = "Conv2D";
  d.inputs = {{"input", "T"}, {"filter", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", kConvTypes}};
  d.shape_fn = [](InferenceContext& c) { conv_shape(c, false); };
  d.kernel = [](OpKernelContext& ctx) {
    const WindowAttrs w = kernel_window_attrs(ctx, true);
    const Tensor &x = ctx.input(0), &f = ctx.input(1);
    const Shape &xs = x.eager_shape(), &fs = f.eager_shape();
    if (xs.rank() != 4) ctx.fail("convolution input must be 4-dimensional: " + dims_text(xs));
    if (fs.rank() != 4) ctx.fail("convolution filter must be 4-dimensional: " + dims_text(fs));
    if (fs.dim(2) <= 0 || xs.dim(3) % fs.dim(2) != 0) {
      ctx.fail("input depth must be evenly divisible by filter depth: " +
               std::to_string(xs.dim(3)) + " vs " + std::to_string(fs.dim(2)));
    }
    const int64_t groups = xs.dim(3) / fs.dim(2);
    if (fs.dim(3) % groups != 0) {
      ctx.fail("output depth must be evenly divisible by number of groups: " +
               std::to_string(fs.dim(3)) + " vs " + std::to_string(groups));
    }
    ConvGeometry g = kernel_geometry(ctx, w, xs, fs.dim(0), fs.dim(1));
    Tensor& out =
        ctx.allocate_output(0, x.dtype(), Shape{g.batch, g.out_rows, g.out_cols, fs.dim(3)});
    if (out.num_elements() == 0) return;
    switch (x.dtype()) {
      case DType::kFloat32:
        detail::conv2d_f32(g, fs.dim(2), fs.dim(3), x.data<float>(), f.data<float>(),
                           out.data<float>());
        break;
      case DType::kFloat64:
        conv_reference(g, fs.dim(2), fs.dim(3), x.data<double>(), f.data<double>(),
                       out.data<double>());
        break;
      default:
        conv_reference(g, fs.dim(2), fs.dim(3), x.data<int32_t>(), f.data<int32_t>(),
                       out.data<int32_t>());
    }
  };
  return d;
}());

// out[b, r, c, ch * m + j] = sum over (kh, kw) of in[.., ch] * filter[kh, kw, ch, j].
template <typename T>
void depthwise_reference(const ConvGeometry& g, int64_t multiplier, const T* in, const T* filter,
                         T* out) {
  const int64_t out_depth = g.in_depth * multiplier;
  for (int64_t b = 0; b < g.batch; ++b) {
    for (int64_t r = 0; r < g.out_rows; ++r) {
      for (int64_t c = 0; c < g.out_cols; ++c) {
        T* o = out + ((b * g.out_rows + r) * g.out_cols + c) * out_depth;
        for (int64_t oc = 0; oc < out_depth; ++oc) {
          const int64_t ch = oc / multiplier;
          // TF's kernel copies the window (zeros outside the image) and sums every position:
          // acc = 0 + x0 f0 + x1 f1 + ..., each product and sum rounded (no FMA in TF's wheel).
          T acc = T(0);
          for (int64_t kh = 0; kh < g.f_rows; ++kh) {
            const int64_t ir = r * g.stride_h - g.pad_top + kh * g.dil_h;
            for (int64_t kw = 0; kw < g.f_cols; ++kw) {
              const int64_t ic = c * g.stride_w - g.pad_left + kw * g.dil_w;
              const bool inside = ir >= 0 && ir < g.in_rows && ic >= 0 && ic < g.in_cols;
              const T x =
                  inside ? in[((b * g.in_rows + ir) * g.in_cols + ic) * g.in_depth + ch] : T(0);
              acc = mul_add(acc, x, filter[(kh * g.f_cols + kw) * out_depth + oc]);
            }
          }
          o[oc] = acc;
        }
      }
    }
  }
}

OpRegistration r_depthwise([] {
  OpDef d;
  d.name = "DepthwiseConv2dNative";
  d.inputs = {{"input", "T"}, {"filter", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", detail::kFloatTypes}};
  d.shape_fn = [](InferenceContext& c) { conv_shape(c, true); };
  d.kernel = [](OpKernelContext& ctx) {
    const WindowAttrs w = kernel_window_attrs(ctx, false);
    const Tensor &x = ctx.input(0), &f = ctx.input(1);
    const Shape &xs = x.eager_shape(), &fs = f.eager_shape();
    if (xs.rank() != 4) ctx.fail("input must be 4-dimensional" + dims_text(xs));
    if (fs.rank() != 4) ctx.fail("filter must be 4-dimensional: " + dims_text(fs));
    if (xs.dim(3) != fs.dim(2)) {
      const bool onednn = detail::tf_runs_onednn(x.dtype());  // its own text
      ctx.fail(std::string(onednn ? "input depth must be evenly divisible by filter depth: "
                                  : "input and filter must have the same depth: ") +
               std::to_string(xs.dim(3)) + " vs " + std::to_string(fs.dim(2)));
    }
    ConvGeometry g = kernel_geometry(ctx, w, xs, fs.dim(0), fs.dim(1));
    const int64_t out_depth = xs.dim(3) * fs.dim(3);
    Tensor& out =
        ctx.allocate_output(0, x.dtype(), Shape{g.batch, g.out_rows, g.out_cols, out_depth});
    if (out.num_elements() == 0) return;
    if (x.dtype() == DType::kFloat32) {
      depthwise_reference(g, fs.dim(3), x.data<float>(), f.data<float>(), out.data<float>());
    } else {
      depthwise_reference(g, fs.dim(3), x.data<double>(), f.data<double>(), out.data<double>());
    }
  };
  return d;
}());

// in_backprop[b, ir, ic, d] = sum over the outputs (r, c) whose window holds (ir, ic), in
// row-major order, of sum over o of out_backprop[b, r, c, o] * filter[kh, kw, d, o]: the
// im2col product then TF's Col2im, which adds each window's column into the image.
template <typename T>
void backprop_input_reference(const ConvGeometry& g, int64_t out_depth, const T* filter,
                              const T* out_backprop, T* in_backprop) {
  std::fill(in_backprop, in_backprop + g.batch * g.in_rows * g.in_cols * g.in_depth, T(0));
  for (int64_t b = 0; b < g.batch; ++b) {
    for (int64_t r = 0; r < g.out_rows; ++r) {
      for (int64_t c = 0; c < g.out_cols; ++c) {
        const T* dy = out_backprop + ((b * g.out_rows + r) * g.out_cols + c) * out_depth;
        for (int64_t kh = 0; kh < g.f_rows; ++kh) {
          const int64_t ir = r * g.stride_h - g.pad_top + kh * g.dil_h;
          for (int64_t kw = 0; kw < g.f_cols; ++kw) {
            const int64_t ic = c * g.stride_w - g.pad_left + kw * g.dil_w;
            if (ir < 0 || ir >= g.in_rows || ic < 0 || ic >= g.in_cols) continue;
            T* dx = in_backprop + ((b * g.in_rows + ir) * g.in_cols + ic) * g.in_depth;
            const T* f = filter + (kh * g.f_cols + kw) * g.in_depth * out_depth;
            for (int64_t d = 0; d < g.in_depth; ++d) {
              T acc = T(0);
              for (int64_t o = 0; o < out_depth; ++o)
                acc = mul_add(acc, dy[o], f[d * out_depth + o]);
              dx[d] = static_cast<T>(dx[d] + acc);
            }
          }
        }
      }
    }
  }
}

// Conv2DBackpropInputShape: the output is the input_sizes value (a 4-vector, or 2 spatial dims).
void backprop_input_shape(InferenceContext& c) {
  const PartialShape& sizes = c.in(0);
  detail::with_rank(c, sizes, 1);
  const PartialShape &filter = c.in(1), &dy = c.in(2);
  detail::with_rank(c, filter, 4);
  detail::with_rank(c, dy, 4);
  const int64_t f_out = dim_or_unknown(filter, 3), dy_depth = dim_or_unknown(dy, 3);
  if (f_out >= 0 && dy_depth >= 0 && f_out != dy_depth) {
    c.fail("Dimensions must be equal, but are " + std::to_string(dy_depth) + " and " +
           std::to_string(f_out));
  }
  const int64_t n = sizes.has_rank() ? sizes.dim(0) : -1;
  if (n >= 0 && n != 4 && n != 2) {
    c.fail("Conv2DBackpropInput requires input_sizes to contain 4 values or 2 values, but got: " +
           std::to_string(n));
  }
  PartialShape out = detail::shape_from_shape_tensor(c, 0);
  if (n == 2 || !out.has_rank()) {
    const PartialShape spatial = out;
    out = PartialShape({dim_or_unknown(dy, 0), spatial.has_rank() ? spatial.dim(0) : -1,
                        spatial.has_rank() ? spatial.dim(1) : -1, dim_or_unknown(filter, 2)});
  }
  c.set_output(0, out);
}

OpRegistration r_conv2d_backprop_input([] {
  OpDef d;
  d.name = "Conv2DBackpropInput";
  d.inputs = {{"input_sizes", "", DType::kInt32}, {"filter", "T"}, {"out_backprop", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", kConvTypes}};
  d.shape_fn = backprop_input_shape;
  d.kernel = [](OpKernelContext& ctx) {
    const WindowAttrs w = kernel_window_attrs(ctx, true);
    if (w.dil_h != 1 || w.dil_w != 1) {
      ctx.fail("Current CPU implementations do not yet support dilation rates larger than 1.");
    }
    const Tensor &sizes = ctx.input(0), &f = ctx.input(1), &dy = ctx.input(2);
    std::vector<int64_t> dims = detail::tensor_ints(sizes);
    const Shape &fs = f.eager_shape(), &dys = dy.eager_shape();
    if (fs.rank() != 4 || dys.rank() != 4) {
      ctx.fail("Conv2DCustomBackpropInput: filter and out_backprop must be 4-dimensional");
    }
    if (dims.size() == 2) dims = {dys.dim(0), dims[0], dims[1], fs.dim(2)};
    if (dims.size() != 4) {
      ctx.fail("Conv2DCustomBackpropInput: input_sizes input must be 1-dim, not " +
               std::to_string(dims.size()));
    }
    const Shape xs = detail::make_shape(ctx, dims);
    if (xs.dim(3) != fs.dim(2)) {
      ctx.fail("Conv2DCustomBackpropInput: input and filter must have the same depth: " +
               std::to_string(xs.dim(3)) + " vs " + std::to_string(fs.dim(2)));
    }
    if (fs.dim(3) != dys.dim(3)) {
      ctx.fail("Conv2DCustomBackpropInput: filter and out_backprop must have the same out_depth");
    }
    ConvGeometry g = kernel_geometry(ctx, w, xs, fs.dim(0), fs.dim(1));
    if (g.out_rows != dys.dim(1) || g.out_cols != dys.dim(2) || xs.dim(0) != dys.dim(0)) {
      ctx.fail("Conv2DCustomBackpropInput: Size of out_backprop doesn't match computed: actual = " +
               std::to_string(dys.dim(1)) + ", computed = " + std::to_string(g.out_rows) +
               " spatial_dim: 1 input: " + std::to_string(xs.dim(1)) +
               " filter: " + std::to_string(fs.dim(0)) + " output: " + std::to_string(dys.dim(1)) +
               " stride: " + std::to_string(w.stride_h) + " dilation: " + std::to_string(w.dil_h));
    }
    Tensor& out = ctx.allocate_output(0, dy.dtype(), xs);
    if (out.num_elements() == 0) return;
    switch (dy.dtype()) {
      case DType::kFloat32:
        detail::conv2d_backprop_input_f32(g, fs.dim(3), f.data<float>(), dy.data<float>(),
                                          out.data<float>());
        break;
      case DType::kFloat64:
        backprop_input_reference(g, fs.dim(3), f.data<double>(), dy.data<double>(),
                                 out.data<double>());
        break;
      default:
        backprop_input_reference(g, fs.dim(3), f.data<int32_t>(), dy.data<int32_t>(),
                                 out.data<int32_t>());
    }
  };
  return d;
}());

}  // namespace
}  // namespace tfs

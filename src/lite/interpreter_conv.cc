// The interpreter's windowed operators, NHWC: CONV_2D and DEPTHWISE_CONV_2D (float filters, and
// int8 per-channel filters read through LiteRT's hybrid per-channel kernels), MAX_POOL_2D and
// AVERAGE_POOL_2D. Each follows LiteRT's reference kernel (the BUILTIN_REF op resolver) in its
// arithmetic and summation order:
// - convolutions sum from 0 over the filter rows, columns and (CONV_2D) input channels, skipping
//   taps outside the image (zero padding), then add the bias (0 when there is none) and clamp to
//   the activation's range;
// - hybrid convolutions quantize each image as a whole (AsymmetricQuantizeFloats: one scale and
//   offset per batch entry), sum filter * (q - offset) in int32 and rescale: CONV_2D as
//   float(acc) * channel scale * image scale, DEPTHWISE_CONV_2D as float(acc) * (channel scale *
//   image scale);
// - pools walk the window clipped to the image; the average divides by the taps inside it.
// Padding is TFLite's: SAME pads (out - 1) * stride + effective filter - in, the smaller half
// first. Built with -ffp-contract=off: every product is rounded before it is added.
#include <algorithm>
#include <cstring>
#include <limits>

#include "interpreter_impl.h"

namespace tfs::lite {

using Impl = Interpreter::Impl;
using Op = Interpreter::Impl::Op;
using Window = Interpreter::Impl::Op::Window;

bool is_window_op(int code) {
  return code == tflite::BuiltinOperator_CONV_2D ||
         code == tflite::BuiltinOperator_DEPTHWISE_CONV_2D ||
         code == tflite::BuiltinOperator_MAX_POOL_2D ||
         code == tflite::BuiltinOperator_AVERAGE_POOL_2D;
}

namespace {

// Strides, dilations and window sizes beyond this are refused (they keep every index in range).
constexpr int kMaxWindow = 1 << 24;

bool is_conv(int code) {
  return code == tflite::BuiltinOperator_CONV_2D ||
         code == tflite::BuiltinOperator_DEPTHWISE_CONV_2D;
}

// CalculateActivationRange's bounds, applied as ActivationFunctionWithMinMax.
inline float clamp_act(float x, kernels::Activation a) {
  float lo = std::numeric_limits<float>::lowest(), hi = std::numeric_limits<float>::max();
  if (a == kernels::Activation::kRelu) lo = 0.0f;
  if (a == kernels::Activation::kRelu6) lo = 0.0f, hi = 6.0f;
  if (a == kernels::Activation::kReluN1To1) lo = -1.0f, hi = 1.0f;
  return std::min(std::max(x, lo), hi);
}

// The options of a windowed op into o.win and o.act, with one-line errors for absent or
// out-of-range fields.
void read_options(const Impl& m, Op& o) {
  const std::string op = builtin_operator_name(o.code);
  Window& w = o.win;
  int act = 0;
  if (o.code == tflite::BuiltinOperator_CONV_2D) {
    const auto* p = o.op->builtin_options_as_Conv2DOptions();
    if (!p) m.fail(op + " without Conv2DOptions");
    w.padding = p->padding();
    w.stride_w = p->stride_w(), w.stride_h = p->stride_h();
    w.dil_w = p->dilation_w_factor(), w.dil_h = p->dilation_h_factor();
    act = p->fused_activation_function();
  } else if (o.code == tflite::BuiltinOperator_DEPTHWISE_CONV_2D) {
    const auto* p = o.op->builtin_options_as_DepthwiseConv2DOptions();
    if (!p) m.fail(op + " without DepthwiseConv2DOptions");
    w.padding = p->padding();
    w.stride_w = p->stride_w(), w.stride_h = p->stride_h();
    w.dil_w = p->dilation_w_factor(), w.dil_h = p->dilation_h_factor();
    w.multiplier = p->depth_multiplier();
    act = p->fused_activation_function();
    if (w.multiplier < 1 || w.multiplier > kMaxWindow) {
      m.fail(op + " depth_multiplier " + std::to_string(w.multiplier));
    }
  } else {
    const auto* p = o.op->builtin_options_as_Pool2DOptions();
    if (!p) m.fail(op + " without Pool2DOptions");
    w.padding = p->padding();
    w.stride_w = p->stride_w(), w.stride_h = p->stride_h();
    w.f_w = p->filter_width(), w.f_h = p->filter_height();
    act = p->fused_activation_function();
    if (w.f_w < 1 || w.f_h < 1 || w.f_w > kMaxWindow || w.f_h > kMaxWindow) {
      m.fail(op + " filter " + std::to_string(w.f_h) + "x" + std::to_string(w.f_w));
    }
  }
  if (w.padding != tflite::Padding_SAME && w.padding != tflite::Padding_VALID) {
    m.fail(op + " padding " + std::to_string(w.padding));
  }
  if (w.stride_w < 1 || w.stride_h < 1 || w.stride_w > kMaxWindow || w.stride_h > kMaxWindow) {
    m.fail(op + " strides " + std::to_string(w.stride_h) + "x" + std::to_string(w.stride_w));
  }
  if (w.dil_w < 1 || w.dil_h < 1 || w.dil_w > kMaxWindow || w.dil_h > kMaxWindow) {
    m.fail(op + " dilations " + std::to_string(w.dil_h) + "x" + std::to_string(w.dil_w));
  }
  o.act = activation_of(act, m);
}

// TFLite's output size and padding of one spatial dimension; false when the window does not fit.
bool out_and_pad(int padding, int64_t in, int64_t filter, int64_t stride, int64_t dil, int* out,
                 int* pad) {
  const int64_t eff = (filter - 1) * dil + 1;
  const int64_t n =
      padding == tflite::Padding_SAME ? (in + stride - 1) / stride : (in + stride - eff) / stride;
  if (n < 0 || n > std::numeric_limits<int>::max()) return false;
  const int64_t total = std::max<int64_t>(0, (n - 1) * stride + eff - in);
  if (total / 2 > std::numeric_limits<int>::max()) return false;
  *out = static_cast<int>(n);
  *pad = static_cast<int>(total / 2);
  return true;
}

// The number of taps inside the image of the smallest window along one dimension (pools: the
// average divides by it, LiteRT fails on 0).
int64_t min_taps(int64_t out, int64_t stride, int64_t pad, int64_t filter, int64_t in) {
  int64_t least = std::numeric_limits<int64_t>::max();
  for (int64_t o = 0; o < out; ++o) {
    const int64_t origin = o * stride - pad;
    const int64_t start = std::max<int64_t>(0, -origin);
    const int64_t end = std::min<int64_t>(filter, in - origin);
    least = std::min(least, end - start);
  }
  return least;
}

// ---- eval ----

// CONV_2D's window walk, float (filter * input summed in float from 0, then + bias) or hybrid
// (int8 filter * (q - offset) summed in int32, then scaled by channel * image scale, + bias): the
// same taps in the same order, padded taps skipped.
template <bool kHybrid>
void conv(const Window& w, const float* fin, const int8_t* qin, const float* bias,
          kernels::Activation act, float* out) {
  const int64_t in_ch = w.in_d, f_in = w.f_in;
  const int64_t per_group = w.out_d / (in_ch / f_in);
  for (int64_t b = 0; b < w.batches; ++b) {
    const int32_t zp = kHybrid ? w.zp[static_cast<size_t>(b)] : 0;
    const float sf = kHybrid ? w.sf[static_cast<size_t>(b)] : 0.0f;
    for (int64_t oy = 0; oy < w.out_h; ++oy) {
      const int64_t y0 = oy * w.stride_h - w.pad_h;
      for (int64_t ox = 0; ox < w.out_w; ++ox) {
        const int64_t x0 = ox * w.stride_w - w.pad_w;
        float* px = out + ((b * w.out_h + oy) * w.out_w + ox) * w.out_d;
        for (int64_t oc = 0; oc < w.out_d; ++oc) {
          const int64_t base = (oc / per_group) * f_in;
          const int64_t f = oc * w.f_h * w.f_w * f_in;
          float total = 0.f;
          int32_t acc = 0;
          for (int64_t fy = 0; fy < w.f_h; ++fy) {
            const int64_t y = y0 + w.dil_h * fy;
            if (y < 0 || y >= w.in_h) continue;
            for (int64_t fx = 0; fx < w.f_w; ++fx) {
              const int64_t x = x0 + w.dil_w * fx;
              if (x < 0 || x >= w.in_w) continue;
              const int64_t i = ((b * w.in_h + y) * w.in_w + x) * in_ch + base;
              const int64_t k = f + (fy * w.f_w + fx) * f_in;
              for (int64_t c = 0; c < f_in; ++c) {
                if constexpr (kHybrid) {
                  acc += int32_t{w.qfilter[k + c]} * (int32_t{qin[i + c]} - zp);
                } else {
                  total += fin[i + c] * w.filter[k + c];
                }
              }
            }
          }
          float v;
          if constexpr (kHybrid) {
            v = static_cast<float>(acc) * w.scales[oc] * sf;
            if (bias) v += bias[oc];
          } else {
            v = total + (bias ? bias[oc] : 0.0f);
          }
          px[oc] = clamp_act(v, act);
        }
      }
    }
  }
}

template <bool kHybrid>
void depthwise(const Window& w, const float* fin, const int8_t* qin, const float* bias,
               kernels::Activation act, float* out) {
  for (int64_t b = 0; b < w.batches; ++b) {
    const int32_t zp = kHybrid ? w.zp[static_cast<size_t>(b)] : 0;
    const float sf = kHybrid ? w.sf[static_cast<size_t>(b)] : 0.0f;
    for (int64_t oy = 0; oy < w.out_h; ++oy) {
      const int64_t y0 = oy * w.stride_h - w.pad_h;
      for (int64_t ox = 0; ox < w.out_w; ++ox) {
        const int64_t x0 = ox * w.stride_w - w.pad_w;
        float* px = out + ((b * w.out_h + oy) * w.out_w + ox) * w.out_d;
        for (int64_t ic = 0; ic < w.in_d; ++ic) {
          for (int64_t mm = 0; mm < w.multiplier; ++mm) {
            const int64_t oc = mm + ic * w.multiplier;
            float total = 0.f;
            int32_t acc = 0;
            for (int64_t fy = 0; fy < w.f_h; ++fy) {
              const int64_t y = y0 + w.dil_h * fy;
              for (int64_t fx = 0; fx < w.f_w; ++fx) {
                const int64_t x = x0 + w.dil_w * fx;
                if (x < 0 || x >= w.in_w || y < 0 || y >= w.in_h) continue;
                const int64_t i = ((b * w.in_h + y) * w.in_w + x) * w.in_d + ic;
                const int64_t k = (fy * w.f_w + fx) * w.out_d + oc;
                if constexpr (kHybrid) {
                  acc += int32_t{w.qfilter[k]} * (int32_t{qin[i]} - zp);
                } else {
                  total += fin[i] * w.filter[k];
                }
              }
            }
            float v;
            if constexpr (kHybrid) {
              v = static_cast<float>(acc);
              v *= w.scales[oc] * sf;
              if (bias) v += bias[oc];
            } else {
              v = total + (bias ? bias[oc] : 0.0f);
            }
            px[oc] = clamp_act(v, act);
          }
        }
      }
    }
  }
}

template <bool kMax>
void pool(const Window& w, const float* in, kernels::Activation act, float* out) {
  for (int64_t b = 0; b < w.batches; ++b) {
    for (int64_t oy = 0; oy < w.out_h; ++oy) {
      const int64_t y0 = oy * w.stride_h - w.pad_h;
      const int64_t fy0 = std::max<int64_t>(0, -y0), fy1 = std::min<int64_t>(w.f_h, w.in_h - y0);
      for (int64_t ox = 0; ox < w.out_w; ++ox) {
        const int64_t x0 = ox * w.stride_w - w.pad_w;
        const int64_t fx0 = std::max<int64_t>(0, -x0);
        const int64_t fx1 = std::min<int64_t>(w.f_w, w.in_w - x0);
        float* px = out + ((b * w.out_h + oy) * w.out_w + ox) * w.in_d;
        for (int64_t c = 0; c < w.in_d; ++c) {
          float acc = kMax ? std::numeric_limits<float>::lowest() : 0.0f;
          int count = 0;
          for (int64_t fy = fy0; fy < fy1; ++fy) {
            for (int64_t fx = fx0; fx < fx1; ++fx) {
              const float v = in[((b * w.in_h + y0 + fy) * w.in_w + x0 + fx) * w.in_d + c];
              if constexpr (kMax) {
                acc = std::max(acc, v);
              } else {
                acc += v;
                ++count;
              }
            }
          }
          if constexpr (!kMax) acc = acc / static_cast<float>(count);
          px[c] = clamp_act(acc, act);
        }
      }
    }
  }
}

}  // namespace

void check_window_op(Impl& m, Op& o) {
  read_options(m, o);
  if (!is_conv(o.code)) return;
  const std::string op = builtin_operator_name(o.code);
  if (o.in[1] < 0) m.fail(op + " without a filter");
  RtTensor& f = m.tensors[static_cast<size_t>(o.in[1])];
  if (!f.is_const || f.shape.size() != 4)
    m.fail(op + " filter " + f.name + " must be a 4-D constant");
  for (int d : f.shape) {
    if (d < 1 || d > kMaxWindow)
      m.fail(op + " filter " + f.name + " of shape " + shape_str(f.shape));
  }
  const bool depthwise = o.code == tflite::BuiltinOperator_DEPTHWISE_CONV_2D;
  if (depthwise && f.shape[0] != 1) {
    m.fail(op + " filter " + f.name + " of shape " + shape_str(f.shape) + " (want [1, H, W, C])");
  }
  const int channels = depthwise ? f.shape[3] : f.shape[0];
  if (f.type == tflite::TensorType_INT8) {
    if (f.scales.size() != static_cast<size_t>(channels)) {
      m.fail(op + " filter " + f.name + ": " + std::to_string(f.scales.size()) + " scales for " +
             std::to_string(channels) + " output channels (hybrid kernels are per channel)");
    }
    if (m.kernels == Kernels::kDequantized) {  // int8 filter as float: q * scale of its channel
      o.win.dequantized.resize(f.q.size());
      const size_t per = f.q.size() / static_cast<size_t>(channels);
      for (size_t k = 0; k < f.q.size(); ++k) {
        const size_t c = depthwise ? k % static_cast<size_t>(channels) : k / per;
        o.win.dequantized[k] = static_cast<float>(f.q[k]) * f.scales[c];
      }
    }
  } else if (f.type != tflite::TensorType_FLOAT32) {
    m.fail(op + " filter of type " + tensor_type_name(f.type));
  }
}

void prepare_window_op(Impl& m, Op& o) {
  const std::string op = builtin_operator_name(o.code);
  const Interpreter::TensorValue& in = m.value(o.in[0]);
  if (in.shape.size() != 4) m.fail(op + " input of shape " + shape_str(in.shape) + " (want NHWC)");
  Window& w = o.win;
  w.batches = in.shape[0], w.in_h = in.shape[1], w.in_w = in.shape[2], w.in_d = in.shape[3];
  w.out_d = w.in_d;
  if (is_conv(o.code)) {
    const RtTensor& f = m.tensors[static_cast<size_t>(o.in[1])];
    w.f_h = f.shape[1], w.f_w = f.shape[2];
    if (o.code == tflite::BuiltinOperator_CONV_2D) {
      w.out_d = f.shape[0];
      w.f_in = f.shape[3];
      if (w.in_d % f.shape[3] != 0 || w.out_d % (w.in_d / f.shape[3]) != 0) {
        m.fail(op + " filter " + shape_str(f.shape) + " for input " + shape_str(in.shape));
      }
    } else {
      w.out_d = f.shape[3];
      if (static_cast<int64_t>(w.in_d) * w.multiplier != w.out_d) {
        m.fail(op + " filter " + shape_str(f.shape) + " for input " + shape_str(in.shape) +
               " and depth_multiplier " + std::to_string(w.multiplier));
      }
    }
    w.filter = nullptr, w.qfilter = nullptr, w.scales = nullptr;
    if (f.type == tflite::TensorType_FLOAT32) {
      w.filter = f.f.data();
    } else if (!w.dequantized.empty()) {
      w.filter = w.dequantized.data();
    } else {
      w.qfilter = f.q.data();
      w.scales = f.scales.data();
      const size_t n = in.data.size();
      if (w.batches == 0 || n / static_cast<size_t>(w.batches) >
                                static_cast<size_t>(std::numeric_limits<int>::max())) {
        m.fail(op + " hybrid input of shape " + shape_str(in.shape));
      }
      w.qin.resize(n);
      w.sf.resize(static_cast<size_t>(w.batches));
      w.zp.resize(static_cast<size_t>(w.batches));
    }
    if (o.in.size() > 2 && o.in[2] >= 0) {
      const Interpreter::TensorValue& b = m.value(o.in[2]);
      if (static_cast<int64_t>(b.data.size()) != w.out_d) {
        m.fail(op + " bias of shape " + shape_str(b.shape) + " for " + std::to_string(w.out_d) +
               " output channels");
      }
    }
  }
  if (!out_and_pad(w.padding, w.in_h, w.f_h, w.stride_h, w.dil_h, &w.out_h, &w.pad_h) ||
      !out_and_pad(w.padding, w.in_w, w.f_w, w.stride_w, w.dil_w, &w.out_w, &w.pad_w)) {
    m.fail(op + " window larger than its input " + shape_str(in.shape));
  }
  if (o.code == tflite::BuiltinOperator_AVERAGE_POOL_2D && w.batches > 0 && w.in_d > 0 &&
      (min_taps(w.out_h, w.stride_h, w.pad_h, w.f_h, w.in_h) < 1 ||
       min_taps(w.out_w, w.stride_w, w.pad_w, w.f_w, w.in_w) < 1)) {
    m.fail(op + " has a window with no input inside it");
  }
  m.define_output(o, {w.batches, w.out_h, w.out_w, w.out_d});
}

void eval_window_op(Impl& m, Op& o) {
  const Window& w = o.win;
  const float* in = m.values[static_cast<size_t>(o.in[0])].data.data();
  float* out = m.values[static_cast<size_t>(o.out[0])].data.data();
  const float* bias = o.in.size() > 2 && o.in[2] >= 0
                          ? m.values[static_cast<size_t>(o.in[2])].data.data()
                          : nullptr;
  switch (o.code) {
    case tflite::BuiltinOperator_MAX_POOL_2D:
      return pool<true>(w, in, o.act, out);
    case tflite::BuiltinOperator_AVERAGE_POOL_2D:
      return pool<false>(w, in, o.act, out);
    default:
      break;
  }
  if (w.qfilter) {
    Window& mw = o.win;
    const int64_t size = w.batches ? static_cast<int64_t>(w.qin.size()) / w.batches : 0;
    for (int64_t b = 0; b < w.batches; ++b) {
      kernels::asymmetric_quantize(in + b * size, static_cast<int>(size), mw.qin.data() + b * size,
                                   &mw.sf[static_cast<size_t>(b)], &mw.zp[static_cast<size_t>(b)]);
    }
  }
  if (o.code == tflite::BuiltinOperator_CONV_2D) {
    if (w.qfilter) return conv<true>(w, nullptr, w.qin.data(), bias, o.act, out);
    return conv<false>(w, in, nullptr, bias, o.act, out);
  }
  if (w.qfilter) return depthwise<true>(w, nullptr, w.qin.data(), bias, o.act, out);
  depthwise<false>(w, in, nullptr, bias, o.act, out);
}

}  // namespace tfs::lite

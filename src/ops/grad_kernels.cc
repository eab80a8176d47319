// The ops TF's gradient graphs are made of: BroadcastGradientArgs (bcast.h's reduction indices),
// ReluGrad, Relu6Grad, EluGrad, TanhGrad, SigmoidGrad, SqrtGrad, RsqrtGrad, ReciprocalGrad (cwise_ops_gradients.h's functors, each
// with its packet form on whole AVX packets and its scalar form on the tail, as Eigen evaluates
// them in TF's build, which has no FMA) and BiasAddGrad (column sums down the rows).
#include <cmath>
#include <limits>
#include <type_traits>

#include "column_sums.h"
#include "eigen_math.h"
#include "kernel_util.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

using detail::kFloatTypes;

// The reduction indices of BCast for two shapes (fewer_dims_optimization on): a dim where an
// input is 1 and the broadcast is not, or where every input is 1; none when the shapes are equal.
bool bcast_reduce_indices(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                          std::vector<int64_t>* ra, std::vector<int64_t>* rb) {
  if (a == b) return true;
  const size_t rank = std::max(a.size(), b.size());
  auto dim = [rank](const std::vector<int64_t>& s, size_t j) {  // j from the innermost
    return j < s.size() ? s[s.size() - 1 - j] : int64_t{1};
  };
  for (size_t j = 0; j < rank; ++j) {
    int64_t da = dim(a, j), db = dim(b, j);
    const int64_t axis = static_cast<int64_t>(rank - 1 - j);
    if (da == 1 && db == 1) {
      ra->push_back(axis);
      rb->push_back(axis);
    } else if (da == 1) {
      ra->push_back(axis);
    } else if (db == 1) {
      rb->push_back(axis);
    } else if (da != db) {
      return false;
    }
  }
  std::reverse(ra->begin(), ra->end());
  std::reverse(rb->begin(), rb->end());
  return true;
}

OpRegistration r_bcast_args([] {
  OpDef d;
  d.name = "BroadcastGradientArgs";
  d.inputs = {{"s0", "T"}, {"s1", "T"}};
  d.outputs = {{"r0", "T"}, {"r1", "T"}};
  d.type_attrs = {{"T", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = [](InferenceContext& c) {
    detail::with_rank(c, c.in(0), 1);
    detail::with_rank(c, c.in(1), 1);
    c.set_output(0, PartialShape::unknown_of_rank(1));
    c.set_output(1, PartialShape::unknown_of_rank(1));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &s0 = ctx.input(0), &s1 = ctx.input(1);
    if (s0.eager_shape().rank() != 1 || s1.eager_shape().rank() != 1) {
      ctx.fail("In[0] and In[1] must be vectors.");  // TF's kernel checks IsVector on both
    }
    std::vector<int64_t> a = detail::tensor_ints(s0), b = detail::tensor_ints(s1), ra, rb;
    if (!bcast_reduce_indices(a, b, &ra, &rb)) {
      ctx.fail("Incompatible shapes: " + detail::dims_text(Shape(a)) + " vs. " +
               detail::dims_text(Shape(b)));
    }
    DType dt = s0.dtype();
    for (int k = 0; k < 2; ++k) {
      const auto& r = k == 0 ? ra : rb;
      Tensor& out = ctx.allocate_output(k, dt, Shape{static_cast<int64_t>(r.size())});
      for (size_t i = 0; i < r.size(); ++i) {
        if (dt == DType::kInt32)
          out.data<int32_t>()[i] = static_cast<int32_t>(r[i]);
        else
          out.data<int64_t>()[i] = r[i];
      }
    }
  };
  return d;
}());

// Packet and scalar forms of the gradient functors: (y, dy) -> dx.
struct TanhGradF {
  static constexpr int kRelu = 0;
  template <bool kPacket, typename T>
  static T eval(T y, T dy) {
    return dy * (T(1) - y * y);
  }
};
struct SigmoidGradF {
  static constexpr int kRelu = 0;
  template <bool kPacket, typename T>
  static T eval(T y, T dy) {
    if constexpr (kPacket) return dy * (y * (T(1) - y));
    return dy * y * (T(1) - y);
  }
};
// Packets multiply without NaN (a zero dy gives zero); the scalar form tests dy first.
struct SqrtGradF {
  static constexpr int kRelu = 0;
  template <bool kPacket, typename T>
  static T eval(T y, T dy) {
    if (dy == T(0)) return T(0);
    if constexpr (kPacket) return (T(0.5) / y) * dy;
    return (T(0.5) * dy) / y;
  }
};
struct RsqrtGradF {
  static constexpr int kRelu = 0;
  template <bool kPacket, typename T>
  static T eval(T y, T dy) {
    if constexpr (kPacket) {
      T a = T(-0.5) * (y * y);
      T b = dy == T(0) ? T(0) : y * dy;
      return b == T(0) ? T(0) : a * b;
    }
    if (dy == T(0)) return T(0);
    return T(-0.5) * (dy * y) * (y * y);
  }
};
// relu_op_functor.h: gradients * (features > 0), the same on packets and scalars.
struct ReluGradF {
  static constexpr int kRelu = 1;  // the AVX2 relu_grad_avx2 form: 1 ReluGrad, 6 Relu6Grad
  template <bool kPacket, typename T>
  static T eval(T dy, T features) {
    return dy * static_cast<T>(features > T(0) ? 1 : 0);
  }
};

// relu_op_functor.h: gradients * ((features > 0) * (features < 6)), no gradient at 0 or 6.
struct Relu6GradF {
  static constexpr int kRelu = 6;  // the AVX2 relu_grad_avx2 form: 1 ReluGrad, 6 Relu6Grad
  template <bool kPacket, typename T>
  static T eval(T dy, T features) {
    return dy * static_cast<T>(features > T(0) && features < T(6) ? 1 : 0);
  }
};
// relu_op_functor.h's EluGrad: outputs < 0 ? (outputs + 1) * gradients : gradients (single IEEE
// operations: packets and scalars alike).
struct EluGradF {
  static constexpr int kRelu = 0;
  template <bool kPacket, typename T>
  static T eval(T dy, T y) {
    return y < T(0) ? (y + T(1)) * dy : dy;
  }
};
// scalar_inverse_gradient_op: -y * y * dy; the scalar form tests dy first, the packet form is
// mul_no_nan(-(y * y), dy) (the same value: negation is exact).
struct ReciprocalGradF {
  static constexpr int kRelu = 0;
  template <bool kPacket, typename T>
  static T eval(T y, T dy) {
    if (dy == T(0)) return T(0);
    return -y * y * dy;
  }
};

// ---- AVX2 forms of the float32 kernels the training step runs, with the scalar forms' bits ----
// (compiled for AVX2 and chosen at run time; the scalar loops compile to a compare and a branch
// per element, whose mispredictions on random signs cost more than the arithmetic).

using detail::float_kernels_use_avx2;

// ReluGrad: dy * (features > 0 ? 1 : 0), a multiply (dy * 0 keeps dy's sign, NaN stays NaN).
TFS_AVX2 int64_t relu_grad_avx2(const float* dy, const float* f, int64_t n, float* out,
                                float upper) {
  const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f), hi = _mm256_set1_ps(upper);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 x = _mm256_loadu_ps(f + i);
    __m256 on = _mm256_cmp_ps(x, zero, _CMP_GT_OQ);
    if (upper > 0) on = _mm256_and_ps(on, _mm256_cmp_ps(x, hi, _CMP_LT_OQ));
    _mm256_storeu_ps(out + i, _mm256_mul_ps(_mm256_loadu_ps(dy + i), _mm256_and_ps(on, one)));
  }
  return i;
}

// One elementwise gradient op over two same-shape float inputs; whole 32-byte packets of the
// flat range through the packet form, the rest through the scalar one.
template <typename F>
OpDef grad_def(const std::string& name, const std::string& in0, const std::string& in1,
               const std::string& out) {
  OpDef d;
  d.name = name;
  d.inputs = {{in0, "T"}, {in1, "T"}};
  d.outputs = {{out, "T"}};
  d.type_attrs = {{"T", kFloatTypes}};
  d.shape_fn = [](InferenceContext& c) {
    PartialShape merged;
    if (auto err = detail::merge_shapes(c.in(0), c.in(1), &merged)) c.fail(*err);
    c.set_output(0, merged);
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &a = ctx.input(0), &b = ctx.input(1);
    if (a.eager_shape() != b.eager_shape()) {
      ctx.fail("Inputs to operation " + *ctx.node_name + " of type " + *ctx.op_name +
               " must have the same size and shape.  Input 0: " + a.eager_shape().str() +
               " != input 1: " + b.eager_shape().str());
    }
    Tensor& out = ctx.allocate_output(0, a.dtype(), a.eager_shape());
    const int64_t n = a.num_elements();
    visit_dtype(a.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>) {
        const T* pa = a.data<T>();
        const T* pb = b.data<T>();
        T* po = out.data<T>();
        constexpr int64_t kPacket = 32 / sizeof(T);
        const int64_t packed = n - n % kPacket;
        int64_t done = 0;
        if constexpr (std::is_same_v<T, float> && F::kRelu > 0) {
          if (float_kernels_use_avx2())
            done = relu_grad_avx2(pa, pb, packed, po, F::kRelu == 6 ? 6.0f : 0.0f);
        }
        for (int64_t i = done; i < packed; ++i) po[i] = F::template eval<true>(pa[i], pb[i]);
        for (int64_t i = packed; i < n; ++i) po[i] = F::template eval<false>(pa[i], pb[i]);
      } else {
        ctx.fail("[ops] " + *ctx.op_name + " takes float or double");
      }
    });
  };
  return d;
}

OpRegistration r_tanh_grad(grad_def<TanhGradF>("TanhGrad", "y", "dy", "z"));
OpRegistration r_sigmoid_grad(grad_def<SigmoidGradF>("SigmoidGrad", "y", "dy", "z"));
OpRegistration r_sqrt_grad(grad_def<SqrtGradF>("SqrtGrad", "y", "dy", "z"));
OpRegistration r_rsqrt_grad(grad_def<RsqrtGradF>("RsqrtGrad", "y", "dy", "z"));
OpRegistration r_relu_grad(grad_def<ReluGradF>("ReluGrad", "gradients", "features", "backprops"));
OpRegistration r_relu6_grad(
    grad_def<Relu6GradF>("Relu6Grad", "gradients", "features", "backprops"));
OpRegistration r_elu_grad(grad_def<EluGradF>("EluGrad", "gradients", "outputs", "backprops"));
OpRegistration r_reciprocal_grad(grad_def<ReciprocalGradF>("ReciprocalGrad", "y", "dy", "z"));

// BiasAddGrad (NHWC): each channel summed straight down the rows from zero. (TF's
// ReduceOuterDimensions would cut the rows into per-thread blocks for few channels; TF 2.21 on a
// 2-CPU machine gives the plain sequential sums for 32 and 400 rows of 10 channels, eagerly and
// with oneDNN off or on: its device reports one thread there.)
template <typename T>
void bias_add_grad(const T* g, int64_t rows, int64_t ch, T* out) {
  using detail::flush_denormal;
  int64_t c0 = 0;
  if constexpr (std::is_same_v<T, float>) {
    if (float_kernels_use_avx2()) c0 = detail::column_sums_avx2(g, rows, ch, 0, out);
  }
  for (int64_t c = c0; c < ch; ++c) out[c] = T(0);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = c0; c < ch; ++c)
      out[c] = flush_denormal(out[c] + flush_denormal(g[r * ch + c]));
  }
}

OpRegistration r_bias_add_grad([] {
  OpDef d;
  d.name = "BiasAddGrad";
  d.inputs = {{"out_backprop", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", detail::kNumberTypes}};
  d.shape_fn = [](InferenceContext& c) {
    detail::with_rank_at_least(c, c.in(0), 2);
    const PartialShape& s = c.in(0);
    if (!s.has_rank()) {
      c.set_output(0, PartialShape::unknown_of_rank(1));
      return;
    }
    std::string fmt = c.attrs && c.attrs->count("data_format")
                          ? attr_string(*c.attrs, "data_format")
                          : std::string("NHWC");
    int64_t ch = fmt == "NCHW" ? s.dim(1) : s.dim(s.rank() - 1);
    c.set_output(0, PartialShape{ch});
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& g = ctx.input(0);
    const Shape& s = g.eager_shape();
    if (s.rank() < 2) ctx.fail("Input tensor must be at least 2D: " + s.str());
    std::string fmt = ctx.attrs->count("data_format") ? attr_string(*ctx.attrs, "data_format")
                                                      : std::string("NHWC");
    if (fmt != "NHWC") ctx.fail("[ops] BiasAddGrad supports data_format NHWC only");
    const int64_t ch = s.dim(s.rank() - 1);
    const int64_t rows = ch == 0 ? 0 : s.num_elements() / ch;
    Tensor out = ctx.allocate_output(0, g.dtype(), Shape{ch});
    visit_dtype(g.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, bool>) {
        ctx.fail("[ops] BiasAddGrad of bool");
      } else if constexpr (std::is_arithmetic_v<T>) {
        if (rows == 0) {
          for (int64_t c = 0; c < ch; ++c) out.data<T>()[c] = T(0);
        } else if constexpr (std::is_floating_point_v<T>) {
          bias_add_grad<T>(g.data<T>(), rows, ch, out.data<T>());
        } else {
          for (int64_t c = 0; c < ch; ++c) {
            T v = T(0);
            for (int64_t r = 0; r < rows; ++r) v = static_cast<T>(v + g.data<T>()[r * ch + c]);
            out.data<T>()[c] = v;
          }
        }
      } else {
        ctx.fail("[ops] BiasAddGrad of a non-number");
      }
    });
  };
  return d;
}());

}  // namespace

namespace detail {
void anchor_grad_kernel_ops() {}
}  // namespace detail

}  // namespace tfs

// Dense layers and activations: MatMul, BatchMatMulV2, BiasAdd, Relu, Relu6, LeakyRelu, Elu,
// Selu, Softplus, Softmax, LogSoftmax. Float32 GEMMs sum in the order of the kernel TF runs on
// this machine for the same bits (matmul_f32.h); the other dtypes use Eigen's GEMM. The
// activations compute what TF's Eigen kernels compute, packets and tail alike (eigen_unary.h);
// Softmax and LogSoftmax run TF's own kernels' order (softmax.h).
#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <type_traits>

#include "complex_kernels.h"
#include "dense_step.h"
#include "eigen_unary.h"
#include "kernel_util.h"
#include "matmul_f32.h"
#include "onednn_exp.h"
#include "softmax.h"
#include "tfscope/cpu_info.h"
#include "tfscope/detail/kernel_run.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

template <typename T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using MapC = Eigen::Map<const RowMat<T>, Eigen::Aligned64>;
template <typename T>
using MapU = Eigen::Map<const RowMat<T>>;
template <typename T>
using MapM = Eigen::Map<RowMat<T>>;

template <typename T>
void gemm(const T* a, int64_t ar, int64_t ac, bool ta, const T* b, int64_t br, int64_t bc, bool tb,
          T* out) {
  MapU<T> A(a, ar, ac), B(b, br, bc);
  int64_t m = ta ? ac : ar, n = tb ? br : bc;
  MapM<T> C(out, m, n);
  if (!ta && !tb)
    C.noalias() = A * B;
  else if (ta && !tb)
    C.noalias() = A.transpose() * B;
  else if (!ta && tb)
    C.noalias() = A * B.transpose();
  else
    C.noalias() = A.transpose() * B.transpose();
}

const std::vector<DType> kMatMulTypes = {DType::kFloat32, DType::kFloat64, DType::kInt32,
                                         DType::kInt64};

// MatMul's attrs: read per eager run, once per node in a plan (r_matmul_prepared).
struct MatMulAttrs {
  explicit MatMulAttrs(const AttrMap& a)
      : ta(attr_bool_or(a, "transpose_a", false)), tb(attr_bool_or(a, "transpose_b", false)) {}
  bool ta, tb;
};

void matmul_kernel(OpKernelContext& ctx, MatMulAttrs attrs) {
  const bool ta = attrs.ta, tb = attrs.tb;
  const Tensor &a = ctx.input(0), &b = ctx.input(1);
  const Shape &sa = a.eager_shape(), &sb = b.eager_shape();
  if (sa.rank() != 2 || sb.rank() != 2) {
    ctx.fail("In[0] and In[1] has different ndims: " + detail::dims_text(sa) + " vs. " +
             detail::dims_text(sb));
  }
  int64_t ka = ta ? sa.dim(0) : sa.dim(1), kb = tb ? sb.dim(1) : sb.dim(0);
  if (ka != kb) {
    ctx.fail("Matrix size-incompatible: In[0]: " + detail::dims_text(sa) +
             ", In[1]: " + detail::dims_text(sb));
  }
  int64_t m = ta ? sa.dim(1) : sa.dim(0), n = tb ? sb.dim(0) : sb.dim(1);
  Tensor& out = ctx.allocate_output(0, a.dtype(), {m, n});
  if (is_complex(a.dtype())) return detail::complex_matmul(a, ta, b, tb, m, ka, n, out);
  visit_dtype(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, bool>) {
      ctx.fail("[ops] MatMul of bool");
    } else if constexpr (std::is_same_v<T, float>) {
      detail::tf_matmul_f32(a.data<float>(), ta, b.data<float>(), tb, m, ka, n, out.data<float>());
    } else {
      gemm<T>(a.data<T>(), sa.dim(0), sa.dim(1), ta, b.data<T>(), sb.dim(0), sb.dim(1), tb,
              out.data<T>());
    }
  });
}

OpRegistration r_matmul([] {
  OpDef d;
  d.name = "MatMul";
  d.inputs = {{"a", "T"}, {"b", "T"}};
  d.outputs = {{"product", "T"}};
  d.type_attrs = {{"T", detail::with_complex(kMatMulTypes)}};
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape &a = c.in(0), &b = c.in(1);
    const auto [ta, tb] = MatMulAttrs(*c.attrs);
    if ((a.has_rank() && a.rank() != 2) || (b.has_rank() && b.rank() != 2)) {
      c.fail("Shape must be rank 2 but is rank " +
             std::to_string(a.has_rank() && a.rank() != 2 ? a.rank() : b.rank()));
    }
    int64_t m = a.has_rank() ? a.dim(ta ? 1 : 0) : -1, ka = a.has_rank() ? a.dim(ta ? 0 : 1) : -1;
    int64_t kb = b.has_rank() ? b.dim(tb ? 1 : 0) : -1, n = b.has_rank() ? b.dim(tb ? 0 : 1) : -1;
    if (ka >= 0 && kb >= 0 && ka != kb) {
      c.fail("Dimensions must be equal, but are " + std::to_string(ka) + " and " +
             std::to_string(kb));
    }
    c.set_output(0, PartialShape({m, n}));
  };
  d.kernel = [](OpKernelContext& ctx) { matmul_kernel(ctx, MatMulAttrs(*ctx.attrs)); };
  return d;
}());

detail::PreparedKernelRegistration r_matmul_prepared("MatMul", [](const AttrMap& attrs) -> Kernel {
  return [m = MatMulAttrs(attrs)](OpKernelContext& ctx) { matmul_kernel(ctx, m); };
});

OpRegistration r_batch_matmul([] {
  OpDef d;
  d.name = "BatchMatMulV2";
  d.inputs = {{"x", "T"}, {"y", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", kMatMulTypes}};
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape &a = c.in(0), &b = c.in(1);
    if (!a.has_rank() || !b.has_rank()) return;
    bool ax = attr_bool_or(*c.attrs, "adj_x", false), ay = attr_bool_or(*c.attrs, "adj_y", false);
    if (a.rank() < 2 || b.rank() < 2) c.fail("Shape must be at least rank 2");
    std::vector<int64_t> ba(a.dims().begin(), a.dims().end() - 2),
        bb(b.dims().begin(), b.dims().end() - 2);
    auto batch = broadcast_shapes(PartialShape(ba), PartialShape(bb));
    if (!batch) c.fail("Incompatible batch dimensions");
    int64_t m = a.dim(a.rank() - (ax ? 1 : 2)), ka = a.dim(a.rank() - (ax ? 2 : 1));
    int64_t kb = b.dim(b.rank() - (ay ? 1 : 2)), n = b.dim(b.rank() - (ay ? 2 : 1));
    if (ka >= 0 && kb >= 0 && ka != kb) {
      c.fail("Dimensions must be equal, but are " + std::to_string(ka) + " and " +
             std::to_string(kb));
    }
    std::vector<int64_t> out = batch->dims();
    out.push_back(m);
    out.push_back(n);
    c.set_output(0, PartialShape(out));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &a = ctx.input(0), &b = ctx.input(1);
    bool ax = attr_bool_or(*ctx.attrs, "adj_x", false),
         ay = attr_bool_or(*ctx.attrs, "adj_y", false);
    const Shape &sa = a.eager_shape(), &sb = b.eager_shape();
    if (sa.rank() < 2 || sb.rank() < 2) ctx.fail("In[0] and In[1] must be at least rank 2");
    int64_t ar = sa.dim(sa.rank() - 2), ac = sa.dim(sa.rank() - 1);
    int64_t br = sb.dim(sb.rank() - 2), bc = sb.dim(sb.rank() - 1);
    int64_t ka = ax ? ar : ac, kb = ay ? bc : br;
    if (ka != kb) {
      // TF's oneDNN kernel (float32 with oneDNN on) adds the adjoint flags.
      const std::string flags = detail::tf_runs_onednn(a.dtype())
                                    ? std::string(" ") + (ax ? "1" : "0") + " " + (ay ? "1" : "0")
                                    : "";
      ctx.fail("Matrix size-incompatible: In[0]: " + detail::dims_text(sa) +
               ", In[1]: " + detail::dims_text(sb) + flags);
    }
    Shape ba(std::vector<int64_t>(sa.dims().begin(), sa.dims().end() - 2));
    Shape bb(std::vector<int64_t>(sb.dims().begin(), sb.dims().end() - 2));
    auto batch = broadcast_shapes(ba, bb);
    if (!batch) {
      ctx.fail("In[0] and In[1] must have compatible batch dimensions: " + detail::dims_text(sa) +
               " vs. " + detail::dims_text(sb));
    }
    int64_t m = ax ? ac : ar, n = ay ? br : bc;
    std::vector<int64_t> od = batch->dims();
    od.push_back(m);
    od.push_back(n);
    Tensor& out = ctx.allocate_output(0, a.dtype(), Shape(od));
    auto st_a = detail::broadcast_strides(ba, *batch), st_b = detail::broadcast_strides(bb, *batch);
    visit_dtype(a.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, bool>) {
        ctx.fail("[ops] BatchMatMul of bool");
      } else {
        const T* pa = a.data<T>();
        const T* pb = b.data<T>();
        T* po = out.data<T>();
        detail::for_each_broadcast(*batch, st_a, st_b, [&](int64_t k, int64_t ia, int64_t ib) {
          if constexpr (std::is_same_v<T, float>) {
            detail::tf_batch_matmul_f32(pa + ia * ar * ac, ax, pb + ib * br * bc, ay, m, ka, n, k,
                                        batch->num_elements(), bb.num_elements() == 1,
                                        po + k * m * n);
          } else {
            gemm<T>(pa + ia * ar * ac, ar, ac, ax, pb + ib * br * bc, br, bc, ay, po + k * m * n);
          }
        });
      }
    });
  };
  return d;
}());

// BiasAdd's work on `rows` rows of `c` values (out may be in): each element its value plus its
// column's bias. The dense-layer step (dense_f32) adds its bias with it too.
template <typename T>
void add_bias(const T* in, const T* bias, T* out, int64_t rows, int64_t c) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < c; ++j) out[r * c + j] = static_cast<T>(in[r * c + j] + bias[j]);
}

OpRegistration r_bias_add([] {
  OpDef d;
  d.name = "BiasAdd";
  d.inputs = {{"value", "T"}, {"bias", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", detail::kNumberTypes}};
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape &v = c.in(0), &b = c.in(1);
    if (v.has_rank() && v.rank() < 2)
      c.fail("Shape must be at least rank 2 but is rank " + std::to_string(v.rank()));
    if (v.has_rank() && b.has_rank() && b.rank() == 1) {
      int64_t last = v.dim(v.rank() - 1), bd = b.dim(0);
      if (last >= 0 && bd >= 0 && last != bd) {
        c.fail("Dimensions must be equal, but are " + std::to_string(last) + " and " +
               std::to_string(bd));
      }
      std::vector<int64_t> out = v.dims();
      if (out.back() < 0) out.back() = bd;
      c.set_output(0, PartialShape(out));
      return;
    }
    c.set_output(0, v);
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &v = ctx.input(0), &b = ctx.input(1);
    const Shape& s = v.eager_shape();
    if (s.rank() < 2) ctx.fail("Input tensor must be at least 2D: " + detail::dims_text(s));
    if (b.eager_shape().rank() != 1)
      ctx.fail("Biases must be 1D: " + detail::dims_text(b.eager_shape()));
    int64_t c = s.dim(s.rank() - 1);
    if (b.eager_shape().dim(0) != c) {
      ctx.fail("Must provide as many biases as the last dimension of the input tensor: " +
               detail::dims_text(b.eager_shape()) + " vs. " + detail::dims_text(s));
    }
    Tensor& out = ctx.allocate_output(0, v.dtype(), s);
    visit_dtype(v.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* pv = v.data<T>();
      const T* pb = b.data<T>();
      T* po = out.data<T>();
      add_bias(pv, pb, po, c == 0 ? 0 : v.num_elements() / c, c);
    });
  };
  return d;
}());

// Relu and Relu6 on every number type: floats as TF's Eigen kernels evaluate them
// (eigen_unary.h; Relu's scalar tail in pairs as TF's compiler vectorised it), integers plain.
template <typename F, typename IntF>
OpDef relu_def(const std::string& name, IntF int_f) {
  OpDef d;
  d.name = name;
  d.inputs = {{"features", "T"}};
  d.outputs = {{"activations", "T"}};
  d.type_attrs = {{"T", detail::kNumberTypes}};
  d.shape_fn = detail::same_shape_fn;
  d.kernel = [int_f](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    Tensor& out = ctx.allocate_output(0, x.dtype(), x.eager_shape());
    const int64_t n = x.num_elements();
    visit_dtype(x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, bool>) {
        ctx.fail("[ops] bool activation");
      } else if constexpr (std::is_floating_point_v<T>) {
        if constexpr (std::is_same_v<F, detail::unary::Relu>) {
          detail::fill_packets_paired_tail(x.data<T>(), out.data<T>(), n, F{});
        } else {
          detail::fill_packets(x.data<T>(), out.data<T>(), n, [](T v, auto packet) {
            return F::template eval<decltype(packet)::value>(v);
          });
        }
      } else {
        const T* p = x.data<T>();
        T* o = out.data<T>();
        for (int64_t i = 0; i < n; ++i) o[i] = int_f(p[i]);
      }
    });
  };
  return d;
}

struct IntRelu {
  template <typename T>
  T operator()(T x) const {
    return x > T(0) ? x : T(0);
  }
};
struct IntRelu6 {
  template <typename T>
  T operator()(T x) const {
    return x > T(6) ? T(6) : (x > T(0) ? x : T(0));
  }
};
OpRegistration r_relu(relu_def<detail::unary::Relu>("Relu", IntRelu{}));
OpRegistration r_relu6(relu_def<detail::unary::Relu6>("Relu6", IntRelu6{}));

// ---- LeakyRelu, Elu, Selu, Softplus ----

// A float activation (float or double) as TF's Eigen kernel evaluates it: whole packets and the
// scalar tail through F (eigen_unary.h).
template <typename F>
OpDef float_activation(const std::string& name, F f, bool default_float32 = false) {
  OpDef d;
  d.name = name;
  d.inputs = {{"features", "T"}};
  d.outputs = {{"activations", "T"}};
  d.type_attrs = {{"T", detail::kFloatTypes}};
  if (default_float32) d.type_attrs[0].default_type = DType::kFloat32;
  d.shape_fn = detail::same_shape_fn;
  d.kernel = [f](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    Tensor& out = ctx.allocate_output(0, x.dtype(), x.eager_shape());
    F g = f;
    if constexpr (std::is_same_v<F, detail::unary::LeakyRelu>) {
      g.alpha = ctx.attrs->count("alpha") ? attr_float(*ctx.attrs, "alpha") : 0.2f;
    }
    auto run = [&](auto* o, const auto* p) {
      using T = std::remove_cv_t<std::remove_pointer_t<decltype(p)>>;
      detail::fill_packets(p, o, x.num_elements(), [&](T v, auto packet) {
        return g.template eval<decltype(packet)::value>(v);
      });
    };
    if (x.dtype() == DType::kFloat32) {
      run(out.data<float>(), x.data<float>());
    } else {
      run(out.data<double>(), x.data<double>());
    }
  };
  return d;
}

// x > 0 ? x : x * alpha, with alpha the float32 attr widened to T (so 0.2 is 0.2f in float64).
OpRegistration r_leaky_relu(float_activation("LeakyRelu", detail::unary::LeakyRelu{}, true));
OpRegistration r_elu(float_activation("Elu", detail::unary::Elu{}));
OpRegistration r_selu(float_activation("Selu", detail::unary::Selu{}));
OpRegistration r_softplus(float_activation("Softplus", detail::unary::Softplus{}));

// TF's Softmax and LogSoftmax kernels over the last dim (softmax.h): oneDNN's for float32
// Softmax when TF uses oneDNN (ranks 1 to 5 only), Eigen's otherwise.
OpDef softmax_def(const std::string& name, bool log) {
  OpDef d;
  d.name = name;
  d.inputs = {{"logits", "T"}};
  d.outputs = {{log ? "logsoftmax" : "softmax", "T"}};
  d.type_attrs = {{"T", detail::kFloatTypes}};
  d.shape_fn = [](InferenceContext& c) {
    if (c.in(0).has_rank() && c.in(0).rank() < 1)
      c.fail("Shape must be at least rank 1 but is rank 0");
    c.set_output(0, c.in(0));
  };
  d.kernel = [log](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Shape& s = x.eager_shape();
    const bool onednn = !log && detail::tf_runs_onednn(x.dtype());
    if (onednn && (s.rank() < 1 || s.rank() > 5)) {
      throw_error(ErrorKind::kAborted, "Input dims must be <= 5 and >=1");
    }
    if (s.rank() < 1) ctx.fail("logits must have >= 1 dimension, got " + detail::dims_text(s));
    Tensor& out = ctx.allocate_output(0, x.dtype(), s);
    const int64_t classes = s.dim(s.rank() - 1);
    if (x.num_elements() == 0) return;
    const int64_t rows = x.num_elements() / classes;
    if (x.dtype() == DType::kFloat64) {
      detail::eigen_softmax(x.data<double>(), rows, classes, log, out.data<double>());
    } else if (onednn) {
      detail::onednn_softmax(x.data<float>(), rows, classes, detail::onednn_softmax_isa(),
                             out.data<float>());
    } else {
      detail::eigen_softmax(x.data<float>(), rows, classes, log, out.data<float>());
    }
  };
  return d;
}

OpRegistration r_softmax(softmax_def("Softmax", false));
OpRegistration r_log_softmax(softmax_def("LogSoftmax", true));

// oneDNN's swish, x * sigmoid(x), as TF's _MklSwish runs it (eltwise_swish, alpha 1): the
// logistic of -|x| from oneDNN's exp, e / (e + 1), mirrored to 1 - that for x >= 0 (sign bit
// clear), times x. TF's remapper makes this op of Mul(x, Sigmoid(x)) where oneDNN runs (grappler);
// every lane is independent, so only the ISA's multiply-adds matter.
template <bool kFused>
float onednn_swish(float x) {
  const float neg = -std::fabs(x);
  const float e = detail::onednn_exp<kFused>(neg);
  const float y = e / (e + 1.0f);
  const float s = std::signbit(x) ? y : 1.0f - y;
  return detail::flush_denormal(x * s);
}

OpRegistration r_mkl_swish([] {
  OpDef d;
  d.name = "_MklSwish";
  d.inputs = {{"features", "T"}};
  d.outputs = {{"activations", "T"}};
  d.type_attrs = {{"T", {DType::kFloat32}}};
  d.shape_fn = detail::same_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    if (x.dtype() != DType::kFloat32) {
      ctx.fail("[ops] _MklSwish of " + std::string(dtype_name(x.dtype())));
    }
    Tensor& out = ctx.allocate_output(0, x.dtype(), x.eager_shape());
    const float* p = x.data<float>();
    float* o = out.data<float>();
    const int64_t n = x.num_elements();
    const bool fused = detail::onednn_softmax_isa() != detail::OnednnSoftmaxIsa::kSse41;
    for (int64_t i = 0; i < n; ++i) {
      const float v = detail::flush_denormal(p[i]);
      o[i] = fused ? onednn_swish<true>(v) : onednn_swish<false>(v);
    }
  };
  return d;
}());

}  // namespace

namespace detail {
void anchor_nn_ops() {}

bool dense_f32(OpKernelContext& ctx, bool ta, bool tb, bool relu) {
  const Tensor &a = ctx.input(0), &w = ctx.input(1), &bias = ctx.input(2);
  if (a.dtype() != DType::kFloat32 || w.dtype() != DType::kFloat32 ||
      bias.dtype() != DType::kFloat32)
    return false;
  const Shape &sa = a.eager_shape(), &sw = w.eager_shape(), &sb = bias.eager_shape();
  if (sa.rank() != 2 || sw.rank() != 2 || sb.rank() != 1) return false;
  const int64_t m = ta ? sa.dim(1) : sa.dim(0), k = ta ? sa.dim(0) : sa.dim(1);
  const int64_t n = tb ? sw.dim(0) : sw.dim(1);
  if ((tb ? sw.dim(1) : sw.dim(0)) != k || sb.dim(0) != n) return false;
  float* out = ctx.allocate_output(0, DType::kFloat32, {m, n}).data<float>();
  tf_matmul_f32(a.data<float>(), ta, w.data<float>(), tb, m, k, n, out);
  add_bias(out, bias.data<float>(), out, m, n);
  if (relu) fill_packets_paired_tail(out, out, m * n, unary::Relu{});
  return true;
}
}  // namespace detail
}  // namespace tfs

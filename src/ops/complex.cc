// Complex elements: the ops that make and take apart complex tensors (Complex, Real, Imag,
// ComplexAbs, Conj, Angle) and the complex side of the arithmetic, comparison, Neg and Cast
// kernels. What TF 2.21 computes, found by comparing with it bit for bit: its wheel is built for
// AVX without FMA, so Eigen evaluates a complex64 tensor in packets of 4 elements (complex128:
// 2) and the remainder one element at a time. A product is (ac - bd) + (ad + bc)i in both, each
// product rounded. A quotient in a packet is Eigen's pdiv_complex (the divisor scaled by the
// larger of |c| and |d|, the product with its conjugate divided by the scaled squared norm, then
// by the scale); a remainder element is Smith's algorithm (what the C runtime's complex division
// does). This file is compiled with -ffp-contract=off so no product is fused into a sum.
#include <cmath>
#include <type_traits>

#include "complex_kernels.h"
#include "kernel_util.h"
#include "tfscope/complex.h"
#include "tfscope/ops.h"

namespace tfs::detail {
namespace {

// _mm_max_ps(x, y): x when x > y, else y (so y when either is NaN).
template <typename R>
R max_ps(R x, R y) {
  return x > y ? x : y;
}

// Eigen's pdiv_complex on one element of a packet.
template <typename R>
std::complex<R> packet_div(std::complex<R> x, std::complex<R> y) {
  const R c = y.real(), d = y.imag();
  // pmax(|y|, flip(|y|)) is max_ps(flip, |y|) per lane: Eigen swaps the operands.
  const R m_re = max_ps(std::fabs(d), std::fabs(c));
  const R m_im = max_ps(std::fabs(c), std::fabs(d));
  const R cs = c / m_re, ds = d / m_im;
  const R sq_re = cs * cs, sq_im = ds * ds;
  const R den_re = sq_re + sq_im, den_im = sq_im + sq_re;
  // x * conj(y_scaled) as Eigen's packet product: even lane a*c' - b*(-d'), odd a*(-d') + b*c'.
  const R nd = -ds;
  const R p_re = x.real() * cs - x.imag() * nd;
  const R p_im = x.real() * nd + x.imag() * cs;
  return {(p_re / den_re) / m_re, (p_im / den_im) / m_im};
}

// Smith's algorithm, as the C runtime divides one complex element.
template <typename R>
std::complex<R> scalar_div(std::complex<R> x, std::complex<R> y) {
  const R a = x.real(), b = x.imag(), c = y.real(), d = y.imag();
  if (std::fabs(c) < std::fabs(d)) {
    const R ratio = c / d;
    const R den = c * ratio + d;
    return {(a * ratio + b) / den, (b * ratio - a) / den};
  }
  const R ratio = d / c;
  const R den = d * ratio + c;
  return {(b * ratio + a) / den, (b - a * ratio) / den};
}

template <typename R>
std::complex<R> mul(std::complex<R> x, std::complex<R> y) {
  const R re = x.real() * y.real() - x.imag() * y.imag();
  const R im = x.real() * y.imag() + x.imag() * y.real();
  return {re, im};
}

// Elements per Eigen packet in TF's AVX build (8 floats / 4 doubles per register).
template <typename C>
constexpr int64_t kPacket = std::is_same_v<C, complex64> ? 4 : 2;

// out[k] = f(a[ia], b[ib], k) over the broadcast of the two inputs (elements In, results Out).
template <typename In, typename Out, typename F>
void broadcast_loop(OpKernelContext& ctx, DType out_dtype, F f) {
  const Tensor &a = ctx.input(0), &b = ctx.input(1);
  const Shape &sa = a.eager_shape(), &sb = b.eager_shape();
  auto os = broadcast_shapes(sa, sb);
  if (!os) ctx.fail("Incompatible shapes: " + dims_text(sa) + " vs. " + dims_text(sb));
  Tensor& out = ctx.allocate_output(0, out_dtype, *os);
  const In* pa = a.data<In>();
  const In* pb = b.data<In>();
  Out* po = out.data<Out>();
  for_each_broadcast(*os, broadcast_strides(sa, *os), broadcast_strides(sb, *os),
                     [&](int64_t k, int64_t ia, int64_t ib) { po[k] = f(pa[ia], pb[ib], k); });
}

template <typename C>
void binary(OpKernelContext& ctx, ComplexBinary op) {
  const DType dt = dtype_v<C>;
  switch (op) {
    case ComplexBinary::kAdd:
      return broadcast_loop<C, C>(
          ctx, dt, [](C x, C y, int64_t) { return C(x.real() + y.real(), x.imag() + y.imag()); });
    case ComplexBinary::kSub:
      return broadcast_loop<C, C>(
          ctx, dt, [](C x, C y, int64_t) { return C(x.real() - y.real(), x.imag() - y.imag()); });
    case ComplexBinary::kMul:
      return broadcast_loop<C, C>(ctx, dt, [](C x, C y, int64_t) { return mul(x, y); });
    case ComplexBinary::kDiv: {
      auto n = broadcast_shapes(ctx.input(0).eager_shape(), ctx.input(1).eager_shape());
      const int64_t packed = n ? n->num_elements() / kPacket<C> * kPacket<C> : 0;
      return broadcast_loop<C, C>(ctx, dt, [packed](C x, C y, int64_t k) {
        return k < packed ? packet_div(x, y) : scalar_div(x, y);
      });
    }
    case ComplexBinary::kEqual:
      return broadcast_loop<C, bool>(ctx, DType::kBool, [](C x, C y, int64_t) { return x == y; });
    case ComplexBinary::kNotEqual:
      return broadcast_loop<C, bool>(ctx, DType::kBool, [](C x, C y, int64_t) { return x != y; });
  }
}

// Complex(real, imag): broadcasting, Tout complex64 for float inputs, complex128 for double.
OpRegistration r_complex([] {
  OpDef d;
  d.name = "Complex";
  d.inputs = {{"real", "T"}, {"imag", "T"}};
  d.outputs = {{"out", "Tout"}};
  d.type_attrs = {{"T", kFloatTypes, DType::kFloat32},
                  {"Tout", {kComplex64, kComplex128}, kComplex64}};
  d.shape_fn = broadcast_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const DType tout = attr_type(*ctx.attrs, "Tout");
    visit_complex(tout, [&](auto tag) {
      using C = decltype(tag);
      using R = typename C::value_type;
      broadcast_loop<R, C>(ctx, tout, [](R re, R im, int64_t) { return C(re, im); });
    });
  };
  return d;
}());

// One complex input, one output of Tout (the real dtype) or T: Real, Imag, ComplexAbs, Angle.
template <typename F>
OpDef complex_to_real(const std::string& name, F f) {
  OpDef d;
  d.name = name;
  d.inputs = {{"input", "T"}};
  d.outputs = {{"output", "Tout"}};
  d.type_attrs = {{"T", {kComplex64, kComplex128}, kComplex64},
                  {"Tout", kFloatTypes, DType::kFloat32}};
  if (name == "ComplexAbs") d.inputs[0].name = "x", d.outputs[0].name = "y";
  d.shape_fn = same_shape_fn;
  d.kernel = [f](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    visit_complex(x.dtype(), [&](auto tag) {
      using C = decltype(tag);
      using R = typename C::value_type;
      Tensor& out = ctx.allocate_output(0, dtype_v<R>, x.eager_shape());
      const C* p = x.data<C>();
      R* o = out.data<R>();
      for (int64_t i = 0; i < x.num_elements(); ++i) o[i] = f(p[i]);
    });
  };
  return d;
}

OpRegistration r_real(complex_to_real("Real", [](auto z) { return z.real(); }));
OpRegistration r_imag(complex_to_real("Imag", [](auto z) { return z.imag(); }));
OpRegistration r_abs(complex_to_real("ComplexAbs",
                                     [](auto z) { return std::hypot(z.real(), z.imag()); }));
OpRegistration r_angle(complex_to_real("Angle",
                                       [](auto z) { return std::atan2(z.imag(), z.real()); }));

// A complex tensor's elements mapped one by one to a tensor of the same dtype and shape.
template <typename F>
void complex_map(OpKernelContext& ctx, F f) {
  const Tensor& x = ctx.input(0);
  Tensor& out = ctx.allocate_output(0, x.dtype(), x.eager_shape());
  visit_complex(x.dtype(), [&](auto tag) {
    using C = decltype(tag);
    const C* p = x.data<C>();
    C* o = out.data<C>();
    for (int64_t i = 0; i < x.num_elements(); ++i) o[i] = f(p[i]);
  });
}

OpRegistration r_conj([] {
  OpDef d;
  d.name = "Conj";
  d.inputs = {{"input", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {kComplex64, kComplex128, DType::kVariant}, kComplex64}};
  d.shape_fn = same_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    complex_map(ctx, [](auto z) { return decltype(z)(z.real(), -z.imag()); });
  };
  return d;
}());

template <typename D, typename R>
D real_to(R v) {
  if constexpr (std::is_same_v<D, bool>) {
    return v != R(0);
  } else if constexpr (std::is_integral_v<D>) {
    // As the float -> integer Cast: NaN is 0, out-of-range values saturate.
    const double x = static_cast<double>(v);
    if (std::isnan(x)) return 0;
    if (x >= static_cast<double>(std::numeric_limits<D>::max()))
      return std::numeric_limits<D>::max();
    if (x <= static_cast<double>(std::numeric_limits<D>::min()))
      return std::numeric_limits<D>::min();
    return static_cast<D>(x);
  } else {
    return static_cast<D>(v);
  }
}

}  // namespace

void complex_binary_kernel(OpKernelContext& ctx, ComplexBinary op) {
  visit_complex(ctx.input(0).dtype(), [&](auto tag) { binary<decltype(tag)>(ctx, op); });
}

void complex_neg_kernel(OpKernelContext& ctx) {
  complex_map(ctx, [](auto z) { return decltype(z)(-z.real(), -z.imag()); });
}

void complex_square_kernel(OpKernelContext& ctx) {
  complex_map(ctx, [](auto z) { return mul(z, z); });
}

namespace {

template <typename C>
void divide_by_count(C* out, int64_t n, int64_t count) {
  const C y(static_cast<typename C::value_type>(count), 0);
  const int64_t packed = n / kPacket<C> * kPacket<C>;
  for (int64_t i = 0; i < n; ++i) out[i] = i < packed ? packet_div(out[i], y) : scalar_div(out[i], y);
}

}  // namespace

void complex_divide_by_count(complex64* out, int64_t n, int64_t count) {
  divide_by_count(out, n, count);
}
void complex_divide_by_count(complex128* out, int64_t n, int64_t count) {
  divide_by_count(out, n, count);
}

void complex_cast(const Tensor& x, Tensor& out) {
  const int64_t n = x.num_elements();
  if (is_complex(x.dtype())) {
    visit_complex(x.dtype(), [&](auto stag) {
      using S = decltype(stag);
      const S* p = x.data<S>();
      if (is_complex(out.dtype())) {
        visit_complex(out.dtype(), [&](auto dtag) {
          using D = decltype(dtag);
          using DR = typename D::value_type;
          D* o = out.data<D>();
          for (int64_t i = 0; i < n; ++i)
            o[i] = D(static_cast<DR>(p[i].real()), static_cast<DR>(p[i].imag()));
        });
        return;
      }
      visit_dtype(out.dtype(), [&](auto dtag) {
        using D = decltype(dtag);
        D* o = out.data<D>();
        if constexpr (std::is_same_v<D, bool>) {
          for (int64_t i = 0; i < n; ++i) o[i] = p[i] != S(0);
        } else {
          for (int64_t i = 0; i < n; ++i) o[i] = real_to<D>(p[i].real());
        }
      });
    });
    return;
  }
  visit_complex(out.dtype(), [&](auto dtag) {
    using D = decltype(dtag);
    using DR = typename D::value_type;
    D* o = out.data<D>();
    visit_dtype(x.dtype(), [&](auto stag) {
      using S = decltype(stag);
      const S* p = x.data<S>();
      for (int64_t i = 0; i < n; ++i) o[i] = D(static_cast<DR>(p[i]), DR(0));
    });
  });
}

std::vector<DType> with_complex(std::vector<DType> types) {
  types.push_back(kComplex64);
  types.push_back(kComplex128);
  return types;
}

void anchor_complex_ops() {}

}  // namespace tfs::detail

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
#include <cstring>
#include <limits>
#include <type_traits>

#include "complex_kernels.h"
#include "eigen_contraction.h"
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

// A complex tensor's elements mapped one by one to a tensor of the same dtype and shape:
// f(z, in_packet), in_packet false for the n % packet elements TF's executor leaves to Eigen's
// scalar functions.
template <typename F>
void complex_map(OpKernelContext& ctx, F f) {
  const Tensor& x = ctx.input(0);
  Tensor& out = ctx.allocate_output(0, x.dtype(), x.eager_shape());
  visit_complex(x.dtype(), [&](auto tag) {
    using C = decltype(tag);
    const C* p = x.data<C>();
    C* o = out.data<C>();
    const int64_t n = x.num_elements(), packed = n / kPacket<C> * kPacket<C>;
    for (int64_t i = 0; i < n; ++i) o[i] = f(p[i], i < packed);
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
    complex_map(ctx, [](auto z, bool) { return decltype(z)(z.real(), -z.imag()); });
  };
  return d;
}());

// ConjugateTranspose: Transpose's shape function, checks and element order (its kernel runs
// first), then each element of a complex result conjugated; other dtypes are only transposed.
OpRegistration r_conjugate_transpose([] {
  OpDef d;
  d.name = "ConjugateTranspose";
  d.inputs = {{"x", "T"}, {"perm", "Tperm"}};
  d.outputs = {{"y", "T"}};
  d.type_attrs = {{"T", {}}, {"Tperm", kIndexTypes, DType::kInt32}};
  d.shape_fn = [](InferenceContext& c) { OpRegistry::global().get("Transpose").shape_fn(c); };
  d.kernel = [](OpKernelContext& ctx) {
    OpRegistry::global().get("Transpose").kernel(ctx);
    if (!is_complex(ctx.input(0).dtype())) return;
    // The transposed values may be the input's own buffer (an identity perm): conjugated into a
    // new output.
    const Tensor t = std::move((*ctx.outputs)[0]);
    Tensor& out = ctx.allocate_output(0, t.dtype(), t.eager_shape());
    visit_complex(t.dtype(), [&](auto tag) {
      using C = decltype(tag);
      const C* p = t.data<C>();
      C* o = out.data<C>();
      for (int64_t i = 0; i < t.num_elements(); ++i) o[i] = C(p[i].real(), -p[i].imag());
    });
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
  complex_map(ctx, [](auto z, bool) { return decltype(z)(-z.real(), -z.imag()); });
}

void complex_square_kernel(OpKernelContext& ctx) {
  complex_map(ctx, [](auto z, bool) { return mul(z, z); });
}

namespace {

template <typename C>
void divide_by_count(C* out, int64_t n, int64_t count) {
  const C y(static_cast<typename C::value_type>(count), 0);
  const int64_t packed = n / kPacket<C> * kPacket<C>;
  for (int64_t i = 0; i < n; ++i)
    out[i] = i < packed ? packet_div(out[i], y) : scalar_div(out[i], y);
}

}  // namespace

void complex_divide_by_count(complex64* out, int64_t n, int64_t count) {
  divide_by_count(out, n, count);
}
void complex_divide_by_count(complex128* out, int64_t n, int64_t count) {
  divide_by_count(out, n, count);
}

namespace {

// The four real sums of a complex dot product as Eigen's gebp kernel keeps them (a DoublePacket:
// re(a) re(b), im(a) im(b), im(a) re(b), re(a) im(b)), each a sequential sum of rounded products,
// combined at the end as (rr - ii) + (ri + ir)i. `Split` says how each sum runs over k:
//  kSequential: k in order (gebp's 2- and 3-packet micro kernels, and its one-column kernels);
//  kEvenOdd:    the one-packet kernel (and its half packets): over the first k / 8 * 8 values,
//               even and odd k apart, added, then the rest of k in order;
//  kFourLanes:  the kernel for the rows left over (Eigen's swapped traits, vectorised along k):
//               k mod 4 apart over the first k / 4 * 4 values, added as (0 + 1) + (2 + 3), then
//               the rest in order.
enum class Split { kSequential, kEvenOdd, kFourLanes };

template <typename C>
C gebp_dot(const C* a, int64_t sa, const C* b, int64_t sb, int64_t k, Split split) {
  using R = typename C::value_type;
  R acc[4][4] = {};
  int64_t lanes = 1, peeled = 0;
  if (split == Split::kEvenOdd) lanes = 2, peeled = k / 8 * 8;
  if (split == Split::kFourLanes) lanes = 4, peeled = k / 4 * 4;
  auto add = [&](int64_t p, int64_t lane) {
    const C x = a[p * sa], y = b[p * sb];
    acc[0][lane] += x.real() * y.real();
    acc[1][lane] += x.imag() * y.imag();
    acc[2][lane] += x.imag() * y.real();
    acc[3][lane] += x.real() * y.imag();
  };
  int64_t p = 0;
  for (; p < peeled; ++p) add(p, p % lanes);
  R sum[4];
  for (int q = 0; q < 4; ++q) {
    sum[q] = lanes == 4   ? (acc[q][0] + acc[q][1]) + (acc[q][2] + acc[q][3])
             : lanes == 2 ? acc[q][0] + acc[q][1]
                          : acc[q][0];
  }
  for (; p < k; ++p) {
    const C x = a[p * sa], y = b[p * sb];
    sum[0] += x.real() * y.real();
    sum[1] += x.imag() * y.imag();
    sum[2] += x.imag() * y.real();
    sum[3] += x.real() * y.imag();
  }
  return {sum[0] - sum[1], sum[2] + sum[3]};
}

// Eigen's scalar path (rows left over in the one-column kernel): a complex product per k, added.
template <typename C>
C scalar_dot(const C* a, int64_t sa, const C* b, int64_t sb, int64_t k) {
  C acc(0, 0);
  for (int64_t p = 0; p < k; ++p) {
    const C t = mul(a[p * sa], b[p * sb]);
    acc = C(acc.real() + t.real(), acc.imag() + t.imag());
  }
  return acc;
}

// gebp adds each k slice's sum to the result as r + sum * alpha, alpha = 1 + 0i, a complex
// product: (re - im * 0) + (re * 0 + im)i, so an infinite part makes the other NaN, as in TF.
template <typename C>
C add_slice(C r, C v) {
  using R = typename C::value_type;
  const R re = v.real() * R(1) - v.imag() * R(0), im = v.real() * R(0) + v.imag() * R(1);
  return {r.real() + re, r.imag() + im};
}

template <typename C>
void matmul(const C* a, bool ta, const C* b, bool tb, int64_t m, int64_t k, int64_t n, C* out) {
  // Element strides of op(a)[i, p] and op(b)[p, j].
  const int64_t a_row = ta ? 1 : k, a_k = ta ? m : 1;
  const int64_t b_k = tb ? 1 : n, b_col = tb ? k : 1;
  // Eigen is column-major: its lhs rows are TF's columns j (mr = 2 packets of 4 complex64; for
  // complex128 the same counts hold in TF's AVX build, packets of 2), its rhs panels nr = 4 of
  // TF's rows i, then the rows left one column at a time. One thread (TF's cost model gives the
  // small products one): blocks mc x nc of Eigen's M = n, N = m, k in slices of kc, from Eigen's
  // heuristic over this machine's caches; the micro kernels' groups start again in each block.
  constexpr bool c64 = std::is_same_v<C, complex64>;
  const int64_t packet = c64 ? 4 : 2;
  const EigenBlocking bl = eigen_product_blocking(k, n, m, 1, eigen_cache_sizes(),
                                                  c64 ? kComplex64Gebp : kComplex128Gebp);
  const int64_t kc = std::max<int64_t>(bl.kc, 1);
  for (int64_t i = 0; i < m; ++i) {
    const C* ai = a + i * a_row;
    const int64_t j2 = i / bl.nc * bl.nc, cols = std::min(bl.nc, m - j2);
    const bool in_panel = i - j2 < cols / 4 * 4;
    for (int64_t j = 0; j < n; ++j) {
      const int64_t i2 = j / bl.mc * bl.mc, rows = std::min(bl.mc, n - i2), jj = j - i2;
      const int64_t p2 = rows / (2 * packet) * (2 * packet);
      const int64_t p1 = p2 + (rows - p2) / packet * packet;
      const int64_t phalf = p1 + (rows - p1) / (packet / 2) * (packet / 2);
      const C* bj = b + j * b_col;
      C r(0, 0);
      for (int64_t k2 = 0; k2 < k; k2 += kc) {
        const int64_t depth = std::min(kc, k - k2);
        const C* ak = ai + k2 * a_k;
        const C* bk = bj + k2 * b_k;
        C v;
        if (in_panel) {
          v = jj < p2      ? gebp_dot(ak, a_k, bk, b_k, depth, Split::kSequential)
              : jj < phalf ? gebp_dot(ak, a_k, bk, b_k, depth, Split::kEvenOdd)
                           : gebp_dot(ak, a_k, bk, b_k, depth, Split::kFourLanes);
        } else {
          v = jj < phalf ? gebp_dot(ak, a_k, bk, b_k, depth, Split::kSequential)
                         : scalar_dot(ak, a_k, bk, b_k, depth);
        }
        r = add_slice(r, v);
      }
      out[i * n + j] = r;
    }
  }
}

}  // namespace

void complex_matmul(const Tensor& a, bool ta, const Tensor& b, bool tb, int64_t m, int64_t k,
                    int64_t n, Tensor& out) {
  visit_complex(a.dtype(), [&](auto tag) {
    using C = decltype(tag);
    matmul(a.data<C>(), ta, b.data<C>(), tb, m, k, n, out.data<C>());
  });
}

namespace {

// Eigen's psqrt_complex on one element of a packet: |z| as max * sqrt(1 + (min / max)^2),
// rho = sqrt((|x| + |z|) / 2), eta = (y / rho) / 2; (rho, eta) for x >= 0, (|eta|, sign(y) rho)
// for x < 0; then its infinities; a NaN in either part makes both parts all ones (the packet's
// por with the NaN mask of both lanes).
template <typename R>
std::complex<R> packet_sqrt(std::complex<R> z) {
  const R x = z.real(), y = z.imag();
  const R ax = std::fabs(x), ay = std::fabs(y);
  const R inf = std::numeric_limits<R>::infinity();
  const R mx = max_ps(ay, ax), mn = ay < ax ? ay : ax;  // Eigen's pmax / pmin, operands swapped
  const R r = mn / mx;
  const R l = mn == R(0) ? mx : mx * std::sqrt(R(1) + r * r);
  const R rho = std::sqrt(R(0.5) * (ax + l));
  const R eta = mx == R(0) ? R(0) : R(0.5) * (y / rho);
  std::complex<R> out =
      x < R(0) ? std::complex<R>(std::fabs(eta), std::copysign(rho, y)) : std::complex<R>(rho, eta);
  if (ay == inf) return {inf, y};
  if (ax == inf) {
    const R zero_y = ay * R(0);
    return x < R(0) ? std::complex<R>(zero_y, inf) : std::complex<R>(inf, zero_y);
  }
  if (!std::isnan(out.real()) && !std::isnan(out.imag())) return out;
  using U = std::conditional_t<sizeof(R) == 4, uint32_t, uint64_t>;
  const U ones = ~U(0);
  R nan;
  std::memcpy(&nan, &ones, sizeof nan);
  return {nan, nan};
}

// Eigen's complex_sqrt (numext::sqrt of one std::complex): w = sqrt((|x| + hypot(x, y)) / 2)
// with Eigen's hypot (max * sqrt(1 + (min / max)^2), infinities first, then NaNs).
template <typename R>
std::complex<R> scalar_sqrt(std::complex<R> z) {
  const R x = z.real(), y = z.imag();
  const R ax = std::fabs(x), ay = std::fabs(y);
  const R inf = std::numeric_limits<R>::infinity();
  R h;
  if (std::isinf(ax) || std::isinf(ay)) {
    h = inf;
  } else if (std::isnan(ax) || std::isnan(ay)) {
    h = std::numeric_limits<R>::quiet_NaN();
  } else {
    const R p = ax < ay ? ay : ax;  // numext::maxi(x, y): std::max
    const R q = ay < ax ? ay : ax;  // numext::mini(y, x): std::min
    h = p == R(0) ? R(0) : p * std::sqrt(R(1) + (q / p) * (q / p));
  }
  const R w = std::sqrt(R(0.5) * (ax + h));
  if (std::isinf(y)) return {inf, y};
  if (x == R(0)) return {w, y < R(0) ? -w : w};
  if (x > R(0)) return {w, y / (R(2) * w)};
  return {ay / (R(2) * w), y < R(0) ? -w : w};
}

}  // namespace

void complex_exp_kernel(OpKernelContext& ctx) {
  complex_map(ctx, [](auto z, bool) { return std::exp(z); });
}

void complex_sqrt_kernel(OpKernelContext& ctx) {
  complex_map(ctx, [](auto z, bool packet) { return packet ? packet_sqrt(z) : scalar_sqrt(z); });
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

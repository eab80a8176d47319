// Binary elementwise math, comparisons, logical ops, Cast and SelectV2 (unary math: math_unary.cc).
// Each op: TF's name, signature and type constraints, a shape function, and one CPU kernel used
// by eager and graph execution alike.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "buffer_reuse.h"
#include "complex_kernels.h"
#include "float_binary.h"
#include "float_loops.h"
#include "kernel_util.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

using detail::broadcast_strides;
using detail::dims_text;
using detail::for_each_broadcast;

// The output of a binary op whose shape is `shape`: the buffer of input `a` or `b` where it has
// that shape and nothing else holds it (TF's forward_input_or_allocate_output({0, 1})), else new.
template <typename R>
R* binary_output(OpKernelContext& ctx, const Tensor& a, const Tensor& b, const Shape& shape) {
  for (const Tensor* in : {&a, &b}) {
    if (in->dtype() == dtype_v<R> && in->eager_shape() == shape && detail::buffer_unshared(*in)) {
      ctx.set_output(0, *in);
      return detail::reused_data<R>(*in);
    }
  }
  return ctx.allocate_output(0, dtype_v<R>, shape).template data<R>();
}

// `bulk(a, a_step, b, b_step, o, n)`, where given, runs the loops over whole operands (a step of
// 0 repeats a scalar operand's element): the float32 add, subtract and multiply of float_loops.h.
template <typename T, typename R, typename F, typename Bulk = std::nullptr_t>
void binary_loop(OpKernelContext& ctx, F f, Bulk bulk = nullptr) {
  constexpr bool kBulk = !std::is_same_v<Bulk, std::nullptr_t>;
  const Tensor &a = ctx.input(0), &b = ctx.input(1);
  const Shape &sa = a.eager_shape(), &sb = b.eager_shape();
  const T* pa = a.data<T>();
  const T* pb = b.data<T>();
  if (sa == sb) {
    R* po = binary_output<R>(ctx, a, b, sa);
    int64_t n = sa.num_elements();
    if constexpr (kBulk) return bulk(pa, 1, pb, 1, po, n);
    for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], pb[i]);
    return;
  }
  // A scalar operand (x * 2.0) broadcasts to the other's shape: no shape to compute.
  if (sb.rank() == 0 || sa.rank() == 0) {
    const Shape& shape = sb.rank() == 0 ? sa : sb;
    R* po = binary_output<R>(ctx, a, b, shape);
    int64_t n = shape.num_elements();
    if constexpr (kBulk) return bulk(pa, sa.rank() != 0, pb, sb.rank() != 0, po, n);
    if (sb.rank() == 0) {
      T y = pb[0];
      for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], y);
    } else {
      T x = pa[0];
      for (int64_t i = 0; i < n; ++i) po[i] = f(x, pb[i]);
    }
    return;
  }
  auto os = broadcast_shapes(sa, sb);
  if (!os) ctx.fail("Incompatible shapes: " + dims_text(sa) + " vs. " + dims_text(sb));
  Tensor& out = ctx.allocate_output(0, dtype_v<R>, *os);
  R* po = out.data<R>();
  int64_t n = out.num_elements();
  if (sb.num_elements() == 1 && sa == *os) {
    T y = pb[0];
    for (int64_t i = 0; i < n; ++i) po[i] = f(pa[i], y);
    return;
  }
  if (sa.num_elements() == 1 && sb == *os) {
    T x = pa[0];
    for (int64_t i = 0; i < n; ++i) po[i] = f(x, pb[i]);
    return;
  }
  auto st_a = broadcast_strides(sa, *os), st_b = broadcast_strides(sb, *os);
  for_each_broadcast(*os, st_a, st_b,
                     [&](int64_t k, int64_t ia, int64_t ib) { po[k] = f(pa[ia], pb[ib]); });
}

// The float_loops.h operation a functor is, where it is one.
template <typename F>
struct FloatOpOf {
  static constexpr bool kKnown = false;
  static constexpr detail::FloatOp kOp = detail::FloatOp::kAdd;
};
template <detail::FloatOp kO>
struct KnownFloatOp {
  static constexpr bool kKnown = true;
  static constexpr detail::FloatOp kOp = kO;
};

// Dispatch a binary functor over the numeric dtypes (bool where Bool is true). The kernel's own
// type, so that a kernel wrapping it (or_complex) calls it directly.
template <bool kCompare, typename F>
auto binary_kernel(F f) {
  return [f](OpKernelContext& ctx) {
    visit_dtype(ctx.input(0).dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (kCompare) {
        binary_loop<T, bool>(ctx, [&](T x, T y) { return f(x, y); });
      } else if constexpr (std::is_same_v<T, bool>) {
        ctx.fail("[ops] bool is not a supported dtype for " + *ctx.op_name);
      } else if constexpr (std::is_same_v<T, float> && FloatOpOf<F>::kKnown) {
        binary_loop<T, T>(
            ctx, f,
            [](const float* a, int64_t as, const float* b, int64_t bs, float* o, int64_t n) {
              detail::float_loop<FloatOpOf<F>::kOp>(a, as, b, bs, o, n);
            });
      } else {
        binary_loop<T, T>(ctx, [&](T x, T y) { return static_cast<T>(f(x, y)); });
      }
    });
  };
}

OpDef binary_def(const std::string& name, const std::vector<DType>& types, Kernel k,
                 bool compare = false) {
  OpDef d;
  d.name = name;
  d.inputs = {{"x", "T"}, {"y", "T"}};
  d.outputs = {compare ? ArgDef{"z", "", DType::kBool} : ArgDef{"z", "T"}};
  d.type_attrs = {{"T", types}};
  d.shape_fn = detail::broadcast_shape_fn;
  d.kernel = std::move(k);
  return d;
}

struct Add { template <typename T> T operator()(T x, T y) const { return x + y; } };
struct Sub { template <typename T> T operator()(T x, T y) const { return x - y; } };
struct Mul { template <typename T> T operator()(T x, T y) const { return x * y; } };
template <> struct FloatOpOf<Add> : KnownFloatOp<detail::FloatOp::kAdd> {};
template <> struct FloatOpOf<Sub> : KnownFloatOp<detail::FloatOp::kSub> {};
template <> struct FloatOpOf<Mul> : KnownFloatOp<detail::FloatOp::kMul> {};
// TF's integer division and remainder fail on a zero divisor ("Integer division by zero", an
// InvalidArgumentError for Div, FloorDiv and FloorMod; TruncateDiv and TruncateMod report it as
// an InternalError). The quotient of the most negative value by -1 wraps around, as in TF.
[[noreturn]] void integer_division_by_zero(bool truncate) {
  if (truncate) {
    throw_error(ErrorKind::kInternal,
                "Unexpected error in binary operator (only integer div and mod should have "
                "errors)");
  }
  invalid_argument("Integer division by zero");
}

// x / y truncated toward zero, and x % y, for y != 0 (wrapping at the most negative x).
template <typename T>
T int_quotient(T x, T y, bool truncate) {
  if (y == 0) integer_division_by_zero(truncate);
  if constexpr (std::is_signed_v<T>) {
    using U = std::make_unsigned_t<T>;
    if (y == T(-1)) return static_cast<T>(U(0) - static_cast<U>(x));
  }
  return static_cast<T>(x / y);
}
template <typename T>
T int_remainder(T x, T y, bool truncate) {
  if (y == 0) integer_division_by_zero(truncate);
  if constexpr (std::is_signed_v<T>) {
    if (y == T(-1)) return T(0);
  }
  return static_cast<T>(x % y);
}

struct Div {
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (std::is_integral_v<T>) {
      return int_quotient(x, y, false);
    } else {
      return x / y;
    }
  }
};
struct FloorDivF {
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (std::is_integral_v<T>) {
      T q = int_quotient(x, y, false);
      if (int_remainder(x, y, false) != 0 && ((x < 0) != (y < 0))) --q;
      return q;
    } else {
      return std::floor(x / y);
    }
  }
};
struct FloorModF {
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (std::is_integral_v<T>) {
      T r = int_remainder(x, y, false);
      if (r != 0 && ((r < 0) != (y < 0))) r = static_cast<T>(r + y);
      return r;
    } else {
      T r = std::fmod(x, y);
      if (r != 0 && ((r < 0) != (y < 0))) r += y;
      return r;
    }
  }
};
struct TruncateDivF {
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (std::is_integral_v<T>) {
      return int_quotient(x, y, true);
    } else {
      return std::trunc(x / y);
    }
  }
};
struct TruncateModF {
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (std::is_integral_v<T>) {
      return int_remainder(x, y, true);
    } else {
      return std::fmod(x, y);
    }
  }
};
struct MaxF { template <typename T> T operator()(T x, T y) const { return (std::isnan(static_cast<double>(x)) || x > y) ? x : y; } };
struct MinF { template <typename T> T operator()(T x, T y) const { return (std::isnan(static_cast<double>(x)) || x < y) ? x : y; } };
struct PowF {
  template <typename T>
  T operator()(T x, T y) const {
    if constexpr (std::is_integral_v<T>) {
      if constexpr (std::is_signed_v<T>) {
        if (y < 0) invalid_argument("Integers to negative integer powers are not allowed");
      }
      // Binary exponentiation, wrapping around as TF's does.
      using U = std::conditional_t<sizeof(T) < 8, uint32_t, uint64_t>;
      U r = 1, b = static_cast<U>(x);
      for (auto e = static_cast<std::make_unsigned_t<T>>(y); e != 0; e >>= 1) {
        if (e & 1) r = static_cast<U>(r * b);
        b = static_cast<U>(b * b);
      }
      return static_cast<T>(r);
    } else {
      return std::pow(x, y);
    }
  }
};

// The ops TF also defines on complex64/complex128 (complex.cc has their complex kernels).
template <typename K>
auto or_complex(detail::ComplexBinary op, K real) {
  return [op, real](OpKernelContext& ctx) {
    if (is_complex(ctx.input(0).dtype())) return detail::complex_binary_kernel(ctx, op);
    real(ctx);
  };
}
using CB = detail::ComplexBinary;
const std::vector<DType> kNumberAndComplex = detail::with_complex(detail::kNumberTypes);

OpRegistration r_add(binary_def("AddV2", kNumberAndComplex, or_complex(CB::kAdd, binary_kernel<false>(Add{}))));
OpRegistration r_sub(binary_def("Sub", kNumberAndComplex, or_complex(CB::kSub, binary_kernel<false>(Sub{}))));
OpRegistration r_mul(binary_def("Mul", kNumberAndComplex, or_complex(CB::kMul, binary_kernel<false>(Mul{}))));
OpRegistration r_div(binary_def("RealDiv", kNumberAndComplex, or_complex(CB::kDiv, binary_kernel<false>(Div{}))));
OpRegistration r_fdiv(binary_def("FloorDiv", detail::kNumberTypes, binary_kernel<false>(FloorDivF{})));
OpRegistration r_fmod(binary_def("FloorMod", detail::kNumberTypes, binary_kernel<false>(FloorModF{})));
// Floats: Eigen's packet and scalar max/min, as TF (float_binary.cc).
OpRegistration r_max(binary_def("Maximum", detail::kNumberTypes, [](OpKernelContext& ctx) {
  if (is_floating(ctx.input(0).dtype())) return detail::float_maximum_kernel(ctx);
  binary_kernel<false>(MaxF{})(ctx);
}));
OpRegistration r_min(binary_def("Minimum", detail::kNumberTypes, [](OpKernelContext& ctx) {
  if (is_floating(ctx.input(0).dtype())) return detail::float_minimum_kernel(ctx);
  binary_kernel<false>(MinF{})(ctx);
}));
// Floats: Eigen's packet pow and the C library's on the tail, as TF (float_binary.cc).
// TF's Pow takes no unsigned types.
OpRegistration r_pow(binary_def("Pow", detail::kSignedNumberTypes, [](OpKernelContext& ctx) {
  if (is_floating(ctx.input(0).dtype())) return detail::float_pow_kernel(ctx);
  binary_kernel<false>(PowF{})(ctx);
}));
OpRegistration r_tdiv(binary_def("TruncateDiv", detail::kNumberTypes,
                                 binary_kernel<false>(TruncateDivF{})));
OpRegistration r_tmod(binary_def("TruncateMod",
                                 {DType::kInt32, DType::kInt64, DType::kFloat32, DType::kFloat64},
                                 binary_kernel<false>(TruncateModF{})));

struct LessF { template <typename T> bool operator()(T x, T y) const { return x < y; } };
struct LessEqF { template <typename T> bool operator()(T x, T y) const { return x <= y; } };
struct GreaterF { template <typename T> bool operator()(T x, T y) const { return x > y; } };
struct GreaterEqF { template <typename T> bool operator()(T x, T y) const { return x >= y; } };
struct EqF { template <typename T> bool operator()(T x, T y) const { return x == y; } };
struct NeF { template <typename T> bool operator()(T x, T y) const { return x != y; } };

OpRegistration r_less(binary_def("Less", detail::kNumberTypes, binary_kernel<true>(LessF{}), true));
OpRegistration r_lesseq(binary_def("LessEqual", detail::kNumberTypes, binary_kernel<true>(LessEqF{}), true));
OpRegistration r_gt(binary_def("Greater", detail::kNumberTypes, binary_kernel<true>(GreaterF{}), true));
OpRegistration r_gteq(binary_def("GreaterEqual", detail::kNumberTypes, binary_kernel<true>(GreaterEqF{}), true));

// Equal / NotEqual also compare bools and strings.
Kernel equality_kernel(bool want_equal) {
  return [want_equal](OpKernelContext& ctx) {
    if (ctx.input(0).dtype() == DType::kString) {
      const Tensor &a = ctx.input(0), &b = ctx.input(1);
      auto os = broadcast_shapes(a.eager_shape(), b.eager_shape());
      if (!os) ctx.fail("Incompatible shapes: " + dims_text(a.eager_shape()) + " vs. " + dims_text(b.eager_shape()));
      Tensor& out = ctx.allocate_output(0, DType::kBool, *os);
      bool* po = out.data<bool>();
      const auto &va = a.string_values(), &vb = b.string_values();
      for_each_broadcast(*os, broadcast_strides(a.eager_shape(), *os),
                         broadcast_strides(b.eager_shape(), *os),
                         [&](int64_t k, int64_t ia, int64_t ib) {
                           po[k] = (va[static_cast<size_t>(ia)] == vb[static_cast<size_t>(ib)]) == want_equal;
                         });
      return;
    }
    if (is_complex(ctx.input(0).dtype()))
      return detail::complex_binary_kernel(ctx, want_equal ? CB::kEqual : CB::kNotEqual);
    if (want_equal) binary_kernel<true>(EqF{})(ctx);
    else binary_kernel<true>(NeF{})(ctx);
  };
}

std::vector<DType> equality_types() {
  auto t = kNumberAndComplex;
  t.push_back(DType::kBool);
  t.push_back(DType::kString);
  return t;
}

OpRegistration r_eq([] {
  OpDef d = binary_def("Equal", equality_types(), equality_kernel(true), true);
  return d;
}());
OpRegistration r_ne(binary_def("NotEqual", equality_types(), equality_kernel(false), true));

Kernel logical_kernel(bool is_and) {
  return [is_and](OpKernelContext& ctx) {
    binary_loop<bool, bool>(ctx, [is_and](bool x, bool y) { return is_and ? (x && y) : (x || y); });
  };
}

OpDef logical_def(const std::string& name, bool is_and) {
  OpDef d;
  d.name = name;
  d.inputs = {{"x", "", DType::kBool}, {"y", "", DType::kBool}};
  d.outputs = {{"z", "", DType::kBool}};
  d.shape_fn = detail::broadcast_shape_fn;
  d.kernel = logical_kernel(is_and);
  return d;
}

OpRegistration r_land(logical_def("LogicalAnd", true));
OpRegistration r_lor(logical_def("LogicalOr", false));
OpRegistration r_lnot([] {
  OpDef d;
  d.name = "LogicalNot";
  d.inputs = {{"x", "", DType::kBool}};
  d.outputs = {{"y", "", DType::kBool}};
  d.shape_fn = detail::same_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    Tensor& out = ctx.allocate_output(0, DType::kBool, x.eager_shape());
    const bool* p = x.data<bool>();
    bool* o = out.data<bool>();
    for (int64_t i = 0; i < x.num_elements(); ++i) o[i] = !p[i];
  };
  return d;
}());

// ---- Cast ----

OpRegistration r_cast([] {
  OpDef d;
  d.name = "Cast";
  d.inputs = {{"x", "SrcT"}};
  d.outputs = {{"y", "DstT"}};
  d.type_attrs = {{"SrcT", {}}, {"DstT", {}}};
  d.shape_fn = detail::same_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    DType dst = attr_type(*ctx.attrs, "DstT");
    Tensor& out = ctx.allocate_output(0, dst, x.eager_shape());
    int64_t n = x.num_elements();
    if (is_complex(x.dtype()) || is_complex(dst)) return detail::complex_cast(x, out);
    visit_dtype(x.dtype(), [&](auto stag) {
      using S = decltype(stag);
      const S* p = x.data<S>();
      visit_dtype(dst, [&](auto dtag) {
        using D = decltype(dtag);
        D* o = out.data<D>();
        for (int64_t i = 0; i < n; ++i) {
          if constexpr (std::is_same_v<D, bool>) o[i] = p[i] != S(0);
          else if constexpr (std::is_integral_v<D> && std::is_floating_point_v<S>) {
            // C++ float->int conversion of out-of-range values is undefined; TF saturates NaN to 0.
            double v = static_cast<double>(p[i]);
            if (std::isnan(v)) o[i] = 0;
            else if (v >= static_cast<double>(std::numeric_limits<D>::max())) o[i] = std::numeric_limits<D>::max();
            else if (v <= static_cast<double>(std::numeric_limits<D>::min())) o[i] = std::numeric_limits<D>::min();
            else o[i] = static_cast<D>(v);
          } else {
            o[i] = static_cast<D>(p[i]);
          }
        }
      });
    });
  };
  return d;
}());

// ---- SelectV2 ----

OpRegistration r_select([] {
  OpDef d;
  d.name = "SelectV2";
  d.inputs = {{"condition", "", DType::kBool}, {"t", "T"}, {"e", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}};
  d.shape_fn = [](InferenceContext& c) {
    auto s = broadcast_shapes(c.in(1), c.in(2));
    if (s) s = broadcast_shapes(*s, c.in(0));
    if (!s) c.fail("Dimensions must be equal");
    c.set_output(0, *s);
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &c = ctx.input(0), &t = ctx.input(1), &e = ctx.input(2);
    auto s1 = broadcast_shapes(t.eager_shape(), e.eager_shape());
    std::optional<Shape> os = s1 ? broadcast_shapes(*s1, c.eager_shape()) : std::nullopt;
    if (!os) ctx.fail("Incompatible shapes");
    Tensor& out = ctx.allocate_output(0, t.dtype(), *os);
    auto sc = broadcast_strides(c.eager_shape(), *os), stt = broadcast_strides(t.eager_shape(), *os),
         se = broadcast_strides(e.eager_shape(), *os);
    visit_dtype(t.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const bool* pc = c.data<bool>();
      const T* pt = t.data<T>();
      const T* pe = e.data<T>();
      T* po = out.data<T>();
      // Walk the output once, tracking the condition offset separately.
      std::vector<int64_t> cond_off;
      cond_off.reserve(static_cast<size_t>(os->num_elements()));
      std::vector<int64_t> zero(sc.size(), 0);
      detail::for_each_broadcast(*os, sc, zero, [&](int64_t, int64_t ic, int64_t) { cond_off.push_back(ic); });
      detail::for_each_broadcast(*os, stt, se, [&](int64_t k, int64_t it, int64_t ie) {
        po[k] = pc[cond_off[static_cast<size_t>(k)]] ? pt[it] : pe[ie];
      });
    });
  };
  return d;
}());

}  // namespace

namespace detail {
void anchor_math_ops() {}
}  // namespace detail
}  // namespace tfs

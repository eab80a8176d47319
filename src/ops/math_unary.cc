// Unary math ops: Neg, Abs, Square, Sqrt, Rsqrt, Reciprocal, Exp, Expm1, Log, Log1p, Tanh,
// Sigmoid, Erf, Erfc, Sin, Cos, Tan, Sinh, Cosh, Asinh, Acosh. Float and double compute what
// TF 2.21's Eigen kernels compute, bit for bit: whole packets of one AVX register and the scalar
// tail each the way Eigen evaluates them (eigen_unary.h); the integer types Neg, Abs and Square
// take are plain C++.
#include <cmath>
#include <type_traits>

#include "complex_kernels.h"
#include "eigen_unary.h"
#include "kernel_util.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

// The integer side of Neg, Abs and Square (wrapping as TF's do).
struct IntNeg {
  template <typename T>
  T operator()(T x) const {
    return static_cast<T>(-x);
  }
};
struct IntAbs {
  template <typename T>
  T operator()(T x) const {
    return x < 0 ? static_cast<T>(-x) : x;
  }
};
struct IntSquare {
  template <typename T>
  T operator()(T x) const {
    return static_cast<T>(x * x);
  }
};
struct NoInt {};

// F on float and double as the executor splits a tensor; Int (when it is not NoInt) on integers.
template <typename F, typename Int>
Kernel unary_kernel(F f, Int int_f) {
  return [f, int_f](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    Tensor& out = ctx.allocate_output(0, x.dtype(), x.eager_shape());
    const int64_t n = x.num_elements();
    visit_dtype(x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>) {
        detail::fill_packets(x.data<T>(), out.data<T>(), n, [&](T v, auto packet) {
          return f.template eval<decltype(packet)::value>(v);
        });
      } else if constexpr (!std::is_same_v<T, bool> && !std::is_same_v<Int, NoInt>) {
        const T* p = x.data<T>();
        T* o = out.data<T>();
        for (int64_t i = 0; i < n; ++i) o[i] = int_f(p[i]);
      } else {
        ctx.fail("[ops] " + std::string(dtype_name(x.dtype())) + " is not supported by " +
                 *ctx.op_name);
      }
    });
  };
}

OpDef unary_def(const std::string& name, const std::vector<DType>& types, Kernel k) {
  OpDef d;
  d.name = name;
  d.inputs = {{"x", "T"}};
  d.outputs = {{"y", "T"}};
  d.type_attrs = {{"T", types}};
  d.shape_fn = detail::same_shape_fn;
  d.kernel = std::move(k);
  return d;
}

template <typename F>
OpRegistration float_op(const std::string& name) {
  return OpRegistration(unary_def(name, detail::kFloatTypes, unary_kernel(F{}, NoInt{})));
}

namespace u = detail::unary;
// `real` for real inputs, `complex` (complex_kernels.h) for complex64 and complex128.
Kernel or_complex(Kernel real, void (*complex)(OpKernelContext&)) {
  return [real = std::move(real), complex](OpKernelContext& ctx) {
    if (is_complex(ctx.input(0).dtype())) return complex(ctx);
    real(ctx);
  };
}

OpRegistration r_neg(unary_def("Neg", detail::with_complex(detail::kSignedNumberTypes),
                               or_complex(unary_kernel(u::Neg{}, IntNeg{}),
                                          detail::complex_neg_kernel)));
// TF's Abs, Neg and Pow take no unsigned types (uint8 is the OpDef's InvalidArgumentError).
OpRegistration r_abs(unary_def("Abs", detail::kSignedNumberTypes,
                               unary_kernel(u::Abs{}, IntAbs{})));
OpRegistration r_square(unary_def("Square", detail::with_complex(detail::kNumberTypes),
                                  or_complex(unary_kernel(u::Square{}, IntSquare{}),
                                             detail::complex_square_kernel)));
OpRegistration r_sqrt(unary_def("Sqrt", detail::with_complex(detail::kFloatTypes),
                                or_complex(unary_kernel(u::Sqrt{}, NoInt{}),
                                           detail::complex_sqrt_kernel)));
OpRegistration r_rsqrt = float_op<u::Rsqrt>("Rsqrt");
OpRegistration r_reciprocal = float_op<u::Reciprocal>("Reciprocal");
OpRegistration r_exp(unary_def("Exp", detail::with_complex(detail::kFloatTypes),
                               or_complex(unary_kernel(u::Exp{}, NoInt{}),
                                          detail::complex_exp_kernel)));
OpRegistration r_expm1 = float_op<u::Expm1>("Expm1");
OpRegistration r_log = float_op<u::Log>("Log");
OpRegistration r_log1p = float_op<u::Log1p>("Log1p");
OpRegistration r_tanh = float_op<u::Tanh>("Tanh");
OpRegistration r_sigmoid = float_op<u::Sigmoid>("Sigmoid");
OpRegistration r_erf = float_op<u::Erf>("Erf");
OpRegistration r_erfc = float_op<u::Erfc>("Erfc");
OpRegistration r_sin = float_op<u::Sin>("Sin");
OpRegistration r_cos = float_op<u::Cos>("Cos");
OpRegistration r_tan = float_op<u::Tan>("Tan");
OpRegistration r_sinh = float_op<u::Sinh>("Sinh");
OpRegistration r_cosh = float_op<u::Cosh>("Cosh");
OpRegistration r_asinh = float_op<u::Asinh>("Asinh");
OpRegistration r_acosh = float_op<u::Acosh>("Acosh");

}  // namespace

namespace detail {
void anchor_math_unary_ops() {}
}  // namespace detail
}  // namespace tfs

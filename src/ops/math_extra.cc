// Elementwise ops beyond math.cc: Sign, Floor, Ceil, Round and AddN, with TF 2.21's signatures,
// type lists (as far as tfscope has the dtypes) and CPU numerics: floats as TF's Eigen kernels
// evaluate them (eigen_unary.h: Round is half to even, a denormal reads as a signed zero, Sign
// of a denormal differs between packets and the tail), AddN sums its inputs left to right.
#include <cmath>
#include <type_traits>
#include <utility>
#include <vector>

#include "eigen_unary.h"
#include "kernel_util.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

// Sign and Round: TF's "bfloat16, half, float, double, int8, int16, int32, int64, complex".
const std::vector<DType> kSignedNumberTypes = {DType::kFloat32, DType::kFloat64, DType::kInt8,
                                               DType::kInt16,   DType::kInt32,   DType::kInt64};

// F on floats as the executor splits a tensor into packets and a tail; integers through F's
// int_eval, or rejected where F has none.
template <typename F>
OpDef elementwise_def(const std::string& name, const std::vector<DType>& types) {
  OpDef d;
  d.name = name;
  d.inputs = {{"x", "T"}};
  d.outputs = {{"y", "T"}};
  d.type_attrs = {{"T", types}};
  d.shape_fn = detail::same_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    Tensor& out = ctx.allocate_output(0, x.dtype(), x.eager_shape());
    const int64_t n = x.num_elements();
    visit_dtype(x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>) {
        detail::fill_packets(x.data<T>(), out.data<T>(), n, [](T v, auto packet) {
          return F::template eval<decltype(packet)::value>(v);
        });
      } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        const T* p = x.data<T>();
        T* o = out.data<T>();
        for (int64_t i = 0; i < n; ++i) o[i] = F::int_eval(p[i]);
      } else {
        ctx.fail("[ops] " + *ctx.op_name + " of " + std::string(dtype_name(x.dtype())));
      }
    });
  };
  return d;
}

struct SignF : detail::unary::Sign {
  template <typename T>
  static T int_eval(T x) {
    return static_cast<T>((x > T(0)) - (x < T(0)));
  }
};
struct FloorF : detail::unary::Floor {
  template <typename T>
  static T int_eval(T x) {
    return x;
  }
};
struct CeilF : detail::unary::Ceil {
  template <typename T>
  static T int_eval(T x) {
    return x;
  }
};
struct RoundF : detail::unary::Round {
  template <typename T>
  static T int_eval(T x) {
    return x;
  }
};

OpRegistration r_sign(elementwise_def<SignF>("Sign", kSignedNumberTypes));
OpRegistration r_floor(elementwise_def<FloorF>("Floor", detail::kFloatTypes));
OpRegistration r_ceil(elementwise_def<CeilF>("Ceil", detail::kFloatTypes));
OpRegistration r_round(elementwise_def<RoundF>("Round", kSignedNumberTypes));

// ---- AddN ----

OpRegistration r_add_n([] {
  OpDef d;
  d.name = "AddN";
  d.inputs = {{"inputs", "T", DType::kInvalid, "N"}};
  d.outputs = {{"sum", "T"}};
  d.type_attrs = {{"T", detail::kNumberTypes}};
  // The shapes merged from the last input to the first, as TF's AddN shape function does.
  d.shape_fn = [](InferenceContext& c) {
    int n = c.num_inputs();
    PartialShape cur = c.in(n - 1);
    for (int i = n - 2; i >= 0; --i) {
      if (auto err = detail::merge_shapes(c.in(i), cur, &cur)) {
        c.fail(*err + "\n\tFrom merging shape " + std::to_string(i) + " with other shapes.");
      }
    }
    c.set_output(0, cur);
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& first = ctx.input(0);
    const Shape& s = first.eager_shape();
    int n = ctx.num_inputs();
    for (int i = 1; i < n; ++i) {
      const Shape& si = ctx.input(i).eager_shape();
      if (si != s) {
        ctx.fail(
            "Inputs to operation AddN of type AddN must have the same size and shape.  "
            "Input 0: " +
            detail::dims_text(s) + " != input " + std::to_string(i) + ": " + detail::dims_text(si));
      }
    }
    Tensor& out = ctx.allocate_output(0, first.dtype(), s);
    visit_dtype(first.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
        T* o = out.data<T>();
        const int64_t count = first.num_elements();
        // The input whose buffer TF's kernel takes over as its output sums first: TF swaps it
        // with input 0 (in a graph, the executor says which one, "_forward_input"; eagerly none).
        std::vector<int> order(static_cast<size_t>(n));
        for (int i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
        const int64_t fwd = attr_int_or(*ctx.attrs, "_forward_input", 0);
        if (fwd > 0 && fwd < n) std::swap(order[0], order[static_cast<size_t>(fwd)]);
        std::copy_n(ctx.input(order[0]).data<T>(), count, o);
        // One input after the other: TF's Add2..Add9 and Add8p chains sum in this order.
        for (int i = 1; i < n; ++i) {
          const T* p = ctx.input(order[static_cast<size_t>(i)]).data<T>();
          for (int64_t k = 0; k < count; ++k) o[k] = static_cast<T>(o[k] + p[k]);
        }
      } else {
        ctx.fail("[ops] AddN of " + std::string(dtype_name(first.dtype())));
      }
    });
  };
  return d;
}());

}  // namespace

namespace detail {
void anchor_math_extra_ops() {}
}  // namespace detail
}  // namespace tfs

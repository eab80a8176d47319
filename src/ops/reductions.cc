// Reductions: Sum, Mean, Max, Min, Prod, Any, All (input, reduction_indices, keep_dims), ArgMax
// and ArgMin.
// Shape functions, accumulation types and error texts follow TF 2.21's reduction_ops and
// argmax_op: the input is reshaped as TF's ReductionHelper does, float32/float64 Sum, Mean, Prod,
// Max and Min then reduce in the order of TF's Eigen kernels (eigen_reduce.h), so their bits are
// TF's; integer Mean sums in 64 bits and truncates, Max/Min propagate NaN and reduce an empty
// axis to -inf/+inf (lowest/highest for integers), Any/All reduce an empty axis to false/true,
// ArgMax/ArgMin keep the first of equal extremes and skip NaN.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <type_traits>

#include "column_sums.h"
#include "complex_kernels.h"
#include "eigen_reduce.h"
#include "kernel_util.h"
#include "tfscope/cpu_info.h"
#include "tfscope/ops.h"
#include "tfscope/thread_pool.h"

namespace tfs {
namespace {

using detail::dims_text;

// ---- shape function (TF's ReductionShape) ----

void reduction_shape_fn(InferenceContext& c) {
  const PartialShape& in = c.in(0);
  const PartialShape& axes = c.in(1);
  if (axes.has_rank() && axes.rank() > 1) {
    c.fail("Shape must be at most rank 1 but is rank " + std::to_string(axes.rank()));
  }
  bool keep_dims = attr_bool_or(*c.attrs, "keep_dims", false);
  const Tensor* axes_t = c.value(1);
  if (!axes_t || !in.has_rank()) {
    if (keep_dims && in.has_rank()) c.set_output(0, PartialShape::unknown_of_rank(in.rank()));
    return;
  }
  int r = in.rank();
  std::set<int64_t> reduced;
  for (int64_t a : detail::tensor_ints(*axes_t)) {
    if (a < -r || a >= r) {
      c.fail("Invalid reduction dimension " + std::to_string(a) + " for input with " +
             std::to_string(r) + " dimensions.");
    }
    reduced.insert(a < 0 ? a + r : a);
  }
  std::vector<int64_t> dims;
  for (int i = 0; i < r; ++i) {
    if (!reduced.count(i))
      dims.push_back(in.dim(i));
    else if (keep_dims)
      dims.push_back(1);
  }
  c.set_output(0, PartialShape(dims));
}

// ---- kernels ----

// Which input dims are reduced, checked as TF's ReductionHelper::Simplify checks them.
std::vector<bool> reduced_dims(OpKernelContext& ctx, int rank) {
  std::vector<bool> bitmap(static_cast<size_t>(rank), false);
  for (int64_t a : detail::tensor_ints(ctx.input(1))) {
    if (a < -rank || a >= rank) {
      ctx.fail("Invalid reduction dimension (" + std::to_string(a) + " for input with " +
               std::to_string(rank) + " dimension(s)");
    }
    int64_t w = (a + rank) % rank;
    if (bitmap[static_cast<size_t>(w)]) {
      ctx.fail("Invalid reduction arguments: Axes contains duplicate dimension: " +
               std::to_string(w));
    }
    bitmap[static_cast<size_t>(w)] = true;
  }
  return bitmap;
}

// The input as TF's ReductionHelper::Simplify reshapes it before reducing: leading 1s dropped,
// a dim of size 1 joined to the run before it, adjacent dims that are both reduced (or both
// kept) merged. dims alternates between reduced and kept runs, starting with a reduced run when
// reduce_first. No dims: the input is one value.
struct ReductionView {
  std::vector<int64_t> dims;
  bool reduce_first = true;
  // TF copies the input instead of reducing when nothing is left to reduce.
  bool is_copy() const { return dims.empty() || (dims.size() == 1 && !reduce_first); }
};

ReductionView simplify(const Shape& s, std::vector<bool> bitmap) {
  ReductionView v;
  const int r = s.rank();
  int i = 0;
  while (i < r && s.dim(i) == 1) ++i;
  if (i >= r) return v;
  v.reduce_first = bitmap[static_cast<size_t>(i)];
  v.dims.push_back(s.dim(i));
  for (++i; i < r; ++i) {
    const size_t u = static_cast<size_t>(i);
    if (s.dim(i) == 1) bitmap[u] = bitmap[u - 1];
    if (bitmap[u] != bitmap[u - 1]) {
      v.dims.push_back(s.dim(i));
    } else {
      v.dims.back() *= s.dim(i);
    }
  }
  return v;
}

enum class Reduce { kSum, kMean, kMax, kMin, kProd };

template <typename T>
inline constexpr bool is_complex_v = std::is_same_v<T, complex64> || std::is_same_v<T, complex128>;

// Calls f(input flat index, output flat index) for every input element, in input order.
template <typename F>
void for_each_reduced(const ReductionView& v, F f) {
  const size_t nd = v.dims.size();
  std::vector<int64_t> strides(nd, 0), idx(nd, 0);
  int64_t st = 1;
  for (size_t d = nd; d-- > 0;) {
    const bool reduced = (d % 2 == 0) == v.reduce_first;
    if (!reduced) {
      strides[d] = st;
      st *= v.dims[d];
    }
  }
  int64_t n = 1;
  for (int64_t d : v.dims) n *= d;
  int64_t o = 0;
  for (int64_t k = 0; k < n; ++k) {
    f(k, o);
    for (size_t d = nd; d-- > 0;) {
      if (++idx[d] < v.dims[d]) {
        o += strides[d];
        break;
      }
      o -= strides[d] * (v.dims[d] - 1);
      idx[d] = 0;
    }
  }
}

// The reduced dims moved last, as TF transposes more than three runs: [kept..., reduced...].
template <typename T>
std::vector<T> shuffle_reduced_last(const T* x, const ReductionView& v, int64_t n_out) {
  int64_t n = 1;
  for (int64_t d : v.dims) n *= d;
  const int64_t per_out = n / n_out;
  std::vector<T> out(static_cast<size_t>(n));
  // For a fixed output the input order visits its reduced values in row-major order.
  std::vector<int64_t> seen(static_cast<size_t>(n_out), 0);
  for_each_reduced(v, [&](int64_t k, int64_t o) {
    out[static_cast<size_t>(o * per_out + seen[static_cast<size_t>(o)]++)] = x[k];
  });
  return out;
}

// A float reduction in the order of TF's ReductionOp on Eigen's ThreadPoolDevice.
template <class R, typename T>
void reduce_float(const ReductionView& v, const T* x, int64_t n_out, T* out) {
  const auto& d = v.dims;
  const detail::MemorySource<T> src{x};
  if (d.size() == 1) {
    out[0] = detail::reduce_full<R>(src, d[0], intra_op_threads());
  } else if (d.size() == 2 && v.reduce_first) {
    if constexpr (std::is_same_v<R, detail::SumReducer<float>>) {
      // Every output in a whole packet (one output row, cols a multiple of 8): the preserver's
      // lanes, 8 columns to a register (the gradient of a bias added by broadcasting).
      if (d[1] % 8 == 0 && detail::float_kernels_use_avx2()) {
        detail::column_sums_avx2(x, d[0], d[1], d[0] >= 16 ? d[0] / 4 * 4 : 0, out);
        return;
      }
    }
    detail::reduce_preserving_inner<R>(x, 1, d[0], d[1], out);
  } else if (d.size() == 2) {
    for (int64_t i = 0; i < d[0]; ++i) out[i] = detail::reduce_inner<R>(src, i * d[1], d[1]);
  } else if (d.size() == 3 && v.reduce_first) {
    detail::reduce_outer_and_inner<R>(x, d[0], d[1], d[2], out);
  } else if (d.size() == 3) {
    detail::reduce_preserving_inner<R>(x, d[0], d[1], d[2], out);
  } else {
    const std::vector<T> shuffled = shuffle_reduced_last(x, v, n_out);
    const detail::MemorySource<T> s{shuffled.data()};
    const int64_t per_out = static_cast<int64_t>(shuffled.size()) / n_out;
    for (int64_t i = 0; i < n_out; ++i) out[i] = detail::reduce_inner<R>(s, i * per_out, per_out);
  }
}

template <typename T>
void reduce_float_op(Reduce op, const ReductionView& v, const T* x, int64_t n_in, int64_t n_out,
                     T* out) {
  switch (op) {
    case Reduce::kSum:
      return reduce_float<detail::SumReducer<T>>(v, x, n_out, out);
    case Reduce::kMean: {
      // TF's Mean: Eigen's sum, then each output divided by the count.
      reduce_float<detail::SumReducer<T>>(v, x, n_out, out);
      const T count = static_cast<T>(n_in / n_out);
      for (int64_t i = 0; i < n_out; ++i) out[i] = detail::flush_denormal(out[i] / count);
      return;
    }
    case Reduce::kProd:
      return reduce_float<detail::ProdReducer<T>>(v, x, n_out, out);
    case Reduce::kMax:
      return reduce_float<detail::ExtremeReducer<T, true>>(v, x, n_out, out);
    case Reduce::kMin:
      return reduce_float<detail::ExtremeReducer<T, false>>(v, x, n_out, out);
  }
}

// Integer reductions wrap around as TF's do (in the input's width; Mean in 64 bits, then
// truncated); their results do not depend on the order.
template <typename T>
void reduce_int_op(Reduce op, const ReductionView& v, const T* x, int64_t n_in, int64_t n_out,
                   T* out) {
  using Wrap = std::conditional_t<sizeof(T) < 8, uint32_t, uint64_t>;
  switch (op) {
    case Reduce::kSum:
    case Reduce::kProd: {
      const bool sum = op == Reduce::kSum;
      std::vector<Wrap> acc(static_cast<size_t>(n_out), sum ? 0 : 1);
      for_each_reduced(v, [&](int64_t k, int64_t o) {
        Wrap& a = acc[static_cast<size_t>(o)];
        const Wrap w = static_cast<Wrap>(x[k]);
        a = sum ? static_cast<Wrap>(a + w) : static_cast<Wrap>(a * w);
      });
      for (int64_t i = 0; i < n_out; ++i) out[i] = static_cast<T>(acc[static_cast<size_t>(i)]);
      return;
    }
    case Reduce::kMean: {
      // TF sums in 64 bits (unsigned for unsigned types) and divides there.
      std::vector<uint64_t> acc(static_cast<size_t>(n_out), 0);
      for_each_reduced(v, [&](int64_t k, int64_t o) {
        acc[static_cast<size_t>(o)] += static_cast<uint64_t>(static_cast<int64_t>(x[k]));
      });
      const int64_t count = n_in / n_out;
      for (int64_t i = 0; i < n_out; ++i) {
        const uint64_t a = acc[static_cast<size_t>(i)];
        if constexpr (std::is_signed_v<T>) {
          out[i] = static_cast<T>(static_cast<int64_t>(a) / count);
        } else {
          out[i] = static_cast<T>(a / static_cast<uint64_t>(count));
        }
      }
      return;
    }
    case Reduce::kMax:
    case Reduce::kMin: {
      const bool is_max = op == Reduce::kMax;
      std::fill_n(out, n_out,
                  is_max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max());
      for_each_reduced(v, [&](int64_t k, int64_t o) {
        if (is_max ? x[k] > out[o] : x[k] < out[o]) out[o] = x[k];
      });
      return;
    }
  }
}

// The value TF fills a non-empty output of an empty reduction with.
template <typename T>
T empty_reduction_value(Reduce op) {
  if constexpr (is_complex_v<T>) {  // Sum and Mean: 0 (TF 2.21's complex Mean of nothing)
    return T(0);
  } else {
  switch (op) {
    case Reduce::kSum:
      return T(0);
    case Reduce::kProd:
      return T(1);
    case Reduce::kMean:
      return std::is_floating_point_v<T> ? std::numeric_limits<T>::quiet_NaN() : T(0);
    case Reduce::kMax:
      return std::is_floating_point_v<T> ? -std::numeric_limits<T>::infinity()
                                         : std::numeric_limits<T>::lowest();
    case Reduce::kMin:
      return std::is_floating_point_v<T> ? std::numeric_limits<T>::infinity()
                                         : std::numeric_limits<T>::max();
  }
  return T(0);
  }
}

// The output shape and the simplified view of a reduction's input, with TF's axis errors.
struct ReductionSetup {
  Shape out_shape;
  ReductionView view;
};

ReductionSetup setup_reduction(OpKernelContext& ctx) {
  const Shape& s = ctx.input(0).eager_shape();
  const std::vector<bool> bitmap = reduced_dims(ctx, s.rank());
  const bool keep_dims = attr_bool_or(*ctx.attrs, "keep_dims", false);
  std::vector<int64_t> out_dims;
  for (int i = 0; i < s.rank(); ++i) {
    if (!bitmap[static_cast<size_t>(i)]) {
      out_dims.push_back(s.dim(i));
    } else if (keep_dims) {
      out_dims.push_back(1);
    }
  }
  return {Shape(out_dims), simplify(s, bitmap)};
}

template <typename T>
void reduce_typed(OpKernelContext& ctx, Reduce op) {
  const Tensor& x = ctx.input(0);
  const ReductionSetup r = setup_reduction(ctx);
  Tensor& out = ctx.allocate_output(0, x.dtype(), r.out_shape);
  const int64_t n_in = x.num_elements(), n_out = out.num_elements();
  const T* px = x.data<T>();
  T* po = out.data<T>();
  if (r.view.is_copy()) {
    std::copy_n(px, n_in, po);
  } else if (n_out == 0) {
    return;
  } else if (n_in == 0) {
    std::fill_n(po, n_out, empty_reduction_value<T>(op));
  } else if constexpr (std::is_floating_point_v<T>) {
    reduce_float_op(op, r.view, px, n_in, n_out, po);
  } else if constexpr (is_complex_v<T>) {
    // Sum and Mean: Eigen's sum over complex packets (4 complex64, 2 complex128 to a
    // register) in the float sums' order, each part on its own lanes; Mean then divides.
    reduce_float<detail::SumReducer<T>>(r.view, px, n_out, po);
    if (op == Reduce::kMean) detail::complex_divide_by_count(po, n_out, n_in / n_out);
  } else {
    reduce_int_op(op, r.view, px, n_in, n_out, po);
  }
}

const std::vector<DType> kReduceTypes = detail::kNumberTypes;

OpDef reduction_def(const std::string& name, Reduce op) {
  const bool complex = op == Reduce::kSum || op == Reduce::kMean;
  OpDef d;
  d.name = name;
  d.inputs = {{"input", "T"}, {"reduction_indices", "Tidx"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", complex ? detail::with_complex(kReduceTypes) : kReduceTypes},
                  {"Tidx", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = reduction_shape_fn;
  d.kernel = [op](OpKernelContext& ctx) {
    if (is_complex(ctx.input(0).dtype())) {
      return visit_complex(ctx.input(0).dtype(),
                           [&](auto tag) { reduce_typed<decltype(tag)>(ctx, op); });
    }
    visit_dtype(ctx.input(0).dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, bool>) {
        ctx.fail("[ops] " + *ctx.op_name + " of bool");
      } else {
        reduce_typed<T>(ctx, op);
      }
    });
  };
  return d;
}

OpRegistration r_sum(reduction_def("Sum", Reduce::kSum));
OpRegistration r_mean(reduction_def("Mean", Reduce::kMean));
OpRegistration r_max(reduction_def("Max", Reduce::kMax));
OpRegistration r_min(reduction_def("Min", Reduce::kMin));
OpRegistration r_prod(reduction_def("Prod", Reduce::kProd));

// ---- Any / All ----

OpDef logical_reduction_def(const std::string& name, bool is_any) {
  OpDef d;
  d.name = name;
  d.inputs = {{"input", "", DType::kBool}, {"reduction_indices", "Tidx"}};
  d.outputs = {{"output", "", DType::kBool}};
  d.type_attrs = {{"Tidx", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = reduction_shape_fn;
  d.kernel = [is_any](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const ReductionSetup r = setup_reduction(ctx);
    Tensor& out = ctx.allocate_output(0, DType::kBool, r.out_shape);
    const bool* px = x.data<bool>();
    bool* po = out.data<bool>();
    if (r.view.is_copy()) {
      std::copy_n(px, x.num_elements(), po);
      return;
    }
    // An empty reduction is false for Any, true for All.
    std::fill_n(po, out.num_elements(), !is_any);
    if (x.num_elements() == 0) return;
    for_each_reduced(r.view, [&](int64_t k, int64_t o) {
      po[o] = is_any ? (po[o] || px[k]) : (po[o] && px[k]);
    });
  };
  return d;
}

OpRegistration r_any(logical_reduction_def("Any", true));
OpRegistration r_all(logical_reduction_def("All", false));

// ---- ArgMax / ArgMin ----

// Eigen's ArgMaxPairReducer (ArgMinPairReducer) as TF runs it: start from (index 0, lowest
// (highest) value); a value replaces the best when greater (less), or equal with a smaller index.
// NaN compares false and is skipped.
template <typename T>
int64_t arg_extreme_of(const T* p, int64_t n, int64_t stride, bool is_max) {
  int64_t best_i = 0;
  T best = is_max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
  for (int64_t i = 0; i < n; ++i) {
    T v = p[i * stride];
    if (is_max ? v < best : v > best) continue;
    if ((is_max ? v > best : v < best) || best_i > i) {
      best = v;
      best_i = i;
    }
  }
  return best_i;
}

OpDef arg_reduction_def(const std::string& name, bool is_max) {
  OpDef d;
  d.name = name;
  d.inputs = {{"input", "T"}, {"dimension", "Tidx"}};
  d.outputs = {{"output", "output_type"}};
  std::vector<DType> types = detail::kNumberTypes;
  types.push_back(DType::kBool);
  // TF 2.21's ArgMax also takes int16 indices and outputs; ArgMin does not.
  std::vector<DType> index_types =
      is_max ? std::vector<DType>{DType::kInt16, DType::kInt32, DType::kInt64}
             : std::vector<DType>{DType::kInt32, DType::kInt64};
  d.type_attrs = {{"T", types},
                  {"Tidx", index_types, DType::kInt32},
                  {"output_type", index_types, DType::kInt64}};
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape& in = c.in(0);
    const PartialShape& dim_s = c.in(1);
    if (dim_s.has_rank() && dim_s.rank() != 0) {
      c.fail("Shape must be rank 0 but is rank " + std::to_string(dim_s.rank()));
    }
    if (!in.has_rank()) return;
    int r = in.rank();
    if (r <= 1) {
      c.set_output(0, PartialShape(std::vector<int64_t>{}));
      return;
    }
    const Tensor* dim_t = c.value(1);
    if (!dim_t) {
      c.set_output(0, PartialShape::unknown_of_rank(r - 1));
      return;
    }
    int64_t dim = detail::tensor_ints(*dim_t)[0];
    int64_t axis = dim < 0 ? dim + r : dim;
    if (axis < 0 || axis >= r) {
      c.fail("Dimension (" + std::to_string(dim) + ") must be in the range [" + std::to_string(-r) +
             ", " + std::to_string(r) + "), where " + std::to_string(r) +
             " is the number of dimensions in the input.");
    }
    std::vector<int64_t> dims = in.dims();
    dims.erase(dims.begin() + axis);
    c.set_output(0, PartialShape(dims));
  };
  d.kernel = [is_max](OpKernelContext& ctx) {
    const Tensor &x = ctx.input(0), &dim_t = ctx.input(1);
    if (dim_t.eager_shape().rank() != 0) {
      ctx.fail("dim must be a scalar, but received tensor of shape: " +
               dims_text(dim_t.eager_shape()));
    }
    const Shape& s = x.eager_shape();
    int r = s.rank();
    int64_t dim = detail::tensor_ints(dim_t)[0];
    int64_t axis = dim < 0 ? dim + r : dim;
    if (axis < 0 || axis >= r) {
      ctx.fail("Expected dimension in the range [" + std::to_string(-r) + ", " + std::to_string(r) +
               "), but got " + std::to_string(dim));
    }
    int64_t n = s.dim(static_cast<int>(axis));
    if (n == 0) {
      ctx.fail("Reduction axis " + std::to_string(dim) + " is empty in shape " + dims_text(s));
    }
    std::vector<int64_t> od = s.dims();
    od.erase(od.begin() + axis);
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < axis; ++i) outer *= s.dim(i);
    for (int i = static_cast<int>(axis) + 1; i < r; ++i) inner *= s.dim(i);
    DType out_type = attr_type(*ctx.attrs, "output_type");
    Tensor& out = ctx.allocate_output(0, out_type, Shape(od));
    visit_dtype(x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      const T* px = x.data<T>();
      visit_dtype(out_type, [&](auto otag) {
        using O = decltype(otag);
        O* po = out.data<O>();
        for (int64_t o = 0; o < outer; ++o) {
          for (int64_t i = 0; i < inner; ++i) {
            po[o * inner + i] =
                static_cast<O>(arg_extreme_of<T>(px + o * n * inner + i, n, inner, is_max));
          }
        }
      });
    });
  };
  return d;
}

OpRegistration r_argmax(arg_reduction_def("ArgMax", true));
OpRegistration r_argmin(arg_reduction_def("ArgMin", false));

}  // namespace

namespace detail {
void anchor_reduction_ops() {}
}  // namespace detail
}  // namespace tfs

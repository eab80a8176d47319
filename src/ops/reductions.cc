// Reductions: Sum, Mean, Max, Min, Prod, Any, All (input, reduction_indices, keep_dims), ArgMax
// and ArgMin.
// Shape functions, accumulation types and error texts follow TF 2.21's reduction_ops and
// argmax_op: integer Mean sums in 64 bits and truncates, Max/Min propagate NaN and reduce an
// empty axis to -inf/+inf (lowest/highest for integers), Any/All reduce an empty axis to
// false/true, ArgMax/ArgMin keep the first of equal extremes and skip NaN.
#include <cmath>
#include <limits>
#include <set>

#include "kernel_util.h"
#include "tfscope/ops.h"

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

// For each input element in row-major order, the flat index of the output element it reduces
// into; also the output shape.
struct ReductionPlan {
  Shape out_shape;
  std::vector<int64_t> out_index;  // per input element
  int64_t out_count = 0;
};

ReductionPlan plan_reduction(OpKernelContext& ctx) {
  const Shape& s = ctx.input(0).eager_shape();
  int r = s.rank();
  std::vector<bool> bitmap = reduced_dims(ctx, r);
  bool keep_dims = attr_bool_or(*ctx.attrs, "keep_dims", false);
  std::vector<int64_t> out_dims, kept;
  for (int i = 0; i < r; ++i) {
    if (!bitmap[static_cast<size_t>(i)]) {
      out_dims.push_back(s.dim(i));
      kept.push_back(i);
    } else if (keep_dims) {
      out_dims.push_back(1);
    }
  }
  // Strides of the kept dims in the output, 0 for reduced ones.
  std::vector<int64_t> strides(static_cast<size_t>(r), 0);
  int64_t st = 1;
  for (auto it = kept.rbegin(); it != kept.rend(); ++it) {
    strides[static_cast<size_t>(*it)] = st;
    st *= s.dim(static_cast<int>(*it));
  }
  ReductionPlan p;
  p.out_shape = Shape(out_dims);
  p.out_count = p.out_shape.num_elements();
  int64_t n = s.num_elements();
  p.out_index.resize(static_cast<size_t>(n));
  if (n == 0) return p;
  std::vector<int64_t> idx(static_cast<size_t>(r), 0);
  int64_t off = 0;
  for (int64_t k = 0; k < n; ++k) {
    p.out_index[static_cast<size_t>(k)] = off;
    for (int d = r - 1; d >= 0; --d) {
      size_t ud = static_cast<size_t>(d);
      if (++idx[ud] < s.dim(d)) {
        off += strides[ud];
        break;
      }
      off -= strides[ud] * (s.dim(d) - 1);
      idx[ud] = 0;
    }
  }
  return p;
}

enum class Reduce { kSum, kMean, kMax, kMin, kProd };

template <typename T>
T min_max_start(bool is_max) {
  if constexpr (std::is_floating_point_v<T>) {
    return is_max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
  } else {
    return is_max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
  }
}

template <typename T>
void reduce_typed(OpKernelContext& ctx, Reduce op) {
  const Tensor& x = ctx.input(0);
  ReductionPlan p = plan_reduction(ctx);
  Tensor& out = ctx.allocate_output(0, x.dtype(), p.out_shape);
  const T* px = x.data<T>();
  T* po = out.data<T>();
  const size_t n_out = static_cast<size_t>(p.out_count);
  const size_t n_in = p.out_index.size();
  switch (op) {
    case Reduce::kSum:
    case Reduce::kProd: {
      bool sum = op == Reduce::kSum;
      std::fill_n(po, n_out, static_cast<T>(sum ? 0 : 1));
      for (size_t k = 0; k < n_in; ++k) {
        T& a = po[p.out_index[k]];
        a = static_cast<T>(sum ? a + px[k] : a * px[k]);
      }
      break;
    }
    case Reduce::kMean: {
      int64_t count = p.out_count == 0 ? 0 : x.num_elements() / p.out_count;
      if constexpr (std::is_floating_point_v<T>) {
        std::fill_n(po, n_out, T(0));
        for (size_t k = 0; k < n_in; ++k) po[p.out_index[k]] += px[k];
        for (size_t i = 0; i < n_out; ++i) po[i] /= static_cast<T>(count);
      } else {
        // TF sums integers in 64 bits (unsigned for unsigned types) and truncates.
        using Wide = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
        std::vector<Wide> acc(n_out, 0);
        for (size_t k = 0; k < n_in; ++k)
          acc[static_cast<size_t>(p.out_index[k])] += static_cast<Wide>(px[k]);
        for (size_t i = 0; i < n_out; ++i) {
          po[i] = count == 0 ? T(0) : static_cast<T>(acc[i] / static_cast<Wide>(count));
        }
      }
      break;
    }
    case Reduce::kMax:
    case Reduce::kMin: {
      bool is_max = op == Reduce::kMax;
      std::fill_n(po, n_out, min_max_start<T>(is_max));
      for (size_t k = 0; k < n_in; ++k) {
        T& a = po[p.out_index[k]];
        T v = px[k];
        if constexpr (std::is_floating_point_v<T>) {
          if (std::isnan(a)) continue;
          if (std::isnan(v)) {
            a = v;
            continue;
          }
        }
        if (is_max ? v > a : v < a) a = v;
      }
      break;
    }
  }
}

const std::vector<DType> kReduceTypes = detail::kNumberTypes;

OpDef reduction_def(const std::string& name, Reduce op) {
  OpDef d;
  d.name = name;
  d.inputs = {{"input", "T"}, {"reduction_indices", "Tidx"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", kReduceTypes}, {"Tidx", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = reduction_shape_fn;
  d.kernel = [op](OpKernelContext& ctx) {
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
    ReductionPlan p = plan_reduction(ctx);
    Tensor& out = ctx.allocate_output(0, DType::kBool, p.out_shape);
    const bool* px = x.data<bool>();
    bool* po = out.data<bool>();
    // An empty reduction is false for Any, true for All.
    std::fill_n(po, static_cast<size_t>(p.out_count), !is_any);
    for (size_t k = 0; k < p.out_index.size(); ++k) {
      bool& a = po[p.out_index[k]];
      a = is_any ? (a || px[k]) : (a && px[k]);
    }
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
  std::vector<DType> index_types = is_max
                                       ? std::vector<DType>{DType::kInt16, DType::kInt32, DType::kInt64}
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

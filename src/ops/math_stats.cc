// The kernels behind tf.nn.moments, tf.math.cumsum, tf.math.top_k and tf.sort: SquaredDifference,
// Cumsum and TopKV2, as TF 2.21's CPU kernels compute them (StopGradient is Identity's kernel:
// array_basic.cc).
//  - SquaredDifference is Eigen's (x - y) * (x - y): one subtraction and one multiplication,
//    rounded each, the same in packets and scalars.
//  - Cumsum is Eigen's scan: an accumulator that starts at 0 and adds the values along the axis
//    one at a time (so an inclusive sum's first value is 0 + x, and -0 becomes +0); `reverse`
//    scans from the end.
//  - TopKV2 is TF's TopKFunctor: k == 1 takes the row maximum with Eigen's reducer and the first
//    index holding it; k == the row length sorts the indices with std::sort on "greater" and
//    then sorts each run of equal values by index; other k select by (value desc, index asc).
//    Without NaN every path gives the values in descending order, ties by increasing index.
#include <algorithm>
#include <numeric>
#include <type_traits>

#include "eigen_reduce.h"
#include "kernel_util.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

using detail::dims_text;

// ---- SquaredDifference ----

const std::vector<DType> kSquaredDifferenceTypes = {DType::kFloat32, DType::kFloat64, DType::kInt32,
                                                    DType::kInt64};

template <typename T>
T squared_difference(T x, T y) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;  // wraps as TF's does
    U d = static_cast<U>(static_cast<U>(x) - static_cast<U>(y));
    return static_cast<T>(static_cast<U>(d * d));
  } else {
    T d = x - y;
    return d * d;
  }
}

template <typename T>
void squared_difference_kernel(OpKernelContext& ctx) {
  const Tensor &a = ctx.input(0), &b = ctx.input(1);
  const Shape &sa = a.eager_shape(), &sb = b.eager_shape();
  auto os = broadcast_shapes(sa, sb);
  if (!os) ctx.fail("Incompatible shapes: " + dims_text(sa) + " vs. " + dims_text(sb));
  Tensor& out = ctx.allocate_output(0, a.dtype(), *os);
  const T* pa = a.data<T>();
  const T* pb = b.data<T>();
  T* po = out.data<T>();
  detail::for_each_broadcast(
      *os, detail::broadcast_strides(sa, *os), detail::broadcast_strides(sb, *os),
      [&](int64_t k, int64_t ia, int64_t ib) { po[k] = squared_difference(pa[ia], pb[ib]); });
}

OpRegistration r_squared_difference([] {
  OpDef d;
  d.name = "SquaredDifference";
  d.inputs = {{"x", "T"}, {"y", "T"}};
  d.outputs = {{"z", "T"}};
  d.type_attrs = {{"T", kSquaredDifferenceTypes}};
  d.shape_fn = detail::broadcast_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    switch (ctx.input(0).dtype()) {
      case DType::kFloat32:
        return squared_difference_kernel<float>(ctx);
      case DType::kFloat64:
        return squared_difference_kernel<double>(ctx);
      case DType::kInt32:
        return squared_difference_kernel<int32_t>(ctx);
      default:
        return squared_difference_kernel<int64_t>(ctx);
    }
  };
  return d;
}());

// ---- Cumsum ----

// The scan axis of an input of `rank` dims, with the kernel's texts.
int64_t scan_axis(OpKernelContext& ctx, const Tensor& axis_t, int rank) {
  if (axis_t.eager_shape().rank() != 0) {
    ctx.fail("ScanOp: axis must be a scalar, not " + dims_text(axis_t.eager_shape()));
  }
  const int64_t axis = axis_t.item<int64_t>();
  if (axis < -rank || axis >= rank) {
    ctx.fail("ScanOp: Expected scan axis in the range [" + std::to_string(-rank) + ", " +
             std::to_string(rank) + "), but got " + std::to_string(axis));
  }
  return axis < 0 ? axis + rank : axis;
}

template <typename T>
void cumsum(const T* in, T* out, int64_t outer, int64_t len, int64_t inner, bool exclusive,
            bool reverse) {
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * len * inner + i;
      T acc = T(0);
      for (int64_t s = 0; s < len; ++s) {
        const int64_t j = base + (reverse ? len - 1 - s : s) * inner;
        if (exclusive) {
          out[j] = acc;
          acc = static_cast<T>(acc + in[j]);
        } else {
          acc = static_cast<T>(acc + in[j]);
          out[j] = acc;
        }
      }
    }
  }
}

OpRegistration r_cumsum([] {
  OpDef d;
  d.name = "Cumsum";
  d.inputs = {{"x", "T"}, {"axis", "Tidx"}};
  d.outputs = {{"out", "T"}};
  d.type_attrs = {{"T", detail::kNumberTypes}, {"Tidx", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = detail::same_shape_fn;  // the axis is checked by the kernel only
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Shape& s = x.eager_shape();
    const int64_t axis = scan_axis(ctx, ctx.input(1), s.rank());
    const bool exclusive = attr_bool_or(*ctx.attrs, "exclusive", false);
    const bool reverse = attr_bool_or(*ctx.attrs, "reverse", false);
    Tensor& out = ctx.allocate_output(0, x.dtype(), s);
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < axis; ++i) outer *= s.dim(i);
    for (int i = static_cast<int>(axis) + 1; i < s.rank(); ++i) inner *= s.dim(i);
    visit_dtype(x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, bool>) {
        ctx.fail("[ops] Cumsum of bool");
      } else {
        cumsum(x.data<T>(), out.data<T>(), outer, s.dim(static_cast<int>(axis)), inner, exclusive,
               reverse);
      }
    });
  };
  return d;
}());

// ---- TopKV2 ----

template <typename T, typename I>
void top_k_row(const T* row, int64_t r, int64_t cols, int64_t k, T* values, I* indices) {
  if (k == 0) return;
  if (k == 1) {
    T m;
    if constexpr (std::is_floating_point_v<T>) {
      const detail::MemorySource<T> src{row - r * cols};
      m = detail::reduce_inner<detail::FastMaxReducer<T>>(src, r * cols, cols);
    } else {
      m = *std::max_element(row, row + cols);
    }
    I idx = 0;
    for (int64_t c = 0; c < cols; ++c) {
      if (m == row[c]) {
        idx = static_cast<I>(c);
        break;
      }
    }
    indices[0] = idx;
    values[0] = row[idx];
    return;
  }
  std::vector<I> order(static_cast<size_t>(cols));
  std::iota(order.begin(), order.end(), I(0));
  if (k == cols) {
    std::sort(order.begin(), order.end(), [row](I a, I b) { return row[b] < row[a]; });
    for (auto run = order.begin(); run != order.end();) {
      auto end = run + 1;
      if (end == order.end()) break;
      if (row[*run] == row[*end]) {
        while (++end != order.end() && row[*run] == row[*end]) {
        }
        std::sort(run, end);
      }
      run = end;
    }
  } else {
    std::partial_sort(order.begin(), order.begin() + k, order.end(), [row](I a, I b) {
      if (row[b] < row[a]) return true;
      if (row[b] > row[a]) return false;
      return a < b;
    });
  }
  for (int64_t i = 0; i < k; ++i) {
    indices[i] = order[static_cast<size_t>(i)];
    values[i] = row[order[static_cast<size_t>(i)]];
  }
}

const std::vector<DType> kTopKTypes = {DType::kFloat32, DType::kFloat64, DType::kInt32,
                                       DType::kUInt8,   DType::kInt16,   DType::kInt8,
                                       DType::kInt64};

OpRegistration r_top_k([] {
  OpDef d;
  d.name = "TopKV2";
  d.inputs = {{"input", "T"}, {"k", "Tk"}};
  d.outputs = {{"values", "T"}, {"indices", "index_type"}};
  d.type_attrs = {{"T", kTopKTypes},
                  {"Tk", {DType::kInt16, DType::kInt32, DType::kInt64}, DType::kInt32},
                  {"index_type", {DType::kInt16, DType::kInt32, DType::kInt64}, DType::kInt32}};
  d.shape_fn = [](InferenceContext& c) {
    detail::with_rank_at_least(c, c.in(0), 1);
    // MakeDimForScalarInput: k's value where it is known.
    int64_t k = -1;
    if (const Tensor* kt = c.value(1)) {
      if (kt->eager_shape().rank() != 0) {
        c.fail("Input must be scalar but has rank " + std::to_string(kt->eager_shape().rank()));
      }
      k = kt->item<int64_t>();
      if (k < 0) {
        c.fail("Dimension size, given by scalar input 1, must be non-negative but is " +
               std::to_string(k));
      }
    }
    const PartialShape& in = c.in(0);
    if (!in.has_rank()) return;
    std::vector<int64_t> dims = in.dims();
    const int64_t last = dims.back();
    if (k >= 0 && last >= 0 && last < k) {
      c.fail("input must have last dimension >= k = " + std::to_string(k) + " but is " +
             std::to_string(last));
    }
    dims.back() = k;
    c.set_output(0, PartialShape(dims));
    c.set_output(1, PartialShape(dims));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Shape& s = x.eager_shape();
    const Tensor& kt = ctx.input(1);
    if (kt.eager_shape().rank() != 0) {
      ctx.fail("k must be scalar, got shape " + dims_text(kt.eager_shape()));
    }
    const int64_t k = kt.item<int64_t>();
    if (k < 0) ctx.fail("Need k >= 0, got " + std::to_string(k));
    if (s.rank() < 1) ctx.fail("input must be >= 1-D, got shape " + dims_text(s));
    const int64_t cols = s.dim(s.rank() - 1);
    if (cols < k) {
      ctx.fail("input must have at least k columns. Had " + std::to_string(cols) + ", needed " +
               std::to_string(k));
    }
    std::vector<int64_t> od = s.dims();
    od.back() = k;
    const DType index_type = attr_type(*ctx.attrs, "index_type");
    // Allocating an output may move the others: take both references after.
    ctx.allocate_output(0, x.dtype(), Shape(od));
    Tensor& indices = ctx.allocate_output(1, index_type, Shape(od));
    Tensor& values = (*ctx.outputs)[0];
    const int64_t rows = cols == 0 ? 0 : x.num_elements() / cols;
    visit_dtype(x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, bool>) {
        ctx.fail("[ops] TopKV2 of bool");
      } else {
        visit_dtype(index_type, [&](auto itag) {
          using I = decltype(itag);
          if constexpr (std::is_integral_v<I> && !std::is_same_v<I, bool>) {
            for (int64_t r = 0; r < rows; ++r) {
              top_k_row(x.data<T>() + r * cols, r, cols, k, values.data<T>() + r * k,
                        indices.data<I>() + r * k);
            }
          }
        });
      }
    });
  };
  return d;
}());

}  // namespace

namespace detail {
void anchor_math_stats_ops() {}
}  // namespace detail
}  // namespace tfs

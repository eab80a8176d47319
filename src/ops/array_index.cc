// Splitting and indexing: Split, SplitV, Where (one operand), OneHot, GatherNd, ScatterNd and
// TensorScatterUpdate, with TF 2.21's shape functions and kernel error texts. The kernels only
// move values (ScatterNd adds duplicate indices' updates in index order, as TF's CPU kernel).
#include <numeric>
#include <type_traits>

#include "kernel_util.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

using detail::dims_text;

// MakeDimForScalarInputWithNegativeIndexing: the axis in [0, rank), or -1 when unknown.
int64_t known_axis(const InferenceContext& c, int i, const PartialShape& input) {
  const Tensor* t = c.value(i);
  if (!t || !input.has_rank()) return -1;
  const int64_t rank = input.rank(), v = t->item<int64_t>();
  if (v < -rank || v >= rank) {
    c.fail("Dimension size, given by scalar input " + std::to_string(i == 0 ? 2 : i) +
           " must be in range [" + std::to_string(-rank) + ", " + std::to_string(rank) + ")");
  }
  return v < 0 ? v + rank : v;
}

// Split's output shape: the input with the split dim divided by n (all unknown when the axis is).
PartialShape split_output(const InferenceContext& c, const PartialShape& in, int64_t axis,
                          int64_t n) {
  if (!in.has_rank()) return PartialShape();
  std::vector<int64_t> dims = in.dims();
  if (axis < 0) return PartialShape(std::vector<int64_t>(dims.size(), -1));
  int64_t& dim = dims[static_cast<size_t>(axis)];
  if (dim >= 0 && dim % n != 0) {
    c.fail("Dimension size must be evenly divisible by " + std::to_string(n) + " but is " +
           std::to_string(dim) +
           "\n\tNumber of ways to split should evenly divide the split dimension");
  }
  if (dim >= 0) dim /= n;
  return PartialShape(dims);
}

int64_t kernel_split_dim(OpKernelContext& ctx, const Tensor& t, int rank) {
  const int64_t d = t.item<int64_t>();
  if (d < -rank || d >= rank) {
    ctx.fail("-input rank(-" + std::to_string(rank) + ") <= split_dim < input rank (" +
             std::to_string(rank) + "), but got " + std::to_string(d));
  }
  return d < 0 ? d + rank : d;
}

// Copies x's slices [begin, begin + size) along `axis` into one output per piece.
void split_into(OpKernelContext& ctx, const Tensor& x, int64_t axis,
                const std::vector<int64_t>& sizes) {
  const Shape& s = x.eager_shape();
  int64_t outer = 1, inner = 1;
  for (int i = 0; i < axis; ++i) outer *= s.dim(i);
  for (int i = static_cast<int>(axis) + 1; i < s.rank(); ++i) inner *= s.dim(i);
  const int64_t len = s.dim(static_cast<int>(axis));
  int64_t begin = 0;
  for (size_t p = 0; p < sizes.size(); ++p) {
    std::vector<int64_t> od = s.dims();
    od[static_cast<size_t>(axis)] = sizes[p];
    Tensor& out = ctx.allocate_output(static_cast<int>(p), x.dtype(), Shape(od));
    detail::Mover mv(x, out);
    for (int64_t o = 0; o < outer; ++o) {
      mv.copy(o * sizes[p] * inner, (o * len + begin) * inner, sizes[p] * inner);
    }
    begin += sizes[p];
  }
}

OpRegistration r_split([] {
  OpDef d;
  d.name = "Split";
  d.inputs = {{"split_dim", "", DType::kInt32}, {"value", "T"}};
  d.outputs = {{"output", "T", DType::kInvalid, "num_split"}};
  d.type_attrs = {{"T", {}}};
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape& in = c.in(1);
    const int64_t n = attr_int(*c.attrs, "num_split");
    const int64_t axis = known_axis(c, 0, in);
    const PartialShape out = split_output(c, in, axis, n);
    for (int64_t i = 0; i < n; ++i) c.set_output(static_cast<int>(i), out);
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(1);
    const Shape& s = x.eager_shape();
    const int64_t n = attr_int(*ctx.attrs, "num_split");
    const int64_t axis = kernel_split_dim(ctx, ctx.input(0), s.rank());
    const int64_t len = s.dim(static_cast<int>(axis));
    if (len % n != 0) {
      ctx.fail(
          "Number of ways to split should evenly divide the split dimension, but got "
          "split_dim " +
          std::to_string(axis) + " (size = " + std::to_string(len) + ") and num_split " +
          std::to_string(n));
    }
    split_into(ctx, x, axis, std::vector<int64_t>(static_cast<size_t>(n), len / n));
  };
  return d;
}());

OpRegistration r_split_v([] {
  OpDef d;
  d.name = "SplitV";
  d.inputs = {{"value", "T"}, {"size_splits", "Tlen"}, {"split_dim", "", DType::kInt32}};
  d.outputs = {{"output", "T", DType::kInvalid, "num_split"}};
  d.type_attrs = {{"T", {}}, {"Tlen", {DType::kInt8, DType::kInt32, DType::kInt64}, DType::kInt64}};
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape& in = c.in(0);
    const int n = static_cast<int>(attr_int(*c.attrs, "num_split"));
    const int64_t axis = known_axis(c, 2, in);
    if (!in.has_rank()) {
      for (int i = 0; i < n; ++i) c.set_output(i, PartialShape());
      return;
    }
    if (in.rank() == 0) c.fail("Can't split scalars");
    const Tensor* sizes_t = c.value(1);
    if (!sizes_t || axis < 0) {
      std::vector<int64_t> dims =
          axis < 0 ? std::vector<int64_t>(static_cast<size_t>(in.rank()), -1) : in.dims();
      if (axis >= 0) dims[static_cast<size_t>(axis)] = -1;
      for (int i = 0; i < n; ++i) c.set_output(i, PartialShape(dims));
      return;
    }
    const std::vector<int64_t> sizes = detail::tensor_ints(*sizes_t);
    if (static_cast<int>(sizes.size()) != n) {
      c.fail("Length of size_splits should be equal to num_outputs");
    }
    int64_t total = 0;
    bool has_neg_one = false;
    for (int64_t v : sizes) {
      if (v == -1) {
        if (has_neg_one) c.fail("size_splits can only have one -1");
        has_neg_one = true;
      } else {
        total += v;
      }
    }
    const int64_t dim = in.dim(static_cast<int>(axis));
    for (int i = 0; i < n; ++i) {
      int64_t v = sizes[static_cast<size_t>(i)];
      if (v == -1 && dim >= 0) v = dim - total;
      if (v < -1 || (v == -1 && dim >= 0)) {
        c.fail("Split size at index " + std::to_string(i) +
               " must be >= 0. Got: " + std::to_string(v));
      }
      std::vector<int64_t> dims = in.dims();
      dims[static_cast<size_t>(axis)] = v;
      c.set_output(i, PartialShape(dims));
    }
    if (dim >= 0 && (has_neg_one ? total > dim : total != dim)) {
      std::string list;
      for (size_t i = 0; i < sizes.size(); ++i) list += (i ? "," : "") + std::to_string(sizes[i]);
      c.fail("can't split axis of size " + std::to_string(dim) + " into pieces of size [" + list +
             "]");
    }
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Shape& s = x.eager_shape();
    const int64_t axis = kernel_split_dim(ctx, ctx.input(2), s.rank());
    std::vector<int64_t> sizes = detail::tensor_ints(ctx.input(1));
    const int64_t len = s.dim(static_cast<int>(axis));
    int64_t total = 0, neg = -1;
    for (size_t i = 0; i < sizes.size(); ++i) {
      if (sizes[i] == -1) {
        if (neg >= 0) ctx.fail("There can only be one -1 in the input.");
        neg = static_cast<int64_t>(i);
      } else {
        total += sizes[i];
      }
    }
    if ((neg < 0 && total != len) || (neg >= 0 && total > len)) {
      ctx.fail(
          "Determined shape must either match input shape along split_dim exactly if fully "
          "specified, or be less than the size of the input along split_dim if not fully "
          "specified.  Got: " +
          std::to_string(total));
    }
    if (neg >= 0) sizes[static_cast<size_t>(neg)] = len - total;
    for (size_t i = 0; i < sizes.size(); ++i) {
      if (sizes[i] < 0) {
        ctx.fail("Split size at index " + std::to_string(i) +
                 " must be >= 0. Got: " + std::to_string(sizes[i]));
      }
    }
    split_into(ctx, x, axis, sizes);
  };
  return d;
}());

// ---- Where (one operand): the coordinates of the true (non-zero) elements ----

OpRegistration r_where([] {
  OpDef d;
  d.name = "Where";
  d.inputs = {{"input", "T"}};
  d.outputs = {{"index", "", DType::kInt64}};
  d.type_attrs = {{"T", {}, DType::kBool}};
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape& in = c.in(0);
    c.set_output(0, in.has_rank() ? PartialShape({-1, in.rank()}) : PartialShape({-1, -1}));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Shape& s = x.eager_shape();
    const int64_t n = x.num_elements();
    std::vector<int64_t> hits;
    visit_dtype(x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_arithmetic_v<T>) {
        const T* p = x.data<T>();
        for (int64_t i = 0; i < n; ++i)
          if (p[i] != T(0)) hits.push_back(i);
      } else {
        ctx.fail("[ops] Where of " + std::string(dtype_name(x.dtype())));
      }
    });
    const int r = s.rank();
    Tensor& out =
        ctx.allocate_output(0, DType::kInt64, Shape{static_cast<int64_t>(hits.size()), r});
    int64_t* o = out.data<int64_t>();
    for (size_t h = 0; h < hits.size(); ++h) {
      int64_t rem = hits[h];
      for (int d2 = r - 1; d2 >= 0; --d2) {
        o[h * static_cast<size_t>(r) + static_cast<size_t>(d2)] = rem % s.dim(d2);
        rem /= s.dim(d2);
      }
    }
  };
  return d;
}());

// ---- OneHot ----

OpRegistration r_one_hot([] {
  OpDef d;
  d.name = "OneHot";
  d.inputs = {
      {"indices", "TI"}, {"depth", "", DType::kInt32}, {"on_value", "T"}, {"off_value", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {
      {"T", {}},
      {"TI", {DType::kUInt8, DType::kInt8, DType::kInt32, DType::kInt64}, DType::kInt64}};
  d.shape_fn = [](InferenceContext& c) {
    const int64_t axis = attr_int_or(*c.attrs, "axis", -1);
    if (axis < -1) c.fail("axis must be >= -1");
    const Tensor* dt = c.value(1);
    const int64_t depth = dt ? dt->item<int64_t>() : -1;
    if (dt && depth < 0) {
      c.fail("Dimension size, given by scalar input 1, must be non-negative but is " +
             std::to_string(depth));
    }
    const PartialShape& in = c.in(0);
    if (!in.has_rank()) return;
    const int64_t new_rank = in.rank() + 1;
    const int64_t at = (axis + new_rank) % new_rank;
    std::vector<int64_t> dims = in.dims();
    dims.insert(dims.begin() + at, depth);
    c.set_output(0, PartialShape(dims));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& idx = ctx.input(0);
    const Shape& s = idx.eager_shape();
    const int64_t axis = attr_int_or(*ctx.attrs, "axis", -1);
    const int64_t depth = ctx.input(1).item<int64_t>();
    const int out_rank = s.rank() + 1;
    if (axis != -1 && (axis < 0 || axis >= out_rank)) {
      ctx.fail("Expected axis to be -1 or between [0, " + std::to_string(out_rank) +
               ").  But received: " + std::to_string(axis));
    }
    if (depth < 0) ctx.fail("depth must be non-negative, got: " + std::to_string(depth));
    const int64_t at = axis == -1 ? s.rank() : axis;
    std::vector<int64_t> od = s.dims();
    od.insert(od.begin() + at, depth);
    const Tensor &on = ctx.input(2), &off = ctx.input(3);
    Tensor& out = ctx.allocate_output(0, on.dtype(), Shape(od));
    int64_t prefix = 1, suffix = 1;
    for (int i = 0; i < at; ++i) prefix *= s.dim(i);
    for (int i = static_cast<int>(at); i < s.rank(); ++i) suffix *= s.dim(i);
    const std::vector<int64_t> ids = detail::tensor_ints(idx);
    detail::Mover from_on(on, out), from_off(off, out);
    for (int64_t p = 0; p < prefix; ++p) {
      for (int64_t dd = 0; dd < depth; ++dd) {
        for (int64_t q = 0; q < suffix; ++q) {
          const int64_t o = (p * depth + dd) * suffix + q;
          (ids[static_cast<size_t>(p * suffix + q)] == dd ? from_on : from_off).copy(o, 0);
        }
      }
    }
  };
  return d;
}());

// ---- GatherNd, ScatterNd, TensorScatterUpdate ----

std::string index_text(const std::vector<int64_t>& ix, int64_t row, int64_t m) {
  std::string s = "[";
  for (int64_t j = 0; j < m; ++j)
    s += (j ? ", " : "") + std::to_string(ix[static_cast<size_t>(row * m + j)]);
  return s + "]";
}

// The flat offset of index row `row` (m coordinates) into `shape`, or -1 when out of range.
int64_t slice_offset(const std::vector<int64_t>& ix, int64_t row, int64_t m, const Shape& shape) {
  int64_t off = 0;
  for (int64_t j = 0; j < m; ++j) {
    const int64_t v = ix[static_cast<size_t>(row * m + j)];
    if (v < 0 || v >= shape.dim(static_cast<int>(j))) return -1;
    off = off * shape.dim(static_cast<int>(j)) + v;
  }
  return off;
}

const std::vector<DType> kIndexTypes16 = {DType::kInt16, DType::kInt32, DType::kInt64};

OpRegistration r_gather_nd([] {
  OpDef d;
  d.name = "GatherNd";
  d.inputs = {{"params", "Tparams"}, {"indices", "Tindices"}};
  d.outputs = {{"output", "Tparams"}};
  d.type_attrs = {{"Tparams", {}}, {"Tindices", kIndexTypes16}};
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape &p = c.in(0), &ix = c.in(1);
    detail::with_rank_at_least(c, ix, 1);
    if (!ix.has_rank() || !p.has_rank() || ix.dim(ix.rank() - 1) < 0) return;
    const int64_t m = ix.dim(ix.rank() - 1);
    if (m > p.rank()) {
      c.fail("indices.shape[-1] must be <= params.rank, but saw indices shape: " +
             detail::shape_text(ix) + " and params shape: " + detail::shape_text(p));
    }
    std::vector<int64_t> dims(ix.dims().begin(), ix.dims().end() - 1);
    dims.insert(dims.end(), p.dims().begin() + m, p.dims().end());
    c.set_output(0, PartialShape(dims));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &p = ctx.input(0), &ixt = ctx.input(1);
    const Shape &ps = p.eager_shape(), &is = ixt.eager_shape();
    if (ps.rank() < 1) ctx.fail("params must be at least a vector");
    if (is.rank() < 1) ctx.fail("indices must be at least a vector");
    const int64_t m = is.dim(is.rank() - 1);
    if (m > ps.rank()) {
      ctx.fail("index innermost dimension length must be <= params rank; saw: " +
               std::to_string(m) + " vs. " + std::to_string(ps.rank()));
    }
    std::vector<int64_t> od(is.dims().begin(), is.dims().end() - 1);
    int64_t slice = 1;
    for (int i = static_cast<int>(m); i < ps.rank(); ++i) {
      od.push_back(ps.dim(i));
      slice *= ps.dim(i);
    }
    Tensor& out = ctx.allocate_output(0, p.dtype(), Shape(od));
    const std::vector<int64_t> ix = detail::tensor_ints(ixt);
    const int64_t rows = m == 0 ? Shape(od).num_elements() / std::max<int64_t>(slice, 1)
                                : static_cast<int64_t>(ix.size()) / m;
    detail::Mover mv(p, out);
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t off = slice_offset(ix, r, m, ps);
      if (off < 0) {
        ctx.fail("indices" + index_text({r}, 0, 1) + " = " + index_text(ix, r, m) +
                 " does not index into param shape " + dims_text(ps) +
                 ", node name: " + *ctx.node_name);
      }
      mv.copy(r * slice, off * slice, slice);
    }
  };
  return d;
}());

// Writes (add == false) or adds the update slices into `out` (already holding its start values).
void scatter_nd(OpKernelContext& ctx, const Tensor& ixt, const Tensor& updates, Tensor& out,
                bool add) {
  const Shape& os = out.eager_shape();
  const Shape& is = ixt.eager_shape();
  const int64_t m = is.rank() == 0 ? 0 : is.dim(is.rank() - 1);
  int64_t slice = 1;
  for (int i = static_cast<int>(m); i < os.rank(); ++i) slice *= os.dim(i);
  const int64_t rows = is.rank() == 0 ? 0 : ixt.num_elements() / std::max<int64_t>(m, 1);
  if (updates.num_elements() != rows * slice) {
    std::string indices_shape = dims_text(is), updates_shape = dims_text(updates.eager_shape());
    ctx.fail(
        "Must have updates.shape = indices.shape[:batch_dim] + params_shape[slice_dim:], "
        "got updates.shape: " +
        updates_shape + ", indices.shape: " + indices_shape + ", params_shape: " + dims_text(os) +
        ", slice_dim: " + std::to_string(m) + ", and batch_dim: " + std::to_string(is.rank() - 1));
  }
  const std::vector<int64_t> ix = detail::tensor_ints(ixt);
  for (int64_t r = 0; r < rows; ++r) {
    if (slice_offset(ix, r, m, os) < 0) {
      ctx.fail("indices" + index_text({r}, 0, 1) + " = " + index_text(ix, r, m) +
               " does not index into shape " + dims_text(os));
    }
  }
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_arithmetic_v<T>) {
      const T* u = updates.data<T>();
      T* o = out.data<T>();
      for (int64_t r = 0; r < rows; ++r) {
        const int64_t off = slice_offset(ix, r, m, os) * slice;
        for (int64_t j = 0; j < slice; ++j) {
          o[off + j] = add ? static_cast<T>(o[off + j] + u[r * slice + j]) : u[r * slice + j];
        }
      }
    } else {
      if (add) ctx.fail("[ops] ScatterNd of " + std::string(dtype_name(out.dtype())));
      detail::Mover mv(updates, out);
      for (int64_t r = 0; r < rows; ++r) {
        mv.copy(slice_offset(ix, r, m, os) * slice, r * slice, slice);
      }
    }
  });
}

OpRegistration r_scatter_nd([] {
  OpDef d;
  d.name = "ScatterNd";
  d.inputs = {{"indices", "Tindices"}, {"updates", "T"}, {"shape", "Tindices"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}, {"Tindices", kIndexTypes16}};
  d.shape_fn = [](InferenceContext& c) { c.set_output(0, detail::shape_from_shape_tensor(c, 2)); };
  d.kernel = [](OpKernelContext& ctx) {
    const Shape shape = detail::make_shape(ctx, detail::tensor_ints(ctx.input(2)));
    ctx.set_output(0, Tensor::zeros(ctx.input(1).dtype(), shape));  // updates add to zeros
    scatter_nd(ctx, ctx.input(0), ctx.input(1), (*ctx.outputs)[0], /*add=*/true);
  };
  return d;
}());

OpRegistration r_tensor_scatter_update([] {
  OpDef d;
  d.name = "TensorScatterUpdate";
  d.inputs = {{"tensor", "T"}, {"indices", "Tindices"}, {"updates", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}, {"Tindices", kIndexTypes16}};
  d.shape_fn = detail::same_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& t = ctx.input(0);
    Tensor& out = ctx.allocate_output(0, t.dtype(), t.eager_shape());
    detail::Mover(t, out).copy(0, 0, t.num_elements());
    scatter_nd(ctx, ctx.input(1), ctx.input(2), out, /*add=*/false);
  };
  return d;
}());

}  // namespace

namespace detail {
void anchor_array_index_ops() {}
}  // namespace detail
}  // namespace tfs

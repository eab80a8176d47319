// Array ops: ExpandDims, Squeeze, Transpose, ConcatV2, Pack, Unpack, Slice, StridedSlice,
// GatherV2, Fill, ZerosLike, OnesLike, Range, Size, Rank. Signatures, shape functions and error
// texts follow TF 2.21 (array_ops.cc, sequence_ops.cc and the CPU kernels); the kernels move
// elements by index and so serve every dtype, strings included.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>

#include "kernel_util.h"
#include "tfscope/detail/strided_slice.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

using detail::dims_text;
constexpr int64_t kUnk = PartialShape::kUnknown;

using detail::make_shape;
using detail::merge_shapes;
using detail::Mover;
using detail::shape_from_shape_tensor;
using detail::shape_text;
using detail::with_rank;
using detail::with_rank_at_least;
using detail::with_value;

std::vector<int64_t> row_major_strides(const Shape& s) {
  std::vector<int64_t> st(static_cast<size_t>(s.rank()), 1);
  for (int d = s.rank() - 2; d >= 0; --d)
    st[static_cast<size_t>(d)] = st[static_cast<size_t>(d) + 1] * s.dim(d + 1);
  return st;
}

// Visits every index of `dims` in row-major order with the offset sum(idx[d] * strides[d]) +
// base, and calls f(k, offset) for the k-th index.
template <typename F>
void for_each_strided(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides,
                      int64_t base, F f) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  if (n == 0) return;
  int r = static_cast<int>(dims.size());
  std::vector<int64_t> idx(dims.size(), 0);
  int64_t off = base;
  for (int64_t k = 0; k < n; ++k) {
    f(k, off);
    for (int d = r - 1; d >= 0; --d) {
      size_t ud = static_cast<size_t>(d);
      if (++idx[ud] < dims[ud]) {
        off += strides[ud];
        break;
      }
      off -= strides[ud] * (dims[ud] - 1);
      idx[ud] = 0;
    }
  }
}

bool is_vector_or_scalar_of_one(const Shape& s) {
  return s.rank() == 0 || (s.rank() == 1 && s.dim(0) == 1);
}

const std::vector<DType> kSliceIndexTypes = {DType::kInt16, DType::kInt32, DType::kInt64};

// ---- ExpandDims ----

OpRegistration r_expand_dims([] {
  OpDef d;
  d.name = "ExpandDims";
  d.inputs = {{"input", "T"}, {"dim", "Tdim"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}, {"Tdim", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = [](InferenceContext& c) {
    const Tensor* dim_t = c.value(1);
    const PartialShape& in = c.in(0);
    if (!dim_t || !in.has_rank()) return;  // unknown shape
    if (dim_t->num_elements() != 1) c.fail("'dim' input must be a tensor with a single value");
    int64_t dim = detail::tensor_ints(*dim_t)[0];
    int64_t r = in.rank();
    if (dim < -1 - r || dim > r) {
      c.fail("dim " + std::to_string(dim) + " not in the interval [" + std::to_string(-1 - r) +
             ", " + std::to_string(r) + "].");
    }
    if (dim < 0) dim += r + 1;
    std::vector<int64_t> dims = in.dims();
    dims.insert(dims.begin() + dim, 1);
    c.set_output(0, PartialShape(dims));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Tensor& dim_t = ctx.input(1);
    if (dim_t.num_elements() != 1) ctx.fail("'dim' must be a tensor with a single value");
    int64_t dim = detail::tensor_ints(dim_t)[0];
    int64_t r = x.eager_shape().rank();
    if (dim < -1 - r || dim > r) {
      ctx.fail("Tried to expand dim index " + std::to_string(dim) + " for tensor with " +
               std::to_string(r) + " dimensions.");
    }
    if (dim < 0) dim += r + 1;
    std::vector<int64_t> dims = x.eager_shape().dims();
    dims.insert(dims.begin() + dim, 1);
    ctx.set_output(0, x.reshaped(Shape(dims)));
  };
  return d;
}());

// ---- Squeeze ----

const std::vector<int64_t>& squeeze_dims_attr(const AttrMap& a) {
  static const std::vector<int64_t> kNone;
  return a.count("squeeze_dims") ? attr_ints(a, "squeeze_dims") : kNone;
}

OpRegistration r_squeeze([] {
  OpDef d;
  d.name = "Squeeze";
  d.inputs = {{"input", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}};
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape& in = c.in(0);
    if (!in.has_rank()) return;
    const auto& sq = squeeze_dims_attr(*c.attrs);
    int r = in.rank();
    std::set<int64_t> wrapped;
    for (size_t i = 0; i < sq.size(); ++i) {
      if (sq[i] < -r || sq[i] >= r) {
        c.fail("squeeze_dims[" + std::to_string(i) + "] not in [" + std::to_string(-r) + "," +
               std::to_string(r) + ").");
      }
      wrapped.insert(sq[i] < 0 ? sq[i] + r : sq[i]);
    }
    std::vector<int64_t> out;
    for (int i = 0; i < r; ++i) {
      bool explicit_match = wrapped.count(i) > 0;
      int64_t dim = in.dim(i);
      if (dim < 0) {
        if (explicit_match) continue;  // assumed to be 1 at run time
        if (sq.empty()) return;        // squeezing all 1s: cannot tell, unknown shape
      } else if (dim == 1) {
        if (explicit_match || sq.empty()) continue;
      } else if (explicit_match) {
        c.fail("Can not squeeze dim[" + std::to_string(i) + "], expected a dimension of 1, got " +
               std::to_string(dim));
      }
      out.push_back(dim);
    }
    c.set_output(0, PartialShape(out));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Shape& s = x.eager_shape();
    int r = s.rank();
    std::set<int64_t> wrapped;
    for (int64_t dim : squeeze_dims_attr(*ctx.attrs)) {
      if (dim < -r || dim >= r) {
        ctx.fail("Tried to squeeze dim index " + std::to_string(dim) + " for tensor with " +
                 std::to_string(r) + " dimensions.");
      }
      wrapped.insert(dim < 0 ? dim + r : dim);
    }
    std::vector<int64_t> out;
    for (int i = 0; i < r; ++i) {
      int64_t dim = s.dim(i);
      if (!wrapped.empty()) {
        if (wrapped.count(i)) {
          if (dim != 1) {
            ctx.fail("Can not squeeze dim[" + std::to_string(i) +
                     "], expected a dimension of 1, got " + std::to_string(dim));
          }
        } else {
          out.push_back(dim);
        }
      } else if (dim != 1) {
        out.push_back(dim);
      }
    }
    ctx.set_output(0, x.reshaped(Shape(out)));
  };
  return d;
}());

// ---- Transpose ----

OpRegistration r_transpose([] {
  OpDef d;
  d.name = "Transpose";
  d.inputs = {{"x", "T"}, {"perm", "Tperm"}};
  d.outputs = {{"y", "T"}};
  d.type_attrs = {{"T", {}}, {"Tperm", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape& in = c.in(0);
    const PartialShape& perm_shape = c.in(1);
    const Tensor* perm = c.value(1);
    int64_t perm_elems = perm_shape.has_rank() ? perm_shape.num_elements() : kUnk;
    if (!in.has_rank() && perm_elems < 0 && !perm) return;
    int64_t rank = in.has_rank() ? in.rank() : perm_elems >= 0 ? perm_elems : perm->num_elements();
    if (!in.has_rank() && rank < 2) {
      // One perm element is ambiguous: a scalar or a vector, both returned unchanged.
      c.set_output(0, in);
      return;
    }
    with_rank(c, in, rank);
    with_rank(c, perm_shape, 1);
    with_value(c, perm_elems, rank);
    std::vector<int64_t> dims(static_cast<size_t>(rank), kUnk);
    if (perm) {
      std::vector<int64_t> p = detail::tensor_ints(*perm);
      for (int64_t i = 0; i < rank; ++i) {
        int64_t k = p[static_cast<size_t>(i)];
        if (k >= rank || k < -rank) {
          c.fail("perm dim " + std::to_string(k) + " is out of range of input rank " +
                 std::to_string(rank));
        }
        if (in.has_rank())
          dims[static_cast<size_t>(i)] = in.dim(static_cast<int>(k < 0 ? k + rank : k));
      }
    }
    c.set_output(0, PartialShape(dims));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Tensor& perm_t = ctx.input(1);
    if (perm_t.eager_shape().rank() != 1) {
      ctx.fail("perm must be rank 1, got shape " + dims_text(perm_t.eager_shape()));
    }
    const Shape& s = x.eager_shape();
    int r = s.rank();
    std::vector<int64_t> perm = detail::tensor_ints(perm_t);
    if (static_cast<int64_t>(perm.size()) != r) {
      ctx.fail("transpose expects a vector of size " + std::to_string(r) +
               ". But input(1) is a vector of size " + std::to_string(perm.size()));
    }
    std::vector<bool> seen(static_cast<size_t>(r), false);
    std::vector<int64_t> out_dims(static_cast<size_t>(r)), strides(static_cast<size_t>(r));
    std::vector<int64_t> in_strides = row_major_strides(s);
    for (int i = 0; i < r; ++i) {
      int64_t& k = perm[static_cast<size_t>(i)];
      if (k < 0) k += r;
      if (k < 0 || k >= r) {
        ctx.fail(std::to_string(k) + " is out of range [0 .. " + std::to_string(r) + ")");
      }
      seen[static_cast<size_t>(k)] = true;
      out_dims[static_cast<size_t>(i)] = s.dim(static_cast<int>(k));
      strides[static_cast<size_t>(i)] = in_strides[static_cast<size_t>(k)];
    }
    for (int i = 0; i < r; ++i) {
      if (!seen[static_cast<size_t>(i)]) {
        std::string p;
        for (size_t j = 0; j < perm.size(); ++j) p += (j ? "," : "") + std::to_string(perm[j]);
        ctx.fail(std::to_string(i) + " is missing from {" + p + "}.");
      }
    }
    Tensor& out = ctx.allocate_output(0, x.dtype(), Shape(out_dims));
    Mover m(x, out);
    for_each_strided(out_dims, strides, 0, [&](int64_t k, int64_t off) { m.copy(k, off); });
  };
  return d;
}());

// ---- ConcatV2 ----

// The dims of `s` in [begin, end) (InferenceContext::Subshape); unknown rank stays unknown.
PartialShape subshape(const PartialShape& s, int64_t begin, int64_t end) {
  if (!s.has_rank()) return PartialShape();
  return PartialShape(std::vector<int64_t>(s.dims().begin() + begin, s.dims().begin() + end));
}

OpRegistration r_concat([] {
  OpDef d;
  d.name = "ConcatV2";
  d.inputs = {{"values", "T", DType::kInvalid, "N"}, {"axis", "Tidx"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}, {"Tidx", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = [](InferenceContext& c) {
    int n = c.num_inputs() - 1;
    with_rank(c, c.in(n), 0);
    int rank = -1;
    for (int i = 0; i < n && rank < 0; ++i) rank = c.in(i).rank();
    if (rank == 0) c.fail("Can't concatenate scalars (use tf.stack instead)");
    for (int i = 0; i < n && rank > 0; ++i) with_rank(c, c.in(i), rank);
    const Tensor* axis_t = c.value(n);
    if (!axis_t) {
      if (rank > 0) c.set_output(0, PartialShape::unknown_of_rank(rank));
      return;
    }
    int64_t axis = detail::tensor_ints(*axis_t)[0];
    int64_t min_rank = axis < 0 ? -axis : axis + 1;
    for (int i = 0; i < n; ++i) with_rank_at_least(c, c.in(i), min_rank);
    if (rank < 0) return;  // no input has a known rank
    int64_t a = axis < 0 ? axis + rank : axis;
    // Walk the inputs from the last, merging the dims around the axis and summing along it. An
    // input of unknown rank counts as `rank` unknown dims (TF's WithRank).
    const PartialShape last =
        c.in(n - 1).has_rank() ? c.in(n - 1) : PartialShape::unknown_of_rank(rank);
    PartialShape before = subshape(last, 0, a), after = subshape(last, a + 1, rank);
    int64_t middle = last.dim(static_cast<int>(a));
    for (int i = n - 2; i >= 0; --i) {
      const PartialShape& s = c.in(i);
      int64_t m = s.has_rank() ? s.dim(static_cast<int>(a)) : kUnk;
      if (auto err = merge_shapes(subshape(s, 0, a), before, &before)) c.fail(*err);
      middle = (middle < 0 || m < 0) ? kUnk : middle + m;
      if (auto err = merge_shapes(subshape(s, a + 1, rank), after, &after)) c.fail(*err);
    }
    std::vector<int64_t> dims = before.dims();
    dims.push_back(middle);
    dims.insert(dims.end(), after.dims().begin(), after.dims().end());
    c.set_output(0, PartialShape(dims));
  };
  d.kernel = [](OpKernelContext& ctx) {
    int n = ctx.num_inputs() - 1;
    const Tensor& axis_t = ctx.input(n);
    if (!is_vector_or_scalar_of_one(axis_t.eager_shape())) {
      ctx.fail("axis tensor should be a scalar integer, but got shape " +
               dims_text(axis_t.eager_shape()));
    }
    int64_t axis = detail::tensor_ints(axis_t)[0];
    const Shape& s0 = ctx.input(0).eager_shape();
    int r = s0.rank();
    if (r == 0) ctx.fail("ConcatOp : Can't concatenate scalars (use tf.stack instead)");
    int64_t a = axis < 0 ? axis + r : axis;
    if (a < 0 || a >= r) {
      ctx.fail("ConcatOp : Expected concatenating dimensions in the range [" + std::to_string(-r) +
               ", " + std::to_string(r) + "), but got " + std::to_string(axis));
    }
    int64_t total = 0;
    for (int i = 0; i < n; ++i) {
      const Shape& s = ctx.input(i).eager_shape();
      if (s.rank() != r) {
        ctx.fail("ConcatOp : Ranks of all input tensors should match: shape[0] = " + dims_text(s0) +
                 " vs. shape[" + std::to_string(i) + "] = " + dims_text(s));
      }
      for (int j = 0; j < r; ++j) {
        if (j != a && s.dim(j) != s0.dim(j)) {
          ctx.fail("ConcatOp : Dimension " + std::to_string(j) +
                   " in both shapes must be equal: shape[0] = " + dims_text(s0) + " vs. shape[" +
                   std::to_string(i) + "] = " + dims_text(s));
        }
      }
      total += s.dim(static_cast<int>(a));
    }
    std::vector<int64_t> od = s0.dims();
    od[static_cast<size_t>(a)] = total;
    Tensor& out = ctx.allocate_output(0, ctx.input(0).dtype(), Shape(od));
    // Each input contributes one row of dim(a) * inner elements per outer index.
    int64_t outer = 1, inner = 1;
    for (int j = 0; j < a; ++j) outer *= od[static_cast<size_t>(j)];
    for (int j = static_cast<int>(a) + 1; j < r; ++j) inner *= od[static_cast<size_t>(j)];
    int64_t out_row = total * inner, col = 0;
    for (int i = 0; i < n; ++i) {
      const Tensor& x = ctx.input(i);
      int64_t row = x.eager_shape().dim(static_cast<int>(a)) * inner;
      Mover m(x, out);
      for (int64_t o = 0; o < outer; ++o) m.copy(o * out_row + col, o * row, row);
      col += row;
    }
  };
  return d;
}());

// ---- Pack / Unpack ----

OpRegistration r_pack([] {
  OpDef d;
  d.name = "Pack";
  d.inputs = {{"values", "T", DType::kInvalid, "N"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}};
  d.shape_fn = [](InferenceContext& c) {
    int n = c.num_inputs();
    PartialShape cur = c.in(n - 1);
    for (int i = n - 2; i >= 0; --i) {
      if (auto err = merge_shapes(c.in(i), cur, &cur)) {
        c.fail(*err + "\n\tFrom merging shape " + std::to_string(i) + " with other shapes.");
      }
    }
    if (!cur.has_rank()) return;
    int64_t r = cur.rank() + 1;
    int64_t axis = attr_int_or(*c.attrs, "axis", 0);
    if (axis < -r || axis >= r) {
      c.fail("Invalid axis: " + std::to_string(axis) + "; must be in [" + std::to_string(-r) + "," +
             std::to_string(r) + ")");
    }
    if (axis < 0) axis += r;
    std::vector<int64_t> dims = cur.dims();
    dims.insert(dims.begin() + axis, n);
    c.set_output(0, PartialShape(dims));
  };
  d.kernel = [](OpKernelContext& ctx) {
    int n = ctx.num_inputs();
    const Shape& s0 = ctx.input(0).eager_shape();
    for (int i = 1; i < n; ++i) {
      if (ctx.input(i).eager_shape() != s0) {
        ctx.fail("Shapes of all inputs must match: values[0].shape = " + dims_text(s0) +
                 " != values[" + std::to_string(i) +
                 "].shape = " + dims_text(ctx.input(i).eager_shape()));
      }
    }
    int64_t r = s0.rank() + 1;
    int64_t axis_attr = attr_int_or(*ctx.attrs, "axis", 0);
    int64_t axis = axis_attr < 0 ? axis_attr + r : axis_attr;
    if (axis < 0 || axis >= r) {
      ctx.fail("axis = " + std::to_string(axis_attr) + " not in [" + std::to_string(-r) + ", " +
               std::to_string(r) + ")");
    }
    std::vector<int64_t> od = s0.dims();
    od.insert(od.begin() + axis, n);
    Tensor& out = ctx.allocate_output(0, ctx.input(0).dtype(), Shape(od));
    int64_t outer = 1, inner = 1;
    for (int j = 0; j < axis; ++j) outer *= s0.dim(j);
    for (int j = static_cast<int>(axis); j < s0.rank(); ++j) inner *= s0.dim(j);
    for (int i = 0; i < n; ++i) {
      Mover m(ctx.input(i), out);
      for (int64_t o = 0; o < outer; ++o) m.copy((o * n + i) * inner, o * inner, inner);
    }
  };
  return d;
}());

OpRegistration r_unpack([] {
  OpDef d;
  d.name = "Unpack";
  d.inputs = {{"value", "T"}};
  d.outputs = {{"output", "T", DType::kInvalid, "num"}};
  d.type_attrs = {{"T", {}}};
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape& s = c.in(0);
    int64_t num = attr_int(*c.attrs, "num");
    PartialShape out;
    if (s.has_rank()) {
      int64_t r = s.rank();
      int64_t axis = attr_int_or(*c.attrs, "axis", 0);
      if (axis < -r || axis >= r) {
        c.fail("Invalid axis: " + std::to_string(axis) + "; must be in [" + std::to_string(-r) +
               "," + std::to_string(r) + ")");
      }
      if (axis < 0) axis += r;
      with_value(c, s.dim(static_cast<int>(axis)), num);
      std::vector<int64_t> dims = s.dims();
      dims.erase(dims.begin() + axis);
      out = PartialShape(dims);
    }
    for (int64_t i = 0; i < num; ++i) c.set_output(static_cast<int>(i), out);
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Shape& s = x.eager_shape();
    int64_t num = attr_int(*ctx.attrs, "num");
    int64_t axis_attr = attr_int_or(*ctx.attrs, "axis", 0);
    int64_t r = s.rank();
    int64_t axis = axis_attr < 0 ? axis_attr + r : axis_attr;
    if (axis < 0 || axis >= r) {
      ctx.fail("axis = " + std::to_string(axis_attr) + " not in [" + std::to_string(-r) + ", " +
               std::to_string(r) + ")");
    }
    if (s.dim(static_cast<int>(axis)) != num) {
      ctx.fail("Input shape axis " + std::to_string(axis) + " must equal " + std::to_string(num) +
               ", got shape " + dims_text(s));
    }
    std::vector<int64_t> od = s.dims();
    od.erase(od.begin() + axis);
    int64_t outer = 1, inner = 1;
    for (int j = 0; j < axis; ++j) outer *= s.dim(j);
    for (int j = static_cast<int>(axis) + 1; j < r; ++j) inner *= s.dim(j);
    for (int64_t i = 0; i < num; ++i) {
      Tensor& out = ctx.allocate_output(static_cast<int>(i), x.dtype(), Shape(od));
      Mover m(x, out);
      for (int64_t o = 0; o < outer; ++o) m.copy(o * inner, (o * num + i) * inner, inner);
    }
  };
  return d;
}());

// ---- Slice ----

OpRegistration r_slice([] {
  OpDef d;
  d.name = "Slice";
  d.inputs = {{"input", "T"}, {"begin", "Index"}, {"size", "Index"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}, {"Index", detail::kIndexTypes}};
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape& in = c.in(0);
    with_rank(c, c.in(1), 1);
    with_rank(c, c.in(2), 1);
    PartialShape bs;
    if (auto err = merge_shapes(c.in(1), c.in(2), &bs)) c.fail(*err);
    int64_t ndims = bs.has_rank() ? bs.dim(0) : kUnk;
    if (ndims >= 0) with_rank(c, in, ndims);
    const Tensor* begin_t = c.value(1);
    const Tensor* size_val = c.value(2);
    std::vector<int64_t> begin;
    if (begin_t) begin = detail::tensor_ints(*begin_t);
    auto in_dim = [&](size_t i) { return in.has_rank() ? in.dim(static_cast<int>(i)) : kUnk; };
    if (size_val) {
      std::vector<int64_t> sizes = detail::tensor_ints(*size_val), dims;
      for (size_t i = 0; i < sizes.size(); ++i) {
        if (sizes[i] == -1) {
          int64_t b = begin_t ? begin[i] : kUnk;
          dims.push_back(in_dim(i) < 0 || b < 0 ? kUnk : in_dim(i) - b);
        } else if (sizes[i] < 0) {
          c.fail("Invalid value in tensor used for shape: " + std::to_string(sizes[i]));
        } else {
          dims.push_back(sizes[i]);
        }
      }
      c.set_output(0, PartialShape(dims));
      return;
    }
    if (ndims >= 0) {
      c.set_output(0, PartialShape::unknown_of_rank(static_cast<int>(ndims)));
    } else if (in.has_rank()) {
      c.set_output(0, PartialShape::unknown_of_rank(in.rank()));
    }
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Shape& s = x.eager_shape();
    const Shape &bs = ctx.input(1).eager_shape(), &ss = ctx.input(2).eager_shape();
    int r = s.rank();
    if (bs.rank() != 1 || ss.rank() != 1 || bs.dim(0) != r || ss.dim(0) != r) {
      ctx.fail("Expected begin and size arguments to be 1-D tensors of size " + std::to_string(r) +
               ", but got shapes " + dims_text(bs) + " and " + dims_text(ss) + " instead.");
    }
    std::vector<int64_t> begin = detail::tensor_ints(ctx.input(1)), size = detail::tensor_ints(ctx.input(2));
    for (int i = 0; i < r; ++i) {
      size_t ui = static_cast<size_t>(i);
      int64_t b = begin[ui], &z = size[ui], dim = s.dim(i);
      if (z == -1) z = dim - b;
      if (dim == 0) {
        if (b != 0 || z != 0) {
          ctx.fail("Expected begin[" + std::to_string(i) + "] == 0 (got " + std::to_string(b) +
                   ") and size[" + std::to_string(i) + "] == 0 (got " + std::to_string(z) +
                   ") when input.dim_size(" + std::to_string(i) + ") == 0");
        }
        continue;
      }
      if (b < 0 || b > dim) {
        ctx.fail("Expected begin[" + std::to_string(i) + "] in [0, " + std::to_string(dim) +
                 "], but got " + std::to_string(b));
      }
      if (z < 0 || b + z > dim) {
        ctx.fail("Expected size[" + std::to_string(i) + "] in [0, " + std::to_string(dim - b) +
                 "], but got " + std::to_string(z));
      }
    }
    Tensor& out = ctx.allocate_output(0, x.dtype(), Shape(size));
    std::vector<int64_t> strides = row_major_strides(s);
    int64_t base = 0;
    for (int i = 0; i < r; ++i)
      base += begin[static_cast<size_t>(i)] * strides[static_cast<size_t>(i)];
    Mover m(x, out);
    for_each_strided(size, strides, base, [&](int64_t k, int64_t off) { m.copy(k, off); });
  };
  return d;
}());

// ---- StridedSlice ----
//
// TF's ValidateStridedSliceOp (tfscope/detail/strided_slice.h): unknown input dims stay unknown,
// which lets the shape function share the kernel's code.

constexpr int64_t kNewAxis = -1, kShrinkAxis = -2;

}  // namespace

namespace detail {

SliceMasks slice_masks(const AttrMap& a) {
  return {attr_int_or(a, "begin_mask", 0), attr_int_or(a, "end_mask", 0),
          attr_int_or(a, "ellipsis_mask", 0), attr_int_or(a, "new_axis_mask", 0),
          attr_int_or(a, "shrink_axis_mask", 0)};
}

std::optional<std::string> validate_strided_slice(const std::vector<int64_t>& input_dims,
                                                  const std::vector<int64_t>* begin,
                                                  const std::vector<int64_t>* end,
                                                  const std::vector<int64_t>& strides,
                                                  const SliceMasks& m, StridedSliceSpec* spec) {
  if (m.ellipsis && (m.ellipsis & (m.ellipsis - 1)) != 0) {
    return std::string("Multiple ellipses in slice spec not allowed");
  }
  int64_t sparse_dims = static_cast<int64_t>(strides.size());
  int64_t ellipsis_mask = m.ellipsis;
  int64_t num_add_axis_after_ellipsis = 0;
  bool ellipsis_seen = false;
  for (int64_t i = 0; i < sparse_dims; ++i) {
    if (ellipsis_seen && ((int64_t{1} << i) & m.new_axis) != 0) ++num_add_axis_after_ellipsis;
    if ((int64_t{1} << i) & ellipsis_mask) ellipsis_seen = true;
  }
  if (!ellipsis_seen) {  // an implicit ellipsis at the end
    ellipsis_mask |= int64_t{1} << sparse_dims;
    ++sparse_dims;
  }

  // Sparse -> dense.
  const int64_t dims = static_cast<int64_t>(input_dims.size());
  const size_t udims = static_cast<size_t>(dims);
  spec->begin.assign(udims, 0);
  spec->end.assign(udims, 0);
  spec->strides.assign(udims, 1);
  int64_t begin_mask = 0, end_mask = 0, shrink_mask = 0;
  std::vector<int64_t> gather;  // per final dim: a dense dim, kNewAxis or kShrinkAxis
  int64_t full = 0;
  for (int64_t i = 0; i < sparse_dims; ++i) {
    int64_t bit = int64_t{1} << i;
    if (bit & ellipsis_mask) {
      int64_t next = std::min(dims - (sparse_dims - i) + 1 + num_add_axis_after_ellipsis, dims);
      for (; full < next; ++full) {
        begin_mask |= int64_t{1} << full;
        end_mask |= int64_t{1} << full;
        gather.push_back(full);
      }
    } else if (bit & m.new_axis) {
      gather.push_back(kNewAxis);
    } else {
      if (full == dims) {
        if (dims == 0) return std::string("Attempting to slice scalar input.");
        return "Index out of range using input dim " + std::to_string(full) + "; input has only " +
               std::to_string(dims) + " dims";
      }
      size_t uf = static_cast<size_t>(full), ui = static_cast<size_t>(i);
      if (begin) spec->begin[uf] = (*begin)[ui];
      if (end) spec->end[uf] = (*end)[ui];
      spec->strides[uf] = strides[ui];
      if (m.begin & bit) begin_mask |= int64_t{1} << full;
      if (m.end & bit) end_mask |= int64_t{1} << full;
      if (m.shrink & bit) {
        gather.push_back(kShrinkAxis);
        shrink_mask |= int64_t{1} << full;
      } else {
        gather.push_back(full);
      }
      ++full;
    }
  }

  // Canonicalise each dense dim and compute the processing shape.
  spec->processing.assign(udims, kUnk);
  for (int64_t i = 0; i < dims; ++i) {
    size_t ui = static_cast<size_t>(i);
    int64_t& b = spec->begin[ui];
    int64_t& e = spec->end[ui];
    int64_t stride = spec->strides[ui];
    if (stride == 0) return "strides[" + std::to_string(i) + "] must be non-zero";
    bool shrink = (shrink_mask >> i) & 1;
    bool bmask = (begin_mask >> i) & 1, emask = (end_mask >> i) & 1;
    int64_t dim = input_dims[ui];
    if (dim == kUnk) {
      spec->processing[ui] = shrink ? 1 : kUnk;
      continue;
    }
    const int64_t lo = stride > 0 ? 0 : -1, hi = stride > 0 ? dim : dim - 1;
    auto canonical = [&](int64_t x, bool masked, bool is_end) {
      if (masked) return (stride > 0) != is_end ? lo : hi;
      int64_t fwd = x < 0 ? dim + x : x;
      return fwd < lo ? lo : fwd > hi ? hi : fwd;
    };
    if (shrink && stride <= 0) return std::string("only stride 1 allowed on non-range indexing.");
    bool known = false;
    int64_t interval = 0;
    if (begin && end) {
      if (shrink) {
        int64_t fwd = b < 0 ? dim + b : b;
        b = fwd;
        e = b + 1;
        if (fwd < 0 || fwd >= dim) {
          return "slice index " + std::to_string(fwd) + " of dimension " + std::to_string(i) +
                 " out of bounds.";
        }
      } else {
        b = canonical(b, bmask, false);
        e = canonical(e, emask, true);
      }
      interval = e - b;
      known = true;
    } else if (shrink) {
      interval = 1;
      known = true;
    } else if (bmask && emask) {
      interval = stride < 0 ? -dim : dim;
      known = true;
    }
    if (known) {
      int64_t size = 0;
      if (interval != 0 && (interval < 0) == (stride < 0)) {
        size = interval / stride + (interval % stride != 0 ? 1 : 0);
      }
      spec->processing[ui] = size;
    }
  }

  spec->final_shape.clear();
  for (int64_t g : gather) {
    if (g >= 0)
      spec->final_shape.push_back(spec->processing[static_cast<size_t>(g)]);
    else if (g == kNewAxis)
      spec->final_shape.push_back(1);
  }
  return std::nullopt;
}

}  // namespace detail

namespace {

using detail::slice_masks;
using detail::SliceMasks;
using detail::StridedSliceSpec;
using detail::validate_strided_slice;

OpRegistration r_strided_slice([] {
  OpDef d;
  d.name = "StridedSlice";
  d.inputs = {{"input", "T"}, {"begin", "Index"}, {"end", "Index"}, {"strides", "Index"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}, {"Index", kSliceIndexTypes}};
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape& in = c.in(0);
    for (int i = 1; i <= 3; ++i) with_rank(c, c.in(i), 1);
    PartialShape bs;
    if (auto err = merge_shapes(c.in(1), c.in(2), &bs)) c.fail(*err);
    if (auto err = merge_shapes(bs, c.in(3), &bs)) c.fail(*err);
    // Strides packed from constants (x[:n] with a tensor n packs all three) are known to TF,
    // which evaluates the Pack; positive strides read as a partial shape are exactly those.
    std::optional<std::vector<int64_t>> strides;
    if (const Tensor* strides_t = c.value(3)) {
      strides = detail::tensor_ints(*strides_t);
    } else if (const Tensor* packed = c.value_as_shape(3)) {
      std::vector<int64_t> v = detail::tensor_ints(*packed);
      if (std::all_of(v.begin(), v.end(), [](int64_t x) { return x > 0; })) strides = v;
    }
    if (!in.has_rank() || !bs.has_rank() || bs.dim(0) < 0 || !strides) return;
    std::optional<std::vector<int64_t>> begin, end;
    if (c.value(1)) begin = detail::tensor_ints(*c.value(1));
    if (c.value(2)) end = detail::tensor_ints(*c.value(2));
    StridedSliceSpec spec;
    if (auto err = validate_strided_slice(in.dims(), begin ? &*begin : nullptr,
                                          end ? &*end : nullptr, *strides, slice_masks(*c.attrs),
                                          &spec)) {
      c.fail(*err);
    }
    c.set_output(0, PartialShape(spec.final_shape));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Shape &bs = ctx.input(1).eager_shape(), &es = ctx.input(2).eager_shape(),
                &ss = ctx.input(3).eager_shape();
    auto wrong = [&](const Shape& s) {
      return !(s.rank() == 1 && s.dim(0) == (ss.rank() == 1 ? ss.dim(0) : -1) && s.dim(0) < 32);
    };
    if (wrong(bs) || wrong(es) || ss.rank() != 1) {
      ctx.fail("Expected begin, end, and strides to be 1D equal size tensors, but got shapes " +
               dims_text(bs) + ", " + dims_text(es) + ", and " + dims_text(ss) + " instead.");
    }
    std::vector<int64_t> begin = detail::tensor_ints(ctx.input(1)), end = detail::tensor_ints(ctx.input(2));
    StridedSliceSpec spec;
    if (auto err = validate_strided_slice(x.eager_shape().dims(), &begin, &end,
                                          detail::tensor_ints(ctx.input(3)), slice_masks(*ctx.attrs), &spec)) {
      ctx.fail(*err);
    }
    Tensor& out = ctx.allocate_output(0, x.dtype(), Shape(spec.final_shape));
    std::vector<int64_t> in_strides = row_major_strides(x.eager_shape()), steps;
    int64_t base = 0;
    for (size_t i = 0; i < in_strides.size(); ++i) {
      base += spec.begin[i] * in_strides[i];
      steps.push_back(spec.strides[i] * in_strides[i]);
    }
    Mover m(x, out);
    for_each_strided(spec.processing, steps, base, [&](int64_t k, int64_t off) { m.copy(k, off); });
  };
  return d;
}());

// StridedSliceGrad: dy scattered into zeros of `shape` at the elements StridedSlice with the
// same begin/end/strides/masks reads.
OpRegistration r_strided_slice_grad([] {
  OpDef d;
  d.name = "StridedSliceGrad";
  d.inputs = {{"shape", "Index"}, {"begin", "Index"}, {"end", "Index"}, {"strides", "Index"},
              {"dy", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}, {"Index", detail::kIndexTypes}};  // TF's: no int16 here
  d.shape_fn = [](InferenceContext& c) { c.set_output(0, shape_from_shape_tensor(c, 0)); };
  d.kernel = [](OpKernelContext& ctx) {
    std::vector<int64_t> dims = detail::tensor_ints(ctx.input(0));
    std::vector<int64_t> begin = detail::tensor_ints(ctx.input(1)),
                         end = detail::tensor_ints(ctx.input(2));
    const Tensor& dy = ctx.input(4);
    StridedSliceSpec spec;
    if (auto err = validate_strided_slice(dims, &begin, &end, detail::tensor_ints(ctx.input(3)),
                                          slice_masks(*ctx.attrs), &spec)) {
      ctx.fail(*err);
    }
    if (dy.eager_shape().dims() != spec.final_shape) {
      ctx.fail("shape of dy was " + dy.eager_shape().str() + " instead of " +
               Shape(spec.final_shape).str());
    }
    Tensor& out = ctx.allocate_output(0, dy.dtype(), make_shape(ctx, dims));
    if (dy.dtype() == DType::kString) ctx.fail("[ops] StridedSliceGrad of strings");
    std::memset(out.raw_data(), 0, static_cast<size_t>(out.num_elements()) * dtype_size(dy.dtype()));
    std::vector<int64_t> out_strides = row_major_strides(out.eager_shape()), steps;
    int64_t base = 0;
    for (size_t i = 0; i < out_strides.size(); ++i) {
      base += spec.begin[i] * out_strides[i];
      steps.push_back(spec.strides[i] * out_strides[i]);
    }
    Mover m(dy, out);
    for_each_strided(spec.processing, steps, base, [&](int64_t k, int64_t off) { m.copy(off, k); });
  };
  return d;
}());

// ---- GatherV2 ----

// "[1,2]" for a flat index into `s` (TF's SliceDebugString); "" for a scalar.
std::string index_text(const Shape& s, int64_t flat) {
  if (s.rank() == 0) return "";
  std::vector<int64_t> idx(static_cast<size_t>(s.rank()));
  for (int d = s.rank() - 1; d >= 0; --d) {
    idx[static_cast<size_t>(d)] = flat % s.dim(d);
    flat /= s.dim(d);
  }
  std::string t = "[";
  for (size_t i = 0; i < idx.size(); ++i) t += (i ? "," : "") + std::to_string(idx[i]);
  return t + "]";
}

OpRegistration r_gather([] {
  OpDef d;
  d.name = "GatherV2";
  d.inputs = {{"params", "Tparams"}, {"indices", "Tindices"}, {"axis", "Taxis"}};
  d.outputs = {{"output", "Tparams"}};
  d.type_attrs = {{"Tparams", {}}, {"Tindices", kSliceIndexTypes}, {"Taxis", detail::kIndexTypes}};
  d.shape_fn = [](InferenceContext& c) {
    const PartialShape &params = c.in(0), &indices = c.in(1);
    with_rank_at_least(c, params, 1);
    with_rank(c, c.in(2), 0);
    int64_t batch_dims = attr_int_or(*c.attrs, "batch_dims", 0);
    const Tensor* axis_t = c.value(2);
    if (!axis_t) {
      if (params.has_rank() && indices.has_rank()) {
        c.set_output(0, PartialShape::unknown_of_rank(
                            static_cast<int>(params.rank() + indices.rank() - 1 - batch_dims)));
      }
      return;
    }
    int64_t axis = detail::tensor_ints(*axis_t)[0];
    with_rank_at_least(c, params, axis < 0 ? -axis : axis + 1);
    with_rank_at_least(c, indices, std::abs(batch_dims));
    if (!params.has_rank() || !indices.has_rank()) return;
    if (batch_dims < 0) batch_dims += indices.rank();
    with_rank_at_least(c, params, batch_dims + 1);
    int64_t a = axis < 0 ? axis + params.rank() : axis;
    std::vector<int64_t> dims(params.dims().begin(), params.dims().begin() + a);
    dims.insert(dims.end(), indices.dims().begin() + batch_dims, indices.dims().end());
    dims.insert(dims.end(), params.dims().begin() + a + 1, params.dims().end());
    c.set_output(0, PartialShape(dims));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &params = ctx.input(0), &indices = ctx.input(1), &axis_t = ctx.input(2);
    const Shape &ps = params.eager_shape(), &is = indices.eager_shape();
    if (axis_t.eager_shape().rank() != 0) ctx.fail("axis must be scalar");
    int64_t axis = detail::tensor_ints(axis_t)[0];
    int64_t min_params_dim = axis < 0 ? -axis : axis + 1;
    if (ps.rank() < min_params_dim) {
      ctx.fail("Shape must be at least rank " + std::to_string(min_params_dim) + " but is rank " +
               std::to_string(ps.rank()));
    }
    if (axis < 0) axis += ps.rank();
    int64_t batch_dims = attr_int_or(*ctx.attrs, "batch_dims", 0);
    if (batch_dims != 0) {
      if (batch_dims < -is.rank() || batch_dims > is.rank()) {
        ctx.fail("Expected batch_dims in the range [" + std::to_string(-is.rank()) + ", " +
                 std::to_string(is.rank()) + "], but got " + std::to_string(batch_dims));
      }
      if (batch_dims < 0) batch_dims += is.rank();
      if (batch_dims >= ps.rank()) {
        ctx.fail("batch_dims (" + std::to_string(batch_dims) +
                 ") must be less than rank(params) (" + std::to_string(ps.rank()) + ").");
      }
      if (axis < batch_dims) {
        ctx.fail("batch_dims (" + std::to_string(batch_dims) +
                 ") must be less than or equal to axis (" + std::to_string(axis) + ").");
      }
      for (int i = 0; i < batch_dims; ++i) {
        if (ps.dim(i) != is.dim(i)) {
          ctx.fail("params.shape[" + std::to_string(i) + "]: " + std::to_string(ps.dim(i)) +
                   " should be equal to indices.shape[" + std::to_string(i) +
                   "]: " + std::to_string(is.dim(i)));
        }
      }
    }
    // params viewed as [batch, outer, limit, inner]; indices as [batch, n].
    int64_t batch = 1, outer = 1, inner = 1, limit = ps.dim(static_cast<int>(axis));
    for (int i = 0; i < batch_dims; ++i) batch *= ps.dim(i);
    for (int i = static_cast<int>(batch_dims); i < axis; ++i) outer *= ps.dim(i);
    for (int i = static_cast<int>(axis) + 1; i < ps.rank(); ++i) inner *= ps.dim(i);
    std::vector<int64_t> od(ps.dims().begin(), ps.dims().begin() + axis);
    od.insert(od.end(), is.dims().begin() + batch_dims, is.dims().end());
    od.insert(od.end(), ps.dims().begin() + axis + 1, ps.dims().end());
    Tensor& out = ctx.allocate_output(0, params.dtype(), Shape(od));
    if (out.num_elements() == 0) return;
    std::vector<int64_t> idx = detail::tensor_ints(indices);
    for (size_t i = 0; i < idx.size(); ++i) {
      if (idx[i] < 0 || idx[i] >= limit) {
        ctx.fail("indices" + index_text(is, static_cast<int64_t>(i)) + " = " +
                 std::to_string(idx[i]) + " is not in [0, " + std::to_string(limit) + ")");
      }
    }
    int64_t n = batch == 0 ? 0 : static_cast<int64_t>(idx.size()) / batch;
    Mover m(params, out);
    int64_t k = 0;
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t j = 0; j < n; ++j, k += inner) {
          m.copy(k, ((b * outer + o) * limit + idx[static_cast<size_t>(b * n + j)]) * inner, inner);
        }
      }
    }
  };
  return d;
}());

// ---- Fill, ZerosLike, OnesLike ----

OpRegistration r_fill([] {
  OpDef d;
  d.name = "Fill";
  d.inputs = {{"dims", "index_type"}, {"value", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}, {"index_type", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = [](InferenceContext& c) {
    with_rank(c, c.in(0), 1);
    with_rank(c, c.in(1), 0);
    // TF's shape refiner evaluates the shape tensor (rejecting values below -1) before the
    // shape function sees a -1 in it.
    PartialShape out = shape_from_shape_tensor(c, 0);
    // The check reads a constant dims tensor only: a partial shape's -1 (tf.shape(x)[0] packed
    // with 16) is an unknown dim, not a negative one.
    if (c.input_values[0] != nullptr) {
      if (const Tensor* dims = c.value_as_shape(0)) {
        for (int64_t d : detail::tensor_ints(*dims))
          if (d < 0) c.fail("Fill dimensions must be >= 0");
      }
    }
    c.set_output(0, out);
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &dims_t = ctx.input(0), &value = ctx.input(1);
    if (dims_t.eager_shape().rank() > 1) {
      ctx.fail("dims must represent a vector, got shape " + dims_text(dims_t.eager_shape()));
    }
    if (!is_vector_or_scalar_of_one(value.eager_shape())) {
      ctx.fail("value must represent a scalar, got shape " + dims_text(value.eager_shape()));
    }
    Shape s = make_shape(ctx, detail::tensor_ints(dims_t));
    Tensor& out = ctx.allocate_output(0, value.dtype(), s);
    Mover m(value, out);
    for (int64_t i = 0; i < s.num_elements(); ++i) m.copy(i, 0);
  };
  return d;
}());

// A tensor of x's dtype and shape with every element `one ? 1 : 0` ("" for strings).
void fill_like(OpKernelContext& ctx, bool one) {
  const Tensor& x = ctx.input(0);
  Tensor& out = ctx.allocate_output(0, x.dtype(), x.eager_shape());
  if (x.dtype() == DType::kString) return;  // already empty strings
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    std::fill_n(out.data<T>(), out.num_elements(), static_cast<T>(one ? 1 : 0));
  });
}

OpRegistration r_zeros_like([] {
  OpDef d;
  d.name = "ZerosLike";
  d.inputs = {{"x", "T"}};
  d.outputs = {{"y", "T"}};
  d.type_attrs = {{"T", {}}};
  d.shape_fn = detail::same_shape_fn;
  d.kernel = [](OpKernelContext& ctx) { fill_like(ctx, false); };
  return d;
}());

OpRegistration r_ones_like([] {
  OpDef d;
  d.name = "OnesLike";
  d.inputs = {{"x", "T"}};
  d.outputs = {{"y", "T"}};
  std::vector<DType> types = detail::kNumberTypes;
  types.push_back(DType::kBool);
  d.type_attrs = {{"T", types}};
  d.shape_fn = detail::same_shape_fn;
  d.kernel = [](OpKernelContext& ctx) { fill_like(ctx, true); };
  return d;
}());

// ---- Range ----

// A number as TF's StrCat prints it: the shortest of %.6g/%.9g (float) or %.15g/%.17g
// (double) that reads back exactly.
template <typename T>
std::string num_text(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    constexpr bool kFloat = std::is_same_v<T, float>;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", kFloat ? FLT_DIG : DBL_DIG, static_cast<double>(v));
    if (static_cast<T>(std::strtod(buf, nullptr)) != v) {
      std::snprintf(buf, sizeof buf, "%.*g", kFloat ? FLT_DIG + 3 : DBL_DIG + 2,
                    static_cast<double>(v));
    }
    return buf;
  } else {
    return std::to_string(v);
  }
}

// The element count of Range(start, limit, delta), or an error text.
template <typename T>
std::optional<std::string> range_size(T start, T limit, T delta, bool kernel, int64_t* size) {
  if (kernel && delta == T(0)) return "Requires delta != 0: " + num_text(delta);
  if (delta > T(0) && start > limit) {
    return "Requires start <= limit when delta > 0: " + num_text(start) + "/" + num_text(limit);
  }
  if (delta < T(0) && start < limit) {
    return "Requires start >= limit when delta < 0: " + num_text(start) + "/" + num_text(limit);
  }
  if (delta == T(0)) return std::string("Requires delta != 0");
  if constexpr (std::is_integral_v<T>) {
    T span = limit > start ? static_cast<T>(limit - start) : static_cast<T>(start - limit);
    T step = delta > 0 ? delta : static_cast<T>(-delta);
    *size =
        (static_cast<int64_t>(span) + static_cast<int64_t>(step) - 1) / static_cast<int64_t>(step);
  } else {
    T n = std::ceil(std::abs((limit - start) / delta));
    if (!(n <= static_cast<T>(std::numeric_limits<int64_t>::max()))) {
      return "Requires ((limit - start) / delta) <= " +
             std::to_string(std::numeric_limits<int64_t>::max());
    }
    *size = static_cast<int64_t>(n);
  }
  return std::nullopt;
}

const std::vector<DType> kRangeTypes = {DType::kFloat32, DType::kFloat64, DType::kInt8,
                                        DType::kInt16,   DType::kInt32,   DType::kInt64};

OpRegistration r_range([] {
  OpDef d;
  d.name = "Range";
  d.inputs = {{"start", "Tidx"}, {"limit", "Tidx"}, {"delta", "Tidx"}};
  d.outputs = {{"output", "Tidx"}};
  d.type_attrs = {{"Tidx", kRangeTypes, DType::kInt32}};
  d.shape_fn = [](InferenceContext& c) {
    const char* names[] = {"start", "limit", "delta"};
    for (int i = 0; i < 3; ++i) {
      const PartialShape& s = c.in(i);
      if (s.has_rank() && s.rank() != 0) {
        c.fail("Shape must be rank 0 but is rank " + std::to_string(s.rank()) + "\n\t for '" +
               names[i] + "'");
      }
    }
    if (!c.value(0) || !c.value(1) || !c.value(2)) {
      c.set_output(0, PartialShape({kUnk}));
      return;
    }
    visit_dtype(c.output_dtypes[0], [&](auto tag) {
      using T = decltype(tag);
      if constexpr (!std::is_same_v<T, bool>) {
        int64_t n = 0;
        auto get = [&](int i) { return c.value(i)->data<T>()[0]; };
        if (auto err = range_size<T>(get(0), get(1), get(2), false, &n)) c.fail(*err);
        c.set_output(0, PartialShape({n}));
      }
    });
  };
  d.kernel = [](OpKernelContext& ctx) {
    const char* names[] = {"start", "limit", "delta"};
    for (int i = 0; i < 3; ++i) {
      const Shape& s = ctx.input(i).eager_shape();
      if (!is_vector_or_scalar_of_one(s)) {
        ctx.fail(std::string(names[i]) + " must be a scalar, not shape " + dims_text(s));
      }
    }
    DType dt = ctx.input(0).dtype();
    visit_dtype(dt, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_same_v<T, bool>) {
        ctx.fail("[ops] Range of bool");
      } else {
        T start = ctx.input(0).data<T>()[0], limit = ctx.input(1).data<T>()[0],
          delta = ctx.input(2).data<T>()[0];
        int64_t n = 0;
        if (auto err = range_size<T>(start, limit, delta, true, &n)) ctx.fail(*err);
        Tensor& out = ctx.allocate_output(0, dt, Shape{n});
        T* p = out.data<T>();
        for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(start + static_cast<T>(i) * delta);
      }
    });
  };
  return d;
}());

// ---- Size, Rank ----

OpRegistration r_size([] {
  OpDef d;
  d.name = "Size";
  d.inputs = {{"input", "T"}};
  d.outputs = {{"output", "out_type"}};
  d.type_attrs = {{"T", {}}, {"out_type", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = detail::scalar_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    int64_t n = ctx.input(0).num_elements();
    DType out_type = attr_type(*ctx.attrs, "out_type");
    Tensor& out = ctx.allocate_output(0, out_type, Shape{});
    if (out_type == DType::kInt32) {
      if (n > std::numeric_limits<int32_t>::max()) {
        ctx.fail("Number of elements was larger than representable by 32-bit output type");
      }
      out.data<int32_t>()[0] = static_cast<int32_t>(n);
    } else {
      out.data<int64_t>()[0] = n;
    }
  };
  return d;
}());

OpRegistration r_rank([] {
  OpDef d;
  d.name = "Rank";
  d.inputs = {{"input", "T"}};
  d.outputs = {{"output", "", DType::kInt32}};
  d.type_attrs = {{"T", {}}};
  d.shape_fn = detail::scalar_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    Tensor& out = ctx.allocate_output(0, DType::kInt32, Shape{});
    out.data<int32_t>()[0] = ctx.input(0).eager_shape().rank();
  };
  return d;
}());

}  // namespace

namespace detail {
void anchor_array_ops() {}
}  // namespace detail
}  // namespace tfs

// Ops that TF's gradient functions build besides the *Grad kernels: InvertPermutation
// (Transpose's gradient), ConcatOffset (ConcatV2's), DynamicStitch (math_ops.reduced_shape's),
// ListDiff and Cumprod (Prod's), Select (Pow's, through the v1 tf.where), DivNoNan (and its own
// gradient) and L2Loss (tf.nn.l2_loss). Each with TF's signature, shape function and error texts.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "eigen_reduce.h"
#include "kernel_util.h"
#include "tfscope/cpu_info.h"
#include "tfscope/ops.h"
#include "tfscope/thread_pool.h"

namespace tfs {
namespace {

using detail::dims_text;

// ---- InvertPermutation ----

OpRegistration r_invert_permutation([] {
  OpDef d;
  d.name = "InvertPermutation";
  d.inputs = {{"x", "T"}};
  d.outputs = {{"y", "T"}};
  d.type_attrs = {{"T", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = [](InferenceContext& c) {
    detail::with_rank(c, c.in(0), 1);
    c.set_output(0, c.in(0));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    if (x.eager_shape().rank() != 1) {
      ctx.fail("invert_permutation expects a 1D vector.");
    }
    std::vector<int64_t> p = detail::tensor_ints(x);
    const int64_t n = static_cast<int64_t>(p.size());
    std::vector<int64_t> inv(p.size(), -1);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t d = p[static_cast<size_t>(i)];
      if (d < 0 || d >= n)
        ctx.fail(std::to_string(d) + " is not between 0 and " + std::to_string(n));
      if (inv[static_cast<size_t>(d)] != -1)
        ctx.fail(std::to_string(d) + " is duplicated in the input.");
      inv[static_cast<size_t>(d)] = i;
    }
    Tensor& out = ctx.allocate_output(0, x.dtype(), x.eager_shape());
    for (int64_t i = 0; i < n; ++i) {
      if (x.dtype() == DType::kInt32)
        out.data<int32_t>()[i] = static_cast<int32_t>(inv[static_cast<size_t>(i)]);
      else
        out.data<int64_t>()[i] = inv[static_cast<size_t>(i)];
    }
  };
  return d;
}());

// ---- ConcatOffset: where each input of a concat starts along the concat dim ----

OpRegistration r_concat_offset([] {
  OpDef d;
  d.name = "ConcatOffset";
  d.inputs = {{"concat_dim", "", DType::kInt32}, {"shape", "shape_type", DType::kInvalid, "N"}};
  d.outputs = {{"offset", "shape_type", DType::kInvalid, "N"}};
  d.type_attrs = {{"shape_type", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = [](InferenceContext& c) {
    for (int i = 1; i < c.num_inputs(); ++i) c.set_output(i - 1, c.in(i));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& cd = ctx.input(0);
    if (cd.eager_shape().rank() != 0) {
      ctx.fail("Concat dim tensor should be a scalar, but got shape " +
               dims_text(cd.eager_shape()));
    }
    const int n = ctx.num_inputs() - 1;
    std::vector<int64_t> first = detail::tensor_ints(ctx.input(1));
    const int64_t rank = static_cast<int64_t>(first.size());
    int64_t axis = detail::tensor_ints(cd)[0];
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) {
      ctx.fail("Concat dim is out of range: " + std::to_string(detail::tensor_ints(cd)[0]) +
               " vs. " + std::to_string(rank));
    }
    int64_t offset = 0;
    for (int i = 0; i < n; ++i) {
      const Tensor& s = ctx.input(1 + i);
      std::vector<int64_t> dims = detail::tensor_ints(s);
      if (static_cast<int64_t>(dims.size()) != rank) {
        ctx.fail("input " + std::to_string(i) + " should contain " + std::to_string(rank) +
                 " elements, but got " + std::to_string(dims.size()));
      }
      for (int64_t j = 0; j < rank; ++j) {
        if (j != axis && dims[static_cast<size_t>(j)] != first[static_cast<size_t>(j)]) {
          ctx.fail(
              "All dimensions except " + std::to_string(axis) + " must match. Input " +
              std::to_string(i) + " has shape [" +
              [&] {
                std::string t;
                for (size_t k = 0; k < dims.size(); ++k)
                  t += (k ? " " : "") + std::to_string(dims[k]);
                return t;
              }() +
              "] and doesn't match input 0 with shape [" +
              [&] {
                std::string t;
                for (size_t k = 0; k < first.size(); ++k)
                  t += (k ? " " : "") + std::to_string(first[k]);
                return t;
              }() +
              "].");
        }
      }
      Tensor& out = ctx.allocate_output(i, s.dtype(), Shape{rank});
      for (int64_t j = 0; j < rank; ++j) {
        const int64_t v = j == axis ? offset : 0;
        if (s.dtype() == DType::kInt32)
          out.data<int32_t>()[j] = static_cast<int32_t>(v);
        else
          out.data<int64_t>()[j] = v;
      }
      offset += dims[static_cast<size_t>(axis)];
    }
  };
  return d;
}());

// ---- DynamicStitch: data[i][j...] placed at row indices[i][j] of the output, later inputs
// winning ----

OpRegistration r_dynamic_stitch([] {
  OpDef d;
  d.name = "DynamicStitch";
  d.inputs = {{"indices", "", DType::kInt32, "N"}, {"data", "T", DType::kInvalid, "N"}};
  d.outputs = {{"merged", "T"}};
  d.type_attrs = {{"T", {}}};
  d.shape_fn = [](InferenceContext& c) {
    const int n = c.num_inputs() / 2;
    int64_t max_index = -1;
    bool known = true;
    std::vector<int64_t> inner;
    bool inner_known = false;
    for (int i = 0; i < n; ++i) {
      const Tensor* idx = c.value(i);
      if (!idx) {
        known = false;
      } else {
        for (int64_t v : detail::tensor_ints(*idx)) max_index = std::max(max_index, v);
      }
      const PartialShape &is = c.in(i), &ds = c.in(n + i);
      if (is.has_rank() && ds.has_rank() && ds.rank() >= is.rank() && !inner_known) {
        std::vector<int64_t> dims = ds.dims();
        inner.assign(dims.begin() + is.rank(), dims.end());
        inner_known = true;
      }
    }
    if (!inner_known) return;
    std::vector<int64_t> out{known ? max_index + 1 : int64_t{-1}};
    out.insert(out.end(), inner.begin(), inner.end());
    c.set_output(0, PartialShape(out));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const int n = ctx.num_inputs() / 2;
    int64_t max_index = -1;
    for (int i = 0; i < n; ++i) {
      for (int64_t v : detail::tensor_ints(ctx.input(i))) max_index = std::max(max_index, v);
    }
    const Tensor& d0 = ctx.input(n);
    const int r0 = ctx.input(0).eager_shape().rank();
    std::vector<int64_t> dims{max_index + 1};
    for (int k = r0; k < d0.eager_shape().rank(); ++k) dims.push_back(d0.eager_shape().dim(k));
    Tensor& out = ctx.allocate_output(0, d0.dtype(), Shape(dims));
    int64_t slice = 1;
    for (size_t k = 1; k < dims.size(); ++k) slice *= dims[k];
    for (int i = 0; i < n; ++i) {
      const Tensor& idx = ctx.input(i);
      const Tensor& data = ctx.input(n + i);
      const int64_t m = idx.num_elements();
      if (data.num_elements() != m * slice) {
        ctx.fail("data[" + std::to_string(i) + "].shape = " + data.eager_shape().str() +
                 " does not start with indices[" + std::to_string(i) +
                 "].shape = " + idx.eager_shape().str());
      }
      std::vector<int64_t> rows = detail::tensor_ints(idx);
      detail::Mover mv(data, out);
      for (int64_t j = 0; j < m; ++j) {
        if (rows[static_cast<size_t>(j)] < 0) {
          ctx.fail("indices[" + std::to_string(j) + "] is out of range");
        }
        mv.copy(rows[static_cast<size_t>(j)] * slice, j * slice, slice);
      }
    }
  };
  return d;
}());

// ---- ListDiff: the elements of x not in y, in x's order, and their indices in x ----

OpRegistration r_list_diff([] {
  OpDef d;
  d.name = "ListDiff";
  d.inputs = {{"x", "T"}, {"y", "T"}};
  d.outputs = {{"out", "T"}, {"idx", "out_idx"}};
  d.type_attrs = {{"T", {}}, {"out_idx", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = [](InferenceContext& c) {
    detail::with_rank(c, c.in(0), 1);
    detail::with_rank(c, c.in(1), 1);
    c.set_output(0, PartialShape::unknown_of_rank(1));
    c.set_output(1, PartialShape::unknown_of_rank(1));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &x = ctx.input(0), &y = ctx.input(1);
    if (x.eager_shape().rank() != 1) ctx.fail("x should be a 1D vector.");
    if (y.eager_shape().rank() != 1) ctx.fail("y should be a 1D vector.");
    std::vector<int64_t> xs = detail::tensor_ints(x), ys = detail::tensor_ints(y);
    std::vector<int64_t> keep;
    for (size_t i = 0; i < xs.size(); ++i)
      if (std::find(ys.begin(), ys.end(), xs[i]) == ys.end())
        keep.push_back(static_cast<int64_t>(i));
    const int64_t n = static_cast<int64_t>(keep.size());
    Tensor& out = ctx.allocate_output(0, x.dtype(), Shape{n});
    detail::Mover mv(x, out);
    for (int64_t i = 0; i < n; ++i) mv.copy(i, keep[static_cast<size_t>(i)]);
    const DType idx_type =
        ctx.attrs->count("out_idx") ? attr_type(*ctx.attrs, "out_idx") : DType::kInt32;
    Tensor& idx = ctx.allocate_output(1, idx_type, Shape{n});
    for (int64_t i = 0; i < n; ++i) {
      if (idx_type == DType::kInt32)
        idx.data<int32_t>()[i] = static_cast<int32_t>(keep[static_cast<size_t>(i)]);
      else
        idx.data<int64_t>()[i] = keep[static_cast<size_t>(i)];
    }
  };
  return d;
}());

// ---- Cumprod: running products along an axis, one after the other (exclusive: the product
// before each element; reverse: from the end) ----

OpRegistration r_cumprod([] {
  OpDef d;
  d.name = "Cumprod";
  d.inputs = {{"x", "T"}, {"axis", "Tidx"}};
  d.outputs = {{"out", "T"}};
  d.type_attrs = {{"T", detail::kNumberTypes}, {"Tidx", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = detail::same_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    const Shape& s = x.eager_shape();
    if (ctx.input(1).eager_shape().rank() != 0) {
      ctx.fail("ScanOp: axis must be a scalar, not " + ctx.input(1).eager_shape().str());
    }
    int64_t axis = detail::tensor_ints(ctx.input(1))[0];
    if (axis < -s.rank() || axis >= s.rank()) {
      ctx.fail("ScanOp: Expected scan axis in the range [" + std::to_string(-s.rank()) + ", " +
               std::to_string(s.rank()) + "), but got " + std::to_string(axis));
    }
    if (axis < 0) axis += s.rank();
    const bool exclusive = attr_bool_or(*ctx.attrs, "exclusive", false);
    const bool reverse = attr_bool_or(*ctx.attrs, "reverse", false);
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < axis; ++i) outer *= s.dim(i);
    for (int i = static_cast<int>(axis) + 1; i < s.rank(); ++i) inner *= s.dim(i);
    const int64_t len = s.dim(static_cast<int>(axis));
    Tensor& out = ctx.allocate_output(0, x.dtype(), s);
    visit_dtype(x.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
        const T* px = x.data<T>();
        T* po = out.data<T>();
        auto times = [](T a, T b) {
          if constexpr (std::is_floating_point_v<T>) return detail::flush_denormal(a * b);
          return static_cast<T>(a * b);
        };
        for (int64_t o = 0; o < outer; ++o) {
          for (int64_t in = 0; in < inner; ++in) {
            T acc = T(1);
            for (int64_t k = 0; k < len; ++k) {
              const int64_t j = reverse ? len - 1 - k : k;
              const int64_t at = (o * len + j) * inner + in;
              if (exclusive) {
                po[at] = acc;
                acc = times(acc, px[at]);
              } else {
                acc = times(acc, px[at]);
                po[at] = acc;
              }
            }
          }
        }
      } else {
        ctx.fail("[ops] Cumprod of " + std::string(dtype_name(x.dtype())));
      }
    });
  };
  return d;
}());

// ---- Select (tf.compat.v1.where): a condition of the operands' shape, of their first dim, or a
// scalar ----

OpRegistration r_select([] {
  OpDef d;
  d.name = "Select";
  d.inputs = {{"condition", "", DType::kBool}, {"t", "T"}, {"e", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}};
  d.shape_fn = [](InferenceContext& c) {
    PartialShape merged;
    if (auto err = detail::merge_shapes(c.in(1), c.in(2), &merged)) c.fail(*err);
    c.set_output(0, merged);
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &cond = ctx.input(0), &t = ctx.input(1), &e = ctx.input(2);
    const Shape &cs = cond.eager_shape(), &ts = t.eager_shape();
    if (ts != e.eager_shape()) {
      ctx.fail("'then' and 'else' must have the same size.  but received: " + ts.str() + " vs. " +
               e.eager_shape().str());
    }
    const bool scalar = cs.rank() == 0, same = cs == ts;
    const bool rows =
        !scalar && !same && cs.rank() == 1 && ts.rank() >= 1 && cs.dim(0) == ts.dim(0);
    if (!scalar && !same && !rows) {
      if (ts.rank() == 0 || cs.rank() != 1) {
        ctx.fail("'condition' must be a scalar, a vector or the shape of 'then' and 'else', got " +
                 cs.str() + " and " + ts.str());
      }
      ctx.fail("Number of batches of 'then' must match size of 'condition', but saw: " +
               std::to_string(ts.dim(0)) + " vs. " + std::to_string(cs.dim(0)));
    }
    Tensor& out = ctx.allocate_output(0, t.dtype(), ts);
    detail::Mover from_t(t, out), from_e(e, out);
    const int64_t n = out.num_elements();
    const int64_t inner = rows ? (ts.dim(0) == 0 ? 0 : n / ts.dim(0)) : 1;
    const bool* c = cond.data<bool>();
    for (int64_t i = 0; i < n; ++i) {
      const bool pick = scalar ? c[0] : rows ? c[i / inner] : c[i];
      (pick ? from_t : from_e).copy(i, i);
    }
  };
  return d;
}());

// ---- DivNoNan: x / y, and 0 where y is 0 (no_nan_op: the same on packets and scalars) ----

template <typename T>
T div_no_nan(T x, T y) {
  return y == T(0) ? T(0) : x / y;
}

OpRegistration r_div_no_nan([] {
  OpDef d;
  d.name = "DivNoNan";
  d.inputs = {{"x", "T"}, {"y", "T"}};
  d.outputs = {{"z", "T"}};
  d.type_attrs = {{"T", detail::kFloatTypes}};
  d.shape_fn = detail::broadcast_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &a = ctx.input(0), &b = ctx.input(1);
    const Shape &sa = a.eager_shape(), &sb = b.eager_shape();
    auto os = broadcast_shapes(sa, sb);
    if (!os) ctx.fail("Incompatible shapes: " + dims_text(sa) + " vs. " + dims_text(sb));
    Tensor& out = ctx.allocate_output(0, a.dtype(), *os);
    visit_dtype(a.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>) {
        const T *pa = a.data<T>(), *pb = b.data<T>();
        T* po = out.data<T>();
        auto st_a = detail::broadcast_strides(sa, *os), st_b = detail::broadcast_strides(sb, *os);
        detail::for_each_broadcast(*os, st_a, st_b, [&](int64_t k, int64_t ia, int64_t ib) {
          po[k] = detail::flush_denormal(
              div_no_nan(detail::flush_denormal(pa[ia]), detail::flush_denormal(pb[ib])));
        });
      } else {
        ctx.fail("[ops] DivNoNan takes float or double");
      }
    });
  };
  return d;
}());

// ---- L2Loss: sum(x * x * 0.5), Eigen's full sum reduction of that expression ----

template <typename T>
struct HalfSquareSource {
  using Scalar = T;
  const T* x;
  T coeff(int64_t i) const {
    const T v = detail::flush_denormal(x[i]);
    return detail::flush_denormal(detail::flush_denormal(v * v) * T(0.5));
  }
  void packet(int64_t i, detail::EigenPacket<T>& p) const {
    for (int l = 0; l < detail::kEigenLanes<T>; ++l) p.v[l] = coeff(i + l);
  }
};

OpRegistration r_l2_loss([] {
  OpDef d;
  d.name = "L2Loss";
  d.inputs = {{"t", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", detail::kFloatTypes}};
  d.shape_fn = detail::scalar_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& t = ctx.input(0);
    Tensor& out = ctx.allocate_output(0, t.dtype(), Shape{});
    visit_dtype(t.dtype(), [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>) {
        const int64_t n = t.num_elements();
        out.data<T>()[0] = n == 0 ? T(0)
                                  : detail::reduce_full<detail::SumReducer<T>>(
                                        HalfSquareSource<T>{t.data<T>()}, n, intra_op_threads());
      } else {
        ctx.fail("[ops] L2Loss takes float or double");
      }
    });
  };
  return d;
}());

}  // namespace

namespace detail {
void anchor_grad_support_ops() {}
}  // namespace detail

}  // namespace tfs

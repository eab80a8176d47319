#include "kernel_util.h"

#include "tfscope/errors.h"

#include <type_traits>

#include "tfscope/detail/dtype_visit.h"

namespace tfs::detail {

std::string dims_text(const Shape& s) {
  std::string t = "[";
  for (int i = 0; i < s.rank(); ++i) t += (i ? "," : "") + std::to_string(s.dim(i));
  return t + "]";
}

void same_shape_fn(InferenceContext& c) { c.set_output(0, c.in(0)); }
void scalar_shape_fn(InferenceContext& c) { c.set_output(0, PartialShape(std::vector<int64_t>{})); }

void broadcast_shape_fn(InferenceContext& c) {
  const PartialShape &a = c.in(0), &b = c.in(1);
  auto r = broadcast_shapes(a, b);
  if (!r) {
    // Name the first pair of dims (from the right) that cannot broadcast, as TF does.
    int ra = a.rank(), rb = b.rank();
    for (int i = 1; i <= std::min(ra, rb); ++i) {
      int64_t da = a.dim(ra - i), db = b.dim(rb - i);
      if (da > 1 && db > 1 && da != db) {
        c.fail("Dimensions must be equal, but are " + std::to_string(da) + " and " +
               std::to_string(db));
      }
    }
    c.fail("Incompatible shapes");
  }
  c.set_output(0, *r);
}

std::optional<std::vector<int64_t>> const_ints(const InferenceContext& c, int i) {
  const Tensor* t = c.value(i);
  if (!t) return std::nullopt;
  return tensor_ints(*t);
}

std::vector<int64_t> tensor_ints(const Tensor& t) {
  std::vector<int64_t> out(static_cast<size_t>(t.num_elements()));
  visit_dtype(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      const T* p = t.data<T>();
      for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<int64_t>(p[i]);
    } else {
      invalid_argument("[ops] expected an integer tensor, got " +
                       std::string(dtype_name(t.dtype())));
    }
  });
  return out;
}

std::vector<int64_t> broadcast_strides(const Shape& in, const Shape& out) {
  int r = out.rank(), ri = in.rank();
  std::vector<int64_t> strides(static_cast<size_t>(r), 0);
  int64_t s = 1;
  for (int d = ri - 1; d >= 0; --d) {
    int od = r - ri + d;
    strides[static_cast<size_t>(od)] = in.dim(d) == 1 ? 0 : s;
    s *= in.dim(d);
  }
  return strides;
}

int64_t canonical_axis(int64_t axis, int rank, const std::string& what) {
  if (axis < -rank || axis >= rank) {
    invalid_argument(what + ": Expected axis in the range [" + std::to_string(-rank) + ", " +
                     std::to_string(rank) + "), but got " + std::to_string(axis));
  }
  return axis < 0 ? axis + rank : axis;
}

// "[2,?]" as TF's shape-function errors print a shape; "?" for unknown rank.
std::string shape_text(const PartialShape& s) {
  if (!s.has_rank()) return "?";
  std::string t = "[";
  for (int i = 0; i < s.rank(); ++i) {
    t += (i ? "," : "") + (s.dim(i) < 0 ? std::string("?") : std::to_string(s.dim(i)));
  }
  return t + "]";
}

// InferenceContext::WithRank / WithRankAtLeast / WithValue, with TF's texts.
void with_rank(const InferenceContext& c, const PartialShape& s, int64_t rank) {
  if (s.has_rank() && s.rank() != rank) {
    c.fail("Shape must be rank " + std::to_string(rank) + " but is rank " +
           std::to_string(s.rank()));
  }
}
void with_rank_at_least(const InferenceContext& c, const PartialShape& s, int64_t rank) {
  if (s.has_rank() && s.rank() < rank) {
    c.fail("Shape must be at least rank " + std::to_string(rank) + " but is rank " +
           std::to_string(s.rank()));
  }
}
void with_value(const InferenceContext& c, int64_t dim, int64_t want) {
  if (dim >= 0 && dim != want) {
    c.fail("Dimension must be " + std::to_string(want) + " but is " + std::to_string(dim));
  }
}

// InferenceContext::Merge: the more specific of two compatible shapes.
std::optional<std::string> merge_shapes(const PartialShape& a, const PartialShape& b,
                                        PartialShape* out) {
  if (!a.has_rank()) {
    *out = b;
    return std::nullopt;
  }
  if (!b.has_rank()) {
    *out = a;
    return std::nullopt;
  }
  if (a.rank() != b.rank()) {
    return "Shapes must be equal rank, but are " + std::to_string(a.rank()) + " and " +
           std::to_string(b.rank());
  }
  std::vector<int64_t> dims(static_cast<size_t>(a.rank()));
  for (int i = 0; i < a.rank(); ++i) {
    int64_t x = a.dim(i), y = b.dim(i);
    if (x >= 0 && y >= 0 && x != y) {
      return "Dimension " + std::to_string(i) + " in both shapes must be equal, but are " +
             std::to_string(x) + " and " + std::to_string(y) + ". Shapes are " + shape_text(a) +
             " and " + shape_text(b) + ".";
    }
    dims[static_cast<size_t>(i)] = x >= 0 ? x : y;
  }
  *out = PartialShape(dims);
  return std::nullopt;
}

// InferenceContext::MakeShapeFromShapeTensor: a known value gives dims (-1 = unknown), a known
// length gives that many unknown dims.
PartialShape shape_from_shape_tensor(const InferenceContext& c, int i) {
  const PartialShape& s = c.in(i);
  with_rank(c, s, 1);
  if (const Tensor* v = c.value_as_shape(i)) {
    std::vector<int64_t> dims = detail::tensor_ints(*v);
    for (int64_t d : dims) {
      if (d >= -1) continue;
      // TF reports this while evaluating the shape tensor, without the node and input shapes.
      const std::string msg = "Invalid value in tensor used for shape: " + std::to_string(d);
      if (!c.node_summary.empty()) value_error(msg);
      c.fail(msg);
    }
    return PartialShape(dims);
  }
  if (s.has_rank() && s.dim(0) >= 0)
    return PartialShape::unknown_of_rank(static_cast<int>(s.dim(0)));
  return PartialShape();
}

// A dims vector from a kernel's shape input, with TensorShapeUtils::MakeShape's error.
// Dimensions are checked left to right, so a negative one after an overflow is not reached.
Shape make_shape(OpKernelContext& ctx, const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) ctx.fail("Dimension " + std::to_string(d) + " must be >= 0");
    if (__builtin_mul_overflow(n, d, &n)) {
      std::string text;
      for (int64_t e : dims) text += (text.empty() ? "" : ",") + std::to_string(e);
      ctx.fail("Shape [" + text + "] would have more than 2**63 - 1 elements");
    }
  }
  return Shape(dims);
}

}  // namespace tfs::detail

#include "kernel_util.h"

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

}  // namespace tfs::detail

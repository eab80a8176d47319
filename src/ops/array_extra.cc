// Tile and BroadcastTo with TF 2.21's signatures, shape functions and kernel checks (in TF's
// order, with TF's texts). Both copy elements of any dtype, strings included.
#include <algorithm>
#include <string>
#include <vector>

#include "kernel_util.h"
#include "tfscope/errors.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

using detail::dims_text;
using detail::Mover;

// Copies src into an output of shape `out`, reading src index (i_d mod src.dim(d)) along each
// dimension d; src has out's rank. Tile's repetition and BroadcastTo's size-1 stretching alike.
void copy_wrapped(const Tensor& src, Tensor& dst, const Shape& out) {
  const int r = out.rank();
  const int64_t n = out.num_elements();
  if (n == 0) return;
  const Shape& in = src.eager_shape();
  std::vector<int64_t> in_strides(static_cast<size_t>(r), 1);
  for (int d = r - 2; d >= 0; --d) {
    in_strides[static_cast<size_t>(d)] = in_strides[static_cast<size_t>(d) + 1] * in.dim(d + 1);
  }
  Mover m(src, dst);
  std::vector<int64_t> idx(static_cast<size_t>(r), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t from = 0;
    for (int d = 0; d < r; ++d) {
      const auto ud = static_cast<size_t>(d);
      from += (idx[ud] % in.dim(d)) * in_strides[ud];
    }
    m.copy(k, from);
    for (int d = r - 1; d >= 0; --d) {
      const auto ud = static_cast<size_t>(d);
      if (++idx[ud] < out.dim(d)) break;
      idx[ud] = 0;
    }
  }
}

// InferenceContext::Multiply on two dims (-1 = unknown): 1 and 0 decide without the other.
int64_t multiply_dims(int64_t a, int64_t b) {
  if (a == 1) return b;
  if (b == 1) return a;
  if (a == 0 || b == 0) return 0;
  if (a < 0 || b < 0) return PartialShape::kUnknown;
  return a * b;
}

// ---- Tile ----

OpRegistration r_tile([] {
  OpDef d;
  d.name = "Tile";
  d.inputs = {{"input", "T"}, {"multiples", "Tmultiples"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}, {"Tmultiples", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = [](InferenceContext& c) {
    PartialShape input = c.in(0);
    // TF first runs this without constant values: a multiples vector of the wrong length fails
    // there, before the values are read (so its error lists none).
    if (input.has_rank() && c.in(1).has_rank() && c.in(1).rank() == 1 && c.in(1).dim(0) >= 0 &&
        c.in(1).dim(0) != input.rank()) {
      c.fail("Shape must be rank " + std::to_string(input.rank()) + " but is rank " +
             std::to_string(c.in(1).dim(0)));
    }
    // multiples read as a shape, so partially known multiples give partially known dims.
    PartialShape multiples = detail::shape_from_shape_tensor(c, 1);
    if (input.has_rank()) {
      detail::with_rank(c, multiples, input.rank());
      PartialShape merged;
      if (auto err = detail::merge_shapes(c.in(1), PartialShape({input.rank()}), &merged)) {
        c.fail(*err);
      }
    }
    if (!multiples.has_rank()) {
      c.set_output(0, PartialShape());
      return;
    }
    const int rank = multiples.rank();
    detail::with_rank(c, input, rank);
    std::vector<int64_t> dims;
    for (int i = 0; i < rank; ++i) {
      dims.push_back(multiply_dims(input.has_rank() ? input.dim(i) : PartialShape::kUnknown,
                                   multiples.dim(i)));
    }
    c.set_output(0, PartialShape(dims));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &input = ctx.input(0), &multiples = ctx.input(1);
    const Shape& ms = multiples.eager_shape();
    if (ms.rank() != 1) {
      ctx.fail("Expected multiples to be 1-D, but got shape " + dims_text(ms));
    }
    const int rank = input.eager_shape().rank();
    if (rank != ms.dim(0)) {
      ctx.fail("Expected multiples argument to be a vector of length " + std::to_string(rank) +
               " but got length " + std::to_string(ms.dim(0)));
    }
    if (rank == 0) {
      ctx.set_output(0, input);
      return;
    }
    std::vector<int64_t> m = detail::tensor_ints(multiples);
    std::vector<int64_t> dims;
    for (int i = 0; i < rank; ++i) {
      if (m[static_cast<size_t>(i)] < 0) {
        ctx.fail("Expected multiples[" + std::to_string(i) + "] >= 0, but got " +
                 std::to_string(m[static_cast<size_t>(i)]));
      }
      dims.push_back(input.eager_shape().dim(i) * m[static_cast<size_t>(i)]);
    }
    const Shape out(dims);
    copy_wrapped(input, ctx.allocate_output(0, input.dtype(), out), out);
  };
  return d;
}());

// ---- BroadcastTo ----

OpRegistration r_broadcast_to([] {
  OpDef d;
  d.name = "BroadcastTo";
  d.inputs = {{"input", "T"}, {"shape", "Tidx"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}, {"Tidx", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = [](InferenceContext& c) {
    detail::with_rank(c, c.in(1), 1);
    PartialShape out = detail::shape_from_shape_tensor(c, 1);
    const PartialShape& in = c.in(0);
    if (!out.has_rank() || !in.has_rank()) {
      c.set_output(0, out);
      return;
    }
    const int out_rank = out.rank(), in_rank = in.rank();
    if (in_rank > out_rank) {
      c.fail("Shape must be at most rank " + std::to_string(out_rank) + " but is rank " +
             std::to_string(in_rank));
    }
    // Only an input dim above 1 constrains the output: broadcasting stretches 1s.
    std::vector<int64_t> dims = out.dims();
    for (int i = 0; i < in_rank; ++i) {
      const int64_t in_dim = in.dim(in_rank - i - 1);
      int64_t& out_dim = dims[static_cast<size_t>(out_rank - i - 1)];
      if (in_dim <= 1) continue;
      if (out_dim >= 0 && out_dim != in_dim) {
        const std::string msg = "Dimensions must be equal, but are " + std::to_string(in_dim) +
                                " and " + std::to_string(out_dim);
        c.fail(msg);
      }
      out_dim = in_dim;
    }
    c.set_output(0, PartialShape(dims));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &input = ctx.input(0), &shape_t = ctx.input(1);
    const Shape& in = input.eager_shape();
    if (shape_t.eager_shape().rank() != 1) {
      ctx.fail("shape must be a vector of {int32,int64}, got shape " +
               dims_text(shape_t.eager_shape()));
    }
    const Shape out = detail::make_shape(ctx, detail::tensor_ints(shape_t));
    if (out == in) {
      ctx.set_output(0, input);
      return;
    }
    if (in.rank() > out.rank()) {
      ctx.fail("Rank of input (" + std::to_string(in.rank()) +
               ") must be no greater than rank of output shape (" + std::to_string(out.rank()) +
               ").");
    }
    auto b = broadcast_shapes(in, out);
    if (!b) ctx.fail("Incompatible shapes: " + dims_text(in) + " vs. " + dims_text(out));
    if (*b != out) {
      ctx.fail("Unable to broadcast tensor of shape " + dims_text(in) + " to tensor of shape " +
               dims_text(out));
    }
    // The input's dims right-aligned against the output's, 1 in front.
    std::vector<int64_t> padded(static_cast<size_t>(out.rank() - in.rank()), 1);
    for (int i = 0; i < in.rank(); ++i) padded.push_back(in.dim(i));
    Tensor src = input;
    if (in.rank() < out.rank()) src = input.reshaped(Shape(padded));
    copy_wrapped(src, ctx.allocate_output(0, input.dtype(), out), out);
  };
  return d;
}());

// ---- BroadcastArgs ----

// The broadcast of two shapes given as vectors (tf.broadcast_dynamic_shape, tf.linspace).
OpRegistration r_broadcast_args([] {
  OpDef d;
  d.name = "BroadcastArgs";
  d.inputs = {{"s0", "T"}, {"s1", "T"}};
  d.outputs = {{"r0", "T"}};
  d.type_attrs = {{"T", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = [](InferenceContext& c) {
    detail::with_rank(c, c.in(0), 1);
    detail::with_rank(c, c.in(1), 1);
    const int64_t a = c.in(0).has_rank() ? c.in(0).dim(0) : -1;
    const int64_t b = c.in(1).has_rank() ? c.in(1).dim(0) : -1;
    c.set_output(0, PartialShape({a < 0 || b < 0 ? -1 : std::max(a, b)}));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &s0 = ctx.input(0), &s1 = ctx.input(1);
    for (const Tensor* t : {&s0, &s1}) {
      if (t->eager_shape().rank() != 1) {
        ctx.fail("In[0] and In[1] must be vectors, got shapes " + dims_text(s0.eager_shape()) +
                 " and " + dims_text(s1.eager_shape()));
      }
    }
    const Shape a(detail::tensor_ints(s0)), b(detail::tensor_ints(s1));
    auto r = broadcast_shapes(a, b);
    if (!r) ctx.fail("Incompatible shapes: " + dims_text(a) + " vs. " + dims_text(b));
    const auto& dims = r->dims();
    Tensor& out = ctx.allocate_output(0, s0.dtype(), Shape{static_cast<int64_t>(dims.size())});
    for (size_t i = 0; i < dims.size(); ++i) {
      if (s0.dtype() == DType::kInt64) {
        out.data<int64_t>()[i] = dims[i];
      } else {
        out.data<int32_t>()[i] = static_cast<int32_t>(dims[i]);
      }
    }
  };
  return d;
}());

}  // namespace

namespace detail {
void anchor_array_extra_ops() {}
}  // namespace detail
}  // namespace tfs

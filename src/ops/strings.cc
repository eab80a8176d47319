// String kernels: the legacy Add op, which TF's `+` builds for tf.string (math_ops._add_dispatch;
// AddV2 has no string kernel): elementwise concatenation with numpy broadcasting. Numbers take
// AddV2's kernel.
#include "kernel_util.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

// The flat index into an input of shape `in` (right-aligned to `out`, size-1 dims broadcast) of
// output element `i`.
int64_t broadcast_index(const Shape& out, const Shape& in, int64_t i) {
  int64_t idx = 0, stride = 1;
  for (int d = out.rank() - 1, k = in.rank() - 1; d >= 0; --d, --k) {
    const int64_t coord = i % out.dim(d);
    i /= out.dim(d);
    if (k >= 0) {
      if (in.dim(k) != 1) idx += coord * stride;
      stride *= in.dim(k);
    }
  }
  return idx;
}

std::vector<DType> add_types() {
  std::vector<DType> t = detail::kNumberTypes;
  t.push_back(DType::kString);
  return t;
}

OpRegistration r_add_legacy([] {
  OpDef d;
  d.name = "Add";
  d.inputs = {{"x", "T"}, {"y", "T"}};
  d.outputs = {{"z", "T"}};
  d.type_attrs = {{"T", add_types()}};
  d.shape_fn = detail::broadcast_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor &x = ctx.input(0), &y = ctx.input(1);
    if (x.dtype() != DType::kString) {
      OpRegistry::global().get("AddV2").kernel(ctx);
      return;
    }
    const Shape &sx = x.eager_shape(), &sy = y.eager_shape();
    std::optional<Shape> so = broadcast_shapes(sx, sy);
    if (!so) {
      ctx.fail("Incompatible shapes: " + detail::dims_text(sx) + " vs. " + detail::dims_text(sy));
    }
    Tensor& out = ctx.allocate_output(0, DType::kString, *so);
    auto& o = out.mutable_string_values();
    const auto &xv = x.string_values(), &yv = y.string_values();
    for (int64_t i = 0; i < so->num_elements(); ++i) {
      o[static_cast<size_t>(i)] = xv[static_cast<size_t>(broadcast_index(*so, sx, i))] +
                                  yv[static_cast<size_t>(broadcast_index(*so, sy, i))];
    }
  };
  return d;
}());

}  // namespace

namespace detail {
void anchor_string_ops() {}
}  // namespace detail
}  // namespace tfs

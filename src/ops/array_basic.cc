// The ops every graph has: Const, Placeholder, Identity, IdentityN, NoOp, Shape, Reshape.
#include <algorithm>

#include "kernel_util.h"
#include "tfscope/context.h"
#include "tfscope/ops.h"

namespace tfs {
namespace {

OpRegistration r_const([] {
  OpDef d;
  d.name = "Const";
  d.outputs = {{"output", "dtype"}};
  d.type_attrs = {{"dtype", {}}};
  d.shape_fn = [](InferenceContext& c) { c.set_output(0, attr_tensor(*c.attrs, "value").shape()); };
  d.kernel = [](OpKernelContext& ctx) { ctx.set_output(0, attr_tensor(*ctx.attrs, "value")); };
  return d;
}());

OpRegistration r_placeholder([] {
  OpDef d;
  d.name = "Placeholder";
  d.outputs = {{"output", "dtype"}};
  d.type_attrs = {{"dtype", {}}};
  d.shape_fn = [](InferenceContext& c) {
    auto it = c.attrs->find("shape");
    c.set_output(0, it == c.attrs->end() ? PartialShape() : std::get<PartialShape>(it->second));
  };
  d.kernel = [](OpKernelContext& ctx) {
    ctx.fail("You must feed a value for placeholder tensor '" + *ctx.node_name + "' with dtype " +
             std::string(dtype_tf_string(attr_type(*ctx.attrs, "dtype"))));
  };
  return d;
}());

// Identity's kernel, and StopGradient's (the identity, a marker for gradients). While a tape
// records, the output is a tensor of its own (the same buffer), as TF's eager Identity makes a new
// handle: the tape keys tensors by handle, and an output that were its input would cut the
// gradient's path at tf.identity, or stop the gradient of StopGradient's input itself
// (tf.nn.moments' mean, which its variance reads through StopGradient).
void forward_input(OpKernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.is_eager() && x.dtype() != DType::kResource && x.dtype() != DType::kVariant &&
      Context::get().op_recorder()) {
    ctx.set_output(0, x.reshaped(x.eager_shape()));
    return;
  }
  ctx.set_output(0, x);
}

OpDef identity_like(const char* name) {
  OpDef d;
  d.name = name;
  d.inputs = {{"input", "T"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}};
  d.shape_fn = detail::same_shape_fn;
  d.kernel = forward_input;
  return d;
}

OpRegistration r_identity(identity_like("Identity"));
OpRegistration r_stop_gradient(identity_like("StopGradient"));

OpRegistration r_identity_n([] {
  OpDef d;
  d.name = "IdentityN";
  d.inputs = {{"input", "", DType::kInvalid, "", "T"}};
  d.outputs = {{"output", "", DType::kInvalid, "", "T"}};
  d.shape_fn = [](InferenceContext& c) {
    for (int i = 0; i < c.num_inputs(); ++i) c.set_output(i, c.in(i));
  };
  d.kernel = [](OpKernelContext& ctx) {
    for (int i = 0; i < ctx.num_inputs(); ++i) ctx.set_output(i, ctx.input(i));
  };
  return d;
}());

OpRegistration r_noop([] {
  OpDef d;
  d.name = "NoOp";
  d.kernel = [](OpKernelContext&) {};
  return d;
}());

OpRegistration r_shape([] {
  OpDef d;
  d.name = "Shape";
  d.inputs = {{"input", "T"}};
  d.outputs = {{"output", "out_type"}};
  d.type_attrs = {{"T", {}}, {"out_type", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = [](InferenceContext& c) {
    c.set_output(0, PartialShape({c.in(0).has_rank() ? c.in(0).rank() : PartialShape::kUnknown}));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Shape& s = ctx.input(0).eager_shape();
    DType out_type = attr_type(*ctx.attrs, "out_type");
    Tensor& out = ctx.allocate_output(0, out_type, Shape{s.rank()});
    for (int i = 0; i < s.rank(); ++i) {
      if (out_type == DType::kInt32)
        out.data<int32_t>()[i] = static_cast<int32_t>(s.dim(i));
      else
        out.data<int64_t>()[i] = s.dim(i);
    }
  };
  return d;
}());

// Resolve a requested shape with at most one -1 against a known element count.
std::optional<std::vector<int64_t>> resolve_reshape(std::vector<int64_t> dims, int64_t n,
                                                    std::string* err) {
  int64_t known = 1;
  int unknown = -1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == -1) {
      if (unknown >= 0) {
        *err = "Only one input size may be -1, not both " + std::to_string(unknown) + " and " +
               std::to_string(i);
        return std::nullopt;
      }
      unknown = static_cast<int>(i);
    } else {
      known *= dims[i];
    }
  }
  if (unknown >= 0) {
    if (known == 0 || n % known != 0) {
      *err = "Input to reshape is a tensor with " + std::to_string(n) +
             " values, but the requested shape requires a multiple of " + std::to_string(known);
      return std::nullopt;
    }
    dims[static_cast<size_t>(unknown)] = n / known;
  } else if (known != n) {
    *err = "Input to reshape is a tensor with " + std::to_string(n) +
           " values, but the requested shape has " + std::to_string(known);
    return std::nullopt;
  }
  return dims;
}

OpRegistration r_reshape([] {
  OpDef d;
  d.name = "Reshape";
  d.inputs = {{"tensor", "T"}, {"shape", "Tshape"}};
  d.outputs = {{"output", "T"}};
  d.type_attrs = {{"T", {}}, {"Tshape", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = [](InferenceContext& c) {
    // The shape input is read as a shape tensor (TF's MakeShapeFromShapeTensor).
    const Tensor* shape_t = c.value_as_shape(1);
    auto want =
        shape_t ? std::optional<std::vector<int64_t>>(detail::tensor_ints(*shape_t)) : std::nullopt;
    if (!want) {
      const PartialShape& sh = c.in(1);
      c.set_output(0, sh.has_rank() && sh.dim(0) >= 0
                          ? PartialShape::unknown_of_rank(static_cast<int>(sh.dim(0)))
                          : PartialShape());
      return;
    }
    int64_t n = c.in(0).num_elements();
    std::vector<int64_t> dims = *want;
    if (n < 0) {
      // Unknown input size: keep -1 as an unknown dim.
      for (auto& x : dims)
        if (x < 0) x = PartialShape::kUnknown;
      c.set_output(0, PartialShape(dims));
      return;
    }
    if (std::count(dims.begin(), dims.end(), PartialShape::kUnknown) > 1) {
      // Two unknown sizes (two -1s, or a shape partly known from tensors): TF's shape
      // function leaves them unknown; the kernel decides at run time.
      c.set_output(0, PartialShape(dims));
      return;
    }
    std::string err;
    auto r = resolve_reshape(dims, n, &err);
    if (!r) {
      // One -1 with the other sizes not dividing the input: TF's shape function says so.
      if (std::count(dims.begin(), dims.end(), int64_t{-1}) == 1) {
        int64_t known = 1;
        for (int64_t x : dims) known *= x == -1 ? 1 : x;
        if (known != 0 && n % known != 0) {
          c.fail("Dimension size must be evenly divisible by " + std::to_string(known) +
                 " but is " + std::to_string(n));
        }
      }
      int64_t req = 1;
      std::string txt = "[";
      for (size_t i = 0; i < dims.size(); ++i) {
        req *= dims[i];
        txt += (i ? "," : "") + std::to_string(dims[i]);
      }
      txt += "]";
      c.fail("Cannot reshape a tensor with " + std::to_string(n) + " elements to shape " + txt +
             " (" + std::to_string(req) + " elements)");
    }
    c.set_output(0, PartialShape(*r));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& x = ctx.input(0);
    std::string err;
    auto r = resolve_reshape(detail::tensor_ints(ctx.input(1)), x.num_elements(), &err);
    if (!r) ctx.fail(err);
    ctx.set_output(0, x.reshaped(Shape(*r)));  // a view: no copy
  };
  return d;
}());

}  // namespace

namespace detail {
void anchor_array_basic_ops() {}
}  // namespace detail
}  // namespace tfs

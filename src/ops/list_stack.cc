// The TensorList ops that use a list as a stack: EmptyTensorList, TensorListPushBack,
// TensorListPopBack, TensorListElementShape. while_v2's gradient accumulates a loop body's
// intermediates with them (one push per forward iteration, one pop per backward one). Kernel
// error texts are TF 2.21's (the oracle shows each).
#include "kernel_util.h"
#include "list_util.h"
#include "tfscope/ops_list.h"

namespace tfs {
namespace {

using detail::check_element_dtype;
using detail::element_shape_of;
using detail::shape_debug;

OpRegistration r_empty([] {
  OpDef d;
  d.name = "EmptyTensorList";
  d.inputs = {{"element_shape", "shape_type"}, {"max_num_elements", "", DType::kInt32}};
  d.outputs = {{"handle", "", DType::kVariant}};
  d.type_attrs = {{"element_dtype", detail::kListElementTypes},
                  {"shape_type", detail::kIndexTypes}};
  d.shape_fn = detail::scalar_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& max = ctx.input(1);
    if (max.eager_shape().rank() != 0) {
      ctx.fail("max_num_elements expected to be a scalar but got shape: " +
               detail::dims_text(max.eager_shape()));
    }
    auto l = std::make_shared<TensorList>();
    l->element_dtype = attr_type(*ctx.attrs, "element_dtype");
    l->element_shape = element_shape_of(ctx.input(0));
    l->max_num_elements = detail::tensor_ints(max)[0];
    ctx.set_output(0, detail::wrap(std::move(l)));
  };
  return d;
}());

OpRegistration r_push_back([] {
  OpDef d;
  d.name = "TensorListPushBack";
  d.inputs = {{"input_handle", "", DType::kVariant}, {"tensor", "element_dtype"}};
  d.outputs = {{"output_handle", "", DType::kVariant}};
  d.type_attrs = {{"element_dtype", detail::kListElementTypes}};
  d.shape_fn = detail::scalar_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const TensorList& l = tensor_list_of(ctx.input(0));
    const Tensor& item = ctx.input(1);
    check_element_dtype(ctx, l, item.dtype());
    if (!l.element_shape.is_compatible_with(PartialShape(item.eager_shape()))) {
      ctx.fail("Tried to append a tensor with incompatible shape to a list. Op element shape: " +
               detail::dims_text(item.eager_shape()) +
               " list shape: " + shape_debug(l.element_shape));
    }
    const auto size = static_cast<int64_t>(l.tensors.size());
    if (l.max_num_elements != -1 && size >= l.max_num_elements) {
      ctx.fail("Tried to push item into a full list list size: " + std::to_string(size) +
               " max_num_elements: " + std::to_string(l.max_num_elements));
    }
    auto out = std::make_shared<TensorList>(l);
    out->tensors.push_back(item);
    ctx.set_output(0, detail::wrap(std::move(out)));
  };
  return d;
}());

OpRegistration r_pop_back([] {
  OpDef d;
  d.name = "TensorListPopBack";
  d.inputs = {{"input_handle", "", DType::kVariant}, {"element_shape", "", DType::kInt32}};
  d.outputs = {{"output_handle", "", DType::kVariant}, {"tensor", "element_dtype"}};
  d.type_attrs = {{"element_dtype", detail::kListElementTypes}};
  // TF merges the element_shape input with the list's handle data (the element shape the list
  // was made with); tfscope keeps no handle data, so the gradient code that pops an accumulator
  // sets the popped tensor's shape itself (while_grad.cc).
  d.shape_fn = [](InferenceContext& c) {
    c.set_output(0, PartialShape(Shape{}));
    c.set_output(1, detail::const_element_shape(c, 1));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const TensorList& l = tensor_list_of(ctx.input(0));
    check_element_dtype(ctx, l, attr_type(*ctx.attrs, "element_dtype"));
    if (l.tensors.empty()) ctx.fail("Trying to pop from an empty list.");
    Tensor item =
        detail::element_or_zeros(ctx, l, l.tensors.size() - 1, element_shape_of(ctx.input(1)));
    auto out = std::make_shared<TensorList>(l);
    out->tensors.pop_back();
    ctx.set_output(0, detail::wrap(std::move(out)));
    ctx.set_output(1, item);
  };
  return d;
}());

OpRegistration r_element_shape([] {
  OpDef d;
  d.name = "TensorListElementShape";
  d.inputs = {{"input_handle", "", DType::kVariant}};
  d.outputs = {{"element_shape", "shape_type"}};
  d.type_attrs = {{"shape_type", detail::kIndexTypes}};
  d.shape_fn = [](InferenceContext& c) { c.set_output(0, PartialShape()); };
  d.kernel = [](OpKernelContext& ctx) {
    const TensorList& l = tensor_list_of(ctx.input(0));
    const DType dt = attr_type(*ctx.attrs, "shape_type");
    // An unknown rank is the scalar -1; else one entry per dim, -1 where unknown.
    if (!l.element_shape.has_rank()) {
      Tensor& out = ctx.allocate_output(0, dt, Shape{});
      if (dt == DType::kInt32)
        out.data<int32_t>()[0] = -1;
      else
        out.data<int64_t>()[0] = -1;
      return;
    }
    const auto& dims = l.element_shape.dims();
    Tensor& out =
        ctx.allocate_output(0, dt, Shape(std::vector<int64_t>{static_cast<int64_t>(dims.size())}));
    for (size_t i = 0; i < dims.size(); ++i) {
      const int64_t v = dims[i] < 0 ? -1 : dims[i];
      if (dt == DType::kInt32)
        out.data<int32_t>()[i] = static_cast<int32_t>(v);
      else
        out.data<int64_t>()[i] = v;
    }
  };
  return d;
}());

}  // namespace

namespace detail {
void anchor_list_stack_ops() {}
}  // namespace detail

}  // namespace tfs

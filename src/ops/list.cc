// TensorList ops on DT_VARIANT values: TensorListReserve, TensorListFromTensor,
// TensorListGetItem, TensorListSetItem, TensorListStack, TensorListLength; and the tf.TensorArray
// calls (v2, in graphs) that AutoGraph's `for x in tensor` uses. Kernel error texts are TF's.
#include <cstring>

#include "kernel_util.h"
#include "list_util.h"
#include "op_scope.h"
#include "tfscope/ops_list.h"

namespace tfs {

const TensorList& tensor_list_of(const Tensor& t) {
  const auto* l = t.is_eager() && t.dtype() == DType::kVariant
                      ? dynamic_cast<const TensorList*>(t.variant_value().get())
                      : nullptr;
  if (!l) invalid_argument("[ops] expected a TensorList variant tensor");
  return *l;
}

namespace detail {

const std::vector<DType> kListElementTypes = {DType::kFloat32, DType::kFloat64, DType::kInt32,
                                              DType::kUInt8,   DType::kInt16,   DType::kInt8,
                                              DType::kString,  DType::kInt64,   DType::kBool};

// An element_shape input: a scalar -1 is an unknown rank; a vector lists dims, -1 unknown.
PartialShape element_shape_of(const Tensor& t) {
  std::vector<int64_t> v = detail::tensor_ints(t);
  if (t.eager_shape().rank() == 0) {
    if (v[0] != -1) invalid_argument("[ops] element_shape must be -1 or a vector of dims");
    return PartialShape();
  }
  return PartialShape(std::move(v));
}

// The same, at graph-construction time, where the input is a constant.
PartialShape const_element_shape(const InferenceContext& c, int i) {
  const Tensor* t = c.value_as_shape(i);
  if (!t) return PartialShape();
  return element_shape_of(*t);
}

// TF's PartialTensorShape::DebugString: "[2,?]", "<unknown>".
std::string shape_debug(const PartialShape& s) {
  return s.has_rank() ? detail::shape_text(s) : "<unknown>";
}

Tensor wrap(std::shared_ptr<TensorList> l) {
  return Tensor::variant(std::move(l));
}

void check_element_dtype(OpKernelContext& ctx, const TensorList& l, DType want) {
  if (l.element_dtype != want) {
    ctx.fail("Invalid data types; op elements " + std::string(dtype_tf_string(want)) +
             " but list elements " + std::string(dtype_tf_string(l.element_dtype)));
  }
}

// An element never set reads as zeros of the element shape, which must then be fully defined.
Tensor element_or_zeros(OpKernelContext& ctx, const TensorList& l, size_t i,
                        const PartialShape& requested) {
  if (l.tensors[i].defined()) return l.tensors[i];
  std::optional<PartialShape> shape = requested.merge_with(l.element_shape);
  if (!shape || !shape->is_fully_defined()) {
    ctx.fail("Trying to read an uninitialized tensor but element_shape is not fully defined: " +
             shape_debug(shape ? *shape : requested) + " and no list element is set.");
  }
  return Tensor::zeros(l.element_dtype, *shape->to_shape());
}

}  // namespace detail

namespace {

using namespace detail;  // NOLINT: the helpers of list_util.h

OpRegistration r_reserve([] {
  OpDef d;
  d.name = "TensorListReserve";
  d.inputs = {{"element_shape", "shape_type"}, {"num_elements", "", DType::kInt32}};
  d.outputs = {{"handle", "", DType::kVariant}};
  d.type_attrs = {{"element_dtype", kListElementTypes}, {"shape_type", detail::kIndexTypes}};
  d.shape_fn = detail::scalar_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    int64_t n = detail::tensor_ints(ctx.input(1))[0];
    if (n < 0) {
      ctx.fail("The num_elements to reserve must be a non negative number, but got " +
               std::to_string(n));
    }
    auto l = std::make_shared<TensorList>();
    l->element_dtype = attr_type(*ctx.attrs, "element_dtype");
    l->element_shape = element_shape_of(ctx.input(0));
    l->tensors.resize(static_cast<size_t>(n));
    ctx.set_output(0, wrap(std::move(l)));
  };
  return d;
}());

OpRegistration r_from_tensor([] {
  OpDef d;
  d.name = "TensorListFromTensor";
  d.inputs = {{"tensor", "element_dtype"}, {"element_shape", "shape_type"}};
  d.outputs = {{"output_handle", "", DType::kVariant}};
  d.type_attrs = {{"element_dtype", kListElementTypes}, {"shape_type", detail::kIndexTypes}};
  d.shape_fn = [](InferenceContext& c) {
    if (c.in(0).has_rank() && c.in(0).rank() < 1) {
      c.fail("Shape must be at least rank 1 but is rank 0");
    }
    c.set_output(0, PartialShape(std::vector<int64_t>{}));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const Tensor& t = ctx.input(0);
    const Shape& s = t.eager_shape();
    if (s.rank() < 1) {
      ctx.fail("Tensor must be at least a vector, but saw shape: " + detail::dims_text(s));
    }
    std::vector<int64_t> row_dims(s.dims().begin() + 1, s.dims().end());
    Shape row(row_dims);
    PartialShape declared = element_shape_of(ctx.input(1));
    if (!declared.is_compatible_with(PartialShape(row))) {
      ctx.fail("Specified a list with shape " + shape_debug(declared) +
               " from a tensor with shape " + detail::dims_text(row));
    }
    auto l = std::make_shared<TensorList>();
    l->element_dtype = t.dtype();
    l->element_shape = declared;
    const int64_t n = s.dim(0), per = row.num_elements();
    l->tensors.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      Tensor e = Tensor::empty(t.dtype(), row);
      if (t.dtype() == DType::kString) {
        const auto& src = t.string_values();
        auto& dst = e.mutable_string_values();
        for (int64_t j = 0; j < per; ++j)
          dst[static_cast<size_t>(j)] = src[static_cast<size_t>(i * per + j)];
      } else if (per > 0) {
        const size_t bytes = static_cast<size_t>(per) * dtype_size(t.dtype());
        std::memcpy(e.raw_data(),
                    static_cast<const char*>(t.raw_data()) + static_cast<size_t>(i) * bytes, bytes);
      }
      l->tensors.push_back(std::move(e));
    }
    ctx.set_output(0, wrap(std::move(l)));
  };
  return d;
}());

OpRegistration r_get_item([] {
  OpDef d;
  d.name = "TensorListGetItem";
  d.inputs = {{"input_handle", "", DType::kVariant},
              {"index", "", DType::kInt32},
              {"element_shape", "Tshape"}};
  d.outputs = {{"item", "element_dtype"}};
  d.type_attrs = {{"element_dtype", kListElementTypes},
                  {"Tshape", detail::kIndexTypes, DType::kInt32}};
  d.shape_fn = [](InferenceContext& c) { c.set_output(0, const_element_shape(c, 2)); };
  d.kernel = [](OpKernelContext& ctx) {
    const TensorList& l = tensor_list_of(ctx.input(0));
    check_element_dtype(ctx, l, attr_type(*ctx.attrs, "element_dtype"));
    int64_t i = detail::tensor_ints(ctx.input(1))[0];
    if (i < 0 || i >= static_cast<int64_t>(l.tensors.size())) {
      ctx.fail("Trying to access element " + std::to_string(i) + " in a list with " +
               std::to_string(l.tensors.size()) + " elements.");
    }
    ctx.set_output(
        0, element_or_zeros(ctx, l, static_cast<size_t>(i), element_shape_of(ctx.input(2))));
  };
  return d;
}());

OpRegistration r_set_item([] {
  OpDef d;
  d.name = "TensorListSetItem";
  d.inputs = {{"input_handle", "", DType::kVariant},
              {"index", "", DType::kInt32},
              {"item", "element_dtype"}};
  d.outputs = {{"output_handle", "", DType::kVariant}};
  d.type_attrs = {{"element_dtype", kListElementTypes}};
  d.shape_fn = detail::scalar_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const TensorList& l = tensor_list_of(ctx.input(0));
    const Tensor& item = ctx.input(2);
    check_element_dtype(ctx, l, item.dtype());
    int64_t i = detail::tensor_ints(ctx.input(1))[0];
    bool resize = attr_bool_or(*ctx.attrs, "resize_if_index_out_of_bounds", false);
    if (i < 0 || (!resize && i >= static_cast<int64_t>(l.tensors.size()))) {
      ctx.fail("Trying to modify element " + std::to_string(i) + " in a list with " +
               std::to_string(l.tensors.size()) + " elements.");
    }
    if (!l.element_shape.is_compatible_with(PartialShape(item.eager_shape()))) {
      ctx.fail(
          "Tried to set a tensor with incompatible shape at a list index. Item element "
          "shape: " +
          detail::dims_text(item.eager_shape()) + " list shape: " + shape_debug(l.element_shape));
    }
    auto out = std::make_shared<TensorList>(l);
    if (i >= static_cast<int64_t>(out->tensors.size()))
      out->tensors.resize(static_cast<size_t>(i) + 1);
    out->tensors[static_cast<size_t>(i)] = item;
    ctx.set_output(0, wrap(std::move(out)));
  };
  return d;
}());

OpRegistration r_stack([] {
  OpDef d;
  d.name = "TensorListStack";
  d.inputs = {{"input_handle", "", DType::kVariant}, {"element_shape", "", DType::kInt32}};
  d.outputs = {{"tensor", "element_dtype"}};
  d.type_attrs = {{"element_dtype", kListElementTypes}};
  d.shape_fn = [](InferenceContext& c) {
    PartialShape e = const_element_shape(c, 1);
    int64_t n = attr_int_or(*c.attrs, "num_elements", -1);
    if (!e.has_rank()) {
      c.set_output(0, PartialShape());
      return;
    }
    std::vector<int64_t> dims{n < 0 ? PartialShape::kUnknown : n};
    dims.insert(dims.end(), e.dims().begin(), e.dims().end());
    c.set_output(0, PartialShape(std::move(dims)));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const TensorList& l = tensor_list_of(ctx.input(0));
    const DType dt = attr_type(*ctx.attrs, "element_dtype");
    check_element_dtype(ctx, l, dt);
    PartialShape requested = element_shape_of(ctx.input(1));
    std::optional<PartialShape> shape = requested.merge_with(l.element_shape);
    if (shape && !shape->is_fully_defined()) {
      for (const Tensor& e : l.tensors) {
        if (e.defined()) {
          shape = shape->merge_with(PartialShape(e.eager_shape()));
          break;
        }
      }
    }
    if (!shape || !shape->is_fully_defined()) {
      ctx.fail(
          "Tried to stack list which only contains uninitialized tensors and has a "
          "non-fully-defined element_shape: " +
          shape_debug(shape ? *shape : requested));
    }
    Shape elem = *shape->to_shape();
    std::vector<int64_t> dims{static_cast<int64_t>(l.tensors.size())};
    dims.insert(dims.end(), elem.dims().begin(), elem.dims().end());
    Tensor& out = ctx.allocate_output(0, dt, Shape(dims));
    const int64_t per = elem.num_elements();
    for (size_t i = 0; i < l.tensors.size(); ++i) {
      Tensor e = element_or_zeros(ctx, l, i, PartialShape(elem));
      if (e.eager_shape() != elem) {
        ctx.fail("Incompatible shapes in list: " + detail::dims_text(e.eager_shape()) + " vs. " +
                 detail::dims_text(elem));
      }
      if (dt == DType::kString) {
        for (int64_t j = 0; j < per; ++j) {
          out.mutable_string_values()[i * static_cast<size_t>(per) + static_cast<size_t>(j)] =
              e.string_values()[static_cast<size_t>(j)];
        }
      } else if (per > 0) {
        const size_t bytes = static_cast<size_t>(per) * dtype_size(dt);
        std::memcpy(static_cast<char*>(out.raw_data()) + i * bytes, e.raw_data(), bytes);
      }
    }
  };
  return d;
}());

OpRegistration r_length([] {
  OpDef d;
  d.name = "TensorListLength";
  d.inputs = {{"input_handle", "", DType::kVariant}};
  d.outputs = {{"length", "", DType::kInt32}};
  d.shape_fn = detail::scalar_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const TensorList& l = tensor_list_of(ctx.input(0));
    ctx.allocate_output(0, DType::kInt32, Shape{}).data<int32_t>()[0] =
        static_cast<int32_t>(l.tensors.size());
  };
  return d;
}());

// Converts `v` as an int32 input `param` of the op named `op`, as TF's generated wrappers do
// ("TensorListFromTensor/element_shape").
Tensor op_input(const std::string& op, const Value& v, const std::string& param) {
  if (v.is_tensor()) return v.as_tensor();
  detail::InputScope s(op);
  return convert_to_tensor(v, DType::kInt32, param);
}

}  // namespace

Value list_element_shape(const PartialShape& s) {
  if (!s.has_rank()) return Value(-1);
  ValueList dims;
  for (int64_t d : s.dims()) dims.push_back(Value(d < 0 ? int64_t{-1} : d));
  if (dims.empty()) return Value(constant(Value::list({}), DType::kInt32, "Const"));
  return Value::list(std::move(dims));
}

TensorArrayFlow tensor_array(DType dtype, const Value& size) {
  detail::OpScope s("TensorArrayV2");
  Tensor shape = convert_to_tensor(Value(-1), DType::kInt32, "element_shape");
  Tensor n =
      size.is_tensor() ? size.as_tensor() : convert_to_tensor(size, DType::kInt32, "num_elements");
  Tensor flow = execute1("TensorListReserve", {shape, n},
                         {{"element_dtype", dtype}, {"shape_type", DType::kInt32}}, s.op_name());
  return {flow, dtype, PartialShape()};
}

TensorArrayFlow tensor_array_unstack(const TensorArrayFlow& ta, const Tensor& value) {
  detail::OpScope s("TensorArrayUnstack");
  if (value.dtype() != ta.dtype) {
    type_error("TensorArray dtype is " + std::string(dtype_name(ta.dtype)) +
               " but Op is trying to write dtype " + std::string(dtype_name(value.dtype())) + " ");
  }
  PartialShape rows;
  if (value.shape().has_rank() && value.shape().rank() >= 1) {
    rows = PartialShape(
        std::vector<int64_t>(value.shape().dims().begin() + 1, value.shape().dims().end()));
  }
  std::optional<PartialShape> merged = rows.merge_with(ta.element_shape);
  if (!merged) {
    value_error("Inconsistent shapes: saw " + rows.str() + " but expected " +
                ta.element_shape.str() + " ");
  }
  Value es = list_element_shape(rows);
  Tensor es_t = op_input("TensorListFromTensor", es, "element_shape");
  Tensor flow = execute1("TensorListFromTensor", {value, es_t},
                         {{"element_dtype", value.dtype()}, {"shape_type", DType::kInt32}},
                         "TensorListFromTensor");
  return {flow, ta.dtype, *merged};
}

Tensor tensor_array_read(const TensorArrayFlow& ta, const Value& index) {
  detail::OpScope s("TensorArrayV2Read");
  Value es = list_element_shape(ta.element_shape);
  Tensor idx = op_input("TensorListGetItem", index, "index");
  Tensor es_t = op_input("TensorListGetItem", es, "element_shape");
  return execute1("TensorListGetItem", {ta.flow, idx, es_t}, {{"element_dtype", ta.dtype}},
                  "TensorListGetItem");
}

namespace detail {
void anchor_list_stack_ops();  // list_stack.cc: its registrations are kept with this file's
void anchor_list_ops() {
  anchor_list_stack_ops();
}
}  // namespace detail
}  // namespace tfs

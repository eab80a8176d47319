// The TensorList ops behind TensorArray.gather/scatter/concat: TensorListGather,
// TensorListScatterIntoExistingList, TensorListConcatV2. Error texts are TF 2.21's as its
// kernels print them (the oracle shows each), typos included ("out o range").
#include <cstring>

#include "kernel_util.h"
#include "list_util.h"
#include "tfscope/ops_list.h"

namespace tfs {
namespace {

using detail::check_element_dtype;
using detail::element_shape_of;
using detail::shape_debug;

// Copies `e` (numeric or string) into `out` at element offset `at`.
void copy_into(Tensor& out, int64_t at, const Tensor& e) {
  const int64_t n = e.num_elements();
  if (out.dtype() == DType::kString) {
    for (int64_t j = 0; j < n; ++j) {
      out.mutable_string_values()[static_cast<size_t>(at + j)] =
          e.string_values()[static_cast<size_t>(j)];
    }
  } else if (n > 0) {
    const size_t sz = dtype_size(out.dtype());
    std::memcpy(static_cast<char*>(out.raw_data()) + static_cast<size_t>(at) * sz, e.raw_data(),
                static_cast<size_t>(n) * sz);
  }
}

// Element `i` of `t` along dim 0 (a fresh tensor of shape dims[1:]).
Tensor row_of(const Tensor& t, int64_t i) {
  const Shape& s = t.eager_shape();
  Shape row(std::vector<int64_t>(s.dims().begin() + 1, s.dims().end()));
  Tensor e = Tensor::empty(t.dtype(), row);
  const int64_t per = row.num_elements();
  if (t.dtype() == DType::kString) {
    for (int64_t j = 0; j < per; ++j) {
      e.mutable_string_values()[static_cast<size_t>(j)] =
          t.string_values()[static_cast<size_t>(i * per + j)];
    }
  } else if (per > 0) {
    const size_t bytes = static_cast<size_t>(per) * dtype_size(t.dtype());
    std::memcpy(e.raw_data(),
                static_cast<const char*>(t.raw_data()) + static_cast<size_t>(i) * bytes, bytes);
  }
  return e;
}

// PartialTensorShape::MergeWith's error, as TF's kernels report it.
PartialShape merge_or_fail(OpKernelContext& ctx, const PartialShape& a, const PartialShape& b) {
  if (std::optional<PartialShape> m = a.merge_with(b)) return *m;
  if (a.rank() != b.rank()) {
    ctx.fail("PartialTensorShape: Incompatible ranks during merge: " + std::to_string(a.rank()) +
             " vs. " + std::to_string(b.rank()));
  }
  ctx.fail("PartialTensorShape: Incompatible shapes during merge: " + shape_debug(a) + " vs. " +
           shape_debug(b));
}

OpRegistration r_gather([] {
  OpDef d;
  d.name = "TensorListGather";
  d.inputs = {{"input_handle", "", DType::kVariant},
              {"indices", "", DType::kInt32},
              {"element_shape", "", DType::kInt32}};
  d.outputs = {{"values", "element_dtype"}};
  d.type_attrs = {{"element_dtype", detail::kListElementTypes}};
  d.shape_fn = [](InferenceContext& c) {
    PartialShape e = detail::const_element_shape(c, 2);
    const PartialShape& idx = c.in(1);
    if (!idx.has_rank() || !e.has_rank()) {
      c.set_output(0, PartialShape());
      return;
    }
    std::vector<int64_t> dims = idx.dims();
    dims.insert(dims.end(), e.dims().begin(), e.dims().end());
    c.set_output(0, PartialShape(std::move(dims)));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const TensorList& l = tensor_list_of(ctx.input(0));
    check_element_dtype(ctx, l, attr_type(*ctx.attrs, "element_dtype"));
    std::vector<int64_t> idx = detail::tensor_ints(ctx.input(1));
    const int64_t size = static_cast<int64_t>(l.tensors.size());
    for (int64_t i : idx) {
      if (i < 0 || i >= size) {
        ctx.fail("Index " + std::to_string(i) + " out o range; list only has " +
                 std::to_string(size) + " elements.");
      }
    }
    PartialShape shape = merge_or_fail(ctx, element_shape_of(ctx.input(2)), l.element_shape);
    if (!shape.is_fully_defined()) {
      for (int64_t i : idx) {
        const Tensor& t = l.tensors[static_cast<size_t>(i)];
        if (t.defined()) shape = merge_or_fail(ctx, shape, PartialShape(t.eager_shape()));
      }
    }
    if (!shape.is_fully_defined()) {
      ctx.fail(
          "Tried to gather uninitialized tensors from a list with non-fully-defined "
          "element_shape: " +
          shape_debug(shape));
    }
    Shape elem = *shape.to_shape();
    std::vector<int64_t> dims{static_cast<int64_t>(idx.size())};
    dims.insert(dims.end(), elem.dims().begin(), elem.dims().end());
    const DType dt = l.element_dtype;
    Tensor& out = ctx.allocate_output(0, dt, Shape(dims));
    for (size_t k = 0; k < idx.size(); ++k) {
      Tensor e = detail::element_or_zeros(ctx, l, static_cast<size_t>(idx[k]), shape);
      if (e.eager_shape() != elem) {
        ctx.fail("PartialTensorShape: Incompatible shapes during merge: " +
                 detail::dims_text(e.eager_shape()) + " vs. " + detail::dims_text(elem));
      }
      copy_into(out, static_cast<int64_t>(k) * elem.num_elements(), e);
    }
  };
  return d;
}());

OpRegistration r_scatter_existing([] {
  OpDef d;
  d.name = "TensorListScatterIntoExistingList";
  d.inputs = {{"input_handle", "", DType::kVariant},
              {"tensor", "element_dtype"},
              {"indices", "", DType::kInt32}};
  d.outputs = {{"output_handle", "", DType::kVariant}};
  d.type_attrs = {{"element_dtype", detail::kListElementTypes}};
  d.shape_fn = detail::scalar_shape_fn;
  d.kernel = [](OpKernelContext& ctx) {
    const TensorList& l = tensor_list_of(ctx.input(0));
    const Tensor& t = ctx.input(1);
    const Shape& s = t.eager_shape();
    if (s.rank() < 1) {
      ctx.fail("Tensor must be at least a vector, but saw shape: " + detail::dims_text(s));
    }
    const Tensor& indices = ctx.input(2);
    if (indices.eager_shape().rank() != 1) {
      ctx.fail("Expected indices to be a vector, but received shape: " +
               detail::dims_text(indices.eager_shape()));
    }
    std::vector<int64_t> idx = detail::tensor_ints(indices);
    if (static_cast<int64_t>(idx.size()) != s.dim(0)) {
      ctx.fail("Expected len(indices) == tensor.shape[0], but saw: " + std::to_string(idx.size()) +
               " vs. " + std::to_string(s.dim(0)));
    }
    if (t.dtype() != l.element_dtype) {
      ctx.fail("Invalid data types; input tensor type: " + std::string(dtype_tf_string(t.dtype())) +
               " list element_type: " + std::string(dtype_tf_string(l.element_dtype)));
    }
    auto out = std::make_shared<TensorList>(l);
    for (size_t k = 0; k < idx.size(); ++k) {
      // TF 2.21 aborts the process on a negative index here; tfscope reports it.
      if (idx[k] < 0) {
        ctx.fail("Indices in TensorListScatter must all be non-negative, but saw " +
                 std::to_string(idx[k]) + ".");
      }
      const size_t i = static_cast<size_t>(idx[k]);
      if (i >= out->tensors.size()) out->tensors.resize(i + 1);
      out->tensors[i] = row_of(t, static_cast<int64_t>(k));
    }
    ctx.set_output(0, detail::wrap(std::move(out)));
  };
  return d;
}());

OpRegistration r_concat_v2([] {
  OpDef d;
  d.name = "TensorListConcatV2";
  d.inputs = {{"input_handle", "", DType::kVariant},
              {"element_shape", "shape_type"},
              {"leading_dims", "", DType::kInt64}};
  d.outputs = {{"tensor", "element_dtype"}, {"lengths", "", DType::kInt64}};
  d.type_attrs = {{"element_dtype", detail::kListElementTypes},
                  {"shape_type", detail::kIndexTypes}};
  d.shape_fn = [](InferenceContext& c) {
    PartialShape e = detail::const_element_shape(c, 1);
    if (e.has_rank() && e.rank() >= 1) {
      std::vector<int64_t> dims = e.dims();
      dims[0] = PartialShape::kUnknown;
      c.set_output(0, PartialShape(std::move(dims)));
    } else {
      c.set_output(0, PartialShape());
    }
    c.set_output(1, PartialShape({PartialShape::kUnknown}));
  };
  d.kernel = [](OpKernelContext& ctx) {
    const TensorList& l = tensor_list_of(ctx.input(0));
    const DType dt = attr_type(*ctx.attrs, "element_dtype");
    check_element_dtype(ctx, l, dt);
    PartialShape es = merge_or_fail(ctx, element_shape_of(ctx.input(1)), l.element_shape);
    // The element shape but its first dim, which may differ between elements.
    auto except_first = [](const PartialShape& s) {
      if (!s.has_rank() || s.rank() < 1) return PartialShape();
      return PartialShape(std::vector<int64_t>(s.dims().begin() + 1, s.dims().end()));
    };
    if (l.tensors.empty()) {
      PartialShape rest = except_first(es);
      if (!es.has_rank() || !rest.is_fully_defined()) {
        ctx.fail(
            "All except the first dimension must be fully defined when concating an empty "
            "tensor list. element_shape: " +
            shape_debug(es));
      }
      std::vector<int64_t> dims{0};
      dims.insert(dims.end(), rest.dims().begin(), rest.dims().end());
      ctx.allocate_output(0, dt, Shape(dims));
      ctx.allocate_output(1, DType::kInt64, Shape{0});
      return;
    }
    for (size_t i = 0; i < l.tensors.size(); ++i) {
      if (l.tensors[i].defined() && l.tensors[i].eager_shape().rank() == 0) {
        ctx.fail("Concat saw a scalar shape at index " + std::to_string(i) +
                 " but requires at least vectors.");
      }
    }
    // Elements that all have one shape give it to the unset ones.
    if (!es.is_fully_defined()) {
      const Tensor* first = nullptr;
      bool same = true;
      for (const Tensor& t : l.tensors) {
        if (!t.defined()) continue;
        if (!first) first = &t;
        same = same && t.eager_shape() == first->eager_shape();
      }
      if (first && same) {
        if (auto m = es.merge_with(PartialShape(first->eager_shape()))) es = *m;
      }
    }
    PartialShape rest = except_first(es);
    if (!rest.is_fully_defined()) {
      const Tensor* first = nullptr;
      for (const Tensor& t : l.tensors) {
        if (t.defined() && !first) first = &t;
      }
      if (!first) {
        ctx.fail(
            "Trying to concat list with only uninitialized tensors but "
            "element_shape_except_first_dim is not fully defined: " +
            shape_debug(rest));
      }
      rest = merge_or_fail(ctx, rest, except_first(PartialShape(first->eager_shape())));
    }
    const bool lead_known = es.has_rank() && es.dim(0) >= 0;
    std::vector<int64_t> leading = detail::tensor_ints(ctx.input(2));
    std::vector<Tensor> parts;
    int64_t rows = 0;
    Tensor& lengths =
        ctx.allocate_output(1, DType::kInt64, Shape{static_cast<int64_t>(l.tensors.size())});
    for (size_t i = 0; i < l.tensors.size(); ++i) {
      Tensor e;
      if (l.tensors[i].defined()) {
        e = l.tensors[i];
        merge_or_fail(ctx, rest, except_first(PartialShape(e.eager_shape())));
        if (lead_known && e.eager_shape().dim(0) != es.dim(0)) {
          ctx.fail(
              "First entry of element_shape input does not match the first dim of list element "
              "at index: " +
              std::to_string(i) + " Expected: " + std::to_string(es.dim(0)) +
              " Actual: " + std::to_string(e.eager_shape().dim(0)));
        }
      } else {
        int64_t lead = lead_known ? es.dim(0) : -1;
        if (!lead_known) {
          if (i >= leading.size()) {
            ctx.fail("List contains uninitialized tensor at index " + std::to_string(i) +
                     " but leading_dims has only " + std::to_string(leading.size()) + " elements.");
          }
          lead = leading[i];
        }
        std::vector<int64_t> zd{lead};
        zd.insert(zd.end(), rest.dims().begin(), rest.dims().end());
        e = Tensor::zeros(dt, Shape(zd));
      }
      lengths.data<int64_t>()[i] = e.eager_shape().dim(0);
      rows += e.eager_shape().dim(0);
      parts.push_back(std::move(e));
    }
    std::vector<int64_t> dims{rows};
    dims.insert(dims.end(), rest.dims().begin(), rest.dims().end());
    Tensor& out = ctx.allocate_output(0, dt, Shape(dims));
    int64_t at = 0;
    for (const Tensor& e : parts) {
      copy_into(out, at, e);
      at += e.num_elements();
    }
  };
  return d;
}());

}  // namespace

namespace detail {
void anchor_list_extra_ops() {}
}  // namespace detail
}  // namespace tfs

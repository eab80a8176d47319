// DatasetBase, the variant tensors that hold datasets, the eager Iterator, and the helpers the
// dataset kernels share.
#include <cstring>

#include "dataset_impl.h"
#include "tfscope/summary.h"
#include "tfscope/detail/eager_error.h"
#include "tfscope/ops.h"

namespace tfs::data {

DatasetBase::DatasetBase(std::vector<DType> dtypes, std::vector<PartialShape> shapes)
    : dtypes_(std::move(dtypes)), shapes_(std::move(shapes)) {}

std::vector<TensorSpec> DatasetBase::element_specs() const {
  std::vector<TensorSpec> specs;
  specs.reserve(dtypes_.size());
  for (size_t i = 0; i < dtypes_.size(); ++i) specs.emplace_back(shapes_[i], dtypes_[i]);
  return specs;
}

Tensor dataset_tensor(DatasetRef ds) {
  return Tensor::variant(std::move(ds));
}

DatasetRef dataset_of(const Tensor& t) {
  if (t.defined() && t.is_eager() && t.dtype() == DType::kVariant) {
    if (auto ds = std::dynamic_pointer_cast<const DatasetBase>(t.variant_value())) return ds;
  }
  invalid_argument("[data] expected a dataset variant tensor");
}

void detail::rethrow_as_iterator_get_next(const std::vector<DType>& dtypes, const Error& e) {
  switch (e.kind()) {
    case ErrorKind::kInvalidArgument:
    case ErrorKind::kOutOfRange:
    case ErrorKind::kDataLoss:
    case ErrorKind::kNotFound:
    case ErrorKind::kFailedPrecondition:
    case ErrorKind::kUnimplemented:
    case ErrorKind::kInternal: {
      AttrMap attrs{{"output_types", dtypes}};
      throw Error(e.kind(), tfs::detail::eager_op_error_text(
                                OpRegistry::global().get("IteratorGetNext"), attrs, e.what()));
    }
    default:
      throw e;
  }
}

namespace {

// Runs `f`, rethrowing a kernel error as TF's IteratorGetNext reports it.
template <class F>
auto as_iterator_get_next(const DatasetBase& ds, F f) {
  try {
    return f();
  } catch (const Error& e) {
    detail::rethrow_as_iterator_get_next(ds.output_dtypes(), e);
  }
}

}  // namespace

Iterator::Iterator(DatasetRef ds, IteratorContext ctx) : ds_(std::move(ds)) {
  detail::register_data_ops();
  impl_ = as_iterator_get_next(*ds_, [&] { return ds_->make_iterator(ctx); });
}

bool Iterator::next(Element& out) {
  out.clear();
  return as_iterator_get_next(*ds_, [&] { return impl_->get_next(out); });
}

std::optional<Element> Iterator::next() {
  Element e;
  if (!next(e)) return std::nullopt;
  return e;
}

namespace detail {

std::string dims_text(const Shape& s) {
  return dims_text(PartialShape(s));
}

std::string dims_text(const PartialShape& s) {
  if (!s.has_rank()) return "<unknown>";
  std::string out = "[";
  for (int i = 0; i < s.rank(); ++i) {
    if (i) out += ",";
    out += s.dim(i) < 0 ? "?" : std::to_string(s.dim(i));
  }
  return out + "]";
}

namespace {

Shape row_shape_of(const Tensor& t) {
  const auto& d = t.eager_shape().dims();
  return Shape(std::vector<int64_t>(d.begin() + 1, d.end()));
}

size_t row_bytes(const Tensor& t) {
  return static_cast<size_t>(row_shape_of(t).num_elements()) * dtype_size(t.dtype());
}

}  // namespace

Tensor slice_rows(const Tensor& t, int64_t begin, int64_t end) {
  std::vector<int64_t> dims = t.eager_shape().dims();
  dims[0] = end - begin;
  Shape shape(dims);
  if (t.dtype() == DType::kString) {
    const auto& all = t.string_values();
    const int64_t per_row = row_shape_of(t).num_elements();
    return Tensor::strings(
        std::vector<std::string>(all.begin() + begin * per_row, all.begin() + end * per_row),
        shape);
  }
  if (t.dtype() == DType::kVariant || t.dtype() == DType::kResource) {
    invalid_argument("[data] cannot slice a " + std::string(dtype_name(t.dtype())) + " tensor");
  }
  Tensor out = Tensor::empty(t.dtype(), shape);
  const size_t bytes = row_bytes(t);
  if (bytes * static_cast<size_t>(end - begin) > 0) {
    std::memcpy(out.raw_data(),
                static_cast<const char*>(t.raw_data()) + bytes * static_cast<size_t>(begin),
                bytes * static_cast<size_t>(end - begin));
  }
  return out;
}

Tensor slice_row(const Tensor& t, int64_t row) {
  Tensor r = slice_rows(t, row, row + 1);
  return r.dtype() == DType::kString
             ? Tensor::strings(std::move(r.mutable_string_values()), row_shape_of(t))
             : r.reshaped(row_shape_of(t));
}

Tensor stack_rows(const std::vector<const Tensor*>& rows, DType dtype, const Shape& row_shape) {
  std::vector<int64_t> dims{static_cast<int64_t>(rows.size())};
  dims.insert(dims.end(), row_shape.dims().begin(), row_shape.dims().end());
  Shape shape(dims);
  if (dtype == DType::kString) {
    std::vector<std::string> all;
    all.reserve(static_cast<size_t>(shape.num_elements()));
    for (const Tensor* r : rows) {
      const auto& v = r->string_values();
      all.insert(all.end(), v.begin(), v.end());
    }
    return Tensor::strings(std::move(all), shape);
  }
  if (dtype == DType::kVariant || dtype == DType::kResource) {
    invalid_argument("[data] cannot batch " + std::string(dtype_name(dtype)) + " tensors");
  }
  Tensor out = Tensor::empty(dtype, shape);
  const size_t bytes = static_cast<size_t>(row_shape.num_elements()) * dtype_size(dtype);
  char* dst = static_cast<char*>(out.raw_data());
  for (const Tensor* r : rows) {
    if (bytes) std::memcpy(dst, r->raw_data(), bytes);
    dst += bytes;
  }
  return out;
}

void copy_into_row_padded(Tensor& dst, int64_t row, const Tensor& src) {
  const Shape row_shape = row_shape_of(dst);
  const Shape& s = src.eager_shape();
  const int rank = s.rank();
  const int64_t n = s.num_elements();
  if (n == 0) return;
  // Row-major strides of the destination row and of the source.
  std::vector<int64_t> dst_stride(static_cast<size_t>(rank), 1),
      src_stride(static_cast<size_t>(rank), 1);
  for (int d = rank - 2; d >= 0; --d) {
    dst_stride[static_cast<size_t>(d)] =
        dst_stride[static_cast<size_t>(d + 1)] * row_shape.dim(d + 1);
    src_stride[static_cast<size_t>(d)] = src_stride[static_cast<size_t>(d + 1)] * s.dim(d + 1);
  }
  const int64_t row_base = row * row_shape.num_elements();
  // Copy runs of the innermost dimension.
  const int64_t run = rank == 0 ? 1 : s.dim(rank - 1);
  std::vector<int64_t> idx(static_cast<size_t>(rank), 0);
  for (int64_t start = 0; start < n; start += run) {
    int64_t off = row_base;
    for (int d = 0; d < rank; ++d)
      off += idx[static_cast<size_t>(d)] * dst_stride[static_cast<size_t>(d)];
    if (dst.dtype() == DType::kString) {
      auto& out = dst.mutable_string_values();
      const auto& in = src.string_values();
      for (int64_t k = 0; k < run; ++k)
        out[static_cast<size_t>(off + k)] = in[static_cast<size_t>(start + k)];
    } else {
      const size_t es = dtype_size(dst.dtype());
      std::memcpy(static_cast<char*>(dst.raw_data()) + static_cast<size_t>(off) * es,
                  static_cast<const char*>(src.raw_data()) + static_cast<size_t>(start) * es,
                  static_cast<size_t>(run) * es);
    }
    for (int d = rank - 2; d >= 0; --d) {
      if (++idx[static_cast<size_t>(d)] < s.dim(d)) break;
      idx[static_cast<size_t>(d)] = 0;
    }
  }
}

Tensor filled(const Shape& shape, const Tensor& value) {
  if (value.dtype() == DType::kString) {
    return Tensor::strings(std::vector<std::string>(static_cast<size_t>(shape.num_elements()),
                                                    value.string_values()[0]),
                           shape);
  }
  Tensor out = Tensor::empty(value.dtype(), shape);
  const size_t es = dtype_size(value.dtype());
  char* p = static_cast<char*>(out.raw_data());
  for (int64_t i = 0; i < shape.num_elements(); ++i) {
    std::memcpy(p + static_cast<size_t>(i) * es, value.raw_data(), es);
  }
  return out;
}

namespace {

const Tensor& scalar_input(const OpKernelContext& ctx, int input, const std::string& name) {
  const Tensor& t = ctx.input(input);
  if (t.eager_shape().rank() != 0) invalid_argument(name + " must be a scalar");
  return t;
}

}  // namespace

int64_t scalar_int64(const OpKernelContext& ctx, int input, const std::string& name) {
  const Tensor& t = scalar_input(ctx, input, name);
  if (t.dtype() != DType::kInt64) invalid_argument(name + " must be an int64 scalar");
  return t.data<int64_t>()[0];
}

bool scalar_bool(const OpKernelContext& ctx, int input, const std::string& name) {
  const Tensor& t = scalar_input(ctx, input, name);
  if (t.dtype() != DType::kBool) invalid_argument(name + " must be a bool scalar");
  return t.data<bool>()[0];
}

const std::string& scalar_string(const OpKernelContext& ctx, int input, const std::string& name) {
  const Tensor& t = scalar_input(ctx, input, name);
  if (t.dtype() != DType::kString) invalid_argument(name + " must be a string scalar");
  return t.string_values()[0];
}

DatasetRef input_dataset(const OpKernelContext& ctx, int input) {
  return dataset_of(ctx.input(input));
}

const std::vector<DType>& output_types(const OpKernelContext& ctx, const char* attr) {
  return attr_types(*ctx.attrs, attr);
}

const std::vector<PartialShape>& output_shapes(const OpKernelContext& ctx) {
  auto it = ctx.attrs->find("output_shapes");
  if (it == ctx.attrs->end() || !std::holds_alternative<std::vector<PartialShape>>(it->second)) {
    invalid_argument("[data] dataset op without output_shapes attr");
  }
  return std::get<std::vector<PartialShape>>(it->second);
}

void register_dataset_op(const std::string& name, std::vector<ArgDef> inputs,
                         std::function<DatasetRef(OpKernelContext&)> make) {
  OpDef d;
  d.name = name;
  d.inputs = std::move(inputs);
  d.outputs = {{"handle", "", DType::kVariant}};
  d.shape_fn = [](InferenceContext& c) { c.set_output(0, Shape{}); };
  d.kernel = [make = std::move(make)](OpKernelContext& ctx) {
    ctx.set_output(0, dataset_tensor(make(ctx)));
  };
  OpRegistry::global().add(std::move(d));
}

void register_data_ops() {
  static const bool done = [] {
    register_source_datasets();
    register_batch_datasets();
    register_shuffle_dataset();
    register_basic_datasets();
    register_window_dataset();
    register_function_datasets();
    register_file_datasets();
    register_iterator_ops();
    register_example_ops();
    register_summary_ops();
    return true;
  }();
  (void)done;
}

Tensor run_dataset_op(const std::string& op, std::vector<Tensor> inputs, AttrMap attrs) {
  register_data_ops();
  return execute1(op, std::move(inputs), std::move(attrs));
}

Tensor int64_arg(const Value& v) {
  if (v.is_tensor()) {
    const Tensor& t = v.as_tensor();
    if (t.dtype() == DType::kInt64) return t;
  }
  return convert_to_tensor(v, DType::kInt64);
}

AttrMap spec_attrs(const std::vector<TensorSpec>& specs, const char* types_attr) {
  std::vector<DType> types;
  std::vector<PartialShape> shapes;
  for (const auto& s : specs) {
    types.push_back(s.dtype);
    shapes.push_back(s.shape);
  }
  return AttrMap{{types_attr, types}, {"output_shapes", shapes}};
}

}  // namespace detail
}  // namespace tfs::data

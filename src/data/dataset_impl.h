// What the dataset kinds share, internal to src/data: the iterator base that keeps its dataset
// alive, row copies between element and batch tensors, and the argument parsing and op
// registration of dataset kernels (TF's ParseScalarArgument texts).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tfscope/data.h"
#include "tfscope/op_def.h"

namespace tfs::data::detail {

// An iterator of dataset D; holds D so that the dataset lives as long as its iterators.
// Iterators keep the context they were made with and pass it to the iterators of their inputs.
template <class D>
class DatasetIterator : public IteratorBase {
 public:
  DatasetIterator(std::shared_ptr<const D> ds, const IteratorContext& ctx)
      : ds_(std::move(ds)), ctx_(ctx) {}

 protected:
  const D& dataset() const { return *ds_; }
  const IteratorContext& context() const { return ctx_; }
  std::unique_ptr<IteratorBase> iterate(const DatasetBase& input) const {
    return input.make_iterator(ctx_);
  }

 private:
  std::shared_ptr<const D> ds_;
  IteratorContext ctx_;
};

// `self`'s iterator of type It (It's constructor takes (std::shared_ptr<const D>, ctx)).
template <class It, class D>
std::unique_ptr<IteratorBase> make_iterator_of(const D& self, const IteratorContext& ctx) {
  return std::make_unique<It>(std::static_pointer_cast<const D>(self.shared_from_this()), ctx);
}

// "[2,3]" and "[?,3]" as TF's kernel errors print shapes.
std::string dims_text(const Shape& s);
std::string dims_text(const PartialShape& s);

// Rows of tensors (the first dimension). Strings and variants are copied by value.
Tensor slice_row(const Tensor& t, int64_t row);                  // t[row]
Tensor slice_rows(const Tensor& t, int64_t begin, int64_t end);  // t[begin:end]
// Stacks equally shaped elements into a new [n, ...] tensor.
Tensor stack_rows(const std::vector<const Tensor*>& rows, DType dtype, const Shape& row_shape);
// Copies `src` into the leading corner of row `row` of `dst` (dst's row shape >= src's shape in
// every dimension); the rest of the row keeps what it held.
void copy_into_row_padded(Tensor& dst, int64_t row, const Tensor& src);
// A tensor of `shape` filled with the scalar `value`.
Tensor filled(const Shape& shape, const Tensor& value);

// Dataset kernels.
int64_t scalar_int64(const OpKernelContext& ctx, int input, const std::string& name);
bool scalar_bool(const OpKernelContext& ctx, int input, const std::string& name);
const std::string& scalar_string(const OpKernelContext& ctx, int input, const std::string& name);
DatasetRef input_dataset(const OpKernelContext& ctx, int input);
const std::vector<DType>& output_types(const OpKernelContext& ctx,
                                       const char* attr = "output_types");
const std::vector<PartialShape>& output_shapes(const OpKernelContext& ctx);

// Registers a dataset op: the given inputs, one variant output "handle", a kernel making the
// dataset. Attrs (output_types, output_shapes, ...) are read by the kernel.
void register_dataset_op(const std::string& name, std::vector<ArgDef> inputs,
                         std::function<DatasetRef(OpKernelContext&)> make);

// The front end's way to run a dataset op: eager inputs in, the dataset tensor out.
Tensor run_dataset_op(const std::string& op, std::vector<Tensor> inputs, AttrMap attrs);
// int64 scalars as TF's Python converts dataset arguments (convert_to_tensor(x, dtype=int64)).
Tensor int64_arg(const Value& v);
// The common attrs of a dataset op.
AttrMap spec_attrs(const std::vector<TensorSpec>& specs, const char* types_attr = "output_types");

// Rethrows a kernel error of an eager iterator as TF's eager IteratorGetNext reports it (other
// errors as they are).
[[noreturn]] void rethrow_as_iterator_get_next(const std::vector<DType>& dtypes, const Error& e);

// A dataset whose iterators come from `make` (the front end's element source).
DatasetRef make_source_dataset(std::function<std::unique_ptr<IteratorBase>()> make,
                               const std::vector<TensorSpec>& specs);

// The dataset ops of each file, registered once by register_data_ops().
void register_source_datasets();
void register_batch_datasets();
void register_shuffle_dataset();
void register_basic_datasets();
void register_window_dataset();
void register_function_datasets();
void register_file_datasets();
void register_iterator_ops();
void register_example_ops();
void register_data_ops();

}  // namespace tfs::data::detail

// The dataset front end (tfscope::data::Dataset): each method runs one dataset op and computes
// the element specs TF's Python gives the new dataset.
#include "dataset_impl.h"
#include "tfscope/graph.h"
#include "tfscope/ops.h"

namespace tfs::data {
namespace {

using detail::int64_arg;
using detail::run_dataset_op;
using detail::spec_attrs;

std::vector<TensorSpec> specs_of(const DatasetBase& ds) {
  return ds.element_specs();
}

Tensor bool_arg(bool b) {
  return Tensor::from_bools({b}, Shape{});
}

// A dim of the batch: batch_size when drop_remainder makes every batch full and its value is
// known (a Python int, an eager tensor; TF's constant_value), else unknown.
int64_t batch_dim(const Value& batch_size, const Tensor& bs, bool drop_remainder) {
  if (!drop_remainder) return PartialShape::kUnknown;
  if (bs.is_eager()) return bs.data<int64_t>()[0];
  if (batch_size.kind() == Value::Kind::kInt) return batch_size.as_int();
  return PartialShape::kUnknown;
}

// The row shape of a tensor sliced along its first dimension (eager or symbolic).
PartialShape row_shape(const Tensor& c) {
  const PartialShape& s = c.shape();
  if (!s.has_rank()) return PartialShape();
  if (s.rank() == 0) value_error("Unbatching a tensor is only supported for rank >= 1");
  return PartialShape(std::vector<int64_t>(s.dims().begin() + 1, s.dims().end()));
}

PartialShape prepend(int64_t dim, const PartialShape& s) {
  if (!s.has_rank()) return PartialShape();
  std::vector<int64_t> dims{dim};
  dims.insert(dims.end(), s.dims().begin(), s.dims().end());
  return PartialShape(std::move(dims));
}

// A padded_shapes component as TF's constant_value_as_shape reads it: an eager value, or a graph
// Const (a -1 dim: padded to the longest in the batch); unknown rank for any other graph tensor.
PartialShape padded_shape(const Tensor& ps) {
  if (ps.is_eager()) return PartialShape(ps.to_vector<int64_t>());
  const Node* n = ps.node();
  if (n->op() != "Const") return PartialShape();
  return PartialShape(std::get<Tensor>(n->attrs.at("value")).to_vector<int64_t>());
}

Tensor dummy_resource(const char* op) {
  detail::register_data_ops();
  return execute1(op, {});
}

}  // namespace

Dataset::Dataset(Tensor variant)
    : variant_(std::move(variant)), specs_(specs_of(*dataset_of(variant_))) {}

Dataset::Dataset(Tensor variant, const std::vector<TensorSpec>& specs)
    : variant_(std::move(variant)), specs_(specs) {}

Dataset Dataset::from_tensor_slices(const std::vector<Tensor>& components) {
  std::vector<TensorSpec> specs;
  for (const Tensor& c : components) specs.emplace_back(row_shape(c), c.dtype());
  AttrMap attrs = spec_attrs(specs, "Toutput_types");
  attrs["is_files"] = false;
  return Dataset(run_dataset_op("TensorSliceDataset", components, std::move(attrs)),
                 std::move(specs));
}

Dataset Dataset::from_tensors(const std::vector<Tensor>& components) {
  std::vector<TensorSpec> specs;
  for (const Tensor& c : components) specs.emplace_back(c.shape(), c.dtype());
  return Dataset(run_dataset_op("TensorDataset", components, spec_attrs(specs, "Toutput_types")),
                 std::move(specs));
}

Dataset Dataset::range(const Value& start, const Value& stop, const Value& step, DType dtype) {
  std::vector<TensorSpec> specs{TensorSpec(PartialShape(Shape{}), dtype)};
  return Dataset(
      run_dataset_op("RangeDataset", {int64_arg(start), int64_arg(stop), int64_arg(step)},
                     spec_attrs(specs)),
      std::move(specs));
}

Dataset Dataset::zip(const std::vector<Dataset>& datasets) {
  std::vector<Tensor> inputs;
  std::vector<TensorSpec> specs;
  for (const Dataset& d : datasets) {
    inputs.push_back(d.variant_);
    specs.insert(specs.end(), d.specs_.begin(), d.specs_.end());
  }
  AttrMap attrs = spec_attrs(specs);
  attrs["N"] = static_cast<int64_t>(inputs.size());
  return Dataset(run_dataset_op("ZipDataset", std::move(inputs), std::move(attrs)),
                 std::move(specs));
}

Dataset Dataset::from_source(std::function<std::unique_ptr<IteratorBase>()> make,
                             std::vector<TensorSpec> specs) {
  detail::register_data_ops();
  DatasetRef ds = detail::make_source_dataset(std::move(make), specs);
  return Dataset(dataset_tensor(std::move(ds)), std::move(specs));
}

namespace {

Dataset file_dataset(const char* op, const Tensor& filenames, const std::string& compression,
                     const Value& buffer_size, int64_t default_buffer, bool with_offsets) {
  if (filenames.dtype() != DType::kString) {
    type_error("The `filenames` argument must contain `tf.string` elements. Got `tf." +
               std::string(dtype_name(filenames.dtype())) + "` elements.");
  }
  Tensor files = filenames.eager_shape().rank() > 1
                     ? reshape(filenames, Tensor::from_vector<int64_t>({-1}))
                     : filenames;
  std::vector<Tensor> inputs{
      files, Tensor::string_scalar(compression),
      buffer_size.is_none() ? Tensor::scalar<int64_t>(default_buffer) : int64_arg(buffer_size)};
  if (with_offsets) inputs.push_back(Tensor::from_vector<int64_t>({}, Shape{0}));
  std::vector<TensorSpec> specs{TensorSpec(PartialShape(Shape{}), DType::kString)};
  return Dataset(run_dataset_op(op, std::move(inputs), {}), std::move(specs));
}

}  // namespace

Dataset Dataset::tfrecord(const Tensor& filenames, const std::string& compression_type,
                          const Value& buffer_size) {
  return file_dataset("TFRecordDatasetV2", filenames, compression_type, buffer_size, 256 * 1024,
                      true);
}

Dataset Dataset::text_line(const Tensor& filenames, const std::string& compression_type,
                           const Value& buffer_size) {
  return file_dataset("TextLineDataset", filenames, compression_type, buffer_size, 256 * 1024,
                      false);
}

Dataset Dataset::batch(const Value& batch_size, bool drop_remainder) const {
  Tensor bs = int64_arg(batch_size);
  std::vector<TensorSpec> specs;
  for (const TensorSpec& s : specs_) {
    specs.emplace_back(prepend(batch_dim(batch_size, bs, drop_remainder), s.shape), s.dtype);
  }
  AttrMap attrs = spec_attrs(specs);
  attrs["parallel_copy"] = false;
  return Dataset(
      run_dataset_op("BatchDatasetV2", {variant_, bs, bool_arg(drop_remainder)}, std::move(attrs)),
      std::move(specs));
}

Dataset Dataset::padded_batch(const Value& batch_size, const std::vector<Tensor>& padded_shapes,
                              const std::vector<Tensor>& padding_values,
                              bool drop_remainder) const {
  Tensor bs = int64_arg(batch_size);
  std::vector<TensorSpec> specs;
  std::vector<Tensor> inputs{variant_, bs};
  for (size_t i = 0; i < specs_.size(); ++i) {
    const Tensor& ps = padded_shapes.at(i);
    PartialShape padded = padded_shape(ps);
    specs.emplace_back(prepend(batch_dim(batch_size, bs, drop_remainder), padded), specs_[i].dtype);
    inputs.push_back(ps);
  }
  for (const Tensor& v : padding_values) inputs.push_back(v);
  inputs.push_back(bool_arg(drop_remainder));
  AttrMap attrs = spec_attrs(specs, "Toutput_types");
  attrs["N"] = static_cast<int64_t>(padded_shapes.size());
  attrs["parallel_copy"] = false;
  return Dataset(run_dataset_op("PaddedBatchDatasetV2", std::move(inputs), std::move(attrs)),
                 std::move(specs));
}

Dataset Dataset::unbatch() const {
  std::vector<TensorSpec> specs;
  for (const TensorSpec& s : specs_) {
    if (s.shape.has_rank() && s.shape.rank() == 0) {
      value_error("Cannot unbatch an input with scalar components.");
    }
    specs.emplace_back(s.shape.has_rank() ? PartialShape(std::vector<int64_t>(
                                                s.shape.dims().begin() + 1, s.shape.dims().end()))
                                          : PartialShape(),
                       s.dtype);
  }
  return Dataset(run_dataset_op("UnbatchDataset", {variant_}, spec_attrs(specs)), std::move(specs));
}

namespace {

// The seeds of a shuffle as tf.data's random_seed.get_seed makes them: eagerly two int64
// scalars; in a graph, when the shuffle is seeded, seed2 goes through TF's guard against the
// (0, 0) pair ("nondeterministic" to the kernel): SelectV2(seed == 0 && seed2 == 0, 2**31 - 1,
// seed2) under the scope "seed2", so the graph holds these ops as TF's does.
constexpr int64_t kMaxInt32 = 2147483647;  // random_seed._MAXINT32

std::pair<Tensor, Tensor> seed_tensors(int64_t seed, int64_t seed2) {
  Tensor s = Tensor::scalar<int64_t>(seed);
  Tensor s2 = Tensor::scalar<int64_t>(seed2);
  GraphBuilder* b = current_builder();
  if (!b || (seed == 0 && seed2 == 0)) return {s, s2};
  s = b->constant(s, "seed");
  b->push_scope("seed2");
  try {
    Tensor c2 = b->constant(s2, "Const");
    Tensor both_zero = logical_and(Value(equal(Value(s), Value(int64_t{0}))),
                                   Value(equal(Value(c2), Value(int64_t{0}))));
    s2 = where(both_zero, Value(b->constant(Tensor::scalar<int64_t>(kMaxInt32), "Const")),
               Value(c2));
  } catch (...) {
    b->pop_scope();
    throw;
  }
  b->pop_scope();
  return {s, s2};
}

}  // namespace

Dataset Dataset::shuffle(const Value& buffer_size, int64_t seed, int64_t seed2,
                         bool reshuffle_each_iteration) const {
  AttrMap attrs = spec_attrs(specs_);
  attrs["reshuffle_each_iteration"] = reshuffle_each_iteration;
  Tensor buffer = int64_arg(buffer_size);
  auto [s, s2] = seed_tensors(seed, seed2);
  return Dataset(run_dataset_op("ShuffleDatasetV3",
                                {variant_, buffer, s, s2, dummy_resource("DummySeedGenerator")},
                                std::move(attrs)),
                 specs_);
}

Dataset Dataset::shuffle(const Value& buffer_size, std::optional<int64_t> seed,
                         bool reshuffle_each_iteration) const {
  const auto [s, s2] = get_random_seed(seed);
  return shuffle(buffer_size, s, s2, reshuffle_each_iteration);
}

Dataset Dataset::repeat(const Value& count) const {
  return Dataset(run_dataset_op("RepeatDataset", {variant_, int64_arg(count)}, spec_attrs(specs_)),
                 specs_);
}

Dataset Dataset::take(const Value& count) const {
  return Dataset(run_dataset_op("TakeDataset", {variant_, int64_arg(count)}, spec_attrs(specs_)),
                 specs_);
}

Dataset Dataset::skip(const Value& count) const {
  return Dataset(run_dataset_op("SkipDataset", {variant_, int64_arg(count)}, spec_attrs(specs_)),
                 specs_);
}

Dataset Dataset::prefetch(const Value& buffer_size) const {
  return Dataset(
      run_dataset_op("PrefetchDataset", {variant_, int64_arg(buffer_size)}, spec_attrs(specs_)),
      specs_);
}

Dataset Dataset::cache(const std::string& filename) const {
  return Dataset(run_dataset_op("CacheDatasetV2",
                                {variant_, Tensor::string_scalar(filename),
                                 dummy_resource("DummyMemoryCache")},
                                spec_attrs(specs_)),
                 specs_);
}

Dataset Dataset::window(const Value& size, const Value& shift, const Value& stride,
                        bool drop_remainder) const {
  std::vector<TensorSpec> specs(specs_.size(), TensorSpec(PartialShape(Shape{}), DType::kVariant));
  return Dataset(run_dataset_op("WindowDataset",
                                {variant_, int64_arg(size), int64_arg(shift), int64_arg(stride),
                                 bool_arg(drop_remainder)},
                                spec_attrs(specs)),
                 std::move(specs));
}

Dataset Dataset::enumerate(const Value& start) const {
  // TF's enumerate: a range replicated on each split (RewriteDataset "replicate_on_split"),
  // zipped with this dataset.
  Dataset counter = range(start, Value(std::numeric_limits<int64_t>::max()), Value(int64_t{1}));
  Dataset replicated(run_dataset_op("RewriteDataset",
                                    {counter.variant_, Tensor::string_scalar("replicate_on_split")},
                                    spec_attrs(counter.specs_)),
                     counter.specs_);
  return zip({replicated, *this});
}

Dataset Dataset::with_options(const std::string& serialized_options) const {
  AttrMap attrs = spec_attrs(specs_);
  attrs["serialized_options"] = serialized_options;
  return Dataset(run_dataset_op("OptionsDataset", {variant_}, std::move(attrs)), specs_);
}

int64_t Dataset::cardinality() const {
  return dataset()->cardinality();
}

}  // namespace tfs::data

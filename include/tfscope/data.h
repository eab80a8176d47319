// tf.data: datasets and iterators.
//
// A dataset is an immutable value held by a scalar variant tensor, the output of a dataset op
// (TensorSliceDataset, BatchDatasetV2, ShuffleDatasetV3, ...), so that eager code and graphs hold
// datasets the same way. Iterating a dataset makes an iterator, which holds the position. An
// element is a flat list of tensors, one per component; the nest the components come from
// (tuples, dicts, named tuples) is the front end's, as TF keeps it in Python's element_spec.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tfscope/tensor.h"
#include "tfscope/value.h"

namespace tfs::data {

// TF's cardinality constants (tf.data.INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, AUTOTUNE).
inline constexpr int64_t kInfiniteCardinality = -1;
inline constexpr int64_t kUnknownCardinality = -2;
inline constexpr int64_t kAutotune = -1;

using Element = std::vector<Tensor>;

// A traced function as a dataset op takes it (TF's StructuredFunctionWrapper's result): its name
// in the function library (Context's, where every live trace registers itself), the captured
// tensors fed after the arguments, and the specs of its flat outputs.
struct DatasetFunction {
  std::string name;
  std::vector<Tensor> captured;
  std::vector<TensorSpec> output_specs;
};

// What tf.data.Options change in how a pipeline iterates: the static optimizations TF applies
// to the dataset graph when an iterator is made, where they are observable. noop_elimination
// drops repeat(1), take(-1), skip(0) and prefetch(0); shuffle_and_repeat_fusion makes a
// repeat of a shuffle one dataset, whose last epoch does not start one more shuffle iterator
// (each start draws new seeds). Both are on by default, as in TF.
struct IteratorContext {
  bool noop_elimination = true;
  bool shuffle_and_repeat_fusion = true;
};

class IteratorBase {
 public:
  virtual ~IteratorBase() = default;
  // The next element into `out`; false at the end of the sequence, and on every call after.
  virtual bool get_next(Element& out) = 0;
};

class DatasetBase : public ResourceBase, public std::enable_shared_from_this<DatasetBase> {
 public:
  DatasetBase(std::vector<DType> dtypes, std::vector<PartialShape> shapes);

  const std::vector<DType>& output_dtypes() const { return dtypes_; }
  const std::vector<PartialShape>& output_shapes() const { return shapes_; }
  std::vector<TensorSpec> element_specs() const;

  // The number of elements, kInfiniteCardinality or kUnknownCardinality, as TF computes it
  // without iterating.
  virtual int64_t cardinality() const = 0;
  virtual std::unique_ptr<IteratorBase> make_iterator(const IteratorContext& ctx) const = 0;
  // The input of a dataset that passes it through unchanged (repeat(1), take(-1), ...), which
  // noop_elimination removes; null for every other dataset.
  virtual const DatasetBase* noop_input() const { return nullptr; }
  virtual bool is_shuffle() const { return false; }
  // TF's dataset type ("TensorSlice", "Batch"): its DebugString is "<type>DatasetOp::Dataset".
  virtual std::string type() const = 0;
  std::string debug_name() const override { return type() + "DatasetOp::Dataset"; }

 private:
  std::vector<DType> dtypes_;
  std::vector<PartialShape> shapes_;
};
using DatasetRef = std::shared_ptr<const DatasetBase>;

// A scalar variant tensor holding `ds`, and back (InvalidArgument when `t` holds no dataset).
Tensor dataset_tensor(DatasetRef ds);
DatasetRef dataset_of(const Tensor& t);

// Iterates a dataset eagerly, as TF's OwnedIterator does. Errors come as TF's IteratorGetNext
// raises them ("{{function_node __wrapped__IteratorGetNext_output_types_1_device_...}} <text>
// [Op:IteratorGetNext] name: ").
class Iterator {
 public:
  explicit Iterator(DatasetRef ds, IteratorContext ctx = {});
  // The next element, false at the end.
  bool next(Element& out);
  std::optional<Element> next();
  const DatasetBase& dataset() const { return *ds_; }

 private:
  DatasetRef ds_;
  std::unique_ptr<IteratorBase> impl_;
};

// The dataset front end: each method adds one dataset op (run now when eager), with the
// element specs TF's Python computes for it. Scalar arguments are Values: Python ints or int
// tensors, converted to int64 as TF converts them.
class Dataset {
 public:
  explicit Dataset(Tensor variant);  // an eager dataset tensor
  // specs by reference: callers build the tensor from the same specs in the same call.
  Dataset(Tensor variant, const std::vector<TensorSpec>& specs);

  static Dataset from_tensor_slices(const std::vector<Tensor>& components);
  static Dataset from_tensors(const std::vector<Tensor>& components);
  // tf.data.Dataset.range(start, stop, step): int64 values cast to `dtype`.
  static Dataset range(const Value& start, const Value& stop, const Value& step,
                       DType dtype = DType::kInt64);
  static Dataset zip(const std::vector<Dataset>& datasets);
  // Each iterator of the dataset calls `make` for a fresh element source (Python's generator).
  static Dataset from_source(std::function<std::unique_ptr<IteratorBase>()> make,
                             std::vector<TensorSpec> specs);
  // Records of TFRecord files / lines of text files; compression "", "ZLIB" or "GZIP";
  // buffer_size None for TF's default.
  static Dataset tfrecord(const Tensor& filenames, const std::string& compression_type = "",
                          const Value& buffer_size = Value());
  static Dataset text_line(const Tensor& filenames, const std::string& compression_type = "",
                           const Value& buffer_size = Value());

  Dataset batch(const Value& batch_size, bool drop_remainder = false) const;
  // Pads each component to `padded_shapes` (a -1 dim: the longest in the batch) with the
  // scalar `padding_values`.
  Dataset padded_batch(const Value& batch_size, const std::vector<Tensor>& padded_shapes,
                       const std::vector<Tensor>& padding_values, bool drop_remainder) const;
  Dataset unbatch() const;
  // seed / seed2 as TF's random_seed.get_seed gives them; (0, 0) seeds nondeterministically.
  Dataset shuffle(const Value& buffer_size, int64_t seed, int64_t seed2,
                  bool reshuffle_each_iteration = true) const;
  // tf.data's shuffle(buffer_size, seed): the op seed resolved against the global seed.
  Dataset shuffle(const Value& buffer_size, std::optional<int64_t> seed = std::nullopt,
                  bool reshuffle_each_iteration = true) const;
  Dataset repeat(const Value& count = int64_t{-1}) const;
  Dataset take(const Value& count) const;
  Dataset skip(const Value& count) const;
  Dataset prefetch(const Value& buffer_size) const;
  Dataset cache(const std::string& filename = "") const;  // "" keeps the elements in memory
  // Windows of `size` elements `shift` apart, every `stride`-th element: a dataset of datasets.
  Dataset window(const Value& size, const Value& shift, const Value& stride,
                 bool drop_remainder) const;
  // (index, element): zip(range(start, int64 max), this).
  Dataset enumerate(const Value& start = int64_t{0}) const;
  Dataset with_options(const std::string& serialized_options) const;

  // Transforms with a traced function (function_api.cc). map's num_parallel_calls None makes a
  // MapDataset, else a ParallelMapDatasetV2 (deterministic "true", "false" or "default").
  Dataset map(const DatasetFunction& f, const std::optional<Value>& num_parallel_calls = {},
              const std::string& deterministic = "default") const;
  Dataset filter(const DatasetFunction& predicate) const;
  Dataset take_while(const DatasetFunction& predicate) const;
  // f returns a dataset with elements `element_specs`.
  Dataset flat_map(const DatasetFunction& f, std::vector<TensorSpec> element_specs) const;
  Dataset interleave(const DatasetFunction& f, std::vector<TensorSpec> element_specs,
                     const Value& cycle_length, const Value& block_length) const;
  // interleave(num_parallel_calls=...): ParallelInterleaveDatasetV4 (deterministic "true",
  // "false" or "default"), in the same element order.
  Dataset parallel_interleave(const DatasetFunction& f, std::vector<TensorSpec> element_specs,
                              const Value& cycle_length, const Value& block_length,
                              const Value& num_parallel_calls,
                              const std::string& deterministic) const;
  // f(state..., element...) -> (new state..., output...). use_default_device is false in
  // AutoGraph's dataset loop.
  Dataset scan(const std::vector<Tensor>& initial_state, const DatasetFunction& f,
               bool use_default_device = true) const;
  // f(state..., element...) -> new state, folded over the dataset: the final state.
  std::vector<Tensor> reduce(const std::vector<Tensor>& initial_state,
                             const DatasetFunction& f) const;

  int64_t cardinality() const;
  const std::vector<TensorSpec>& element_specs() const { return specs_; }
  const Tensor& variant_tensor() const { return variant_; }
  DatasetRef dataset() const { return dataset_of(variant_); }
  Iterator make_iterator(IteratorContext ctx = {}) const { return Iterator(dataset(), ctx); }
  // An iterator resource over this dataset (iterator_ops.cc: AnonymousIteratorV3 +
  // MakeIterator, run now when eager), and its next element (IteratorGetNext). An eager
  // resource is TF's OwnedIterator: eager_iterator_next reads it directly (nullopt at the end,
  // errors as IteratorGetNext's), and a graph that captures it or takes it as an argument
  // reads the same iterator.
  Tensor make_graph_iterator() const;
  static std::vector<Tensor> iterator_get_next(const Tensor& iterator,
                                               const std::vector<TensorSpec>& specs);
  static std::optional<Element> eager_iterator_next(const Tensor& iterator);
  // get_next_as_optional: an Optional variant (IteratorGetNextAsOptional), whether it holds an
  // element (OptionalHasValue) and the element (OptionalGetValue).
  static Tensor iterator_get_next_as_optional(const Tensor& iterator,
                                              const std::vector<TensorSpec>& specs);
  static Tensor optional_has_value(const Tensor& optional);
  static std::vector<Tensor> optional_get_value(const Tensor& optional,
                                                const std::vector<TensorSpec>& specs);

 private:
  Tensor variant_;
  std::vector<TensorSpec> specs_;
};

}  // namespace tfs::data

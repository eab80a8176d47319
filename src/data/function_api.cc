// The front end of the datasets with a traced function (map, filter, flat_map, interleave,
// scan, reduce): each adds one dataset op with the function as an attr and its captured tensors
// as `other_arguments`, with the element specs TF's Python gives the result.
#include "dataset_impl.h"
#include "tfscope/ops.h"

namespace tfs::data {
namespace {

using detail::int64_arg;
using detail::run_dataset_op;
using detail::spec_attrs;

std::vector<DType> dtypes_of(const std::vector<Tensor>& ts) {
  std::vector<DType> out;
  for (const Tensor& t : ts) out.push_back(t.dtype());
  return out;
}

// The attrs every function dataset op has: the function, its captured types, the output specs.
AttrMap function_attrs(const char* attr, const DatasetFunction& f,
                       const std::vector<TensorSpec>& specs) {
  AttrMap attrs = spec_attrs(specs);
  attrs[attr] = FuncAttr{f.name};
  attrs["Targuments"] = dtypes_of(f.captured);
  return attrs;
}

std::vector<Tensor> with_captured(std::vector<Tensor> inputs, const DatasetFunction& f) {
  inputs.insert(inputs.end(), f.captured.begin(), f.captured.end());
  return inputs;
}

}  // namespace

Dataset Dataset::map(const DatasetFunction& f, const std::optional<Value>& num_parallel_calls,
                     const std::string& deterministic) const {
  AttrMap attrs = function_attrs("f", f, f.output_specs);
  attrs["use_inter_op_parallelism"] = true;
  attrs["preserve_cardinality"] = true;
  if (!num_parallel_calls) {
    return Dataset(run_dataset_op("MapDataset", with_captured({variant_}, f), std::move(attrs)),
                   f.output_specs);
  }
  attrs["deterministic"] = deterministic;
  std::vector<Tensor> inputs = with_captured({variant_}, f);
  inputs.push_back(int64_arg(*num_parallel_calls));
  return Dataset(run_dataset_op("ParallelMapDatasetV2", std::move(inputs), std::move(attrs)),
                 f.output_specs);
}

Dataset Dataset::filter(const DatasetFunction& predicate) const {
  return Dataset(run_dataset_op("FilterDataset", with_captured({variant_}, predicate),
                                function_attrs("predicate", predicate, specs_)),
                 specs_);
}

Dataset Dataset::take_while(const DatasetFunction& predicate) const {
  return Dataset(run_dataset_op("TakeWhileDataset", with_captured({variant_}, predicate),
                                function_attrs("predicate", predicate, specs_)),
                 specs_);
}

Dataset Dataset::flat_map(const DatasetFunction& f, std::vector<TensorSpec> element_specs) const {
  AttrMap attrs = function_attrs("f", f, element_specs);
  return Dataset(run_dataset_op("FlatMapDataset", with_captured({variant_}, f), std::move(attrs)),
                 std::move(element_specs));
}

Dataset Dataset::interleave(const DatasetFunction& f, std::vector<TensorSpec> element_specs,
                            const Value& cycle_length, const Value& block_length) const {
  std::vector<Tensor> inputs = with_captured({variant_}, f);
  inputs.push_back(int64_arg(cycle_length));
  inputs.push_back(int64_arg(block_length));
  AttrMap attrs = function_attrs("f", f, element_specs);
  return Dataset(run_dataset_op("InterleaveDataset", std::move(inputs), std::move(attrs)),
                 std::move(element_specs));
}

Dataset Dataset::parallel_interleave(const DatasetFunction& f,
                                     std::vector<TensorSpec> element_specs,
                                     const Value& cycle_length, const Value& block_length,
                                     const Value& num_parallel_calls,
                                     const std::string& deterministic) const {
  std::vector<Tensor> inputs = with_captured({variant_}, f);
  inputs.push_back(int64_arg(cycle_length));
  inputs.push_back(int64_arg(block_length));
  inputs.push_back(int64_arg(Value(kAutotune)));  // buffer_output_elements, as TF's Python
  inputs.push_back(int64_arg(Value(kAutotune)));  // prefetch_input_elements
  inputs.push_back(int64_arg(num_parallel_calls));
  AttrMap attrs = function_attrs("f", f, element_specs);
  attrs["deterministic"] = deterministic;
  return Dataset(run_dataset_op("ParallelInterleaveDatasetV4", std::move(inputs), std::move(attrs)),
                 std::move(element_specs));
}

namespace {

std::vector<Tensor> state_inputs(const Tensor& variant, const std::vector<Tensor>& state,
                                 const DatasetFunction& f) {
  std::vector<Tensor> inputs{variant};
  inputs.insert(inputs.end(), state.begin(), state.end());
  return with_captured(std::move(inputs), f);
}

}  // namespace

Dataset Dataset::scan(const std::vector<Tensor>& initial_state, const DatasetFunction& f,
                      bool use_default_device) const {
  std::vector<TensorSpec> specs(f.output_specs.begin() + static_cast<long>(initial_state.size()),
                                f.output_specs.end());
  AttrMap attrs = function_attrs("f", f, specs);
  attrs["Tstate"] = dtypes_of(initial_state);
  attrs["preserve_cardinality"] = true;
  attrs["use_default_device"] = use_default_device;
  return Dataset(
      run_dataset_op("ScanDataset", state_inputs(variant_, initial_state, f), std::move(attrs)),
      std::move(specs));
}

std::vector<Tensor> Dataset::reduce(const std::vector<Tensor>& initial_state,
                                    const DatasetFunction& f) const {
  AttrMap attrs = function_attrs("f", f, f.output_specs);
  attrs["Tstate"] = dtypes_of(initial_state);
  attrs["use_inter_op_parallelism"] = true;
  detail::register_data_ops();
  return execute("ReduceDataset", state_inputs(variant_, initial_state, f), std::move(attrs));
}

}  // namespace tfs::data

// ConcreteFunction: one trace of a Function, for one input signature (TF's ConcreteFunction).
// Calling it is a call op: eagerly a StatefulPartitionedCall/PartitionedCall that the op
// dispatch runs through this function's compiled plan; while a graph is being built, a call node
// in that graph with this function in its library and its captures as the caller's, as TF's
// functional_ops.partitioned_call builds it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tfscope/function_type.h"
#include "tfscope/graph.h"
#include "tfscope/graph_builder.h"
#include "tfscope/graph_report.h"
#include "tfscope/value.h"

namespace tfs {

namespace detail {
class Tracer;
}

class ConcreteFunction {
 public:
  ~ConcreteFunction();
  ConcreteFunction(const ConcreteFunction&) = delete;
  ConcreteFunction& operator=(const ConcreteFunction&) = delete;

  const std::string& name() const { return name_; }              // __inference_scaled_12
  const std::string& function_name() const { return fn_name_; }  // scaled
  const GraphFunction& graph_function() const { return *graph_fn_; }
  const std::shared_ptr<Graph>& graph() const { return graph_fn_->graph; }
  const FunctionType& function_type() const { return type_; }
  // External tensors fed on every call (eager tensors, variable handles), in capture order.
  std::vector<Tensor> captured_inputs() const;
  const std::vector<Capture>& captures() const { return captures_; }
  // Placeholders for tensor arguments (flattened), then captures: TF's cf.inputs.
  std::vector<Tensor> inputs() const;
  std::vector<Tensor> outputs() const;
  // ((TensorSpec(shape=(2,), dtype=tf.int32, name='x'), 2), {})
  Value structured_input_signature() const { return structured_input_signature_; }
  std::string structured_input_signature_repr() const;
  Value structured_outputs() const { return structured_outputs_; }
  // TF's verbose ("Input Parameters: ...") or short form.
  std::string pretty_printed_signature(bool verbose = true) const;
  std::string output_type_repr() const;
  // Whether it was traced inside tf.saved_model.save (TF keys those traces apart).
  bool for_saving() const { return for_saving_; }
  // Whether a call is a StatefulPartitionedCall (the body holds a stateful op).
  bool is_stateful() const { return graph_fn_->is_stateful; }

  // Calls with the structured signature (bind + cast, literal parameters must match the traced
  // value), falling back to the flat signature (tensors only), with TF's errors. Never retraces.
  Value operator()(const std::vector<Value>& args, const Kwargs& kwargs = {}) const;
  // Calls with flat tensors (the non-literal leaves, dicts in sorted key order).
  Value call_flat(const std::vector<Tensor>& flat_args) const;
  Value call_flat(std::vector<Tensor>&& flat_args) const;
  // How many captured tensors a call feeds after the arguments.
  size_t fed_captures() const { return fed_captures_.size(); }
  std::vector<Tensor> run_flat(const std::vector<Tensor>& flat_args) const;

  GraphReport report() const;

 private:
  friend class detail::Tracer;
  ConcreteFunction() = default;

  std::vector<Tensor> call_eager(std::vector<Tensor> inputs) const;
  std::vector<Tensor> call_in_graph(const std::vector<Tensor>& flat_args) const;

  std::string name_;
  std::string fn_name_;
  std::shared_ptr<GraphFunction> graph_fn_;
  FunctionType type_;
  std::vector<Parameter> params_;  // the Python-level signature, for binding
  std::vector<Capture> captures_;
  std::vector<Node*> input_placeholders_;  // flat argument placeholders, call order
  Value structured_input_signature_;
  Value structured_outputs_;  // symbolic outputs in their nest
  Value output_template_;     // the nest with symbolic leaves, rebuilt on each call
  bool has_input_signature_ = false;
  bool for_saving_ = false;
  bool symbolic_captures_ = false;  // a capture is another graph's tensor (out of scope eagerly)
  // The external tensors of the captures a call feeds after its arguments (every capture but
  // the constants), in capture order.
  std::vector<Tensor> fed_captures_;
  // The call op: its definition, attrs (f, Tin, Tout, ... as TF writes them) and the runtime
  // that resolves `f` to this function's plan.
  const OpDef* call_def_ = nullptr;
  AttrMap call_attrs_;
  std::unique_ptr<FunctionRuntime> runtime_;
};

}  // namespace tfs

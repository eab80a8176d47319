// tf.function for C++ callables: a polymorphic Function that binds arguments, keys a trace cache
// on TraceTypes, traces on a miss (the callable runs with placeholders; host code runs now, once
// per trace), and runs the cached ConcreteFunction's graph on a hit, by TF 2.21's rules. Every
// decision goes into a call ledger that says why each call traced.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tfscope/executor.h"
#include "tfscope/graph_builder.h"
#include "tfscope/ops.h"
#include "tfscope/graph.h"
#include "tfscope/graph_report.h"
#include "tfscope/trace_type.h"
#include "tfscope/value.h"

namespace tfs {

enum class ParamKind { kPositionalOnly, kPositionalOrKeyword, kVarPositional, kKeywordOnly, kVarKeyword };
const char* param_kind_name(ParamKind k);  // "POSITIONAL_OR_KEYWORD", ...

struct Parameter {
  std::string name;
  ParamKind kind = ParamKind::kPositionalOrKeyword;
  std::optional<Value> default_value;
};

using Kwargs = std::vector<std::pair<std::string, Value>>;
// The traced body: receives bound arguments (positional, then keyword-only by name) with tensors
// replaced by placeholders, returns a nest of tensors / host numbers / None.
using Body = std::function<Value(const std::vector<Value>& args, const Kwargs& kwargs)>;

struct FunctionOptions {
  std::optional<std::vector<Value>> input_signature;  // TensorSpecs, possibly nested in lists
  bool reduce_retracing = false;
  bool autograph = true;
  std::optional<bool> jit_compile;
  // Functions made from the same code share a frequent-retracing detector (TF keys it on
  // __code__). Empty: the function's name.
  std::string detector_key;
  // How the wrapped callable prints in the warning: "<function scaled at 0x...>".
  std::string display_name;
  // tfscope extras.
  size_t max_cache_entries = 0;  // 0 = unbounded (TF's behaviour); else LRU eviction
  bool optimize_graph = false;   // run DCE/folding/CSE on each trace
};

// One traced parameter of a concrete function's type.
struct TypedParameter {
  std::string name;
  ParamKind kind;
  TraceType type;
  bool shows_default = false;  // printed "= <captured_default_value>" (input_signature errors)
};

struct FunctionType {
  std::vector<TypedParameter> params;
  bool operator==(const FunctionType& o) const;
  size_t hash() const;
  // Contravariant: can a function of type `*this` serve a request of type `req`?
  bool is_supertype_of(const FunctionType& req) const;
  std::optional<FunctionType> most_specific_common_subtype(const FunctionType& o) const;
  std::string signature_text() const;  // "(x: TensorSpec(...), factor: Literal[2])"
};

class ConcreteFunction {
 public:
  const std::string& name() const { return name_; }                 // __inference_scaled_12
  const std::string& function_name() const { return fn_name_; }      // scaled
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

  // Calls with the structured signature (bind + cast, literal parameters must match the traced
  // value), falling back to the flat signature (tensors only), with TF's errors. Never retraces.
  Value operator()(const std::vector<Value>& args, const Kwargs& kwargs = {}) const;
  // Calls with flat tensors (the non-literal leaves, dicts in sorted key order).
  Value call_flat(const std::vector<Tensor>& flat_args) const;
  std::vector<Tensor> run_flat(const std::vector<Tensor>& flat_args) const;

  GraphReport report() const;

 private:
  friend class Function;
  std::string name_;
  std::string fn_name_;
  std::shared_ptr<GraphFunction> graph_fn_;
  FunctionType type_;
  std::vector<Parameter> params_;  // the Python-level signature, for binding
  std::vector<Capture> captures_;
  std::vector<Node*> input_placeholders_;  // flat argument placeholders, call order
  Value structured_input_signature_;
  Value structured_outputs_;       // symbolic outputs in their nest
  Value output_template_;          // the nest with symbolic leaves, rebuilt on each call
  std::shared_ptr<Executor> executor_;
  bool has_input_signature_ = false;
};

// One line of the ledger.
struct LedgerEntry {
  int call = 0;              // 1-based call index
  bool traced = false;
  bool concrete_only = false;  // get_concrete_function, not a call
  std::string concrete_function;
  std::string args;          // "x=int32 (2,), factor=2"
  std::string reason;        // "first call", "x: shape (2,) -> (4,)", ...
  double trace_us = 0;
  double run_us = 0;
  std::vector<std::string> evicted;
  // Consecutive cache hits of one request type on one concrete function share an entry: `count`
  // calls starting at `call`, run_us their total. Keeps the hit path free of string formatting
  // and the ledger's size proportional to what happened, not to the number of calls.
  int count = 1;
  size_t request_hash = 0;
  bool failed = false;
  std::string error;
};

class CallLedger {
 public:
  std::vector<LedgerEntry> entries;
  int calls() const;
  int traces() const;
  std::string text() const;
  std::string json() const;
};

class Function {
 public:
  Function(std::string name, std::vector<Parameter> params, Body body,
           FunctionOptions options = {});
  Function(const Function&) = delete;
  Function& operator=(const Function&) = delete;

  Value call(const std::vector<Value>& args, const Kwargs& kwargs = {});
  Value operator()(const std::vector<Value>& args, const Kwargs& kwargs = {}) {
    return call(args, kwargs);
  }
  std::shared_ptr<ConcreteFunction> get_concrete_function(const std::vector<Value>& args = {},
                                                          const Kwargs& kwargs = {});

  int experimental_get_tracing_count() const;
  std::vector<std::shared_ptr<ConcreteFunction>> concrete_functions() const;
  std::string pretty_printed_concrete_signatures(bool verbose = true) const;

  const std::string& name() const { return name_; }
  const std::vector<Parameter>& parameters() const { return params_; }
  const FunctionOptions& options() const { return options_; }
  const Body& body() const { return body_; }
  CallLedger ledger() const;
  // Fail-on-retrace: every trace from now on raises, naming its reason.
  void set_fail_on_retrace(bool on);

 private:
  struct Bound;
  struct Entry {
    FunctionType type;
    int scope;
    std::shared_ptr<ConcreteFunction> cf;
    uint64_t last_used = 0;
  };

  Bound bind(const std::vector<Value>& args, const Kwargs& kwargs) const;
  FunctionType request_type(const Bound& b) const;
  std::shared_ptr<ConcreteFunction> lookup(const FunctionType& t, int scope);
  std::shared_ptr<ConcreteFunction> trace(const FunctionType& target, const Bound& b, int scope,
                                          const std::string& reason, LedgerEntry& entry);
  std::shared_ptr<ConcreteFunction> maybe_define(const Bound& b, int scope, LedgerEntry& entry,
                                                 bool* traced, size_t* request_hash = nullptr);
  std::string explain(const FunctionType& req, int scope) const;
  bool continues_last_hit(const LedgerEntry& e, const ConcreteFunction& cf) const;
  void* detector_ = nullptr;  // this Function's frequent-retracing detector, found on first use
  std::vector<Tensor> flatten_call_args(const Bound& b, const ConcreteFunction& cf) const;
  Value run(const ConcreteFunction& cf, const Bound& b, LedgerEntry& entry) const;
  void record_detector(bool traced);

  std::string name_;
  std::vector<Parameter> params_;
  Body body_;
  FunctionOptions options_;
  std::vector<TypedParameter> signature_params_;  // from input_signature

  mutable std::recursive_mutex mu_;
  std::vector<Entry> cache_;
  std::unordered_multimap<size_t, size_t> exact_;  // hash -> index into cache_
  uint64_t clock_ = 0;
  bool initialized_ = false;
  bool created_variables_ = false;
  bool fail_on_retrace_ = false;
  int num_calls_ = 0;
  std::vector<LedgerEntry> ledger_;
};

// Makes a Function from a C++ callable with named parameters:
//   auto f = tfs::function("scaled", {"x", "factor"}, [](Tensor x, int64_t factor) {...});
// Arguments convert from Value to the callable's parameter types (Tensor, Value, int64_t,
// double, bool, std::string); the result converts to a Value.
template <typename F>
std::shared_ptr<Function> function(std::string name, std::vector<std::string> param_names, F f,
                                   FunctionOptions options = {});

// stabilize: the same callable as a Function with an explicit input signature.
std::shared_ptr<Function> stabilize(const Function& fn, std::vector<Value> input_signature);

// RetraceProbe: counts the real traces of a Function from the moment it attaches.
class RetraceProbe {
 public:
  explicit RetraceProbe(std::shared_ptr<Function> fn);
  int traces() const;
  int calls() const;
  std::vector<LedgerEntry> entries() const;
  std::string report() const;

 private:
  std::shared_ptr<Function> fn_;
  size_t start_ = 0;
  int start_calls_ = 0;
  int start_traces_ = 0;
};

// Where the frequent-retracing warning goes (default: stderr as "WARNING:tensorflow:...").
void set_warning_sink(std::function<void(const std::string&)> sink);

// Whether a trace is running on this thread (host code inside a body can ask).
bool inside_trace();

// Evaluates a symbolic tensor that depends on no placeholder (a variable initializer lifted out
// of a trace, as TF's init_scope does). Throws if it depends on a function argument.
Tensor evaluate_lifted(const Tensor& t);

}  // namespace tfs

#include "tfscope/detail/function_adapter.h"

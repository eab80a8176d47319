// tf.function for C++ callables: a polymorphic Function that binds arguments, keys a trace cache
// on TraceTypes, traces on a miss (the callable runs with placeholders; host code runs now, once
// per trace), and runs the cached ConcreteFunction's graph on a hit, by TF 2.21's rules. Every
// decision goes into a call ledger that says why each call traced.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tfscope/concrete_function.h"
#include "tfscope/context.h"
#include "tfscope/function_type.h"
#include "tfscope/ledger.h"
#include "tfscope/ops.h"
#include "tfscope/trace_cache.h"
#include "tfscope/trace_type.h"
#include "tfscope/value.h"

namespace tfs {

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

namespace detail {
struct ArgLayout;
struct BoundArguments;
class LedgerLog;
class RetraceDetector;
}  // namespace detail

class Function {
 public:
  Function(std::string name, std::vector<Parameter> params, Body body,
           FunctionOptions options = {});
  ~Function();
  Function(const Function&) = delete;
  Function& operator=(const Function&) = delete;

  // Eagerly: binds, looks up or traces, and runs the trace as a call op. While another
  // function is being traced: traces (or reuses) this function's trace for the arguments and
  // adds a call node to the graph being built, as TF does.
  Value call(const std::vector<Value>& args, const Kwargs& kwargs = {});
  Value operator()(const std::vector<Value>& args, const Kwargs& kwargs = {}) {
    return call(args, kwargs);
  }
  std::shared_ptr<ConcreteFunction> get_concrete_function(const std::vector<Value>& args = {},
                                                          const Kwargs& kwargs = {});

  // tf.saved_model.save: TF traces every function of the saved objects again inside its save
  // context (its FunctionContext carries the save options), once for each trace made outside
  // it; a second save finds those traces. Returns how many traces it made. Traces that take a
  // variable argument are left out (they need the variable itself).
  int trace_for_saving();

  int experimental_get_tracing_count() const;
  // tfscope: how many cached traces the last lookup without an exact match compared against.
  size_t last_miss_candidates() const;
  std::vector<std::shared_ptr<ConcreteFunction>> concrete_functions() const;
  // Every trace's signature; a function with an input_signature is traced for it first, as TF
  // lists one that nothing has called yet.
  std::string pretty_printed_concrete_signatures(bool verbose = true);

  const std::string& name() const { return name_; }
  const std::vector<Parameter>& parameters() const { return params_; }
  const FunctionOptions& options() const { return options_; }
  const Body& body() const { return body_; }
  CallLedger ledger() const;
  // Fail-on-retrace: every trace from now on raises, naming its reason.
  void set_fail_on_retrace(bool on);

 private:
  struct Lookup;

  detail::BoundArguments bind(const std::vector<Value>& args, const Kwargs& kwargs) const;
  FunctionType request_type(const detail::BoundArguments& b) const;
  // request_type(b).hash(), and whether a cached type equals request_type(b), without building
  // the type (the hit path).
  size_t request_hash(const detail::BoundArguments& b) const;
  bool is_request_type(const FunctionType& t, const detail::BoundArguments& b) const;
  int scope_now() const;  // the cache scope of a call made now (variable creation, saving)
  // Finds or traces the trace for `b` (the slow path: one trace at a time).
  std::shared_ptr<ConcreteFunction> define(const detail::BoundArguments& b, const FunctionType& req,
                                           Lookup& out);
  std::shared_ptr<ConcreteFunction> maybe_define(const detail::BoundArguments& b,
                                                 const FunctionType& req, int scope,
                                                 LedgerEntry& entry, bool* traced);
  std::shared_ptr<ConcreteFunction> trace(const FunctionType& target,
                                          const detail::BoundArguments& b, int scope,
                                          const std::string& reason, LedgerEntry& entry);
  std::string explain(const FunctionType& req, int scope) const;
  Value run_eagerly(const std::vector<Value>& args, const Kwargs& kwargs);
  detail::RetraceDetector& detector();

  std::string name_;
  std::vector<Parameter> params_;
  Body body_;
  FunctionOptions options_;
  std::vector<TypedParameter> signature_params_;  // from input_signature
  size_t signature_hash_ = 0;                     // FunctionType{signature_params_}.hash()
  std::shared_ptr<const detail::ArgLayout> plain_layout_;  // for calls that bind one to one

  // mu_ guards the cache, the ledger and the call counter; it is held only for lookups and
  // bookkeeping, never while user code or a graph runs, so a cache hit takes this one lock.
  // trace_mu_ lets one trace run at a time (TF's function lock); it is re-entrant, as a body may
  // call its own function.
  mutable std::mutex mu_;
  std::recursive_mutex trace_mu_;
  TraceCache cache_;
  std::unique_ptr<detail::LedgerLog> ledger_;
  std::atomic<detail::RetraceDetector*> detector_{nullptr};
  bool initialized_ = false;
  bool created_variables_ = false;
  std::atomic<bool> fail_on_retrace_{false};
  int num_calls_ = 0;
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

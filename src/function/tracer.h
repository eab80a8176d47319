// The tracer: runs a Function's body once with placeholders built from a FunctionType (host code
// runs now: print() and list.append() happen here), records outputs and captures, and makes the
// ConcreteFunction: its graph function, call op and structured signatures (the compiled plan is
// built at its first run, PlanOnFirstRun).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "binding.h"
#include "tfscope/function.h"

namespace tfs::detail {

struct TraceRequest {
  const std::string& function_name;
  const std::vector<Parameter>& params;
  const Body& body;
  const FunctionOptions& options;
  const FunctionType& target;
  const BoundArguments& bound;
  bool allow_variable_creation;
};

struct TraceResult {
  std::shared_ptr<ConcreteFunction> cf;
  int variables_created = 0;
  double trace_us = 0;
};

class Tracer {
 public:
  static TraceResult trace(const TraceRequest& request);
  // The two eager runs of a trace, which need its internals (Tracer is ConcreteFunction's
  // friend; they live in call_runtime.cc): a cache hit's call with `values` bound to the trace's
  // parameters in order (its flat inputs kept on the stack; `eager`: executing_eagerly(), which
  // the caller knows), and the run of the call on its inputs (arguments, then fed captures), as
  // the call op would run it.
  static Value call_bound(const ConcreteFunction& cf, std::span<const Value> values, bool eager);
  static std::vector<Tensor> run_eager(const ConcreteFunction& cf, std::span<const Tensor> inputs);

 private:
  static void make_call_op(ConcreteFunction& cf);
};

// The tensors a call feeds for `values` of a trace of `type`: tensor and variable leaves in
// TF's flat order (nests depth first, dict keys sorted), host values converted to the spec's
// dtype.
// `extra` is room left for the captures the call appends.
std::vector<Tensor> flatten_arguments(const FunctionType& type, std::span<const Value> values,
                                      size_t extra = 0);

// Rebuilds a nest, replacing its symbolic leaves with `results` (moved out) in flatten order
// (dict keys sorted, as TF's nest flattens them).
Value rebuild(const Value& tmpl, std::span<Tensor> results, size_t& k);

}  // namespace tfs::detail

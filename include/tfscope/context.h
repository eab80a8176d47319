// The execution context, as TF keeps it in its eager context and graph stack. Per thread: whether
// ops run now or add nodes to a graph (the stack of graph builders; tf.init_scope pushes an eager
// entry), how deep the thread is in traces, the variable-creation policy of the trace being
// built, and whether a SavedModel is being saved. Per process: tf.config.run_functions_eagerly
// and the function library that eager call ops resolve function names in.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tfscope/tensor.h"

namespace tfs {

class GraphBuilder;
class FunctionRuntime;
struct OpDef;
class OpRecorder;

// A function an eager call op can run by name (a traced graph's compiled plan).
class CallableFunction {
 public:
  virtual ~CallableFunction() = default;
  virtual std::vector<Tensor> call(std::span<const Tensor> args) const = 0;
};

// Whether the trace being built may create variables (TF's variable-creation scopes), and how
// many it created.
struct VariableCreationPolicy {
  bool allowed = true;
  int created = 0;
};

class Context {
 public:
  static Context& get();

  // This thread's innermost graph builder; null when executing eagerly (no builder, or the
  // innermost entry is init_scope's).
  GraphBuilder* current_builder() const;
  void push_builder(GraphBuilder* b);  // nullptr: an eager entry (init_scope)
  void pop_builder();
  bool executing_eagerly() const { return current_builder() == nullptr; }
  // The builders whose graphs are being built on this thread, outermost first, up to the
  // innermost eager entry (tensors of these graphs may be captured by the current one).
  std::vector<GraphBuilder*> active_builders() const;

  // How many traces are running on this thread (a body may ask whether it is being traced).
  int trace_depth() const;
  void enter_trace();
  void exit_trace();

  VariableCreationPolicy* variable_policy() const;
  void push_variable_policy(VariableCreationPolicy* p);
  void pop_variable_policy();

  // tf.config.run_functions_eagerly: functions run their Python body instead of a graph.
  void set_run_functions_eagerly(bool on);
  bool functions_run_eagerly() const;

  // Inside tf.saved_model.save: functions keep the traces made here apart from the others (TF's
  // FunctionContext carries the save options' variable policy), so saving traces again.
  bool in_save_context() const;
  void enter_save_context();
  void exit_save_context();

  // The library eager call ops (PartitionedCall's `f`) resolve names in. Functions register
  // themselves while alive; a call op may also be run with a FunctionRuntime of its own.
  void add_function(const std::string& name, std::weak_ptr<const CallableFunction> fn);
  void remove_function(const std::string& name);
  std::shared_ptr<const CallableFunction> find_function(const std::string& name) const;
  FunctionRuntime& eager_runtime();

  // What records the ops this thread runs or stages (the active gradient tapes); null when
  // nothing does. execute() hands it every op with its inputs, resolved attrs and outputs.
  OpRecorder* op_recorder() const;
  void set_op_recorder(OpRecorder* r);

 private:
  Context() = default;
};

// tf.init_scope: ops run eagerly until it ends, even inside a trace.
class InitScope {
 public:
  InitScope();
  ~InitScope();
  InitScope(const InitScope&) = delete;
  InitScope& operator=(const InitScope&) = delete;
};

// Marks this thread as inside tf.saved_model.save while alive.
class SaveContextScope {
 public:
  SaveContextScope() { Context::get().enter_save_context(); }
  ~SaveContextScope() { Context::get().exit_save_context(); }
  SaveContextScope(const SaveContextScope&) = delete;
  SaveContextScope& operator=(const SaveContextScope&) = delete;
};

}  // namespace tfs

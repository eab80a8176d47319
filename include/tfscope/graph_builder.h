// The build context: while a FuncGraphBuilder is active on a thread, ops add nodes to its graph.
// It implements TF's capture rules (eager tensors of up to 128 elements become Const nodes,
// larger ones and resource handles become captured Placeholders; symbolic tensors of an outer
// graph are captured as Placeholders too) and automatic control dependencies (stateful ops run
// in program order; outputs wait for every stateful op).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tfscope/graph.h"
#include "tfscope/ops.h"
#include "tfscope/variable_state.h"

namespace tfs {

struct Capture {
  Tensor external;    // what the caller feeds (an eager tensor, a resource, an outer symbolic)
  Node* placeholder;  // the placeholder inside this graph
  std::string kind;   // "tensor", "resource", "outer"
};

class FuncGraphBuilder : public GraphBuilder {
 public:
  explicit FuncGraphBuilder(std::string name);
  ~FuncGraphBuilder() override;

  // Activate/deactivate as the thread's current builder (RAII helper below).
  void enter();
  void exit();

  const std::shared_ptr<Graph>& graph() const { return graph_; }

  // A Placeholder for an argument; `name` is made unique.
  Tensor add_placeholder(const std::string& name, DType dtype, const PartialShape& shape);

  // GraphBuilder.
  std::vector<Tensor> add_op(const OpDef& def, std::vector<Tensor> inputs, AttrMap attrs,
                             const std::string& name) override;
  Tensor constant(const Tensor& value, const std::string& name) override;
  std::string unique_name(const std::string& name, bool mark_used) override;
  void push_scope(const std::string& scope) override;
  void pop_scope() override;
  Tensor refine_shape(const Tensor& t, const PartialShape& shape) override;
  std::string name_scope() const override {
    return scopes_.empty() || scopes_.back().empty() ? "" : scopes_.back() + "/";
  }

  // A variable passed as an argument: its handle is this placeholder (an input, not a capture).
  void bind_argument_resource(const std::shared_ptr<VariableState>& var, const Tensor& placeholder);
  // Capture an external tensor (idempotent per tensor identity).
  Tensor capture(const Tensor& external, const std::string& name_hint);
  const std::vector<Capture>& captures() const { return captures_; }

  // Wrap the outputs as TF's func_graph does: an Identity per output, with a control input on a
  // NoOp that depends on every stateful op, when there are any.
  std::vector<Output> finalize_outputs(const std::vector<Tensor>& outputs);
  const std::vector<Node*>& stateful_ops() const { return stateful_ops_; }
  // Whether any op is stateful, ordered or not (a function holding one is stateful).
  bool has_stateful_ops() const { return has_stateful_ops_; }

  // Whether a trace is being built for a function that allows variable creation (set by the
  // function engine) and the variables it created.
  std::function<void()> on_variable_created;

 private:
  Output to_output(const Tensor& t, const std::string& hint);
  std::string scoped(const std::string& name) const;

  std::shared_ptr<Graph> graph_;
  std::vector<std::string> scopes_;
  std::vector<Capture> captures_;
  std::map<const void*, Tensor> capture_map_;  // external identity -> internal tensor
  // Per resource (the node making its handle): the last op that may write it and the reads
  // since, for TF's automatic control dependencies.
  struct ResourceUses {
    Node* last_write = nullptr;
    std::vector<Node*> reads;
  };
  std::map<const void*, ResourceUses> resource_uses_;
  Node* last_stateful_no_resource_ = nullptr;
  std::vector<Node*> stateful_ops_;
  bool has_stateful_ops_ = false;
  bool entered_ = false;
};

class BuildScope {
 public:
  explicit BuildScope(FuncGraphBuilder& b) : b_(b) { b_.enter(); }
  ~BuildScope() { b_.exit(); }
  BuildScope(const BuildScope&) = delete;
  BuildScope& operator=(const BuildScope&) = delete;

 private:
  FuncGraphBuilder& b_;
};

}  // namespace tfs

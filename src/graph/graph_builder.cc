#include "tfscope/graph_builder.h"

#include <algorithm>

namespace tfs {

FuncGraphBuilder::FuncGraphBuilder(std::string name) : graph_(std::make_shared<Graph>(name)) {}

FuncGraphBuilder::~FuncGraphBuilder() {
  if (entered_) pop_builder();
}

void FuncGraphBuilder::enter() {
  push_builder(this);
  entered_ = true;
}

void FuncGraphBuilder::exit() {
  if (entered_) {
    pop_builder();
    entered_ = false;
  }
}

std::string FuncGraphBuilder::scoped(const std::string& name) const {
  if (scopes_.empty()) return name;
  return scopes_.back() + "/" + name;
}

std::string FuncGraphBuilder::unique_name(const std::string& name, bool mark_used) {
  return graph_->unique_name(scoped(name), mark_used);
}

void FuncGraphBuilder::push_scope(const std::string& scope) { scopes_.push_back(scope); }
void FuncGraphBuilder::pop_scope() { scopes_.pop_back(); }

Tensor FuncGraphBuilder::add_placeholder(const std::string& name, DType dtype,
                                         const PartialShape& shape) {
  Node* n = graph_->add_node("Placeholder", name, {}, {{"dtype", dtype}, {"shape", shape}});
  return graph_->tensor(n, 0);
}

Tensor FuncGraphBuilder::constant(const Tensor& value, const std::string& name) {
  std::string n = (!name.empty() && name.back() == '/') ? name : scoped(name);
  Node* node = graph_->add_node("Const", n, {}, {{"value", value}, {"dtype", value.dtype()}});
  return graph_->tensor(node, 0);
}

void FuncGraphBuilder::bind_argument_resource(const std::shared_ptr<VariableState>& var,
                                              const Tensor& placeholder) {
  capture_map_[static_cast<const void*>(static_cast<ResourceBase*>(var.get()))] = placeholder;
}

Tensor FuncGraphBuilder::capture(const Tensor& external, const std::string& name_hint) {
  // Resources are keyed by what they point at, so two handles of one variable share a capture.
  const void* key = external.dtype() == DType::kResource && external.is_eager()
                        ? static_cast<const void*>(external.resource_handle().get())
                        : external.id();
  auto it = capture_map_.find(key);
  if (it != capture_map_.end()) return it->second;
  Tensor internal;
  std::string kind;
  if (external.is_eager() && external.dtype() != DType::kResource &&
      external.num_elements() <= 128) {
    // Small eager tensors are captured by value as a Const in the graph.
    internal = constant(external, name_hint);
    kind = "const";
  } else {
    internal = add_placeholder(scoped(name_hint), external.dtype(), external.shape());
    kind = external.dtype() == DType::kResource ? "resource"
                                                : (external.is_eager() ? "tensor" : "outer");
  }
  captures_.push_back(Capture{external, internal.node(), kind});
  capture_map_[key] = internal;
  return internal;
}

Output FuncGraphBuilder::to_output(const Tensor& t, const std::string& hint) {
  if (t.is_symbolic() && t.graph() == graph_) return Output{t.node(), t.index()};
  Tensor c = capture(t, hint);
  return Output{c.node(), c.index()};
}

std::vector<Tensor> FuncGraphBuilder::add_op(const OpDef& def, std::vector<Tensor> inputs,
                                             AttrMap attrs, const std::string& name) {
  std::string node_name = (!name.empty() && name.back() == '/') ? name : scoped(name);
  std::string base = node_name.back() == '/' ? node_name.substr(0, node_name.size() - 1)
                                             : node_name;
  std::vector<Output> outs;
  outs.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    // A captured resource placeholder is named after its first use: "AssignAddVariableOp/resource".
    std::string hint = inputs[i].dtype() == DType::kResource ? "resource" : "Const";
    if (inputs[i].dtype() == DType::kResource) {
      push_scope(graph_->unique_name(base, false));
      outs.push_back(to_output(inputs[i], hint));
      pop_scope();
    } else {
      outs.push_back(to_output(inputs[i], hint));
    }
  }
  // Automatic control dependencies: stateful ops run in program order, per resource and among
  // stateful ops that touch no resource.
  std::vector<Node*> control;
  if (def.stateful) {
    bool has_resource = false;
    for (auto& o : outs) {
      if (o.node->output_dtypes[static_cast<size_t>(o.index)] != DType::kResource) continue;
      has_resource = true;
      auto it = last_resource_use_.find(o.node);
      if (it != last_resource_use_.end() &&
          std::find(control.begin(), control.end(), it->second) == control.end()) {
        control.push_back(it->second);
      }
    }
    if (!has_resource && last_stateful_no_resource_) control.push_back(last_stateful_no_resource_);
  }
  Node* node = graph_->add_node(def.name, node_name, std::move(outs), std::move(attrs), control);
  if (def.stateful) {
    bool has_resource = false;
    for (auto& o : node->inputs) {
      if (o.node->output_dtypes[static_cast<size_t>(o.index)] == DType::kResource) {
        last_resource_use_[o.node] = node;
        has_resource = true;
      }
    }
    if (!has_resource) last_stateful_no_resource_ = node;
    stateful_ops_.push_back(node);
  }
  std::vector<Tensor> result;
  result.reserve(static_cast<size_t>(node->num_outputs()));
  for (int i = 0; i < node->num_outputs(); ++i) result.push_back(graph_->tensor(node, i));
  return result;
}

std::vector<Output> FuncGraphBuilder::finalize_outputs(const std::vector<Tensor>& outputs) {
  Node* sink = nullptr;
  if (!stateful_ops_.empty()) {
    sink = graph_->add_node("NoOp", "NoOp", {}, {}, stateful_ops_);
  }
  std::vector<Output> result;
  for (const Tensor& t : outputs) {
    Output o = to_output(t, "Const");
    std::vector<Node*> ctrl;
    if (sink) ctrl.push_back(sink);
    Node* id = graph_->add_node("Identity", "Identity", {o}, {}, ctrl);
    result.push_back(Output{id, 0});
  }
  return result;
}

}  // namespace tfs

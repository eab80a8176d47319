#include "tfscope/graph_builder.h"

#include <algorithm>

namespace tfs {

FuncGraphBuilder::FuncGraphBuilder(std::string name) : graph_(std::make_shared<Graph>(name)) {
  // The graph being built now is this one's outer graph (TF's FuncGraph.outer_graph).
  if (auto* outer = dynamic_cast<FuncGraphBuilder*>(current_builder())) {
    graph_->set_outer_graph(outer->graph());
  }
}

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
  if (scopes_.empty() || scopes_.back().empty()) return name;  // "" is the top (tf.name_scope(""))
  return scopes_.back() + "/" + name;
}

std::string FuncGraphBuilder::unique_name(const std::string& name, bool mark_used) {
  return graph_->unique_name(scoped(name), mark_used);
}

void FuncGraphBuilder::push_scope(const std::string& scope) {
  scopes_.push_back(scope);
}
void FuncGraphBuilder::pop_scope() {
  scopes_.pop_back();
}

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

namespace {

// The OpDef argument an input index falls in; list arguments (N tensors) name their elements
// "values_0", "values_1", ... as TF's convert_n_to_tensor does.
std::string input_arg_name(const OpDef& def, size_t index, size_t num_inputs) {
  size_t list_args = 0;
  for (const ArgDef& a : def.inputs)
    if (!a.number_attr.empty() || !a.type_list_attr.empty()) ++list_args;
  if (list_args == 0) return index < def.inputs.size() ? def.inputs[index].name : "Const";
  if (list_args > 1) return "Const";
  size_t list_len = num_inputs + 1 - def.inputs.size();
  size_t pos = 0;
  for (const ArgDef& a : def.inputs) {
    bool is_list = !a.number_attr.empty() || !a.type_list_attr.empty();
    size_t n = is_list ? list_len : 1;
    if (index < pos + n) return is_list ? a.name + "_" + std::to_string(index - pos) : a.name;
    pos += n;
  }
  return "Const";
}

}  // namespace

Tensor FuncGraphBuilder::refine_shape(const Tensor& t, const PartialShape& shape) {
  Node* n = t.node();
  n->output_shapes[static_cast<size_t>(t.index())] = shape;
  return Tensor::symbolic(t.graph(), n, t.index(), t.dtype(), shape, n->name);
}

namespace {

// TF's FuncGraph._validate_in_scope: a tensor of a graph built inside this one (a while body's,
// leaked through a Python list) is out of scope here.
void check_in_scope(const Tensor& t, const Graph& here) {
  if (!t.is_symbolic() || t.graph().get() == &here || !t.graph()->is_within(here)) return;
  throw Error(ErrorKind::kInaccessibleTensor,
              t.repr() +
                  " is out of scope and cannot be used here. Use return values, explicit Python "
                  "locals or TensorFlow collections to access it.\nPlease see "
                  "https://www.tensorflow.org/guide/"
                  "function#all_outputs_of_a_tffunction_must_be_return_values for more "
                  "information.\n\n" +
                  t.repr() + " was defined here:\n<unknown>\n\nThe tensor " + t.repr() +
                  " cannot be accessed from " + here.repr() + ", because it was defined in " +
                  t.graph()->repr() + ", which is out of scope.");
}

// The ops TF registers as not updating the resource they touch (register_read_only_resource_op).
bool is_resource_read(const std::string& op) {
  return op == "ReadVariableOp" || op == "ResourceGather" || op == "ResourceGatherNd" ||
         op == "_ReadVariablesOp";
}

}  // namespace

Tensor FuncGraphBuilder::capture(const Tensor& external, const std::string& name_hint) {
  check_in_scope(external, *graph_);
  // Resources are keyed by what they point at, so two handles of one variable share a capture.
  const void* key = external.dtype() == DType::kResource && external.is_eager()
                        ? static_cast<const void*>(external.resource_handle().get())
                        : external.id();
  auto it = capture_map_.find(key);
  if (it != capture_map_.end()) return it->second;
  Tensor internal;
  std::string kind;
  if (external.is_eager() && external.dtype() != DType::kResource &&
      external.dtype() != DType::kVariant && external.num_elements() <= 128) {
    // Small eager tensors are captured by value as a Const in the graph (not a resource or a
    // variant such as a dataset: TF's FuncGraph keeps those as placeholders).
    internal = constant(external, name_hint);
    kind = "const";
  } else {
    // TF's FuncGraph.capture names the placeholder after the captured tensor's op (in the
    // current scope: "while/Less/strided_slice"); an eager tensor has no op, so the input it
    // feeds names it ("add/y").
    std::string name = external.is_symbolic() ? external.node()->name : name_hint;
    internal = add_placeholder(scoped(name), external.dtype(), external.shape());
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
  std::string base =
      node_name.back() == '/' ? node_name.substr(0, node_name.size() - 1) : node_name;
  std::vector<Output> outs;
  outs.reserve(inputs.size());
  // Captures are named inside the op's scope after the input they feed, as TF's op wrappers
  // convert them: "add/y", "Sum/input", "AssignAddVariableOp/resource".
  const std::string op_scope =
      (!name.empty() && name.back() == '/') ? base : graph_->unique_name(base, false);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& in = inputs[i];
    if (in.is_symbolic() && in.graph() == graph_) {
      outs.push_back(Output{in.node(), in.index()});
      continue;
    }
    push_scope(op_scope);
    outs.push_back(to_output(in, input_arg_name(def, i, inputs.size())));
    pop_scope();
  }
  // Automatic control dependencies, as TF's AutomaticControlDependencies: per resource, a read
  // runs after the last write and a write after the last write and every read since; stateful
  // ops that touch no resource run in program order. Order-insensitive stateful ops (random
  // ops) get no control edges and are no control output.
  const bool ordered = def.stateful && !def.order_insensitive;
  const bool read = is_resource_read(def.name);
  has_stateful_ops_ = has_stateful_ops_ || def.stateful;
  std::vector<Node*> control;
  auto depend_on = [&](Node* n) {
    if (n && std::find(control.begin(), control.end(), n) == control.end()) control.push_back(n);
  };
  bool has_resource = false;
  if (ordered) {
    for (auto& o : outs) {
      if (o.node->output_dtypes[static_cast<size_t>(o.index)] != DType::kResource) continue;
      has_resource = true;
      auto it = resource_uses_.find(o.node);
      if (it == resource_uses_.end()) continue;
      depend_on(it->second.last_write);
      if (!read)
        for (Node* r : it->second.reads) depend_on(r);
    }
    if (!has_resource) depend_on(last_stateful_no_resource_);
  }
  Node* node = graph_->add_node(def.name, node_name, std::move(outs), std::move(attrs), control);
  if (ordered) {
    for (auto& o : node->inputs) {
      if (o.node->output_dtypes[static_cast<size_t>(o.index)] != DType::kResource) continue;
      ResourceUses& uses = resource_uses_[o.node];
      if (read) {
        uses.reads.push_back(node);
      } else {
        uses.last_write = node;
        uses.reads.clear();
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
  std::vector<Output> result;
  std::vector<Node*> identities;
  for (const Tensor& t : outputs) {
    Output o = to_output(t, "Const");
    Node* id = graph_->add_node("Identity", "Identity", {o}, {});
    identities.push_back(id);
    result.push_back(Output{id, 0});
  }
  // TF's automatic control dependencies, added as its func_graph adds them once the outputs
  // exist: a NoOp after every stateful op, and each output Identity waiting for it. With no
  // outputs the stateful ops are only the function's control outputs. (The Identities come
  // before the NoOp in the graph, as in TF's GraphDef; they follow every stateful op, so graph
  // order still runs them last.)
  if (!stateful_ops_.empty() && !outputs.empty()) {
    Node* sink = graph_->add_node("NoOp", "NoOp", {}, {}, stateful_ops_);
    for (Node* id : identities) id->control_inputs.push_back(sink);
  }
  return result;
}

}  // namespace tfs

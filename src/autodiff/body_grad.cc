// The gradient of a function body: tf.gradients' graph walk (graph_gradients.cc) from the body's
// outputs to its arguments, run in a BodyGradBuilder that resolves the forward tensors.
#include "body_grad.h"

#include "tfscope/context.h"
#include "tfscope/indexed_slices.h"
#include "tfscope/tape.h"

namespace tfs::autodiff {

Tensor tensor_of(const std::shared_ptr<Graph>& g, const Output& o) {
  return Tensor::symbolic(g, o.node, o.index, o.node->output_dtypes[o.index],
                          o.node->output_shapes[o.index], o.node->name);
}

std::shared_ptr<GraphFunction> copy_function(const GraphFunction& f, const std::string& name,
                                             std::map<const Node*, Node*>& map) {
  auto g = std::make_shared<Graph>(name);
  g->set_outer_graph(f.graph->outer_graph());
  for (auto& [n, lib] : f.graph->library()) g->library().emplace(n, lib);
  // Nodes first, edges after: an output Identity waits on a NoOp that comes after it.
  for (auto& up : f.graph->nodes())
    map[up.get()] =
        g->add_node_raw(*up->def, up->name, {}, up->attrs, up->output_dtypes, up->output_shapes);
  for (auto& up : f.graph->nodes()) {
    Node* c = map.at(up.get());
    for (const Output& o : up->inputs) c->inputs.push_back(Output{map.at(o.node), o.index});
    for (Node* ci : up->control_inputs) c->control_inputs.push_back(map.at(ci));
  }
  auto fn = std::make_shared<GraphFunction>(f);
  fn->name = name;
  fn->graph = g;
  for (Node*& a : fn->args) a = map.at(a);
  for (Output& o : fn->outputs) o.node = map.at(o.node);
  for (Node*& n : fn->control_outputs) n = map.at(n);
  return fn;
}

ControlOn::ControlOn(const Tensor& grad) : b_(dynamic_cast<BodyGradBuilder*>(current_builder())) {
  if (!b_) return;
  prev_ = b_->control_;
  b_->control_ = grad;
}

ControlOn::~ControlOn() {
  if (b_) b_->control_ = prev_;
}

BodyGradBuilder::BodyGradBuilder(std::string name, std::shared_ptr<Graph> forward,
                                 Resolver resolver)
    : FuncGraphBuilder(std::move(name)),
      forward_(std::move(forward)),
      resolver_(std::move(resolver)) {}

Tensor BodyGradBuilder::resolve(const Tensor& t) {
  if (!t.defined() || !t.is_symbolic() || t.graph() != forward_) return t;
  auto key = std::make_pair(static_cast<const Node*>(t.node()), t.index());
  auto it = resolved_.find(key);
  if (it != resolved_.end()) return it->second;
  // A constant of the forward body is made again here, as TF's gradient graphs copy constants.
  Tensor r = t.node()->op() == "Const" ? execute1("Const", {}, t.node()->attrs, "Const")
                                       : resolver_(*this, t);
  resolved_.emplace(key, r);
  return r;
}

std::vector<Tensor> BodyGradBuilder::add_op(const OpDef& def, std::vector<Tensor> inputs,
                                            AttrMap attrs, const std::string& name) {
  bool any = false;
  for (const Tensor& t : inputs) any = any || (t.is_symbolic() && t.graph() == forward_);
  if (any) {
    // Resolved in the op's input scope, where TF's capture makes them ("mul_grad/Mul/Const",
    // "mul_grad/Mul_1/OptionalGetValue").
    const bool exact = !name.empty() && name.back() == '/';
    const std::string full = exact ? name : name_scope() + name;
    const std::string base = exact ? full.substr(0, full.size() - 1) : full;
    push_scope(exact ? base : graph()->unique_name(base, false));
    for (Tensor& t : inputs) t = resolve(t);
    pop_scope();
  }
  return FuncGraphBuilder::add_op(def, std::move(inputs), std::move(attrs), name);
}

std::vector<Tensor> body_gradients(const GraphFunction& fn, const std::vector<Tensor>& grads,
                                   const std::vector<size_t>& source_args) {
  std::vector<size_t> which = source_args;
  if (which.empty())
    for (size_t i = 0; i < fn.args.size(); ++i) which.push_back(i);
  std::vector<Tensor> sources;
  for (size_t i : which) sources.push_back(tensor_of(fn.graph, Output{fn.args[i], 0}));
  std::vector<Tensor> targets, seeds;
  for (size_t i = 0; i < fn.outputs.size() && i < grads.size(); ++i) {
    Tensor y = tensor_of(fn.graph, fn.outputs[i]);
    if (!grads[i].defined() || !is_trainable_dtype(y.dtype()) || y.dtype() == DType::kResource)
      continue;
    targets.push_back(y);
    seeds.push_back(grads[i]);
  }
  if (targets.empty()) return std::vector<Tensor>(sources.size());
  // tf.gradients' walk over the body (the seeds "gradients/grad_ys_<i>", each op's gradient in
  // "gradients/<op>_grad/", sums "gradients/AddN"); a function's gradients are dense tensors (an
  // IndexedSlices densified, as a function output).
  std::vector<Tensor> r;
  for (const GradientValue& g :
       graph_gradients(targets, sources, seeds, UnconnectedGradients::kNone, "gradients"))
    r.push_back(dense_gradient(g));
  return r;
}

}  // namespace tfs::autodiff

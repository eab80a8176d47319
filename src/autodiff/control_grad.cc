// The gradients of If/StatelessIf (TF's cond_v2._IfGrad). Each branch's gradient is a function
// of its own (`<branch>_grad_<uid>`) built from the branch body; the tensors of the forward body
// it needs are resolved as cond_v2's _CondGradFuncGraph does: a branch argument is the If's
// input, a branch output the If's output, any other intermediate a new If output wrapped in an
// optional (OptionalFromValue in the branch that made it, OptionalNone in the other), read back
// with OptionalGetValue. The forward If is rewritten in place to output them (its branches
// renamed `<branch>_rewritten`), and the gradient is an If over the two gradient functions.
#include <map>
#include <memory>

#include "body_grad.h"
#include "tfscope/context.h"
#include "tfscope/errors.h"
#include "tfscope/gradients.h"
#include "tfscope/ops.h"
#include "tfscope/variable_state.h"

namespace tfs::data::detail {
void register_data_ops();  // OptionalFromValue, OptionalNone, OptionalGetValue (src/data)
}

namespace tfs::autodiff {

void anchor_while_grads();  // while_grad.cc: its registrations are kept with this file's
void anchor_control_grads() {
  anchor_while_grads();
}

namespace {

// One side of the If: its forward function and the gradient function being built.
struct Branch {
  const GraphFunction* fwd = nullptr;
  std::unique_ptr<BodyGradBuilder> grad;
  std::vector<Output> wrapped;  // the intermediates to wrap, in slot order
  std::vector<Tensor> grads;    // gradient per branch argument (undefined: None)
};

// The state one _IfGrad call shares between its branches: the optional slots added to the If.
struct IfRewrite {
  std::shared_ptr<Graph> graph;  // the If's graph
  Node* node = nullptr;
  int first_new = 0;  // index of the first added output
  int slots = 0;
  std::map<std::pair<const Node*, int>, Tensor> outer;  // one Tensor per outer graph output

  // Output `o` of the If's graph, the same Tensor each time (captures are keyed by identity).
  Tensor at(const Output& o) {
    auto key = std::make_pair(static_cast<const Node*>(o.node), o.index);
    auto it = outer.find(key);
    if (it == outer.end()) it = outer.emplace(key, tensor_of(graph, o)).first;
    return it->second;
  }
};

bool same_tensor(const Tensor& a, const Tensor& b) {
  if (a.is_symbolic() && b.is_symbolic()) return a.node() == b.node() && a.index() == b.index();
  return a.id() == b.id();
}

Tensor resolve_forward(IfRewrite& rw, Branch& br, BodyGradBuilder& self, const Tensor& t) {
  const GraphFunction& f = *br.fwd;
  for (size_t i = 0; i < f.args.size(); ++i)
    if (f.args[i] == t.node()) return rw.at(rw.node->inputs[1 + i]);
  for (size_t i = 0; i < f.outputs.size(); ++i)
    if (f.outputs[i].node == t.node() && f.outputs[i].index == t.index())
      return rw.at(Output{rw.node, static_cast<int>(i)});
  // An intermediate: wrapped in an optional in the forward branch, output by the If.
  const int slot = static_cast<int>(br.wrapped.size());
  br.wrapped.push_back(Output{t.node(), t.index()});
  if (slot == rw.slots) {
    rw.node->output_dtypes.push_back(DType::kVariant);
    rw.node->output_shapes.push_back(PartialShape(Shape{}));
    rw.slots++;
  }
  Tensor optional = rw.at(Output{rw.node, rw.first_new + slot});
  Tensor captured = self.capture(optional, "optional");
  return execute("OptionalGetValue", {captured},
                 {{"output_types", std::vector<DType>{t.dtype()}},
                  {"output_shapes", std::vector<PartialShape>{t.shape()}}})[0];
}

// The forward branch with the optionals as extra outputs (OptionalNone for the other branch's
// slots), in a copy of its graph: the original function stays in the library as it was.
std::shared_ptr<GraphFunction> rewritten(const Branch& br, int slots, const std::string& scope) {
  std::map<const Node*, Node*> map;
  auto fn = copy_function(*br.fwd, br.fwd->name + "_rewritten", map);
  Graph* g = fn->graph.get();
  for (int k = 0; k < slots; ++k) {
    Node* wrap;
    if (k < static_cast<int>(br.wrapped.size())) {
      const Output& t = br.wrapped[k];
      wrap = g->add_node("OptionalFromValue", scope + "OptionalFromValue",
                         {Output{map.at(t.node), t.index}},
                         {{"Toutput_types", std::vector<DType>{t.node->output_dtypes[t.index]}}});
    } else {
      wrap = g->add_node("OptionalNone", scope + "OptionalNone", {}, {});
    }
    fn->outputs.push_back(Output{wrap, 0});
    fn->output_names.push_back(wrap->name);
  }
  return fn;
}

// default_gradient.zeros_like: for a resource, zeros of the variable's shape and dtype.
Tensor zeros_for_input(const FuncGraphBuilder& outer, const Tensor& external, const Tensor& arg) {
  if (arg.dtype() != DType::kResource) return zeros_like(arg);
  std::shared_ptr<VariableState> var;
  if (external.is_symbolic()) {
    for (const Capture& c : outer.captures())
      if (c.placeholder == external.node() && c.external.is_eager())
        var = std::dynamic_pointer_cast<VariableState>(c.external.resource_handle());
  }
  if (!var)
    invalid_argument("[autodiff] no variable behind the If's resource input " +
                     (external.is_symbolic() ? external.node()->name : std::string()));
  return zeros(var->shape().dims(), var->dtype());
}

std::vector<Tensor> if_grad(const GradOp& op, const std::vector<Tensor>& grads) {
  data::detail::register_data_ops();
  IfRewrite rw;
  rw.graph = op.outputs[0].graph();
  rw.node = op.outputs[0].node();
  rw.first_new = rw.node->num_outputs();
  const char* attrs[2] = {"then_branch", "else_branch"};
  Branch br[2];
  auto* outer = dynamic_cast<FuncGraphBuilder*>(current_builder());
  if (!outer) invalid_argument("[autodiff] the gradient of an If is built in a function graph");
  const std::string scope = outer->name_scope();
  for (int b = 0; b < 2; ++b) {
    const std::string& name = std::get<FuncAttr>(rw.node->attrs.at(attrs[b])).name;
    br[b].fwd = rw.graph->find_function(name);
    if (!br[b].fwd) invalid_argument("[autodiff] the If's branch " + name + " is not in its graph");
  }
  for (int b = 0; b < 2; ++b) {
    Branch& me = br[b];
    const std::string gname = me.fwd->name + "_grad_" + std::to_string(next_uid());
    me.grad = std::make_unique<BodyGradBuilder>(gname, me.fwd->graph,
                                                [&rw, &me](BodyGradBuilder& self, const Tensor& t) {
                                                  return resolve_forward(rw, me, self, t);
                                                });
    if (!scope.empty()) me.grad->push_scope(scope.substr(0, scope.size() - 1));
    BuildScope s(*me.grad);
    me.grads = body_gradients(*me.fwd, grads);
  }
  // _create_zeros_for_none_grads: zeros where only the other branch has a gradient.
  const size_t n_in = rw.node->inputs.size() - 1;
  std::vector<bool> has(n_in, false);
  for (size_t i = 0; i < n_in; ++i) {
    has[i] = br[0].grads[i].defined() || br[1].grads[i].defined();
    for (auto& me : br) {
      if (!has[i] || me.grads[i].defined()) continue;
      BuildScope s(*me.grad);
      me.grads[i] = zeros_for_input(*outer, rw.at(rw.node->inputs[1 + i]),
                                    tensor_of(me.fwd->graph, Output{me.fwd->args[i], 0}));
    }
  }
  if (rw.slots > 0) {
    for (int b = 0; b < 2; ++b) {
      auto fn = rewritten(br[b], rw.slots, rw.node->name + "/");
      rw.node->attrs[attrs[b]] = FuncAttr{fn->name};
      rw.graph->add_function(fn);
      if (outer->graph() != rw.graph) outer->graph()->add_function(fn);
    }
    rw.node->attrs["Tout"] = rw.node->output_dtypes;
    rw.node->attrs["output_shapes"] = rw.node->output_shapes;
  }
  // The gradient If: its inputs the union of what the two gradient functions captured.
  std::vector<Tensor> externals;
  for (auto& me : br)
    for (auto& c : me.grad->captures()) {
      if (c.kind == "const") continue;
      bool seen = false;
      for (auto& e : externals) seen = seen || same_tensor(e, c.external);
      if (!seen) externals.push_back(c.external);
    }
  std::shared_ptr<GraphFunction> fns[2];
  for (auto& me : br) {
    FuncGraphBuilder& g = *me.grad;
    BuildScope s(g);
    auto fn = std::make_shared<GraphFunction>();
    fn->name = g.graph()->name();
    fn->graph = g.graph();
    for (auto& e : externals) {
      Node* ph = nullptr;
      for (auto& c : g.captures())
        if (c.kind != "const" && same_tensor(c.external, e)) ph = c.placeholder;
      if (!ph) ph = g.add_placeholder(g.name_scope() + "Placeholder", e.dtype(), e.shape()).node();
      fn->args.push_back(ph);
      fn->arg_names.push_back(ph->name);
    }
    const std::vector<Node*> stateful = g.stateful_ops();
    for (size_t i = 0; i < n_in; ++i) {
      if (!has[i]) continue;
      Tensor v = me.grad->resolve(me.grads[i]);
      Tensor in = v.is_symbolic() && v.graph() == g.graph() ? v : g.capture(v, "Const");
      Node* id = g.graph()->add_node("Identity", g.name_scope() + "Identity",
                                     {Output{in.node(), in.index()}}, {});
      fn->outputs.push_back(Output{id, 0});
      fn->output_names.push_back(id->name);
    }
    if (!stateful.empty() && !fn->outputs.empty()) {
      Node* sink = g.graph()->add_node("NoOp", g.name_scope() + "NoOp", {}, {}, stateful);
      for (Output& o : fn->outputs) o.node->control_inputs.push_back(sink);
    }
    fn->control_outputs = stateful;
    fn->is_stateful = g.has_stateful_ops();
    fns[&me - br] = fn;
  }
  for (auto& fn : fns) outer->graph()->add_function(fn);
  std::vector<DType> tin, tout;
  std::vector<PartialShape> shapes;
  for (auto& e : externals) tin.push_back(e.dtype());
  for (size_t i = 0; i < fns[0]->outputs.size(); ++i) {
    const Output& a = fns[0]->outputs[i];
    const Output& b = fns[1]->outputs[i];
    tout.push_back(a.node->output_dtypes[a.index]);
    shapes.push_back(a.node->output_shapes[a.index].most_specific_common_supertype(
        b.node->output_shapes[b.index]));
  }
  std::vector<Tensor> inputs{rw.at(rw.node->inputs[0])};
  inputs.insert(inputs.end(), externals.begin(), externals.end());
  const bool stateful = fns[0]->is_stateful || fns[1]->is_stateful;
  std::vector<Tensor> outs = execute(stateful ? "If" : "StatelessIf", inputs,
                                     {{"Tin", tin},
                                      {"Tout", tout},
                                      {"then_branch", FuncAttr{fns[0]->name}},
                                      {"else_branch", FuncAttr{fns[1]->name}},
                                      {"output_shapes", shapes}});
  std::vector<Tensor> result(1 + n_in);
  size_t k = 0;
  for (size_t i = 0; i < n_in; ++i)
    if (has[i]) result[1 + i] = identity(outs[k++]);
  return result;
}

GradientRegistration if_reg("If", if_grad);
GradientRegistration stateless_if_reg("StatelessIf", if_grad);

}  // namespace
}  // namespace tfs::autodiff

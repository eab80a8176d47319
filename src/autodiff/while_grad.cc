// The gradient of While/StatelessWhile (TF 2.21's while_v2._WhileGrad). The gradient is a While
// of its own over `<body>_grad_<uid>` and `<cond>_grad_<uid>`: loop variables a counter from 0,
// the forward maximum_iterations, the forward loop counter's final value (the iterations to run
// back), the output gradients, then what the gradient body captured. The gradient body is
// _GradientsHelper over the forward body (body_grad.cc), its forward tensors resolved as
// _WhileBodyGradFuncGraph does: an Identity by its input, a Const made again, a loop invariant (a
// body argument passed through as an output) captured as the While's output, and any other
// intermediate accumulated: an EmptyTensorList in the While's graph
// (`<tensor name>/accumulator`, max elements the loop's maximum_iterations) fed to the forward
// loop as a new loop variable, a TensorListPushBack in its body (renamed `<body>_rewritten`, the
// cond `<cond>_rewritten` taking the list too) and a TensorListPopBack in the gradient body, which
// outputs the popped list after its gradients.
#include <map>
#include <memory>

#include "body_grad.h"
#include "grad_util.h"
#include "tfscope/context.h"
#include "tfscope/errors.h"
#include "tfscope/gradients.h"
#include "tfscope/ops.h"
#include "tfscope/ops_list.h"
#include "tfscope/tape.h"

namespace tfs::autodiff {

void anchor_while_grads() {}

namespace {

using Key = std::pair<const Node*, int>;

// The thread's builder is `b` while this lives (the forward While's graph, for its accumulators).
class AsCurrent {
 public:
  explicit AsCurrent(GraphBuilder* b) { push_builder(b); }
  ~AsCurrent() { pop_builder(); }
  AsCurrent(const AsCurrent&) = delete;
  AsCurrent& operator=(const AsCurrent&) = delete;
};

int arg_index(const GraphFunction& f, const Node* n) {
  for (size_t i = 0; i < f.args.size(); ++i)
    if (f.args[i] == n) return static_cast<int>(i);
  return -1;
}

int output_index(const GraphFunction& f, const Output& o) {
  for (size_t i = 0; i < f.outputs.size(); ++i)
    if (f.outputs[i].node == o.node && f.outputs[i].index == o.index) return static_cast<int>(i);
  return -1;
}

// "while/Tanh:0" -> "while/Tanh_0/accumulator" (_build_accumulator_name). A loop variable's
// placeholder is "while/Placeholder_1" in TF's body graph (its argument "while_placeholder_1").
std::string accumulator_name(const Output& o) {
  std::string name = o.node->name;
  const size_t slash = name.rfind('/');
  const size_t last = slash == std::string::npos ? 0 : slash + 1;
  if (o.node->op() == "Placeholder" && name.compare(last, 11, "placeholder") == 0) name[last] = 'P';
  return name + "_" + std::to_string(o.index) + "/accumulator";
}

// One _WhileGrad call: the forward While, its functions, and the rewrite it makes.
struct WhileRewrite {
  std::shared_ptr<Graph> graph;  // the While's graph
  Node* node = nullptr;
  const GraphFunction* body = nullptr;  // as the While calls them now
  const GraphFunction* cond = nullptr;
  FuncGraphBuilder* outer = nullptr;  // the graph the gradient is built in (the While's)
  std::shared_ptr<GraphFunction> new_body, new_cond;  // made at the first accumulator
  std::map<const Node*, Node*> body_map, cond_map;
  std::map<Key, Tensor> outer_tensors;  // one Tensor per While output (captures key identity)
  std::map<Key, Tensor> indirect;       // forward tensor (Identity-stripped) -> its value here
  std::map<const Node*, Tensor> capture_output;  // a captured placeholder -> what body outputs

  Tensor at(int i) {
    Key k{node, i};
    auto it = outer_tensors.find(k);
    if (it == outer_tensors.end()) it = outer_tensors.emplace(k, tensor_of(graph, {node, i})).first;
    return it->second;
  }

  // _get_accumulator: the body output already holding `o`'s pushes (a TensorListPushBack of a
  // body argument that the body outputs at the argument's own index), or -1.
  int existing_accumulator(const Output& o) const {
    for (auto& up : body->graph->nodes()) {
      const Node* c = up.get();
      if (c->op() != "TensorListPushBack" || c->inputs.size() < 2 || c->inputs[1].node != o.node ||
          c->inputs[1].index != o.index)
        continue;
      const int in = arg_index(*body, c->inputs[0].node);
      if (in >= 0 && output_index(*body, Output{const_cast<Node*>(c), 0}) == in) return in;
    }
    return -1;
  }

  // A new accumulator for `o`: the While's new output index.
  int add_accumulator(const Output& o) {
    if (!new_body) {
      new_body = copy_function(*body, body->name + "_rewritten", body_map);
      new_cond = copy_function(*cond, cond->name + "_rewritten", cond_map);
    }
    const DType dt = o.node->output_dtypes[o.index];
    const PartialShape shape = o.node->output_shapes[o.index];
    Tensor list;
    {
      AsCurrent in_outer(outer);
      const std::string name = outer->unique_name(accumulator_name(o), true);
      outer->push_scope(name);
      Tensor es = convert_to_tensor(list_element_shape(shape), DType::kInt32, "element_shape");
      outer->pop_scope();
      list = execute1("EmptyTensorList", {es, at_input(1)},
                      {{"element_dtype", dt}, {"shape_type", DType::kInt32}}, name + "/");
    }
    // The forward body pushes `o` each iteration; its cond takes the list too.
    const std::string body_scope = node->name + "/";
    Graph* bg = new_body->graph.get();
    const std::string push = bg->unique_name(body_scope + "TensorListPushBack", true);
    Node* ph = bg->add_node("Placeholder", push + "/" + list.node()->name + "/", {},
                            {{"dtype", DType::kVariant}, {"shape", PartialShape(Shape{})}});
    Node* pushed = bg->add_node("TensorListPushBack", push + "/",
                                {Output{ph, 0}, Output{body_map.at(o.node), o.index}},
                                {{"element_dtype", dt}});
    new_body->args.push_back(ph);
    new_body->arg_names.push_back(ph->name);
    new_body->outputs.push_back(Output{pushed, 0});
    new_body->output_names.push_back(pushed->name);
    Graph* cg = new_cond->graph.get();
    Node* cph = cg->add_node("Placeholder", body_scope + list.node()->name, {},
                             {{"dtype", DType::kVariant}, {"shape", PartialShape(Shape{})}});
    new_cond->args.push_back(cph);
    new_cond->arg_names.push_back(cph->name);
    node->inputs.push_back(Output{list.node(), list.index()});
    node->output_dtypes.push_back(DType::kVariant);
    node->output_shapes.push_back(PartialShape(Shape{}));
    return node->num_outputs() - 1;
  }

  Tensor at_input(size_t i) {
    const Output& in = node->inputs[i];
    return at_outer(in);
  }
  Tensor at_outer(const Output& o) {
    Key k{o.node, o.index};
    auto it = outer_tensors.find(k);
    if (it == outer_tensors.end()) it = outer_tensors.emplace(k, tensor_of(graph, o)).first;
    return it->second;
  }

  // _WhileBodyGradFuncGraph._capture_helper for a tensor of the forward body.
  Tensor resolve(BodyGradBuilder& self, const Tensor& t) {
    Output o{t.node(), t.index()};
    while (o.node->op() == "Identity") o = o.node->inputs[0];
    auto hit = indirect.find(Key{o.node, o.index});
    if (hit != indirect.end()) return hit->second;
    Tensor r;
    const int arg = o.index == 0 ? arg_index(*body, o.node) : -1;
    const int out = arg >= 0 ? output_index(*body, o) : -1;
    if (o.node->op() == "Const") {
      r = execute1("Const", {}, o.node->attrs, "Const");
      control_on(r, self.control());
    } else if (out >= 0) {
      // A loop invariant: the While's output, passed on by the gradient body unchanged.
      r = self.capture(at(out), o.node->name);
      capture_output[r.node()] = r;
    } else if (o.node->output_dtypes[o.index] == DType::kResource) {
      if (arg < 0)
        invalid_argument("[autodiff] a resource made inside a while_loop body has no gradient");
      r = self.capture(at_input(static_cast<size_t>(arg)), o.node->name);
      capture_output[r.node()] = r;
    } else {
      int acc = existing_accumulator(o);
      if (acc < 0) acc = add_accumulator(o);
      Tensor captured = self.capture(at(acc), o.node->name);
      const DType dt = o.node->output_dtypes[o.index];
      const std::string pop = self.unique_name("TensorListPopBack", true);
      self.push_scope(pop);
      Tensor es = convert_to_tensor(Value(-1), DType::kInt32, "element_shape");
      self.pop_scope();
      control_on(es, self.control());
      std::vector<Tensor> popped =
          execute("TensorListPopBack", {captured, es}, {{"element_dtype", dt}}, pop + "/");
      // The list's handle data gives TF the element's shape: the forward tensor's.
      Node* p = popped[1].node();
      p->output_shapes[1] = o.node->output_shapes[o.index];
      r = tensor_of(self.graph(), Output{p, 1});
      capture_output[captured.node()] = popped[0];
    }
    indirect.emplace(Key{o.node, o.index}, r);
    return r;
  }
};

// The index of the first capture among the body's arguments: the loop variables' outputs are
// the body's Identities (after the counter and maximum_iterations), a capture is passed through.
size_t captures_start(const GraphFunction& body) {
  size_t i = 2;
  while (i < body.outputs.size() && body.outputs[i].node->op() == "Identity") ++i;
  return i;
}

std::shared_ptr<GraphFunction> finish(FuncGraphBuilder& g, const std::vector<Node*>& args,
                                      const std::vector<Output>& outputs) {
  auto fn = std::make_shared<GraphFunction>();
  fn->name = g.graph()->name();
  fn->graph = g.graph();
  fn->args = args;
  for (Node* a : args) fn->arg_names.push_back(a->name);
  fn->outputs = outputs;
  for (const Output& o : outputs) fn->output_names.push_back(o.node->name);
  const std::vector<Node*> stateful = g.stateful_ops();
  fn->control_outputs = stateful;
  fn->is_stateful = g.has_stateful_ops();
  return fn;
}

std::vector<Tensor> while_grad(const GradOp& op, const std::vector<Tensor>& grads_in) {
  WhileRewrite rw;
  rw.graph = op.outputs[0].graph();
  rw.node = op.outputs[0].node();
  rw.outer = dynamic_cast<FuncGraphBuilder*>(current_builder());
  if (!rw.outer || rw.outer->graph() != rw.graph)
    invalid_argument("[autodiff] the gradient of a While is built in the graph that holds it");
  const std::string body_name = std::get<FuncAttr>(rw.node->attrs.at("body")).name;
  const std::string cond_name = std::get<FuncAttr>(rw.node->attrs.at("cond")).name;
  rw.body = rw.graph->find_function(body_name);
  rw.cond = rw.graph->find_function(cond_name);
  if (!rw.body || !rw.cond)
    invalid_argument("[autodiff] the While's functions are not in its graph: " + body_name);
  const GraphFunction& body = *rw.body;
  const std::string scope = rw.outer->name_scope();

  // _preprocess_grad: none for an untrainable output; skipped captures get none.
  const size_t n = std::min(grads_in.size(), body.outputs.size());
  std::vector<Tensor> grads(body.outputs.size());
  const size_t first_capture = captures_start(body);
  for (size_t i = 0; i < n; ++i) {
    const Output& o = body.outputs[i];
    const DType dt = o.node->output_dtypes[o.index];
    if (!grads_in[i].defined() || !is_trainable_dtype(dt) || dt == DType::kResource) continue;
    if (i >= first_capture && op.skips(static_cast<int>(i))) continue;
    grads[i] = grads_in[i];
  }
  std::vector<size_t> xs;
  for (size_t i = 0; i < grads.size(); ++i)
    if (grads[i].defined()) xs.push_back(i);
  std::vector<Tensor> result(op.inputs.size());
  if (xs.empty()) return result;

  // Loop variables: a counter from 0, maximum_iterations, the forward iterations, the gradients.
  Tensor counter = constant(Value(0), DType::kInt32, "grad_counter");
  std::vector<Tensor> loop_vars{counter, rw.at_input(1), rw.at(0)};
  for (size_t i : xs) loop_vars.push_back(grads[i]);

  BodyGradBuilder gb(body.name + "_grad_" + std::to_string(next_uid()), body.graph,
                     [&rw](BodyGradBuilder& self, const Tensor& t) { return rw.resolve(self, t); });
  if (!scope.empty()) gb.push_scope(scope.substr(0, scope.size() - 1));
  std::vector<Node*> gargs;
  std::vector<Output> gouts;
  {
    BuildScope s(gb);
    std::vector<Tensor> ph;
    for (size_t i = 0; i < loop_vars.size(); ++i) {
      ph.push_back(gb.add_placeholder(
          gb.name_scope() + (i == 0 ? "placeholder" : "placeholder_" + std::to_string(i)),
          loop_vars[i].dtype(), loop_vars[i].shape()));
      gargs.push_back(ph.back().node());
    }
    std::vector<Tensor> body_grads(body.outputs.size());
    for (size_t k = 0; k < xs.size(); ++k) body_grads[xs[k]] = ph[3 + k];
    std::vector<Tensor> outs = body_gradients(body, body_grads, xs);
    // unconnected_gradients="zero", outside the gradients scope.
    for (size_t k = 0; k < xs.size(); ++k)
      if (!outs[k].defined()) outs[k] = zeros_like(tensor_of(body.graph, {body.args[xs[k]], 0}));
    std::vector<Tensor> ret{add(ph[0], Value(1)), ph[1], ph[2]};
    for (Tensor& t : outs) ret.push_back(gb.resolve(t));
    for (Tensor& t : ret) {
      Tensor in = t.is_symbolic() && t.graph() == gb.graph() ? t : gb.capture(t, "Const");
      Node* id = gb.graph()->add_node("Identity", gb.name_scope() + "Identity",
                                      {Output{in.node(), in.index()}}, {});
      gouts.push_back(Output{id, 0});
    }
  }
  // What the gradient body captured: fed after the loop variables, output as it is (a loop
  // invariant, an outer tensor) or as the popped list (an accumulator).
  for (const Capture& c : gb.captures()) {
    if (c.kind == "const") continue;
    gargs.push_back(c.placeholder);
    Tensor external = c.external;
    loop_vars.push_back(external);
    auto it = rw.capture_output.find(c.placeholder);
    gouts.push_back(it == rw.capture_output.end() ? Output{c.placeholder, 0}
                                                  : Output{it->second.node(), it->second.index()});
  }
  auto gbody = finish(gb, gargs, gouts);

  FuncGraphBuilder gc(cond_name + "_grad_" + std::to_string(next_uid()));
  if (!scope.empty()) gc.push_scope(scope.substr(0, scope.size() - 1));
  std::vector<Node*> cargs;
  std::vector<Output> couts;
  {
    BuildScope s(gc);
    std::vector<Tensor> ph;
    for (size_t i = 0; i < loop_vars.size(); ++i) {
      ph.push_back(gc.add_placeholder(
          gc.name_scope() + (i == 0 ? "placeholder" : "placeholder_" + std::to_string(i)),
          loop_vars[i].dtype(), loop_vars[i].shape()));
      cargs.push_back(ph.back().node());
    }
    Tensor more = less(ph[0], ph[2]);
    couts.push_back(Output{gc.graph()->add_node("Identity", gc.name_scope() + "Identity",
                                                {Output{more.node(), more.index()}}, {}),
                           0});
  }
  auto gcond = finish(gc, cargs, couts);

  if (rw.new_body) {
    for (auto& fn : {rw.new_body, rw.new_cond}) rw.graph->add_function(fn);
    rw.node->attrs["body"] = FuncAttr{rw.new_body->name};
    rw.node->attrs["cond"] = FuncAttr{rw.new_cond->name};
    rw.node->attrs["T"] = rw.node->output_dtypes;
    rw.node->attrs["output_shapes"] = rw.node->output_shapes;
  }
  rw.graph->add_function(gbody);
  rw.graph->add_function(gcond);

  std::vector<DType> types;
  std::vector<PartialShape> shapes;
  for (const Tensor& t : loop_vars) types.push_back(t.dtype());
  for (const Output& o : gbody->outputs) shapes.push_back(o.node->output_shapes[o.index]);
  AttrMap attrs{{"T", types},
                {"cond", FuncAttr{gcond->name}},
                {"body", FuncAttr{gbody->name}},
                {"output_shapes", shapes}};
  auto pi = rw.node->attrs.find("parallel_iterations");
  attrs["parallel_iterations"] = pi != rw.node->attrs.end() ? pi->second : AttrValue(int64_t{10});
  const bool stateful = gbody->is_stateful || gcond->is_stateful;
  std::vector<Tensor> outs =
      execute(stateful ? "While" : "StatelessWhile", loop_vars, attrs, rw.node->name + "_grad");
  std::vector<Tensor> ids;
  for (const Tensor& t : outs) ids.push_back(identity(t));
  for (size_t k = 0; k < xs.size(); ++k)
    if (xs[k] < result.size()) result[xs[k]] = ids[3 + k];
  return result;
}

GradientRegistration while_reg("While", while_grad);
GradientRegistration stateless_while_reg("StatelessWhile", while_grad);

}  // namespace
}  // namespace tfs::autodiff

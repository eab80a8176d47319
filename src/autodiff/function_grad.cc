// Gradients through function calls (TF's forward/backward function pair). The gradient of a call
// of `__inference_f_N` is `__inference___backward_f_<a>_<b>`, built from the body by
// body_gradients: every forward tensor it reads (an argument or an intermediate) becomes an extra
// output of `__forward_f_<c>`, a copy of the body, and an argument of the backward function after
// the output gradients. In a graph the call node is rewritten in place to call the forward
// function (TF's delayed rewrite) and the gradient is a call of the backward function; eagerly a
// call a tape records runs the forward function at once (call_runtime.cc asks
// detail::tape_would_record) and its gradient runs the backward function.
#include <algorithm>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <regex>

#include "body_grad.h"
#include "tape_impl.h"
#include "tfscope/context.h"
#include "tfscope/errors.h"
#include "tfscope/executor.h"
#include "tfscope/gradient_functions.h"
#include "tfscope/gradients.h"
#include "tfscope/ops.h"

namespace tfs::autodiff {

void anchor_function_grads() {}

namespace {

struct ForwardBackward {
  std::shared_ptr<GraphFunction> forward, backward;
  size_t n_outputs = 0;            // the inference function's outputs (the forward's first)
  std::vector<size_t> seeded;      // the forward outputs whose gradients the backward takes
  std::vector<size_t> captured;    // the forward outputs it reads after them
  std::vector<int> grad_of_input;  // backward output per forward input, -1: None
  std::shared_ptr<Executor> forward_run, backward_run;  // eager calls
};

// The name of the graph a function was traced in, which TF names its gradient functions after:
// "__inference_f_12" -> "f", "__forward_f_27" -> "f", "__inference___backward_f_15_28" ->
// "__backward_f_15".
std::string graph_name(const std::string& function) {
  static const std::regex re("^__(?:inference|forward)_(.*)_[0-9]+$");
  std::smatch m;
  return std::regex_match(function, m, re) ? m[1].str() : function;
}

// A copy of `f`'s graph as `name`, with `extra` (tensors of f's graph) as further outputs.
std::shared_ptr<GraphFunction> with_outputs(const GraphFunction& f, const std::string& name,
                                            const std::vector<Output>& extra) {
  std::map<const Node*, Node*> map;
  auto fn = copy_function(f, name, map);
  for (const Output& o : extra) {
    fn->outputs.push_back(Output{map.at(o.node), o.index});
    fn->output_names.push_back(o.node->name);
  }
  return fn;
}

// One backward graph of `fn`: a gradient placeholder per output in `seeded` (outputs of fn's
// graph), the gradients of fn's arguments, and the forward tensors it reads (TF's captures from
// the forward graph), each an argument after the placeholders.
struct BackwardGraph {
  std::unique_ptr<BodyGradBuilder> builder;
  std::vector<Node*> args;       // the gradient placeholders, then the captures
  std::vector<Output> captures;  // the forward tensors the captures stand for
  std::vector<Tensor> outs;      // the defined gradients
  std::vector<int> grad_of_input;
};

BackwardGraph backward_graph(const GraphFunction& fn, const std::string& name,
                             const std::vector<Output>& seeded) {
  BackwardGraph bg;
  std::vector<Node*> captured;
  bg.builder = std::make_unique<BodyGradBuilder>(
      name, fn.graph, [&](BodyGradBuilder& self, const Tensor& t) {
        bg.captures.push_back(Output{t.node(), t.index()});
        Tensor ph = self.add_placeholder(self.name_scope() + t.node()->name, t.dtype(), t.shape());
        captured.push_back(ph.node());
        return ph;
      });
  BodyGradBuilder& b = *bg.builder;
  BuildScope s(b);
  std::vector<Tensor> seeds;
  for (const Output& o : seeded) {
    Tensor ph = b.add_placeholder("placeholder", o.node->output_dtypes[o.index],
                                  o.node->output_shapes[o.index]);
    bg.args.push_back(ph.node());
    seeds.push_back(ph);
  }
  GraphFunction sources = fn;  // the same graph and arguments, the seeded tensors its outputs
  sources.outputs = seeded;
  std::vector<Tensor> grads = body_gradients(sources, seeds);
  for (size_t i = 0; i < grads.size(); ++i) {
    if (!grads[i].defined()) {
      bg.grad_of_input.push_back(-1);
      continue;
    }
    bg.grad_of_input.push_back(static_cast<int>(bg.outs.size()));
    bg.outs.push_back(b.resolve(grads[i]));
  }
  bg.args.insert(bg.args.end(), captured.begin(), captured.end());
  return bg;
}

// Appends to `outputs` each of `more` it lacks (TF's existing_outputs check); the index of each.
std::vector<size_t> add_outputs(std::vector<Output>& outputs, const std::vector<Output>& more) {
  std::vector<size_t> at;
  for (const Output& o : more) {
    auto it = std::find(outputs.begin(), outputs.end(), o);
    at.push_back(static_cast<size_t>(it - outputs.begin()));
    if (it == outputs.end()) outputs.push_back(o);
  }
  return at;
}

// TF's names: the backward graph "__backward_f_<a>" is named first; once it is built, the
// forward function "__forward_f_<c>", then the backward function "__inference___backward_f_<a>_
// <c+1>" (concrete_function.py's _create_forward_backward_with_graph).
//
// A first-order pair's backward function takes a gradient for each output of `fn` and its
// captures become the forward function's side outputs. A higher-order tape's
// (_HigherOrderTapeGradientFunctions) takes one for each trainable output, side outputs too, so
// that a tape can differentiate through them: TF builds the backward graph again with the side
// outputs the last one added among the seeded outputs until no trainable one is added, then once
// more for the pair (each build naming a graph).
ForwardBackward build_pair(const GraphFunction& fn, const std::string& kind) {
  ForwardBackward fb;
  fb.n_outputs = fn.outputs.size();
  const std::string py = graph_name(fn.name);
  auto backward_name = [&] { return "__backward_" + py + "_" + std::to_string(next_uid()); };
  std::vector<Output> outputs = fn.outputs;  // the forward function's, side outputs appended
  std::vector<Output> seeded = fn.outputs;
  if (kind == "higher-order tape") {
    auto trainable = [](const Output& o) {
      return is_trainable_dtype(o.node->output_dtypes[o.index]);
    };
    std::vector<Output> settled;  // TF's `outputs` of the loop
    while (settled.size() < outputs.size() &&
           std::any_of(outputs.begin() + static_cast<long>(settled.size()), outputs.end(),
                       trainable)) {
      settled = outputs;
      std::vector<Output> seeds;
      std::copy_if(settled.begin(), settled.end(), std::back_inserter(seeds), trainable);
      add_outputs(outputs, backward_graph(fn, backward_name(), seeds).captures);
    }
    seeded.clear();
    std::copy_if(settled.begin(), settled.end(), std::back_inserter(seeded), trainable);
    if (settled.empty()) seeded = fn.outputs;
  }
  const std::string name = backward_name();
  BackwardGraph bg = backward_graph(fn, name, seeded);
  for (const Output& o : seeded)
    fb.seeded.push_back(
        static_cast<size_t>(std::find(outputs.begin(), outputs.end(), o) - outputs.begin()));
  if (kind == "higher-order tape") {
    fb.captured = add_outputs(outputs, bg.captures);
  } else {  // each capture a side output of its own, after the outputs
    for (const Output& o : bg.captures) {
      fb.captured.push_back(outputs.size());
      outputs.push_back(o);
    }
  }
  fb.grad_of_input = bg.grad_of_input;
  fb.forward = with_outputs(
      fn, "__forward_" + py + "_" + std::to_string(next_uid()),
      std::vector<Output>(outputs.begin() + static_cast<long>(fb.n_outputs), outputs.end()));
  BodyGradBuilder& b = *bg.builder;
  auto bw = std::make_shared<GraphFunction>();
  bw->name = "__inference_" + name + "_" + std::to_string(next_uid());
  bw->graph = b.graph();
  bw->args = bg.args;
  for (Node* a : bw->args) bw->arg_names.push_back(a->name);
  // A tape's backward graph is made without func_graph_from_py_func, so its outputs are the
  // gradients themselves; the delayed rewrite's goes through it: an Identity per output, after
  // the automatic control dependencies.
  bool plain = kind != "graph";
  for (const Tensor& t : bg.outs) plain = plain && t.is_symbolic() && t.graph() == b.graph();
  if (plain) {
    for (const Tensor& t : bg.outs) bw->outputs.push_back(Output{t.node(), t.index()});
  } else {
    BuildScope s(b);
    bw->outputs = b.finalize_outputs(bg.outs);
  }
  for (const Output& o : bw->outputs) bw->output_names.push_back(o.node->name);
  bw->control_outputs = b.stateful_ops();
  bw->is_stateful = b.has_stateful_ops();
  fb.backward = bw;
  GradientFunctionPair p;
  p.of = fn.name;
  p.forward = fb.forward->name;
  p.backward = bw->name;
  p.forward_nodes = fb.forward->graph->num_nodes();
  p.backward_nodes = bw->graph->num_nodes();
  p.kind = kind;
  record_gradient_functions(std::move(p));
  return fb;
}

// The pairs of eager calls, by forward function name (what the tape recorded in `f`).
std::mutex g_mu;
std::map<std::string, std::shared_ptr<ForwardBackward>>& eager_pairs() {
  static auto* m = new std::map<std::string, std::shared_ptr<ForwardBackward>>();
  return *m;
}
// The pairs TF caches on each concrete function, by (function name, kind): one for tapes that
// allow first-order gradients only, one for higher-order ones, one for gradients in graphs
// (the delayed rewrite), each built once.
std::map<std::pair<std::string, std::string>, std::shared_ptr<ForwardBackward>>& cached_pairs() {
  static auto* m =
      new std::map<std::pair<std::string, std::string>, std::shared_ptr<ForwardBackward>>();
  return *m;
}

// The graph pairs by forward function name: what a call rewritten by a gradient now names.
std::map<std::string, std::shared_ptr<ForwardBackward>>& rewritten_calls() {
  static auto* m = new std::map<std::string, std::shared_ptr<ForwardBackward>>();
  return *m;
}

std::shared_ptr<const FunctionLibrary> library_of(const GraphFunction& fn) {
  auto lib = std::make_shared<FunctionLibrary>(fn.graph->library());
  (*lib)[fn.name] = std::make_shared<GraphFunction>(fn);
  return lib;
}

// The backward function's inputs: the gradients of the seeded outputs (zeros where none came),
// then the forward outputs it captured, `outputs` being the forward call's.
std::vector<Tensor> backward_inputs(const ForwardBackward& fb, const std::vector<Tensor>& grads,
                                    const std::vector<Tensor>& outputs) {
  std::vector<Tensor> in;
  for (size_t i : fb.seeded) {
    const bool given = i < grads.size() && grads[i].defined();
    in.push_back(given ? grads[i] : zeros_like(outputs[i]));
  }
  for (size_t i : fb.captured) in.push_back(outputs[i]);
  return in;
}

std::vector<Tensor> eager_call_grad(const GradOp& op, const std::vector<Tensor>& grads) {
  const std::string& f = std::get<FuncAttr>(op.attrs.at("f")).name;
  std::shared_ptr<ForwardBackward> fb;
  {
    std::lock_guard<std::mutex> l(g_mu);
    auto it = eager_pairs().find(f);
    if (it == eager_pairs().end())
      invalid_argument("[autodiff] no backward function recorded for the call of " + f);
    fb = it->second;
  }
  std::vector<Tensor> out = fb->backward_run->run(backward_inputs(*fb, grads, op.outputs));
  std::vector<Tensor> r(op.inputs.size());
  for (size_t i = 0; i < r.size() && i < fb->grad_of_input.size(); ++i)
    if (fb->grad_of_input[i] >= 0) r[i] = out[static_cast<size_t>(fb->grad_of_input[i])];
  return r;
}

std::vector<Tensor> graph_call_grad(const GradOp& op, const std::vector<Tensor>& grads) {
  auto* outer = dynamic_cast<FuncGraphBuilder*>(current_builder());
  Node* call = op.outputs[0].node();
  std::shared_ptr<Graph> g = op.outputs[0].graph();
  const std::string f = std::get<FuncAttr>(call->attrs.at("f")).name;
  const GraphFunction* fn = g->find_function(f);
  if (!fn || !outer)
    invalid_argument("[autodiff] the called function " + f + " is not in its graph");
  std::shared_ptr<ForwardBackward> cached;
  {
    std::lock_guard<std::mutex> l(g_mu);
    // A call an earlier gradient already rewrote to run a forward function (a persistent tape
    // asked again: the tape recorded fewer outputs than the node has now) keeps that pair.
    // (TF builds a higher-order pair at such a call instead: not modelled.)
    auto rw = rewritten_calls().find(f);
    if (op.outputs.size() < static_cast<size_t>(call->num_outputs()) &&
        rw != rewritten_calls().end())
      cached = rw->second;
    auto it = cached_pairs().find({f, "graph"});
    if (!cached && it != cached_pairs().end()) cached = it->second;
  }
  if (!cached) {
    cached = std::make_shared<ForwardBackward>(build_pair(*fn, "graph"));
    std::lock_guard<std::mutex> l(g_mu);
    cached_pairs().emplace(std::make_pair(f, std::string("graph")), cached);
    rewritten_calls().emplace(cached->forward->name, cached);
  }
  const ForwardBackward& fb = *cached;
  // The delayed rewrite: the call now runs the forward function and outputs the intermediates.
  // The rewrite adds the forward outputs the call lacks (TF's `flat_outputs[len(op.outputs):]`):
  // a second gradient of the same call, from a persistent tape, reuses those the first added.
  const int first = static_cast<int>(fb.n_outputs);
  for (size_t k = static_cast<size_t>(call->num_outputs()); k < fb.forward->outputs.size(); ++k) {
    const Output& o = fb.forward->outputs[k];
    call->output_dtypes.push_back(o.node->output_dtypes[o.index]);
    call->output_shapes.push_back(o.node->output_shapes[o.index]);
  }
  call->attrs["f"] = FuncAttr{fb.forward->name};
  call->attrs["Tout"] = call->output_dtypes;
  g->add_function(fb.forward);
  outer->graph()->add_function(fb.backward);
  if (outer->graph() != g) outer->graph()->add_function(fb.forward);
  std::vector<Tensor> call_outputs = op.outputs;
  call_outputs.resize(fb.n_outputs);
  for (int k = first; k < call->num_outputs(); ++k)
    call_outputs.push_back(tensor_of(g, Output{call, k}));
  std::vector<Tensor> in = backward_inputs(fb, grads, call_outputs);
  AttrMap attrs = call->attrs;
  std::vector<DType> tin, tout;
  for (auto& t : in) tin.push_back(t.dtype());
  for (auto& o : fb.backward->outputs) tout.push_back(o.node->output_dtypes[o.index]);
  attrs["f"] = FuncAttr{fb.backward->name};
  attrs["Tin"] = tin;
  attrs["Tout"] = tout;
  // The backward function reads no resource it is given (its inputs are gradients and values).
  attrs["_read_only_resource_inputs"] = std::vector<int64_t>{};
  // TF's tape calls the backward function outside the gradient's name scope.
  const std::string op_type =
      fb.backward->is_stateful ? "StatefulPartitionedCall" : "PartitionedCall";
  const std::string name = outer->graph()->unique_name(op_type, false) + "/";
  std::vector<Tensor> out = execute(op_type, in, attrs, name);
  std::vector<Tensor> r(op.inputs.size());
  for (size_t i = 0; i < r.size() && i < fb.grad_of_input.size(); ++i)
    if (fb.grad_of_input[i] >= 0) r[i] = out[static_cast<size_t>(fb.grad_of_input[i])];
  return r;
}

std::vector<Tensor> call_grad(const GradOp& op, const std::vector<Tensor>& grads) {
  if (op.outputs.empty()) return std::vector<Tensor>(op.inputs.size());
  return op.outputs[0].is_eager() ? eager_call_grad(op, grads) : graph_call_grad(op, grads);
}

GradientRegistration partitioned_call_reg("PartitionedCall", call_grad);
GradientRegistration stateful_partitioned_call_reg("StatefulPartitionedCall", call_grad);

}  // namespace
}  // namespace tfs::autodiff

namespace tfs::detail {

std::vector<Tensor> call_recorded(const GraphFunction& fn, const OpDef& call_def,
                                  const AttrMap& attrs, std::span<const Tensor> inputs) {
  using namespace autodiff;
  const std::string kind = tape_gradient_order(inputs) > 1 ? "higher-order tape" : "tape";
  std::shared_ptr<ForwardBackward> fb;
  {
    std::lock_guard<std::mutex> l(g_mu);
    auto it = cached_pairs().find({fn.name, kind});
    if (it != cached_pairs().end()) fb = it->second;
  }
  if (!fb) {
    fb = std::make_shared<ForwardBackward>(build_pair(fn, kind));
    fb->forward_run = Executor::for_function(*fb->forward, library_of(fn));
    fb->backward_run = Executor::for_function(*fb->backward, library_of(*fb->backward));
    std::lock_guard<std::mutex> l(g_mu);
    cached_pairs().emplace(std::make_pair(fn.name, kind), fb);
    eager_pairs().emplace(fb->forward->name, fb);
  }
  std::vector<Tensor> outs = fb->forward_run->run(inputs);
  // An argument the forward function hands back as an intermediate is another tensor on the
  // tape (a handle of its own on the same buffer), not the argument itself.
  for (Tensor& o : outs)
    for (const Tensor& in : inputs)
      if (o.id() == in.id()) o = o.reshaped(o.eager_shape());
  AttrMap fwd_attrs = attrs;
  fwd_attrs["f"] = FuncAttr{fb->forward->name};
  if (OpRecorder* rec = Context::get().op_recorder())
    rec->record(call_def, inputs, fwd_attrs, outs);
  outs.resize(fb->n_outputs);
  return outs;
}

}  // namespace tfs::detail

#include "tfscope/control_flow.h"

#include <algorithm>
#include <functional>

#include "tfscope/graph_builder.h"

namespace tfs {

namespace {

FuncGraphBuilder& outer_builder(const char* what) {
  auto* b = dynamic_cast<FuncGraphBuilder*>(current_builder());
  if (!b) invalid_argument(std::string("[graph] ") + what + " needs a function graph to build into");
  return *b;
}

std::string dtype_obj(DType d) { return "<dtype: '" + std::string(dtype_name(d)) + "'>"; }

// A traced body: its builder, the external tensors it captured, and its outputs.
struct Traced {
  std::unique_ptr<FuncGraphBuilder> builder;
  std::vector<Tensor> args;      // placeholders for explicit arguments
  std::vector<Tensor> outputs;   // results, before wrapping
};

// The name of the placeholder a body gets for an external tensor it did not capture itself
// (`index` counts those within the body).
using ExtraArgName = std::function<std::string(size_t body, size_t index, const Tensor& external)>;

// Give every traced body one placeholder per external tensor of the union, in the same order,
// and return that union. A capture already made by a body reuses its placeholder.
std::vector<Tensor> unify_captures(std::vector<Traced*> bodies,
                                   std::vector<std::vector<Node*>>* extra_args,
                                   const ExtraArgName& extra_name) {
  std::vector<Tensor> externals;
  auto same = [](const Tensor& a, const Tensor& b) {
    if (a.dtype() == DType::kResource && b.dtype() == DType::kResource && a.is_eager() && b.is_eager())
      return a.resource_handle() == b.resource_handle();
    return a.id() == b.id();
  };
  for (Traced* t : bodies) {
    for (auto& c : t->builder->captures()) {
      if (c.kind == "const") continue;
      bool seen = false;
      for (auto& e : externals) seen = seen || same(e, c.external);
      if (!seen) externals.push_back(c.external);
    }
  }
  extra_args->assign(bodies.size(), {});
  for (size_t bi = 0; bi < bodies.size(); ++bi) {
    Traced* t = bodies[bi];
    size_t missing = 0;
    for (auto& e : externals) {
      Node* ph = nullptr;
      for (auto& c : t->builder->captures())
        if (c.kind != "const" && same(c.external, e)) ph = c.placeholder;
      if (!ph) {
        BuildScope scope(*t->builder);
        ph = t->builder->add_placeholder(extra_name(bi, missing++, e), e.dtype(), e.shape()).node();
      }
      (*extra_args)[bi].push_back(ph);
    }
  }
  return externals;
}

std::shared_ptr<GraphFunction> make_function(const std::string& name, Traced& t,
                                             std::vector<Node*> args,
                                             const std::vector<Output>& outputs) {
  auto fn = std::make_shared<GraphFunction>();
  fn->name = name;
  fn->graph = t.builder->graph();
  fn->args = std::move(args);
  for (Node* a : fn->args) fn->arg_names.push_back(a->name);
  fn->outputs = outputs;
  for (size_t i = 0; i < outputs.size(); ++i) fn->output_names.push_back(outputs[i].node->name);
  fn->control_outputs = t.builder->stateful_ops();
  fn->is_stateful = t.builder->has_stateful_ops();
  return fn;
}

std::vector<Output> wrap_identities(FuncGraphBuilder& b, const std::vector<Tensor>& outs,
                                    const std::string& scope) {
  BuildScope s(b);
  std::vector<Output> r;
  // Like a tf.function body (TF's func_graph): with stateful ops, a NoOp in the branch's or
  // body's scope ("while/NoOp") depends on them all, made after the output Identities, which
  // then depend on it.
  const std::vector<Node*> stateful = b.stateful_ops();
  for (const Tensor& t : outs) {
    Tensor in = t;
    if (!(t.is_symbolic() && t.graph() == b.graph())) {
      if (t.is_symbolic()) {
        // An outer tensor returned as it is: captured inside the Identity's own scope, as TF
        // converts an op's inputs ("while/cond/Identity/while/placeholder_2").
        b.push_scope(b.graph()->unique_name(scope + "/Identity", false));
        in = b.capture(t, "Const");
        b.pop_scope();
      } else {
        in = b.capture(t, "Const");
      }
    }
    Node* id = b.graph()->add_node("Identity", scope + "/Identity", {Output{in.node(), in.index()}},
                                   {});
    r.push_back(Output{id, 0});
  }
  if (!stateful.empty() && !r.empty()) {
    Node* sink = b.graph()->add_node("NoOp", scope + "/NoOp", {}, {}, stateful);
    for (Output& o : r) o.node->control_inputs.push_back(sink);
  }
  return r;
}

}  // namespace

namespace {

// util.unique_fn_name: a branch or loop function is named after its full name scope with '/' made
// '_' ("while/cond" -> "while_cond_true_7").
std::string fn_name(const std::string& scope, const std::string& label, int64_t uid) {
  std::string n = scope + "_" + label + "_" + std::to_string(uid);
  for (char& c : n) {
    if (c == '/') c = '_';
  }
  return n;
}

}  // namespace

std::vector<Tensor> cond(const Tensor& pred, const BranchFn& true_fn, const BranchFn& false_fn,
                         const std::string& name) {
  if (!pred.is_symbolic() && executing_eagerly()) {
    return static_cast<bool>(pred) ? true_fn() : false_fn();
  }
  FuncGraphBuilder& outer = outer_builder("cond");
  std::string scope = outer.unique_name(name, true);
  int64_t uid = next_uid();
  Traced branches[2];
  const BranchFn* fns[2] = {&true_fn, &false_fn};
  const char* labels[2] = {"true", "false"};
  for (int i = 0; i < 2; ++i) {
    branches[i].builder =
        std::make_unique<FuncGraphBuilder>(fn_name(scope, labels[i], uid + i));
    branches[i].builder->push_scope(scope);
    BuildScope s(*branches[i].builder);
    branches[i].outputs = (*fns[i])();
  }
  const auto &to = branches[0].outputs, &fo = branches[1].outputs;
  bool same = to.size() == fo.size();
  for (size_t i = 0; same && i < to.size(); ++i) same = to[i].dtype() == fo[i].dtype();
  if (!same) {
    auto show = [](const std::vector<Tensor>& v) {
      if (v.size() == 1) return "Tensor(\"cond/Identity:0\", shape=" + v[0].shape().str() + ", dtype=" + std::string(dtype_name(v[0].dtype())) + ")";
      std::string s = "[";
      for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::string("Tensor(\"cond/Identity") + (i ? "_" + std::to_string(i) : "") + ":0\", shape=" + v[i].shape().str() + ", dtype=" + std::string(dtype_name(v[i].dtype())) + ")";
      return s + "]";
    };
    type_error("true_fn and false_fn arguments to tf.cond must have the same number, type, and "
               "overall structure of return values.\n\ntrue_fn output: " + show(to) +
               "\nfalse_fn output: " + show(fo));
  }
  std::vector<Output> outs[2];
  for (int i = 0; i < 2; ++i) outs[i] = wrap_identities(*branches[i].builder, branches[i].outputs, scope);
  std::vector<std::vector<Node*>> args;
  // cond_v2: a branch gets a "<scope>/placeholder" for what only the other branch captured.
  std::vector<Tensor> externals =
      unify_captures({&branches[0], &branches[1]}, &args,
                     [&](size_t, size_t, const Tensor&) { return scope + "/placeholder"; });
  auto tf = make_function(branches[0].builder->graph()->name(), branches[0], args[0], outs[0]);
  auto ff = make_function(branches[1].builder->graph()->name(), branches[1], args[1], outs[1]);
  outer.graph()->add_function(tf);
  outer.graph()->add_function(ff);

  std::vector<DType> tin, tout;
  for (auto& e : externals) tin.push_back(e.dtype());
  std::vector<PartialShape> shapes;
  for (size_t i = 0; i < to.size(); ++i) {
    tout.push_back(to[i].dtype());
    shapes.push_back(to[i].shape().most_specific_common_supertype(fo[i].shape()));
  }
  bool stateful = tf->is_stateful || ff->is_stateful;
  std::vector<Tensor> inputs{pred};
  inputs.insert(inputs.end(), externals.begin(), externals.end());
  // Staged inside the cond's name scope, as cond_v2 does: a tape records it there, and its
  // gradient is built in "gradient_tape/<scope>/".
  outer.push_scope(scope);
  auto results = execute(stateful ? "If" : "StatelessIf", inputs,
                         {{"Tin", tin}, {"Tout", tout}, {"then_branch", FuncAttr{tf->name}},
                          {"else_branch", FuncAttr{ff->name}}, {"output_shapes", shapes}},
                         scope + "/");
  outer.pop_scope();
  std::vector<Tensor> final_outs;
  outer.push_scope(scope);
  for (auto& r : results) final_outs.push_back(identity(r));
  outer.pop_scope();
  return final_outs;
}

std::vector<Tensor> while_loop(const LoopCondFn& cond_fn, const LoopBodyFn& body_fn,
                               const std::vector<Tensor>& loop_vars, int64_t maximum_iterations,
                               const std::string& name,
                               const std::vector<std::optional<PartialShape>>& shape_invariants) {
  bool eager = executing_eagerly();
  for (auto& v : loop_vars) eager = eager && !v.is_symbolic();
  if (eager) {
    std::vector<Tensor> vars = loop_vars;
    for (int64_t it = 0; maximum_iterations < 0 || it < maximum_iterations; ++it) {
      if (!static_cast<bool>(cond_fn(vars))) break;
      vars = body_fn(vars);
    }
    return vars;
  }
  if (!shape_invariants.empty() && shape_invariants.size() != loop_vars.size()) {
    value_error("shape_invariants has " + std::to_string(shape_invariants.size()) +
                " entries for " + std::to_string(loop_vars.size()) + " loop variables");
  }
  // The shape each loop variable has inside the loop and after it.
  std::vector<PartialShape> var_shapes;
  for (size_t i = 0; i < loop_vars.size(); ++i) {
    const bool inv = !shape_invariants.empty() && shape_invariants[i].has_value();
    var_shapes.push_back(inv ? *shape_invariants[i] : loop_vars[i].shape());
  }
  FuncGraphBuilder& outer = outer_builder("while_loop");
  std::string scope = outer.unique_name(name, true);
  int64_t uid = next_uid();
  auto make_args = [&](Traced& t) {
    BuildScope s(*t.builder);
    // Named in the loop's scope, as while_v2 traces them: "while/while_loop_counter",
    // "while/placeholder", "while/placeholder_1".
    const std::string p = scope + "/";
    t.args.push_back(t.builder->add_placeholder(p + scope + "_loop_counter", DType::kInt32, Shape{}));
    t.args.push_back(
        t.builder->add_placeholder(p + scope + "_maximum_iterations", DType::kInt32, Shape{}));
    for (size_t i = 0; i < loop_vars.size(); ++i) {
      t.args.push_back(t.builder->add_placeholder(
          p + (i == 0 ? "placeholder" : "placeholder_" + std::to_string(i)), loop_vars[i].dtype(),
          var_shapes[i]));
    }
  };
  Traced c, b;
  c.builder = std::make_unique<FuncGraphBuilder>(fn_name(scope, "cond", uid));
  b.builder = std::make_unique<FuncGraphBuilder>(fn_name(scope, "body", uid + 1));
  make_args(c);
  make_args(b);
  std::vector<Tensor> user_c(c.args.begin() + 2, c.args.end());
  std::vector<Tensor> user_b(b.args.begin() + 2, b.args.end());
  {
    c.builder->push_scope(scope);
    BuildScope s(*c.builder);
    Tensor r = cond_fn(user_c);
    if (maximum_iterations >= 0) r = logical_and(less(c.args[0], c.args[1]), r);
    c.outputs = {r};
  }
  {
    b.builder->push_scope(scope);
    BuildScope s(*b.builder);
    std::vector<Tensor> next = body_fn(user_b);
    if (next.size() != loop_vars.size()) {
      value_error("The two structures don't have the same number of elements. First structure "
                  "has " + std::to_string(loop_vars.size()) + " elements, second structure has " +
                  std::to_string(next.size()) + " elements.");
    }
    for (size_t i = 0; i < next.size(); ++i) {
      std::string vname = loop_vars[i].is_symbolic() ? loop_vars[i].name() : "Const:0";
      if (next[i].dtype() != loop_vars[i].dtype()) {
        type_error("Loop var " + vname + " enters the loop with type " +
                   dtype_obj(loop_vars[i].dtype()) + " but has type " + dtype_obj(next[i].dtype()) +
                   " after 1 iteration. " + vname + " type should remain constant.");
      }
      if (!next[i].shape().is_subtype_of(var_shapes[i])) {
        value_error("Input tensor `" + vname + "` enters the loop with shape " +
                    var_shapes[i].str() + ", but has shape " + next[i].shape().str() +
                    " after one iteration. To allow the shape to vary across iterations, use the "
                    "`shape_invariants` argument of tf.while_loop to specify a less-specific shape.");
      }
    }
    Tensor counter = add(b.args[0], Value(1));
    b.outputs = {counter, b.args[1]};
    b.outputs.insert(b.outputs.end(), next.begin(), next.end());
  }
  std::vector<std::vector<Node*>> extra;
  // while_v2: the cond gets "<cond>___redundant_placeholder<i>" for the body's captures, the body
  // a placeholder named after each tensor only the cond captured ("while/strided_slice").
  std::vector<Tensor> externals = unify_captures(
      {&c, &b}, &extra, [&](size_t body, size_t index, const Tensor& e) {
        if (body == 0) {
          return scope + "/" + c.builder->graph()->name() + "___redundant_placeholder" +
                 std::to_string(index);
        }
        return scope + "/" + (e.is_symbolic() ? e.node()->name : std::string("placeholder"));
      });
  auto c_outs = wrap_identities(*c.builder, c.outputs, scope);
  auto b_outs = wrap_identities(*b.builder, b.outputs, scope);
  // The body passes captured tensors through unchanged: TF appends the body's internal captures
  // to its outputs after the body graph is built, so they get no Identity.
  for (Node* ph : extra[1]) b_outs.push_back(Output{ph, 0});
  auto to_nodes = [](const std::vector<Tensor>& ts) {
    std::vector<Node*> n;
    for (auto& t : ts) n.push_back(t.node());
    return n;
  };
  std::vector<Node*> c_args = to_nodes(c.args), b_args = to_nodes(b.args);
  c_args.insert(c_args.end(), extra[0].begin(), extra[0].end());
  b_args.insert(b_args.end(), extra[1].begin(), extra[1].end());
  auto cf = make_function(c.builder->graph()->name(), c, c_args, c_outs);
  auto bf = make_function(b.builder->graph()->name(), b, b_args, b_outs);
  outer.graph()->add_function(cf);
  outer.graph()->add_function(bf);

  outer.push_scope(scope);
  Tensor max_it = convert_to_tensor(Value(maximum_iterations), DType::kInt32, "maximum_iterations");
  Tensor counter0 = convert_to_tensor(Value(0), DType::kInt32, "loop_counter");
  outer.pop_scope();
  std::vector<Tensor> inputs{counter0, max_it};
  inputs.insert(inputs.end(), loop_vars.begin(), loop_vars.end());
  inputs.insert(inputs.end(), externals.begin(), externals.end());
  std::vector<DType> types;
  std::vector<PartialShape> shapes;
  for (auto& t : inputs) {
    types.push_back(t.dtype());
    shapes.push_back(t.shape());
  }
  for (size_t i = 0; i < var_shapes.size(); ++i) shapes[2 + i] = var_shapes[i];
  bool stateful = cf->is_stateful || bf->is_stateful;
  outer.push_scope(scope);
  auto results = execute(stateful ? "While" : "StatelessWhile", inputs,
                         {{"T", types}, {"cond", FuncAttr{cf->name}}, {"body", FuncAttr{bf->name}},
                          {"output_shapes", shapes}, {"parallel_iterations", int64_t{10}}},
                         scope + "/");
  outer.pop_scope();
  std::vector<Tensor> out;
  // TF 2.21's while_v2 hands the While outputs on directly (no Identity after the op; checked
  // against the oracle's graphs), unlike cond_v2's cond/Identity.
  for (size_t i = 0; i < loop_vars.size(); ++i) out.push_back(results[2 + i]);
  return out;
}

}  // namespace tfs

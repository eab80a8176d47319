// The computations tf2xla builds around a lowered function body. The entry: a parameter per
// argument, each reshaped to itself, and the results reshaped under XLA_Retvals and returned as a
// tuple (unwrapped by get-tuple-element when there is one result). A called function (an If
// branch, a While body or condition): one tuple parameter taken apart by get-tuple-element, the
// results reshaped and returned as a tuple.
#include "tfscope/hlo.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "lower.h"
#include "tfscope/errors.h"

namespace tfs::hlo {

using namespace detail;

namespace {

// XLA's name for a computation made from a TF function: the function name with its (empty) attr
// list, "[]" (sanitized to "__").
std::string computation_name(const std::string& function_name) {
  return sanitized_name(function_name + "[]");
}

[[noreturn]] void unsupported(const GraphFunction& fn, const Node& n) {
  const std::string graph = fn.name + "[]";
  throw Error(
      ErrorKind::kValueError,
      "Failed getting HLO text: 'Detected unsupported operations when trying to compile "
      "graph " +
          graph + " on XLA_CPU_JIT: " + n.op() + " (No registered '" + n.op() +
          "' OpKernel for XLA_CPU_JIT devices compatible with node {{node " + n.name +
          "}}){{node " + n.name + "}}\n\ttf2xla conversion failed while converting " + graph +
          ". Run with TF_DUMP_GRAPH_PREFIX=/path/to/dump/dir and --vmodule=xla_compiler=2 to "
          "obtain a dump of the compiled functions.'");
}

// The order tf2xla runs a graph's nodes in: the reverse post order of a depth-first walk from the
// source (whose successors are the nodes without inputs), successors stacked in name order.
std::vector<const Node*> execution_order(const Graph& g) {
  std::map<const Node*, std::vector<const Node*>> out;
  std::vector<const Node*> starts;
  for (auto& n : g.nodes()) {
    for (const Output& in : n->inputs) out[in.node].push_back(n.get());
    for (const Node* c : n->control_inputs) out[c].push_back(n.get());
    if (n->inputs.empty() && n->control_inputs.empty()) starts.push_back(n.get());
  }
  auto by_name = [](const Node* a, const Node* b) { return a->name < b->name; };
  struct Work {
    const Node* node;
    bool leave;
  };
  std::vector<Work> stack;
  auto push_sorted = [&](std::vector<const Node*> nodes, const std::set<const Node*>& visited) {
    std::sort(nodes.begin(), nodes.end(), by_name);
    for (const Node* n : nodes)
      if (!visited.count(n)) stack.push_back({n, false});
  };
  std::set<const Node*> visited;
  std::vector<const Node*> post;
  push_sorted(starts, visited);
  while (!stack.empty()) {
    Work w = stack.back();
    stack.pop_back();
    if (w.leave) {
      post.push_back(w.node);
      continue;
    }
    if (!visited.insert(w.node).second) continue;
    stack.push_back({w.node, true});
    push_sorted(out[w.node], visited);
  }
  return {post.rbegin(), post.rend()};
}

// The read of a captured variable, which gives the variable's value type and shape.
const Node* variable_read(const Graph& g, const Node& handle) {
  for (auto& n : g.nodes())
    if (n->op() == "ReadVariableOp" && n->inputs.at(0).node == &handle) return n.get();
  throw Error(ErrorKind::kNotImplemented, "[hlo] variable " + handle.name +
                                              " is used but not read; only variable reads are "
                                              "lowered to HLO so far");
}

// Lowers the nodes of `fn` other than its arguments, in tf2xla's order.
void lower_nodes(Lowering& l, const GraphFunction& fn) {
  for (const Node* n : execution_order(*fn.graph))
    if (std::find(fn.args.begin(), fn.args.end(), n) == fn.args.end()) l.lower(*n);
}

// The results reshaped under XLA_Retvals and tupled. A constant result is materialized with no
// metadata (XlaCompiler's BuildComputation makes it outside any node). `pinned` gives results that
// are given instructions rather than the lowered outputs (a While body's passthrough arguments).
Instr* results_tuple(Lowering& l, const GraphFunction& fn, const std::map<size_t, Instr*>& pinned,
                     std::vector<HloShape>& shapes) {
  std::vector<Instr*> results;
  for (size_t k = 0; k < fn.outputs.size(); ++k) {
    const Output& out = fn.outputs[k];
    auto p = pinned.find(k);
    Instr* v = p != pinned.end() ? p->second : l.operand(l.get(out));
    l.base = "XLA_Retvals";
    l.meta = l.options().metadata ? "op_name=\"XLA_Retvals\"" : "";
    HloShape s =
        HloShape::array(out.node->output_dtypes[static_cast<size_t>(out.index)], v->shape.dims);
    results.push_back(l.emit("reshape", s, {v}));
    shapes.push_back(s);
    l.base.clear();
    l.meta.clear();
  }
  l.base = "XLA_Retvals";
  l.meta = l.options().metadata ? "op_name=\"XLA_Retvals\"" : "";
  return l.emit("tuple", HloShape::tuple(shapes), results);
}

}  // namespace

namespace detail {

Computation* lower_function(Lowering& caller, const GraphFunction& fn, const std::string& suffix,
                            const FunctionCall& call) {
  Module& module = caller.module();
  Computation* c = module.add_computation(computation_name(fn.name + suffix));
  Lowering l(module, *c, caller.options(), fn, &caller);
  if (call.args.size() != fn.args.size())
    throw Error(ErrorKind::kInternal, "[hlo] " + fn.name + " takes " +
                                          std::to_string(fn.args.size()) + " arguments, given " +
                                          std::to_string(call.args.size()));
  std::vector<HloShape> arg_shapes;
  for (const XlaValue& v : call.args) arg_shapes.push_back(HloShape::array(v.dtype, v.dims));
  Instr p;
  p.base = "arg_tuple";
  p.opcode = "parameter";
  p.shape = HloShape::tuple(arg_shapes);
  p.literal = "0";
  if (caller.options().metadata) p.metadata = "op_name=\"XLA_Args\"";
  Instr* tuple = c->add(std::move(p));
  std::map<size_t, Instr*> pinned;
  for (size_t k = 0; k < fn.args.size(); ++k) {
    if (fn.args[k]->output_dtypes[0] == DType::kResource)
      throw Error(ErrorKind::kNotImplemented,
                  "[hlo] variables used inside tf.cond or tf.while_loop are not lowered to HLO "
                  "yet (" +
                      fn.name + ")");
    Instr* g = l.emit("get-tuple-element", arg_shapes[k], {tuple}, ", index=" + std::to_string(k));
    g->metadata.clear();
    const XlaValue& v = call.args[k];
    auto constant = call.constants.find(k);
    if (constant != call.constants.end()) {
      const Tensor* t = constant->second;
      l.set({fn.args[k], 0}, {nullptr, t, t->dtype(), t->eager_shape().dims()});
      if (call.passthrough) pinned[k] = g;
    } else {
      l.set({fn.args[k], 0}, {g, nullptr, v.dtype, v.dims});
    }
  }
  lower_nodes(l, fn);
  std::vector<HloShape> shapes;
  results_tuple(l, fn, pinned, shapes);
  return c;
}

}  // namespace detail

std::string module_text(const GraphFunction& fn, const LowerOptions& options) {
  for (auto& n : fn.graph->nodes())
    if (!xla_has_kernel(*n)) unsupported(fn, *n);
  Module module;
  Computation* entry = module.add_computation(computation_name(fn.name));
  Lowering l(module, *entry, options, fn);
  const std::string args_meta = "op_name=\"XLA_Args\"";
  for (size_t k = 0; k < fn.args.size(); ++k) {
    Node* arg = fn.args[k];
    // A captured variable is a parameter of its value's type and shape, used as it is.
    const bool resource = arg->output_dtypes[0] == DType::kResource;
    const Node* value = resource ? variable_read(*fn.graph, *arg) : arg;
    const DType dt = value->output_dtypes[0];
    Instr p;
    p.base = "arg" + std::to_string(k);
    p.opcode = "parameter";
    p.shape = HloShape::array(dt, static_dims(*value));
    p.literal = std::to_string(k);
    p.attrs = ", parameter_replication={false}";
    if (options.metadata) p.metadata = args_meta;
    Instr* param = entry->add(std::move(p));
    Instr* r = resource ? param : l.emit("reshape", param->shape, {param});
    l.set({arg, 0}, {r, nullptr, dt, param->shape.dims});
  }
  lower_nodes(l, fn);
  std::vector<HloShape> shapes;
  Instr* tuple = results_tuple(l, fn, {}, shapes);
  if (shapes.size() == 1) l.emit("get-tuple-element", shapes[0], {tuple}, ", index=0");
  return module.str();
}

std::string compiler_ir(const GraphFunction& fn, std::string_view stage) {
  if (stage == "hlo") return module_text(fn, {});
  if (stage == "hlo_no_metadata") return module_text(fn, {.metadata = false});
  // TF produces these from XLA itself: the serialized HloModuleProto, or the module after the
  // CPU compiler's pass pipeline (fusion, copy insertion, scheduling, backend configs), which
  // tfscope does not reproduce faithfully. They get TF's own error for a stage it does not
  // accept, listing the stages tfscope accepts; any other name gets TF's text verbatim.
  const bool tf_only = stage == "optimized_hlo" || stage == "optimized_hlo_serialized" ||
                       stage == "optimized_hlo_dot" || stage == "hlo_serialized";
  throw Error(ErrorKind::kValueError,
              "Invalid stage selected: '" + std::string(stage) + "'. Valid values are: " +
                  (tf_only ? "'hlo', 'hlo_no_metadata'"
                           : "'hlo', 'hlo_serialized', 'optimized_hlo', "
                             "'optimized_hlo_serialized', 'optimized_hlo_dot'"));
}

}  // namespace tfs::hlo

#include "tfscope/passes.h"

#include <map>
#include <set>
#include <sstream>

namespace tfs {

namespace {

void replace_uses(GraphFunction& fn, const Node* from, Node* to) {
  for (auto& n : fn.graph->nodes()) {
    for (auto& in : n->inputs)
      if (in.node == from) in.node = to;
    for (auto& c : n->control_inputs)
      if (c == from) c = to;
  }
  for (auto& o : fn.outputs)
    if (o.node == from) o.node = to;
  for (auto& c : fn.control_outputs)
    if (c == from) c = to;
}

bool foldable(const Node& n) {
  if (!is_foldable_op(n)) return false;
  for (auto& in : n.inputs)
    if (in.node->op() != "Const") return false;
  return true;
}

std::string tensor_key(const Tensor& t) {
  std::string k = std::to_string(static_cast<int>(t.dtype())) + t.shape().str();
  if (t.dtype() == DType::kString) {
    for (auto& s : t.string_values()) k += "|" + s;
  } else if (t.raw_data()) {
    k.append(static_cast<const char*>(t.raw_data()), t.nbytes());
  }
  return k;
}

}  // namespace

int dead_code_elimination(GraphFunction& fn) {
  std::set<const Node*> keep;
  std::vector<const Node*> stack(fn.args.begin(), fn.args.end());
  for (auto& o : fn.outputs) stack.push_back(o.node);
  for (Node* c : fn.control_outputs) stack.push_back(c);
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (!keep.insert(n).second) continue;
    for (auto& in : n->inputs) stack.push_back(in.node);
    for (Node* c : n->control_inputs) stack.push_back(c);
  }
  int before = fn.graph->num_nodes();
  fn.graph->remove_nodes_except(keep);
  return before - fn.graph->num_nodes();
}

bool is_foldable_op(const Node& n) {
  if (n.def->stateful || n.inputs.empty() || !n.control_inputs.empty()) return false;
  const std::string& op = n.op();
  if (op == "Const" || op == "Placeholder" || op == "Identity" || op == "IdentityN") return false;
  return op.find("If") == std::string::npos && op.find("While") == std::string::npos &&
         op.find("Call") == std::string::npos;
}

int constant_folding(GraphFunction& fn) {
  int folded = 0;
  // Snapshot: folding adds Const nodes at the end, which need no visit.
  std::vector<Node*> order;
  for (auto& n : fn.graph->nodes()) order.push_back(n.get());
  for (Node* n : order) {
    if (!foldable(*n)) continue;
    std::vector<Tensor> inputs;
    for (auto& in : n->inputs) inputs.push_back(std::get<Tensor>(in.node->attrs.at("value")));
    std::vector<Tensor> outs;
    try {
      outs = run_kernel(*n->def, inputs, n->attrs, nullptr, n->name);
    } catch (const Error&) {
      continue;  // leave it to fail at run time, as TF's folding does
    }
    for (size_t i = 0; i < outs.size(); ++i) {
      Node* c = fn.graph->add_node("Const", n->name + "/folded", {},
                                   {{"value", outs[i]}, {"dtype", outs[i].dtype()}});
      for (auto& m : fn.graph->nodes()) {
        for (auto& in : m->inputs)
          if (in.node == n && in.index == static_cast<int>(i)) in = Output{c, 0};
      }
      for (auto& o : fn.outputs)
        if (o.node == n && o.index == static_cast<int>(i)) o = Output{c, 0};
    }
    ++folded;
  }
  if (folded) dead_code_elimination(fn);
  return folded;
}

int common_subexpression_elimination(GraphFunction& fn) {
  std::map<std::string, Node*> seen;
  std::set<const Node*> args(fn.args.begin(), fn.args.end());
  int merged = 0;
  for (auto& up : fn.graph->nodes()) {
    Node* n = up.get();
    if (n->def->stateful || args.count(n) || n->op() == "Placeholder") continue;
    std::ostringstream key;
    key << n->op() << '(';
    for (auto& in : n->inputs) key << in.node->id << ':' << in.index << ',';
    key << ")^";
    for (Node* c : n->control_inputs) key << c->id << ',';
    for (auto& [k, v] : n->attrs) {
      key << k << '=';
      if (auto* t = std::get_if<Tensor>(&v))
        key << tensor_key(*t);
      else
        key << attr_summary(v);
      key << ';';
    }
    auto [it, inserted] = seen.emplace(key.str(), n);
    if (!inserted) {
      replace_uses(fn, n, it->second);
      ++merged;
    }
  }
  if (merged) dead_code_elimination(fn);
  return merged;
}

void optimize(GraphFunction& fn) {
  for (int round = 0; round < 8; ++round) {
    int changed = dead_code_elimination(fn);
    changed += constant_folding(fn);
    changed += common_subexpression_elimination(fn);
    if (!changed) break;
  }
}

}  // namespace tfs

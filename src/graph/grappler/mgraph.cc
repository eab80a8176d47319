#include "mgraph.h"

#include <algorithm>
#include <functional>

namespace tfs::grappler {

MGraph::MGraph(const Graph& g, const std::vector<Node*>& feeds_in,
               const std::vector<Output>& fetches_in, const std::vector<Node*>& targets_in) {
  std::map<const Node*, int> index;
  for (auto& up : g.nodes()) {
    const Node* n = up.get();
    index[n] = static_cast<int>(nodes.size());
    MNode m;
    m.name = n->name;
    m.def = n->def;
    m.attrs = n->attrs;
    m.dtypes = n->output_dtypes;
    m.shapes = n->output_shapes;
    m.origin = n;
    nodes.push_back(std::move(m));
  }
  for (auto& up : g.nodes()) {
    MNode& m = at(index.at(up.get()));
    for (auto& in : up->inputs) m.inputs.push_back({index.at(in.node), in.index});
    for (Node* c : up->control_inputs) m.controls.push_back(index.at(c));
  }
  for (Node* f : feeds_in) {
    feeds.push_back(index.at(f));
    at(index.at(f)).fed = true;
  }
  for (auto& f : fetches_in) fetches.push_back({index.at(f.node), f.index});
  for (Node* t : targets_in) targets.push_back(index.at(t));
  reindex();
}

void MGraph::reindex() {
  by_name_.clear();
  for (size_t i = 0; i < nodes.size(); ++i) by_name_[nodes[i].name] = static_cast<int>(i);
}

int MGraph::find(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? -1 : it->second;
}

int MGraph::add(MNode n) {
  int i = static_cast<int>(nodes.size());
  by_name_[n.name] = i;
  nodes.push_back(std::move(n));
  changed = true;
  return i;
}

int MGraph::num_data_consumers(int node) const {
  int count = 0;
  for (auto& n : nodes)
    for (auto& in : n.inputs)
      if (in.node == node) ++count;
  for (auto& f : fetches)
    if (f.node == node) ++count;
  return count;
}

std::vector<int> MGraph::consumers_by_name(int node) const {
  std::vector<int> out;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const MNode& n = nodes[i];
    bool uses = std::any_of(n.inputs.begin(), n.inputs.end(),
                            [&](const Ref& r) { return r.node == node; }) ||
                std::find(n.controls.begin(), n.controls.end(), node) != n.controls.end();
    if (uses) out.push_back(static_cast<int>(i));
  }
  std::sort(out.begin(), out.end(), [&](int a, int b) { return at(a).name < at(b).name; });
  return out;
}

bool MGraph::drives_control(int node) const {
  for (auto& n : nodes)
    if (std::find(n.controls.begin(), n.controls.end(), node) != n.controls.end()) return true;
  return std::find(targets.begin(), targets.end(), node) != targets.end();
}

void MGraph::replace_uses(Ref from, Ref to) {
  for (auto& n : nodes) {
    for (auto& in : n.inputs)
      if (in == from) in = to;
    for (auto& c : n.controls)
      if (c == from.node) c = to.node;
  }
  for (auto& f : fetches)
    if (f == from) f = to;
  changed = true;
}

void MGraph::prune_unreachable() {
  std::vector<char> keep(nodes.size(), 0);
  std::vector<int> stack;
  for (auto& f : fetches) stack.push_back(f.node);
  for (int t : targets) stack.push_back(t);
  while (!stack.empty()) {
    int n = stack.back();
    stack.pop_back();
    if (keep[static_cast<size_t>(n)]) continue;
    keep[static_cast<size_t>(n)] = 1;
    for (auto& in : at(n).inputs) stack.push_back(in.node);
    for (int c : at(n).controls) stack.push_back(c);
  }
  for (int f : feeds) keep[static_cast<size_t>(f)] = 1;
  std::vector<int> renumber(nodes.size(), -1);
  std::vector<MNode> kept;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!keep[i]) continue;
    renumber[i] = static_cast<int>(kept.size());
    kept.push_back(std::move(nodes[i]));
  }
  if (kept.size() != nodes.size()) changed = true;
  nodes = std::move(kept);
  for (auto& n : nodes) {
    for (auto& in : n.inputs) in.node = renumber[static_cast<size_t>(in.node)];
    std::vector<int> controls;
    for (int c : n.controls)
      if (renumber[static_cast<size_t>(c)] >= 0)
        controls.push_back(renumber[static_cast<size_t>(c)]);
    n.controls = std::move(controls);
  }
  for (auto& f : fetches) f.node = renumber[static_cast<size_t>(f.node)];
  for (auto& t : targets) t = renumber[static_cast<size_t>(t)];
  for (auto& f : feeds) f = renumber[static_cast<size_t>(f)];
  reindex();
}

Item MGraph::emit(const Graph& source) const {
  auto g = std::make_shared<Graph>(source.name());
  for (auto& [name, fn] : source.library()) g->add_function(fn);
  std::vector<Node*> made(nodes.size(), nullptr);
  // Inputs before consumers; otherwise in index order (the traced order, new nodes last).
  std::function<Node*(int)> make = [&](int i) -> Node* {
    if (made[static_cast<size_t>(i)]) return made[static_cast<size_t>(i)];
    const MNode& m = at(i);
    std::vector<Output> inputs;
    for (auto& in : m.inputs) inputs.push_back({make(in.node), in.index});
    std::vector<Node*> controls;
    for (int c : m.controls) controls.push_back(make(c));
    Node* n = g->add_node_raw(*m.def, m.name, std::move(inputs), m.attrs, m.dtypes, m.shapes);
    n->control_inputs = std::move(controls);
    made[static_cast<size_t>(i)] = n;
    return n;
  };
  for (size_t i = 0; i < nodes.size(); ++i) make(static_cast<int>(i));
  Item item;
  item.graph = g;
  for (int f : feeds) item.feeds.push_back(made[static_cast<size_t>(f)]);
  for (auto& f : fetches) item.fetches.push_back({made[static_cast<size_t>(f.node)], f.index});
  for (int t : targets) item.targets.push_back(made[static_cast<size_t>(t)]);
  return item;
}

std::string optimized_node_name(const std::string& node_name, const std::string& optimizer,
                                const std::string& stage, const std::string& rule) {
  auto slash = node_name.rfind('/');
  std::string scope = slash == std::string::npos ? "" : node_name.substr(0, slash + 1);
  std::string base = slash == std::string::npos ? node_name : node_name.substr(slash + 1);
  std::string prefix = stage + (rule.empty() ? "" : "_" + rule);
  return scope + optimizer + "/" + prefix + "_" + base;
}

bool is_constant(const MGraph& g, int n) {
  return g.at(n).op() == "Const" && !g.at(n).fed;
}

const Tensor& const_value(const MGraph& g, int n) {
  return std::get<Tensor>(g.at(n).attrs.at("value"));
}

bool const_all_equal(const MGraph& g, int n, double* value) {
  if (!is_constant(g, n)) return false;
  const Tensor& t = const_value(g, n);
  if (!t.defined() || t.num_elements() == 0) return false;
  auto element = [&](int64_t i, double* out) {
    switch (t.dtype()) {
      case DType::kFloat32:
        *out = t.data<float>()[i];
        return true;
      case DType::kFloat64:
        *out = t.data<double>()[i];
        return true;
      case DType::kInt32:
        *out = t.data<int32_t>()[i];
        return true;
      case DType::kInt64:
        *out = static_cast<double>(t.data<int64_t>()[i]);
        return true;
      default:
        return false;
    }
  };
  double first = 0;
  if (!element(0, &first)) return false;
  for (int64_t i = 1; i < t.num_elements(); ++i) {
    double v = 0;
    if (!element(i, &v) || v != first) return false;
  }
  *value = first;
  return true;
}

bool is_commutative(const std::string& op) {
  static const std::set<std::string> ops = {"Add",        "AddV2",
                                            "AddN",       "Mul",
                                            "Maximum",    "Minimum",
                                            "Equal",      "NotEqual",
                                            "LogicalAnd", "LogicalOr",
                                            "BitwiseAnd", "BitwiseOr",
                                            "BitwiseXor", "SquaredDifference",
                                            "MulNoNan"};
  return ops.count(op) > 0;
}

bool is_float_type(DType t) {
  return t == DType::kFloat32 || t == DType::kFloat64;
}

bool same_known_shape(const PartialShape& a, const PartialShape& b) {
  return a.is_fully_defined() && b.is_fully_defined() && a.dims() == b.dims();
}

bool broadcast_shape(const PartialShape& a, const PartialShape& b, PartialShape* out) {
  if (!a.has_rank() || !b.has_rank()) return false;
  size_t r = std::max(a.dims().size(), b.dims().size());
  std::vector<int64_t> dims(r, 1);
  for (size_t i = 0; i < r; ++i) {
    int64_t da = i < r - a.dims().size() ? 1 : a.dims()[i - (r - a.dims().size())];
    int64_t db = i < r - b.dims().size() ? 1 : b.dims()[i - (r - b.dims().size())];
    if (da < 0 || db < 0) return false;
    if (da != db && da != 1 && db != 1) return false;
    dims[i] = da == 1 ? db : da;
  }
  *out = PartialShape(dims);
  return true;
}

}  // namespace tfs::grappler

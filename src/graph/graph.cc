#include "tfscope/graph.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <optional>

#include "tfscope/ops.h"

namespace tfs {

int64_t next_uid() {
  static std::atomic<int64_t> uid{1};
  return uid++;
}

namespace {
std::string describe_graph_of(const Tensor& t) {
  return t.is_symbolic() && t.graph() ? t.graph()->repr() : "a graph";
}
}  // namespace

Graph::Graph(std::string name) : name_(std::move(name)) {
  static const bool registered = [] {
    set_graph_describer(&describe_graph_of);
    return true;
  }();
  (void)registered;
}

std::string Graph::repr() const {
  return "FuncGraph(name=" + name_ + ", id=" + std::to_string(reinterpret_cast<uintptr_t>(this)) +
         ")";
}

bool Graph::is_within(const Graph& other) const {
  std::shared_ptr<Graph> hold;
  for (const Graph* g = this; g; hold = g->outer_graph(), g = hold.get())
    if (g == &other) return true;
  return false;
}

std::string Node::summary() const {
  std::string s = "{{node " + name + "}} = " + op() + "[";
  bool first = true;
  for (auto& [k, v] : attrs) {
    if (!k.empty() && k[0] == '_') continue;
    if (std::holds_alternative<std::monostate>(v)) continue;
    s += (first ? "" : ", ") + k + "=" + attr_summary(v);
    first = false;
  }
  s += "](";
  for (size_t i = 0; i < inputs.size(); ++i) {
    s += i ? ", " : "";
    s += inputs[i].node->name;
    if (inputs[i].index) s += ":" + std::to_string(inputs[i].index);
  }
  return s + ")";
}

namespace {
std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

std::string Graph::unique_name(const std::string& name, bool mark_used) {
  // TF's Graph.unique_name: case-insensitive, "_N" suffixes.
  std::string key = lower(name);
  int i = name_counts_.count(key) ? name_counts_[key] : 0;
  if (mark_used) name_counts_[key] = i + 1;
  std::string out = name;
  if (i > 0) {
    std::string base = key;
    std::string k = key;
    while (name_counts_.count(k) || used_names_.count(k)) {
      k = base + "_" + std::to_string(i);
      ++i;
    }
    if (mark_used) name_counts_[k] = 1;
    out = name + "_" + std::to_string(i - 1);
  }
  if (mark_used) used_names_.insert(lower(out));
  return out;
}

Node* Graph::add_node(const std::string& op, const std::string& name, std::vector<Output> inputs,
                      AttrMap attrs, std::vector<Node*> control_inputs) {
  const OpDef& def = OpRegistry::global().get(op);
  std::vector<DType> in_dtypes;
  in_dtypes.reserve(inputs.size());
  for (auto& o : inputs) in_dtypes.push_back(o.node->output_dtypes[static_cast<size_t>(o.index)]);
  std::vector<DType> out_dtypes = resolve_output_dtypes(def, in_dtypes, attrs, /*eager=*/false);

  std::string exact;
  if (!name.empty() && name.back() == '/') {
    exact = name.substr(0, name.size() - 1);
    used_names_.insert(lower(exact));
  } else {
    exact = unique_name(name.empty() ? op : name);
  }

  auto node = std::make_unique<Node>();
  node->id = next_id_++;
  node->name = exact;
  node->def = &def;
  node->attrs = std::move(attrs);
  node->inputs = std::move(inputs);
  node->control_inputs = std::move(control_inputs);
  node->output_dtypes = out_dtypes;

  std::vector<PartialShape> in_shapes;
  in_shapes.reserve(node->inputs.size());
  for (auto& o : node->inputs)
    in_shapes.push_back(o.node->output_shapes[static_cast<size_t>(o.index)]);
  node->output_shapes = infer_node_shapes(*node, in_shapes);
  nodes_.push_back(std::move(node));
  return nodes_.back().get();
}

std::vector<PartialShape> infer_node_shapes(const Node& node,
                                            const std::vector<PartialShape>& input_shapes) {
  InferenceContext ctx;
  ctx.attrs = &node.attrs;
  ctx.output_dtypes = node.output_dtypes;
  std::vector<std::optional<Tensor>> shape_values(node.inputs.size());
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    const Output& o = node.inputs[i];
    ctx.input_dtypes.push_back(o.node->output_dtypes[static_cast<size_t>(o.index)]);
    ctx.input_shapes.push_back(input_shapes[i]);
    const Tensor* v = nullptr;
    if (o.node->op() == "Const") v = &std::get<Tensor>(o.node->attrs.at("value"));
    ctx.input_values.push_back(v);
    if (!v) shape_values[i] = constant_partial_shape(o);
  }
  for (auto& sv : shape_values) ctx.input_shape_values.push_back(sv ? &*sv : nullptr);
  ctx.node_summary = node.summary();
  infer_shapes(*node.def, ctx);
  return std::move(ctx.output_shapes);
}

Node* Graph::add_node_raw(const OpDef& def, const std::string& exact_name,
                          std::vector<Output> inputs, AttrMap attrs,
                          std::vector<DType> out_dtypes, std::vector<PartialShape> out_shapes) {
  used_names_.insert(lower(exact_name));
  auto node = std::make_unique<Node>();
  node->id = next_id_++;
  node->name = exact_name;
  node->def = &def;
  node->attrs = std::move(attrs);
  node->inputs = std::move(inputs);
  node->output_dtypes = std::move(out_dtypes);
  node->output_shapes = std::move(out_shapes);
  nodes_.push_back(std::move(node));
  return nodes_.back().get();
}

Node* Graph::find_node(const std::string& name) const {
  for (auto& n : nodes_)
    if (n->name == name) return n.get();
  return nullptr;
}

void Graph::remove_nodes_except(const std::set<const Node*>& keep) {
  std::vector<std::unique_ptr<Node>> kept;
  for (auto& n : nodes_) {
    if (keep.count(n.get())) kept.push_back(std::move(n));
  }
  nodes_ = std::move(kept);
  for (auto& n : nodes_) {
    auto& ci = n->control_inputs;
    ci.erase(std::remove_if(ci.begin(), ci.end(), [&](Node* c) { return !keep.count(c); }),
             ci.end());
  }
}

Tensor Graph::tensor(Node* node, int index) {
  return Tensor::symbolic(shared_from_this(), node, index,
                          node->output_dtypes[static_cast<size_t>(index)],
                          node->output_shapes[static_cast<size_t>(index)], node->name);
}

void Graph::add_function(std::shared_ptr<const GraphFunction> fn) {
  // A function brings the functions it calls along with it.
  for (auto& [n, f] : fn->graph->library()) library_.emplace(n, f);
  library_[fn->name] = std::move(fn);
}

const GraphFunction* Graph::find_function(const std::string& name) const {
  auto it = library_.find(name);
  return it == library_.end() ? nullptr : it->second.get();
}

std::map<std::string, int> Graph::op_counts() const {
  std::map<std::string, int> counts;
  for (auto& n : nodes_) counts[n->op()]++;
  return counts;
}

std::vector<DType> GraphFunction::arg_dtypes() const {
  std::vector<DType> d;
  for (Node* n : args) d.push_back(n->output_dtypes[0]);
  return d;
}

std::vector<DType> GraphFunction::output_dtypes() const {
  std::vector<DType> d;
  for (auto& o : outputs) d.push_back(o.node->output_dtypes[static_cast<size_t>(o.index)]);
  return d;
}

std::vector<PartialShape> GraphFunction::output_shapes() const {
  std::vector<PartialShape> d;
  for (auto& o : outputs) d.push_back(o.node->output_shapes[static_cast<size_t>(o.index)]);
  return d;
}

}  // namespace tfs

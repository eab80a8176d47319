#include "passes.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <type_traits>

#include "shapes.h"
#include "tfscope/cpu_info.h"
#include "tfscope/errors.h"

namespace tfs::grappler {

const OpDef& op_def(const std::string& name) {
  return OpRegistry::global().get(name);
}

void set_op(MGraph& g, int n, const std::string& op) {
  MNode& m = g.at(n);
  const OpDef* def = OpRegistry::global().find(op);
  if (!def && op == "Div") def = OpRegistry::global().find("RealDiv");
  if (!def) def = &op_def(op);  // throws TF's "Op type not registered"
  m.def = def;
  m.tf_op = def->name == op ? "" : op;
  g.changed = true;
}

void make_const(MGraph& g, int n, const Tensor& value) {
  g.at(n).tf_op.clear();
  MNode& m = g.at(n);
  m.def = &op_def("Const");
  m.attrs = {{"value", value}, {"dtype", value.dtype()}};
  m.inputs.clear();
  // The value's shape: a node ConstantPushDown rewired may have held a broadcast shape.
  m.dtypes = {value.dtype()};
  m.shapes = {PartialShape(value.shape())};
  g.changed = true;
}

namespace {

bool stateless(const MNode& m) {
  return !m.def->stateful && !m.def->keeps_state;
}

// Ops whose value is not a function of their inputs alone, or that the passes must not touch.
bool structural(const std::string& op) {
  return op == "Placeholder" || op == "Const" || op.find("If") != std::string::npos ||
         op.find("While") != std::string::npos || op.find("Call") != std::string::npos ||
         op == "NoOp" || op == "PlaceholderWithDefault";
}

bool tensors_equal(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || !(a.shape() == b.shape())) return false;
  if (a.dtype() == DType::kString) return a.string_values() == b.string_values();
  if (a.nbytes() != b.nbytes()) return false;
  return a.nbytes() == 0 || std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0;
}

bool attrs_equal(const AttrMap& a, const AttrMap& b) {
  if (a.size() != b.size()) return false;
  for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib) {
    if (ia->first != ib->first || ia->second.index() != ib->second.index()) return false;
    const bool same = std::visit(
        [&](const auto& x) {
          using T = std::decay_t<decltype(x)>;
          const T& y = std::get<T>(ib->second);
          if constexpr (std::is_same_v<T, Tensor>) {
            return tensors_equal(x, y);
          } else {
            return x == y;
          }
        },
        ia->second);
    if (!same) return false;
  }
  return true;
}

// The input string grappler sorts by: "name" for output 0, "name:i" otherwise.
std::string input_string(const MGraph& g, Ref r) {
  return r.index == 0 ? g.at(r.node).name : g.at(r.node).name + ":" + std::to_string(r.index);
}

}  // namespace

void model_pruner(MGraph& g) {
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    MNode& m = g.nodes[i];
    if (m.op() != "Identity" || m.fed || m.removed || m.inputs.size() != 1 || !m.controls.empty())
      continue;
    DType t = m.dtypes.empty() ? DType::kInvalid : m.dtypes[0];
    if (t == DType::kResource || t == DType::kVariant) continue;
    int self = static_cast<int>(i);
    if (g.drives_control(self)) continue;
    Ref from{self, 0};
    Ref to = m.inputs[0];
    g.replace_uses(from, to);
    m.removed = true;
  }
  g.prune_unreachable();
}

namespace {

void add_control_input(MNode& m, int c) {
  if (std::find(m.controls.begin(), m.controls.end(), c) == m.controls.end())
    m.controls.push_back(c);
}

bool fetched(const MGraph& g, int n) {
  for (const Ref& f : g.fetches)
    if (f.node == n) return true;
  return std::find(g.targets.begin(), g.targets.end(), n) != g.targets.end();
}

// The nodes that consume `n` (data or control), each once, removed ones left out.
std::vector<int> live_consumers(const MGraph& g, int n, bool* reads_data) {
  std::vector<int> out;
  *reads_data = false;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const MNode& m = g.nodes[i];
    if (m.removed) continue;
    bool data = false, control = false;
    for (const Ref& in : m.inputs) data = data || in.node == n;
    control = std::find(m.controls.begin(), m.controls.end(), n) != m.controls.end();
    if (data || control) out.push_back(static_cast<int>(i));
    *reads_data = *reads_data || data;
  }
  return out;
}

// An Identity with control inputs is bypassed (TF's DependencyOptimizer, where that does not
// multiply edges): its consumers read its input and take over its control inputs.
bool bypass_identity(MGraph& g, int n) {
  MNode& m = g.at(n);
  if (m.removed || m.fed || m.op() != "Identity" || m.inputs.size() != 1 || m.controls.empty() ||
      fetched(g, n))
    return false;
  const MNode& in = g.at(m.inputs[0].node);
  if (in.op() == "VarHandleOp" || in.op() == "ReadVariableOp" || in.op().find("Switch") == 0)
    return false;
  bool data = false;
  const std::vector<int> consumers = live_consumers(g, n, &data);
  const size_t ins = 1 + m.controls.size(), outs = consumers.size();
  if (ins * outs > ins + outs) return false;
  const Ref input = m.inputs[0];
  const std::vector<int> controls = m.controls;
  for (int k : consumers) {
    MNode& c = g.at(k);
    for (auto& r : c.inputs)
      if (r.node == n) r = input;
    auto self = std::find(c.controls.begin(), c.controls.end(), n);
    if (self != c.controls.end()) {
      c.controls.erase(self);
      add_control_input(c, input.node);
    }
    for (int k2 : controls) add_control_input(c, k2);
  }
  g.at(n).removed = true;
  g.changed = true;
  return true;
}

// A node without side effects that only control edges leave is a NoOp to TF, which removes it:
// the nodes it held back wait for its inputs instead.
bool remove_control_only(MGraph& g, int n) {
  MNode& m = g.at(n);
  if (m.removed || m.fed || !stateless(m) || fetched(g, n)) return false;
  // A Const that waits for nothing keeps its edges for the rule that drops them.
  if (m.op() == "Const" ? m.controls.empty() : structural(m.op())) return false;
  bool data = false;
  const std::vector<int> consumers = live_consumers(g, n, &data);
  if (data || consumers.empty()) return false;
  std::vector<int> waits = m.controls;
  for (const Ref& r : m.inputs)
    if (std::find(waits.begin(), waits.end(), r.node) == waits.end()) waits.push_back(r.node);
  for (int k : consumers) {
    MNode& c = g.at(k);
    c.controls.erase(std::remove(c.controls.begin(), c.controls.end(), n), c.controls.end());
    for (int w : waits) add_control_input(c, w);
  }
  g.at(n).removed = true;
  g.changed = true;
  return true;
}

std::vector<char> ancestors(const MGraph& g, int n);

// TF's TransitiveReduction: a control input that another input already waits for goes.
void drop_implied_controls(MGraph& g) {
  std::map<int, std::vector<char>> seen;  // each node's ancestors, computed once
  auto waits_for = [&](int n, int c) {
    if (n == c) return true;
    auto it = seen.find(n);
    if (it == seen.end()) it = seen.emplace(n, ancestors(g, n)).first;
    return it->second[static_cast<size_t>(c)] != 0;
  };
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const MNode& m = g.nodes[i];
    if (m.removed || m.controls.empty()) continue;
    std::vector<int> kept;
    for (int c : m.controls) {
      bool implied = false;
      for (const Ref& r : m.inputs) implied = implied || waits_for(r.node, c);
      for (int o : m.controls) implied = implied || (o != c && waits_for(o, c));
      if (!implied) kept.push_back(c);
    }
    if (kept.size() != m.controls.size()) {
      g.nodes[i].controls = std::move(kept);
      g.changed = true;
    }
  }
}

}  // namespace

void dependency_optimizer(MGraph& g) {
  for (auto& m : g.nodes) {
    std::vector<int> kept;
    for (int c : m.controls) {
      const MNode& k = g.at(c);
      if (k.op() == "Const" && !k.fed && k.controls.empty()) continue;
      kept.push_back(c);
    }
    if (kept.size() != m.controls.size()) {
      m.controls = std::move(kept);
      g.changed = true;
    }
  }
  for (bool again = true; again;) {
    again = false;
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      const int n = static_cast<int>(i);
      if (bypass_identity(g, n) || remove_control_only(g, n)) again = true;
    }
  }
  drop_implied_controls(g);
  model_pruner(g);
}

void common_subgraph_elimination(MGraph& g) {
  for (auto& m : g.nodes) {
    if (!is_commutative(m.op()) || m.inputs.size() < 2) continue;
    std::vector<Ref> sorted = m.inputs;
    std::stable_sort(sorted.begin(), sorted.end(), [&](const Ref& a, const Ref& b) {
      return input_string(g, a) < input_string(g, b);
    });
    if (sorted != m.inputs) {
      m.inputs = std::move(sorted);
      g.changed = true;
    }
  }
  bool again = true;
  while (again) {
    again = false;
    // Candidates by op and data inputs; the first node of a kind represents the later ones.
    std::map<std::pair<std::string, std::vector<Ref>>, std::vector<int>> reps;
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      const MNode& m = g.nodes[i];
      if (m.removed || m.fed || !stateless(m) || m.op() == "Placeholder") continue;
      if (m.op().find("If") != std::string::npos || m.op().find("While") != std::string::npos)
        continue;
      auto& same_kind = reps[{m.op(), m.inputs}];
      int dup = -1;
      for (int r : same_kind) {
        const MNode& o = g.at(r);
        std::vector<int> c1 = o.controls, c2 = m.controls;
        std::sort(c1.begin(), c1.end());
        std::sort(c2.begin(), c2.end());
        if (o.dtypes != m.dtypes || c1 != c2 || !attrs_equal(o.attrs, m.attrs)) continue;
        dup = r;
        break;
      }
      if (dup < 0) {
        same_kind.push_back(static_cast<int>(i));
        continue;
      }
      const int self = static_cast<int>(i);
      for (int k = 0; k < m.num_outputs(); ++k) g.replace_uses({self, k}, {dup, k});
      g.at(self).removed = true;
      again = true;
    }
    if (again) g.prune_unreachable();
  }
}

namespace {

constexpr size_t kMaxConstantBytes = 10 * 1024 * 1024;  // TF's kMaxConstantSize

bool foldable(const MGraph& g, const MNode& m) {
  if (m.removed || m.fed || !stateless(m) || structural(m.op()) || m.inputs.empty()) return false;
  if (m.num_outputs() < 1) return false;
  for (DType t : m.dtypes)
    if (t == DType::kResource || t == DType::kVariant || t == DType::kString) return false;
  for (auto& in : m.inputs)
    if (!is_constant(g, in.node)) return false;
  return true;
}

// Div(x, c) / RealDiv(x, c) with a constant c: Mul(x, Reciprocal(c)), the reciprocal folded next.
bool reduce_div_to_reciprocal_mul(MGraph& g, int n) {
  MNode& m = g.at(n);
  if ((m.op() != "RealDiv" && m.op() != "Div") || m.inputs.size() != 2) return false;
  if (!is_constant(g, m.inputs[1].node)) return false;
  auto t = m.attrs.find("T");
  if (t == m.attrs.end() || !std::holds_alternative<DType>(t->second)) return false;
  DType type = std::get<DType>(t->second);
  if (m.op() == "Div" && !is_float_type(type)) return false;
  if (m.op() == "RealDiv" && !is_float_type(type)) return false;
  std::string name = "ConstantFolding/" + m.name + "_recip";
  if (g.exists(name)) return false;
  MNode r;
  r.name = name;
  r.def = &op_def("Reciprocal");
  r.attrs = {{"T", type}};
  r.inputs = {m.inputs[1]};
  r.dtypes = {type};
  r.shapes = {g.at(m.inputs[1].node).shapes[0]};
  Ref denom = m.inputs[1];
  (void)denom;
  int ri = g.add(std::move(r));
  MNode& mm = g.at(n);
  mm.def = &op_def("Mul");
  mm.inputs[1] = {ri, 0};
  return true;
}

bool is_symmetric_op(const std::string& op) {
  return op == "Add" || op == "AddV2" || op == "Mul";
}
bool is_add_or_sub(const std::string& op) {
  return op == "Add" || op == "AddV2" || op == "Sub";
}
bool is_mul_or_div(const std::string& op) {
  return op == "Mul" || op == "Div";
}

// A constant (or a Fill of one) whose elements all equal `v` (grappler's IsOnes / IsZeros).
bool all_equal_to(const MGraph& g, int n, double v) {
  const MNode& m = g.at(n);
  if (m.fed) return false;
  if (m.op() == (v == 1 ? "OnesLike" : "ZerosLike")) return true;
  if (m.op() == "Fill" && m.inputs.size() == 2) return all_equal_to(g, m.inputs[1].node, v);
  double value = 0;
  return const_all_equal(g, n, &value) && value == v;
}

// SimplifyArithmeticOperations' forwarding rules: 1 * y, 0 + y, x * 1, x / 1, x + 0 and x - 0
// become an Identity of the operand that has the output's (static) shape, the constant a control
// input (TF's ReplaceOperationWithIdentity; the graphs tfscope builds modify no input in place, so
// never TF's Snapshot). The dependency optimizer then removes the Identity.
bool forward_trivial_arithmetic(MGraph& g, int n) {
  MNode& m = g.at(n);
  const std::string& op = m.op();
  const bool is_mul = op == "Mul";
  const bool is_add = op == "Add" || op == "AddV2" || op == "BiasAdd";
  const bool is_sub = op == "Sub";
  const bool is_div = op == "Div" || op == "RealDiv" || op == "DivNoNan" || op == "TruncateDiv";
  if (!(is_mul || is_add || is_sub || is_div) || m.inputs.size() != 2 || m.shapes.empty())
    return false;
  const PartialShape& out = m.shapes[0];
  auto same_shape = [&](Ref r) {
    const PartialShape& s = g.at(r.node).shapes[static_cast<size_t>(r.index)];
    return out.is_fully_defined() && s.is_fully_defined() && s.dims() == out.dims();
  };
  const Ref x = m.inputs[0], y = m.inputs[1];
  int forward = -1;
  if (same_shape(y) &&
      ((is_mul && all_equal_to(g, x.node, 1)) || (is_add && all_equal_to(g, x.node, 0))))
    forward = 1;
  else if (same_shape(x) && (((is_mul || is_div) && all_equal_to(g, y.node, 1)) ||
                             ((is_add || is_sub) && all_equal_to(g, y.node, 0))))
    forward = 0;
  if (forward < 0) return false;
  const Ref kept = m.inputs[static_cast<size_t>(forward)];
  const int other = m.inputs[static_cast<size_t>(1 - forward)].node;
  const DType t = m.dtypes.empty() ? DType::kInvalid : m.dtypes[0];
  set_op(g, n, "Identity");
  MNode& id = g.at(n);
  id.attrs = {{"T", t}};
  id.inputs = {kept};
  if (std::find(id.controls.begin(), id.controls.end(), other) == id.controls.end())
    id.controls.push_back(other);
  return true;
}

// ConstantPushDown: parent(c, child(x, y)) -> parent(x, child(c, y)) for Add/Sub and Mul/Div
// trees, so that constants meet and fold; the ops flip between Add and Sub (Mul and Div) to keep
// the value. TF's conditions and input order (constant_folding.cc).
bool constant_push_down(MGraph& g, int n) {
  MNode& parent = g.at(n);
  const std::string& op = parent.op();
  if (!is_add_or_sub(op) && !is_mul_or_div(op)) return false;
  if (parent.inputs.size() != 2) return false;
  const bool left_const = is_constant(g, parent.inputs[0].node);
  const bool right_const = is_constant(g, parent.inputs[1].node);
  if (!left_const && !right_const) return false;
  const Ref input_c = left_const ? parent.inputs[0] : parent.inputs[1];
  const Ref input_op = left_const ? parent.inputs[1] : parent.inputs[0];
  MNode& child = g.at(input_op.node);
  if (child.inputs.size() + child.controls.size() < 2 || child.inputs.size() != 2) return false;
  if (g.num_data_consumers(input_op.node) > 1) return false;
  // Not when the constant has a control input on the child (SimplifyAggregation's count): moving
  // it under the child would make a cycle (TF's "might create cycles" check).
  const std::vector<int>& c_controls = g.at(input_c.node).controls;
  if (std::find(c_controls.begin(), c_controls.end(), input_op.node) != c_controls.end())
    return false;
  const auto t_attr = parent.attrs.find("T");
  const DType dtype = t_attr != parent.attrs.end() && std::holds_alternative<DType>(t_attr->second)
                          ? std::get<DType>(t_attr->second)
                          : DType::kInvalid;
  // Grappler's IsAdd: an Add of strings (concatenation, not commutative) is no add.
  if (dtype == DType::kInvalid || dtype == DType::kString) return false;
  const bool left_leaf_const = is_constant(g, child.inputs[0].node);
  const bool right_leaf_const = is_constant(g, child.inputs[1].node);
  if (left_leaf_const && right_leaf_const) return false;
  const std::string& child_op = child.op();
  const bool add_sub = is_add_or_sub(op) && is_add_or_sub(child_op);
  const bool mul_div = is_mul_or_div(op) && is_mul_or_div(child_op);
  if (!add_sub && !mul_div) return false;
  const bool symmetric = is_symmetric_op(op);
  const bool child_symmetric = is_symmetric_op(child_op);
  if (!(symmetric && child_symmetric) && !is_float_type(dtype)) return false;
  const Ref y_leaf = left_leaf_const ? child.inputs[0] : child.inputs[1];
  if (!is_constant(g, y_leaf.node)) {
    // Not when the constant is larger than the leaf it would meet (a broadcast moved down).
    const PartialShape& c_shape = g.at(input_c.node).shapes[static_cast<size_t>(input_c.index)];
    const PartialShape& y_shape = g.at(y_leaf.node).shapes[static_cast<size_t>(y_leaf.index)];
    if (c_shape.is_fully_defined() && y_shape.is_fully_defined() &&
        c_shape.num_elements() > y_shape.num_elements())
      return false;
    if (c_shape.has_rank() && y_shape.has_rank() && c_shape.rank() > 0) {
      for (int i = 0; i < std::min(c_shape.rank(), y_shape.rank()); ++i)
        if (y_shape.dim(i) >= 0 && c_shape.dim(i) > y_shape.dim(i)) return false;
    }
  }
  const Ref input_x = left_leaf_const ? child.inputs[1] : child.inputs[0];
  const Ref input_y = left_leaf_const ? child.inputs[0] : child.inputs[1];
  if (symmetric && child_symmetric) {
    parent.inputs = {input_x, input_op};
    child.inputs = {input_c, input_y};
  } else {
    auto leaf_negated = [&](bool right_leaf) {
      return (!child_symmetric && right_leaf) != (!symmetric && left_const);
    };
    const std::string sym = add_sub ? "Add" : "Mul";
    const std::string nonsym = add_sub ? "Sub" : "Div";
    const bool neg_c = !symmetric && !left_const;
    const bool neg_x = leaf_negated(left_leaf_const);
    const bool neg_y = leaf_negated(!left_leaf_const);
    parent.inputs =
        neg_x ? std::vector<Ref>{input_op, input_x} : std::vector<Ref>{input_x, input_op};
    child.inputs = neg_c ? std::vector<Ref>{input_y, input_c} : std::vector<Ref>{input_c, input_y};
    const int child_index = input_op.node;
    set_op(g, n, (neg_x || (neg_c && neg_y)) ? nonsym : sym);
    set_op(g, child_index, neg_c != neg_y ? nonsym : sym);
  }
  g.changed = true;
  return true;
}

// Every data use of output `from` (fetches too) reads `to` instead; control uses stay.
void replace_data_uses(MGraph& g, Ref from, Ref to) {
  for (auto& n : g.nodes)
    for (auto& in : n.inputs)
      if (in == from) in = to;
  for (auto& f : g.fetches)
    if (f == from) f = to;
  g.changed = true;
}

MNode const_node(const std::string& name, const Tensor& value, std::vector<int> controls) {
  MNode c;
  c.name = name;
  c.def = &op_def("Const");
  c.attrs = {{"value", value}, {"dtype", value.dtype()}};
  c.controls = std::move(controls);
  c.dtypes = {value.dtype()};
  c.shapes = {PartialShape(value.shape())};
  return c;
}

// The shape BCast is given for an input of a BroadcastGradientArgs (grappler's ExtractShape): a
// Shape node's input as the symbolic shapes have it (an unknown dim a symbol of its own), or a
// constant's values.
bool extract_shape(const MGraph& g, const SymbolicShapes& shapes, Ref r,
                   std::vector<int64_t>* out) {
  const MNode& p = g.at(r.node);
  if (p.op() == "Shape" && !p.fed && p.inputs.size() == 1) {
    auto s = shapes.get(p.inputs[0]);
    if (!s) return false;
    *out = *s;
    return true;
  }
  if (!is_constant(g, r.node)) return false;
  const Tensor& v = const_value(g, r.node);
  if (v.shape().rank() != 1) return false;
  if (v.dtype() == DType::kInt64) {
    *out = v.to_vector<int64_t>();
  } else if (v.dtype() == DType::kInt32) {
    const std::vector<int32_t> dims = v.to_vector<int32_t>();
    out->assign(dims.begin(), dims.end());
  } else {
    return false;
  }
  return true;
}

// MaterializeBroadcastGradientArgs: when the two shapes (symbolic dims included) say which dims
// broadcast, the reduction indices become constants "ConstantFolding/<node>-bcastargs-<i>", each
// with a control input on the node, and its consumers read them (the Sums over no axes then
// become Identities). TF compares the dims aligned from the front, not from the back, and gives
// up on a symbolic dim that differs from the other shape's, or one past the shorter shape.
bool materialize_broadcast_gradient_args(MGraph& g, const SymbolicShapes& shapes, int n) {
  const MNode& m = g.at(n);
  if (m.removed || m.op() != "BroadcastGradientArgs" || m.inputs.size() != 2) return false;
  const std::string folded = "ConstantFolding/" + m.name + "-folded-";
  if (g.exists(folded + "1") || g.exists(folded + "2")) return false;
  std::vector<int64_t> s[2];
  for (int k = 0; k < 2; ++k)
    if (!extract_shape(g, shapes, m.inputs[static_cast<size_t>(k)], &s[k])) return false;
  const size_t common = std::min(s[0].size(), s[1].size());
  for (size_t i = 0; i < common; ++i)
    if ((s[0][i] < 0 || s[1][i] < 0) && s[0][i] != s[1][i]) return false;
  for (int k = 0; k < 2; ++k)
    for (size_t i = common; i < s[k].size(); ++i)
      if (s[k][i] < 0) return false;
  const auto t = m.attrs.find("T");
  const DType type = t != m.attrs.end() && std::holds_alternative<DType>(t->second)
                         ? std::get<DType>(t->second)
                         : DType::kInt32;
  auto as_tensor = [&](const std::vector<int64_t>& v) {
    if (type == DType::kInt64) return Tensor::from_vector(v);
    return Tensor::from_vector(std::vector<int32_t>(v.begin(), v.end()));
  };
  std::vector<Tensor> reductions;
  try {  // the kernel's reduction indices (BCast's), symbols compared as dims
    const Tensor in[2] = {as_tensor(s[0]), as_tensor(s[1])};
    reductions = run_kernel(*m.def, in, m.attrs, nullptr, m.name);
  } catch (const std::exception&) {
    return false;  // not broadcastable: BCast is invalid, TF leaves the node
  }
  if (reductions.size() != 2) return false;
  const std::string name = m.name;
  int out[2];
  for (int j = 0; j < 2; ++j) {
    const std::string c = "ConstantFolding/" + name + "-bcastargs-" + std::to_string(j);
    out[j] = g.find(c);
    if (out[j] < 0) out[j] = g.add(const_node(c, reductions[static_cast<size_t>(j)], {n}));
  }
  for (int j = 0; j < 2; ++j) replace_data_uses(g, {n, j}, {out[j], 0});
  return true;
}

// SimplifyReduction's first rule: a reduction over a constant empty list of axes is an Identity
// of its input, the axes a control input.
bool reduction_over_no_axes(MGraph& g, int n) {
  static const std::set<std::string> reductions = {"Sum", "Prod", "Mean", "Max",
                                                   "Min", "All",  "Any",  "EuclideanNorm"};
  MNode& m = g.at(n);
  if (!reductions.count(m.op()) || m.inputs.size() != 2) return false;
  const int axes = m.inputs[1].node;
  if (!is_constant(g, axes) || const_value(g, axes).shape().num_elements() != 0) return false;
  DType type = DType::kBool;
  if (auto t = m.attrs.find("T"); t != m.attrs.end() && std::holds_alternative<DType>(t->second))
    type = std::get<DType>(t->second);
  else if (m.op() != "All" && m.op() != "Any")
    return false;
  set_op(g, n, "Identity");
  MNode& id = g.at(n);
  id.attrs = {{"T", type}};
  id.inputs.resize(1);
  if (std::find(id.controls.begin(), id.controls.end(), axes) == id.controls.end())
    id.controls.push_back(axes);
  return true;
}

// PartialAssocOpConstFolding: an AddN with more than one constant input, but not only constants,
// sums its constants in a new AddN "ConstantFolding/<node>_partial_split_<count>" (folded next),
// which takes the place of the first constant; the other inputs keep their order.
bool partial_add_n_folding(MGraph& g, int n) {
  const MNode& m = g.at(n);
  if (m.op() != "AddN" || m.inputs.size() <= 2) return false;
  std::vector<size_t> consts;
  for (size_t i = 0; i < m.inputs.size(); ++i)
    if (is_constant(g, m.inputs[i].node)) consts.push_back(i);
  const std::string name =
      "ConstantFolding/" + m.name + "_partial_split_" + std::to_string(consts.size());
  if (consts.size() <= 1 || consts.size() >= m.inputs.size() || g.exists(name)) return false;
  MNode sum;
  sum.name = name;
  sum.def = m.def;
  sum.attrs = m.attrs;
  sum.attrs["N"] = static_cast<int64_t>(consts.size());
  for (size_t i : consts) sum.inputs.push_back(m.inputs[i]);
  sum.dtypes = m.dtypes;
  sum.shapes = m.shapes;
  const int s = g.add(std::move(sum));
  MNode& mm = g.at(n);
  std::vector<Ref> kept;
  for (size_t i = 0; i < mm.inputs.size(); ++i) {
    if (i == consts[0])
      kept.push_back({s, 0});
    else if (std::find(consts.begin(), consts.end(), i) == consts.end())
      kept.push_back(mm.inputs[i]);
  }
  mm.inputs = std::move(kept);
  mm.attrs["N"] = static_cast<int64_t>(mm.inputs.size());
  g.changed = true;
  return true;
}
}  // namespace

void constant_folding(MGraph& g) {
  for (int round = 0; round < 8; ++round) {
    bool changed = false;
    {
      const SymbolicShapes shapes(g);  // MaterializeConstants, on the properties of the round
      for (size_t i = 0; i < g.nodes.size(); ++i)
        if (materialize_broadcast_gradient_args(g, shapes, static_cast<int>(i))) changed = true;
    }
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      if (!foldable(g, g.nodes[i])) continue;
      const MNode& m = g.nodes[i];
      std::vector<Tensor> inputs;
      for (auto& in : m.inputs) inputs.push_back(const_value(g, in.node));
      std::vector<Tensor> out;
      try {
        out = run_kernel(*m.def, inputs, m.attrs, nullptr, m.name);
      } catch (const std::exception&) {
        continue;  // TF leaves a node whose kernel fails unfolded; the run reports it
      }
      if (out.size() != static_cast<size_t>(m.num_outputs())) continue;
      bool fits = true;
      for (auto& o : out) fits = fits && o.defined() && o.nbytes() <= kMaxConstantBytes;
      if (!fits) continue;
      // The constants keep the node's and its inputs' control dependencies.
      std::vector<int> controls = g.nodes[i].controls;
      for (auto& in : g.nodes[i].inputs)
        for (int c : g.at(in.node).controls)
          if (std::find(controls.begin(), controls.end(), c) == controls.end())
            controls.push_back(c);
      if (out.size() == 1) {  // folded in place: the node keeps its name
        make_const(g, static_cast<int>(i), out[0]);
        g.nodes[i].controls = std::move(controls);
        changed = true;
        continue;
      }
      // One constant per output something reads, "ConstantFolding/<node>-folded-<i>"; the node
      // goes once nothing reads it.
      const std::string name = g.nodes[i].name;
      for (size_t k = 0; k < out.size(); ++k) {
        const Ref from{static_cast<int>(i), static_cast<int>(k)};
        bool read = false;
        for (auto& n : g.nodes)
          for (auto& in : n.inputs) read = read || (in == from && !n.removed);
        for (auto& f : g.fetches) read = read || f == from;
        const std::string c = "ConstantFolding/" + name + "-folded-" + std::to_string(k);
        if (!read || g.exists(c)) continue;
        const int ci = g.add(const_node(c, out[k], controls));
        replace_data_uses(g, from, {ci, 0});
        changed = true;
      }
    }
    // SimplifyGraph: each node in order, the first simplification that applies.
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      if (g.nodes[i].removed) continue;
      const int n = static_cast<int>(i);
      if (reduction_over_no_axes(g, n) || forward_trivial_arithmetic(g, n) ||
          reduce_div_to_reciprocal_mul(g, n) || constant_push_down(g, n) ||
          partial_add_n_folding(g, n))
        changed = true;
    }
    if (!changed) break;
    g.prune_unreachable();
  }
}

}  // namespace tfs::grappler

namespace tfs::grappler {
namespace {

// The nodes `n` waits for (data and control inputs, transitively): they have run, and dropped
// their references to their inputs, before `n` runs.
std::vector<char> ancestors(const MGraph& g, int n) {
  std::vector<char> seen(g.nodes.size(), 0);
  std::vector<int> stack = {n};
  while (!stack.empty()) {
    const int k = stack.back();
    stack.pop_back();
    const MNode& m = g.at(k);
    auto visit = [&](int i) {
      if (i >= 0 && !seen[static_cast<size_t>(i)])
        seen[static_cast<size_t>(i)] = 1, stack.push_back(i);
    };
    for (const Ref& in : m.inputs) visit(in.node);
    for (int c : m.controls) visit(c);
  }
  return seen;
}

// Whether, when the AddN whose ancestors are `before` runs, the only reference to tensor `r` is
// the one `holder` takes (once): TF's executor gives each consumer its own reference and drops it
// when that consumer has run, so every other consumer must be an ancestor; a fetch holds it.
bool only_holder(const MGraph& g, Ref r, int holder, const std::vector<char>& before) {
  int own = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (g.nodes[i].removed) continue;  // it will not run
    for (const Ref& in : g.nodes[i].inputs) {
      if (!(in == r)) continue;
      if (static_cast<int>(i) == holder)
        ++own;
      else if (!before[i])
        return false;
    }
  }
  for (const Ref& f : g.fetches)
    if (f == r) return false;
  return own == 1;
}

// Whether the tensor `r` owns its buffer (not a constant's, which the Const kernel keeps, an
// argument's, which the caller holds, or a variable's) and nothing but `holder` holds the buffer
// when the AddN runs; a view (Reshape, Squeeze, ExpandDims, Identity) shares its input's buffer.
bool fresh_buffer(const MGraph& g, Ref r, int holder, const std::vector<char>& before,
                  int depth = 0) {
  const MNode& m = g.at(r.node);
  const std::string& op = m.op();
  if (m.fed || op == "Const" || op == "Placeholder" || op == "ReadVariableOp" ||
      op == "VarHandleOp" || op == "PlaceholderWithDefault" || depth > 16)
    return false;
  if (!only_holder(g, r, holder, before)) return false;
  if (op == "Reshape" || op == "Squeeze" || op == "ExpandDims" || op == "Identity")
    return fresh_buffer(g, m.inputs[0], r.node, before, depth + 1);
  return true;
}

}  // namespace

void annotate_add_n_forwarding(MGraph& g) {
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    MNode& m = g.nodes[n];
    if (m.op() != "AddN" || m.removed) continue;
    const std::vector<char> before = ancestors(g, static_cast<int>(n));
    int forwarded = -1;
    for (size_t k = 0; k < m.inputs.size() && forwarded < 0; ++k) {
      if (fresh_buffer(g, m.inputs[k], static_cast<int>(n), before))
        forwarded = static_cast<int>(k);
    }
    if (forwarded > 0) {
      m.attrs["_forward_input"] = static_cast<int64_t>(forwarded);
      g.changed = true;
    }
  }
}

}  // namespace tfs::grappler

namespace tfs::grappler {

void remapper(MGraph& g) {
  // Only the fusion whose kernel rounds differently from its parts: Mul(x, Sigmoid(x)) ->
  // _MklSwish(x), where TF runs oneDNN (its FindSigmoidAndMul). MatMul + BiasAdd [+ Relu] ->
  // _FusedMatMul computes what its parts compute on the kernels tfscope reproduces.
  static const OpDef* swish = OpRegistry::global().find("_MklSwish");
  if (!swish || !tf_onednn_enabled()) return;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    MNode& m = g.nodes[i];
    if (m.removed || m.op() != "Mul" || m.inputs.size() != 2) continue;
    auto t = m.attrs.find("T");
    if (t == m.attrs.end() || !std::holds_alternative<DType>(t->second) ||
        std::get<DType>(t->second) != DType::kFloat32)
      continue;
    for (int k = 0; k < 2; ++k) {
      const Ref s = m.inputs[static_cast<size_t>(k)];
      const Ref x = m.inputs[static_cast<size_t>(1 - k)];
      const MNode& sig = g.at(s.node);
      if (sig.op() != "Sigmoid" || sig.inputs.size() != 1 || !(sig.inputs[0] == x)) continue;
      if (g.num_data_consumers(s.node) != 1 || !sig.controls.empty()) continue;
      m.def = swish;
      m.tf_op.clear();
      m.inputs = {x};
      g.changed = true;
      break;
    }
  }
}

}  // namespace tfs::grappler

// The ArithmeticOptimizer's stages that tfscope reproduces, in TF's pipeline order. Each stage
// looks at one node; a stage that returns a tensor ends the pipeline for that node, and when the
// tensor is another node's, the node's consumers read it instead and go back on the queue.
#include <algorithm>
#include <deque>
#include <optional>
#include <set>

#include "passes.h"
#include "shapes.h"

namespace tfs::grappler {
namespace {

constexpr const char* kOptimizer = "ArithmeticOptimizer";
constexpr const char* kAddOpsTag = "AddOpsRewrite";

// Grappler's SetVector: a stack that holds each node once.
class NodeQueue {
 public:
  void push(int n) {
    if (in_.insert(n).second) stack_.push_back(n);
  }
  int pop() {
    int n = stack_.back();
    stack_.pop_back();
    in_.erase(n);
    return n;
  }
  bool empty() const { return stack_.empty(); }

 private:
  std::vector<int> stack_;
  std::set<int> in_;
};

struct Ctx {
  MGraph& g;
  NodeQueue& queue;
  SymbolicShapes& shapes;  // as inferred when the pass started
};

bool is_add(const std::string& op) {
  return op == "Add" || op == "AddV2";
}

const PartialShape& shape_of(const MGraph& g, Ref r) {
  return g.at(r.node).shapes[static_cast<size_t>(r.index)];
}

DType type_attr(const MNode& m) {
  auto it = m.attrs.find("T");
  return it != m.attrs.end() && std::holds_alternative<DType>(it->second)
             ? std::get<DType>(it->second)
             : DType::kInvalid;
}

// Consumers that read the tensor's data (not only its shape), fetches included.
int num_data_outputs(const MGraph& g, int n) {
  int count = 0;
  for (auto& m : g.nodes) {
    if (m.op() == "Shape" || m.op() == "Size" || m.op() == "Rank") continue;
    for (auto& in : m.inputs)
      if (in.node == n) ++count;
  }
  for (auto& f : g.fetches)
    if (f.node == n) ++count;
  return count;
}

MNode new_node(const std::string& name, const std::string& op, DType t, std::vector<Ref> inputs,
               const PartialShape& shape) {
  MNode m;
  m.name = name;
  m.def = &op_def(op);
  m.attrs = {{"T", t}};
  m.inputs = std::move(inputs);
  m.dtypes = {t};
  m.shapes = {shape};
  return m;
}

void add_control(MNode& m, int c) {
  if (std::find(m.controls.begin(), m.controls.end(), c) == m.controls.end())
    m.controls.push_back(c);
}

void forward_controls(MGraph& g, int target, int src) {
  std::vector<int> cs = g.at(src).controls;
  for (int c : cs) add_control(g.at(target), c);
}

std::string unique_name(const MGraph& g, const std::string& name) {
  std::string out = name;
  for (int i = 0; g.exists(out); ++i) out = name + "_unique" + std::to_string(i);
  return out;
}

// ---- AddOpsRewrite: a tree of Add/AddN collapses into AddN per shape, then an AddV2 tree.
bool add_ops_can_optimize(const MGraph& g, int n) {
  const MNode& m = g.at(n);
  if (!is_add(m.op()) && m.op() != "AddN") return false;
  // Grappler's IsAdd: an Add of strings (concatenation) is no add.
  if (!m.dtypes.empty() && m.dtypes[0] == DType::kString) return false;
  if (m.tags.count(kAddOpsTag)) return false;
  return m.controls.empty() && !g.drives_control(n);
}

// The node's shape is known symbolically and each input broadcasts with it (grappler's
// HasAllInputsBroadcastableToShape).
bool inputs_broadcastable(const Ctx& c, int n) {
  const auto out = c.shapes.get({n, 0});
  if (!out) return false;
  for (auto& in : c.g.at(n).inputs) {
    const auto s = c.shapes.get(in);
    if (!s || !sym_broadcastable(*s, *out)) return false;
  }
  return true;
}

std::optional<Ref> add_ops_rewrite(Ctx& c, int root) {
  MGraph& g = c.g;
  if (!add_ops_can_optimize(g, root) || !inputs_broadcastable(c, root)) return std::nullopt;
  std::vector<int> absorbed;
  std::vector<Ref> inputs;
  std::deque<Ref> pending;
  for (auto& in : g.at(root).inputs) {
    pending.push_front(in);
    // Each root input is absorbed depth first, in order.
    while (!pending.empty()) {
      Ref r = pending.front();
      pending.pop_front();
      if (add_ops_can_optimize(g, r.node) && num_data_outputs(g, r.node) == 1 &&
          inputs_broadcastable(c, r.node)) {
        absorbed.push_back(r.node);
        const auto& ins = g.at(r.node).inputs;
        for (auto it = ins.rbegin(); it != ins.rend(); ++it) pending.push_front(*it);
      } else {
        inputs.push_back(r);
      }
    }
  }
  if (absorbed.empty()) return std::nullopt;
  g.at(root).tags.insert(kAddOpsTag);
  for (int a : absorbed) g.at(a).tags.insert(kAddOpsTag);
  const std::string root_name = g.at(root).name;
  const DType t = type_attr(g.at(root));
  // Inputs by symbolic shape, shapes from the smallest.
  std::vector<std::pair<SymShape, std::vector<Ref>>> by_shape;
  for (auto& in : inputs) {
    const SymShape s = c.shapes.get(in).value_or(SymShape{});
    auto it =
        std::find_if(by_shape.begin(), by_shape.end(), [&](const auto& p) { return p.first == s; });
    if (it == by_shape.end()) {
      by_shape.push_back({s, {in}});
    } else {
      it->second.push_back(in);
    }
  }
  std::stable_sort(by_shape.begin(), by_shape.end(),
                   [](const auto& a, const auto& b) { return sym_smaller(a.first, b.first); });
  auto add_n = [&](const std::string& name, const std::vector<Ref>& ins) -> Ref {
    if (ins.size() == 1) return ins[0];
    const PartialShape s = shape_of(g, ins[0]);
    MNode m = new_node(name, "AddN", t, ins, s);
    m.attrs["N"] = static_cast<int64_t>(ins.size());
    m.tags.insert(kAddOpsTag);
    return {g.add(std::move(m)), 0};
  };
  if (by_shape.size() == 1) {
    std::string name = unique_name(g, optimized_node_name(root_name, kOptimizer, "AddOpsRewrite"));
    return add_n(name, inputs);
  }
  std::deque<Ref> ops;
  for (size_t i = 0; i < by_shape.size(); ++i) {
    std::string name = unique_name(g, optimized_node_name(root_name, kOptimizer, "AddOpsRewrite",
                                                          "Leaf_" + std::to_string(i)));
    ops.push_back(add_n(name, by_shape[i].second));
  }
  int internal = 0;
  do {
    Ref lhs = ops.front();
    ops.pop_front();
    Ref rhs = ops.front();
    ops.pop_front();
    std::string name =
        ops.empty() ? unique_name(g, optimized_node_name(root_name, kOptimizer, "AddOpsRewrite"))
                    : unique_name(g, optimized_node_name(root_name, kOptimizer, "AddOpsRewrite",
                                                         "Internal_" + std::to_string(internal++)));
    PartialShape s;
    broadcast_shape(shape_of(g, lhs), shape_of(g, rhs), &s);
    MNode m = new_node(name, "AddV2", t, {lhs, rhs}, s);
    m.tags.insert(kAddOpsTag);
    ops.push_front({g.add(std::move(m)), 0});
  } while (ops.size() > 1);
  return ops.front();
}

// ---- FoldTransposeIntoMatMul: a product reads a Transpose's input with transpose_a/b flipped.
bool inner_matrix_transpose(const MGraph& g, int t) {
  const MNode& m = g.at(t);
  if ((m.op() != "Transpose" && m.op() != "ConjugateTranspose") || m.inputs.size() != 2)
    return false;
  if (g.at(m.inputs[1].node).op() != "Const") return false;
  const Tensor& p = const_value(g, m.inputs[1].node);
  if (p.shape().rank() != 1 || (p.dtype() != DType::kInt32 && p.dtype() != DType::kInt64))
    return false;
  const int64_t r = p.shape().dim(0);
  if (r < 2) return false;
  auto at = [&](int64_t i) {
    return p.dtype() == DType::kInt32 ? static_cast<int64_t>(p.data<int32_t>()[i])
                                      : p.data<int64_t>()[i];
  };
  for (int64_t i = 0; i < r - 2; ++i)
    if (at(i) != i) return false;
  return at(r - 2) == r - 1 && at(r - 1) == r - 2;
}

std::optional<Ref> fold_transpose_into_matmul(Ctx& c, int n) {
  MGraph& g = c.g;
  const std::string op = g.at(n).op();
  const bool batch = op == "BatchMatMul" || op == "BatchMatMulV2" || op == "BatchMatMulV3";
  if (!batch && op != "MatMul") return std::nullopt;
  const std::string name = optimized_node_name(g.at(n).name, kOptimizer, "FoldTransposeIntoMatMul");
  if (g.exists(name)) return std::nullopt;
  bool fold[2] = {inner_matrix_transpose(g, g.at(n).inputs[0].node),
                  inner_matrix_transpose(g, g.at(n).inputs[1].node)};
  if (!fold[0] && !fold[1]) return std::nullopt;
  MNode m = g.at(n);
  m.name = name;
  m.origin = nullptr;
  m.tags.clear();
  for (int i = 0; i < 2; ++i) {
    if (!fold[i]) continue;
    const std::string attr =
        batch ? (i == 0 ? "adj_x" : "adj_y") : (i == 0 ? "transpose_a" : "transpose_b");
    auto it = m.attrs.find(attr);
    const bool on = it != m.attrs.end() && std::holds_alternative<bool>(it->second) &&
                    std::get<bool>(it->second);
    m.attrs[attr] = !on;
    int t = m.inputs[static_cast<size_t>(i)].node;
    m.inputs[static_cast<size_t>(i)] = g.at(t).inputs[0];
    for (int cc : g.at(t).controls) add_control(m, cc);
  }
  return Ref{g.add(std::move(m)), 0};
}

// ---- MinimizeBroadcasts: a tree of one binary associative op (Mul, or Add the AddOpsRewrite
// left) over inputs of different shapes is rebuilt from its smallest inputs up, reusing its nodes.
constexpr const char* kMinimizeBroadcastsTag = "MinimizeBroadcasts";

bool binary_associative(const std::string& op) {
  return op == "Mul" || is_add(op);
}

std::optional<Ref> minimize_broadcasts(Ctx& c, int root) {
  MGraph& g = c.g;
  const MNode& r = g.at(root);
  if (!binary_associative(r.op()) || type_attr(r) == DType::kString ||
      r.tags.count(kMinimizeBroadcastsTag) || r.tags.count(kAddOpsTag) || r.inputs.size() != 2 ||
      !inputs_broadcastable(c, root))
    return std::nullopt;
  const std::string op = r.op();
  std::vector<int> absorbed;
  std::vector<Ref> inputs;
  for (const Ref in0 : std::vector<Ref>(r.inputs)) {
    std::deque<Ref> pending{in0};
    while (!pending.empty()) {
      Ref in = pending.front();
      pending.pop_front();
      const MNode& m = g.at(in.node);
      const bool absorbable =
          m.op() == op && !m.tags.count(kMinimizeBroadcastsTag) && !m.tags.count(kAddOpsTag) &&
          m.controls.empty() && !g.drives_control(in.node) && m.inputs.size() == 2 &&
          g.num_data_consumers(in.node) == 1 && inputs_broadcastable(c, in.node);
      if (absorbable) {
        absorbed.push_back(in.node);
        for (auto it = m.inputs.rbegin(); it != m.inputs.rend(); ++it) pending.push_front(*it);
      } else {
        inputs.push_back(in);
      }
    }
  }
  if (absorbed.empty()) return std::nullopt;
  g.at(root).tags.insert(kMinimizeBroadcastsTag);
  for (int a : absorbed) g.at(a).tags.insert(kMinimizeBroadcastsTag);
  std::set<SymShape> shapes;
  for (auto& in : inputs) shapes.insert(c.shapes.get(in).value_or(SymShape{}));
  if (shapes.size() <= 1) return Ref{root, 0};
  // Each entry with the shape TF compares it by: an input's; a rebuilt node's is TF's empty
  // TensorShapeProto, a scalar.
  std::vector<std::pair<Ref, SymShape>> sorted;
  for (auto& in : inputs) sorted.push_back({in, c.shapes.get(in).value_or(SymShape{})});
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return sym_smaller(a.second, b.second); });
  std::deque<std::pair<Ref, SymShape>> ops(sorted.begin(), sorted.end());
  std::deque<int> nodes(absorbed.begin(), absorbed.end());
  std::optional<Ref> leftover;
  if (ops.size() % 2 != 0) {
    leftover = ops.back().first;
    ops.pop_back();
  }
  auto update = [&](Ref a, Ref b, int node) -> Ref {
    MNode& m = g.at(node);
    if (!(m.inputs[0] == a) || !(m.inputs[1] == b)) {
      m.inputs = {a, b};
      PartialShape s;
      if (broadcast_shape(shape_of(g, a), shape_of(g, b), &s)) m.shapes[0] = s;
      c.shapes.clear(node);  // TF clears the properties of a rebuilt node
      g.changed = true;
      c.queue.push(node);
    }
    return {node, 0};
  };
  do {
    Ref lhs = ops.front().first;
    ops.pop_front();
    Ref rhs = ops.front().first;
    ops.pop_front();
    int node = root;
    if (!nodes.empty()) {
      node = nodes.back();
      nodes.pop_back();
    }
    Ref updated = update(lhs, rhs, node);
    if (ops.size() >= 2 && sym_smaller(ops[0].second, ops[1].second)) {
      ops.push_front({updated, SymShape{}});
    } else {
      ops.push_back({updated, SymShape{}});
    }
  } while (ops.size() > 1);
  if (leftover) {
    Ref lhs = ops.front().first;
    ops.pop_front();
    ops.push_back({update(lhs, *leftover, root), SymShape{}});
  }
  return ops.front().first;
}

// ---- ReplaceMulWithSquare: Mul(x, x) -> Square(x).
std::optional<Ref> replace_mul_with_square(Ctx& c, int n) {
  MGraph& g = c.g;
  const MNode& m = g.at(n);
  if (m.op() != "Mul" || m.inputs.size() != 2 || !(m.inputs[0] == m.inputs[1])) return std::nullopt;
  const std::string name = optimized_node_name(m.name, kOptimizer, "ReplaceMulWithSquare");
  if (g.exists(name)) return std::nullopt;
  MNode s = new_node(name, "Square", type_attr(m), {m.inputs[0]}, m.shapes[0]);
  s.controls = m.controls;
  return Ref{g.add(std::move(s)), 0};
}

// ---- SimplifyAggregation: an Add/AddN of one tensor N times -> Mul(Const(N), x).
std::optional<Ref> simplify_aggregation(Ctx& c, int n) {
  MGraph& g = c.g;
  const MNode& m = g.at(n);
  if ((!is_add(m.op()) && m.op() != "AddN") || m.inputs.empty()) return std::nullopt;
  const DType t = type_attr(m);
  if (t == DType::kVariant || t == DType::kString) return std::nullopt;
  if (m.inputs.size() == 1) return m.inputs[0];
  for (auto& in : m.inputs)
    if (!(in == m.inputs[0])) return std::nullopt;
  const std::string cname = optimized_node_name(m.name, kOptimizer, "SimplifyAggregation", "Const");
  const std::string mname = optimized_node_name(m.name, kOptimizer, "SimplifyAggregation", "Mul");
  if (g.exists(cname) || g.exists(mname)) return std::nullopt;
  Tensor count;
  const auto num = static_cast<int64_t>(m.inputs.size());
  switch (t) {
    case DType::kFloat32:
      count = Tensor::scalar<float>(static_cast<float>(num));
      break;
    case DType::kFloat64:
      count = Tensor::scalar<double>(static_cast<double>(num));
      break;
    case DType::kInt32:
      count = Tensor::scalar<int32_t>(static_cast<int32_t>(num));
      break;
    case DType::kInt64:
      count = Tensor::scalar<int64_t>(num);
      break;
    default:
      return std::nullopt;
  }
  const Ref x = m.inputs[0];
  const PartialShape shape = m.shapes[0];
  const std::vector<int> controls = m.controls;
  MNode k;
  k.name = cname;
  k.def = &op_def("Const");
  k.attrs = {{"value", count}, {"dtype", t}};
  k.dtypes = {t};
  k.shapes = {PartialShape(std::vector<int64_t>{})};
  k.controls = {x.node};
  int ki = g.add(std::move(k));
  c.queue.push(ki);
  MNode mul = new_node(mname, "Mul", t, {{ki, 0}, x}, shape);
  mul.controls = controls;
  return Ref{g.add(std::move(mul)), 0};
}

// TF's stages that retype a node and the producer of its input `i` in place when that producer
// has op `inner` and no other consumer (SqrtDivToRsqrtMul, LogSoftmax, FuseSquaredDiff).
void retype_pair(Ctx& c, int n, size_t i, const char* inner, const char* root_to,
                 const char* inner_to) {
  MGraph& g = c.g;
  if (g.at(n).inputs.size() <= i) return;
  const int p = g.at(n).inputs[i].node;
  if (g.at(p).op() != inner || g.num_data_consumers(p) != 1) return;
  set_op(g, n, root_to);
  set_op(g, p, inner_to);
  c.queue.push(n);
  c.queue.push(p);
}

// ---- SqrtDivToRsqrtMul: Div(x, Sqrt(y)) -> Mul(x, Rsqrt(y)) when the Sqrt has one consumer.
std::optional<Ref> sqrt_div_to_rsqrt_mul(Ctx& c, int n) {
  const std::string& op = c.g.at(n).op();
  if ((op == "RealDiv" || op == "Div") && c.g.at(n).inputs.size() == 2)
    retype_pair(c, n, 1, "Sqrt", "Mul", "Rsqrt");
  return std::nullopt;
}

// ---- ConvertPow: Pow(x, c) for a constant c with equal elements.
std::optional<Ref> convert_pow(Ctx& c, int n) {
  MGraph& g = c.g;
  if (g.at(n).op() != "Pow" || g.at(n).inputs.size() != 2) return std::nullopt;
  const Ref x = g.at(n).inputs[0];
  const int y = g.at(n).inputs[1].node;
  double p = 0;
  if (!const_all_equal(g, y, &p)) return std::nullopt;
  const PartialShape& xs = shape_of(g, x);
  const PartialShape& out = g.at(n).shapes[0];
  // Unary replacements keep x's shape; TF does not check, tfscope keeps the Pow when the
  // constant would broadcast x to a larger shape.
  if (!(xs == out) && p != 0) return std::nullopt;
  // Integer powers by -1 (TF's Reciprocal has no integer kernel): the Pow and its error stay.
  if (!is_float_type(type_attr(g.at(n))) && (p == -1 || p == 0.5 || p == -0.5)) return std::nullopt;
  auto unary = [&](const char* to) {
    set_op(g, n, to);
    MNode& m = g.at(n);
    m.inputs.resize(1);
    add_control(m, y);
    g.changed = true;
    c.queue.push(n);
    c.queue.push(y);
  };
  if (p == 2) {
    unary("Square");
  } else if (p == 3) {
    const std::string inner = optimized_node_name(g.at(n).name, kOptimizer, "ConvertPow", "_inner");
    int sq = g.find(inner);
    if (sq < 0) {
      MNode s = new_node(inner, "Square", type_attr(g.at(n)), {x}, xs);
      s.controls = g.at(n).controls;
      sq = g.add(std::move(s));
    }
    set_op(g, n, "Mul");
    MNode& m = g.at(n);
    m.inputs[1] = {sq, 0};
    add_control(m, y);
    g.changed = true;
    c.queue.push(n);
    c.queue.push(sq);
    c.queue.push(y);
  } else if (p == 1) {
    unary("Identity");
  } else if (p == 0.5) {
    unary("Sqrt");
  } else if (p == 0 && same_known_shape(xs, out)) {
    Tensor ones;
    const int64_t count = out.num_elements();
    switch (type_attr(g.at(n))) {
      case DType::kFloat32:
        ones = Tensor::from_vector(std::vector<float>(static_cast<size_t>(count), 1.0f),
                                   Shape(out.dims()));
        break;
      case DType::kFloat64:
        ones = Tensor::from_vector(std::vector<double>(static_cast<size_t>(count), 1.0),
                                   Shape(out.dims()));
        break;
      case DType::kInt32:
        ones = Tensor::from_vector(std::vector<int32_t>(static_cast<size_t>(count), 1),
                                   Shape(out.dims()));
        break;
      case DType::kInt64:
        ones = Tensor::from_vector(std::vector<int64_t>(static_cast<size_t>(count), 1),
                                   Shape(out.dims()));
        break;
      default:
        return std::nullopt;
    }
    make_const(g, n, ones);
    add_control(g.at(n), x.node);
    add_control(g.at(n), y);
    c.queue.push(n);
    c.queue.push(x.node);
    c.queue.push(y);
  } else if (p == -0.5) {
    unary("Rsqrt");
  } else if (p == -1) {
    unary("Reciprocal");
  }
  return std::nullopt;
}

bool all_ones(const MGraph& g, int n) {
  double v = 0;
  return is_float_type(is_constant(g, n) ? const_value(g, n).dtype() : DType::kInvalid) &&
         const_all_equal(g, n, &v) && v == 1.0;
}

// t's shape is the broadcast of t and c (c fully known), as grappler's symbolic shapes decide it:
// an unknown dim of t is a symbol, which a dim 1 of c (or no dim) keeps.
bool keeps_shape(const PartialShape& t, const PartialShape& c) {
  if (!c.is_fully_defined() || !t.has_rank() || c.rank() > t.rank()) return false;
  const int offset = t.rank() - c.rank();
  for (int i = 0; i < c.rank(); ++i) {
    const int64_t cd = c.dim(i), td = t.dim(i + offset);
    if (cd != 1 && cd != td) return false;
  }
  return true;
}

// ---- ConvertLog1p: Log(Add(x, 1)) -> Log1p(x).
std::optional<Ref> convert_log1p(Ctx& c, int n) {
  MGraph& g = c.g;
  if (g.at(n).op() != "Log") return std::nullopt;
  const int add = g.at(n).inputs[0].node;
  if (!is_add(g.at(add).op()) || g.at(add).inputs.size() != 2) return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    const Ref t = g.at(add).inputs[static_cast<size_t>(i)];
    const Ref k = g.at(add).inputs[static_cast<size_t>(1 - i)];
    if (!keeps_shape(shape_of(g, t), shape_of(g, k)) || !all_ones(g, k.node)) continue;
    set_op(g, n, "Log1p");
    MNode& m = g.at(n);
    m.inputs[0] = t;
    add_control(m, k.node);
    forward_controls(g, n, add);
    g.changed = true;
    c.queue.push(n);
    c.queue.push(add);
    c.queue.push(t.node);
    c.queue.push(k.node);
    return Ref{n, 0};
  }
  return std::nullopt;
}

// ---- LogSoftmax: Log(Softmax(x)) -> LogSoftmax(x) when the Softmax has one consumer.
std::optional<Ref> log_softmax(Ctx& c, int n) {
  if (c.g.at(n).op() == "Log") retype_pair(c, n, 0, "Softmax", "LogSoftmax", "Identity");
  return std::nullopt;
}

// ---- ConvertExpm1: Sub(Exp(x), 1) -> Expm1(x).
std::optional<Ref> convert_expm1(Ctx& c, int n) {
  MGraph& g = c.g;
  if (g.at(n).op() != "Sub" || g.at(n).inputs.size() != 2) return std::nullopt;
  const int e = g.at(n).inputs[0].node;
  if (g.at(e).op() != "Exp") return std::nullopt;
  const Ref k = g.at(n).inputs[1];
  if (!keeps_shape(shape_of(g, g.at(n).inputs[0]), shape_of(g, k)) || !all_ones(g, k.node))
    return std::nullopt;
  const Ref x = g.at(e).inputs[0];
  set_op(g, n, "Expm1");
  MNode& m = g.at(n);
  m.inputs = {x};
  add_control(m, k.node);
  forward_controls(g, n, e);
  g.changed = true;
  c.queue.push(n);
  c.queue.push(e);
  c.queue.push(x.node);
  c.queue.push(k.node);
  return Ref{n, 0};
}

// ---- FuseSquaredDiff: Square(Sub(a, b)) -> SquaredDifference(a, b) when the Sub has one consumer.
std::optional<Ref> fuse_squared_diff(Ctx& c, int n) {
  if (c.g.at(n).op() == "Square") retype_pair(c, n, 0, "Sub", "Identity", "SquaredDifference");
  return std::nullopt;
}

// ---- RemoveRedundantReshapeOrBroadcastTo: a Reshape or BroadcastTo (without control inputs)
// whose input has its output's shape, symbols compared, is its input.
std::optional<Ref> remove_redundant_reshape(Ctx& c, int n) {
  const MNode& m = c.g.at(n);
  if ((m.op() != "Reshape" && m.op() != "BroadcastTo") || m.inputs.size() != 2 ||
      !m.controls.empty())
    return std::nullopt;
  const auto in = c.shapes.get(m.inputs[0]);
  const auto out = c.shapes.get({n, 0});
  if (!in || !out || *in != *out) return std::nullopt;
  return m.inputs[0];
}

using Stage = std::optional<Ref> (*)(Ctx&, int);
constexpr Stage kStages[] = {
    add_ops_rewrite,         fold_transpose_into_matmul,
    minimize_broadcasts,     remove_redundant_reshape,
    replace_mul_with_square, simplify_aggregation,
    sqrt_div_to_rsqrt_mul,   convert_pow,
    convert_log1p,           log_softmax,
    convert_expm1,           fuse_squared_diff,
};

}  // namespace

void arithmetic_optimizer(MGraph& g) {
  NodeQueue queue;
  SymbolicShapes shapes(g);
  Ctx c{g, queue, shapes};
  for (size_t i = 0; i < g.nodes.size(); ++i) queue.push(static_cast<int>(i));
  while (!queue.empty()) {
    const int n = queue.pop();
    if (g.at(n).removed || g.at(n).fed || g.at(n).inputs.empty()) continue;
    std::optional<Ref> simplified;
    for (Stage stage : kStages) {
      simplified = stage(c, n);
      if (simplified) break;
    }
    if (!simplified || simplified->node == n) continue;
    g.changed = true;
    queue.push(simplified->node);
    for (int consumer : g.consumers_by_name(n)) {
      for (auto& in : g.at(consumer).inputs)
        if (in.node == n) in = *simplified;
      for (auto& cc : g.at(consumer).controls)
        if (cc == n) cc = simplified->node;
      queue.push(consumer);
    }
    for (auto& f : g.fetches)
      if (f.node == n) f = *simplified;
  }
}

}  // namespace tfs::grappler

#include "shapes.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace tfs::grappler {
namespace {

const std::set<std::string>& same_shape_ops() {
  static const std::set<std::string> ops = {
      "Abs",     "Neg",       "Exp",       "Log",      "Log1p",        "Expm1",    "Sqrt",
      "Rsqrt",   "Square",    "Tanh",      "Sigmoid",  "Relu",         "Relu6",    "Elu",
      "Selu",    "Softplus",  "Sign",      "Floor",    "Ceil",         "Round",    "Reciprocal",
      "Sin",     "Cos",       "Erf",       "Erfc",     "Identity",     "Softmax",  "LogSoftmax",
      "Cast",    "_MklSwish", "LeakyRelu", "Gelu",     "StopGradient", "Snapshot", "AddN",
      "BiasAdd", "Softsign",  "IsNan",     "IsFinite", "LogicalNot",   "OnesLike", "ZerosLike"};
  return ops;
}

const std::set<std::string>& broadcast_ops() {
  static const std::set<std::string> ops = {
      "Add",      "AddV2",       "Sub",         "Mul",     "RealDiv",           "Div",
      "DivNoNan", "Maximum",     "Minimum",     "Pow",     "SquaredDifference", "FloorDiv",
      "FloorMod", "TruncateDiv", "TruncateMod", "Xdivy",   "MulNoNan",          "Equal",
      "NotEqual", "Less",        "LessEqual",   "Greater", "GreaterEqual",      "LogicalAnd",
      "LogicalOr"};
  return ops;
}

}  // namespace

SymbolicShapes::SymbolicShapes(const MGraph& g) : out_(g.nodes.size()) {
  int64_t next_symbol = -2;
  std::vector<char> done(g.nodes.size(), 0);
  // Unknown dims of what tfscope inferred become fresh symbols.
  auto fallback = [&](const MNode& m, int k) -> std::optional<SymShape> {
    const PartialShape& p = m.shapes[static_cast<size_t>(k)];
    if (!p.has_rank()) return std::nullopt;
    SymShape s = p.dims();
    for (auto& d : s)
      if (d < 0) d = next_symbol--;
    return s;
  };
  std::function<void(int)> infer = [&](int n) {
    if (done[static_cast<size_t>(n)]) return;
    done[static_cast<size_t>(n)] = 1;
    const MNode& m = g.at(n);
    for (auto& in : m.inputs) infer(in.node);
    auto input = [&](size_t i) -> std::optional<SymShape> {
      if (i >= m.inputs.size()) return std::nullopt;
      const Ref r = m.inputs[i];
      return out_[static_cast<size_t>(r.node)][static_cast<size_t>(r.index)];
    };
    auto& outs = out_[static_cast<size_t>(n)];
    outs.resize(static_cast<size_t>(m.num_outputs()));
    if (outs.empty()) return;
    std::optional<SymShape> s;
    const std::string& op = m.op();
    if (!m.fed && same_shape_ops().count(op)) {
      s = input(0);
    } else if (!m.fed && broadcast_ops().count(op) && m.inputs.size() == 2) {
      auto a = input(0), b = input(1);
      if (a && b) {
        const size_t r = std::max(a->size(), b->size());
        SymShape d(r);
        bool ok = true;
        for (size_t i = 0; i < r && ok; ++i) {
          const int64_t x = i < r - a->size() ? 1 : (*a)[i - (r - a->size())];
          const int64_t y = i < r - b->size() ? 1 : (*b)[i - (r - b->size())];
          if (x == 1) {
            d[i] = y;
          } else if (y == 1 || x == y) {
            d[i] = x;
          } else if (x < 0 && y < 0) {
            d[i] = next_symbol--;
          } else if (x < 0 || y < 0) {
            d[i] = std::max(x, y);
          } else {
            ok = false;
          }
        }
        if (ok) s = d;
      }
    } else if (!m.fed && (op == "Reshape" || op == "BroadcastTo") && m.inputs.size() == 2) {
      // The shape operand's value as far as it is known: a Shape node's input's shape (its
      // symbols), or a constant without -1.
      const MNode& target = g.at(m.inputs[1].node);
      if (target.op() == "Shape" && !target.fed && target.inputs.size() == 1) {
        infer(target.inputs[0].node);
        const Ref src = target.inputs[0];
        s = out_[static_cast<size_t>(src.node)][static_cast<size_t>(src.index)];
      }
    } else if (!m.fed && op == "MatMul") {
      auto a = input(0), b = input(1);
      if (a && b && a->size() == 2 && b->size() == 2) {
        auto flag = [&](const char* name) {
          auto it = m.attrs.find(name);
          return it != m.attrs.end() && std::holds_alternative<bool>(it->second) &&
                 std::get<bool>(it->second);
        };
        s = SymShape{(*a)[flag("transpose_a") ? 1 : 0], (*b)[flag("transpose_b") ? 0 : 1]};
      }
    }
    if (!s) s = fallback(m, 0);
    // A shape the propagation got wrong (rank or a known dim) falls back to tfscope's.
    const PartialShape& p = m.shapes[0];
    if (s && p.has_rank()) {
      bool agrees = static_cast<int>(s->size()) == p.rank();
      for (int i = 0; agrees && i < p.rank(); ++i)
        if (p.dim(i) >= 0 && (*s)[static_cast<size_t>(i)] != p.dim(i)) agrees = false;
      if (!agrees) s = fallback(m, 0);
    }
    outs[0] = s;
    for (int k = 1; k < m.num_outputs(); ++k) outs[static_cast<size_t>(k)] = fallback(m, k);
  };
  for (size_t i = 0; i < g.nodes.size(); ++i) infer(static_cast<int>(i));
}

std::optional<SymShape> SymbolicShapes::get(Ref r) const {
  if (r.node < 0 || static_cast<size_t>(r.node) >= out_.size()) return std::nullopt;
  if (std::find(cleared_.begin(), cleared_.end(), r.node) != cleared_.end()) return std::nullopt;
  const auto& outs = out_[static_cast<size_t>(r.node)];
  if (static_cast<size_t>(r.index) >= outs.size()) return std::nullopt;
  return outs[static_cast<size_t>(r.index)];
}

bool sym_broadcastable(const SymShape& a, const SymShape& b) {
  const size_t r = std::max(a.size(), b.size());
  for (size_t i = 0; i < r; ++i) {
    const int64_t x = i < r - a.size() ? 1 : a[i - (r - a.size())];
    const int64_t y = i < r - b.size() ? 1 : b[i - (r - b.size())];
    if (x != y && x != 1 && y != 1) return false;
  }
  return true;
}

bool sym_smaller(const SymShape& l, const SymShape& r) {
  int64_t l_size = 1, r_size = 1;
  std::map<int64_t, int64_t> l_unknown, r_unknown;
  for (int64_t d : l) {
    if (d > 0) {
      l_size *= d;
    } else {
      ++l_unknown[d];
    }
  }
  for (int64_t d : r) {
    if (d > 0) {
      r_size *= d;
    } else {
      ++r_unknown[d];
    }
  }
  int64_t l_unbalanced = 0, r_unbalanced = 0;
  std::set<int64_t> dims;
  for (auto& [d, n] : l_unknown) dims.insert(d);
  for (auto& [d, n] : r_unknown) dims.insert(d);
  for (int64_t d : dims) {
    const int64_t common = std::min(l_unknown[d], r_unknown[d]);
    l_unbalanced += l_unknown[d] - common;
    r_unbalanced += r_unknown[d] - common;
  }
  if (l_unbalanced == 0 && r_unbalanced == 0) return l_size < r_size;
  return l_size <= r_size && l_unbalanced == 0 && r_unbalanced > 0;
}

}  // namespace tfs::grappler

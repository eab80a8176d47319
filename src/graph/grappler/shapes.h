// Grappler's symbolic shapes (its GraphProperties, as the arithmetic optimizer reads them): each
// dim is known (>= 0) or a symbol (<= -2). An unknown dim of a fed tensor is a fresh symbol;
// elementwise ops, broadcasts, MatMul and reductions carry their inputs' symbols, so x and
// relu(x) * 2 have the same shape [s, 4] while two arguments [None, 4] have different ones.
#pragma once

#include <optional>
#include <vector>

#include "mgraph.h"

namespace tfs::grappler {

using SymShape = std::vector<int64_t>;

class SymbolicShapes {
 public:
  explicit SymbolicShapes(const MGraph& g);
  // The shape of output r, or nothing (rank unknown, a node made after the inference, or one
  // whose properties a rewrite cleared).
  std::optional<SymShape> get(Ref r) const;
  void clear(int node) { cleared_.push_back(node); }

 private:
  std::vector<std::vector<std::optional<SymShape>>> out_;
  std::vector<int> cleared_;
};

// BCast's validity on symbolic dims: each aligned pair equal, or one of them 1.
bool sym_broadcastable(const SymShape& a, const SymShape& b);
// grappler's CompareSymbolicallyShapedTensorSizes: l is surely smaller than r.
bool sym_smaller(const SymShape& l, const SymShape& r);

}  // namespace tfs::grappler

// The graph the grappler passes rewrite, as grappler holds a GraphDef: nodes by index (a removed
// node stays until the pruner drops it, and counts as a consumer until then, as in TF's NodeMap),
// data inputs as (node, output) refs, control inputs, the fetches as the inputs of _Retval nodes.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "tfscope/grappler.h"

namespace tfs::grappler {

struct Ref {
  int node = -1;
  int index = 0;
  friend bool operator==(const Ref&, const Ref&) = default;
  friend auto operator<=>(const Ref&, const Ref&) = default;
};

struct MNode {
  std::string name;
  const OpDef* def = nullptr;
  AttrMap attrs;
  std::vector<Ref> inputs;
  std::vector<int> controls;
  std::vector<DType> dtypes;
  std::vector<PartialShape> shapes;
  const Node* origin = nullptr;  // the traced node it was copied from (null for new nodes)
  bool removed = false;          // dropped at the next pruning
  bool fed = false;              // a feed: its value comes from outside
  std::set<std::string> tags;    // grappler's "_grappler:..." marks
  // The op TF's node has when tfscope runs another definition with the same kernel for it (TF's
  // push-down writes "Div"; tfscope runs RealDiv, which computes the same).
  std::string tf_op;

  const std::string& op() const { return tf_op.empty() ? def->name : tf_op; }
  int num_outputs() const { return static_cast<int>(dtypes.size()); }
};

class MGraph {
 public:
  MGraph(const Graph& g, const std::vector<Node*>& feeds, const std::vector<Output>& fetches,
         const std::vector<Node*>& targets);

  std::vector<MNode> nodes;
  std::vector<Ref> fetches;  // the _Retval inputs
  std::vector<int> targets;
  std::vector<int> feeds;
  bool changed = false;  // any pass changed anything

  MNode& at(int i) { return nodes[static_cast<size_t>(i)]; }
  const MNode& at(int i) const { return nodes[static_cast<size_t>(i)]; }
  MNode& at(Ref r) { return at(r.node); }
  int find(const std::string& name) const;  // -1 when absent
  bool exists(const std::string& name) const { return find(name) >= 0; }
  // Appends a node (its name must be new) and returns its index.
  int add(MNode n);
  // Renames nothing; keeps the name index right after a node's name changed.
  void reindex();

  // Data consumers of output `r` (or of any output of node r.node when r.index < 0), counting
  // fetches as consumers (TF's _Retval nodes); removed nodes count until pruned.
  int num_data_consumers(int node) const;
  // Consumers of `node` (data or control), by node name, as NodeMap::GetOutputsOrderedByNodeName.
  std::vector<int> consumers_by_name(int node) const;
  bool drives_control(int node) const;
  // Replaces every use of `from` (data and control, fetches too) by `to`.
  void replace_uses(Ref from, Ref to);
  // Drops removed nodes and nodes neither fetches nor targets reach; keeps feeds.
  void prune_unreachable();

  // The new Graph, nodes in a topological order (the traced graph's library kept).
  Item emit(const Graph& source) const;

 private:
  std::map<std::string, int> by_name_;
};

// Grappler's NodeScopeAndName split and its OptimizedNodeName: "scope/Optimizer/Stage_rule_name".
std::string optimized_node_name(const std::string& node_name, const std::string& optimizer,
                                const std::string& stage, const std::string& rule = "");

// True for a Const node that is not fed (grappler's IsReallyConstant).
bool is_constant(const MGraph& g, int n);
// The Const value of node n (must be a Const).
const Tensor& const_value(const MGraph& g, int n);
// The value of every element of a float/double/half/int Const as a double, or false.
bool const_all_equal(const MGraph& g, int n, double* value);
bool is_commutative(const std::string& op);
bool is_float_type(DType t);
// Shapes both fully known and equal (grappler's ShapesSymbolicallyEqual, for the shapes tfscope
// infers: unknown dims compare equal only as the same tensor, which callers check first).
bool same_known_shape(const PartialShape& a, const PartialShape& b);
// The broadcast of two known-rank shapes, or false.
bool broadcast_shape(const PartialShape& a, const PartialShape& b, PartialShape* out);

}  // namespace tfs::grappler

// Graph IR: nodes with an op, unique names as TF makes them (Mul, Mul_1), attrs, data inputs
// (node:index), control inputs, and a library of functions (If/While branches, called
// functions). A FunctionDef-like GraphFunction is a graph with designated argument
// placeholders and return values.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tfscope/op_def.h"
#include "tfscope/tensor.h"

namespace tfs {

class Node;

struct Output {
  Node* node = nullptr;
  int index = 0;
  friend bool operator==(const Output&, const Output&) = default;
};

class Node {
 public:
  int id = 0;
  std::string name;
  const OpDef* def = nullptr;
  AttrMap attrs;
  std::vector<Output> inputs;
  std::vector<Node*> control_inputs;
  std::vector<DType> output_dtypes;
  std::vector<PartialShape> output_shapes;

  const std::string& op() const { return def->name; }
  int num_outputs() const { return static_cast<int>(output_dtypes.size()); }
  // "{{node add}} = AddV2[T=DT_FLOAT](x, y)", as TF's error messages print a node.
  std::string summary() const;
};

struct GraphFunction;
using FunctionLibrary = std::map<std::string, std::shared_ptr<const GraphFunction>>;

class Graph : public std::enable_shared_from_this<Graph> {
 public:
  explicit Graph(std::string name = "graph");
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  const std::string& name() const { return name_; }
  // "FuncGraph(name=f, id=1234)", as TF's errors name a graph.
  std::string repr() const;

  // The graph that was being built when this one was begun (TF's FuncGraph.outer_graph): its
  // tensors may be captured here, while this graph's tensors are out of scope there.
  void set_outer_graph(const std::shared_ptr<Graph>& outer) { outer_ = outer; }
  std::shared_ptr<Graph> outer_graph() const { return outer_.lock(); }
  // Whether `other` is this graph or one of its outer graphs.
  bool is_within(const Graph& other) const;

  // Adds a node: resolves output dtypes (TF's graph-mode TypeErrors), runs the shape function
  // (TF's ValueErrors), and names it uniquely. `name` ending in '/' is taken as exact.
  Node* add_node(const std::string& op, const std::string& name, std::vector<Output> inputs,
                 AttrMap attrs, std::vector<Node*> control_inputs = {});
  // Adds a node whose output dtypes/shapes are given (used by importers and passes).
  Node* add_node_raw(const OpDef& def, const std::string& exact_name, std::vector<Output> inputs,
                     AttrMap attrs, std::vector<DType> out_dtypes,
                     std::vector<PartialShape> out_shapes);

  // TF's unique naming: "mul", then "mul_1", "mul_2"; names are case-insensitively unique.
  std::string unique_name(const std::string& name, bool mark_used = true);

  const std::vector<std::unique_ptr<Node>>& nodes() const { return nodes_; }
  Node* find_node(const std::string& name) const;
  int num_nodes() const { return static_cast<int>(nodes_.size()); }
  // Removes nodes not in `keep` (by pointer), preserving order.
  void remove_nodes_except(const std::set<const Node*>& keep);

  // A symbolic Tensor for output `index` of `node`.
  Tensor tensor(Node* node, int index = 0);

  FunctionLibrary& library() { return library_; }
  const FunctionLibrary& library() const { return library_; }
  void add_function(std::shared_ptr<const GraphFunction> fn);
  const GraphFunction* find_function(const std::string& name) const;

  // Op type -> count, as Counter(n.op for n in graph_def.node).
  std::map<std::string, int> op_counts() const;

 private:
  std::string name_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::map<std::string, int> name_counts_;  // lower-cased name -> next suffix
  std::set<std::string> used_names_;        // lower-cased
  FunctionLibrary library_;
  int next_id_ = 0;
  std::weak_ptr<Graph> outer_;
};

// A function: a graph, its argument placeholders in order, and its return values.
struct GraphFunction {
  std::string name;
  std::shared_ptr<Graph> graph;
  std::vector<Node*> args;
  std::vector<std::string> arg_names;
  std::vector<Output> outputs;
  std::vector<std::string> output_names;
  // Nodes that must run even though no output depends on them (control returns).
  std::vector<Node*> control_outputs;
  bool is_stateful = false;

  std::vector<DType> arg_dtypes() const;
  std::vector<DType> output_dtypes() const;
  std::vector<PartialShape> output_shapes() const;
};

// A process-wide counter for function names (__inference_f_12, cond_true_35).
int64_t next_uid();

// Runs `node`'s shape function with the given input shapes (the values of Const inputs are
// known to it), as the graph does when the node is added.
std::vector<PartialShape> infer_node_shapes(const Node& node,
                                            const std::vector<PartialShape>& input_shapes);

// The value of `o` as a shape tensor where the graph knows it without running anything, as
// TF's ShapeRefiner::ConstantPartialShape: a Shape op's input shape, a Pack of scalars (each a
// constant or -1), a ConcatV2 of such, a Cast of one, or a small constant subgraph evaluated
// (a StridedSlice of a Const). -1 marks an unknown dim. Nullopt where nothing is known.
std::optional<Tensor> constant_partial_shape(const Output& o);

// The output shapes of a call of `fn` with arguments of these shapes, inferred through its body
// as TF's shape refiner infers a function call node's (nested calls included), each merged with
// the shape the function was traced with. Where inference fails, the traced shapes.
std::vector<PartialShape> infer_call_output_shapes(const GraphFunction& fn,
                                                   const std::vector<PartialShape>& arg_shapes);

}  // namespace tfs

// GraphReport: what a traced function's graph holds, as text, JSON and Graphviz DOT: node counts
// by op type, captured external tensors, the structured input signature, outputs, and library
// functions (If/While bodies).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tfscope/graph.h"

namespace tfs {

struct CaptureInfo {
  std::string name;   // the placeholder (or Const) inside the graph
  DType dtype = DType::kInvalid;
  PartialShape shape;
  std::string kind;   // "const", "tensor", "resource", "outer"
  std::string tf_dtype{};  // TF's name of a dtype tfscope has none for (dtype kInvalid)
};

struct TensorInfo {
  std::string name;
  DType dtype = DType::kInvalid;
  PartialShape shape;
  std::string tf_dtype{};  // TF's name of a dtype tfscope has none for (dtype kInvalid)
};

struct GraphReport {
  std::string function_name;
  std::string graph_name;
  std::string input_signature;  // pretty_printed_signature(verbose=False)
  int num_nodes = 0;
  std::map<std::string, int> op_counts;
  std::vector<TensorInfo> inputs;
  std::vector<TensorInfo> outputs;
  std::vector<CaptureInfo> captures;
  std::vector<std::string> library;  // function names
  std::string dot_body;               // Graphviz edges and nodes

  std::string text() const;
  std::string json() const;  // one JSON object
  std::string dot() const;   // a complete digraph
};

// Fills everything but the signature and captures from a function body.
GraphReport report_function(const GraphFunction& fn);

}  // namespace tfs

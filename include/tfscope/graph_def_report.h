// The GraphReport of a graph TF traced (a real tf.function's concrete function), read from TF's
// own serialized GraphDef (`cf.graph.as_graph_def(add_shapes=True).SerializeToString()`, or the C
// API's serialization with the outputs' shapes given apart): ops by
// type, inputs, captures and outputs with their dtypes and shapes, library functions and the
// drawing, as report_function gives them for tfscope's own functions. Ops tfscope does not define
// are counted and drawn all the same; nothing is imported into the Graph IR.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tfscope/graph_report.h"

namespace tfs {

// What the GraphDef does not hold, from TF's FuncGraph: its names, the signature text
// (pretty_printed_signature(verbose=False)) and which tensors ("name:index") are its inputs (all of
// graph.inputs, the captured ones too, as a tfscope function's args), its captures (with their
// kind: "tensor", "resource", "outer") and its outputs. The report names inputs and captures by
// their placeholder node, outputs by tensor, as report_function does.
struct GraphDefFacts {
  std::string function_name;
  std::string graph_name;
  std::string signature;
  std::vector<std::string> inputs;
  std::vector<std::pair<std::string, std::string>> captures;
  std::vector<std::string> outputs;
  // Shapes of input, capture and output tensors ("name:index") as the FuncGraph holds them
  // (nullopt: unknown rank; -1: an unknown dim), for a GraphDef without TF's Python-side shapes
  // (the C API's serialization: no `_output_shapes`, which as_graph_def(add_shapes=True) writes in
  // a Python loop over every node, and a capture's placeholder without its shape); a tensor not in
  // it takes its node's attrs.
  std::map<std::string, std::optional<std::vector<int64_t>>> shapes;
};

// Throws savedmodel::FormatError ("[graphdef] <function>: ...") for bytes that are no GraphDef, or
// a tensor of `facts` that names no node output of it.
GraphReport report_graph_def(std::string_view serialized_graph_def, const GraphDefFacts& facts);

}  // namespace tfs

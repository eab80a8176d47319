// Between the Graph IR and TF's protos: tensors, shapes, attrs, NodeDefs, FunctionDefs. Export
// writes what TF's importer accepts; import rebuilds nodes through Graph::add_node so every op
// goes through its one OpDef (dtype resolution and shape function), and fails with one line
// naming the op when tfscope does not define it.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "tfscope/graph.h"
#include "tfscope/proto/function.pb.h"
#include "tfscope/proto/graph.pb.h"
#include "tfscope/proto/tensor.pb.h"
#include "tfscope/tensor_bundle.h"

namespace tfs::savedmodel::detail {

// ---- values ----
void shape_to_proto(const PartialShape& s, tensorflow::TensorShapeProto* out);
PartialShape shape_from_proto(const tensorflow::TensorShapeProto& s, const std::string& where);
void tensor_to_proto(const Tensor& t, tensorflow::TensorProto* out);
Tensor tensor_from_proto(const tensorflow::TensorProto& p, const std::string& where);
// A DType tfscope supports, from TF's enum number; throws naming `where` otherwise.
DType dtype_from_proto(int dt, const std::string& where);
// Bundle tensors <-> Tensors (numeric, bool and string).
BundleTensor tensor_to_bundle(const std::string& key, const Tensor& t);
Tensor tensor_from_bundle(const BundleTensor& b, const std::string& where);

// ---- export ----
void attr_to_proto(const AttrValue& v, tensorflow::AttrValue* out);
// Attrs of `n` (monostate values skipped) into a NodeDef's attr map.
void attrs_to_proto(const Node& n, google::protobuf::Map<std::string, tensorflow::AttrValue>* out);
// Index of `output` within its node's output arg, and that arg's name: FunctionDef's
// "node:arg:index" form.
std::string function_output_ref(const Output& output);
// A FunctionDef for `fn` (body nodes, args, rets, control rets).
tensorflow::FunctionDef function_to_proto(const GraphFunction& fn);
// Every function `g`'s library reaches (nested bodies included), by name.
void collect_library(const Graph& g, FunctionLibrary& out);

// ---- import ----
// Builds GraphFunctions from a FunctionDefLibrary on demand; one per name, shared.
class FunctionImporter {
 public:
  FunctionImporter(const tensorflow::FunctionDefLibrary& lib, std::string file,
                   std::shared_ptr<FunctionLibrary> out);
  // Imports `name` and everything it calls; returns it.
  std::shared_ptr<const GraphFunction> get(const std::string& name);
  const std::string& file() const { return file_; }

 private:
  const tensorflow::FunctionDefLibrary& lib_;
  std::string file_;
  std::shared_ptr<FunctionLibrary> out_;
  std::map<std::string, const tensorflow::FunctionDef*> defs_;
  std::map<std::string, int> in_progress_;
};

// Converts a NodeDef's attrs for `def`; func attrs are imported through `fns`.
AttrMap attrs_from_proto(const tensorflow::NodeDef& nd, const OpDef& def, FunctionImporter& fns);

// Narrows `n`'s inferred output shapes with the `_output_shapes` TF recorded on the NodeDef,
// where the two agree (a variable read inside a function has no static shape for our shape
// functions, TF's handle data gives it one).
void refine_output_shapes(Node& n);

// The op `op` from the registry, or a FormatError "[savedmodel] <file>: unsupported op 'X' (node
// 'n')".
const OpDef& require_op(const std::string& op, const std::string& node, const std::string& file);

// Orders NodeDefs so that every node comes after its data and control inputs; `input_node` maps
// an input string to the node it names (or "" for function args / unknown). Throws on a cycle.
std::vector<const tensorflow::NodeDef*> topological_order(
    const std::vector<const tensorflow::NodeDef*>& nodes,
    const std::function<std::string(const std::string&)>& input_node, const std::string& file);

}  // namespace tfs::savedmodel::detail

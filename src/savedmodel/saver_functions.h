// The saver of an object-based SavedModel, as TF 2.21's tf.saved_model.save writes it
// (conformance/saved_model/NOTES.md "saver_def"): two traced functions, __inference__traced_save_N
// (file prefix, every variable, the serialized object graph -> the prefix, after SaveV2 and
// MergeV2Checkpoints) and __inference__traced_restore_N (file prefix, every variable -> the
// prefix, after RestoreV2 and one AssignVariableOp per variable), called from the main graph by
// StatefulPartitionedCall nodes that MetaGraphDef.saver_def names.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tfscope/proto/meta_graph.pb.h"
#include "tfscope/dtype.h"
#include "tfscope/shape.h"

namespace tfs::savedmodel::detail {

// A variable the saver saves and restores, in the object graph's breadth-first order.
struct SaverVariable {
  std::string handle;          // its VarHandleOp in the main graph
  std::string checkpoint_key;  // "<path>/.ATTRIBUTES/VARIABLE_VALUE"
  DType dtype;
  PartialShape shape;
};

// Adds to `mg` the two functions (to its library), the main graph's nodes "Const" (a string
// scalar holding `object_graph`, the checkpoint's _CHECKPOINTABLE_OBJECT_GRAPH),
// "saver_filename" and the two calls, and saver_def. `unique` gives a main-graph node name not
// yet used for a base name ("Const" -> "Const_1" after a captured constant took "Const").
void add_saver(tensorflow::MetaGraphDef& mg, const std::vector<SaverVariable>& variables,
               const std::string& object_graph,
               const std::function<std::string(const std::string&)>& unique);

}  // namespace tfs::savedmodel::detail

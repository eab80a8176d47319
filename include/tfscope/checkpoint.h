// TF's object-based checkpoints: writing one as tf.train.Checkpoint.write does, and reading a TF
// checkpoint by variable name, as tf.train.load_checkpoint's CheckpointReader does: a
// TensorBundle (`<prefix>.index` + data shards) written by tf.compat.v1.train.Saver (keys are the
// variables' names, as in google-research/bert's checkpoints) or by tf.train.Checkpoint (keys are
// object paths). A directory is resolved through its `checkpoint` file, as
// tf.train.latest_checkpoint does.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tfscope/tensor.h"

namespace tfs {
class VariableState;
}
namespace tfs::savedmodel {
class BundleReader;
}

namespace tfs::checkpoint {

// One node of a checkpoint's object graph: its children (local name, node id) and, for a
// variable, where its value is kept.
struct GraphNode {
  std::vector<std::pair<std::string, int>> children;
  std::string full_name;       // the variable's name when it was saved; "" for other objects
  std::string checkpoint_key;  // "<path>/.ATTRIBUTES/VARIABLE_VALUE"; "" for other objects
};

// One object of the tree a tf.train.Checkpoint saves, object 0 the root: its trackable children
// (local name, object index) and, for a variable, its state.
struct CheckpointObject {
  std::vector<std::pair<std::string, int>> children;
  std::shared_ptr<VariableState> variable;
};

// tf.train.Checkpoint.write(prefix): each variable reachable from the root under its path's
// "<path>/.ATTRIBUTES/VARIABLE_VALUE" and the object graph as _CHECKPOINTABLE_OBJECT_GRAPH, as TF
// 2.21 writes them (nodes numbered breadth-first); `<prefix>.index` and
// `<prefix>.data-00000-of-00001`, each written whole, the prefix's directory created.
void write(const std::string& prefix, const std::vector<CheckpointObject>& objects);

struct VariableInfo {
  std::string name;
  DType dtype = DType::kInvalid;
  std::vector<int64_t> shape;
};

class CheckpointReader {
 public:
  // `path`: a checkpoint prefix, or a directory holding a `checkpoint` file. Errors are TF's:
  // NotFoundError "Unsuccessful TensorSliceReader constructor: Failed to find any matching files
  // for <prefix>", ValueError "Couldn't find 'checkpoint' file or checkpoints in given directory
  // <dir>".
  explicit CheckpointReader(const std::string& path);
  ~CheckpointReader();
  CheckpointReader(const CheckpointReader&) = delete;
  CheckpointReader& operator=(const CheckpointReader&) = delete;

  const std::string& prefix() const { return prefix_; }
  // The object graph (_CHECKPOINTABLE_OBJECT_GRAPH) of an object-based checkpoint, node 0 the
  // root; NotFoundError when the checkpoint has none (a name-based one, tf.compat.v1's Saver).
  std::vector<GraphNode> object_graph() const;
  // Every tensor of the checkpoint, sorted by name.
  std::vector<VariableInfo> variables() const;
  bool has_tensor(const std::string& name) const;
  // NotFoundError "Key <name> not found in checkpoint" for a name it lacks.
  Tensor get_tensor(const std::string& name) const;

 private:
  std::string prefix_;
  std::unique_ptr<savedmodel::BundleReader> bundle_;
};

// tf.train.latest_checkpoint: the prefix the directory's `checkpoint` file names (relative paths
// joined to the directory), or "" when there is none.
std::string latest_checkpoint(const std::string& dir);

}  // namespace tfs::checkpoint

// Reading a TF checkpoint by variable name, as tf.train.load_checkpoint's CheckpointReader does: a
// TensorBundle (`<prefix>.index` + data shards) written by tf.compat.v1.train.Saver (keys are the
// variables' names, as in google-research/bert's checkpoints) or by tf.train.Checkpoint (keys are
// object paths). A directory is resolved through its `checkpoint` file, as
// tf.train.latest_checkpoint does.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tfscope/tensor.h"

namespace tfs::savedmodel {
class BundleReader;
}

namespace tfs::checkpoint {

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

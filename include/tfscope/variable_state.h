// The state behind a tf.Variable: a resource that ReadVariableOp / AssignVariableOp act on.
// The user-facing Variable handle lives in the graph layer (it builds ops); this is only data.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

#include "tfscope/tensor.h"

namespace tfs {

class VariableState final : public ResourceBase {
 public:
  VariableState(DType dtype, PartialShape shape, std::string name, bool trainable);

  DType dtype() const { return dtype_; }
  const PartialShape& shape() const { return shape_; }
  const std::string& name() const { return name_; }  // "Variable:0"
  bool trainable() const { return trainable_; }
  uint64_t uid() const { return uid_; }
  std::string debug_name() const override { return name_; }

  bool initialized() const;
  Tensor read() const;       // throws FailedPrecondition if uninitialised
  void write(Tensor value);  // value must match dtype and shape
  // Read-modify-write under the variable's lock (AssignAdd/AssignSub are atomic per call).
  Tensor update(const std::function<Tensor(const Tensor&)>& fn);

 private:
  DType dtype_;
  PartialShape shape_;
  std::string name_;
  bool trainable_;
  uint64_t uid_;
  mutable std::mutex mu_;
  Tensor value_;
};

}  // namespace tfs

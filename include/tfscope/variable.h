// tf.Variable: a handle to a VariableState. Reads and writes are ops (ReadVariableOp,
// AssignVariableOp, AssignAddVariableOp, AssignSubVariableOp), so inside a traced function they
// become graph nodes that act on the variable every call, while the variable itself is captured
// by reference (a resource placeholder), as TF does.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "tfscope/ops.h"
#include "tfscope/value.h"
#include "tfscope/variable_state.h"

namespace tfs {

class Variable {
 public:
  // Created on first call inside a traced function only when the function allows it (TF's
  // variable-creation scopes, the context's VariableCreationPolicy); otherwise raises TF's
  // ValueError. The initial value is computed eagerly, as TF lifts initializers out of the
  // graph.
  explicit Variable(const Value& initial_value, std::string name = "Variable",
                    bool trainable = true, DType dtype = DType::kInvalid);
  explicit Variable(std::shared_ptr<VariableState> state) : state_(std::move(state)) {}

  DType dtype() const { return state_->dtype(); }
  const PartialShape& shape() const { return state_->shape(); }
  const std::string& name() const { return state_->name(); }
  bool trainable() const { return state_->trainable(); }
  const std::shared_ptr<VariableState>& state() const { return state_; }
  Tensor handle() const { return Tensor::resource(state_); }

  Tensor read_value() const;  // ReadVariableOp
  Tensor value() const { return read_value(); }
  Tensor numpy() const;       // the current value, eagerly
  Tensor assign(const Value& v);
  Tensor assign_add(const Value& delta);
  Tensor assign_sub(const Value& delta);

  operator Value() const { return Value(state_); }  // NOLINT: a Variable is a host value
  // `<tf.Variable 'Variable:0' shape=(2,) dtype=float32, numpy=array([1., 2.], dtype=float32)>`
  std::string repr() const;

 private:
  Tensor update(const std::string& op, const Value& v);
  std::shared_ptr<VariableState> state_;
};

}  // namespace tfs

// Name scopes as TF's Python op wrappers open them, for the front-end functions of src/ops.
// Internal to src/ops.
#pragma once

#include <string>

#include "tfscope/ops.h"

namespace tfs::detail {

// `with ops.name_scope(base)` for one wrapper call, in graph mode only: the scope name is made
// unique (and taken) now; op_name() is the exact name for the op the scope is named after
// ("add/" -> node "add", its operands "add/y").
class OpScope {
 public:
  explicit OpScope(const std::string& base) : b_(current_builder()), name_(base) {
    if (b_) {
      name_ = b_->unique_name(WrapperName::rename(base, true), true);
      b_->push_scope(name_);
    }
  }
  ~OpScope() {
    if (b_) b_->pop_scope();
  }
  OpScope(const OpScope&) = delete;
  OpScope& operator=(const OpScope&) = delete;
  std::string op_name() const { return b_ ? name_ + "/" : name_; }

 private:
  GraphBuilder* b_;
  std::string name_;
};

// The scope a generated op wrapper converts its inputs in: named as the op created next will be
// ("TensorListGetItem/element_shape"), without taking that name.
class InputScope {
 public:
  explicit InputScope(const std::string& op) : b_(current_builder()) {
    if (b_) b_->push_scope(b_->unique_name(WrapperName::rename(op, false), false));
  }
  ~InputScope() {
    if (b_) b_->pop_scope();
  }
  InputScope(const InputScope&) = delete;
  InputScope& operator=(const InputScope&) = delete;

 private:
  GraphBuilder* b_;
};

// A host operand converted to `dtype` for input `param` of `op`, with TF's graph-mode TypeError
// ("Expected float32 passed to parameter 'y' of op 'AddV2', got ..."); a tensor or variable is
// converted as it is (the op's dtype check reports a mismatch).
Tensor convert_operand(const Value& v, DType dtype, const std::string& param,
                       const std::string& op);

// A generated op wrapper's conversion of one operand (TF's _apply_op_helper), in the scope the op
// created next is named after: a host value becomes "<Op>/<param>" (with convert_operand's
// TypeError), a variable is read there as "<Op>/ReadVariableOp", a tensor passes as it is.
Tensor convert_input(const std::string& op, const Value& v, DType dtype, const std::string& param);

// tfs::reduce with the node named `name` ("<name>/reduction_indices" for a given axis), as
// tf.reduce_mean(..., name="mean") names it inside tf.nn.moments.
Tensor named_reduce(const std::string& op, const Tensor& x, const Value& axis, bool keepdims,
                    const std::string& name);

}  // namespace tfs::detail

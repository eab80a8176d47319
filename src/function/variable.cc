#include "tfscope/variable.h"

#include <vector>

#include "tfscope/context.h"
#include "tfscope/format.h"
#include "tfscope/function.h"

namespace tfs {

Variable::Variable(const Value& initial_value, std::string name, bool trainable, DType dtype) {
  if (auto* policy = Context::get().variable_policy()) {
    if (!policy->allowed) {
      value_error(
          "tf.function only supports singleton tf.Variables created on the first call. Make sure "
          "the tf.Variable is only created once or created outside tf.function. See "
          "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.");
    }
    policy->created++;
  }
  // The initial value is computed outside any graph (TF lifts initializers with init_scope).
  Tensor init;
  {
    InitScope eager;
    if (initial_value.kind() == Value::Kind::kTensor && initial_value.as_tensor().is_symbolic()) {
      init = evaluate_lifted(initial_value.as_tensor());
    } else {
      init = convert_to_tensor(initial_value, dtype);
    }
    if (dtype != DType::kInvalid && init.dtype() != dtype) init = cast(init, dtype);
  }
  state_ = std::make_shared<VariableState>(init.dtype(), init.shape(), name + ":0", trainable);
  state_->write(init.clone());
}

Tensor Variable::read_value() const {
  return read_variable(state_);
}

Tensor Variable::numpy() const { return state_->read(); }

Tensor Variable::update(const std::string& op, const Value& v) {
  Tensor t = convert_to_tensor(v, dtype());
  execute(op, {handle(), t}, {{"dtype", dtype()}}, op);
  return read_value();
}

Tensor Variable::assign(const Value& v) { return update("AssignVariableOp", v); }
Tensor Variable::assign_add(const Value& d) { return update("AssignAddVariableOp", d); }
Tensor Variable::assign_sub(const Value& d) { return update("AssignSubVariableOp", d); }

std::string Variable::repr() const {
  std::string s = "<tf.Variable '" + name() + "' shape=" + shape().str() +
                  " dtype=" + std::string(dtype_name(dtype()));
  if (state_->initialized()) s += ", numpy=" + format_numpy_repr(state_->read());
  return s + ">";
}

}  // namespace tfs

#include "tfscope/variable_state.h"

namespace tfs {

static std::atomic<uint64_t> g_next_variable_uid{1};

VariableState::VariableState(DType dtype, PartialShape shape, std::string name, bool trainable)
    : dtype_(dtype),
      shape_(std::move(shape)),
      name_(std::move(name)),
      trainable_(trainable),
      uid_(g_next_variable_uid++) {}

bool VariableState::initialized() const {
  std::lock_guard<std::mutex> lock(mu_);
  return value_.defined();
}

Tensor VariableState::read() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!value_.defined()) {
    throw Error(ErrorKind::kFailedPrecondition,
                "Could not find variable " + name_ +
                    ". This could mean that the variable has been deleted. In TF1, it can also "
                    "mean the variable is uninitialized.");
  }
  return value_;
}

void VariableState::write(Tensor value) {
  if (value.dtype() != dtype_) {
    invalid_argument("Trying to assign variable with wrong dtype. Expected " +
                     std::string(dtype_name(dtype_)) + " got " +
                     std::string(dtype_name(value.dtype())));
  }
  if (!shape_.is_compatible_with(value.shape())) {
    invalid_argument("Trying to assign to variable with tensor with wrong shape. Expected " +
                     shape_.str() + " got " + value.shape().str());
  }
  std::lock_guard<std::mutex> lock(mu_);
  value_ = std::move(value);
}

Tensor VariableState::update(const std::function<Tensor(const Tensor&)>& fn) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!value_.defined()) {
    throw Error(ErrorKind::kFailedPrecondition,
                "Could not find variable " + name_ + ". This could mean that the variable has "
                "been deleted. In TF1, it can also mean the variable is uninitialized.");
  }
  Tensor next = fn(value_);
  if (next.dtype() != dtype_ || !shape_.is_compatible_with(next.shape())) {
    invalid_argument("[core] update of variable " + name_ + " changed its dtype or shape");
  }
  value_ = next;
  return next;
}

}  // namespace tfs

// Whether a kernel may write its result into an input's buffer, as TF's kernels do where the
// input's buffer has a reference count of one (forward_input_or_allocate_output, and the variable
// updates' in-place write): nothing else holds the tensor or its buffer (not the caller, a
// constant, a variable or a view), so nobody can see it change. Internal to src/ops.
#pragma once

#include "tfscope/tensor.h"

namespace tfs::detail {

inline bool buffer_unshared(const Tensor& t) {
  return t.is_eager() && t.impl().use_count() == 1 && t.impl()->buffer &&
         t.impl()->buffer.use_count() == 1;
}

// Where a variable update writes: the current value's buffer when only the variable holds it
// (TF's update writes into the variable's buffer, copying it first only while a read of it is
// still held), else a new tensor of its dtype and shape.
inline Tensor update_target(const Tensor& cur) {
  return buffer_unshared(cur) ? cur : Tensor::empty(cur.dtype(), cur.eager_shape());
}

// The writable elements of a tensor buffer_unshared says no one else sees.
template <typename T>
T* reused_data(const Tensor& t) {
  return const_cast<T*>(t.data<T>());
}

}  // namespace tfs::detail

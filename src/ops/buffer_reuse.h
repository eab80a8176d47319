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

// The writable elements of a tensor buffer_unshared says no one else sees.
template <typename T>
T* reused_data(const Tensor& t) {
  return const_cast<T*>(t.data<T>());
}

}  // namespace tfs::detail

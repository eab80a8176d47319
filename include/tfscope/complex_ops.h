// Front ends of complex-only ops (their kernels are src/ops/complex.cc's). A header of its own so
// that ops.h, which most of the tree includes, does not change for them.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tfscope/tensor.h"

namespace tfs {

// tf.transpose(x, perm, conjugate=True) of a complex x: one ConjugateTranspose in the scope
// "transpose", perm a Const (reversed dims when not given), as tfs::transpose builds Transpose.
Tensor conjugate_transpose(const Tensor& x, std::optional<std::vector<int64_t>> perm);
Tensor conjugate_transpose_by(const Tensor& x, const Tensor& perm);  // a computed perm

}  // namespace tfs

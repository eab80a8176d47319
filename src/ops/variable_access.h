// How resource-variable kernels (src/ops/state.cc, sparse_update.cc) reach the variable a
// handle input names, and read it with TF's dtype check.
#pragma once

#include <string>

#include "tfscope/op_def.h"
#include "tfscope/variable_state.h"

namespace tfs::detail {

// The variable behind a resource handle; the handle tensor keeps it alive while the kernel runs
// (no shared_ptr copy per call).
inline VariableState* variable_of(OpKernelContext& ctx, const Tensor& handle) {
  auto* v = dynamic_cast<VariableState*>(handle.resource_handle().get());
  if (!v) ctx.fail("[ops] " + *ctx.op_name + ": input is not a variable handle");
  return v;
}

// The variable's value for a node whose dtype attr is `want` (ReadVariableOp, ResourceGather).
// TF 2.21's kernel text names the attr's dtype as expected and the variable's as got ("Expected
// int32 got float" reading a float variable as int32).
inline Tensor read_as(OpKernelContext& ctx, const VariableState& v, DType want) {
  if (v.dtype() != want) {
    ctx.fail("Trying to read variable with wrong dtype. Expected " +
             std::string(dtype_tf_string(want)) + " got " +
             std::string(dtype_tf_string(v.dtype())));
  }
  return v.read();
}

}  // namespace tfs::detail

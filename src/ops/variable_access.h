// How resource-variable kernels (src/ops/state.cc, sparse_update.cc) reach the variable a
// handle input names, and read it with TF's dtype check; a plan's ReadVariableOp step
// (src/graph/executor.cc) reads through the same read_variable.
#pragma once

#include <string>
#include <typeinfo>

#include "tfscope/op_def.h"
#include "tfscope/variable_state.h"

namespace tfs::detail {

// The variable behind a resource handle, or null; the handle tensor keeps it alive while it is
// used (no shared_ptr copy per call). VariableState is final: a type check, not a dynamic_cast.
inline VariableState* variable_behind(const Tensor& handle) {
  ResourceBase* r = handle.resource_handle().get();
  return r && typeid(*r) == typeid(VariableState) ? static_cast<VariableState*>(r) : nullptr;
}

// The variable behind a handle input of an op named `op`; fails as the kernel does.
inline VariableState* variable_of(const Tensor& handle, const std::string& op) {
  VariableState* v = variable_behind(handle);
  if (!v) invalid_argument("[ops] " + op + ": input is not a variable handle");
  return v;
}
inline VariableState* variable_of(OpKernelContext& ctx, const Tensor& handle) {
  return variable_of(handle, *ctx.op_name);
}

// The variable's value for a node whose dtype attr is `want` (ReadVariableOp, ResourceGather).
// TF 2.21's kernel text names the attr's dtype as expected and the variable's as got ("Expected
// int32 got float" reading a float variable as int32).
inline Tensor read_as(const VariableState& v, DType want) {
  if (v.dtype() != want) {
    invalid_argument("Trying to read variable with wrong dtype. Expected " +
                     std::string(dtype_tf_string(want)) + " got " +
                     std::string(dtype_tf_string(v.dtype())));
  }
  return v.read();
}

// ReadVariableOp's work, for a node whose dtype attr is `want`: the value of the variable
// behind `handle`.
inline Tensor read_variable(const Tensor& handle, DType want) {
  return read_as(*variable_of(handle, "ReadVariableOp"), want);
}

}  // namespace tfs::detail

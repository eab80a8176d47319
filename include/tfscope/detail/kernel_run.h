// How a graph plan runs kernels (include/tfscope/executor.h), from the op registry: internal to
// the ops and graph layers.
// - Each node's kernel is resolved once, when the plan is built: the registered kernel without
//   the registry's flush-to-zero guard (the plan's run holds one ScopedFlushDenormal around all
//   its steps instead of one per kernel), or, for an op that registered a preparer, a kernel
//   specialised to the node's attrs (TF constructs one OpKernel per node and reads its attrs in
//   the constructor; the kernel then reads no attr by name on each run).
// - A plan keeps the buffers its intermediate values had in its last run (only those nothing
//   else holds, src/ops/buffer_reuse.h's `buffer_unshared`: never a fetched value, a caller's
//   argument, a constant, a variable's value or a view) and offers them to the kernel that wrote
//   them: `OpKernelContext::allocate_output(i, dtype, shape)` takes spare i when its dtype and
//   shape match, so a run at a fixed shape allocates only the values that leave it. The values
//   computed are the same: a kernel writes every element of what it allocates, as it must of an
//   uninitialised buffer.
#pragma once

#include "tfscope/op_def.h"

namespace tfs::detail {

// Builds the kernel of one node from its attrs; may throw for attrs the kernel would reject, in
// which case the plan keeps the op's kernel, which reports them when it runs.
using KernelPreparer = Kernel (*)(const AttrMap& attrs);

struct PreparedKernelRegistration {
  PreparedKernelRegistration(const char* op, KernelPreparer preparer);
};

// The kernel a plan runs for a node of op `def` with `attrs`, to be called under a
// ScopedFlushDenormal (src/ops/denormal.h).
Kernel plan_kernel(const OpDef& def, const AttrMap& attrs);

// The spares a plan offers the kernel it is running on this thread (OfferedOutputs).
inline constinit thread_local Tensor* offered_outputs = nullptr;
inline constinit thread_local int offered_count = 0;

// While one lives on a thread, allocate_output(i, ...) there may take spares[i] (i < count).
class OfferedOutputs {
 public:
  OfferedOutputs(Tensor* spares, int count)
      : saved_spares_(offered_outputs), saved_count_(offered_count) {
    offered_outputs = spares;
    offered_count = count;
  }
  ~OfferedOutputs() {
    offered_outputs = saved_spares_;
    offered_count = saved_count_;
  }
  OfferedOutputs(const OfferedOutputs&) = delete;
  OfferedOutputs& operator=(const OfferedOutputs&) = delete;

 private:
  Tensor* saved_spares_;
  int saved_count_;
};

}  // namespace tfs::detail

// How a plan's step runs a kernel (executor.cc, step_fusion.cc): its errors name the node, as
// TF's "[[{{node ...}}]]" does, and under a recording OpProfile each kernel run is one timed
// event at the depth of the plan running it. Internal to src/graph.
#pragma once

#include <string>

#include "tfscope/errors.h"
#include "tfscope/graph.h"
#include "tfscope/op_profile.h"

namespace tfs::detail {

// A kernel's error as the run reports it: naming its node, unless an inner run (a called
// function's) already named one.
Error at_node(const Error& err, const std::string& node);

// While one lives, the plans it covers count one level deeper in the recording profile
// (counted only while a profile records).
class ProfileDepth {
 public:
  explicit ProfileDepth(OpProfile* p);
  ~ProfileDepth();
  ProfileDepth(const ProfileDepth&) = delete;
  ProfileDepth& operator=(const ProfileDepth&) = delete;

 private:
  bool on_;
};

// One kernel run of `node` in plan `function`, timed into `prof`.
void run_timed(OpProfile& prof, const Node& node, const OpDef& def, const Kernel& kernel,
               const std::string& function, OpKernelContext& ctx);

}  // namespace tfs::detail

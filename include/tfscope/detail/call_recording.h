// How an eager function call meets a recording tape: the function layer asks these hooks, which
// the autodiff layer installs when a tape is first entered (src/autodiff/tape.cc), so that the
// function layer does not link autodiff. Null until then: no tape, nothing to record.
#pragma once

#include <span>
#include <vector>

#include "tfscope/graph.h"
#include "tfscope/op_def.h"

namespace tfs::detail {

struct CallRecording {
  // Whether a recording tape records an op with these inputs.
  bool (*would_record)(std::span<const Tensor> inputs) = nullptr;
  // Runs the call as TF's forward function, records it, returns the function's outputs.
  std::vector<Tensor> (*call)(const GraphFunction& fn, const OpDef& call_def, const AttrMap& attrs,
                              std::span<const Tensor> inputs) = nullptr;
};

CallRecording& call_recording();

}  // namespace tfs::detail

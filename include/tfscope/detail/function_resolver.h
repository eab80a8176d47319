// What a FunctionRuntime may also offer a kernel: the callable behind a function name, kept past
// the kernel's own run. A dataset op made while a graph runs holds its function this way and calls
// it whenever the dataset is iterated (TF's CapturedFunction instantiates it in the runtime of
// the op that made it). The graph layer's executor implements it for the functions of its graph.
#pragma once

#include <memory>
#include <string>

#include "tfscope/context.h"

namespace tfs::detail {

class FunctionResolver {
 public:
  virtual ~FunctionResolver() = default;
  // The function's plan; throws NotFound when the runtime does not know the name.
  virtual std::shared_ptr<const CallableFunction> resolve(const std::string& name) const = 0;
};

}  // namespace tfs::detail

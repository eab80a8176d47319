// The Executor: a plan compiled once per graph (the nodes needed for the fetches in topological
// order, kernels resolved and specialised to their node's attrs, each value's last use known so
// buffers are released as soon as possible), then run many times with feeds. Control-flow ops
// run the plans of library functions, compiled once with their parent. What a plan holds is
// private to executor.cc (`Plan`), so changing it rebuilds nothing else.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "tfscope/context.h"
#include "tfscope/graph.h"

namespace tfs {

class Executor : public CallableFunction {
 public:
  // `feeds` are the placeholders fed in order; `fetches` the outputs returned; `targets` nodes
  // that must run (control outputs). `library` resolves If/While/call bodies.
  Executor(std::shared_ptr<const Graph> graph, std::vector<Node*> feeds,
           std::vector<Output> fetches, std::vector<Node*> targets,
           std::shared_ptr<const FunctionLibrary> library = nullptr);
  ~Executor() override;
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;
  static std::shared_ptr<Executor> for_function(const GraphFunction& fn,
                                                std::shared_ptr<const FunctionLibrary> library);

  std::vector<Tensor> run(std::span<const Tensor> feed_values) const;
  std::vector<Tensor> call(std::span<const Tensor> args) const override { return run(args); }

  int num_steps() const;

 private:
  struct Plan;
  class Runtime;
  std::unique_ptr<Plan> plan_;
};

}  // namespace tfs

// The Executor: a plan compiled once per graph (the nodes needed for the fetches in topological
// order, kernels resolved, each value's last use known so buffers are released as soon as
// possible), then run many times with feeds. Control-flow ops run the plans of library
// functions, compiled once with their parent.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "tfscope/graph.h"

namespace tfs {

class Executor {
 public:
  // `feeds` are the placeholders fed in order; `fetches` the outputs returned; `targets` nodes
  // that must run (control outputs). `library` resolves If/While/call bodies.
  Executor(std::shared_ptr<const Graph> graph, std::vector<Node*> feeds,
           std::vector<Output> fetches, std::vector<Node*> targets,
           std::shared_ptr<const FunctionLibrary> library = nullptr);
  static std::shared_ptr<Executor> for_function(const GraphFunction& fn,
                                                std::shared_ptr<const FunctionLibrary> library);

  std::vector<Tensor> run(std::span<const Tensor> feed_values) const;

  int num_steps() const { return static_cast<int>(steps_.size()); }

 private:
  struct Step {
    const Node* node;
    const OpDef* def;
    std::vector<int> input_slots;
    int first_output_slot;
    std::vector<int> release_after;  // slots whose last use is this step
    bool is_const;
    std::shared_ptr<KernelStateSlot> state;  // for kernels that keep state: one per node
    std::shared_ptr<const AttrMap> attrs;    // the node's attrs as a graph pass rewrote them
  };
  class Runtime;

  std::shared_ptr<const Graph> graph_;
  std::shared_ptr<const FunctionLibrary> library_;
  std::vector<Step> steps_;
  std::vector<int> feed_slots_;
  std::vector<const Node*> feed_nodes_;
  std::vector<int> fetch_slots_;
  int num_slots_ = 0;
  // Plans of library functions, compiled on first use and kept.
  mutable std::mutex fn_mu_;
  mutable std::map<std::string, std::shared_ptr<Executor>> fn_plans_;
  std::shared_ptr<Executor> function_plan(const std::string& name) const;
};

}  // namespace tfs

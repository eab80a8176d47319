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
  static std::shared_ptr<Executor> for_function(const GraphFunction& fn,
                                                std::shared_ptr<const FunctionLibrary> library);

  std::vector<Tensor> run(std::span<const Tensor> feed_values) const;
  std::vector<Tensor> call(std::span<const Tensor> args) const override { return run(args); }

  int num_steps() const { return static_cast<int>(steps_.size()); }

 private:
  struct Step {
    const Node* node;
    const OpDef* def;
    std::vector<int> input_slots;
    int first_output_slot;
    std::vector<int> release_after;  // slots whose last use is this step
    std::vector<uint8_t> take_input;  // per input: moved out of its slot (its last use)
    bool is_const;
    Tensor const_value;                      // a Const node's value
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
  // Plans of the library functions the graph's nodes name, compiled with this plan (read without
  // a lock on every call); a function met only later (too deep a nesting) is compiled on first
  // use into late_plans_.
  std::map<std::string, std::shared_ptr<Executor>, std::less<>> fn_plans_;
  mutable std::mutex late_mu_;
  mutable std::map<std::string, std::shared_ptr<Executor>, std::less<>> late_plans_;
  std::shared_ptr<Executor> compile_function(const std::string& name) const;
  const Executor& function_plan(const std::string& name) const;
};

}  // namespace tfs

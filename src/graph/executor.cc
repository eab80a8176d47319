#include "tfscope/executor.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <variant>

#include "tfscope/grappler.h"

namespace tfs {

class Executor::Runtime : public FunctionRuntime {
 public:
  explicit Runtime(const Executor& e) : e_(e) {}
  std::vector<Tensor> call(const std::string& name, std::span<const Tensor> args) override {
    return e_.function_plan(name)->run(args);
  }

 private:
  const Executor& e_;
};

Executor::Executor(std::shared_ptr<const Graph> graph, std::vector<Node*> feeds,
                   std::vector<Output> fetches, std::vector<Node*> targets,
                   std::shared_ptr<const FunctionLibrary> library)
    : library_(std::move(library)) {
  // The plan runs the graph TF's grappler makes of this one, as TF runs every function graph.
  grappler::Item item = grappler::optimize(std::move(graph), std::move(feeds), std::move(fetches),
                                           std::move(targets));
  graph_ = item.graph;
  feeds = std::move(item.feeds);
  fetches = std::move(item.fetches);
  targets = std::move(item.targets);
  auto inputs_of = [](const Node* n) -> const std::vector<Output>& { return n->inputs; };
  // Nodes needed: everything the fetches and targets reach through data and control edges.
  std::set<const Node*> needed;
  std::vector<const Node*> stack;
  for (auto& f : fetches) stack.push_back(f.node);
  for (Node* t : targets) stack.push_back(t);
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (!needed.insert(n).second) continue;
    for (auto& in : inputs_of(n)) stack.push_back(in.node);
    for (Node* c : n->control_inputs) stack.push_back(c);
  }
  // Graph order is a topological order (nodes are only added after their inputs).
  std::map<const Node*, int> first_slot;
  for (auto& up : graph_->nodes()) {
    const Node* n = up.get();
    if (!needed.count(n)) continue;
    first_slot[n] = num_slots_;
    num_slots_ += n->num_outputs();
  }
  std::set<const Node*> fed(feeds.begin(), feeds.end());
  for (Node* f : feeds) {
    if (!first_slot.count(f)) {
      first_slot[f] = num_slots_;
      num_slots_ += 1;
    }
    feed_slots_.push_back(first_slot[f]);
    feed_nodes_.push_back(f);
  }
  std::vector<int> last_use(static_cast<size_t>(num_slots_), -1);
  for (auto& up : graph_->nodes()) {
    const Node* n = up.get();
    if (!needed.count(n) || fed.count(n)) continue;
    Step s;
    s.node = n;
    s.def = n->def;
    s.is_const = n->op() == "Const";
    if (s.def->keeps_state) s.state = std::make_shared<KernelStateSlot>();
    for (auto& in : inputs_of(n)) s.input_slots.push_back(first_slot.at(in.node) + in.index);
    s.first_output_slot = first_slot.at(n);
    int idx = static_cast<int>(steps_.size());
    for (int slot : s.input_slots) last_use[static_cast<size_t>(slot)] = idx;
    steps_.push_back(std::move(s));
  }
  for (auto& f : fetches) fetch_slots_.push_back(first_slot.at(f.node) + f.index);
  for (int slot : fetch_slots_)
    last_use[static_cast<size_t>(slot)] = static_cast<int>(steps_.size());
  for (size_t slot = 0; slot < last_use.size(); ++slot) {
    int u = last_use[slot];
    if (u >= 0 && u < static_cast<int>(steps_.size()))
      steps_[static_cast<size_t>(u)].release_after.push_back(static_cast<int>(slot));
  }
}

std::shared_ptr<Executor> Executor::for_function(const GraphFunction& fn,
                                                 std::shared_ptr<const FunctionLibrary> library) {
  return std::make_shared<Executor>(fn.graph, fn.args, fn.outputs, fn.control_outputs,
                                    std::move(library));
}

std::shared_ptr<Executor> Executor::function_plan(const std::string& name) const {
  std::lock_guard<std::mutex> lock(fn_mu_);
  auto it = fn_plans_.find(name);
  if (it != fn_plans_.end()) return it->second;
  const GraphFunction* fn = nullptr;
  if (library_) {
    auto f = library_->find(name);
    if (f != library_->end()) fn = f->second.get();
  }
  if (!fn) fn = graph_->find_function(name);
  if (!fn) throw Error(ErrorKind::kNotFound, "[graph] function " + name + " is not in the library");
  auto plan = for_function(*fn, library_);
  fn_plans_[name] = plan;
  return plan;
}

std::vector<Tensor> Executor::run(std::span<const Tensor> feed_values) const {
  if (feed_values.size() != feed_slots_.size()) {
    invalid_argument("[graph] expected " + std::to_string(feed_slots_.size()) + " feeds, got " +
                     std::to_string(feed_values.size()));
  }
  std::vector<Tensor> values(static_cast<size_t>(num_slots_));
  for (size_t i = 0; i < feed_slots_.size(); ++i) {
    const Tensor& v = feed_values[i];
    const Node* ph = feed_nodes_[i];
    DType want = ph->output_dtypes[0];
    if (!v.defined() || v.dtype() != want) {
      invalid_argument("[graph] node " + ph->name + ": expected a " +
                       std::string(dtype_name(want)) + " tensor, got " +
                       (v.defined() ? std::string(dtype_name(v.dtype())) : "nothing"));
    }
    if (!ph->output_shapes[0].is_compatible_with(v.shape())) {
      invalid_argument("[graph] node " + ph->name + ": expected shape " +
                       ph->output_shapes[0].str() + ", got " + v.shape().str());
    }
    values[static_cast<size_t>(feed_slots_[i])] = v;
  }
  Runtime runtime(*this);
  std::vector<Tensor> inputs;
  std::vector<Tensor> outputs;
  for (const Step& s : steps_) {
    if (s.is_const) {
      values[static_cast<size_t>(s.first_output_slot)] =
          std::get<Tensor>(s.node->attrs.at("value"));
      continue;
    }
    inputs.clear();
    for (int slot : s.input_slots) inputs.push_back(values[static_cast<size_t>(slot)]);
    outputs.clear();
    try {
      OpKernelContext ctx;
      ctx.inputs = inputs;
      ctx.attrs = s.attrs ? s.attrs.get() : &s.node->attrs;
      ctx.outputs = &outputs;
      ctx.runtime = &runtime;
      ctx.node_name = &s.node->name;
      ctx.op_name = &s.def->name;
      ctx.state = s.state.get();
      s.def->kernel(ctx);
    } catch (const Error& e) {
      std::string msg = e.what();
      if (msg.find("[[{{node ") == std::string::npos)
        msg += "\n\t [[{{node " + s.node->name + "}}]]";
      throw Error(e.kind(), msg);
    }
    for (size_t k = 0; k < outputs.size(); ++k) {
      values[static_cast<size_t>(s.first_output_slot) + k] = std::move(outputs[k]);
    }
    for (int slot : s.release_after) values[static_cast<size_t>(slot)] = Tensor();
  }
  std::vector<Tensor> result;
  result.reserve(fetch_slots_.size());
  for (int slot : fetch_slots_) result.push_back(values[static_cast<size_t>(slot)]);
  return result;
}

}  // namespace tfs

#include "tfscope/executor.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <variant>

namespace tfs {
namespace {

// TF's grappler, which optimizes every graph TF runs as a function, folds a Transpose of a
// matrix product's operand into the product (ArithmeticOptimizer's FoldTransposeIntoMatMul): the
// product reads the Transpose's input with its transpose_a/b (adj_x/y) flipped. That changes the
// kernel TF runs, and so its float sums; the plan does the same. The perm must be a constant that
// swaps the last two dimensions and keeps the others.
bool inner_matrix_transpose(const Node& t) {
  if ((t.op() != "Transpose" && t.op() != "ConjugateTranspose") || t.inputs.size() != 2)
    return false;
  const Node& perm = *t.inputs[1].node;
  if (perm.op() != "Const") return false;
  const Tensor& p = std::get<Tensor>(perm.attrs.at("value"));
  if (p.shape().rank() != 1 || (p.dtype() != DType::kInt32 && p.dtype() != DType::kInt64))
    return false;
  const int64_t r = p.shape().dim(0);
  if (r < 2) return false;
  auto at = [&](int64_t i) {
    return p.dtype() == DType::kInt32 ? static_cast<int64_t>(p.data<int32_t>()[i])
                                      : p.data<int64_t>()[i];
  };
  for (int64_t i = 0; i < r - 2; ++i)
    if (at(i) != i) return false;
  return at(r - 2) == r - 1 && at(r - 1) == r - 2;
}

// The folded inputs and attrs of a matrix product, or nullptr when nothing folds.
std::shared_ptr<const AttrMap> fold_transposes(const Node& n, std::vector<Output>& inputs) {
  const bool batch =
      n.op() == "BatchMatMul" || n.op() == "BatchMatMulV2" || n.op() == "BatchMatMulV3";
  if (!batch && n.op() != "MatMul") return nullptr;
  std::shared_ptr<AttrMap> attrs;
  for (int i = 0; i < 2 && i < static_cast<int>(inputs.size()); ++i) {
    const Node& t = *inputs[static_cast<size_t>(i)].node;
    if (!inner_matrix_transpose(t)) continue;
    if (!attrs) attrs = std::make_shared<AttrMap>(n.attrs);
    const std::string name =
        batch ? (i == 0 ? "adj_x" : "adj_y") : (i == 0 ? "transpose_a" : "transpose_b");
    auto it = attrs->find(name);
    const bool on = it != attrs->end() && std::holds_alternative<bool>(it->second) &&
                    std::get<bool>(it->second);
    (*attrs)[name] = !on;
    inputs[static_cast<size_t>(i)] = t.inputs[0];
  }
  return attrs;
}

}  // namespace

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
    : graph_(std::move(graph)), library_(std::move(library)) {
  // Each node's inputs, after the graph passes TF's grappler applies (a folded Transpose is read
  // through).
  std::map<const Node*, std::pair<std::vector<Output>, std::shared_ptr<const AttrMap>>> rewritten;
  for (auto& up : graph_->nodes()) {
    std::vector<Output> inputs = up->inputs;
    if (auto attrs = fold_transposes(*up, inputs)) rewritten[up.get()] = {inputs, attrs};
  }
  auto inputs_of = [&](const Node* n) -> const std::vector<Output>& {
    auto it = rewritten.find(n);
    return it == rewritten.end() ? n->inputs : it->second.first;
  };
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
    if (auto it = rewritten.find(n); it != rewritten.end()) s.attrs = it->second.second;
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

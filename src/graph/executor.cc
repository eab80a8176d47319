#include "tfscope/executor.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <variant>

#include "tfscope/detail/function_resolver.h"
#include "tfscope/grappler.h"
#include "tfscope/op_profile.h"

namespace tfs {

class Executor::Runtime : public FunctionRuntime, public detail::FunctionResolver {
 public:
  explicit Runtime(const Executor& e) : e_(e) {}
  std::vector<Tensor> call(const std::string& name, std::span<const Tensor> args) override {
    return e_.function_plan(name).run(args);
  }
  std::shared_ptr<const CallableFunction> resolve(const std::string& name) const override {
    return plan(e_, name);
  }

  // Runs plan `e` on `feeds` into `results` (cleared first; its capacity is reused). A call
  // node's function plan runs into the caller's output buffer this way, with no result vector.
  static void run_into(const Executor& e, std::span<const Tensor> feeds,
                       std::vector<Tensor>& results);

  // The plan of library function `name`: compiled with `e`, or compiled on first use.
  static const std::shared_ptr<Executor>& plan(const Executor& e, const std::string& name) {
    auto it = e.fn_plans_.find(name);
    if (it != e.fn_plans_.end()) return it->second;
    std::lock_guard<std::mutex> lock(e.late_mu_);
    auto late = e.late_plans_.find(name);
    if (late == e.late_plans_.end())
      late = e.late_plans_.emplace(name, e.compile_function(name)).first;
    return late->second;
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
    if (s.is_const) s.const_value = std::get<Tensor>(n->attrs.at("value"));
    if (s.def->keeps_state) s.state = std::make_shared<KernelStateSlot>();
    for (auto& in : inputs_of(n)) s.input_slots.push_back(first_slot.at(in.node) + in.index);
    s.first_output_slot = first_slot.at(n);
    int idx = static_cast<int>(steps_.size());
    for (int slot : s.input_slots) last_use[static_cast<size_t>(slot)] = idx;
    steps_.push_back(std::move(s));
  }
  // The functions the plan's nodes call (If/While bodies, PartitionedCall's f), compiled now, so
  // that running a call takes no lock. A library that nests deeper than any traced program
  // would (or names itself) is left to compile on first use.
  thread_local int compile_depth = 0;
  if (compile_depth < 32) {
    ++compile_depth;
    struct Leave {
      ~Leave() { --compile_depth; }
    } leave;
    for (const Step& s : steps_) {
      for (const auto& [k, v] : s.node->attrs) {
        const auto* f = std::get_if<FuncAttr>(&v);
        if (!f || fn_plans_.count(f->name)) continue;
        const GraphFunction* fn = nullptr;
        if (library_) {
          auto it = library_->find(f->name);
          if (it != library_->end()) fn = it->second.get();
        }
        if (!fn) fn = graph_->find_function(f->name);
        if (fn) fn_plans_.emplace(f->name, for_function(*fn, library_));
      }
    }
  }
  for (auto& f : fetches) fetch_slots_.push_back(first_slot.at(f.node) + f.index);
  for (int slot : fetch_slots_)
    last_use[static_cast<size_t>(slot)] = static_cast<int>(steps_.size());
  for (size_t slot = 0; slot < last_use.size(); ++slot) {
    int u = last_use[slot];
    if (u >= 0 && u < static_cast<int>(steps_.size()))
      steps_[static_cast<size_t>(u)].release_after.push_back(static_cast<int>(slot));
  }
  // A step that uses a value for the last time takes it (at its last occurrence among the step's
  // inputs) instead of sharing it: one reference count less to move per input.
  for (size_t i = 0; i < steps_.size(); ++i) {
    Step& s = steps_[i];
    s.take_input.assign(s.input_slots.size(), 0);
    for (size_t k = 0; k < s.input_slots.size(); ++k) {
      int slot = s.input_slots[k];
      bool later_here = std::find(s.input_slots.begin() + static_cast<long>(k) + 1,
                                  s.input_slots.end(), slot) != s.input_slots.end();
      s.take_input[k] = last_use[static_cast<size_t>(slot)] == static_cast<int>(i) && !later_here;
    }
  }
}

std::shared_ptr<Executor> Executor::for_function(const GraphFunction& fn,
                                                 std::shared_ptr<const FunctionLibrary> library) {
  return std::make_shared<Executor>(fn.graph, fn.args, fn.outputs, fn.control_outputs,
                                    std::move(library));
}

std::shared_ptr<Executor> Executor::compile_function(const std::string& name) const {
  const GraphFunction* fn = nullptr;
  if (library_) {
    auto f = library_->find(name);
    if (f != library_->end()) fn = f->second.get();
  }
  if (!fn) fn = graph_->find_function(name);
  if (!fn) throw Error(ErrorKind::kNotFound, "[graph] function " + name + " is not in the library");
  return for_function(*fn, library_);
}

const Executor& Executor::function_plan(const std::string& name) const {
  return *Runtime::plan(*this, name);
}

namespace {

// PartialShape::is_compatible_with for a feed, without building the merged shape.
bool fits(const PartialShape& want, const PartialShape& got) {
  if (!want.has_rank() || !got.has_rank()) return true;
  if (want.rank() != got.rank()) return false;
  for (int i = 0; i < want.rank(); ++i) {
    if (want.dim(i) >= 0 && got.dim(i) >= 0 && want.dim(i) != got.dim(i)) return false;
  }
  return true;
}

// The buffers of one plan run (slot values, one step's inputs and outputs), kept per thread and
// nesting depth so that a run allocates only what its kernels produce: a call node's plan runs
// one level deeper.
struct RunBuffers {
  std::vector<Tensor> values;
  std::vector<Tensor> inputs;
  std::vector<Tensor> outputs;
};

class BufferFrame {
 public:
  BufferFrame() {
    if (depth_ == frames_.size()) frames_.push_back(std::make_unique<RunBuffers>());
    buffers_ = frames_[depth_++].get();
  }
  ~BufferFrame() {
    // Drop what the run held, keep the capacity.
    for (auto& t : buffers_->values) t = Tensor();
    buffers_->inputs.clear();
    buffers_->outputs.clear();
    --depth_;
  }
  BufferFrame(const BufferFrame&) = delete;
  BufferFrame& operator=(const BufferFrame&) = delete;
  RunBuffers& operator*() { return *buffers_; }

 private:
  static thread_local std::vector<std::unique_ptr<RunBuffers>> frames_;
  static thread_local size_t depth_;
  RunBuffers* buffers_;
};

thread_local std::vector<std::unique_ptr<RunBuffers>> BufferFrame::frames_;
thread_local size_t BufferFrame::depth_ = 0;

// How deep the plan now running on this thread is nested, counted only while a profile records.
thread_local int profile_depth = 0;

struct ProfileDepth {
  explicit ProfileDepth(OpProfile* p) : on(p != nullptr) {
    if (on) ++profile_depth;
  }
  ~ProfileDepth() {
    if (on) --profile_depth;
  }
  bool on;
};

// One kernel run timed into the recording profile.
void run_timed(OpProfile& prof, const Node& node, const OpDef& def, const std::string& function,
               OpKernelContext& ctx) {
  int64_t t0 = prof.now_ns();
  struct Done {
    ~Done() {
      OpEvent e;
      e.node = node.name;
      e.op = def.name;
      e.function = function;
      e.depth = profile_depth - 1;
      e.thread = prof.thread_number();
      e.start_ns = t0;
      e.dur_ns = prof.now_ns() - t0;
      prof.add(std::move(e));
    }
    OpProfile& prof;
    const Node& node;
    const OpDef& def;
    const std::string& function;
    int64_t t0;
  } done{prof, node, def, function, t0};
  def.kernel(ctx);
}

}  // namespace

std::vector<Tensor> Executor::run(std::span<const Tensor> feed_values) const {
  std::vector<Tensor> results;
  Runtime::run_into(*this, feed_values, results);
  return results;
}

namespace {

// Whether `def` is a call op, whose kernel only runs its `f` (src/ops/control.cc).
bool is_call_op(const OpDef* def) {
  static const OpDef* pcall = OpRegistry::global().find("PartitionedCall");
  static const OpDef* spcall = OpRegistry::global().find("StatefulPartitionedCall");
  return def == pcall || def == spcall;
}

// A call node's `f`. Its attrs sort "f" last (after "Tin", "Tout", "_read_only_...", "config",
// "executor_type"), so the last entry is tried before the search.
const std::string& call_function_name(const AttrMap& attrs) {
  if (!attrs.empty()) {
    const auto& [key, value] = *attrs.rbegin();
    const auto* f = std::get_if<FuncAttr>(&value);
    if (f && key == "f") return f->name;
  }
  return attr_func(attrs, "f").name;
}

}  // namespace

void Executor::Runtime::run_into(const Executor& e, std::span<const Tensor> feed_values,
                                 std::vector<Tensor>& results) {
  if (feed_values.size() != e.feed_slots_.size()) {
    invalid_argument("[graph] expected " + std::to_string(e.feed_slots_.size()) + " feeds, got " +
                     std::to_string(feed_values.size()));
  }
  BufferFrame frame;
  RunBuffers& buf = *frame;
  std::vector<Tensor>& values = buf.values;
  if (values.size() < static_cast<size_t>(e.num_slots_))
    values.resize(static_cast<size_t>(e.num_slots_));
  for (size_t i = 0; i < e.feed_slots_.size(); ++i) {
    const Tensor& v = feed_values[i];
    const Node* ph = e.feed_nodes_[i];
    DType want = ph->output_dtypes[0];
    if (!v.defined() || v.dtype() != want) {
      invalid_argument("[graph] node " + ph->name + ": expected a " +
                       std::string(dtype_name(want)) + " tensor, got " +
                       (v.defined() ? std::string(dtype_name(v.dtype())) : "nothing"));
    }
    if (!fits(ph->output_shapes[0], v.shape())) {
      invalid_argument("[graph] node " + ph->name + ": expected shape " +
                       ph->output_shapes[0].str() + ", got " + v.shape().str());
    }
    values[static_cast<size_t>(e.feed_slots_[i])] = v;
  }
  Runtime runtime(e);
  OpProfile* prof = OpProfile::active();  // the one check of per-op timing when it is off
  ProfileDepth depth(prof);
  std::vector<Tensor>& inputs = buf.inputs;
  std::vector<Tensor>& outputs = buf.outputs;
  for (const Step& s : e.steps_) {
    if (s.is_const) {
      values[static_cast<size_t>(s.first_output_slot)] = s.const_value;
      continue;
    }
    inputs.clear();
    for (size_t k = 0; k < s.input_slots.size(); ++k) {
      Tensor& v = values[static_cast<size_t>(s.input_slots[k])];
      if (s.take_input[k])
        inputs.push_back(std::move(v));
      else
        inputs.push_back(v);
    }
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
      if (prof) {
        run_timed(*prof, *s.node, *s.def, e.graph_->name(), ctx);
      } else if (is_call_op(s.def)) {
        // The call kernel's work, without its dispatch or a vector for the function's results.
        run_into(*plan(e, call_function_name(*ctx.attrs)), inputs, outputs);
      } else {
        s.def->kernel(ctx);
      }
    } catch (const Error& err) {
      std::string msg = err.what();
      if (msg.find("[[{{node ") == std::string::npos)
        msg += "\n\t [[{{node " + s.node->name + "}}]]";
      throw Error(err.kind(), msg);
    }
    for (size_t k = 0; k < outputs.size(); ++k) {
      values[static_cast<size_t>(s.first_output_slot) + k] = std::move(outputs[k]);
    }
    for (int slot : s.release_after) values[static_cast<size_t>(slot)] = Tensor();
  }
  // Each fetched value is moved out at its last fetch (the frame drops the slots anyway).
  results.clear();
  results.reserve(e.fetch_slots_.size());
  for (size_t i = 0; i < e.fetch_slots_.size(); ++i) {
    Tensor& v = values[static_cast<size_t>(e.fetch_slots_[i])];
    bool fetched_again = std::find(e.fetch_slots_.begin() + static_cast<long>(i) + 1,
                                   e.fetch_slots_.end(), e.fetch_slots_[i]) != e.fetch_slots_.end();
    results.push_back(fetched_again ? v : std::move(v));
  }
}

}  // namespace tfs

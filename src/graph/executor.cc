#include "tfscope/executor.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <variant>

#include "../ops/buffer_reuse.h"
#include "../ops/denormal.h"
#include "../ops/variable_access.h"
#include "plan_run.h"
#include "step_fusion.h"
#include "tfscope/detail/function_resolver.h"
#include "tfscope/detail/kernel_run.h"
#include "tfscope/grappler.h"
#include "tfscope/op_profile.h"

namespace tfs {

namespace {

// How a step runs: a Const places its value, a (Stateful)PartitionedCall runs its function's
// plan itself (the call kernel's work, without its dispatch or a vector for the results), a
// ReadVariableOp reads its variable itself (the kernel's read_variable, without its dispatch),
// any other node its kernel. Under a recording OpProfile every step but a Const runs its kernel,
// to be timed.
enum class StepKind : uint8_t { kKernel, kConst, kCall, kRead };

// The most bytes of spare buffers one run state keeps between runs: what a run at batch 1 or a
// small batch allocates (the MLP of bench/bm_function.cc at batch 64 needs under 300 KiB). Larger
// buffers cost little to allocate against the work that fills them.
constexpr size_t kMaxSpareBytes = size_t{1} << 20;

}  // namespace

struct Executor::Plan {
  struct Step {
    const Node* node = nullptr;
    const OpDef* def = nullptr;
    StepKind kind = StepKind::kKernel;
    Kernel kernel;                     // detail::plan_kernel: run under the run's denormal guard
    const Executor* callee = nullptr;  // a call node's plan, when compiled with this one
    int first_input = 0;  // its inputs: step_inputs[first_input, first_input + num_inputs)
    int num_inputs = 0;
    int first_output_slot = 0;
    int num_outputs = 0;
    Tensor const_value;                      // a Const node's value
    std::shared_ptr<KernelStateSlot> state;  // for kernels that keep state: one per node
    bool fused = false;  // the kernel runs several nodes (step_fusion.h), timing them apart
    DType read_dtype = DType::kInvalid;  // a kRead step's dtype attr
  };
  // What one run works in. Between runs a plan keeps one (`idle`): its slots empty, and per slot
  // the buffer that slot's value had when the run let go of it (detail/kernel_run.h), offered to
  // the kernel that writes the slot in the next run.
  struct RunState {
    std::vector<Tensor> values;  // per slot
    std::vector<Tensor> spares;  // per slot
    size_t spare_bytes = 0;
    std::vector<Tensor> inputs;   // one step's
    std::vector<Tensor> outputs;  // one step's
  };

  std::shared_ptr<const Graph> graph;
  std::shared_ptr<const FunctionLibrary> library;
  std::vector<Step> steps;
  // One input of a step. The steps' inputs are one array, and a feed's or fetch's facts one
  // entry each, so that a run reads them in order instead of through each step's vectors (the
  // kernels between the steps push them out of the nearest caches).
  struct StepInput {
    int slot;
    bool take;   // moved out of its slot: its last use
    bool spare;  // taken, and this step's only use of it: let go of after the step
  };
  struct Feed {
    int slot;
    DType dtype;
    PartialShape shape;
    const Node* node;  // for errors
  };
  struct Fetch {
    int slot;
    bool move;  // its slot's last fetch
  };
  std::vector<StepInput> step_inputs;
  std::vector<Feed> feeds;
  std::vector<Fetch> fetches;
  std::vector<int> unused_slots;  // values no step reads and no fetch returns
  int num_slots = 0;
  // Plans of the library functions the graph's nodes name, compiled with this plan (read without
  // a lock on every call); a function met only later (too deep a nesting) is compiled on first
  // use into late_plans.
  std::map<std::string, std::shared_ptr<Executor>, std::less<>> fn_plans;
  mutable std::mutex late_mu;
  mutable std::map<std::string, std::shared_ptr<Executor>, std::less<>> late_plans;
  mutable std::atomic<RunState*> idle{nullptr};

  ~Plan() { delete idle.load(); }

  // A run state: the idle one, or a new one while another run (another thread, or this plan
  // nested in itself) holds it.
  std::unique_ptr<RunState> acquire() const {
    std::unique_ptr<RunState> st(idle.exchange(nullptr, std::memory_order_acquire));
    if (!st) {
      st = std::make_unique<RunState>();
      st->values.resize(static_cast<size_t>(num_slots));
      st->spares.resize(static_cast<size_t>(num_slots));
    }
    return st;
  }
  // Back to idle after a run that finished (a failed run's state is dropped); one is kept.
  void put_back(std::unique_ptr<RunState> st) const {
    RunState* expected = nullptr;
    if (idle.compare_exchange_strong(expected, st.get(), std::memory_order_release))
      (void)st.release();
  }
  std::shared_ptr<Executor> compile_function(const std::string& name) const;
};

class Executor::Runtime : public FunctionRuntime, public detail::FunctionResolver {
 public:
  explicit Runtime(const Executor& e) : e_(e) {}
  std::vector<Tensor> call(const std::string& name, std::span<const Tensor> args) override {
    return plan(e_, name)->run(args);
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
    const Plan& p = *e.plan_;
    auto it = p.fn_plans.find(name);
    if (it != p.fn_plans.end()) return it->second;
    std::lock_guard<std::mutex> lock(p.late_mu);
    auto late = p.late_plans.find(name);
    if (late == p.late_plans.end())
      late = p.late_plans.emplace(name, p.compile_function(name)).first;
    return late->second;
  }

 private:
  const Executor& e_;
};

namespace {

// Whether `def` is a call op, whose kernel only runs its `f` (src/ops/control.cc).
bool is_call_op(const OpDef* def) {
  static const OpDef* pcall = OpRegistry::global().find("PartitionedCall");
  static const OpDef* spcall = OpRegistry::global().find("StatefulPartitionedCall");
  return def == pcall || def == spcall;
}

const OpDef* read_variable_op() {
  static const OpDef* read = OpRegistry::global().find("ReadVariableOp");
  return read;
}

}  // namespace

Executor::Executor(std::shared_ptr<const Graph> graph, std::vector<Node*> feeds,
                   std::vector<Output> fetches, std::vector<Node*> targets,
                   std::shared_ptr<const FunctionLibrary> library)
    : plan_(std::make_unique<Plan>()) {
  Plan& p = *plan_;
  p.library = std::move(library);
  // The plan runs the graph TF's grappler makes of this one, as TF runs every function graph.
  grappler::Item item = grappler::optimize(std::move(graph), std::move(feeds), std::move(fetches),
                                           std::move(targets));
  p.graph = item.graph;
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
  for (auto& up : p.graph->nodes()) {
    const Node* n = up.get();
    if (!needed.count(n)) continue;
    first_slot[n] = p.num_slots;
    p.num_slots += n->num_outputs();
  }
  std::set<const Node*> fed(feeds.begin(), feeds.end());
  for (Node* f : feeds) {
    if (!first_slot.count(f)) {
      first_slot[f] = p.num_slots;
      p.num_slots += 1;
    }
    p.feeds.push_back({first_slot[f], f->output_dtypes[0], f->output_shapes[0], f});
  }
  std::vector<int> last_use(static_cast<size_t>(p.num_slots), -1);
  std::vector<std::vector<int>> input_slots;  // per step
  const std::map<const Node*, detail::StepFusion> fusions =
      detail::find_step_fusions(needed, fed, fetches, targets, p.graph->name());
  std::set<const Node*> absorbed;  // run inside a fused step
  for (const auto& [at, f] : fusions) absorbed.insert(f.absorbed.begin(), f.absorbed.end());
  for (auto& up : p.graph->nodes()) {
    const Node* n = up.get();
    if (!needed.count(n) || fed.count(n) || absorbed.count(n)) continue;
    Plan::Step s;
    s.node = n;
    s.def = n->def;
    if (n->op() == "Const") {
      s.kind = StepKind::kConst;
      s.const_value = std::get<Tensor>(n->attrs.at("value"));
    } else {
      s.kind = is_call_op(s.def) ? StepKind::kCall : StepKind::kKernel;
      if (s.def == read_variable_op() && n->inputs.size() == 1) {
        auto dtype = n->attrs.find("dtype");
        if (dtype != n->attrs.end() && std::holds_alternative<DType>(dtype->second)) {
          s.kind = StepKind::kRead;
          s.read_dtype = std::get<DType>(dtype->second);
        }
      }
      s.kernel = detail::plan_kernel(*s.def, n->attrs);
      if (!s.kernel) {
        s.kernel = [name = s.def->name](OpKernelContext&) {
          throw Error(ErrorKind::kUnimplemented, "[ops] " + name + " has no CPU kernel");
        };
      }
    }
    if (s.def->keeps_state) s.state = std::make_shared<KernelStateSlot>();
    std::vector<int>& slots = input_slots.emplace_back();
    if (auto it = fusions.find(n); it != fusions.end()) {
      s.kernel = it->second.kernel;
      s.fused = true;
      for (const Output& in : it->second.inputs) slots.push_back(first_slot.at(in.node) + in.index);
    } else {
      for (auto& in : inputs_of(n)) slots.push_back(first_slot.at(in.node) + in.index);
    }
    s.first_output_slot = first_slot.at(n);
    s.num_outputs = n->num_outputs();
    int idx = static_cast<int>(p.steps.size());
    for (int slot : slots) last_use[static_cast<size_t>(slot)] = idx;
    p.steps.push_back(std::move(s));
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
    for (const Plan::Step& s : p.steps) {
      for (const auto& [k, v] : s.node->attrs) {
        const auto* f = std::get_if<FuncAttr>(&v);
        if (!f || p.fn_plans.count(f->name)) continue;
        const GraphFunction* fn = nullptr;
        if (p.library) {
          auto it = p.library->find(f->name);
          if (it != p.library->end()) fn = it->second.get();
        }
        if (!fn) fn = p.graph->find_function(f->name);
        if (fn) p.fn_plans.emplace(f->name, for_function(*fn, p.library));
      }
    }
  }
  // A call node runs its function's plan directly; one compiled only later is found by name.
  for (Plan::Step& s : p.steps) {
    if (s.kind != StepKind::kCall) continue;
    auto it = s.node->attrs.find("f");
    const auto* f = it == s.node->attrs.end() ? nullptr : std::get_if<FuncAttr>(&it->second);
    if (!f) continue;  // the call kernel reports the missing attr
    auto plan = p.fn_plans.find(f->name);
    if (plan != p.fn_plans.end()) s.callee = plan->second.get();
  }
  std::vector<int> fetch_slots;
  for (auto& f : fetches) fetch_slots.push_back(first_slot.at(f.node) + f.index);
  for (size_t i = 0; i < fetch_slots.size(); ++i) {
    int slot = fetch_slots[i];
    last_use[static_cast<size_t>(slot)] = static_cast<int>(p.steps.size());
    bool last = std::find(fetch_slots.begin() + static_cast<long>(i) + 1, fetch_slots.end(),
                          slot) == fetch_slots.end();
    p.fetches.push_back({slot, last});
  }
  for (size_t slot = 0; slot < last_use.size(); ++slot) {
    if (last_use[slot] < 0) p.unused_slots.push_back(static_cast<int>(slot));
  }
  // A step that uses a value for the last time takes it (at its last occurrence among the step's
  // inputs) instead of sharing it: one reference count less to move per input, and the value is
  // let go of when the step is done (kept as a spare where nothing else holds it).
  for (size_t i = 0; i < p.steps.size(); ++i) {
    Plan::Step& s = p.steps[i];
    const std::vector<int>& slots = input_slots[i];
    s.first_input = static_cast<int>(p.step_inputs.size());
    s.num_inputs = static_cast<int>(slots.size());
    for (size_t k = 0; k < slots.size(); ++k) {
      int slot = slots[k];
      auto uses_here = std::count(slots.begin(), slots.end(), slot);
      bool later_here =
          std::find(slots.begin() + static_cast<long>(k) + 1, slots.end(), slot) != slots.end();
      bool take = last_use[static_cast<size_t>(slot)] == static_cast<int>(i) && !later_here;
      p.step_inputs.push_back({slot, take, take && uses_here == 1});
    }
  }
}

Executor::~Executor() = default;

int Executor::num_steps() const {
  return static_cast<int>(plan_->steps.size());
}

std::shared_ptr<Executor> Executor::for_function(const GraphFunction& fn,
                                                 std::shared_ptr<const FunctionLibrary> library) {
  return std::make_shared<Executor>(fn.graph, fn.args, fn.outputs, fn.control_outputs,
                                    std::move(library));
}

std::shared_ptr<Executor> Executor::Plan::compile_function(const std::string& name) const {
  const GraphFunction* fn = nullptr;
  if (library) {
    auto f = library->find(name);
    if (f != library->end()) fn = f->second.get();
  }
  if (!fn) fn = graph->find_function(name);
  if (!fn) throw Error(ErrorKind::kNotFound, "[graph] function " + name + " is not in the library");
  return for_function(*fn, library);
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

std::vector<Tensor> Executor::run(std::span<const Tensor> feed_values) const {
  std::vector<Tensor> results;
  Runtime::run_into(*this, feed_values, results);
  return results;
}

void Executor::Runtime::run_into(const Executor& e, std::span<const Tensor> feed_values,
                                 std::vector<Tensor>& results) {
  const Plan& p = *e.plan_;
  if (feed_values.size() != p.feeds.size()) {
    invalid_argument("[graph] expected " + std::to_string(p.feeds.size()) + " feeds, got " +
                     std::to_string(feed_values.size()));
  }
  for (size_t i = 0; i < p.feeds.size(); ++i) {
    const Tensor& v = feed_values[i];
    const Plan::Feed& feed = p.feeds[i];
    const Node* ph = feed.node;
    DType want = feed.dtype;
    if (!v.defined() || v.dtype() != want) {
      invalid_argument("[graph] node " + ph->name + ": expected a " +
                       std::string(dtype_name(want)) + " tensor, got " +
                       (v.defined() ? std::string(dtype_name(v.dtype())) : "nothing"));
    }
    if (!fits(feed.shape, v.shape())) {
      invalid_argument("[graph] node " + ph->name + ": expected shape " + feed.shape.str() +
                       ", got " + v.shape().str());
    }
  }
  std::unique_ptr<Plan::RunState> held = p.acquire();
  Plan::RunState& st = *held;
  std::vector<Tensor>& values = st.values;
  for (size_t i = 0; i < p.feeds.size(); ++i)
    values[static_cast<size_t>(p.feeds[i].slot)] = feed_values[i];
  // A value let go of: kept as its slot's spare where nothing else holds its buffer and the
  // spares stay under kMaxSpareBytes, else dropped.
  auto let_go = [&st](int slot, Tensor& v) {
    Tensor& spare = st.spares[static_cast<size_t>(slot)];
    if (detail::buffer_unshared(v)) {
      size_t before = spare.defined() ? spare.nbytes() : 0;
      size_t after = st.spare_bytes - before + v.nbytes();
      if (after <= kMaxSpareBytes) {
        st.spare_bytes = after;
        spare = std::move(v);
        return;
      }
    }
    v = Tensor();
  };
  Runtime runtime(e);
  OpProfile* prof = OpProfile::active();  // the one check of per-op timing when it is off
  detail::ProfileDepth depth(prof);
  // Every kernel runs as TF's do, denormals flushed and read as zero: one guard for the run.
  detail::ScopedFlushDenormal flush;
  std::vector<Tensor>& inputs = st.inputs;
  std::vector<Tensor>& outputs = st.outputs;
  for (const Plan::Step& s : p.steps) {
    if (s.kind == StepKind::kConst) {
      values[static_cast<size_t>(s.first_output_slot)] = s.const_value;
      continue;
    }
    const Plan::StepInput* step_inputs = p.step_inputs.data() + s.first_input;
    if (s.kind == StepKind::kRead && !prof) {
      Tensor& handle = values[static_cast<size_t>(step_inputs[0].slot)];
      try {
        values[static_cast<size_t>(s.first_output_slot)] =
            detail::read_variable(handle, s.read_dtype);
      } catch (const Error& err) {
        throw detail::at_node(err, s.node->name);
      }
      if (step_inputs[0].take) let_go(step_inputs[0].slot, handle);
      continue;
    }
    inputs.clear();
    for (int k = 0; k < s.num_inputs; ++k) {
      Tensor& v = values[static_cast<size_t>(step_inputs[k].slot)];
      if (step_inputs[k].take)
        inputs.push_back(std::move(v));
      else
        inputs.push_back(v);
    }
    outputs.clear();
    try {
      if (s.kind == StepKind::kCall && !prof) {
        // The call kernel's work, without its dispatch or a vector for the function's results.
        const Executor& callee = s.callee ? *s.callee : *plan(e, call_function_name(s.node->attrs));
        run_into(callee, inputs, outputs);
      } else {
        OpKernelContext ctx;
        ctx.inputs = inputs;
        ctx.attrs = &s.node->attrs;
        ctx.outputs = &outputs;
        ctx.runtime = &runtime;
        ctx.node_name = &s.node->name;
        ctx.op_name = &s.def->name;
        ctx.state = s.state.get();
        // The buffers this node's outputs had in the last run, to write again.
        Tensor* spares = st.spares.data() + s.first_output_slot;
        size_t offered = 0;
        for (int k = 0; k < s.num_outputs; ++k)
          offered += spares[k].defined() ? spares[k].nbytes() : 0;
        st.spare_bytes -= offered;
        {
          detail::OfferedOutputs offer(spares, s.num_outputs);
          if (prof && !s.fused)
            detail::run_timed(*prof, *s.node, *s.def, s.kernel, p.graph->name(), ctx);
          else
            s.kernel(ctx);
        }
        for (int k = 0; k < s.num_outputs; ++k)
          st.spare_bytes += spares[k].defined() ? spares[k].nbytes() : 0;
      }
    } catch (const Error& err) {
      throw detail::at_node(err, s.node->name);
    }
    for (int k = 0; k < s.num_inputs; ++k) {
      if (step_inputs[k].spare) let_go(step_inputs[k].slot, inputs[static_cast<size_t>(k)]);
    }
    for (size_t k = 0; k < outputs.size(); ++k) {
      values[static_cast<size_t>(s.first_output_slot) + k] = std::move(outputs[k]);
    }
  }
  // Each fetched value is moved out at its last fetch.
  results.clear();
  results.reserve(p.fetches.size());
  for (const Plan::Fetch& f : p.fetches) {
    Tensor& v = values[static_cast<size_t>(f.slot)];
    results.push_back(f.move ? std::move(v) : v);
  }
  // Nothing of this run stays held but the spares: not a caller's feed, not a step's operands.
  for (int slot : p.unused_slots) let_go(slot, values[static_cast<size_t>(slot)]);
  inputs.clear();
  outputs.clear();
  p.put_back(std::move(held));
}

}  // namespace tfs

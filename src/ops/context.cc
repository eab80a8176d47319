#include "tfscope/context.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <unordered_map>

#include "tfscope/cpu_info.h"
#include "tfscope/errors.h"
#include "tfscope/op_def.h"
#include "tfscope/thread_pool.h"

namespace tfs {

namespace {

// What one thread is doing. Kept together so that a reader finds the whole execution state in
// one place.
struct ThreadState {
  std::vector<GraphBuilder*> builders;  // null entries: init_scope
  int trace_depth = 0;
  std::vector<VariableCreationPolicy*> variable_policies;
  int save_depth = 0;
  OpRecorder* recorder = nullptr;
};

ThreadState& thread_state() {
  thread_local ThreadState s;
  return s;
}

std::atomic<bool> g_run_functions_eagerly{false};

struct Library {
  std::mutex mu;
  std::unordered_map<std::string, std::weak_ptr<const CallableFunction>> functions;
};

Library& library() {
  static Library* l = new Library();  // never destroyed: functions may unregister at exit
  return *l;
}

class EagerRuntime : public FunctionRuntime {
 public:
  std::vector<Tensor> call(const std::string& name, std::span<const Tensor> args) override {
    auto fn = Context::get().find_function(name);
    if (!fn) throw Error(ErrorKind::kNotFound, "[ops] function " + name + " is not in the library");
    return fn->call(args);
  }
};

}  // namespace

Context& Context::get() {
  static Context c;
  return c;
}

GraphBuilder* Context::current_builder() const {
  const auto& b = thread_state().builders;
  return b.empty() ? nullptr : b.back();
}

void Context::push_builder(GraphBuilder* b) {
  // A graph being built is a trace (tfscope builds no other graphs): TF's first trace initializes
  // its context even when it makes no tensor (tf.config.threading is fixed from then on).
  if (b != nullptr) mark_context_initialized();
  thread_state().builders.push_back(b);
}

void Context::pop_builder() {
  thread_state().builders.pop_back();
}

std::vector<GraphBuilder*> Context::active_builders() const {
  const auto& all = thread_state().builders;
  size_t start = all.size();
  while (start > 0 && all[start - 1] != nullptr) --start;
  return std::vector<GraphBuilder*>(all.begin() + static_cast<long>(start), all.end());
}

int Context::trace_depth() const {
  return thread_state().trace_depth;
}
void Context::enter_trace() {
  thread_state().trace_depth++;
}
void Context::exit_trace() {
  thread_state().trace_depth--;
}

VariableCreationPolicy* Context::variable_policy() const {
  const auto& p = thread_state().variable_policies;
  return p.empty() ? nullptr : p.back();
}
void Context::push_variable_policy(VariableCreationPolicy* p) {
  thread_state().variable_policies.push_back(p);
}
void Context::pop_variable_policy() {
  thread_state().variable_policies.pop_back();
}

void Context::set_run_functions_eagerly(bool on) {
  g_run_functions_eagerly.store(on);
}
bool Context::functions_run_eagerly() const {
  return g_run_functions_eagerly.load();
}

bool Context::in_save_context() const {
  return thread_state().save_depth > 0;
}
void Context::enter_save_context() {
  thread_state().save_depth++;
}
void Context::exit_save_context() {
  thread_state().save_depth--;
}

void Context::add_function(const std::string& name, std::weak_ptr<const CallableFunction> fn) {
  Library& l = library();
  std::lock_guard<std::mutex> lock(l.mu);
  l.functions[name] = std::move(fn);
}

void Context::remove_function(const std::string& name) {
  Library& l = library();
  std::lock_guard<std::mutex> lock(l.mu);
  l.functions.erase(name);
}

std::shared_ptr<const CallableFunction> Context::find_function(const std::string& name) const {
  Library& l = library();
  std::lock_guard<std::mutex> lock(l.mu);
  auto it = l.functions.find(name);
  return it == l.functions.end() ? nullptr : it->second.lock();
}

FunctionRuntime& Context::eager_runtime() {
  static EagerRuntime* r = new EagerRuntime();
  return *r;
}

OpRecorder* Context::op_recorder() const {
  return thread_state().recorder;
}
void Context::set_op_recorder(OpRecorder* r) {
  thread_state().recorder = r;
}

// ---- threads (tfscope/thread_pool.h) -------------------------------------------------------

namespace {
std::atomic<bool> g_initialized{false};
std::atomic<int> g_intra_op{0};
std::atomic<int> g_inter_op{0};
std::mutex g_pool_mu;

void set_threads(std::atomic<int>& slot, int n, const char* which) {
  if (slot.load() == n) return;
  if (g_initialized.load()) {
    throw Error(ErrorKind::kRuntimeError,
                std::string(which) + " op parallelism cannot be modified after initialization.");
  }
  slot.store(n);
}
}  // namespace

int configured_intra_op_threads() {
  return g_intra_op.load();
}
int configured_inter_op_threads() {
  return g_inter_op.load();
}
void set_intra_op_parallelism_threads(int n) {
  set_threads(g_intra_op, n, "Intra");
}
void set_inter_op_parallelism_threads(int n) {
  set_threads(g_inter_op, n, "Inter");
}

int intra_op_threads() {
  const int n = g_intra_op.load();
  return n > 0 ? n : tf_intra_op_threads();
}
int inter_op_threads() {
  const int n = g_inter_op.load();
  return n > 0 ? n : tf_inter_op_threads();
}

void mark_context_initialized() {
  if (!g_initialized.load(std::memory_order_relaxed)) g_initialized.store(true);
}
bool context_initialized() {
  return g_initialized.load();
}

ThreadPool& intra_op_pool() {
  static std::atomic<ThreadPool*> pool{nullptr};
  ThreadPool* p = pool.load(std::memory_order_acquire);
  if (p != nullptr) return *p;
  std::lock_guard<std::mutex> lock(g_pool_mu);
  p = pool.load();
  if (p == nullptr) {
    mark_context_initialized();              // the size is fixed from here on
    p = new ThreadPool(intra_op_threads());  // never destroyed: its workers may outlive main
    pool.store(p, std::memory_order_release);
  }
  return *p;
}

void parallel_ranges(int64_t units, int64_t min_units,
                     const std::function<void(int64_t, int64_t)>& body) {
  if (units <= 0) return;
  ThreadPool& pool = intra_op_pool();
  if (pool.num_threads() == 1) return body(0, units);
  int64_t ranges =
      std::min<int64_t>(int64_t{pool.num_threads()} * 4, units / std::max<int64_t>(min_units, 1));
  if (ranges <= 1) return body(0, units);
  pool.parallel_for(ranges, [&](int64_t r) { body(units * r / ranges, units * (r + 1) / ranges); });
}

InitScope::InitScope() {
  Context::get().push_builder(nullptr);
}
InitScope::~InitScope() {
  Context::get().pop_builder();
}

}  // namespace tfs

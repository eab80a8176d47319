// The polymorphic Function: bind, key, look up, trace on a miss, run; and the ledger of why.
// The units it is made of (binding, trace cache, tracer, call runtime, ledger, retrace
// detector) are listed in docs/ARCHITECTURE.md.
#include "tfscope/function.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>

#include "binding.h"
#include "explain.h"
#include "ledger_clock.h"
#include "ledger_log.h"
#include "retrace_detector.h"
#include "tfscope/executor.h"
#include "tfscope/gradient_functions.h"
#include "tracer.h"

namespace tfs {

namespace {

// Cache scopes (TF's FunctionContext): the variable-creation scope of the trace, and whether it
// was made while saving a SavedModel (TF keys those apart through the save options' variable
// policy, so saving traces every function again).
constexpr int kVariableCreation = 0;
constexpr int kNoVariableCreation = 1;
constexpr int kSaving = 2;

bool same_names_and_kinds(const FunctionType& t, const detail::ArgLayout& layout) {
  if (t.params.size() != layout.names.size()) return false;
  for (size_t i = 0; i < t.params.size(); ++i)
    if (t.params[i].kind != layout.kinds[i] || t.params[i].name != layout.names[i]) return false;
  return true;
}

// FunctionType::hash of the request a call makes without an input_signature, over the types
// TraceTypeBuilder::from_value would build, without building them (the hit path).
size_t hash_request(std::span<const Value> values, const detail::ArgLayout& layout) {
  size_t h = values.size();
  TraceTypeBuilder tb;
  for (size_t i = 0; i < values.size(); ++i)
    h = h * 1000003u ^ tb.hash_of(values[i]) ^ layout.name_hashes[i];
  return h;
}

// Whether the argument types of cached type `t` are those of `values` (no input_signature).
bool matches_types(const FunctionType& t, std::span<const Value> values) {
  if (t.params.size() != values.size()) return false;
  TraceTypeBuilder tb;
  for (size_t i = 0; i < values.size(); ++i)
    if (!tb.matches(t.params[i].type, values[i])) return false;
  return true;
}

// Whether cached type `t` equals the request of `values` bound as `layout` (no input_signature).
bool matches_request(const FunctionType& t, std::span<const Value> values,
                     const detail::ArgLayout& layout) {
  return matches_types(t, values) && same_names_and_kinds(t, layout);
}

}  // namespace

// What the call path learned about one call: its number, its ledger record, whether it traced.
struct Function::Lookup {
  int call = 0;
  bool traced = false;
  bool later_creation = false;
  detail::LedgerLog::Record* record = nullptr;
};

namespace {

// The number of the last call `owner` (a Function) counted: the one running when a call under a
// tape builds gradient functions.
int latest_call_of(const void* owner) {
  int n = 0;
  for (const LedgerEntry& e : static_cast<const Function*>(owner)->ledger().entries)
    if (!e.concrete_only) n = std::max(n, e.call + std::max(e.count, 1) - 1);
  return n;
}

}  // namespace

bool inside_trace() {
  return Context::get().trace_depth() > 0;
}

Tensor evaluate_lifted(const Tensor& t) {
  if (!t.is_symbolic()) return t;
  // Refuse initializers that depend on a function argument.
  std::vector<const Node*> stack{t.node()};
  std::set<const Node*> seen;
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second) continue;
    if (n->op() == "Placeholder") {
      value_error("[function] a variable's initial value depends on the function argument " +
                  n->name + "; create the variable from a value computed outside the function");
    }
    for (auto& in : n->inputs) stack.push_back(in.node);
  }
  Executor ex(t.graph(), {}, {Output{t.node(), t.index()}}, {});
  return ex.run({}).at(0);
}

Function::Function(std::string name, std::vector<Parameter> params, Body body,
                   FunctionOptions options)
    : name_(std::move(name)),
      params_(std::move(params)),
      body_(std::move(body)),
      options_(std::move(options)),
      cache_(options_.max_cache_entries),
      ledger_(std::make_unique<detail::LedgerLog>()) {
  if (options_.detector_key.empty()) options_.detector_key = name_;
  if (options_.display_name.empty()) options_.display_name = "<function " + name_ + ">";
  plain_layout_ = detail::plain_layout(params_);
  if (!options_.input_signature) return;
  // Validate the signature now, as tf.function does at decoration; calls bind against the
  // parameters it gives (*args unrolled, **kwargs dropped).
  signature_params_ = detail::add_type_constraints(params_, *options_.input_signature);
  plain_layout_ = detail::plain_layout(params_);
  signature_hash_ = FunctionType{signature_params_}.hash();
}

Function::~Function() {
  detail::forget_trace_owner(this);
}

detail::BoundArguments Function::bind(const std::vector<Value>& args, const Kwargs& kwargs) const {
  auto fail = [&](const std::string& inner) {
    std::string sig;
    if (options_.input_signature) {
      // TF's binding error marks the parameters filled from defaults.
      FunctionType shown{signature_params_};
      for (auto& tp : shown.params)
        for (auto& p : params_)
          if (p.name == tp.name && p.default_value) tp.shows_default = true;
      sig = shown.signature_text();
    } else {
      sig = detail::plain_signature_text(params_);
    }
    type_error("Binding inputs to tf.function failed due to `" + inner +
               "`. Received args: " + detail::args_repr(args) +
               " and kwargs: " + detail::kwargs_repr(kwargs) + " for signature: " + sig + ".");
  };
  detail::BoundArguments b;
  try {
    b = detail::bind_arguments(params_, args, kwargs, plain_layout_);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kTypeError) throw;
    fail(e.what());
  }
  if (options_.input_signature) detail::cast_to_signature(b, signature_params_, fail);
  return b;
}

FunctionType Function::request_type(const detail::BoundArguments& b) const {
  if (options_.input_signature) return FunctionType{signature_params_};
  FunctionType t;
  t.params.reserve(b.values.size());
  TraceTypeBuilder tb;
  for (size_t i = 0; i < b.values.size(); ++i) {
    t.params.push_back(TypedParameter{b.name(i), b.kind(i), tb.from_value(b.values[i])});
  }
  return t;
}

size_t Function::request_hash(const detail::BoundArguments& b) const {
  if (options_.input_signature) return signature_hash_;
  return hash_request(b.values, *b.layout);
}

bool Function::is_request_type(const FunctionType& t, const detail::BoundArguments& b) const {
  if (options_.input_signature) {
    if (t.params.size() != b.size()) return false;
    for (size_t i = 0; i < b.size(); ++i)
      if (!(t.params[i].type == signature_params_[i].type)) return false;
    return same_names_and_kinds(t, *b.layout);
  }
  return matches_request(t, b.values, *b.layout);
}

int Function::scope_now() const {
  return (created_variables_ ? kNoVariableCreation : kVariableCreation) |
         (Context::get().in_save_context() ? kSaving : 0);
}

detail::RetraceDetector& Function::detector() {
  detail::RetraceDetector* d = detector_.load(std::memory_order_acquire);
  if (!d) {
    d = &detail::RetraceDetector::for_key(options_.detector_key);
    detector_.store(d, std::memory_order_release);
  }
  return *d;
}

std::shared_ptr<ConcreteFunction> Function::trace(const FunctionType& target,
                                                  const detail::BoundArguments& b, int scope,
                                                  const std::string& reason, LedgerEntry& entry) {
  if (fail_on_retrace_.load()) {
    throw Error(ErrorKind::kValueError,
                "[function] " + name_ + ": retrace not allowed (fail-on-retrace is on): " + reason);
  }
  detail::TraceResult r;
  {
    // Gradient functions the trace builds (a gradient of a call in its graph) name this call.
    detail::TracingCallScope tracing(entry.concrete_only ? 0 : entry.call);
    r = detail::Tracer::trace(
        {name_, params_, body_, options_, target, b, (scope & 1) == kVariableCreation});
  }
  if (plain_layout_ && !options_.input_signature && !same_names_and_kinds(target, *plain_layout_))
    throw Error(ErrorKind::kInternal, "[function] " + name_ + ": a trace of " +
                                          target.signature_text() +
                                          " does not bind the parameters one to one");
  // Taken before this Function's lock: the registry reads the ledger under its own lock.
  detail::note_trace_owner(r.cf->name(), this, &latest_call_of);
  entry.trace_us += r.trace_us;
  std::lock_guard<std::mutex> lock(mu_);
  if (r.variables_created > 0) created_variables_ = true;
  for (auto& e : cache_.insert(target, scope, r.cf)) {
    entry.evicted.push_back(e.cf->name() + " " + e.type.signature_text());
  }
  return r.cf;
}

std::shared_ptr<ConcreteFunction> Function::maybe_define(const detail::BoundArguments& b,
                                                         const FunctionType& req, int scope,
                                                         LedgerEntry& entry, bool* traced) {
  *traced = false;
  FunctionType target = req;
  std::string reason;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto cf = cache_.lookup(req, scope)) return cf;
    reason = detail::explain_retrace(cache_, req, scope, (scope & 1) == kNoVariableCreation);
    if (options_.reduce_retracing && !options_.input_signature) {
      target = cache_.generalize(req, scope);
      if (!(target == req)) reason += " (relaxed to " + target.signature_text() + ")";
    }
  }
  entry.reason = reason;
  *traced = true;
  return trace(target, b, scope, reason, entry);
}

std::shared_ptr<ConcreteFunction> Function::define(const detail::BoundArguments& b,
                                                   const FunctionType& req, Lookup& out) {
  // One trace at a time, as TF holds its function lock while tracing; the lock is re-entrant
  // for a body that calls its own function.
  std::lock_guard<std::recursive_mutex> trace_lock(trace_mu_);
  LedgerEntry entry;
  bool first = false, was_created = false;
  int scope = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    out.call = entry.call = ++num_calls_;
    first = !initialized_;
    initialized_ = true;
    was_created = created_variables_;
    scope = scope_now();
  }
  std::shared_ptr<ConcreteFunction> cf;
  bool traced = false;
  try {
    cf = maybe_define(b, req, scope, entry, &traced);
    bool created_now;
    {
      std::lock_guard<std::mutex> lock(mu_);
      created_now = created_variables_ && !was_created;
    }
    if (first && created_now) {
      // TF traces a second time when the first trace created variables.
      LedgerEntry second;
      bool traced2 = false;
      std::string first_reason = entry.reason;
      cf = maybe_define(b, req, scope | kNoVariableCreation, second, &traced2);
      entry.reason = first_reason + "; then traced again without variable creation";
      entry.trace_us += second.trace_us;
      for (auto& e : second.evicted) entry.evicted.push_back(e);
      traced = traced || traced2;
    } else if (created_now) {
      out.later_creation = true;
    }
  } catch (const Error& e) {
    entry.failed = true;
    entry.error = e.what();
    entry.args = detail::args_summary(b);
    std::lock_guard<std::mutex> lock(mu_);
    ledger_->add(std::move(entry), nullptr);
    throw;
  }
  size_t hash = traced ? 0 : req.hash();
  std::lock_guard<std::mutex> lock(mu_);
  out.traced = traced;
  if (!traced) out.record = ledger_->fold_hit(out.call, hash, cf.get());
  if (!out.record) {
    entry.traced = traced;
    entry.args = detail::args_summary(b);
    entry.concrete_function = cf->name();
    entry.request_hash = hash;
    out.record = &ledger_->add(std::move(entry), cf.get());
  }
  return cf;
}

Value Function::run_eagerly(const std::vector<Value>& args, const Kwargs& kwargs) {
  // tf.config.run_functions_eagerly(True): the body runs as plain code, nothing is traced.
  detail::BoundArguments b = bind(args, kwargs);
  std::vector<Value> pos;
  Kwargs kw;
  for (size_t i = 0; i < b.values.size(); ++i) {
    if (b.kind(i) == ParamKind::kKeywordOnly)
      kw.emplace_back(b.name(i), b.values[i]);
    else
      pos.push_back(b.values[i]);
  }
  return body_(pos, kw);
}

Value Function::call(const std::vector<Value>& args, const Kwargs& kwargs) {
  Context& ctx = Context::get();
  if (ctx.functions_run_eagerly()) return run_eagerly(args, kwargs);
  // TF's frequent-retracing detector only counts calls made eagerly.
  const bool eager = ctx.executing_eagerly();
  // A call whose positional arguments fill the parameters one to one binds to those very
  // values (bind() would copy them): the lookup reads them in place, and binds only on a miss.
  const bool in_place =
      kwargs.empty() && plain_layout_ && !options_.input_signature && args.size() == params_.size();
  detail::BoundArguments b;
  auto bind_or_record = [&] {
    try {
      b = bind(args, kwargs);
    } catch (const Error& e) {
      LedgerEntry entry;
      entry.failed = true;
      entry.error = e.what();
      if (!b.values.empty()) entry.args = detail::args_summary(b);
      std::lock_guard<std::mutex> lock(mu_);
      entry.call = ++num_calls_;
      ledger_->add(std::move(entry), nullptr);
      throw;
    }
  };
  if (!in_place) bind_or_record();
  const std::span<const Value> values = in_place ? std::span<const Value>(args) : b.values;
  Lookup l;
  std::shared_ptr<ConcreteFunction> cf;
  std::optional<FunctionType> req;  // built only when no cached type equals the request
  size_t hash = 0;                  // the request's FunctionType::hash, once known
  bool hashed = false;
  {
    // The hit path: this one lock; nothing allocated for an exact hit that continues the
    // ledger's last run, and nothing hashed when the call before had the same types.
    std::lock_guard<std::mutex> lock(mu_);
    if (initialized_) {
      // In place, the names and kinds need no comparing: every trace of a Function whose
      // parameters bind one to one has that layout (checked in trace()).
      cf = cache_.lookup_exact(
          scope_now(),
          [&](const FunctionType& t) {
            return in_place ? matches_types(t, values) : is_request_type(t, b);
          },
          [&] { return in_place ? hash_request(args, *plain_layout_) : request_hash(b); }, hash);
      hashed = true;
    }
    if (cf) {
      l.call = ++num_calls_;
      l.record = ledger_->fold_hit(l.call, hash, cf.get());
    }
  }
  if (!cf || !l.record) {
    if (in_place) bind_or_record();  // what follows reads bound arguments
    if (!hashed) hash = request_hash(b);
    std::lock_guard<std::mutex> lock(mu_);
    if (!cf && initialized_) {
      // A cached trace whose type is a supertype of the request.
      req = request_type(b);
      cf = cache_.lookup(*req, scope_now());
      if (cf) {
        l.call = ++num_calls_;
        l.record = ledger_->fold_hit(l.call, hash, cf.get());
      }
    }
    if (cf && !l.record) {
      LedgerEntry entry;
      entry.call = l.call;
      entry.args = detail::args_summary(b);
      entry.concrete_function = cf->name();
      entry.request_hash = hash;
      l.record = &ledger_->add(std::move(entry), cf.get());
    }
  }
  if (!cf) {
    if (!req) req = request_type(b);
    cf = define(b, *req, l);
  }
  if (eager) {
    if (l.traced) {
      std::string warning = detector().record_trace(options_.display_name);
      if (!warning.empty()) detail::emit_warning(warning);
    } else {
      detector().record_hit();
    }
  }
  const int64_t t0 = detail::LedgerClock::now();
  Value out = [&] {
    try {
      return detail::Tracer::call_bound(*cf, values, eager);
    } catch (const Error& e) {
      std::lock_guard<std::mutex> lock(mu_);
      ledger_->run_failed(*l.record, l.call, e.what());
      throw;
    }
  }();
  detail::LedgerLog::add_run_time(*l.record, detail::LedgerClock::now() - t0);
  if (l.later_creation) {
    value_error("Creating variables on a non-first call to a function decorated with tf.function.");
  }
  return out;
}

std::shared_ptr<ConcreteFunction> Function::get_concrete_function(const std::vector<Value>& args,
                                                                  const Kwargs& kwargs) {
  std::lock_guard<std::recursive_mutex> trace_lock(trace_mu_);
  LedgerEntry entry;
  entry.concrete_only = true;
  std::vector<Value> a = args;
  if (options_.input_signature && args.empty() && kwargs.empty()) a = *options_.input_signature;
  detail::BoundArguments b = bind(a, kwargs);
  FunctionType req = request_type(b);
  entry.args = detail::args_summary(b);
  bool first = false;
  int scope = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    first = !initialized_;
    initialized_ = true;
    scope = scope_now();
  }
  bool traced = false, traced2 = false;
  std::shared_ptr<ConcreteFunction> cf = maybe_define(b, req, scope, entry, &traced);
  bool created;
  {
    std::lock_guard<std::mutex> lock(mu_);
    created = created_variables_;
  }
  if (first && created) cf = maybe_define(b, req, scope | kNoVariableCreation, entry, &traced2);
  entry.traced = traced || traced2;
  entry.concrete_function = cf->name();
  std::lock_guard<std::mutex> lock(mu_);
  ledger_->add(std::move(entry), cf.get());
  return cf;
}

namespace {

bool holds_variable(const TraceType& t) {
  if (t.kind() == TraceType::Kind::kVariableSpec) return true;
  for (const auto& c : t.children())
    if (holds_variable(c)) return true;
  return false;
}

}  // namespace

int Function::trace_for_saving() {
  std::lock_guard<std::recursive_mutex> trace_lock(trace_mu_);
  std::vector<std::pair<FunctionType, int>> outside;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& e : cache_.entries())
      if (!(e.scope & kSaving)) outside.emplace_back(e.type, e.scope);
  }
  // A first call that created variables traced twice (with and without variable creation); TF
  // saves the function once per input type, so the variable-creating trace is not traced again.
  std::erase_if(outside, [&](const std::pair<FunctionType, int>& e) {
    if ((e.second & 1) != kVariableCreation) return false;
    return std::any_of(outside.begin(), outside.end(), [&](const auto& o) {
      return (o.second & 1) == kNoVariableCreation && o.first == e.first;
    });
  });
  SaveContextScope saving;
  int made = 0;
  for (auto& [type, scope] : outside) {
    bool skip = false;
    for (const auto& p : type.params) skip = skip || holds_variable(p.type);
    if (skip) continue;
    // The tracer reads argument values only for variables; the types say the rest.
    detail::BoundArguments b;
    std::vector<std::string> names;
    std::vector<ParamKind> kinds;
    for (const auto& p : type.params) {
      names.push_back(p.name);
      kinds.push_back(p.kind);
      b.values.emplace_back();
    }
    b.layout = detail::ArgLayout::make(std::move(names), std::move(kinds));
    LedgerEntry entry;
    entry.concrete_only = true;
    entry.args = type.signature_text();
    bool traced = false;
    std::shared_ptr<ConcreteFunction> cf = maybe_define(b, type, scope | kSaving, entry, &traced);
    entry.traced = traced;
    entry.reason = "tf.saved_model.save traces again in its save context";
    entry.concrete_function = cf->name();
    made += traced ? 1 : 0;
    std::lock_guard<std::mutex> lock(mu_);
    ledger_->add(std::move(entry), cf.get());
  }
  return made;
}

int Function::experimental_get_tracing_count() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(cache_.size());
}

size_t Function::last_miss_candidates() const {
  std::lock_guard<std::mutex> lock(mu_);
  return cache_.last_miss_candidates();
}

std::vector<std::shared_ptr<ConcreteFunction>> Function::concrete_functions() const {
  std::lock_guard<std::mutex> lock(mu_);
  return cache_.concrete_functions();
}

std::string Function::pretty_printed_concrete_signatures(bool verbose) {
  if (options_.input_signature) get_concrete_function();
  std::string s;
  auto cfs = concrete_functions();
  for (size_t i = 0; i < cfs.size(); ++i) {
    if (i) s += verbose ? "\n\n" : "\n";
    s += cfs[i]->pretty_printed_signature(verbose);
  }
  return s;
}

CallLedger Function::ledger() const {
  std::lock_guard<std::mutex> lock(mu_);
  return ledger_->snapshot();
}

void Function::set_fail_on_retrace(bool on) {
  fail_on_retrace_.store(on);
}

std::shared_ptr<Function> stabilize(const Function& fn, std::vector<Value> input_signature) {
  FunctionOptions o = fn.options();
  o.input_signature = std::move(input_signature);
  o.reduce_retracing = false;
  return std::make_shared<Function>(fn.name(), fn.parameters(), fn.body(), o);
}

}  // namespace tfs

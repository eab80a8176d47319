// The registry of gradient function pairs (gradient_functions.h).
#include "tfscope/gradient_functions.h"

#include <map>
#include <mutex>

namespace tfs {

namespace {

struct Owner {
  const void* owner = nullptr;
  detail::LatestCall latest = nullptr;
};

struct Registry {
  std::mutex mu;
  std::vector<GradientFunctionPair> pairs;
  std::map<std::string, Owner> owners;  // concrete function name -> its Function
};

Registry& registry() {
  static auto* r = new Registry();
  return *r;
}

thread_local detail::TracingCallScope* t_tracing = nullptr;

}  // namespace

namespace detail {

void note_trace_owner(const std::string& cf, const void* owner, LatestCall latest) {
  Registry& r = registry();
  std::lock_guard<std::mutex> l(r.mu);
  r.owners[cf] = Owner{owner, latest};
}

void forget_trace_owner(const void* owner) {
  Registry& r = registry();
  std::lock_guard<std::mutex> l(r.mu);
  for (auto it = r.owners.begin(); it != r.owners.end();)
    it = it->second.owner == owner ? r.owners.erase(it) : std::next(it);
}

TracingCallScope::TracingCallScope(int call) : outer_(t_tracing), call_(call) {
  t_tracing = this;
}

TracingCallScope::~TracingCallScope() {
  t_tracing = outer_;
}

void TracingCallScope::set_function(const std::string& cf) {
  if (t_tracing && t_tracing->cf_.empty()) t_tracing->cf_ = cf;
}

}  // namespace detail

void record_gradient_functions(GradientFunctionPair p) {
  Registry& r = registry();
  std::lock_guard<std::mutex> l(r.mu);
  if (p.kind == "graph") {
    if (t_tracing) {
      p.built_by = t_tracing->cf_;
      p.call = t_tracing->call_;
    }
  } else {
    p.built_by = p.of;
    // The owner's lock is taken under the registry's: a Function forgets its traces (under
    // the registry's lock) only in its destructor, and holds its own lock only for bookkeeping.
    auto it = r.owners.find(p.of);
    if (it != r.owners.end()) p.call = it->second.latest(it->second.owner);
  }
  r.pairs.push_back(std::move(p));
}

std::vector<GradientFunctionPair> gradient_functions() {
  Registry& r = registry();
  std::lock_guard<std::mutex> l(r.mu);
  return r.pairs;
}

std::vector<GradientFunctionPair> gradient_functions_built_by(const std::string& cf, int first,
                                                              int last) {
  Registry& r = registry();
  std::lock_guard<std::mutex> l(r.mu);
  std::vector<GradientFunctionPair> out;
  for (const auto& p : r.pairs)
    if (p.built_by == cf && p.call >= first && p.call <= last) out.push_back(p);
  return out;
}

std::vector<GradientFunctionPair> gradient_functions_of(const std::string& of) {
  Registry& r = registry();
  std::lock_guard<std::mutex> l(r.mu);
  std::vector<GradientFunctionPair> out;
  for (const auto& p : r.pairs)
    if (p.of == of) out.push_back(p);
  return out;
}

std::string gradient_pair_reason(const GradientFunctionPair& p) {
  if (p.kind == "tape") return "a GradientTape recorded the call";
  if (p.kind == "higher-order tape") return "a persistent or nested GradientTape recorded the call";
  return "a gradient of its call in a graph";
}

std::string gradient_pair_text(const GradientFunctionPair& p) {
  return p.forward + " (" + std::to_string(p.forward_nodes) + " nodes), " + p.backward + " (" +
         std::to_string(p.backward_nodes) + " nodes) of " + p.of + " (" + gradient_pair_reason(p) +
         ")";
}

}  // namespace tfs

// The trace cache of one Function, as TF 2.21's FunctionCache and TypeDispatchTable: traces keyed
// by (scope, FunctionType); a lookup is an exact match, else the most specific cached supertype
// (ties to the earliest inserted). Unlike TF's table, a miss costs the same however many traces
// are cached: only traces whose type skeleton (the type without shapes) equals the request's can
// serve it or generalise with it, and those are indexed together. An optional bound evicts the
// least recently used trace (a tfscope extension; TF's cache is unbounded).
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <unordered_map>
#include <vector>

#include "tfscope/function_type.h"

namespace tfs {

class ConcreteFunction;

class TraceCache {
 public:
  struct Entry {
    FunctionType type;
    int scope = 0;
    std::shared_ptr<ConcreteFunction> cf;
    size_t type_hash = 0;  // type.hash()
    size_t hash = 0;       // type_hash keyed with the scope
    size_t skeleton = 0;
    uint64_t last_used = 0;
    uint64_t insertion = 0;
  };

  explicit TraceCache(size_t max_entries = 0) : max_entries_(max_entries) {}

  // The trace serving `request` in `scope`, or null; marks it used.
  std::shared_ptr<ConcreteFunction> lookup(const FunctionType& request, int scope);
  // An exact hit found without building the request's type, or null: the trace of `scope` whose
  // type satisfies `is_request`. The trace of the last exact hit is tried first, so a call with
  // the types of the call before (most calls) is not hashed; otherwise the request is hashed
  // (`hash_request()`, its FunctionType::hash) and looked up. Either way `request_hash` is set
  // to the request's FunctionType::hash.
  template <class IsRequest, class HashRequest>
  std::shared_ptr<ConcreteFunction> lookup_exact(int scope, IsRequest&& is_request,
                                                 HashRequest&& hash_request, size_t& request_hash);
  // reduce_retracing: the request generalised against every trace it has a common supertype
  // with, in insertion order (TF's try_generalizing_function_type).
  FunctionType generalize(const FunctionType& request, int scope) const;
  // The cached trace of `scope` most like `request` (most parameters of equal type), for
  // explaining a retrace; searched among the traces of the same skeleton and the most recent
  // ones, so that explaining stays cheap with many traces.
  const Entry* closest(const FunctionType& request, int scope) const;
  bool has_scope(int scope) const;

  // Adds a trace; returns the entries evicted to keep within the bound.
  std::vector<Entry> insert(FunctionType type, int scope, std::shared_ptr<ConcreteFunction> cf);

  // How many cached traces the last lookup that found no exact match compared against (the
  // traces of the request's skeleton): what a miss costs, whatever the cache's size.
  size_t last_miss_candidates() const { return last_miss_candidates_; }

  size_t size() const { return order_.size(); }
  bool empty() const { return order_.empty(); }
  const std::list<Entry>& entries() const { return order_; }  // insertion order
  // Every cached trace, in insertion order.
  std::vector<std::shared_ptr<ConcreteFunction>> concrete_functions() const;

 private:
  using Iter = std::list<Entry>::iterator;
  void erase(Iter it);

  size_t max_entries_;
  uint64_t clock_ = 0;
  uint64_t insertions_ = 0;
  size_t last_miss_candidates_ = 0;
  std::list<Entry> order_;  // insertion order; iterators stay valid across erase
  std::unordered_multimap<size_t, Iter> exact_;              // type hash -> entry
  std::unordered_map<size_t, std::vector<Iter>> skeletons_;  // skeleton -> entries, in order
  std::unordered_map<int, size_t> scope_counts_;
  Entry* last_hit_ = nullptr;  // the last exact hit (or the last insertion): tried first
};

inline size_t trace_cache_key(size_t h, int scope) {
  return h ^ (static_cast<size_t>(scope) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}

template <class IsRequest, class HashRequest>
std::shared_ptr<ConcreteFunction> TraceCache::lookup_exact(int scope, IsRequest&& is_request,
                                                           HashRequest&& hash_request,
                                                           size_t& request_hash) {
  if (last_hit_ && last_hit_->scope == scope && is_request(last_hit_->type)) {
    request_hash = last_hit_->type_hash;
    last_hit_->last_used = ++clock_;
    return last_hit_->cf;
  }
  request_hash = hash_request();
  auto range = exact_.equal_range(trace_cache_key(request_hash, scope));
  for (auto it = range.first; it != range.second; ++it) {
    Entry& e = *it->second;
    if (e.scope == scope && &e != last_hit_ && is_request(e.type)) {
      e.last_used = ++clock_;
      last_hit_ = &e;
      return e.cf;
    }
  }
  return nullptr;
}

}  // namespace tfs

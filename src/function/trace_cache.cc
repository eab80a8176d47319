#include "tfscope/trace_cache.h"

#include <algorithm>

namespace tfs {

namespace {

size_t with_scope(size_t h, int scope) {
  return trace_cache_key(h, scope);
}

// How many of the most recent traces closest() looks at beside the request's skeleton.
constexpr size_t kRecentForExplain = 16;

}  // namespace

std::shared_ptr<ConcreteFunction> TraceCache::lookup(const FunctionType& request, int scope) {
  auto range = exact_.equal_range(with_scope(request.hash(), scope));
  for (auto it = range.first; it != range.second; ++it) {
    Entry& e = *it->second;
    if (e.scope == scope && e.type == request) {
      e.last_used = ++clock_;
      return e.cf;
    }
  }
  // The most specific cached supertype; ties go to the earliest inserted.
  auto sk = skeletons_.find(with_scope(request.skeleton_hash(), scope));
  last_miss_candidates_ = sk == skeletons_.end() ? 0 : sk->second.size();
  if (sk == skeletons_.end()) return nullptr;
  Entry* best = nullptr;
  for (Iter it : sk->second) {
    Entry& e = *it;
    if (e.scope != scope || !e.type.is_supertype_of(request)) continue;
    if (!best || best->type.is_supertype_of(e.type)) {
      if (best && e.type == best->type) continue;
      best = &e;
    }
  }
  if (!best) return nullptr;
  best->last_used = ++clock_;
  return best->cf;
}

FunctionType TraceCache::generalize(const FunctionType& request, int scope) const {
  FunctionType target = request;
  auto sk = skeletons_.find(with_scope(request.skeleton_hash(), scope));
  if (sk == skeletons_.end()) return target;
  for (Iter it : sk->second) {
    if (it->scope != scope) continue;
    if (auto g = target.most_specific_common_subtype(it->type)) target = *g;
  }
  return target;
}

const TraceCache::Entry* TraceCache::closest(const FunctionType& request, int scope) const {
  std::vector<const Entry*> candidates;
  auto sk = skeletons_.find(with_scope(request.skeleton_hash(), scope));
  if (sk != skeletons_.end())
    for (Iter it : sk->second) candidates.push_back(&*it);
  size_t recent = 0;
  for (auto it = order_.rbegin(); it != order_.rend() && recent < kRecentForExplain; ++it, ++recent)
    candidates.push_back(&*it);
  // Later insertions win ties, as the explanation compares with the newest similar trace.
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Entry* a, const Entry* b) { return a->insertion < b->insertion; });
  const Entry* best = nullptr;
  int best_score = -1;
  for (const Entry* e : candidates) {
    if (e->scope != scope || e->type.params.size() != request.params.size()) continue;
    int score = 0;
    for (size_t i = 0; i < request.params.size(); ++i) {
      if (e->type.params[i].name == request.params[i].name &&
          e->type.params[i].type == request.params[i].type)
        score++;
    }
    if (score >= best_score) {
      best_score = score;
      best = e;
    }
  }
  return best;
}

bool TraceCache::has_scope(int scope) const {
  auto it = scope_counts_.find(scope);
  return it != scope_counts_.end() && it->second > 0;
}

std::vector<TraceCache::Entry> TraceCache::insert(FunctionType type, int scope,
                                                  std::shared_ptr<ConcreteFunction> cf) {
  std::vector<Entry> evicted;
  while (max_entries_ > 0 && order_.size() >= max_entries_) {
    Iter victim = order_.begin();
    for (Iter it = order_.begin(); it != order_.end(); ++it)
      if (it->last_used < victim->last_used) victim = it;
    evicted.push_back(*victim);
    erase(victim);
  }
  Entry e;
  e.type_hash = type.hash();
  e.hash = with_scope(e.type_hash, scope);
  e.skeleton = with_scope(type.skeleton_hash(), scope);
  e.type = std::move(type);
  e.scope = scope;
  e.cf = std::move(cf);
  e.last_used = ++clock_;
  e.insertion = ++insertions_;
  order_.push_back(std::move(e));
  Iter it = std::prev(order_.end());
  exact_.emplace(it->hash, it);
  skeletons_[it->skeleton].push_back(it);
  scope_counts_[scope]++;
  last_hit_ = &*it;  // the calls after a trace are most often hits of it
  return evicted;
}

void TraceCache::erase(Iter it) {
  if (last_hit_ == &*it) last_hit_ = nullptr;
  auto range = exact_.equal_range(it->hash);
  for (auto e = range.first; e != range.second; ++e) {
    if (e->second == it) {
      exact_.erase(e);
      break;
    }
  }
  auto sk = skeletons_.find(it->skeleton);
  if (sk != skeletons_.end()) {
    auto& v = sk->second;
    v.erase(std::find(v.begin(), v.end(), it));
    if (v.empty()) skeletons_.erase(sk);
  }
  scope_counts_[it->scope]--;
  order_.erase(it);
}

std::vector<std::shared_ptr<ConcreteFunction>> TraceCache::concrete_functions() const {
  std::vector<std::shared_ptr<ConcreteFunction>> out;
  out.reserve(order_.size());
  for (const Entry& e : order_) out.push_back(e.cf);
  return out;
}

}  // namespace tfs

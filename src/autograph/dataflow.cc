// Reaching definitions, reaching function definitions and liveness
// (pyct/static_analysis/{reaching_definitions,reaching_fndefs,liveness}.py), computed over the
// statement tree: loops iterate to a fixpoint, raise/return end a path.
#include "analysis.h"

#include <algorithm>
#include <functional>
#include <vector>

#include "unparse.h"

namespace tfs::autograph::detail {
// ---------------------------------------------------------------- dataflow

namespace {

struct Fwd {
  Names defs;
  std::set<const Node*> fns;
  bool live = true;
};

Fwd join(const Fwd& a, const Fwd& b) {
  if (!a.live) return b;
  if (!b.live) return a;
  Fwd out = a;
  out.defs.insert(b.defs.begin(), b.defs.end());
  out.fns.insert(b.fns.begin(), b.fns.end());
  return out;
}

bool same(const Fwd& a, const Fwd& b) {
  return a.live == b.live && a.defs == b.defs && a.fns == b.fns;
}

class FlowAnalyzer {
 public:
  FlowAnalyzer(QnTable& qns, std::map<const Node*, FlowInfo>& out) : qns_(qns), out_(out) {}

  void function(const P& fn, const std::set<const Node*>& external_fns) {
    Fwd in;
    in.fns = external_fns;
    std::vector<std::string> ps;
    if (fn->a) {
      for (const Block* v : {&fn->a->v1, &fn->a->v2, &fn->a->v3})
        for (auto& a : *v) in.defs.insert(a->s);
      if (fn->a->a) in.defs.insert(fn->a->a->s);
      if (fn->a->b) in.defs.insert(fn->a->b->s);
    }
    fwd_block(fn->v1, in);
    bwd_block(fn->v1, {});
    for (auto& [nested, fns] : nested_)
      if (nested != fn.get() && !done_.count(nested)) {
        done_.insert(nested);
        FlowAnalyzer sub(qns_, out_);
        sub.done_ = done_;
        sub.function(nested_nodes_[nested], fns);
      }
  }

 private:
  const Activity& act(const P& n) {
    auto it = acts_.find(n.get());
    if (it != acts_.end()) return it->second;
    return acts_[n.get()] = node_activity(n, qns_);
  }

  Fwd xfer(const P& n, const Fwd& in) {
    fns_in_[n.get()] = in.fns;
    const Activity& a = act(n);
    Fwd out = in;
    for (auto& k : a.modified) out.defs.erase(k);
    for (auto& k : a.deleted) out.defs.erase(k);
    for (auto& g : a.bound)
      if (!a.deleted.count(g)) out.defs.insert(g);
    for (auto& g : a.globals)
      if (!a.deleted.count(g)) out.defs.insert(g);
    if (n->kind == K::FunctionDef) {
      out.fns.insert(n.get());
      nested_[n.get()] = in.fns;
      nested_nodes_[n.get()] = n;
    }
    if (n->kind == K::ClassDef) register_methods(n);
    return out;
  }

  // Methods get their own CFGs, with no function definitions reaching them.
  void register_methods(const P& cls) {
    for (auto& s : cls->v1) {
      if (s->kind == K::FunctionDef) {
        nested_[s.get()] = {};
        nested_nodes_[s.get()] = s;
      } else if (s->kind == K::ClassDef) {
        register_methods(s);
      }
    }
  }

  Fwd fwd_block(const Block& b, Fwd in) {
    for (const auto& s : b) in = fwd_stmt(s, in);
    return in;
  }

  Fwd fwd_stmt(const P& s, const Fwd& in) {
    switch (s->kind) {
      case K::If: {
        out_[s.get()].defined_in = in.defs;
        Fwd t = xfer(s->a, in);
        return join(fwd_block(s->v1, t), fwd_block(s->v2, t));
      }
      case K::While: {
        out_[s.get()].defined_in = in.defs;
        Fwd back;
        back.live = false;
        while (true) {
          Fwd t = xfer(s->a, join(in, back));
          Fwd nb = fwd_block(s->v1, t);
          if (same(nb, back)) return fwd_block(s->v2, t);
          back = join(back, nb);
        }
      }
      case K::For: {
        out_[s.get()].defined_in = in.defs;
        Fwd back;
        back.live = false;
        while (true) {
          Fwd h = xfer(iter_node(s), join(in, back));
          Fwd e = s->extra_test ? xfer(s->extra_test, h) : h;
          Fwd nb = fwd_block(s->v1, e);
          if (same(nb, back)) return fwd_block(s->v2, h);
          back = join(back, nb);
        }
      }
      case K::Try: {
        Fwd b = fwd_block(s->v1, in);
        if (!s->v3.empty()) b = join(fwd_block(s->v3, b), b);
        if (!s->v2.empty()) {
          Fwd hs = b;
          for (auto& h : s->v2) hs = join(hs, fwd_block(h->v1, b));
          b = hs;
        }
        return fwd_block(s->v4, b);
      }
      case K::With: {
        Fwd cur = in;
        for (auto& item : s->v1) cur = xfer(item, cur);
        return fwd_block(s->v2, cur);
      }
      case K::Return:
      case K::Raise: {
        xfer(s, in);
        Fwd dead;
        dead.live = false;
        return dead;
      }
      default:
        return xfer(s, in);
    }
  }

  // The For loop head: the target store and the iterated expression (node.iter's scope).
  const P& iter_node(const P& s) {
    auto it = iter_nodes_.find(s.get());
    if (it != iter_nodes_.end()) return it->second;
    auto n = std::make_shared<Node>(K::Tuple);
    n->v1 = {s->a, s->b};
    return iter_nodes_[s.get()] = n;
  }

  Names node_in(const P& n, const Names& out) {
    const Activity& a = act(n);
    Names in = a.read;
    for (auto& v : out)
      if (!a.modified.count(v) && !a.deleted.count(v)) in.insert(v);
    for (const Node* fn : fns_in_[n.get()]) {
      if (fn->kind != K::FunctionDef) continue;
      Names free = free_names(fn);
      in.insert(free.begin(), free.end());
    }
    return in;
  }

  Names free_names(const Node* fn) {
    auto it = free_.find(fn);
    if (it != free_.end()) return it->second;
    Activity inner = block_activity(fn->v1, qns_);
    for (const Block* v : {&fn->a->v1, &fn->a->v2, &fn->a->v3})
      for (auto& a : *v) inner.bound.insert(a->s);
    if (fn->a->a) inner.bound.insert(fn->a->a->s);
    if (fn->a->b) inner.bound.insert(fn->a->b->s);
    Names free;
    for (auto& r : inner.read)
      if (!inner.bound.count(r)) free.insert(r);
    return free_[fn] = free;
  }

  Names bwd_block(const Block& b, Names after) {
    for (auto it = b.rbegin(); it != b.rend(); ++it) after = bwd_stmt(*it, after);
    return after;
  }

  static Names unite(Names a, const Names& b) {
    a.insert(b.begin(), b.end());
    return a;
  }

  Names bwd_stmt(const P& s, const Names& after) {
    switch (s->kind) {
      case K::If: {
        Names body = bwd_block(s->v1, after);
        Names orelse = bwd_block(s->v2, after);
        Names in = node_in(s->a, unite(body, orelse));
        out_[s.get()].live_in = in;
        out_[s.get()].live_out = after;
        return in;
      }
      case K::While: {
        Names head;
        Names exit = bwd_block(s->v2, after);
        while (true) {
          Names body = bwd_block(s->v1, head);
          Names next = node_in(s->a, unite(body, exit));
          if (next == head) break;
          head = next;
        }
        out_[s.get()].live_in = head;
        out_[s.get()].live_out = after;
        return head;
      }
      case K::For: {
        Names head;
        Names exit = bwd_block(s->v2, after);
        while (true) {
          Names body = bwd_block(s->v1, head);
          if (s->extra_test) body = node_in(s->extra_test, body);
          Names next = node_in(iter_node(s), unite(body, exit));
          if (next == head) break;
          head = next;
        }
        out_[s.get()].live_in = head;
        out_[s.get()].live_out = after;
        return head;
      }
      case K::Try: {
        Names f = bwd_block(s->v4, after);
        Names h = f;
        for (auto& hd : s->v2) h = unite(h, bwd_block(hd->v1, f));
        Names o = s->v3.empty() ? h : unite(bwd_block(s->v3, h), h);
        return bwd_block(s->v1, o);
      }
      case K::With: {
        Names b = bwd_block(s->v2, after);
        for (auto it = s->v1.rbegin(); it != s->v1.rend(); ++it) b = node_in(*it, b);
        return b;
      }
      case K::Return:
      case K::Raise:
        return node_in(s, {});
      default:
        return node_in(s, after);
    }
  }

  QnTable& qns_;
  std::map<const Node*, FlowInfo>& out_;
  std::map<const Node*, Activity> acts_;
  std::map<const Node*, std::set<const Node*>> fns_in_;
  std::map<const Node*, std::set<const Node*>> nested_;
  std::map<const Node*, P> nested_nodes_;
  std::map<const Node*, P> iter_nodes_;
  std::map<const Node*, Names> free_;
  std::set<const Node*> done_;
};

void annotate_scopes(const Block& b, QnTable& qns, std::map<const Node*, FlowInfo>& out) {
  for (const auto& s : b) {
    if (!s) continue;
    if (s->kind == K::If || s->kind == K::While || s->kind == K::For) {
      FlowInfo& f = out[s.get()];
      f.body = block_activity(s->v1, qns);
      f.orelse = block_activity(s->v2, qns);
      if (s->kind == K::For) {
        Activity it = node_activity(s->a, qns);
        if (s->extra_test) {
          Activity e = node_activity(s->extra_test, qns);
          it.read.insert(e.read.begin(), e.read.end());
        }
        f.iterate = it;
      }
    }
    for (const Block* v : {&s->v1, &s->v2, &s->v3, &s->v4}) {
      if (s->kind == K::Try && v == &s->v2) {
        for (auto& h : s->v2) annotate_scopes(h->v1, qns, out);
        continue;
      }
      annotate_scopes(*v, qns, out);
    }
  }
}

}  // namespace

std::map<const Node*, FlowInfo> analyze_control_flow(const P& fn, QnTable& qns) {
  std::map<const Node*, FlowInfo> out;
  FlowAnalyzer(qns, out).function(fn, {});
  annotate_scopes(fn->v1, qns, out);
  return out;
}

}  // namespace tfs::autograph::detail

// pyct/qual_names.py and pyct/static_analysis/activity.py.
#include "analysis.h"

#include <algorithm>
#include <functional>
#include <vector>

#include "unparse.h"

namespace tfs::autograph::detail {

// ---------------------------------------------------------------- qualified names

std::string QnTable::of(const P& n) {
  if (!n) return "";
  std::string qn, parent, sub;
  QnInfo info;
  switch (n->kind) {
    case K::Name:
      qn = n->s;
      info.simple = true;
      info.support = {qn};
      break;
    case K::Attribute:
      parent = of(n->a);
      if (parent.empty()) return "";
      qn = parent + "." + n->s;
      info.simple = false;
      info.support = table_.at(parent).support;
      break;
    case K::Subscript: {
      const P& s = n->b;
      if (s->kind == K::Tuple || s->kind == K::Slice) return "";
      if (s->kind == K::Constant && s->ckind != ConstKind::Ellipsis) {
        // qual_names.Literal.__str__: strings in single quotes, everything else str().
        if (s->ckind == ConstKind::Str)
          sub = "'" + s->s + "'";
        else
          sub = unparse(s);
      } else {
        sub = of(s);
        if (sub.empty()) return "";
      }
      parent = of(n->a);
      if (parent.empty()) return "";
      qn = parent + "[" + sub + "]";
      info.simple = false;
      info.support = table_.at(parent).support;
      if (s->kind != K::Constant) {
        const auto& ss = table_.at(sub).support;
        info.support.insert(ss.begin(), ss.end());
      }
      break;
    }
    default:
      return "";
  }
  if (!table_.count(qn)) {
    info.ast = clone(n);
    set_ctx(info.ast, Ctx::Load);
    std::function<void(const P&)> unmark = [&](const P& x) {
      if (!x) return;
      x->original = false;
      unmark(x->a);
      unmark(x->b);
    };
    unmark(info.ast);
    table_[qn] = info;
    if (!parent.empty()) parent_[qn] = parent;
  }
  return qn;
}

Names QnTable::owners(const std::string& qn) const {
  Names out;
  auto it = parent_.find(qn);
  while (it != parent_.end()) {
    out.insert(it->second);
    it = parent_.find(it->second);
  }
  return out;
}

// ---------------------------------------------------------------- activity

namespace {

class ActivityWalker {
 public:
  ActivityWalker(QnTable& qns, Activity& act) : qns_(qns), act_(act) {}

  // include_nested: whether free names of nested function bodies count (block view) or not
  // (CFG node view).
  bool include_nested = true;

  void stmts(const Block& b) {
    for (const auto& s : b) stmt(s);
  }

  void stmt(const P& n) {
    switch (n->kind) {
      case K::FunctionDef: {
        for (auto& d : n->v2) expr(d);
        if (n->b) annotation(n->b);
        arg_defaults_and_annotations(n->a);
        bind_name(n->s);
        if (include_nested) nested_function(n->a, n->v1, nullptr);
        break;
      }
      case K::ClassDef:
        for (auto& d : n->v2) expr(d);
        for (auto& d : n->v3) expr(d);
        for (auto& d : n->v4) expr(d);
        bind_name(n->s);
        break;
      case K::Global:
        for (auto& nm : n->names) {
          qns_.of(name(nm));
          act_.read.insert(nm);
          act_.globals.insert(nm);
        }
        break;
      case K::Nonlocal:
        for (auto& nm : n->names) {
          qns_.of(name(nm));
          act_.read.insert(nm);
          act_.bound.insert(nm);
          act_.nonlocals.insert(nm);
        }
        break;
      case K::Import:
      case K::ImportFrom:
        for (auto& al : n->v1) {
          bind_name(!al->s2.empty() ? al->s2 : al->s.substr(0, al->s.find('.')));
        }
        break;
      case K::AugAssign:
        in_aug_ = true;
        expr(n->a);
        in_aug_ = false;
        expr(n->b);
        break;
      case K::AnnAssign:
        expr(n->a);
        if (n->c) expr(n->c);
        annotation(n->b);
        break;
      case K::For:
        expr(n->a);
        expr(n->b);
        if (n->extra_test) expr(n->extra_test);
        stmts(n->v1);
        stmts(n->v2);
        break;
      case K::While:
      case K::If:
        expr(n->a);
        stmts(n->v1);
        stmts(n->v2);
        break;
      case K::With:
        for (auto& item : n->v1) withitem(item);
        stmts(n->v2);
        break;
      case K::Try:
        stmts(n->v1);
        for (auto& h : n->v2) {
          if (h->a) expr(h->a);
          // The handler's name is isolated to the handler.
          Activity inner;
          ActivityWalker w(qns_, inner);
          w.comprehensions_ = comprehensions_;
          w.stmts(h->v1);
          inner.modified.erase(h->s);
          inner.bound.erase(h->s);
          inner.read.erase(h->s);
          merge(inner);
        }
        stmts(n->v3);
        stmts(n->v4);
        break;
      default:
        generic(n);
    }
  }

  void withitem(const P& item) {
    expr(item->a);
    if (item->b) expr(item->b);
  }

  void expr(const P& n) {
    if (!n) return;
    switch (n->kind) {
      case K::Name:
      case K::Attribute:
      case K::Subscript:
        if (n->kind != K::Name) generic(n);
        track(n);
        break;
      case K::ListComp:
      case K::SetComp:
      case K::GeneratorExp:
      case K::DictComp: {
        comprehensions_.emplace_back();
        for (auto& g : n->v1) {
          expr(g->b);
          expr(g->a);
          for (auto& c : g->v1) expr(c);
        }
        expr(n->a);
        if (n->kind == K::DictComp) expr(n->b);
        comprehensions_.pop_back();
        break;
      }
      case K::Lambda: {
        arg_defaults_and_annotations(n->a);
        nested_function(n->a, {}, n->b);
        break;
      }
      default:
        generic(n);
    }
  }

  void annotation(const P& n) { expr(n); }

 private:
  void generic(const P& n) {
    for (const P* c : {&n->a, &n->b, &n->c})
      if (*c) visit_any(*c);
    for (const Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
      for (auto& c : *v)
        if (c) visit_any(c);
  }

  void visit_any(const P& n) {
    if (is_stmt(n->kind))
      stmt(n);
    else if (n->kind == K::WithItem)
      withitem(n);
    else
      expr(n);
  }

  void arg_defaults_and_annotations(const P& args) {
    if (!args) return;
    for (auto& d : args->v4) expr(d);
    for (auto& d : args->v5)
      if (d) expr(d);
    for (const Block* v : {&args->v1, &args->v2, &args->v3})
      for (auto& a : *v)
        if (a->a) annotation(a->a);
    for (const P* a : {&args->a, &args->b})
      if (*a && (*a)->a) annotation((*a)->a);
  }

  std::vector<std::string> params(const P& args) {
    std::vector<std::string> out;
    if (!args) return out;
    for (const Block* v : {&args->v1, &args->v2, &args->v3})
      for (auto& a : *v) out.push_back(a->s);
    if (args->a) out.push_back(args->a->s);
    if (args->b) out.push_back(args->b->s);
    return out;
  }

  // An isolated scope: its free names become reads here. A lambda also leaks the reads of its
  // body (activity.py's visit_Lambda adds `lambda_scope.read - lambda_scope.bound`).
  void nested_function(const P& args, const Block& body, const P& lambda_body) {
    Activity inner;
    ActivityWalker w(qns_, inner);
    if (lambda_body)
      w.expr(lambda_body);
    else
      w.stmts(body);
    Names body_read = inner.read, body_bound = inner.bound;
    for (auto& p : params(args)) inner.bound.insert(p);
    for (auto& r : inner.read)
      if (!inner.bound.count(r)) act_.read.insert(r);
    if (lambda_body)
      for (auto& r : body_read)
        if (!body_bound.count(r)) act_.read.insert(r);
  }

  void track(const P& n) {
    std::string qn = qns_.of(n);
    if (qn.empty()) return;
    Names owners = qns_.owners(qn);
    for (auto& targets : comprehensions_) {
      if (targets.count(qn)) return;
      for (auto& o : owners)
        if (targets.count(o)) return;
    }
    switch (n->ctx) {
      case Ctx::Store:
        if (!comprehensions_.empty()) {
          comprehensions_.back().insert(qn);
          return;
        }
        act_.modified.insert(qn);
        act_.bound.insert(qn);
        if (in_aug_) act_.read.insert(qn);
        break;
      case Ctx::Load:
        act_.read.insert(qn);
        break;
      case Ctx::Del:
        act_.read.insert(qn);
        act_.bound.insert(qn);
        act_.deleted.insert(qn);
        break;
    }
  }

  void merge(const Activity& o) {
    for (auto [dst, src] : {std::pair{&act_.read, &o.read},
                            {&act_.modified, &o.modified},
                            {&act_.bound, &o.bound},
                            {&act_.deleted, &o.deleted},
                            {&act_.globals, &o.globals},
                            {&act_.nonlocals, &o.nonlocals}})
      dst->insert(src->begin(), src->end());
  }

  // A name a statement binds without a Name node (def, class, import): the later passes ask the
  // QN table about every modified name, so it is registered there as a simple name.
  void bind_name(const std::string& nm) {
    qns_.of(name(nm));
    act_.modified.insert(nm);
    act_.bound.insert(nm);
  }

  QnTable& qns_;
  Activity& act_;
  bool in_aug_ = false;
  std::vector<Names> comprehensions_;
};

}  // namespace

Activity block_activity(const Block& b, QnTable& qns) {
  Activity act;
  ActivityWalker(qns, act).stmts(b);
  return act;
}

Activity node_activity(const P& n, QnTable& qns) {
  Activity act;
  ActivityWalker w(qns, act);
  w.include_nested = false;
  if (is_stmt(n->kind))
    w.stmt(n);
  else if (n->kind == K::WithItem) {
    w.expr(n->a);
    if (n->b) w.expr(n->b);
  } else {
    w.expr(n);
  }
  return act;
}

Activity function_scope(const P& fn, QnTable& qns) {
  if (fn->kind == K::Lambda) {
    Activity act;
    ActivityWalker(qns, act).expr(fn->b);
    return act;
  }
  return block_activity(fn->v1, qns);
}

Names referenced_names(const P& fn, QnTable& qns) {
  Activity act;
  ActivityWalker w(qns, act);
  w.stmts(fn->v1);
  Names out;
  for (const auto& r : act.read) {
    const QnInfo& info = qns.info(r);
    if (info.simple) {
      out.insert(r);
    } else if (info.ast->kind == K::Attribute) {
      out.insert(info.ast->s);  // Namer reserves the string parts of a QN: the attribute name
    }
  }
  return out;
}

}  // namespace tfs::autograph::detail

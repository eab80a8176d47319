// The expression-level passes that run after control flow: conditional expressions,
// logical expressions, and variable access (ag__.ld, AugAssign, del).
#include <functional>

#include "passes.h"
#include "unparse.h"

namespace tfs::autograph::detail {
namespace {

// Rewrites every expression slot below `n` bottom-up (children first) with f.
template <class F>
void rewrite_exprs(const P& n, F& f) {
  if (!n) return;
  for (P* c : {&n->a, &n->b, &n->c}) {
    if (!*c) continue;
    rewrite_exprs(*c, f);
    if (!is_stmt((*c)->kind)) *c = f(*c);
  }
  for (Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5}) {
    for (auto& c : *v) {
      if (!c) continue;
      rewrite_exprs(c, f);
      if (!is_stmt(c->kind)) c = f(c);
    }
  }
  for (auto& [k, v] : n->loop_opts) {
    rewrite_exprs(v, f);
    v = f(v);
  }
}

P binary_call(const char* fn, P a, P b) {
  return call(gen_expr(fn), {lambda0(std::move(a)), lambda0(std::move(b))});
}

}  // namespace

void conditional_expressions_pass(const P& top) {
  // TF does not revisit the pieces of a converted IfExp, so recursion stops there.
  std::function<void(const P&)> visit = [&](const P& n) {
    if (!n) return;
    auto convert = [&](P& slot) {
      if (!slot) return;
      if (slot->kind == K::IfExp) {
        std::string repr = unparse(slot->a);
        slot = call(gen_expr("ag__.if_exp"),
                    {slot->a, lambda0(slot->b), lambda0(slot->c), str_const(repr)});
        return;
      }
      visit(slot);
    };
    for (P* c : {&n->a, &n->b, &n->c}) convert(*c);
    for (Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
      for (auto& c : *v) convert(c);
    for (auto& [k, v] : n->loop_opts) convert(v);
  };
  visit(top);
}

void logical_expressions_pass(const P& top) {
  auto f = [](const P& n) -> P {
    if (n->kind == K::UnaryOp && n->s == "not") return call(gen_expr("ag__.not_"), {n->a});
    if (n->kind == K::BoolOp) {
      const char* fn = n->s == "and" ? "ag__.and_" : "ag__.or_";
      P right = n->v1.back();
      for (size_t i = n->v1.size() - 1; i-- > 0;) right = binary_call(fn, n->v1[i], right);
      return right;
    }
    if (n->kind == K::Compare && n->v1.size() > 1) {
      P left = n->a, tree;
      for (size_t i = 0; i < n->v1.size(); ++i) {
        auto cmp = std::make_shared<Node>(K::Compare);
        cmp->a = clone(left);
        cmp->names = {n->names[i]};
        cmp->v1 = {clone(n->v1[i])};
        tree = tree ? binary_call("ag__.and_", tree, cmp) : cmp;
        left = n->v1[i];
      }
      return tree;
    }
    return n;
  };
  rewrite_exprs(top, f);
}

namespace {

void variables_block(Block& b);

void variables_node(const P& n) {
  auto ld = [](const P& e) -> P {
    if (e->kind == K::Name && e->original && e->ctx == Ctx::Load) {
      e->original = false;
      return call(gen_expr("ag__.ld"), {e});
    }
    return e;
  };
  for (P* c : {&n->a, &n->b, &n->c}) {
    if (!*c) continue;
    if (is_stmt((*c)->kind)) continue;
    variables_node(*c);
    *c = ld(*c);
  }
  for (Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5}) {
    if (!v->empty() && v->front() && is_stmt(v->front()->kind)) {
      variables_block(*v);
      continue;
    }
    for (auto& c : *v) {
      if (!c) continue;
      variables_node(c);
      c = ld(c);
    }
  }
  for (auto& [k, v] : n->loop_opts) {
    variables_node(v);
    v = ld(v);
  }
}

void variables_block(Block& b) {
  Block out;
  for (auto& s : b) {
    if (s->kind == K::AugAssign && s->a->kind == K::Name) {
      P load = name(s->a->s);
      out.push_back(assign(name(s->a->s), call(gen_expr("ag__.ld"), {load})));
      out.push_back(s);
      continue;
    }
    variables_node(s);
    if (s->kind == K::Delete) {
      Block remaining;
      for (auto& t : s->v1) {
        if (t->kind == K::Name)
          out.push_back(assign(name(t->s), call(gen_expr("ag__.Undefined"), {str_const(t->s)})));
        else
          remaining.push_back(t);
      }
      if (!remaining.empty()) {
        s->v1 = remaining;
        out.push_back(s);
      }
      continue;
    }
    out.push_back(s);
  }
  b = out;
}

}  // namespace

void variables_pass(const P& fn) {
  variables_block(fn->v1);
}

}  // namespace tfs::autograph::detail

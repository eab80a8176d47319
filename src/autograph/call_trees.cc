// converters/call_trees.py: f(a, *b, k=c) -> ag__.converted_call(f, (a,) + tuple(b), dict(k=c),
// fscope).
#include <functional>

#include "parser.h"
#include "passes.h"
#include "templates.h"
#include "tfscope/autograph.h"

namespace tfs::autograph::detail {

// ------------------------------------------------------------- call trees

namespace {

class CallTrees {
 public:
  explicit CallTrees(Context& ctx) : ctx_(ctx) {}

  void function(const P& fn) {
    for (auto& d : fn->v2) expr(d);
    for (auto& d : fn->a->v4) expr(d);
    for (auto& d : fn->a->v5)
      if (d) expr(d);
    scopes_.push_back(ctx_.context_name[fn.get()]);
    block(fn->v1);
    scopes_.pop_back();
  }

  // A converted lambda entity: calls in its body use its context name (lscope).
  void lambda(const P& lam) {
    scopes_.push_back(ctx_.context_name[lam.get()]);
    expr(lam->b);
    scopes_.pop_back();
  }

 private:
  void block(Block& b) {
    for (auto& s : b) stmt(s);
  }

  void stmt(P& s) {
    switch (s->kind) {
      case K::FunctionDef:
        function(s);
        return;
      case K::With:
        block(s->v2);
        return;
      default:
        break;
    }
    for (P* c : {&s->a, &s->b, &s->c})
      if (*c) visit(*c);
    for (Block* v : {&s->v1, &s->v2, &s->v3, &s->v4, &s->v5})
      for (auto& c : *v)
        if (c) visit(c);
  }

  void visit(P& n) {
    if (is_stmt(n->kind))
      stmt(n);
    else
      expr(n);
  }

  void expr(P& n) {
    if (!n) return;
    if (n->kind == K::Call) {
      std::string full = ctx_.qns.of(n->a);
      for (P* c : {&n->a}) expr(*c);
      for (auto& a : n->v1) expr(a);
      for (auto& k : n->v2) expr(k);
      // Defaults of the converted function itself are outside any function scope (and are
      // printed as None anyway).
      if (scopes_.empty()) return;
      const std::string& scope = scopes_.back();
      if (full.rfind("ag__.", 0) == 0 || full.rfind(scope + ".", 0) == 0 ||
          full == "pdb.set_trace" || full == "ipdb.set_trace" || full == "breakpoint" ||
          full == "print")
        return;
      n = call(gen_expr("ag__.converted_call"),
               {n->a, args_tuple(n->v1), kwargs_dict(n->v2), name(scope)});
      return;
    }
    for (P* c : {&n->a, &n->b, &n->c})
      if (*c) visit(*c);
    for (Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
      for (auto& c : *v)
        if (c) visit(c);
  }

  static P args_tuple(const Block& args) {
    Block specs, acc;
    auto consume = [&] {
      if (!acc.empty()) specs.push_back(tuple(acc));
      acc.clear();
    };
    for (auto& a : args) {
      if (a->kind == K::Starred) {
        consume();
        specs.push_back(call(name("tuple"), {a->a}));
      } else {
        acc.push_back(a);
      }
    }
    consume();
    if (specs.empty()) return tuple({});
    P result = specs[0];
    for (size_t i = 1; i < specs.size(); ++i) {
      auto b = std::make_shared<Node>(K::BinOp);
      b->s = "+";
      b->a = result;
      b->b = specs[i];
      result = b;
    }
    return result;
  }

  static P kwargs_dict(const Block& keywords) {
    if (keywords.empty()) return kw_const(ConstKind::None);
    return call(name("dict"), {}, keywords);
  }

  Context& ctx_;
  std::vector<std::string> scopes_;
};

}  // namespace

void call_trees_pass(const P& fn, Context& ctx) {
  CallTrees(ctx).function(fn);
}

void call_trees_pass_lambda(const P& lam, Context& ctx) {
  CallTrees(ctx).lambda(lam);
}

}  // namespace tfs::autograph::detail

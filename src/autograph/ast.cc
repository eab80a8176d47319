#include "ast.h"

namespace tfs::autograph::detail {

Node::~Node() {
  std::vector<P> dying;
  auto adopt = [&dying](Node& n) { for_each_child(n, [&](P& c) { dying.push_back(std::move(c)); }); };
  adopt(*this);
  while (!dying.empty()) {
    P p = std::move(dying.back());
    dying.pop_back();
    if (p.use_count() == 1) adopt(*p);  // its children die here, not in p's destructor
  }
}

P clone(const P& n) {
  if (!n) return nullptr;
  auto c = std::make_shared<Node>(*n);
  c->a = clone(n->a);
  c->b = clone(n->b);
  c->c = clone(n->c);
  c->v1 = clone(n->v1);
  c->v2 = clone(n->v2);
  c->v3 = clone(n->v3);
  c->v4 = clone(n->v4);
  c->v5 = clone(n->v5);
  c->extra_test = clone(n->extra_test);
  for (auto& [k, v] : c->loop_opts) v = clone(v);
  return c;
}

Block clone(const Block& b) {
  Block out;
  out.reserve(b.size());
  for (const auto& n : b) out.push_back(clone(n));
  return out;
}

P name(const std::string& id, Ctx ctx) {
  auto n = std::make_shared<Node>(K::Name);
  n->s = id;
  n->ctx = ctx;
  return n;
}

P str_const(const std::string& value) {
  auto n = std::make_shared<Node>(K::Constant);
  n->ckind = ConstKind::Str;
  n->s = value;
  return n;
}

P int_const(long long value) {
  auto n = std::make_shared<Node>(K::Constant);
  n->ckind = ConstKind::Int;
  n->s = std::to_string(value);
  return n;
}

P kw_const(ConstKind k) {
  auto n = std::make_shared<Node>(K::Constant);
  n->ckind = k;
  return n;
}

P attr(P value, const std::string& attr) {
  auto n = std::make_shared<Node>(K::Attribute);
  n->a = std::move(value);
  n->s = attr;
  return n;
}

P call(P func, Block args, Block keywords) {
  auto n = std::make_shared<Node>(K::Call);
  n->a = std::move(func);
  n->v1 = std::move(args);
  n->v2 = std::move(keywords);
  return n;
}

P expr_stmt(P value) {
  auto n = std::make_shared<Node>(K::Expr);
  n->a = std::move(value);
  return n;
}

P assign(P target, P value) {
  auto n = std::make_shared<Node>(K::Assign);
  set_ctx(target, Ctx::Store);
  n->v1.push_back(std::move(target));
  n->a = std::move(value);
  return n;
}

P tuple(Block elts, Ctx ctx) {
  auto n = std::make_shared<Node>(K::Tuple);
  n->v1 = std::move(elts);
  n->ctx = ctx;
  return n;
}

P dotted(const std::string& path) {
  size_t dot = path.find('.');
  P cur = name(path.substr(0, dot));
  while (dot != std::string::npos) {
    size_t next = path.find('.', dot + 1);
    cur = attr(cur, path.substr(dot + 1, next == std::string::npos ? next : next - dot - 1));
    dot = next;
  }
  return cur;
}

P lambda0(P body) {
  auto n = std::make_shared<Node>(K::Lambda);
  n->a = std::make_shared<Node>(K::Arguments);
  n->b = std::move(body);
  return n;
}

P unary(const std::string& op, P operand) {
  auto n = std::make_shared<Node>(K::UnaryOp);
  n->s = op;
  n->a = std::move(operand);
  return n;
}

P funcdef(const std::string& fname, std::vector<std::string> params, Block body) {
  auto n = std::make_shared<Node>(K::FunctionDef);
  n->s = fname;
  n->a = std::make_shared<Node>(K::Arguments);
  for (auto& p : params) {
    auto arg = std::make_shared<Node>(K::Arg);
    arg->s = p;
    n->a->v2.push_back(arg);
  }
  n->v1 = std::move(body);
  return n;
}

P pass_stmt() {
  return std::make_shared<Node>(K::Pass);
}

void set_ctx(const P& t, Ctx ctx) {
  if (!t) return;
  switch (t->kind) {
    case K::Name:
    case K::Attribute:
    case K::Subscript:
      t->ctx = ctx;
      break;
    case K::Starred:
      t->ctx = ctx;
      set_ctx(t->a, ctx);
      break;
    case K::Tuple:
    case K::List:
      t->ctx = ctx;
      for (auto& e : t->v1) set_ctx(e, ctx);
      break;
    default:
      break;
  }
}

}  // namespace tfs::autograph::detail

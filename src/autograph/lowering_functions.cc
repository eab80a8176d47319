// Passes that run first: the unsupported-feature check, scope.referenced, the function
// wrapper (converters/functions.py) and loop directives (converters/directives.py).
#include <functional>

#include "parser.h"
#include "passes.h"
#include "templates.h"
#include "tfscope/autograph.h"

namespace tfs::autograph::detail {

std::string Namer::new_symbol(const std::string& root_in, const Names& reserved) {
  std::string root = root_in;
  long n = 0;
  size_t us = root.rfind('_');
  if (us != std::string::npos && us + 1 < root.size() &&
      root.find_first_not_of("0123456789", us + 1) == std::string::npos) {
    n = std::stol(root.substr(us + 1));
    root = root.substr(0, us);
  }
  std::string name = root;
  while (globals_.count(name) || reserved.count(name) || generated_.count(name)) {
    ++n;
    name = root + "_" + std::to_string(n);
  }
  generated_.insert(name);
  return name;
}
namespace {

// Generated code has no source line (lines of the template text mean nothing in the user's file).
void clear_lines(const P& n) {
  if (!n) return;
  n->line = 0;
  for (const P* c : {&n->a, &n->b, &n->c}) clear_lines(*c);
  for (const Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
    for (auto& c : *v) clear_lines(c);
}

}  // namespace

P gen_expr(const std::string& text) {
  P e = parse_expression(text);
  unmark(e);
  clear_lines(e);
  return e;
}

// ------------------------------------------------------------- unsupported features

const Node* find_unsupported(const P& n, std::string* why) {
  if (!n) return nullptr;
  const char* msg = nullptr;
  switch (n->kind) {
    case K::Attribute:
      if (n->s.size() > 2 && n->s.compare(0, 2, "__") == 0 &&
          n->s.compare(n->s.size() - 2, 2, "__") != 0)
        msg = "mangled names are not yet supported";
      break;
    case K::For:
      if (!n->v2.empty()) msg = "for/else statement not yet supported";
      break;
    case K::While:
      if (!n->v2.empty()) msg = "while/else statement not yet supported";
      break;
    case K::Yield:
    case K::YieldFrom:
      msg = "generators are not supported";
      break;
    default:
      break;
  }
  if (msg) {
    if (why) *why = msg;
    return n.get();
  }
  for (const P* c : {&n->a, &n->b, &n->c})
    if (const Node* bad = find_unsupported(*c, why)) return bad;
  for (const Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
    for (auto& c : *v)
      if (const Node* bad = find_unsupported(c, why)) return bad;
  return nullptr;
}

void check_unsupported(const P& n) {
  std::string why;
  if (find_unsupported(n, &why)) throw ConversionError(why, "UnsupportedLanguageElementError");
}

void compute_referenced(const P& top, Context& ctx) {
  std::function<void(const P&, const Names&)> visit = [&](const P& n, const Names& outer) {
    if (!n) return;
    Names mine = outer;
    if (n->kind == K::FunctionDef || n->kind == K::Lambda) {
      P body_holder = n;
      if (n->kind == K::Lambda) {
        body_holder = std::make_shared<Node>(K::FunctionDef);
        body_holder->v1 = {expr_stmt(n->b)};
      }
      Names own = referenced_names(body_holder, ctx.qns);
      mine.insert(own.begin(), own.end());
      ctx.referenced[n.get()] = mine;
    }
    for (const P* c : {&n->a, &n->b, &n->c}) visit(*c, mine);
    for (const Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
      for (auto& c : *v) visit(c, mine);
  };
  visit(top, {});
}

// ------------------------------------------------------------- functions

void functions_pass(const P& top, Context& ctx) {
  std::function<void(const P&, int)> visit = [&](const P& n, int level) {
    if (!n) return;
    if (n->kind == K::FunctionDef) {
      std::string scope_name = ctx.namer.new_symbol("fscope", ctx.referenced[n.get()]);
      ctx.context_name[n.get()] = scope_name;
      for (const P* c : {&n->a, &n->b}) visit(*c, level + 1);
      for (auto& d : n->v2) visit(d, level + 1);
      for (auto& s : n->v1) visit(s, level + 1);
      if (level == 0)
        n->v2.clear();
      else
        n->v2.push_back(gen_expr("ag__.autograph_artifact"));
      P docstring;
      Block body = n->v1;
      if (!body.empty() && body[0]->kind == K::Expr && body[0]->a->kind == K::Constant) {
        docstring = body[0];
        body.erase(body.begin());
      }
      P options = level == 0 ? gen_expr(
                                   "ag__.ConversionOptions(recursive=True, user_requested=True, "
                                   "optional_features=(), internal_convert_user_code=True)")
                             : gen_expr("ag__.STD");
      auto item = std::make_shared<Node>(K::WithItem);
      item->a =
          call(gen_expr("ag__.FunctionScope"), {str_const(n->s), str_const(scope_name), options});
      item->b = name(scope_name, Ctx::Store);
      auto with = std::make_shared<Node>(K::With);
      with->v1 = {item};
      with->v2 = body;
      n->v1.clear();
      if (docstring) n->v1.push_back(docstring);
      n->v1.push_back(with);
      return;
    }
    if (n->kind == K::Lambda) {
      for (const P* c : {&n->a, &n->b}) visit(*c, level + 1);
      return;  // wrapping happens in the parent, which owns the slot
    }
    auto wrap = [&](P& slot) {
      if (slot && slot->kind == K::Lambda) {
        visit(slot, level);
        slot = call(gen_expr("ag__.autograph_artifact"), {slot});
        return;
      }
      visit(slot, level);
    };
    for (P* c : {&n->a, &n->b, &n->c}) wrap(*c);
    for (Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
      for (auto& c : *v) wrap(c);
  };
  visit(top, 0);
}

// ------------------------------------------------------------- directives

namespace {

bool is_set_loop_options(const P& stmt) {
  if (stmt->kind != K::Expr || stmt->a->kind != K::Call) return false;
  const P& f = stmt->a->a;
  if (f->kind == K::Name) return f->s == "set_loop_options";
  return f->kind == K::Attribute && f->s == "set_loop_options";
}

}  // namespace

void directives_pass(const P& n, Context& ctx) {
  if (!n) return;
  if (n->kind == K::While || n->kind == K::For) {
    for (size_t i = 0; i < n->v1.size(); ++i) {
      if (!is_set_loop_options(n->v1[i])) continue;
      if (i != 0)
        throw ConversionError("\"set_loop_options\" must be the first statement in the loop block",
                              "ValueError");
      for (auto& kw : n->v1[i]->a->v2) n->loop_opts.emplace_back(kw->s, kw->a);
      n->has_loop_opts = true;
      n->v1.erase(n->v1.begin());
      if (n->v1.empty()) n->v1.push_back(pass_stmt());
      break;
    }
  }
  for (const P* c : {&n->a, &n->b, &n->c}) directives_pass(*c, ctx);
  for (const Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
    for (auto& c : *v) directives_pass(c, ctx);
}

}  // namespace tfs::autograph::detail

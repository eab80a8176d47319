// Lowering passes that run before control flow: functions, directives, break, continue,
// return, call trees.
#include "passes.h"

#include <functional>

#include "parser.h"
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

void unmark(const P& n) {
  if (!n) return;
  n->original = false;
  for (const P* c : {&n->a, &n->b, &n->c}) unmark(*c);
  for (const Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
    for (auto& c : *v) unmark(c);
}

P not_(P operand) {
  return unary("not", std::move(operand));
}

P and_(P a, P b) {
  auto n = std::make_shared<Node>(K::BoolOp);
  n->s = "and";
  n->v1 = {std::move(a), std::move(b)};
  return n;
}

P if_not(const std::string& var, Block body) {
  auto n = std::make_shared<Node>(K::If);
  n->a = not_(name(var));
  n->v1 = std::move(body);
  return n;
}

Block single(P n) {
  return Block{std::move(n)};
}

// Calls f on every function (FunctionDef or Lambda) node in the tree, outer first.
void for_each_function(const P& n, const std::function<void(const P&)>& f) {
  if (!n) return;
  if (n->kind == K::FunctionDef || n->kind == K::Lambda) f(n);
  for (const P* c : {&n->a, &n->b, &n->c}) for_each_function(*c, f);
  for (const Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
    for (auto& c : *v) for_each_function(c, f);
}

}  // namespace

P gen_expr(const std::string& text) {
  P e = parse_expression(text);
  unmark(e);
  return e;
}

// ------------------------------------------------------------- unsupported features

void check_unsupported(const P& n) {
  if (!n) return;
  auto reject = [](const std::string& msg) {
    throw ConversionError(msg, "UnsupportedLanguageElementError");
  };
  switch (n->kind) {
    case K::Attribute:
      if (n->s.size() > 2 && n->s.compare(0, 2, "__") == 0 &&
          n->s.compare(n->s.size() - 2, 2, "__") != 0)
        reject("mangled names are not yet supported");
      break;
    case K::For:
      if (!n->v2.empty()) reject("for/else statement not yet supported");
      break;
    case K::While:
      if (!n->v2.empty()) reject("while/else statement not yet supported");
      break;
    case K::Yield:
    case K::YieldFrom:
      reject("generators are not supported");
      break;
    default:
      break;
  }
  for (const P* c : {&n->a, &n->b, &n->c}) check_unsupported(*c);
  for (const Block* v : {&n->v1, &n->v2, &n->v3, &n->v4, &n->v5})
    for (auto& c : *v) check_unsupported(c);
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

// ------------------------------------------------------------- break

namespace {

class BreakLowering {
 public:
  explicit BreakLowering(Context& ctx) : ctx_(ctx) {}

  void function(const P& fn) {
    fns_.push_back(fn.get());
    fn->v1 = block(fn->v1);
    fns_.pop_back();
  }

  Block block(const Block& b) {
    Block out;
    for (auto& s : b)
      for (auto& r : stmt(s)) out.push_back(r);
    return out;
  }

 private:
  struct State {
    bool used = false;
    std::string var;
  };

  Block stmt(const P& s) {
    switch (s->kind) {
      case K::Break: {
        states_.back().used = true;
        return {assign(name(states_.back().var), kw_const(ConstKind::True)),
                std::make_shared<Node>(K::Continue)};
      }
      case K::While:
      case K::For: {
        std::string var = ctx_.namer.new_symbol("break_", ctx_.referenced[fns_.back()]);
        states_.push_back({false, var});
        s->v1 = block(s->v1);
        bool used = states_.back().used;
        states_.pop_back();
        s->v2 = block(s->v2);
        if (!used) return single(s);
        if (s->kind == K::While) {
          s->a = and_(not_(name(var)), s->a);
        } else {
          s->v1.insert(s->v1.begin(), expr_stmt(tuple({name(var)})));
          s->extra_test = not_(name(var));
        }
        return {assign(name(var), kw_const(ConstKind::False)), s};
      }
      case K::FunctionDef:
        function(s);
        return single(s);
      case K::ClassDef:
        s->v1 = block(s->v1);
        return single(s);
      case K::If:
        s->v1 = block(s->v1);
        s->v2 = block(s->v2);
        return single(s);
      case K::With:
        s->v2 = block(s->v2);
        return single(s);
      case K::Try:
        s->v1 = block(s->v1);
        for (auto& h : s->v2) h->v1 = block(h->v1);
        s->v3 = block(s->v3);
        s->v4 = block(s->v4);
        return single(s);
      default:
        return single(s);
    }
  }

  Context& ctx_;
  std::vector<const Node*> fns_;
  std::vector<State> states_;
};

}  // namespace

void break_pass(const P& fn, Context& ctx) {
  BreakLowering(ctx).function(fn);
}

// ------------------------------------------------------------- continue

namespace {

class ContinueLowering {
 public:
  explicit ContinueLowering(Context& ctx) : ctx_(ctx) {}

  void function(const P& fn) {
    fns_.push_back(fn.get());
    fn->v1 = plain_block(fn->v1);
    fns_.pop_back();
  }

 private:
  struct BlockState {
    bool is_loop = false, guard_current = false, guard_next = false;
  };
  struct ContinueState {
    bool used = false;
    std::string var;
  };

  // A block visited without after_visit (generic_visit): no guards at this level.
  Block plain_block(const Block& b) {
    Block out;
    for (auto& s : b)
      for (auto& r : stmt(s)) out.push_back(r);
    return out;
  }

  Block guarded_block(const Block& b) {
    Block results;
    Block* dest = &results;
    for (auto& s : b) {
      Block repl = stmt(s);
      Block* new_dest = nullptr;
      if (!repl.empty() && !conts_.empty() && conts_.back().used) {
        BlockState& bs = blocks_.back();
        bool wrap = bs.guard_current;
        bs.guard_current = bs.guard_next;
        bs.guard_next = false;
        if (wrap) {
          P cond = if_not(conts_.back().var, repl);
          repl = {cond};
          new_dest = &cond->v1;
        }
      }
      for (auto& r : repl) dest->push_back(r);
      if (new_dest) dest = new_dest;
    }
    return results;
  }

  Block loop_body(const Block& b) {
    std::string var = ctx_.namer.new_symbol("continue_", ctx_.referenced[fns_.back()]);
    conts_.push_back({false, var});
    blocks_.push_back({true, false, false});
    Block out = guarded_block(b);
    if (conts_.back().used) out.insert(out.begin(), assign(name(var), kw_const(ConstKind::False)));
    blocks_.pop_back();
    conts_.pop_back();
    return out;
  }

  Block non_loop_body(const Block& b) {
    blocks_.push_back({});
    Block out = guarded_block(b);
    blocks_.pop_back();
    return out;
  }

  Block stmt(const P& s) {
    switch (s->kind) {
      case K::Continue: {
        conts_.back().used = true;
        for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it) {
          it->guard_next = true;
          if (it->is_loop) break;
        }
        return {assign(name(conts_.back().var), kw_const(ConstKind::True))};
      }
      case K::While:
      case K::For:
        s->v1 = loop_body(s->v1);
        s->v2 = non_loop_body(s->v2);
        return single(s);
      case K::If:
        s->v1 = non_loop_body(s->v1);
        s->v2 = non_loop_body(s->v2);
        return single(s);
      case K::With:
        s->v2 = non_loop_body(s->v2);
        return single(s);
      case K::Try:
        s->v1 = non_loop_body(s->v1);
        s->v3 = non_loop_body(s->v3);
        s->v4 = non_loop_body(s->v4);
        for (auto& h : s->v2) h->v1 = non_loop_body(h->v1);
        return single(s);
      case K::FunctionDef:
        function(s);
        return single(s);
      case K::ClassDef:
        s->v1 = plain_block(s->v1);
        return single(s);
      default:
        return single(s);
    }
  }

  Context& ctx_;
  std::vector<const Node*> fns_;
  std::vector<BlockState> blocks_;
  std::vector<ContinueState> conts_;
};

}  // namespace

void continue_pass(const P& fn, Context& ctx) {
  ContinueLowering(ctx).function(fn);
}

// ------------------------------------------------------------- return

namespace {

// ConditionalReturnRewriter: `if c: ...return...` followed by more code moves that code into
// the branch that does not return.
class ConditionalReturnRewriter {
 public:
  std::pair<Block, bool> block(const Block& b) {
    bool definitely = false;
    Block results;
    Block* dest = &results;
    for (auto& s : b) {
      bool stmt_returns = false, body_returns = false, orelse_returns = false;
      visit(s, &stmt_returns, &body_returns, &orelse_returns);
      if (stmt_returns) definitely = true;
      dest->push_back(s);
      if (s->kind == K::If && body_returns)
        dest = &s->v2;
      else if (s->kind == K::If && orelse_returns)
        dest = &s->v1;
    }
    return {results, definitely};
  }

 private:
  void visit(const P& s, bool* stmt_returns, bool* body_returns, bool* orelse_returns) {
    switch (s->kind) {
      case K::Return:
        *stmt_returns = true;
        break;
      case K::If: {
        auto [body, br] = block(s->v1);
        s->v1 = body;
        auto [orelse, orr] = block(s->v2);
        s->v2 = orelse;
        *body_returns = br;
        *orelse_returns = orr;
        if (br && orr) *stmt_returns = true;
        break;
      }
      case K::While:
      case K::For:
        s->v1 = block(s->v1).first;
        s->v2 = block(s->v2).first;
        break;
      case K::With: {
        auto [body, r] = block(s->v2);
        s->v2 = body;
        if (r) *stmt_returns = true;
        break;
      }
      case K::Try:
        s->v1 = block(s->v1).first;
        s->v3 = block(s->v3).first;
        s->v4 = block(s->v4).first;
        for (auto& h : s->v2) h->v1 = block(h->v1).first;
        break;
      case K::FunctionDef:
      case K::ClassDef:
        s->v1 = block(s->v1).first;
        break;
      default:
        break;
    }
  }
};

class ReturnLowering {
 public:
  explicit ReturnLowering(Context& ctx) : ctx_(ctx) {}

  void function(const P& fn) {
    const Names& ref = ctx_.referenced[fn.get()];
    fns_.push_back(
        {ctx_.namer.new_symbol("do_return", ref), ctx_.namer.new_symbol("retval_", ref)});
    blocks_.push_back({});
    blocks_.back().is_function = true;
    size_t fn_block = blocks_.size() - 1;
    fn->v1 = statement_block(fn->v1);
    if (blocks_[fn_block].return_used) {
      const std::string& dr = fns_.back().do_return;
      const std::string& rv = fns_.back().retval;
      P with = fn->v1.back();
      Block body{assign(name(dr), kw_const(ConstKind::False)),
                 assign(name(rv), gen_expr("ag__.UndefinedReturnValue()"))};
      for (auto& s : with->v2) body.push_back(s);
      body.push_back([&] {
        auto r = std::make_shared<Node>(K::Return);
        r->a = call(attr(name(ctx_.context_name[fn.get()]), "ret"), {name(rv), name(dr)});
        return r;
      }());
      with->v2 = body;
    }
    blocks_.pop_back();
    fns_.pop_back();
  }

 private:
  struct BlockState {
    bool is_function = false, return_used = false, guard_next = false, guard_now = false;
  };
  struct FnState {
    std::string do_return, retval;
  };

  Block statement_block(const Block& b) {
    blocks_.push_back({});
    Block results;
    Block* dest = &results;
    for (auto& s : b) {
      Block repl = stmt(s);
      Block* new_dest = nullptr;
      BlockState& bs = blocks_.back();
      if (!repl.empty() && bs.return_used) {
        if (bs.guard_now) {
          P cond = if_not(fns_.back().do_return, repl);
          repl = {cond};
          new_dest = &cond->v1;
        }
        bs.guard_now = bs.guard_next;
        bs.guard_next = false;
      }
      for (auto& r : repl) dest->push_back(r);
      if (new_dest) dest = new_dest;
    }
    blocks_.pop_back();
    return results;
  }

  Block stmt(const P& s) {
    switch (s->kind) {
      case K::Return: {
        for (auto it = blocks_.rbegin(); it != blocks_.rend(); ++it) {
          it->return_used = true;
          it->guard_next = true;
          if (it->is_function) break;
        }
        const FnState& f = fns_.back();
        auto t = std::make_shared<Node>(K::Try);
        t->v1 = {assign(name(f.do_return), kw_const(ConstKind::True)),
                 assign(name(f.retval), s->a ? s->a : kw_const(ConstKind::None))};
        auto h = std::make_shared<Node>(K::ExceptHandler);
        h->v1 = {assign(name(f.do_return), kw_const(ConstKind::False)),
                 std::make_shared<Node>(K::Raise)};
        t->v2 = {h};
        return {t};
      }
      case K::While:
        s->v1 = statement_block(s->v1);
        if (blocks_.back().return_used) s->a = and_(not_(name(fns_.back().do_return)), s->a);
        s->v2 = statement_block(s->v2);
        return single(s);
      case K::For:
        s->v1 = statement_block(s->v1);
        if (blocks_.back().return_used) {
          P dr = not_(name(fns_.back().do_return));
          s->extra_test = s->extra_test ? and_(dr, s->extra_test) : dr;
        }
        s->v2 = statement_block(s->v2);
        return single(s);
      case K::If:
        s->v1 = statement_block(s->v1);
        s->v2 = statement_block(s->v2);
        return single(s);
      case K::With:
        s->v2 = statement_block(s->v2);
        return single(s);
      case K::Try:
        s->v1 = statement_block(s->v1);
        s->v3 = statement_block(s->v3);
        s->v4 = statement_block(s->v4);
        for (auto& h : s->v2) h->v1 = statement_block(h->v1);
        return single(s);
      case K::FunctionDef:
        function(s);
        return single(s);
      case K::ClassDef: {
        Block body;
        for (auto& c : s->v1)
          for (auto& r : stmt(c)) body.push_back(r);
        s->v1 = body;
        return single(s);
      }
      default:
        return single(s);
    }
  }

  Context& ctx_;
  std::vector<FnState> fns_;
  std::vector<BlockState> blocks_;
};

}  // namespace

void return_pass(const P& fn, Context& ctx) {
  ConditionalReturnRewriter rewriter;
  std::function<void(const P&)> rewrite_all = [&](const P& f) {
    f->v1 = rewriter.block(f->v1).first;
  };
  rewrite_all(fn);
  ReturnLowering(ctx).function(fn);
}

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

}  // namespace tfs::autograph::detail

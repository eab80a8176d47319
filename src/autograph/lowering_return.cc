// converters/return_statements.py: ConditionalReturnRewriter, then do_return / retval_.
#include <functional>

#include "parser.h"
#include "passes.h"
#include "templates.h"
#include "tfscope/autograph.h"

namespace tfs::autograph::detail {

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

}  // namespace tfs::autograph::detail
